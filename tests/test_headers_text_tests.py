"""The headers stage's cheaper text tests (headers/functions.xsl) against the regular expressions they replace: the
same answer for every string.

f:is-header-class answers with contains() over the whole class string (a word of no white space lies inside one
token), and compares the tokens with "th" only where the string contains it; the old test read every token with the
regular expression 'head|label|title|caption'. Both are evaluated by a small stylesheet importing ``headers.xsl``,
on fixed strings and generated class strings of the four words, "th", their parts, letters, hyphens and white
space of each kind (space, tab, line feed, carriage return)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from .headers_helpers import stage_and_variant

_STYLESHEET = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:function name="fp:old-is-header-class" as="xs:boolean">
    <xsl:param name="classes" as="xs:string?"/>
    <xsl:sequence select="some $token in tokenize(string($classes))
                          satisfies ($token eq 'th' or matches($token, 'head|label|title|caption'))"/>
  </xsl:function>
  <xsl:template match="/" priority="10">
    <r><xsl:for-each select="/strings/s">
      <v new="{f:is-header-class(string(.))}" old="{fp:old-is-header-class(string(.))}"/>
    </xsl:for-each></r>
  </xsl:template>
</xsl:stylesheet>"""


def _compiled() -> tuple[Any, Any]:
    processor, _, variant = stage_and_variant(_STYLESHEET)
    return processor, variant


def _answers(strings: list[str]) -> list[tuple[str, str]]:
    from lxml import etree

    processor, executable = _compiled()
    root = etree.Element("strings")
    for text in strings:
        etree.SubElement(root, "s").text = text
    node = processor.parse_xml(xml_text=etree.tostring(root, encoding="unicode"))
    out = etree.fromstring(executable.transform_to_string(xdm_node=node).encode())
    return [(v.get("new"), v.get("old")) for v in out]


_FIXED = ["", " ", "th", "TH", " th ", "thead", "x th", "th\tx", "with", "the th", "tht", "sortable-th",
          "infobox-label", "infobox-data", "navbox-title", "head", "header", "thumb", "captions", "subtitle",
          "lab el", "ti tle", "hea\nd", "cap\rtion", "la\tbel", "wikitable sortable", "mw-headline", "Title",
          "HEAD", "headline th", "t h", "\u00a0th\u00a0", "th\u00a0", "label\u2003x"]


def test_fixed_class_strings() -> None:
    for text, (new, old) in zip(_FIXED, _answers(_FIXED)):
        assert new == old, (text, new, old)


_PARTS = st.sampled_from(["head", "label", "title", "caption", "th", "t", "h", "he", "ad", "lab", "el", "ti", "tle",
                          "cap", "tion", "x", "-", "infobox", "_", "T", "H", "\u00a0", "\u00e9"])
_SPACES = st.sampled_from([" ", "\t", "\n", "\r", "  ", " \t "])
_CLASSES = st.lists(st.one_of(_PARTS, _SPACES), max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_CLASSES, min_size=1, max_size=20))
def test_generated_class_strings(strings: list[str]) -> None:
    for text, (new, old) in zip(strings, _answers(strings)):
        assert new == old, (text, new, old)
