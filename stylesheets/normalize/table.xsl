<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:normalize-table: one table element of the annotated XHTML becomes a px:table (docs/formats.md section 2): its
  attributes (index, size, locator, depth, nesting), caption and summary, its cells in tree order, its dense grid
  and its table model errors. A table whose model cannot be formed (a resource limit, or any dynamic error while
  forming it: rows, anchors, spans, width) becomes a px:table-failure with a code and a message, and the page's other
  tables go on; the px:table is then written from the model without buffering.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:err="http://www.w3.org/2005/xqt-errors"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:m="urn:pyxform:mode"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:mode name="m:normalize-table" on-no-match="fail" on-multiple-match="fail"/>

  <xsl:template match="table" mode="m:normalize-table" as="element()">
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)" tunnel="yes" required="yes"/>
    <xsl:variable name="index" as="xs:integer" select="$table-indexes(generate-id())"/>
    <xsl:variable name="locator" as="xs:string" select="(@px:locator, f:locator(.))[1]"/>
    <!-- The table model (where a limit or any other dynamic error can stop it) is computed inside xsl:try, as data;
         the px:table is written from it outside, so no table is buffered as a temporary tree. -->
    <xsl:variable name="model" as="item()">
      <xsl:try>
        <xsl:sequence select="fp:table-model(., $index)"/>
        <xsl:catch>
          <xsl:variable name="code" as="xs:string"
              select="if ($err:code eq xs:QName('px:limit')) then 'limit' else 'table'"/>
          <!-- the failure is data (no message): px:limit comes with the limit's name as its error object -->
          <px:table-failure index="{$index}" locator="{$locator}" code="{$code}"
              message="{$err:description}{if ($code eq 'limit') then '' else ' (' || $err:code || ')'}">
            <xsl:if test="$code eq 'limit'">
              <xsl:attribute name="limit" select="$err:value"/>
            </xsl:if>
          </px:table-failure>
        </xsl:catch>
      </xsl:try>
    </xsl:variable>
    <xsl:choose>
      <xsl:when test="$model instance of element()">
        <xsl:sequence select="$model"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="fp:table">
          <xsl:with-param name="index" select="$index"/>
          <xsl:with-param name="locator" select="$locator"/>
          <xsl:with-param name="model" select="$model"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    fp:table-model($table, $index): map { 'rows': the row records of f:place-rows in table order, 'cols': the width }.
    Raises px:limit for a table nested deeper than $max-depth, wider than $max-slots allows, or whose cells' areas
    add up to more than $max-slots.
  -->
  <xsl:function name="fp:table-model" as="map(*)">
    <xsl:param name="table" as="element(table)"/>
    <xsl:param name="index" as="xs:integer"/>
    <xsl:variable name="placed" as="map(*)+"
        select="f:place-rows($index, f:table-rows(fp:checked-depth($table)), f:column-group-width($table),
                             $max-slots)"/>
    <xsl:variable name="records" as="map(*)*" select="$placed[position() lt last()]"/>
    <xsl:sequence select="map { 'rows': fp:checked-area($records, $max-slots), 'cols': $placed[last()]?cols }"/>
  </xsl:function>

  <xsl:template name="fp:table" as="element(px:table)">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="index" as="xs:integer" required="yes"/>
    <xsl:param name="locator" as="xs:string" required="yes"/>
    <xsl:param name="model" as="map(*)" required="yes"/>
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)" tunnel="yes" required="yes"/>
    <xsl:variable name="table" as="element(table)" select="."/>
    <xsl:variable name="records" as="map(*)*" select="$model?rows"/>
    <xsl:variable name="cols" as="xs:integer" select="$model?cols"/>
    <xsl:variable name="prefix" as="xs:string" select="'t' || $index || '.c'"/>
    <!-- rows in table order (tfoot rows last): back to tree order, when a tfoot with rows comes before other rows -->
    <xsl:variable name="in-tree-order" as="xs:boolean"
        select="empty(tfoot[tr][following-sibling::*[self::thead or self::tbody or self::tr][
                                  self::tr or exists(tr)]])"/>
    <xsl:variable name="tree-order" as="map(*)*"
        select="if ($in-tree-order) then $records else sort($records, (), function ($record) { $record?row?first-cell })"/>
    <xsl:variable name="parent" as="element(table)?" select="ancestor::table[1]"/>
    <xsl:variable name="parent-cell" as="element()?"
        select="if (empty($parent)) then () else (ancestor::td | ancestor::th)[last()][ancestor::table[1] is $parent]
                [(parent::tr/parent::table, parent::tr/parent::*[self::thead or self::tbody or self::tfoot]/parent::table)[1]
                 is $parent]"/>
    <px:table index="{$index}" rows="{count($records)}" cols="{$cols}" locator="{$locator}"
              depth="{(@px:depth[. castable as xs:nonNegativeInteger], count(ancestor::table))[1]}">
      <xsl:if test="exists(@px:font-size)">
        <xsl:attribute name="font-size" select="@px:font-size"/>
      </xsl:if>
      <xsl:if test="exists(@px:heading)">
        <xsl:attribute name="heading" select="@px:heading"/>
      </xsl:if>
      <xsl:if test="@px:hidden = 'true'">
        <xsl:attribute name="hidden" select="true()"/>
      </xsl:if>
      <xsl:if test="exists($parent)">
        <xsl:attribute name="parent-table" select="$table-indexes(generate-id($parent))"/>
      </xsl:if>
      <xsl:if test="exists($parent-cell)">
        <xsl:attribute name="parent-cell" select="fp:cell-id-in($parent-cell, $parent, $table-indexes)"/>
      </xsl:if>
      <xsl:for-each select="caption[1]">
        <px:caption>{f:visible-text(.)}</px:caption>
      </xsl:for-each>
      <xsl:for-each select="@summary">
        <px:summary>{.}</px:summary>
      </xsl:for-each>
      <xsl:for-each select="$tree-order">
        <xsl:variable name="row" as="map(*)" select="?row"/>
        <xsl:variable name="xs" as="xs:integer*" select="?xs"/>
        <xsl:variable name="spans" as="map(*)" select="?spans"/>
        <xsl:variable name="plain" as="xs:boolean" select="map:size($spans) eq 0"/>
        <xsl:variable name="first" as="xs:integer" select="$row?first-cell"/>
        <xsl:variable name="y" as="xs:integer" select="$row?y"/>
        <xsl:variable name="group" as="xs:integer" select="$row?group"/>
        <xsl:variable name="group-kind" as="xs:string" select="$row?group-kind"/>
        <xsl:for-each select="$row?tr/(td | th)">
          <xsl:variable name="i" as="xs:integer" select="position()"/>
          <xsl:variable name="span" as="array(xs:integer)?" select="if ($plain) then () else $spans($i)"/>
          <xsl:sequence select="f:cell(., $prefix || $first + $i - 1, $y, $xs[$i], if (exists($span)) then $span(2) else 1,
                                       if (exists($span)) then $span(1) else 1, $group, $group-kind, $table,
                                       $table-indexes)"/>
        </xsl:for-each>
      </xsl:for-each>
      <xsl:sequence select="$records ! f:grid-row(., $cols, $prefix)"/>
      <xsl:sequence select="$tree-order?errors"/>
      <xsl:sequence select="f:overlap-errors($records, $prefix)"/>
      <xsl:sequence select="f:empty-lines($records, $cols)"/>
    </px:table>
  </xsl:template>

  <!-- The id of $cell, a cell of $table. -->
  <xsl:function name="fp:cell-id-in" as="xs:string">
    <xsl:param name="cell" as="element()"/>
    <xsl:param name="table" as="element(table)"/>
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)"/>
    <xsl:variable name="cells" as="element()*" select="f:table-cells($table)"/>
    <xsl:sequence select="f:cell-id($table-indexes(generate-id($table)),
                                    (for $n in 1 to count($cells) return if ($cells[$n] is $cell) then $n - 1 else ())[1])"/>
  </xsl:function>

  <!-- $table, or raise px:limit for a table nested deeper than $max-depth. -->
  <xsl:function name="fp:checked-depth" as="element(table)">
    <xsl:param name="table" as="element(table)"/>
    <xsl:variable name="depth" as="xs:integer" select="count($table/ancestor::table)"/>
    <xsl:sequence select="if ($depth le $max-depth) then $table
                          else error(xs:QName('px:limit'), 'the table is nested ' || $depth
                                     || ' tables deep: more than max_depth = ' || $max-depth, 'max_depth')"/>
  </xsl:function>

  <!--
    $records, or raise px:limit when the cells' areas add up to more than $max-slots: possible only where cells
    overlap (otherwise the areas add up to at most rows x columns), and it bounds the work of the dense grid.
  -->
  <xsl:function name="fp:checked-area" as="map(*)*">
    <xsl:param name="records" as="map(*)*"/>
    <xsl:param name="max-slots" as="xs:integer"/>
    <xsl:variable name="area" as="xs:integer"
        select="sum($records ! (count(?xs)
                                + (if (map:size(?spans) eq 0) then 0
                                   else sum(map:for-each(?spans, function ($i, $span) { $span(1) * $span(2) - 1 })))))"/>
    <xsl:sequence select="if ($area le $max-slots) then $records
                          else error(xs:QName('px:limit'), 'the cells of the table cover ' || $area
                                     || ' slots in all (they overlap): more than max_slots = ' || $max-slots,
                                     'max_slots')"/>
  </xsl:function>

</xsl:stylesheet>
