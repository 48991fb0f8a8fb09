"""Element names from header text (stylesheets/lib/names.xsl): the rule, and that every result is a valid name."""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.runtime.saxon import SaxonRuntime

STYLESHEETS = Path(__file__).resolve().parents[1] / "stylesheets"

# Names must pass libxml2's xs:NCName check, which follows XML 1.0 (fourth edition): the check every generated
# schema meets when it is compiled.
_NCNAME_SCHEMA = etree.XMLSchema(etree.fromstring(
    b'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="r"><xs:complexType>'
    b'<xs:attribute name="n" type="xs:NCName" use="required"/></xs:complexType></xs:element></xs:schema>'))


def is_ncname(text: str) -> bool:
    element = etree.Element("r")
    element.set("n", text)
    return _NCNAME_SCHEMA.validate(element)


@cache
def _runtime() -> SaxonRuntime:
    runtime = SaxonRuntime()
    characters = STYLESHEETS / "lib" / "name-characters.xsl"
    wrapper = STYLESHEETS / "lib" / "names.xsl"
    test_sheet = Path(tempfile.mkdtemp(prefix="pyxform-names-")) / "names-driver.xsl"
    test_sheet.write_text(f"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
      xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function" exclude-result-prefixes="#all"
      expand-text="yes">
      <xsl:include href="{characters.as_uri()}"/>
      <xsl:include href="{wrapper.as_uri()}"/>
      <xsl:template match="/">
        <names letters="{{string-to-codepoints($f:name-letters)}}" others="{{string-to-codepoints($f:name-others)}}">
          <xsl:for-each select="/texts/t"><n null="{{f:is-null(string(.))}}">{{f:xml-name(string(.), 'field')}}</n>
          </xsl:for-each></names>
      </xsl:template>
    </xsl:stylesheet>""".replace("{{", "{").replace("}}", "}"))
    runtime.compile_all({"names": test_sheet})
    return runtime


def names(*texts: str) -> list[str]:
    return [n for n, _ in names_and_nulls(*texts)]


def names_and_nulls(*texts: str) -> list[tuple[str, bool]]:
    root = etree.Element("texts")
    for text in texts:
        etree.SubElement(root, "t").text = text
    runtime = _runtime()
    out = runtime.transform_to_string("names", runtime.parse(etree.tostring(root, encoding="unicode")))
    return [(n.text or "", n.get("null") == "true") for n in etree.fromstring(out.encode())]


def test_the_papers_example() -> None:
    assert names("Population Statistics") == ["population-statistics"]


def test_words_joined_lower_cased_of_every_script() -> None:
    assert names("Average  Height (cm)", "GDP/capita", "Größe", "人口 统计", "Население", "Women's 100 m") == [
        "average-height-cm", "gdp-capita", "größe", "人口-统计", "население", "womens-100-m"]


def test_letters_outside_the_fourth_edition_are_decomposed_or_escaped() -> None:
    assert names("București", "ስም ዝርዝር", "Ԁ x") == ["bucures\u0326ti", "_x1235__x121D_-_x12DD__x122D__x12DD__x122D_",
                                                       "_x0501_-x"]
    assert all(is_ncname(name) for name in names("București", "ስም ዝርዝር", "Ԁ x", "𐐀 old"))


def test_name_characters_are_the_ones_libxml2_accepts() -> None:
    runtime = _runtime()
    out = runtime.transform_to_string("names", runtime.parse("<texts/>"))
    root = etree.fromstring(out.encode())
    letters, others = (_class_members(root.get(name) or "") for name in ("letters", "others"))
    for code in range(0x80, 0xFFFE):
        if 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF):
            continue
        character = chr(code)
        assert is_ncname(character) == (code in letters), hex(code)
        assert is_ncname("a" + character) == (code in letters or code in others), hex(code)


def _class_members(codepoints: str) -> set[int]:
    """The code points of a character-class body ("A-Z" ranges) given as a space-separated list of code points."""
    codes = [int(c) for c in codepoints.split()]
    members: set[int] = set()
    i = 0
    while i < len(codes):
        if i + 2 < len(codes) and codes[i + 1] == ord("-"):
            members.update(range(codes[i], codes[i + 2] + 1))
            i += 3
        else:
            members.add(codes[i])
            i += 1
    return members


def test_symbols_digits_and_reserved_prefix() -> None:
    assert names("#", "%", "+/-", "R&B", "2010", "1st place", "XML data", "xmlns", "km²", "—", "", "٣") == [
        "number", "percent", "plus-minus", "r-and-b", "_2010", "_1st-place", "_xml-data", "_xmlns", "km2",
        "field", "field", "_٣"]


def test_footnote_markers_are_not_part_of_names() -> None:
    assert names("UK[9]", "Deaths [a][b]", "Area[note 2]", "Votes[citation needed]", "Population [millions]") == [
        "uk", "deaths", "area", "votes", "population-millions"]


def test_long_text_is_cut_at_a_word_boundary() -> None:
    (name,) = names("word " * 40)
    assert len(name) <= 64 and name.endswith("word") and "--" not in name
    (single,) = names("x" * 200)
    assert single == "x" * 64


def test_null_tags_are_blank_texts_only() -> None:
    assert [null for _, null in names_and_nulls("", " ", "\u00a0", "\u200b", "-", "a")] == [
        True, True, True, True, False, False]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\ufffe\uffff")
                        .filter(lambda c: c in "\t\n\r" or ord(c) >= 0x20), max_size=30),
                min_size=1, max_size=20))
def test_every_text_gives_a_valid_unreserved_name(texts: list[str]) -> None:
    for name in names(*texts):
        assert is_ncname(name), name
        assert not name.lower().startswith("xml")
        assert not re.match(r"\d", name)
        assert len(name) <= 65
        etree.fromstring(f"<{name}/>")
