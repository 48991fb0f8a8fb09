"""The formatting method's cell features (headers/model.xsl fp:cell-features) against the general path they shorten:
'link-coloured' computed only in a table where some cell has a colour (f:distinct-score reads it only for a cell
whose colour differs from its line's usual one), and the script of a text of printable ASCII without '[' taken as
'latin' without f:script. Compared feature by feature with the old f:cell-features (every feature equal; 'link-coloured'
equal wherever the table has a colour), and by the stage's whole output with the old features put back, on
generated tables of short texts with reference marks, letters outside ASCII, digits, links covering more or less of
a cell's text, and colours on some cells."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hypothesis import given, settings
from hypothesis import strategies as st

from .headers_helpers import stage_and_variant, stage_and_variant_outputs

_OLD_FUNCTION = """  <xsl:function name="fp:old-cell-features" as="map(*)">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:variable name="text" as="xs:string" select="$cell($c:text)"/>
    <xsl:variable name="element" as="element(px:cell)" select="$cell($c:element)"/>
    <xsl:variable name="font-size" as="xs:double" select="number($element/@font-size)"/>
    <xsl:variable name="indent" as="xs:double" select="number($element/@indent)"/>
    <!-- the clean text once for the type and the length; script, case and length are read for the cells of type
         'text' alone (content.xsl counts them over text cells, f:content-score compares them for a text cell only),
         so the other cells (numbers and dates: most data cells) get constants instead of their costs -->
    <xsl:variable name="clean" as="xs:string" select="normalize-space(f:strip-marks($text))"/>
    <xsl:variable name="type" as="xs:string" select="f:clean-content-type($clean)"/>
    <xsl:variable name="is-text" as="xs:boolean" select="$type eq 'text'"/>
    <xsl:variable name="face" as="xs:string" select="lower-case(normalize-space($element/@face))"/>
    <xsl:variable name="color" as="xs:string" select="lower-case(normalize-space($element/@color))"/>
    <xsl:variable name="background" as="xs:string" select="lower-case(normalize-space($element/@background))"/>
    <xsl:variable name="class" as="xs:string"
        select="if (exists($element/@class)) then f:style-classes($element/@class) else ''"/>
    <xsl:sequence select="map {
        'type' : $type,
        'script' : if ($is-text) then f:script($text) else 'none',
        'case' : if ($is-text) then f:initial-case($text) else 'none',
        'length' : if ($is-text) then string-length($clean) else 0,
        'colon' : f:has-trailing-colon($text),
        'font-size' : if ($font-size eq $font-size) then $font-size else (),
        'italic' : $element/@italic = ('true', '1'),
        'face' : $face,
        'color' : $color,
        'link-coloured' : exists($element/px:link)
                          and sum($element/px:link ! string-length(normalize-space(.))) * 2
                              ge string-length(normalize-space($text)),
        'background' : $background,
        'indent' : if ($indent eq $indent) then $indent else 0.0e0,
        'class' : $class,
        'look' : f:look($face, $color, $background, $class),
        'row-class' : ($row-classes($cell($c:row)), '')[1]
      }"/>
  </xsl:function>
  <!-- the members of a cell record that hold each feature -->
  <xsl:variable name="fp:member" as="map(xs:string, xs:integer)" select="map {
      'type' : $c:type, 'script' : $c:script, 'case' : $c:case, 'length' : $c:length, 'colon' : $c:colon,
      'font-size' : $c:font-size, 'italic' : $c:italic, 'face' : $c:face, 'color' : $c:color,
      'link-coloured' : $c:link-coloured, 'background' : $c:background, 'indent' : $c:indent, 'class' : $c:class,
      'look' : $c:look, 'row-class' : $c:row-class }"/>
"""

_OLD = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" xmlns:c="urn:pyxform:cell"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  OLD_FUNCTION
  <xsl:function name="fp:cell-features" as="array(*)">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:param name="coloured" as="xs:boolean"/>
    <!-- the record with the old features put in their members -->
    <xsl:variable name="old" as="map(*)" select="fp:old-cell-features($cell, $row-classes)"/>
    <xsl:sequence select="fold-left(map:keys($old), array:join(($cell, (1 to $c:row-class - $c:element) ! [()])),
        function($record, $key) { array:put($record, $fp:member($key), $old($key)) })"/>
  </xsl:function>
</xsl:stylesheet>""".replace("OLD_FUNCTION", _OLD_FUNCTION)

_FEATURES = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" xmlns:c="urn:pyxform:cell"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  OLD_FUNCTION
  <xsl:template match="/" priority="10">
    <r>
      <xsl:for-each select="//px:table">
        <xsl:variable name="model" as="map(*)" select="f:table-model(.)"/>
        <xsl:variable name="new" as="map(*)" select="f:with-features($model)?cells"/>
        <xsl:variable name="row-classes" as="map(*)"
            select="map:merge(px:row ! map { xs:integer(@index) : f:style-classes(@class) })"/>
        <xsl:variable name="coloured" as="xs:boolean" select="exists(px:cell/@color[normalize-space(.) ne ''])"/>
        <xsl:for-each select="$model?ids ! $model?cells(.)[not(.($c:blank))]">
          <xsl:variable name="old" as="map(*)" select="fp:old-cell-features(., $row-classes)"/>
          <xsl:variable name="cell" as="array(*)" select="$new(.($c:id))"/>
          <xsl:for-each select="map:keys($old)[. ne 'link-coloured' or $coloured]">
            <v cell="{$cell($c:id)}" key="{.}" new="{serialize($cell($fp:member(.)), map { 'method' : 'adaptive' })}"
               old="{serialize($old(.), map { 'method' : 'adaptive' })}"/>
          </xsl:for-each>
        </xsl:for-each>
      </xsl:for-each>
    </r>
  </xsl:template>
