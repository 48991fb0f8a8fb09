"""The formatting method's usual values of a line (headers/format.xsl fp:usual) and the most frequent value (headers/
functions.xsl f:mode) against the general paths they shorten: one or two cells have the last one's face, colour,
background and class (f:mode's tie rule takes the later of two values, equal or not), and f:mode of two values is the
second. Compared with the old functions (each of the four values by fp:usual-value and f:mode's grouping) on fixed
and generated sequences of few distinct values, so that ties, equal values and empty strings are frequent."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from .headers_helpers import stage_and_variant

_STYLESHEET = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array" xmlns:c="urn:pyxform:cell"
    xmlns:u="urn:pyxform:usual" xmlns:f="urn:pyxform:function" xmlns:fp="urn:pyxform:function:private" exclude-result-prefixes="#all">
  <xsl:import href="HEADERS"/>
  <xsl:function name="fp:old-mode" as="xs:string?">
    <xsl:param name="values" as="xs:string*"/>
    <!-- values all equal (most tables: one font size, one indentation, no row class) are answered by comparison,
         without the grouping -->
    <xsl:sequence select="if (every $value in $values satisfies $value eq $values[1]) then $values[1]
                          else fp:mode($values)"/>
  </xsl:function>

  <xsl:function name="fp:old-usual-value" as="xs:string">
    <xsl:param name="values" as="xs:string*"/>
    <xsl:sequence select="if (empty($values)) then ''
                          else if (every $value in $values satisfies $value eq $values[1]) then $values[1]
                          else (fp:old-mode($values), '')[1]"/>
  </xsl:function>
  <xsl:function name="fp:old-usual" as="map(*)">
    <xsl:param name="cells" as="map(*)*"/>
    <xsl:variable name="first" as="map(*)?" select="$cells[1]"/>
    <xsl:choose>
      <xsl:when test="exists($first) and (every $cell in $cells satisfies $cell?look eq $first?look)">
        <xsl:sequence select="map {
            'face' : $first?face,
            'color' : $first?color,
            'background' : $first?background,
            'class' : $first?class,
            'look' : $first?look
          }"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="face" as="xs:string" select="fp:old-usual-value($cells ! ?face)"/>
        <xsl:variable name="color" as="xs:string" select="fp:old-usual-value($cells ! ?color)"/>
        <xsl:variable name="background" as="xs:string" select="fp:old-usual-value($cells ! ?background)"/>
        <xsl:variable name="class" as="xs:string" select="fp:old-usual-value($cells ! ?class)"/>
        <xsl:sequence select="map {
            'face' : $face,
            'color' : $color,
            'background' : $background,
            'class' : $class,
            'look' : f:look($face, $color, $background, $class)
          }"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <xsl:template match="/" priority="10">
    <r>
      <xsl:for-each select="/cases/modes">
        <xsl:variable name="values" as="xs:string*" select="v ! string(.)"/>
        <mode new="{serialize(f:mode($values))}" old="{serialize(fp:old-mode($values))}"/>
      </xsl:for-each>
      <xsl:for-each select="/cases/line">
        <xsl:variable name="cells" as="map(*)*" select="c ! map { 'face' : string(@face), 'color' : string(@color),
            'background' : string(@background), 'class' : string(@class),
            'look' : f:look(string(@face), string(@color), string(@background), string(@class)) }"/>
        <!-- the same cells as the model's records (fp:usual reads those): the members it reads set by name -->
        <xsl:variable name="records" as="array(*)*" select="$cells ! (
            array:join((1 to $c:row-class) ! [()]) => array:put($c:face, ?face) => array:put($c:color, ?color)
            => array:put($c:background, ?background) => array:put($c:class, ?class) => array:put($c:look, ?look))"/>
        <!-- the new record (an array, positions $u:...) as the old map -->
        <usual new="{serialize(fp:usual($records) ! map { 'face' : .($u:face), 'color' : .($u:color),
                         'background' : .($u:background), 'class' : .($u:class), 'look' : .($u:look) },
                         map { 'method' : 'adaptive' })}"
               old="{serialize(fp:old-usual($cells), map { 'method' : 'adaptive' })}"/>
      </xsl:for-each>
    </r>
  </xsl:template>
</xsl:stylesheet>"""


def _compiled() -> tuple[Any, Any]:
    processor, _, variant = stage_and_variant(_STYLESHEET)
    return processor, variant


def _differences(modes: list[list[str]], lines: list[list[tuple[str, str, str, str]]]) -> list[Any]:
    from lxml import etree

    processor, executable = _compiled()
    root = etree.Element("cases")
    for values in modes:
        element = etree.SubElement(root, "modes")
        for value in values:
            etree.SubElement(element, "v").text = value
    for cells in lines:
        element = etree.SubElement(root, "line")
        for face, color, background, class_ in cells:
            etree.SubElement(element, "c", face=face, color=color, background=background, attrib={"class": class_})
    node = processor.parse_xml(xml_text=etree.tostring(root, encoding="unicode"))
    out = etree.fromstring(executable.transform_to_string(xdm_node=node).encode())
    assert len(out) == len(modes) + len(lines)
    return [(element.tag, element.get("new"), element.get("old")) for element in out
            if element.get("new") != element.get("old")]


_FIXED_MODES = [[], ["a"], ["a", "a"], ["a", "b"], ["", "b"], ["b", ""], ["a", "b", "a"], ["a", "b", "c"],
                ["a", "b", "b"], ["16", "16", "13"], ["", "", "x"]]
_FIXED_LINES = [[], [("", "", "", "")], [("", "", "", "infobox-label"), ("", "", "", "infobox-data")],
                [("", "red", "", ""), ("", "", "", "")], [("", "red", "", ""), ("", "red", "", "")],
                [("a", "", "", ""), ("b", "", "", ""), ("a", "", "", "")],
                [("a", "", "x", ""), ("b", "", "", ""), ("c", "", "x", "")]]


def test_fixed_cases() -> None:
    assert _differences(_FIXED_MODES, _FIXED_LINES) == []


_VALUE = st.sampled_from(["", "a", "b", "16", "red"])
_CELL = st.tuples(_VALUE, _VALUE, _VALUE, _VALUE)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_VALUE, max_size=5), max_size=6), st.lists(st.lists(_CELL, max_size=4), max_size=6))
def test_generated_cases(modes: list[list[str]], lines: list[list[tuple[str, str, str, str]]]) -> None:
    assert _differences(modes, lines) == []
