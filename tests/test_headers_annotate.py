"""The headers stage's annotation copies a cell's attributes and children with ``xsl:copy-of`` (annotate.xsl: the
table's one pass over its children, and px:cell) where the general path is a template call per node of the mode
``m:annotate`` (shallow-copy for every node that no template matches): the stage's output must be the same.

The general path is the templates below, which a small stylesheet importing ``headers.xsl`` puts in place of the
stage's own (import precedence); both are run on generated grids whose cells hold every child the grid schema allows
(text, sort key, links, images, table references), attributes of another namespace and, for the fall-back, elements
that a template of the mode matches (a px:table or px:row inside a cell, which no grid written by normalize holds).
The stylesheets are compiled in a Saxon processor of the test's own (pyxform's runtime is locked against reading
files)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


from .grid_builder import grids_xml
from .headers_helpers import stage_and_variant

# headers.xsl with the px:table and px:cell templates of the general path: every child of the table, and every
# attribute and child of a cell, through the mode's templates.
_GENERAL = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:px="urn:pyxform" xmlns:m="urn:pyxform:mode" xmlns:fp="urn:pyxform:function:private"
    exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:template match="px:table" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:copy-of select="@* except (@header-rows, @header-cols, @header-method, @kind)"/>
      <xsl:attribute name="header-rows" select="$result?k"/>
      <xsl:attribute name="header-cols" select="$result?p"/>
      <xsl:attribute name="header-method" select="$result?method"/>
      <xsl:attribute name="kind" select="$result?kind"/>
      <xsl:apply-templates select="px:caption | px:summary" mode="#current"/>
      <xsl:call-template name="fp:evidence">
        <xsl:with-param name="result" select="$result"/>
      </xsl:call-template>
      <xsl:apply-templates select="node() except (px:caption | px:summary | px:header-evidence)" mode="#current"/>
    </xsl:copy>
  </xsl:template>
  <xsl:template match="px:cell" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:apply-templates select="@* except @role" mode="#current"/>
      <xsl:attribute name="role" select="$result?roles(string(@id))"/>
      <xsl:apply-templates select="node()" mode="#current"/>
    </xsl:copy>
  </xsl:template>
</xsl:stylesheet>"""

def _outputs(xml: str) -> tuple[str, str]:
    """The headers stage's output on a grid document, and the general path's."""
    processor, stage, general = stage_and_variant(_GENERAL)
    node = processor.parse_xml(xml_text=xml)
    return stage.transform_to_string(xdm_node=node), general.transform_to_string(xdm_node=node)


# What a cell may hold after its px:text (grid.xsd), and, last, elements a template of m:annotate matches.
_CHILDREN = [
    "",
    "<px:sort-key>Smith, Ann</px:sort-key>",
    '<px:link href="https://example.org/a">a &amp; b</px:link><px:link href="/b">b</px:link>',
    '<px:image src="a.png" alt="A"/>',
    '<px:table-ref index="0"/>',
    '<px:link href="/c">c</px:link><px:image src="c.png"/><px:table-ref index="0"/>',
]
_MATCHED = [
    '<px:row index="1" group="1" group-kind="tbody"><px:slot col="0" cell="t0.c2"/></px:row>',
    '<px:table index="0" rows="1" cols="1"><px:cell id="t0.c0" row="0" col="0"><px:text>x</px:text></px:cell>'
    '</px:table>',
]
_TEXT = st.sampled_from(["", "Name", "12", "3.5 kg", "Total", "a b", "[1]", "x:"])
_CELL = st.fixed_dictionaries({"tag": st.sampled_from(["td", "td", "th"]), "text": _TEXT})
_TABLES = st.lists(st.lists(st.lists(_CELL, min_size=1, max_size=4), min_size=1, max_size=4), min_size=1, max_size=3)


def _with_children(xml: str, children: list[str], foreign: list[bool]) -> str:
    """The grid with the i-th cell's px:text followed by children[i % len], and an attribute of another namespace
    (and a role of an earlier run, which the stage replaces) on the cells where foreign[i % len] holds."""
    count = iter(range(10**6))

    def cell(match: re.Match[str]) -> str:
        i = next(count)
        start = match.group(1)
        if foreign[i % len(foreign)]:
            start = start.replace("<px:cell ", '<px:cell xmlns:q="urn:other" q:mark="1" role="data" ', 1)
        return start + match.group(2) + "</px:text>" + children[i % len(children)]

    return re.sub(r"(<px:cell [^>]*>)(<px:text>[^<]*)</px:text>", cell, xml)


@settings(max_examples=40, deadline=None)
@given(_TABLES, st.lists(st.sampled_from(_CHILDREN), min_size=1, max_size=6), st.lists(st.booleans(), min_size=1,
                                                                                       max_size=3))
def test_the_cells_copy_is_the_general_path(tables: list[Any], children: list[str], foreign: list[bool]) -> None:
    stage, general = _outputs(_with_children(grids_xml(tables), children, foreign))
    assert stage == general


@pytest.mark.parametrize("matched", _MATCHED)
def test_a_cell_holding_an_element_of_the_mode_goes_through_the_templates(matched: str) -> None:
    xml = _with_children(grids_xml([[["th:Name", "th:Value"], ["td:a", "td:1"]]]), ["", matched], [False])
    stage, general = _outputs(xml)
    assert stage == general
    # the element inside the cell ("Value") was annotated, so that a plain copy would differ
    inside = stage.split("<px:text>Value</px:text>")[1].split("</px:cell>")[0]
    assert "row-headers=" in inside or "header-method=" in inside


@pytest.mark.parametrize("matched", [
    '<px:slot col="0" row-headers="stale"/>',
    '<px:cell id="t9.c0" row="0" col="0"><px:text>y</px:text></px:cell>',
    '<px:table index="9" rows="0" cols="0"/>',
])
def test_each_element_of_the_guard_is_needed(matched: str) -> None:
    """One sample for each name of the guard alone (px:slot, px:cell, px:table): leaving the name out copies it as it
    is, which differs from what the templates write (review13)."""
    xml = _with_children(grids_xml([[["th:Name", "th:Value"], ["td:a", "td:1"]]]), ["", matched], [False])
    stage, general = _outputs(xml)
    assert stage == general