</xsl:stylesheet>""".replace("OLD_FUNCTION", _OLD_FUNCTION)


def _features_stylesheet() -> tuple[Any, Any]:
    processor, _, variant = stage_and_variant(_FEATURES)
    return processor, variant


_TEXTS = st.lists(st.sampled_from(["a", "B", "x", "1", "7", " ", "[1]", "[a]", "[\u65e5]", "[", "]", "\u00e9", "\u65e5",
                                   "\u0416", ":", "-", "Mar", "n/a", "\u00a0", "\u0661", "Jan 3", "\t"]),
                  min_size=1, max_size=5).map("".join)


@st.composite
def _cell(draw: Any) -> dict[str, Any]:
    text = draw(_TEXTS)
    spec: dict[str, Any] = {"tag": draw(st.sampled_from(["td", "td", "th"])), "text": text}
    if draw(st.booleans()):
        spec["links"] = draw(st.lists(st.sampled_from([text, text[:1], "x", "a long link text"]), max_size=2))
    if draw(st.integers(0, 4)) == 0:
        spec["color"] = draw(st.sampled_from(["red", "#00f", " ", "Blue"]))
    if draw(st.integers(0, 3)) == 0:
        spec["bold"] = True
    return spec


_TABLES = st.lists(st.lists(st.lists(_cell(), min_size=2, max_size=3), min_size=2, max_size=5),
                   min_size=1, max_size=3)


def _grids(tables: list[list[list[dict[str, Any]]]]) -> str:
    """A grids document of tables of one-slot cells (no spans), with links (px:link) and colours."""
    out = []
    for index, rows in enumerate(tables):
        width = max(len(row) for row in rows)
        out.append(f'<px:table index="{index}" rows="{len(rows)}" cols="{width}" locator="/html/body/table" '
                   'depth="0" font-size="16">')
        for y, row in enumerate(rows):
            for x, spec in enumerate(row):
                color = f" color={quoteattr(spec['color'])}" if "color" in spec else ""
                links = "".join(f'<px:link href="#">{escape(t)}</px:link>' for t in spec.get("links", []))
                bold = "true" if spec.get("bold", spec["tag"] == "th") else "false"
                out.append(f'<px:cell id="t{index}.c{y}.{x}" row="{y}" col="{x}" rowspan="1" colspan="1" '
                           f'tag="{spec["tag"]}" group="1" group-kind="tbody" font-size="16" bold="{bold}" '
                           f'italic="false"{color}><px:text>{escape(spec["text"])}</px:text>{links}</px:cell>')
        for y, row in enumerate(rows):
            out.append(f'<px:row index="{y}" group="1" group-kind="tbody">')
            out.extend(f'<px:slot col="{x}" cell="t{index}.c{y}.{x}"/>' if x < len(row) else f'<px:slot col="{x}"/>'
                       for x in range(width))
            out.append("</px:row>")
        out.append("</px:table>")
    return '<px:grids xmlns:px="urn:pyxform" source="test" title="" encoding="utf-8">' + "".join(out) + "</px:grids>"


def _feature_differences(xml: str) -> list[tuple[str, str, str, str]]:
    from lxml import etree

    processor, executable = _features_stylesheet()
    out = etree.fromstring(executable.transform_to_string(xdm_node=processor.parse_xml(xml_text=xml)).encode())
    assert len(out) > 0
    return [(v.get("cell"), v.get("key"), v.get("new"), v.get("old")) for v in out if v.get("new") != v.get("old")]


_FIXED = [[[{"tag": "td", "text": "a[\u65e5]"}, {"tag": "td", "text": "Abc", "links": ["Abc"], "color": "red"}],
           [{"tag": "td", "text": "Hello world"}, {"tag": "td", "text": "x\u00e9", "links": ["x"]}]],
          [[{"tag": "th", "text": "Name [1]"}, {"tag": "td", "text": "plain ascii", "links": ["plain ascii"]}],
           [{"tag": "td", "text": "\u65e5\u672c"}, {"tag": "td", "text": "a:"}]]]


def test_fixed_features() -> None:
    assert _feature_differences(_grids(_FIXED)) == []


@settings(max_examples=150, deadline=None)
@given(_TABLES)
def test_generated_features(tables: list[list[list[dict[str, Any]]]]) -> None:
    assert _feature_differences(_grids(tables)) == []


@settings(max_examples=100, deadline=None)
@given(_TABLES, st.sampled_from(["auto", "format"]))
def test_generated_stage_outputs(tables: list[list[list[dict[str, Any]]]], method: str) -> None:
    new, old = stage_and_variant_outputs(_OLD, _grids(tables), method)
    assert new == old
