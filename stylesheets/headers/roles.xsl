<?xml version="1.0" encoding="UTF-8"?>
<!--
  The role of every cell, which the assignment of header cells (headers/assign.xsl) and the annotation read.

    f:roles($model, $k, $p, $kinds, $markup) => map { cell id : 'header' | 'data' | 'section' | 'empty' }

  Roles (anchor row and column of the cell): the text cell of a section row is a section cell (also a title row
  that is the first of stacked sub-tables, rows.xsl); a cell anchored in a header row (y < k), in a repeated
  header row or, outside note rows (a note spanning the table is data even where it starts in a header column),
  in a header column (x < p) is a header cell; with markup, so is any th of a data row; other cells without
  content are empty; the rest are data.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:roles" as="map(xs:string, xs:string)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:param name="kinds" as="array(xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <!-- the cell records as the values of the cells map (each once, in any order: the keys are distinct), not a look-up
         per id; one xsl:map-entry per cell, not a map:merge of one-entry maps -->
    <xsl:map>
      <xsl:for-each select="$model?cells?*">
        <xsl:map-entry key=".($c:id)" select="fp:role(., $k, $p, $kinds, $markup)"/>
      </xsl:for-each>
    </xsl:map>
  </xsl:function>

  <xsl:function name="fp:role" as="xs:string">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:param name="kinds" as="array(*)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="kind" as="xs:string" select="$kinds($cell($c:row) + 1)"/>
    <xsl:sequence select="
        if ($kind eq 'section') then (if ($cell($c:blank)) then 'empty' else 'section')
        else if ($cell($c:row) lt $k or $kind = ('head', 'repeat')) then 'header'
        else if ($kind eq 'note') then (if ($cell($c:empty)) then 'empty' else 'data')
        else if ($cell($c:col) lt $p) then 'header'
        else if ($markup and $cell($c:tag) eq 'th' and $kind = ('data')) then 'header'
        else if ($cell($c:empty)) then 'empty'
        else 'data'"/>
  </xsl:function>

</xsl:stylesheet>
