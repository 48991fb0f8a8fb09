"""The table model's cells map (headers/model.xsl: one xsl:map-entry per cell, map:merge's first cell of each id
when an id repeats) and f:with-features' cells map (one xsl:map-entry per cell record) against the map:merge of
one-entry maps each replaces: the same ids, each the same px:cell and, with features, the same members.

Both run on generated grids, some with ids made to repeat (a grid that is not valid, which xsl:map rejects and the
model reads as map:merge does). The stylesheet is compiled in a Saxon processor of the test's own."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from .grid_builder import grids_xml
from .headers_helpers import stage_and_variant

_COMPARE = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" xmlns:c="urn:pyxform:cell"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:output method="text"/>
  <xsl:function name="fp:described" as="xs:string">
    <xsl:param name="cells" as="map(*)"/>
    <xsl:sequence select="string-join(for $id in sort(map:keys($cells)) return
        $id || '=' || count($cells($id)($c:element)/preceding-sibling::px:cell) || ':' || $cells($id)($c:tag), ' ')"/>
  </xsl:function>
  <xsl:function name="fp:features" as="xs:string">
    <xsl:param name="cells" as="map(*)"/>
    <xsl:sequence select="string-join(for $id in sort(map:keys($cells)) return
        string-join(for $member in (1 to array:size($cells($id)))[. ne $c:element] return
                    $member || '=' || string-join($cells($id)($member) ! string(.), ','), ';'), ' ')"/>
  </xsl:function>
  <xsl:template match="/">
    <xsl:for-each select="//px:table">
      <xsl:variable name="model" select="f:table-model(.)"/>
      <xsl:variable name="row-classes" as="map(*)"
          select="map:merge(px:row ! map { xs:integer(@index) : f:style-classes(@class) })"/>
      <xsl:variable name="coloured" select="some $color in px:cell/@color satisfies normalize-space($color) ne ''"/>
      <xsl:variable name="features" select="f:with-features($model)?cells"/>
      <xsl:variable name="old-features" select="map:merge($model?ids ! (let $cell := $model?cells(.) return
          map { . : if ($cell($c:blank)) then $cell else fp:cell-features($cell, $row-classes, $coloured) }))"/>
      <xsl:value-of select="fp:described($model?cells) || '|'
          || fp:described(map:merge(px:cell ! map { string(@id) : fp:model-cell(.) })) || '&#10;'"/>
      <xsl:value-of select="fp:described($features) || fp:features($features) || '|'
          || fp:described($old-features) || fp:features($old-features) || '&#10;'"/>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>"""

_CELL = st.fixed_dictionaries({"tag": st.sampled_from(["td", "th"]), "text": st.sampled_from(["", "A", "1", "Mar 3:"])},
                              optional={"colspan": st.integers(1, 2), "rowspan": st.integers(1, 2)})
_TABLES = st.lists(st.lists(st.lists(_CELL, min_size=1, max_size=4), min_size=1, max_size=5), min_size=1, max_size=2)


def _described(xml: str) -> list[tuple[str, str]]:
    """Per table: the model's cells map and the map:merge one, each as its ids with their cells' positions and tags;
    then f:with-features' cells map and the map:merge one, each with all members but the elements."""
    processor, _stage, compare = stage_and_variant(_COMPARE)
    text = compare.transform_to_string(xdm_node=processor.parse_xml(xml_text=xml))
    return [tuple(line.split("|")) for line in text.splitlines() if line]  # type: ignore[misc]


def _with_repeated_ids(xml: str, seed: int) -> str:
    """The grid with some cells' ids replaced by the id of another cell of the same table."""
    rng = random.Random(seed)
    out = []
    for table in re.split(r"(?=<px:table )", xml):
        ids = re.findall(r'<px:cell id="([^"]+)"', table)
        for _ in range(rng.randint(1, 3) if len(ids) > 1 else 0):
            old, new = rng.sample(ids, 2)
            table = table.replace(f'<px:cell id="{old}"', f'<px:cell id="{new}"', 1)
        out.append(table)
    return "".join(out)


@settings(max_examples=40, deadline=None)
@given(_TABLES, st.integers(0, 2**16), st.booleans())
def test_cells_map_is_map_merge(tables: list[Any], seed: int, repeat: bool) -> None:
    xml = grids_xml(tables)
    if repeat:
        xml = _with_repeated_ids(xml, seed)
    for model, merged in _described(xml):
        assert model == merged


def test_repeated_id_reads_the_first_cell() -> None:
    xml = _with_repeated_ids(grids_xml([[[{"tag": "th", "text": "A"}, {"tag": "td", "text": "1"}],
                                         [{"tag": "td", "text": "2"}, {"tag": "td", "text": "3"}]]]), 1)
    (model, merged), _features = _described(xml)
    assert model == merged and len(model.split()) < 4
    assert len(_described(xml)) == 2
