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
    fp:table-model($table, $index): map { 'rows': the row records of f:place-rows in table order, 'cols': the width };
    or, for a simple table, map { 'groups': its row groups, 'row-count': its number of rows, 'cols': the width,
    'colspans': the effective colspan of each cell in tree order, 'xs': the anchor column of each cell in tree order
    (both empty when no cell has a span attribute), 'rowspans': the effective rowspan of each cell in tree order
    (empty when no cell has a rowspan attribute) }. Raises px:limit for a table nested deeper than $max-depth,
    wider than $max-slots allows, or whose cells' areas add up to more than $max-slots.

    A simple table (most tables) has its rows in thead, tbody and tfoot elements (no tr child: the HTML parser puts
    such rows in a tbody) and no tfoot with rows before another row group with rows (so table order is tree order
    and the row groups with rows are the groups, in order), and no two of its cells cover one slot. Without a
    rowspan attribute no cell covers a slot of a later row, so a row's cells are anchored one after the other from
    column 0, each spanning its effective colspan (1 without the attribute: cell i of row y in slot (y, i - 1))
    (fp:anchors); with rowspans, each cell in the first column its row's earlier cells and the cells of earlier
    rows leave free (fp:span-anchors, which finds overlapping cells: such a table takes the general steps). The
    width is the widest row (or the column groups' width), and there are no overlap errors. Its grid is written
    from its row groups directly (fp:simple-table, fp:span-table), the same as from the records, without a map per
    row. A simple table of more than $max-slots slots takes the general steps, which raise the error.
  -->
  <xsl:function name="fp:table-model" as="map(*)">
    <xsl:param name="table" as="element(table)"/>
    <xsl:param name="index" as="xs:integer"/>
    <xsl:variable name="checked" as="element(table)" select="fp:checked-depth($table)"/>
    <xsl:variable name="groups" as="element()*" select="$checked/(thead | tbody | tfoot)[tr]"/>
    <!-- the cells with a span attribute (one pass over the cells) -->
    <xsl:variable name="spanned" as="element()*" select="$groups/tr/(td | th)[exists(@colspan) or exists(@rowspan)]"/>
    <xsl:variable name="in-order" as="xs:boolean"
        select="exists($groups) and empty($checked/tr) and empty($groups[position() lt last()][self::tfoot])"/>
    <!-- the effective colspans and rowspans and the anchor columns, when a cell has a span attribute -->
    <xsl:variable name="colspans" as="xs:integer*"
        select="if ($in-order and exists($spanned))
                then $groups/tr/(td | th) ! (if (exists(@colspan)) then fp:span(@colspan) else 1) else ()"/>
    <xsl:variable name="rowspans" as="xs:integer*"
        select="if ($in-order and exists($spanned[exists(@rowspan)])) then fp:rowspans($groups) else ()"/>
    <!-- fp:span-anchors ends with -1 where two cells overlap -->
    <xsl:variable name="xs" as="xs:integer*"
        select="if (empty($colspans)) then ()
                else if (empty($rowspans)) then fp:anchors($groups/tr, $colspans)
                else fp:span-anchors($groups/tr, $colspans, $rowspans)"/>
    <xsl:variable name="simple" as="xs:boolean" select="$in-order and not($xs[last()] lt 0)"/>
    <xsl:variable name="rows" as="xs:integer" select="if ($simple) then count($groups/tr) else 0"/>
    <xsl:variable name="width" as="xs:integer"
        select="if (not($simple)) then 0
                else if (empty($colspans)) then max((f:column-group-width($checked), $groups/tr ! count(td | th)))
                else max((f:column-group-width($checked), for $n in 1 to count($xs) return $xs[$n] + $colspans[$n]))"/>
    <xsl:choose>
      <xsl:when test="$simple and $rows * $width le $max-slots">
        <xsl:sequence select="map { 'groups': $groups, 'row-count': $rows, 'cols': $width, 'colspans': $colspans,
                                    'xs': $xs, 'rowspans': $rowspans }"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="placed" as="map(*)+"
            select="f:place-rows($index, f:table-rows($checked), f:column-group-width($checked), $max-slots)"/>
        <xsl:variable name="records" as="map(*)*" select="$placed[position() lt last()]"/>
        <xsl:sequence select="map { 'rows': fp:checked-area($records, $max-slots), 'cols': $placed[last()]?cols }"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <xsl:template name="fp:table" as="element(px:table)">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="index" as="xs:integer" required="yes"/>
    <xsl:param name="locator" as="xs:string" required="yes"/>
    <xsl:param name="model" as="map(*)" required="yes"/>
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)" tunnel="yes" required="yes"/>
    <xsl:variable name="groups" as="element()*" select="$model?groups"/>
    <xsl:variable name="records" as="map(*)*" select="if (exists($groups)) then () else $model?rows"/>
    <xsl:variable name="row-count" as="xs:integer"
        select="if (exists($groups)) then $model?row-count else count($records)"/>
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
    <px:table index="{$index}" rows="{$row-count}" cols="{$cols}" locator="{$locator}"
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
      <xsl:choose>
        <xsl:when test="exists($groups) and empty($model?colspans)">
          <xsl:call-template name="fp:simple-table">
            <xsl:with-param name="groups" select="$groups"/>
            <xsl:with-param name="cols" select="$cols"/>
            <xsl:with-param name="prefix" select="$prefix"/>
          </xsl:call-template>
        </xsl:when>
        <xsl:when test="exists($groups)">
          <xsl:call-template name="fp:span-table">
            <xsl:with-param name="groups" select="$groups"/>
            <xsl:with-param name="cols" select="$cols"/>
            <xsl:with-param name="prefix" select="$prefix"/>
            <xsl:with-param name="colspans" select="$model?colspans"/>
            <xsl:with-param name="rowspans" select="$model?rowspans"/>
            <xsl:with-param name="xs" select="$model?xs"/>
          </xsl:call-template>
        </xsl:when>
        <xsl:otherwise>
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
              <px:cell id="{$prefix}{$first + $i - 1}" row="{$y}" col="{$xs[$i]}"
                       rowspan="{if (exists($span)) then $span(2) else 1}"
                       colspan="{if (exists($span)) then $span(1) else 1}" tag="{local-name()}" group="{$group}"
                       group-kind="{$group-kind}">
                <xsl:call-template name="fp:cell-content"/>
              </px:cell>
            </xsl:for-each>
          </xsl:for-each>
          <xsl:for-each select="$records">
            <xsl:call-template name="fp:grid-row">
              <xsl:with-param name="record" select="."/>
              <xsl:with-param name="cols" select="$cols"/>
              <xsl:with-param name="prefix" select="$prefix"/>
            </xsl:call-template>
          </xsl:for-each>
          <xsl:sequence select="$tree-order?errors"/>
          <xsl:sequence select="f:overlap-errors($records, $prefix)"/>
          <xsl:sequence select="f:empty-lines($records, $cols)"/>
        </xsl:otherwise>
      </xsl:choose>
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
