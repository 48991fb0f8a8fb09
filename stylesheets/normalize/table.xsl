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

  <!-- The effective rowspan (fp:rowspan-value) of each cell of the row groups $groups, in tree order. -->
  <xsl:function name="fp:rowspans" as="xs:integer+">
    <xsl:param name="groups" as="element()+"/>
    <xsl:sequence select="$groups ! (let $size := count(tr)
                                     return tr ! (let $left := $size - position() + 1
                                                  return (td | th) ! (if (empty(@rowspan)) then 1
                                                                      else fp:rowspan-value(
                                                                          f:parse-non-negative-integer(@rowspan),
                                                                          $left))))"/>
  </xsl:function>

  <!--
    The anchor column of each cell of the rows $trs (tree order, which is table order), whose effective colspans and
    rowspans are $colspans and $rowspans: "processing rows" steps 5 to 17, the first column at or after the end of
    the row's previous cell that no cell of an earlier row covers. Ends with -1 (and stops) at the first cell that
    spans a column a cell of an earlier row covers (overlapping cells: the caller takes the general steps). A row
    that no cell of an earlier row reaches and whose cells have no span attribute (most rows) has its cells in
    columns 0, 1, ... without a step per cell.
  -->
  <xsl:function name="fp:span-anchors" as="xs:integer*">
    <xsl:param name="trs" as="element(tr)+"/>
    <xsl:param name="colspans" as="xs:integer+"/>
    <xsl:param name="rowspans" as="xs:integer+"/>
    <xsl:iterate select="$trs">
      <xsl:param name="y" as="xs:integer" select="0"/>
      <!-- the cells of the rows before this one -->
      <xsl:param name="before" as="xs:integer" select="0"/>
      <!-- column -> first row index no longer covered by the multi-row cells placed so far in that column -->
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="map {}"/>
      <!-- the first row that no multi-row cell placed so far covers -->
      <xsl:param name="reach" as="xs:integer" select="0"/>
      <xsl:variable name="cells" as="element()*" select="td | th"/>
      <xsl:variable name="count" as="xs:integer" select="count($cells)"/>
      <xsl:choose>
        <xsl:when test="$reach le $y and empty($cells[exists(@colspan) or exists(@rowspan)])">
          <xsl:sequence select="0 to $count - 1"/>
          <xsl:next-iteration>
            <xsl:with-param name="y" select="$y + 1"/>
            <xsl:with-param name="before" select="$before + $count"/>
            <xsl:with-param name="covered-until" select="map {}"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="placed" as="item()*"
              select="fp:span-row-anchors($y, subsequence($colspans, $before + 1, $count),
                                          subsequence($rowspans, $before + 1, $count), $covered-until)"/>
          <xsl:variable name="state" as="item()" select="$placed[last()]"/>
          <xsl:choose>
            <xsl:when test="$state instance of xs:integer">
              <!-- overlapping cells: the anchors so far, then -1 -->
              <xsl:break select="$placed"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="$placed[position() lt last()]"/>
              <xsl:next-iteration>
                <xsl:with-param name="y" select="$y + 1"/>
                <xsl:with-param name="before" select="$before + $count"/>
                <xsl:with-param name="covered-until" select="$state"/>
                <xsl:with-param name="reach"
                    select="max(($reach, $y + max(subsequence($rowspans, $before + 1, $count))))"/>
              </xsl:next-iteration>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- The anchor columns of the cells of row $y, of effective colspans $colspans and rowspans $rowspans (see
       fp:span-anchors), then the columns covered after it (map: column -> first row no longer covered); or the
       anchors before the first cell that overlaps a cell of an earlier row, then -1. -->
  <xsl:function name="fp:span-row-anchors" as="item()+">
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="colspans" as="xs:integer*"/>
    <xsl:param name="rowspans" as="xs:integer*"/>
    <xsl:param name="covered-until" as="map(xs:integer, xs:integer)"/>
    <xsl:iterate select="1 to count($colspans)">
      <xsl:param name="x" as="xs:integer" select="0"/>
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="$covered-until"/>
      <xsl:on-completion select="$covered-until"/>
      <!-- the first free column ($x plus the number of covered columns is free) -->
      <xsl:variable name="anchor" as="xs:integer"
          select="if ($covered-until($x) gt $y)
                  then fp:first-free-column($covered-until, $x, $x + map:size($covered-until), $y)
                  else $x"/>
      <xsl:variable name="colspan" as="xs:integer" select="$colspans[current()]"/>
      <xsl:variable name="rowspan" as="xs:integer" select="$rowspans[current()]"/>
      <xsl:choose>
        <xsl:when test="$colspan gt 1 and map:size($covered-until) gt 0
                        and (some $c in $anchor + 1 to $anchor + $colspan - 1 satisfies $covered-until($c) gt $y)">
          <xsl:break select="-1"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:sequence select="$anchor"/>
          <xsl:next-iteration>
            <xsl:with-param name="x" select="$anchor + $colspan"/>
            <xsl:with-param name="covered-until"
                select="if ($rowspan eq 1) then $covered-until
                        else fp:cover-columns($covered-until, $anchor, $colspan, $y + $rowspan)"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- The anchor column of each cell of the rows $trs (tree order), whose effective colspans are $colspans, when no
       cell covers a slot of a later row: a row's cells one after the other from column 0. -->
  <xsl:function name="fp:anchors" as="xs:integer*">
    <xsl:param name="trs" as="element(tr)+"/>
    <xsl:param name="colspans" as="xs:integer+"/>
    <xsl:iterate select="$trs">
      <xsl:param name="before" as="xs:integer" select="0"/>
      <xsl:variable name="count" as="xs:integer" select="count(td | th)"/>
      <xsl:iterate select="subsequence($colspans, $before + 1, $count)">
        <xsl:param name="x" as="xs:integer" select="0"/>
        <xsl:sequence select="$x"/>
        <xsl:next-iteration>
          <xsl:with-param name="x" select="$x + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
      <xsl:next-iteration>
        <xsl:with-param name="before" select="$before + $count"/>
      </xsl:next-iteration>
    </xsl:iterate>
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

  <!--
    The content of the px:table of a simple table (see fp:table-model): its cells in tree order, one px:row per tr
    (cell i of the row in column i - 1, the columns after its last cell empty), then an empty-row error for each row
    without cells and an empty-column error for each column after the widest row (column groups wider than the
    rows). The same as f:place-rows, fp:grid-row and f:empty-lines give for such a table. $groups: its row groups in
    tree order (all with rows).
  -->
  <xsl:template name="fp:simple-table">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="groups" as="element()+" required="yes"/>
    <xsl:param name="cols" as="xs:integer" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <!-- the rows in tree order; each row's number of cells and the number of its first cell (the cells of the rows
         before it), counted once, so that both passes below are for-each loops (an xsl:iterate per row group and
         row costs more); the index of each row group only when there are several (most tables have one) -->
    <xsl:variable name="trs" as="element(tr)+" select="$groups/tr"/>
    <xsl:variable name="counts" as="xs:integer+" select="$trs ! count(td | th)"/>
    <xsl:variable name="firsts" as="xs:integer+">
      <xsl:iterate select="$counts">
        <xsl:param name="before" as="xs:integer" select="0"/>
        <xsl:sequence select="$before"/>
        <xsl:next-iteration>
          <xsl:with-param name="before" select="$before + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="group-index" as="map(xs:string, xs:integer)?"
        select="if (count($groups) eq 1) then ()
                else map:merge(for $g in 1 to count($groups) return map { generate-id($groups[$g]): $g - 1 })"/>
    <!-- the cells ($y: the row's index, $first: the number of its first cell) -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="group" as="xs:integer"
          select="if (empty($group-index)) then 0 else $group-index(generate-id(..))"/>
      <xsl:variable name="group-kind" as="xs:string" select="local-name(..)"/>
      <xsl:for-each select="td | th">
        <px:cell id="{$prefix}{$first + position() - 1}" row="{$y}" col="{position() - 1}" rowspan="1" colspan="1"
                 tag="{local-name()}" group="{$group}" group-kind="{$group-kind}">
          <xsl:call-template name="fp:cell-content"/>
        </px:cell>
      </xsl:for-each>
    </xsl:for-each>
    <!-- the grid -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
      <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
              group-kind="{local-name(..)}">
        <xsl:copy-of select="@class"/>
        <xsl:for-each select="0 to $count - 1">
          <px:slot col="{.}" cell="{$prefix}{$first + .}"/>
        </xsl:for-each>
        <xsl:for-each select="$count to $cols - 1">
          <px:slot col="{.}"/>
        </xsl:for-each>
      </px:row>
    </xsl:for-each>
    <!-- the errors: rows without cells, columns after the widest row -->
    <xsl:for-each select="1 to count($trs)">
      <xsl:if test="empty($trs[current()]/(td | th))">
        <px:error code="empty-row" row="{. - 1}"/>
      </xsl:if>
    </xsl:for-each>
    <xsl:for-each select="max((0, $trs ! count(td | th))) to $cols - 1">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
  </xsl:template>

  <!--
    The content of the px:table of a simple table with span attributes (see fp:table-model): its cells in tree
    order, one px:row per tr, then the span errors of its cells (tree order), an empty-row error for each row without
    cells and an empty-column error for each column in which no cell is anchored. The same as f:place-rows,
    fp:grid-row, the span errors and f:empty-lines give for such a table. $colspans, $rowspans and $xs: the effective
    colspan, the effective rowspan (empty without rowspan attributes) and the anchor column of each cell in tree
    order. Without rowspans, a row's slots are its cells' columns from their anchors, as many as their colspans, then
    the columns after its last cell, empty; with rowspans, the columns between and after its cells are those the
    cells of earlier rows cover (in one slot at most: no cells overlap), or empty.
  -->
  <xsl:template name="fp:span-table">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="groups" as="element()+" required="yes"/>
    <xsl:param name="cols" as="xs:integer" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <xsl:param name="colspans" as="xs:integer+" required="yes"/>
    <xsl:param name="rowspans" as="xs:integer*" required="yes"/>
    <xsl:param name="xs" as="xs:integer+" required="yes"/>
    <xsl:variable name="trs" as="element(tr)+" select="$groups/tr"/>
    <xsl:variable name="counts" as="xs:integer+" select="$trs ! count(td | th)"/>
    <xsl:variable name="firsts" as="xs:integer+">
      <xsl:iterate select="$counts">
        <xsl:param name="before" as="xs:integer" select="0"/>
        <xsl:sequence select="$before"/>
        <xsl:next-iteration>
          <xsl:with-param name="before" select="$before + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="group-index" as="map(xs:string, xs:integer)?"
        select="if (count($groups) eq 1) then ()
                else map:merge(for $g in 1 to count($groups) return map { generate-id($groups[$g]): $g - 1 })"/>
    <!-- the cells ($n: the cell's position in tree order, 1-based) -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="group" as="xs:integer"
          select="if (empty($group-index)) then 0 else $group-index(generate-id(..))"/>
      <xsl:variable name="group-kind" as="xs:string" select="local-name(..)"/>
      <xsl:for-each select="td | th">
        <xsl:variable name="n" as="xs:integer" select="$first + position()"/>
        <px:cell id="{$prefix}{$n - 1}" row="{$y}" col="{$xs[$n]}"
                 rowspan="{if (empty($rowspans)) then 1 else $rowspans[$n]}" colspan="{$colspans[$n]}"
                 tag="{local-name()}" group="{$group}" group-kind="{$group-kind}">
          <xsl:call-template name="fp:cell-content"/>
        </px:cell>
      </xsl:for-each>
    </xsl:for-each>
    <!-- the grid -->
    <xsl:choose>
      <xsl:when test="empty($rowspans)">
        <xsl:for-each select="$trs">
          <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
          <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
          <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
                  group-kind="{local-name(..)}">
            <xsl:copy-of select="@class"/>
            <xsl:for-each select="$first + 1 to $first + $count">
              <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
              <xsl:for-each select="$xs[current()] to $xs[current()] + $colspans[current()] - 1">
                <px:slot col="{.}" cell="{$id}"/>
              </xsl:for-each>
            </xsl:for-each>
            <xsl:for-each select="(if ($count eq 0) then 0 else $xs[$first + $count] + $colspans[$first + $count])
                                  to $cols - 1">
              <px:slot col="{.}"/>
            </xsl:for-each>
          </px:row>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:iterate select="$trs">
          <!-- [column, colspan, cell number, first row no longer covered] of the multi-row cells of earlier rows -->
          <xsl:param name="multi-row" as="array(xs:integer)*" select="()"/>
          <xsl:param name="y" as="xs:integer" select="0"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
          <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
          <xsl:variable name="active" as="array(xs:integer)*" select="$multi-row[?4 gt $y]"/>
          <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
                  group-kind="{local-name(..)}">
            <xsl:copy-of select="@class"/>
            <xsl:choose>
              <xsl:when test="empty($active)">
                <xsl:for-each select="$first + 1 to $first + $count">
                  <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
                  <xsl:for-each select="$xs[current()] to $xs[current()] + $colspans[current()] - 1">
                    <px:slot col="{.}" cell="{$id}"/>
                  </xsl:for-each>
                </xsl:for-each>
                <xsl:for-each select="(if ($count eq 0) then 0 else $xs[$first + $count] + $colspans[$first + $count])
                                      to $cols - 1">
                  <px:slot col="{.}"/>
                </xsl:for-each>
              </xsl:when>
              <xsl:otherwise>
                <!-- column -> the cell of an earlier row that covers it (one: no cells overlap) -->
                <xsl:variable name="reaching" as="map(xs:integer, xs:integer+)" select="fp:reaching($active)"/>
                <xsl:iterate select="$first + 1 to $first + $count">
                  <xsl:param name="next" as="xs:integer" select="0"/>
                  <xsl:on-completion>
                    <xsl:call-template name="fp:reaching-slots">
                      <xsl:with-param name="from" select="$next"/>
                      <xsl:with-param name="to" select="$cols"/>
                      <xsl:with-param name="reaching" select="$reaching"/>
                      <xsl:with-param name="prefix" select="$prefix"/>
                    </xsl:call-template>
                  </xsl:on-completion>
                  <xsl:variable name="x" as="xs:integer" select="$xs[current()]"/>
                  <xsl:variable name="colspan" as="xs:integer" select="$colspans[current()]"/>
                  <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
                  <!-- columns $next to $x - 1: covered by cells of earlier rows -->
                  <xsl:for-each select="$next to $x - 1">
                    <px:slot col="{.}" cell="{$prefix}{$reaching(.)}"/>
                  </xsl:for-each>
                  <xsl:for-each select="$x to $x + $colspan - 1">
                    <px:slot col="{.}" cell="{$id}"/>
                  </xsl:for-each>
                  <xsl:next-iteration>
                    <xsl:with-param name="next" select="$x + $colspan"/>
                  </xsl:next-iteration>
                </xsl:iterate>
              </xsl:otherwise>
            </xsl:choose>
          </px:row>
          <xsl:next-iteration>
            <xsl:with-param name="multi-row"
                select="$active, (for $n in $first + 1 to $first + $count
                                  return if ($rowspans[$n] eq 1) then ()
                                         else [$xs[$n], $colspans[$n], $n - 1, $y + $rowspans[$n]])"/>
            <xsl:with-param name="y" select="$y + 1"/>
          </xsl:next-iteration>
        </xsl:iterate>
      </xsl:otherwise>
    </xsl:choose>
    <!-- the span errors: colspans above 1000 (an effective colspan of 1000); with rowspans, those of fp:colspan and
         fp:rowspan for each cell with a span attribute -->
    <xsl:choose>
      <xsl:when test="empty($rowspans)">
        <xsl:for-each select="for $n in 1 to count($colspans) return $n[$colspans[$n] eq $f:max-colspan]">
          <xsl:variable name="declared" as="xs:integer"
              select="f:parse-non-negative-integer(($trs/(td | th))[current()]/@colspan)"/>
          <xsl:if test="$declared gt $f:max-colspan">
            <xsl:sequence select="fp:span-error('colspan-clamped', $prefix || . - 1, $declared, $f:max-colspan)"/>
          </xsl:if>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <!-- rows from each row to the end of its row group -->
        <xsl:variable name="lefts" as="xs:integer+" select="$groups ! reverse(1 to count(tr))"/>
        <xsl:for-each select="$trs">
          <xsl:variable name="y" as="xs:integer" select="position()"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y]"/>
          <xsl:for-each select="td | th">
            <xsl:if test="exists(@colspan) or exists(@rowspan)">
              <xsl:variable name="n" as="xs:integer" select="$first + position()"/>
              <xsl:variable name="id" as="xs:string" select="$prefix || $n - 1"/>
              <xsl:sequence select="if ($colspans[$n] eq $f:max-colspan) then fp:colspan(., $id)?errors else (),
                                    if (exists(@rowspan)) then fp:rowspan(., $id, $lefts[$y])?errors else ()"/>
            </xsl:if>
          </xsl:for-each>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:for-each select="1 to count($trs)">
      <xsl:if test="$counts[current()] eq 0">
        <px:error code="empty-row" row="{. - 1}"/>
      </xsl:if>
    </xsl:for-each>
    <xsl:variable name="anchors" as="map(xs:integer, xs:boolean)"
        select="map:merge(distinct-values($xs) ! map { .: true() })"/>
    <xsl:for-each select="(0 to $cols - 1)[not(map:contains($anchors, .))]">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
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
