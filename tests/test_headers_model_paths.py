"""The table model's cheaper per-cell and per-slot paths (headers/model.xsl, headers/annotate.xsl) against the
paths they replace: the stage's output must be the same.

The replaced paths are put back by a small stylesheet importing ``headers.xsl`` (import precedence): the cell record's
tag (lower-case of every tag) and bold (a general comparison of the attribute), the test of a usual row in
fp:row-owners (each slot's column compared with its position made a string), and the annotation of a row's slots
(each slot's column read from its col attribute, not its position in a usual row; fp:count-less for every slot's
column headers, the roles compared with a general comparison). Both run on generated grids with header cells in any
position and spans (columns with none, one or several header blocks), tags in upper case, bold written as "1",
"TRUE" or "0", and rows whose slots are out of column order or missing (the model's fall-back by column), or whose
index repeats the row's before (two rows of one index: the model's row of that index is one of them). The stylesheets are compiled in a Saxon processor of the test's own."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st


from .grid_builder import grids_xml
from .headers_helpers import stage_and_variant_outputs

_OLD = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform" xmlns:m="urn:pyxform:mode" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" xmlns:c="urn:pyxform:cell" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:function name="fp:model-cell" as="array(*)">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="text" as="xs:string" select="string($cell/px:text)"/>
    <xsl:variable name="blank" as="xs:boolean" select="f:is-blank($text)"/>
    <xsl:sequence select="[
        (: $c:id :) string($cell/@id),
        (: $c:row :) xs:integer($cell/@row),
        (: $c:col :) xs:integer($cell/@col),
        (: $c:rowspan :) fp:span($cell/@rowspan),
        (: $c:colspan :) fp:span($cell/@colspan),
        (: $c:tag :) lower-case(string($cell/@tag)),
        (: $c:scope :) if (exists($cell/@scope)) then lower-case(normalize-space($cell/@scope)) else '',
        (: $c:text :) $text,
        (: $c:blank :) $blank,
        (: $c:empty :) $blank and empty($cell/(px:image | px:table-ref | px:link)),
        (: $c:bold :) $cell/@bold = ('true', '1'),
        (: $c:element :) $cell
      ]"/>
  </xsl:function>
  <xsl:function name="fp:row-owners" as="xs:string*">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="cells" as="map(*)"/>
    <xsl:param name="in-order" as="xs:boolean"/>
    <xsl:variable name="slots" as="element(px:slot)*" select="$row/px:slot"/>
    <xsl:variable name="owners" as="xs:string*" select="$slots ! string(@cell)"/>
    <xsl:choose>
      <xsl:when test="count($slots) eq $n
                      and (every $i in 1 to $n satisfies string($slots[$i]/@col) eq string($i - 1))
                      and (every $id in $owners satisfies ($id eq '' or map:contains($cells, $id)))">
        <xsl:sequence select="$owners"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:row-owners-by-column($row, $n, $cells)"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>
  <xsl:template match="px:row" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:variable name="assignment" as="map(*)" select="$result?assignment"/>
    <xsl:variable name="model" as="map(*)" select="$assignment?model"/>
    <xsl:variable name="y" as="xs:double" select="number(@index)"/>
    <xsl:copy>
      <xsl:copy-of select="@*"/>
      <xsl:choose>
        <xsl:when test="$y eq floor($y) and $y ge 0 and $y lt $model?rows and $assignment?scans-alone">
          <xsl:variable name="row" as="xs:integer" select="xs:integer($y) + 1"/>
          <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
          <xsl:variable name="owners" as="array(*)" select="$model?owner($row)"/>
          <xsl:variable name="roles" as="map(*)" select="$assignment?roles"/>
          <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
          <xsl:variable name="markup" as="xs:boolean" select="$assignment?headers-attribute"/>
          <xsl:variable name="headerless" as="xs:boolean" select="$assignment?headerless"/>
          <xsl:variable name="row-texts" as="array(*)" select="$assignment?row-texts($row)"/>
          <xsl:variable name="row-firsts" as="xs:integer*" select="$assignment?row-firsts($row)"/>
          <xsl:variable name="row-text" as="xs:string?"
              select="if (empty($row-firsts)) then $row-texts(1) else ()"/>
          <xsl:variable name="column-texts" as="array(*)" select="$assignment?column-texts"/>
          <xsl:variable name="column-firsts" as="array(*)" select="$assignment?column-firsts"/>
          <xsl:for-each select="node()">
            <xsl:choose>
              <xsl:when test="self::px:slot">
                <xsl:variable name="x" as="xs:double" select="number(@col)"/>
                <xsl:variable name="id" as="xs:string" select="
                    if ($x ne floor($x) or $x lt 0 or $x ge $n) then '' else $owners(xs:integer($x) + 1)"/>
                <xsl:variable name="cell" as="array(*)?" select="
                    if ($id ne '' and $roles($id) = ('data', 'empty')) then $cells($id) else ()"/>
                <xsl:variable name="headers" as="xs:string*" select="
                    if (empty($cell)) then ()
                    else if ($headerless) then ('', '')
                    else if ($markup and fp:has-headers($cell))
                    then f:slot-header-texts($assignment, $row - 1, xs:integer($x))
                    else (if (empty($row-firsts)) then $row-text
                          else $row-texts(1 + fp:count-less($row-firsts, $cell($c:col))),
                          $column-texts(xs:integer($x) + 1)(1 + fp:count-less($column-firsts(xs:integer($x) + 1),
                                                                              $cell($c:row))))"/>
                <xsl:copy>
                  <xsl:copy-of select="@* except (@row-headers, @column-headers)"/>
                  <xsl:if test="exists($headers)">
                    <xsl:attribute name="row-headers" select="$headers[1]"/>
                    <xsl:attribute name="column-headers" select="$headers[2]"/>
                  </xsl:if>
                  <xsl:apply-templates select="node()" mode="#current"/>
                </xsl:copy>
              </xsl:when>
              <xsl:otherwise>
                <xsl:apply-templates select="." mode="#current"/>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:for-each>
        </xsl:when>
        <xsl:otherwise>
          <xsl:apply-templates select="node()" mode="#current"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:copy>
  </xsl:template>
</xsl:stylesheet>"""

