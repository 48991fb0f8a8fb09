"""The headers stage's shortcut for tables without header cells gives what the general path gives: for a table whose
roles hold no header and no section cell (and no headers attribute is read), ``fp:headerless-assignment`` builds the
same assignment map as ``fp:assignment`` (assign.xsl), and the annotation writes the same slot attributes.

The stylesheet is compiled here in a Saxon processor of the test's own, with a small stylesheet that imports
``headers.xsl`` and calls both functions on every table of a generated grid (pyxform's runtime is locked against
reading files and exposes no private function)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyxform.runtime.saxon import builtin_stylesheet

from .grid_builder import grids_xml

# For every table, with each method: whether the shortcut applies (the test f:assign makes), and whether the two
# maps are deep-equal (the shortcut's one extra entry, 'headerless', left out of both).
_COMPARE = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform" xmlns:f="urn:pyxform:function" xmlns:fp="urn:pyxform:function:private"
    exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:template match="/" priority="10">
    <out>
      <xsl:for-each select="px:grids/px:table">
        <xsl:variable name="table" select="."/>
        <xsl:for-each select="('auto', 'markup', 'format')">
          <xsl:variable name="result" select="f:detect-headers($table, .)"/>
          <xsl:variable name="model" select="$result?assignment?model"/>
          <xsl:variable name="markup" select="$result?assignment?markup"/>
          <xsl:variable name="headers-attribute" select="$markup and exists($table/px:cell/@headers)"/>
          <xsl:variable name="short" select="not($headers-attribute)
                                             and not($result?roles?* = ('header', 'section'))"/>
          <xsl:variable name="general"
              select="fp:assignment($model, $result?roles, $markup, $headers-attribute)"/>
          <t short="{$short}" used="{$result?assignment?headerless}"
             equal="{not($short) or deep-equal(
                       map:remove(fp:headerless-assignment($model, $result?roles, $markup), 'headerless'),
                       map:remove($general, 'headerless'))}"/>
        </xsl:for-each>
      </xsl:for-each>
    </out>
  </xsl:template>
</xsl:stylesheet>"""

_compiled: list[Any] = []


def _compare(xml: str) -> list[dict[str, str]]:
    """One dict per table and method: ``short`` (the shortcut applies), ``used`` (f:assign took it), ``equal``."""
    from lxml import etree
    from saxonche import PySaxonProcessor

    if not _compiled:
        processor = PySaxonProcessor(license=False)
        headers = builtin_stylesheet("headers.xsl").resolve().as_uri()
        executable = processor.new_xslt30_processor().compile_stylesheet(
            stylesheet_text=_COMPARE.replace("HEADERS", headers))
        _compiled.extend((processor, executable))
    processor, executable = _compiled
    out = executable.transform_to_string(xdm_node=processor.parse_xml(xml_text=xml))
    return [dict(t.attrib) for t in etree.fromstring(out.encode("utf-8"))]


_TEXT = st.sampled_from(["", "", "Name", "12", "3.5 kg", "Total", "a b", "[1]", "Group A", "x:"])


@st.composite
def _cells(draw: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"tag": draw(st.sampled_from(["td", "td", "td", "th"])), "text": draw(_TEXT)}
    if draw(st.integers(0, 5)) == 0:
        spec["colspan"] = draw(st.integers(2, 3))
    if draw(st.integers(0, 6)) == 0:
        spec["bold"] = True
    if spec["tag"] == "th" and draw(st.integers(0, 3)) == 0:
        spec["scope"] = draw(st.sampled_from(["row", "col", "rowgroup", "colgroup"]))
    if draw(st.integers(0, 9)) == 0:
        spec["headers"] = "h1"
    if draw(st.integers(0, 9)) == 0:
        spec["id"] = "h1"
    return spec


# Tables of 1-5 rows of 1-4 cells: td-only tables (most without header cells), th among them, spans, scopes,
# headers attributes.
_TABLES = st.lists(st.lists(_cells(), min_size=1, max_size=4), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.lists(_TABLES, min_size=1, max_size=4))
def test_the_headerless_shortcut_builds_the_general_assignment(tables: list[list[Any]]) -> None:
    for row in _compare(grids_xml(tables)):
        assert row["used"] == row["short"], row
        assert row["equal"] == "true", row


@pytest.mark.parametrize("rows, short", [
    ([["td:1", "td:2"], ["td:3", "td:4"]], True),            # numbers alone: no header
    ([["td:a"]], True),                                      # one cell
    ([["td:Group A", "td:"], ["td:1", "td:2"]], False),      # a section row's cell is no header, but is read
    ([["th:Name", "th:Value"], ["td:a", "td:1"]], False),    # a header row
])
def test_the_shortcut_is_taken_exactly_without_header_and_section_cells(rows: list[Any], short: bool) -> None:
    results = _compare(grids_xml([rows]))
    assert all(row["equal"] == "true" and row["used"] == row["short"] for row in results), results
    if short:
        assert all(row["short"] == "true" for row in results), results
