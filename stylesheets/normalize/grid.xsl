<?xml version="1.0" encoding="UTF-8"?>
<!--
  The dense grid and the table model errors of one table (docs/formats.md section 2), from the row records of
  f:place-rows: px:row elements with exactly one px:slot per column, each naming the cell that covers it (where
  cells overlap, the later cell in tree order: what browsers paint), and px:error elements for overlapping cells and
  for rows and columns in which no cell is anchored (WHATWG forming a table, step "end").

  A row's slots are written from its cells in column order, the columns that cells of earlier rows cover (few) found
  in a small map; no map per slot. Only a row in which cells overlap (bad markup) is done with a map from each
  column to the cells covering it.
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
    fp:grid-row: the px:row of one row record of f:place-rows ($record), with $cols px:slot children. $prefix: the
    cell ids' common part, "t{table index}.c". A named template, called inside the caller's px:table, which it
    writes into as it goes: a function returning the px:row (f:grid-row, as before) built each row apart and had it
    copied into the grid (callgrind, normalize on spans 500 x 20: 140.3k -> 135.1k instructions a cell). Like
    fp:cell-content, it declares no "as": what it writes goes into the caller's element, nothing is returned.
  -->
  <xsl:template name="fp:grid-row">
    <xsl:param name="record" as="map(*)" required="yes"/>
    <xsl:param name="cols" as="xs:integer" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <xsl:variable name="row" as="map(*)" select="$record?row"/>
    <xsl:variable name="first" as="xs:integer" select="$row?first-cell"/>
    <xsl:variable name="xs" as="xs:integer*" select="$record?xs"/>
    <xsl:variable name="spans" as="map(*)" select="$record?spans"/>
    <xsl:variable name="active" as="array(xs:integer)*" select="$record?active"/>
    <px:row index="{$row?y}" group="{$row?group}" group-kind="{$row?group-kind}">
      <xsl:copy-of select="$row?tr/@class"/>
      <xsl:choose>
        <xsl:when test="empty($active) and map:size($spans) eq 0">
          <!-- each cell spans one slot and no cell of an earlier row reaches this row: cell i is in column i - 1 -->
          <xsl:for-each select="0 to count($xs) - 1">
            <px:slot col="{.}" cell="{$prefix}{$first + .}"/>
          </xsl:for-each>
          <xsl:for-each select="count($xs) to $cols - 1">
            <px:slot col="{.}"/>
          </xsl:for-each>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="reaching" as="map(xs:integer, xs:integer+)" select="fp:reaching($active)"/>
          <xsl:choose>
            <xsl:when test="fp:overlaps($xs, $spans, $reaching)">
              <xsl:variable name="covering" as="map(xs:integer, xs:integer+)" select="fp:covering($record)"/>
              <xsl:for-each select="0 to $cols - 1">
                <px:slot col="{.}">
                  <xsl:if test="map:contains($covering, .)">
                    <xsl:attribute name="cell" select="$prefix || $covering(.)[last()]"/>
                  </xsl:if>
                </px:slot>
              </xsl:for-each>
            </xsl:when>
            <xsl:otherwise>
              <xsl:iterate select="1 to count($xs)">
                <xsl:param name="next" as="xs:integer" select="0"/>
                <xsl:on-completion>
                  <xsl:call-template name="fp:reaching-slots">
                    <xsl:with-param name="from" select="$next"/>
                    <xsl:with-param name="to" select="$cols"/>
                    <xsl:with-param name="reaching" select="$reaching"/>
                    <xsl:with-param name="prefix" select="$prefix"/>
                  </xsl:call-template>
                </xsl:on-completion>
                <xsl:variable name="i" as="xs:integer" select="."/>
                <xsl:variable name="x" as="xs:integer" select="$xs[$i]"/>
                <xsl:variable name="colspan" as="xs:integer"
                    select="if (map:contains($spans, $i)) then $spans($i)(1) else 1"/>
                <xsl:variable name="id" as="xs:string" select="$prefix || $first + $i - 1"/>
                <!-- columns $next to $x - 1 (none when the cell follows the previous one: no call) -->
                <xsl:if test="$next lt $x">
                  <xsl:call-template name="fp:reaching-slots">
                    <xsl:with-param name="from" select="$next"/>
                    <xsl:with-param name="to" select="$x"/>
                    <xsl:with-param name="reaching" select="$reaching"/>
                    <xsl:with-param name="prefix" select="$prefix"/>
                  </xsl:call-template>
                </xsl:if>
                <xsl:for-each select="$x to $x + $colspan - 1">
                  <px:slot col="{.}" cell="{$id}"/>
                </xsl:for-each>
                <xsl:next-iteration>
                  <xsl:with-param name="next" select="$x + $colspan"/>
                </xsl:next-iteration>
              </xsl:iterate>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:otherwise>
      </xsl:choose>
    </px:row>
  </xsl:template>

  <!-- The slots of columns $from to $to - 1, which no cell of the row is anchored in: those that cells of earlier rows
       reach name that cell. A named template for the reason given at fp:grid-row. -->
  <xsl:template name="fp:reaching-slots">
    <xsl:param name="from" as="xs:integer" required="yes"/>
    <xsl:param name="to" as="xs:integer" required="yes"/>
    <xsl:param name="reaching" as="map(xs:integer, xs:integer+)" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <xsl:for-each select="$from to $to - 1">
      <px:slot col="{.}">
        <xsl:if test="map:contains($reaching, .)">
          <xsl:attribute name="cell" select="$prefix || $reaching(.)"/>
        </xsl:if>
      </px:slot>
    </xsl:for-each>
  </xsl:template>

  <!-- column -> the numbers of the cells of earlier rows that cover that column of the row ($active of its record) -->
  <xsl:function name="fp:reaching" as="map(xs:integer, xs:integer+)">
    <xsl:param name="active" as="array(xs:integer)*"/>
    <xsl:sequence select="map:merge(for $cell in $active, $x in $cell(1) to $cell(1) + $cell(2) - 1
                                    return map { $x: $cell(3) }, map { 'duplicates': 'combine' })"/>
  </xsl:function>

  <!-- Whether two cells cover one slot of the row: two cells of earlier rows, or a cell of the row spanning columns
       that a cell of an earlier row covers (a cell of the row is anchored in a free slot, after the previous one). -->
  <xsl:function name="fp:overlaps" as="xs:boolean">
    <xsl:param name="xs" as="xs:integer*"/>
    <xsl:param name="spans" as="map(*)"/>
    <xsl:param name="reaching" as="map(xs:integer, xs:integer+)"/>
    <xsl:sequence select="(some $x in map:keys($reaching) satisfies count($reaching($x)) gt 1)
                          or (some $i in map:keys($spans)
                              satisfies (some $x in $xs[$i] + 1 to $xs[$i] + $spans($i)(1) - 1
                                         satisfies map:contains($reaching, $x)))"/>
  </xsl:function>

  <!-- column -> the numbers of every cell covering that column of the row, in tree order -->
  <xsl:function name="fp:covering" as="map(xs:integer, xs:integer+)">
    <xsl:param name="record" as="map(*)"/>
    <xsl:variable name="first" as="xs:integer" select="$record?row?first-cell"/>
    <xsl:variable name="xs" as="xs:integer*" select="$record?xs"/>
    <xsl:variable name="spans" as="map(*)" select="$record?spans"/>
    <xsl:variable name="intervals" as="array(xs:integer)*"
        select="sort(($record?active,
                      for $i in 1 to count($xs)
                      return [$xs[$i], if (map:contains($spans, $i)) then $spans($i)(1) else 1, $first + $i - 1]),
                     (), function ($cell) { $cell(3) })"/>
    <xsl:sequence select="map:merge(for $cell in $intervals, $x in $cell(1) to $cell(1) + $cell(2) - 1
                                    return map { $x: $cell(3) }, map { 'duplicates': 'combine' })"/>
  </xsl:function>

  <!--
    f:overlap-errors($records, $prefix): a px:error of code overlap for each slot that several cells cover, listing
    them in tree order; row by row (table order), column by column.
  -->
  <xsl:function name="f:overlap-errors" as="element(px:error)*">
    <xsl:param name="records" as="map(*)*"/>
    <xsl:param name="prefix" as="xs:string"/>
    <xsl:for-each select="$records[exists(?active)]">
      <xsl:if test="fp:overlaps(?xs, ?spans, fp:reaching(?active))">
        <xsl:variable name="y" as="xs:integer" select="?row?y"/>
        <xsl:variable name="covering" as="map(xs:integer, xs:integer+)" select="fp:covering(.)"/>
        <xsl:for-each select="sort(map:keys($covering)[count($covering(.)) gt 1])">
          <px:error code="overlap" row="{$y}" col="{.}" cells="{$covering(.) ! ($prefix || .)}"/>
        </xsl:for-each>
      </xsl:if>
    </xsl:for-each>
  </xsl:function>

  <!--
    f:empty-lines($records, $cols): px:error elements of code empty-row and empty-column, for each row and column of
    the table in which no cell is anchored. A row whose cells span one slot each, with no cell of an earlier row
    reaching it, anchors its first columns; only the other rows' anchors are looked at one by one.
  -->
  <xsl:function name="f:empty-lines" as="element(px:error)*">
    <xsl:param name="records" as="map(*)*"/>
    <xsl:param name="cols" as="xs:integer"/>
    <xsl:variable name="simple" as="xs:boolean*" select="$records ! (empty(?active) and map:size(?spans) eq 0)"/>
    <xsl:variable name="widest-simple" as="xs:integer"
        select="max((0, for $r in 1 to count($records) return if ($simple[$r]) then count($records[$r]?xs) else ()))"/>
    <xsl:variable name="other-anchors" as="map(xs:integer, xs:boolean)"
        select="map:merge(for $r in 1 to count($records)
                          return if ($simple[$r]) then () else $records[$r]?xs ! map { .: true() },
                          map { 'duplicates': 'use-first' })"/>
    <xsl:for-each select="$records[empty(?xs)]">
      <px:error code="empty-row" row="{?row?y}"/>
    </xsl:for-each>
    <xsl:for-each select="($widest-simple to $cols - 1)[not(map:contains($other-anchors, .))]">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
  </xsl:function>

</xsl:stylesheet>
