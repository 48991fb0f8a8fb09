"""map/rows.xsl's fp:data-rows (each slot's cell and annotations read once) against lib/slots.xsl's f:data-slots and
f:cell and the slots' column-headers and row-headers."""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.runtime.saxon import SaxonRuntime

from .annotated_grids import C, T, grid_xml, td, th

MAP = Path(__file__).resolve().parent.parent / "stylesheets" / "map.xsl"

# for each table (entity tables are not mapped by rows): the rows, slots and cells by fp:data-rows, and by
# f:data-slots (note rows left out, grouped by row as map/table.xsl groups them) with f:cell, column-headers and
# row-headers of each slot
SHEET = f"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:px="urn:pyxform" xmlns:f="urn:pyxform:function" xmlns:fp="urn:pyxform:function:private"
    exclude-result-prefixes="#all" expand-text="yes">
  <xsl:import href="{MAP.as_uri()}"/>
  <xsl:template match="/">
    <tables>
      <xsl:for-each select="//px:table[not(@kind eq 'entity')]">
        <xsl:variable name="notes" select="f:note-rows(.) ! string()"/>
        <xsl:variable name="fast" select="fp:data-rows(., $notes, true())"/>
        <xsl:variable name="general" as="xs:string*" xmlns:xs="http://www.w3.org/2001/XMLSchema">
          <xsl:for-each-group select="f:data-slots(.)[not(../@index = $notes)]" group-adjacent="string(../@index)">
            <xsl:sequence select="current-grouping-key() || ':' || string-join(current-group() ! generate-id(.), ' ')
                                  || '|' || string-join(current-group() ! f:cell(.) ! generate-id(.), ' ')
                                  || '|' || string-join(current-group() ! string(@column-headers), ',')
                                  || '|' || string-join(current-group() ! string(@row-headers), ',')"/>
          </xsl:for-each-group>
        </xsl:variable>
        <table fast="{{$fast ! (?row || ':' || string-join(?slots ! generate-id(.), ' ') || '|'
                                || string-join(?cells ! generate-id(.), ' ') || '|' || string-join(?ch, ',')
                                || '|' || string-join(?rh, ','))}}"
               general="{{$general}}" rows="{{count($general)}}"/>
      </xsl:for-each>
    </tables>
  </xsl:template>
</xsl:stylesheet>"""


@functools.cache
def _runtime() -> SaxonRuntime:
    sheet = Path(tempfile.mkdtemp()) / "data-rows.xsl"
    sheet.write_text(SHEET, encoding="utf-8")
    runtime = SaxonRuntime(allow_io=True)
    runtime.compile_all({"data-rows": sheet})
    return runtime


def assert_same(grid: str) -> int:
    """Assert that both give the same rows, slots and cells; the number of data rows."""
    runtime = _runtime()
    tables = etree.fromstring(runtime.transform_to_string("data-rows", runtime.parse(grid)).encode())
    for table in tables:
        assert table.get("fast") == table.get("general")
    return sum(int(table.get("rows")) for table in tables)


def with_note_row(grid: str, row: int) -> str:
    """The grid with the headers stage's evidence that row `row` of its first table is a note row."""
    return re.sub(r"(<px:table [^>]*>)", rf'\1<px:header-evidence><px:row-kind row="{row}" kind="note"/>'
                                         r"</px:header-evidence>", grid, count=1)


PAPER = T([[th("", rowspan=2), th("Average", colspan=2), th("Ratio", rowspan=2)],
           [th("Height"), th("Weight")],
           [th("Males"), td("1.78"), td("75"), td("40.46%")],
           [th("Females"), td("Not available", colspan=2), td("40.34%")]],
          k=2, p=1, caption="Population Statistics")


def test_fixed_grids() -> None:
    """The paper's table (a data cell spanning two slots under two headers), a cell spanning two slots under one
    spanning header (one data slot), a note row, a slot naming no cell (its cell not found: no pair of slots and
    cells by position), and rows with the same index (grouped as f:data-slots gives them)."""
    assert assert_same(grid_xml(PAPER)) == 2
    spanning = grid_xml(T([[th("A", colspan=2), th("B")], [td("x", colspan=2), td("y")], [td(""), td("z"), td("")]],
                          k=1))
    assert assert_same(spanning) == 2
    assert assert_same(with_note_row(grid_xml(T([[th("A"), th("B")], [td("1"), td("2")], [td("n", colspan=2)]],
                                                k=1)), 2)) == 1
    dangling = grid_xml(T([[th("A"), th("B"), th("C")], [td("1"), td("2"), td("3")], [td("4"), td(""), td("6")]],
                          k=1))
    dangling = dangling.replace('cell="t0.c4"', 'cell="t0.missing"', 1)
    assert assert_same(dangling) == 2
    duplicate = grid_xml(T([[th("A"), th("B")], [td("1"), td("2")], [td("3"), td("4")]], k=1))
    assert assert_same(duplicate.replace('<px:row index="2"', '<px:row index="1"', 1)) == 1


texts = st.sampled_from(["", "", "a", "b", "a b", "7"])


@st.composite
def tables(draw: st.DrawFn) -> T:
    rows = []
    for _ in range(draw(st.integers(1, 6))):
        rows.append([C(draw(texts), draw(st.sampled_from(["td", "th"])), draw(st.integers(1, 2)),
                       draw(st.integers(1, 3)), section=draw(st.integers(0, 9)) == 0)
                     for _ in range(draw(st.integers(1, 4)))])
    return T(rows, k=draw(st.integers(0, 2)), p=draw(st.integers(0, 2)))


@settings(max_examples=300, deadline=None)
@given(tables(), st.integers(-1, 6), st.integers(-1, 30))
def test_generated_grids(table: T, note: int, dangling: int) -> None:
    """Tables with spans (a data cell with several data slots in a row, under the same or other headers), header
    cells among the data (row headers), empty and section cells, a note row or none, a slot naming no cell."""
    grid = grid_xml(table)
    if note >= 0:
        grid = with_note_row(grid, note)
    slots = list(re.finditer(r'<px:slot col="\d+" cell="(t0\.c\d+)"', grid))
    if 0 <= dangling < len(slots):
        grid = grid[:slots[dangling].start(1)] + "t0.missing" + grid[slots[dangling].end(1):]
    assert_same(grid)
