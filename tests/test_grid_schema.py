"""The grid output validates against schemas/grid.xsd, the clean output against the lax xhtml-annotated.xsd, and
the schema rejects what the format forbids."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pyxform.stages.clean import clean
from pyxform.stages.normalize import Normalizer, grid
from pyxform.runtime.saxon import builtin_schema

from .conftest import CASES, CORPUS


@pytest.fixture(scope="module")
def grid_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(builtin_schema("grid.xsd"))))


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_case_grids_are_valid(case: Path, normalizer: Normalizer, grid_schema: etree.XMLSchema) -> None:
    document = grid(case / "input.html", normalizer=normalizer)
    assert grid_schema.validate(etree.fromstring(document.xml.encode("utf-8"))), grid_schema.error_log


def test_clean_output_is_valid_annotated_xhtml() -> None:
    schema = etree.XMLSchema(etree.parse(str(builtin_schema("xhtml-annotated.xsd"))))
    page = clean((CASES / "paper-example" / "input.html").read_bytes())
    assert schema.validate(page.tree), schema.error_log
    assert not schema.validate(etree.fromstring(b"<html><body/></html>"))  # not in the XHTML namespace


@pytest.mark.skipif(not (CORPUS / "misc").is_dir(), reason="../shared/corpus is absent")
def test_real_page_grids_are_valid(normalizer: Normalizer, grid_schema: etree.XMLSchema) -> None:
    pages = sorted((CORPUS / "misc").glob("*.html"))
    assert len(pages) >= 6
    for page in pages:  # every page of corpus/misc runs, and gives tables and a valid grid document
        document = grid(page, normalizer=normalizer)
        assert document.tables and not document.failures, page.name
        assert grid_schema.validate(etree.fromstring(document.xml.encode("utf-8"))), (page.name, grid_schema.error_log)


def test_schema_rejects_a_bad_grid(grid_schema: etree.XMLSchema) -> None:
    bad = (b'<px:grids xmlns:px="urn:pyxform"><px:table index="0" rows="1" cols="1" locator="/" depth="0">'
           b'<px:cell id="t0.c0" row="0" col="0" rowspan="0" colspan="1" tag="td" group="0" group-kind="tbody">'
           b'<px:text>x</px:text></px:cell></px:table></px:grids>')
    assert not grid_schema.validate(etree.fromstring(bad))  # rowspan 0 is never an effective span
    assert not grid_schema.validate(etree.fromstring(bad.replace(b'rowspan="0"', b'rowspan="1"')
                                                        .replace(b'tag="td"', b'tag="tr"')))
    assert grid_schema.validate(etree.fromstring(bad.replace(b'rowspan="0"', b'rowspan="1"')))