def _outputs(xml: str, method: str) -> tuple[str, str]:
    """The headers stage's output on a grid document, and the replaced paths' output."""
    return stage_and_variant_outputs(_OLD, xml, method)


_TEXT = st.sampled_from(["", "Name", "12", "3.5", "Total", "Group A", "x:"])
_CELL = st.fixed_dictionaries(
    {"tag": st.sampled_from(["td", "td", "td", "th", "TH", "Td"]), "text": _TEXT,
     "bold": st.sampled_from([None, "true", "1", "TRUE", "0", "false"])},
    optional={"colspan": st.integers(1, 3), "rowspan": st.integers(1, 3)})
_TABLES = st.lists(st.lists(st.lists(_CELL, min_size=1, max_size=5), min_size=1, max_size=7), min_size=1, max_size=3)


def _grid(tables: list[Any], seed: int | None) -> str:
    """The grid of the tables with the cells' bold attributes as drawn, and, for some seeds (not None), a row's slots
    reversed or one slot left out, and a row given the index of the row before."""
    bolds = iter([cell["bold"] for table in tables for row in table for cell in row])
    specs = [[[{"tag": c["tag"], "text": c["text"], **{k: c[k] for k in ("colspan", "rowspan") if k in c}}
               for c in row] for row in table] for table in tables]
    xml = grids_xml(specs)

    def bold(match: re.Match[str]) -> str:
        value = next(bolds)
        return "" if value is None else f' bold="{value}"'

    xml = re.sub(r' bold="(?:true|false)"', bold, xml)
    if seed is None:
        return xml
    rng = random.Random(seed)
    rows = re.findall(r"<px:row [^>]*>(?:<px:slot [^>]*/>)*</px:row>", xml)
    for row in rows:
        slots = re.findall(r"<px:slot [^>]*/>", row)
        if len(slots) > 1 and rng.random() < 0.3:
            changed = slots[::-1] if rng.random() < 0.5 else slots[:-1]
            xml = xml.replace(row, row.replace("".join(slots), "".join(changed)), 1)
    if rng.random() < 0.3:
        # a row (not the first of its table) with the index of the row before
        starts = [m for m in re.finditer(r'<px:row index="(\d+)"', xml) if m.group(1) != "0"]
        if starts:
            m = rng.choice(starts)
            xml = xml[:m.start(1)] + str(int(m.group(1)) - 1) + xml[m.end(1):]
    return xml


@settings(max_examples=60, deadline=None)
@given(_TABLES, st.integers(0, 2**16), st.sampled_from(["auto", "markup", "format"]))
def test_the_model_and_row_paths_give_the_old_output(tables: list[Any], seed: int, method: str) -> None:
    stage, old = _outputs(_grid(tables, seed), method)
    assert stage == old


def test_columns_with_several_header_blocks() -> None:
    # column 0 has two header blocks (rows 0 and 2: fp:count-less), columns 1 and 2 one
    rows = [["th:A", "th:B", "th:X"], ["td:1", "td:2", "td:3"], ["th:C", "td:4", "td:5"], ["td:6", "td:7", "td:8"]]
    tables = [[[{"tag": t, "text": x, "bold": None} for t, _, x in (c.partition(":") for c in row)] for row in rows]]
    stage, old = _outputs(_grid(tables, None), "markup")
    assert stage == old
    assert '<px:slot col="0" cell="t0.c3" row-headers="" column-headers="t0.c0"/>' in stage
    assert '<px:slot col="1" cell="t0.c10" row-headers="" column-headers="t0.c1"/>' in stage
    assert '<px:slot col="2" cell="t0.c8" row-headers="t0.c6" column-headers="t0.c2"/>' in stage


def test_a_row_with_the_index_of_the_row_before() -> None:
    # the last row's slots reversed and its index that of the row before: the model's row of that index is the row
    # before, in column order, so the last row's slots are read by their columns, not by their positions
    rows = [["th:A", "th:B", "th:C"], ["th:D", "td:1", "td:2"], ["th:E", "td:3", "td:4"]]
    tables = [[[{"tag": t, "text": x, "bold": None} for t, _, x in (c.partition(":") for c in row)] for row in rows]]
    xml = _grid(tables, None)
    last = re.findall(r'<px:row index="2"[^>]*>(?:<px:slot [^>]*/>)*</px:row>', xml)[0]
    slots = re.findall(r"<px:slot [^>]*/>", last)
    xml = xml.replace(last, last.replace('index="2"', 'index="1"').replace("".join(slots), "".join(slots[::-1])))
    stage, old = _outputs(xml, "markup")
    assert stage == old
    assert '<px:slot col="2" cell="t0.c5" row-headers="t0.c3" column-headers="t0.c2"/>' in stage
