<?xml version="1.0" encoding="UTF-8"?>
<!--
  The dense grid and the table model errors of one table (docs/formats.md section 2), from the cells that
  f:place-cells anchored: px:row elements with exactly one px:slot per column, each naming the cell that covers it
  (where cells overlap, the later cell in tree order: what browsers paint), and px:error elements for overlapping
  cells and for rows and columns in which no cell is anchored (WHATWG forming a table, step "end").

  Per row, a map from column to the cells covering it (in tree order) is built from the cells that cover that row,
  so the work is the number of slots plus the cells' areas.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!--
    f:dense-grid($rows, $cells, $cols): the px:row elements of the table, then its px:error elements of code overlap
    (one per slot that several cells cover, listing them in tree order).
    $rows: the row maps of f:table-rows; $cells: the cell maps of f:place-cells, in tree order; $cols: the width.
  -->
  <xsl:function name="f:dense-grid" as="element()*">
    <xsl:param name="rows" as="map(*)*"/>
    <xsl:param name="cells" as="map(*)*"/>
    <xsl:param name="cols" as="xs:integer"/>
    <xsl:variable name="cells-by-row" as="map(xs:integer, map(*)+)"
        select="map:merge(for $cell in $cells, $y in $cell?row to $cell?row + $cell?rowspan - 1
                          return map { $y: $cell }, map { 'duplicates': 'combine' })"/>
    <xsl:variable name="rows-and-overlaps" as="element()*">
      <xsl:for-each select="$rows">
        <xsl:variable name="y" as="xs:integer" select="?y"/>
        <xsl:variable name="covering" as="map(xs:integer, xs:string+)"
            select="map:merge(for $cell in $cells-by-row($y), $x in $cell?col to $cell?col + $cell?colspan - 1
                              return map { $x: $cell?id }, map { 'duplicates': 'combine' })"/>
        <px:row index="{$y}" group="{?group}" group-kind="{?group-kind}">
          <xsl:copy-of select="?tr/@class"/>
          <xsl:for-each select="0 to $cols - 1">
            <px:slot col="{.}">
              <xsl:if test="map:contains($covering, .)">
                <xsl:attribute name="cell" select="$covering(.)[last()]"/>
              </xsl:if>
            </px:slot>
          </xsl:for-each>
        </px:row>
        <xsl:for-each select="sort(map:keys($covering)[count($covering(.)) gt 1])">
          <px:error code="overlap" row="{$y}" col="{.}" cells="{$covering(.)}"/>
        </xsl:for-each>
      </xsl:for-each>
    </xsl:variable>
    <xsl:sequence select="$rows-and-overlaps[self::px:row], $rows-and-overlaps[self::px:error]"/>
  </xsl:function>

  <!--
    f:empty-lines($row-count, $cols, $cells): px:error elements of code empty-row and empty-column, for each row and
    column of the table in which no cell is anchored.
  -->
  <xsl:function name="f:empty-lines" as="element(px:error)*">
    <xsl:param name="row-count" as="xs:integer"/>
    <xsl:param name="cols" as="xs:integer"/>
    <xsl:param name="cells" as="map(*)*"/>
    <xsl:variable name="anchor-rows" as="map(xs:integer, xs:boolean)"
        select="map:merge($cells ! map { ?row: true() }, map { 'duplicates': 'use-first' })"/>
    <xsl:variable name="anchor-cols" as="map(xs:integer, xs:boolean)"
        select="map:merge($cells ! map { ?col: true() }, map { 'duplicates': 'use-first' })"/>
    <xsl:for-each select="(0 to $row-count - 1)[not(map:contains($anchor-rows, .))]">
      <px:error code="empty-row" row="{.}"/>
    </xsl:for-each>
    <xsl:for-each select="(0 to $cols - 1)[not(map:contains($anchor-cols, .))]">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
  </xsl:function>

</xsl:stylesheet>
