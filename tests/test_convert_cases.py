"""End to end over the hand-made cases (tests/data/cases, copied from ../shared/cases): page -> XML -> schema.

Acceptance of issue 4: the paper example converts (table 0) to expected.xml, equal after canonicalization ignoring the
pyxform namespace; every case's input converts and its output validates against the schema generated for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import xmlschema
from lxml import etree

from pyxform.api.convert import convert
from pyxform.runtime.runner import runner
from pyxform.stages.schema import validate

from .xmlcompare import canonical

CASES = Path(__file__).parent / "data" / "cases"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "input.html").is_file())

needs_pipeline = pytest.mark.skipif(
    not (runner().has("normalize") and runner().has("headers")),
    reason="stylesheets/normalize.xsl and headers.xsl are not installed")


@needs_pipeline
def test_paper_example_converts_to_expected_xml() -> None:
    case = CASES / "paper-example"
    conversion = convert((case / "input.html").read_bytes(), table=0, source="input.html")
    assert canonical(conversion.to_bytes()) == canonical((case / "expected.xml").read_bytes())


@needs_pipeline
def test_paper_example_pairs_per_slot() -> None:
    conversion = convert((CASES / "paper-example" / "input.html").read_bytes())
    pairs = [(p["row_headers"], p["col_headers"], p["value"]) for p in conversion.pairs()]
    assert pairs == [
        (["Males"], ["Average", "Height"], "1.78"), (["Males"], ["Average", "Weight"], "75"),
        (["Males"], ["Ratio"], "40.46%"),
        (["Females"], ["Average", "Height"], "Not available"), (["Females"], ["Average", "Weight"], "Not available"),
        (["Females"], ["Ratio"], "40.34%")]


@needs_pipeline
@pytest.mark.parametrize("name", CASE_NAMES)
@pytest.mark.parametrize("names", ["paper", "generic"])
def test_case_converts_and_validates_against_its_schema(name: str, names: str) -> None:
    case = CASES / name
    conversion = convert((case / "input.html").read_bytes(), names=names, source="input.html")
    root = etree.fromstring(conversion.to_bytes())
    assert root.tag == "pyxform"
    expected_tables = json.loads((case / "expected-headers.json").read_text())["tables"]
    top_level = [t for t in root if t.get("{urn:pyxform}table") is not None]
    indexes = {int(t.get("{urn:pyxform}table")) for t in root.iter() if t.get("{urn:pyxform}table") is not None}
    assert indexes == {t["index"] for t in expected_tables}
    assert top_level
    xsd = conversion.schema()
    validate(conversion.to_bytes(), xsd)
    assert xmlschema.XMLSchema(xsd).is_valid(conversion.xml)
