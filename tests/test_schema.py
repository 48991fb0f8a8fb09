"""XSD generation (stylesheets/schema.xsl) and validation (pyxform.stages.schema)."""

from __future__ import annotations

from pathlib import Path

import pytest
import xmlschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.api.convert import convert_grid
from pyxform.base.errors import InputNotFound, StylesheetError, ValidationError
from pyxform.stages.schema import generate_schema, validate

from .annotated_grids import C, T, grid_xml, td, th

XS = "{http://www.w3.org/2001/XMLSchema}"
DATA = Path(__file__).parent / "data"


def declarations(xsd: str) -> dict[str, etree._Element]:
    """Each xs:element by its path of names from the document element."""
    root = etree.fromstring(xsd.encode())
    found = {}
    for element in root.iter(XS + "element"):
        path = [a.get("name") for a in element.iterancestors(XS + "element")]
        found["/".join(reversed(path)) + ("/" if path else "") + element.get("name")] = element
    return found


def type_of(declaration: etree._Element) -> str | None:
    if declaration.get("type"):
        return declaration.get("type")
    extension = declaration.find(f"{XS}complexType/{XS}simpleContent/{XS}extension")
    return extension.get("base") if extension is not None else None


def test_simple_types_are_inferred_per_element() -> None:
    doc = """<t><r><i>1</i><d>1.5</d><day>2014-03-01</day><s>1,234</s><e>7</e><x>+3</x><big>12345678901234567890</big>
              </r><r><i>-20</i><d>7</d><day>1999-12-31</day><s>12</s><e></e><x>4</x><big>1</big></r></t>"""
    found = declarations(generate_schema(doc))
    assert {name.split("/")[-1]: type_of(d) for name, d in found.items() if name.count("/") == 2} == {
        "i": "xs:integer", "d": "xs:decimal", "day": "xs:date", "s": "xs:string", "e": "integer-or-empty",
        "x": "xs:integer", "big": "xs:string"}
    validate(doc)


def test_repetition_and_optional_children_make_a_sequence() -> None:
    doc = "<t><r><a>1</a><b>2</b><b>3</b></r><r><a>4</a><c>5</c></r><r><b>6</b><c>7</c></r></t>"
    xsd = generate_schema(doc)
    found = declarations(xsd)
    particles = found["t/r"].find(f"{XS}complexType/{XS}sequence")
    assert [(e.get("name"), e.get("minOccurs"), e.get("maxOccurs")) for e in particles] == [
        ("a", "0", None), ("b", "0", "unbounded"), ("c", "0", None)]
    assert found["t"].find(f"{XS}complexType/{XS}sequence/{XS}element").get("maxOccurs") == "unbounded"
    validate(doc, xsd)
    with pytest.raises(ValidationError):
        validate("<t><r><c>1</c><a>2</a></r></t>", xsd)


def test_conflicting_orders_fall_back_to_a_repeated_choice() -> None:
    doc = "<t><r><a>1</a><b>2</b></r><r><b>3</b><a>4</a></r><r><a>5</a><b>6</b><a>7</a></r></t>"
    xsd = generate_schema(doc)
    choice = declarations(xsd)["t/r"].find(f"{XS}complexType/{XS}choice")
    assert choice is not None and choice.get("maxOccurs") == "unbounded"
    assert [e.get("name") for e in choice] == ["a", "b"]
    validate(doc, xsd)


def test_mixed_content_and_namespaced_attributes() -> None:
    doc = ('<t xmlns:px="urn:pyxform" px:source="s"><c px:label="C">two <n><v>1</v></n></c><c href="h">x</c>'
           '<px:table-failure index="3"/></t>')
    xsd = generate_schema(doc)
    found = declarations(xsd)
    assert found["t/c"].find(f"{XS}complexType").get("mixed") == "true"
    assert found["t/c"].find(f"{XS}complexType/{XS}attribute").get("use") == "optional"
    validate(doc, xsd)
    assert xmlschema.XMLSchema(xsd).is_valid(doc)


def test_errors_carry_line_numbers() -> None:
    xsd = generate_schema("<t><n>1</n><n>2</n></t>")
    with pytest.raises(ValidationError) as caught:
        validate("<t>\n<n>1</n>\n<n>two</n>\n<m/>\n</t>", xsd)
    lines = [line for line, _ in caught.value.errors]
    assert lines[0] == 3 and 4 in lines
    with pytest.raises(ValidationError) as caught:
        validate("<t>\n<n>1</n>\n</x>", xsd)
    assert caught.value.errors[0][0] == 3


def test_bad_inputs() -> None:
    with pytest.raises(StylesheetError, match="namespace"):
        generate_schema('<px:t xmlns:px="urn:pyxform"/>')
    with pytest.raises(InputNotFound):
        validate(Path("/nonexistent/out.xml"))
    with pytest.raises(ValidationError, match="not a valid XSD"):
        validate("<t/>", "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'><xs:element/></xs:schema>")


def test_entities_are_not_expanded_nor_fetched(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    doc = f'<!DOCTYPE t [<!ENTITY e SYSTEM "{secret.as_uri()}">]><t>&e;</t>'
    with pytest.raises((ValidationError, StylesheetError)) as caught:
        validate(doc, generate_schema("<t>x</t>"))
    assert "SECRET" not in str(caught.value)


def test_paper_example_output_schema() -> None:
    conversion = convert_grid((DATA / "grids" / "paper-example.grid.xml").read_bytes())
    xsd = conversion.schema()
    found = declarations(xsd)
    assert type_of(found["pyxform/population-statistics/males/average/height"]) == "xs:decimal"
    assert type_of(found["pyxform/population-statistics/females/average/height"]) == "xs:string"
    validate(conversion.to_bytes(), xsd)
    assert xmlschema.XMLSchema(xsd).is_valid(conversion.xml)


# -- property: every conversion validates against its generated schema ---------------------------------------------
_TEXT = st.sampled_from(["", "A", "B", "1", "2.5", "2014-01-02", "Total", "x y", "İ", "#", "2010"])


@st.composite
def tables(draw: st.DrawFn) -> T:
    width = draw(st.integers(1, 4))
    k = draw(st.integers(0, 2))
    p = draw(st.integers(0, min(2, width - 1)))
    rows: list[list[C]] = []
    for _ in range(k):
        row, used = [], 0
        while used < width:
            span = min(draw(st.integers(1, 2)), width - used)
            row.append(th(draw(_TEXT), colspan=span))
            used += span
        rows.append(row)
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 6)) == 0:
            rows.append([th(draw(_TEXT) or "S", colspan=width, section=True)])
            continue
        row = [th(draw(_TEXT)) for _ in range(p)]
        used = p
        while used < width:
            span = min(draw(st.integers(1, 2)), width - used)
            row.append(td(draw(_TEXT), colspan=span))
            used += span
        rows.append(row)
    return T(rows, k=k, p=p, caption=draw(st.sampled_from([None, "Results", "2012"])))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tables(), min_size=1, max_size=3), st.sampled_from(["paper", "generic"]))
def test_every_conversion_validates_against_its_schema(page: list[T], names: str) -> None:
    conversion = convert_grid(grid_xml(*page), names=names)
    xsd = conversion.schema()
    validate(conversion.to_bytes(), xsd)
    assert xmlschema.XMLSchema(xsd).is_valid(conversion.xml)
    # merge never loses or joins a value: one leaf per pair
    root = etree.fromstring(conversion.to_bytes())
    leaves = [e for e in root.iter() if len(e) == 0 and e is not root and e.text]
    assert sorted(e.text for e in leaves) == sorted(p["value"] for p in conversion.pairs() if p["value"])
