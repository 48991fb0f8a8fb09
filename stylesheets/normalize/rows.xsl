<?xml version="1.0" encoding="UTF-8"?>
<!--
  The WHATWG HTML table model, "forming a table" (HTML Living Standard 4.9.12.1), as functions over one table
  element: which rows the table has and in what order (row groups in tree order, tfoot last), and where each cell
  is anchored and how far it spans. Everything is computed from the table's own children, never from nested tables.

  One deliberate departure from the literal steps, as browsers draw it (and as docs/formats.md section 2 states): a
  rowspan that runs past the end of its row group is cut at the end of the group, instead of raising the table's
  height so that "ending a row group" adds cell-less rows. A rowspan of 0 runs to the end of its row group (the
  spec's "downward-growing" cell; pyxform does so in quirks mode too, where the spec's steps leave the cell covering
  no slot: the document mode is not part of the annotated XHTML). With that rule every
  row group has exactly one row per tr, and a downward-growing cell is the same as a cell whose rowspan is the
  number of rows left in its group: the slots it covers are taken before any later cell looks for a free slot, in
  both readings.

  Work is linear: one xsl:iterate over the rows, one over each row's cells, and a map from column to the first row
  that multi-row cells no longer cover; a row's placement is one record (f:place-rows), not a map per cell. The slot limit ($max-slots) is checked while the width grows, before any
  slot exists, so no work is ever proportional to a raw span value.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:err="http://www.w3.org/2005/xqt-errors"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- WHATWG limits ("processing rows" steps 8 and 9). -->
  <xsl:variable name="f:max-colspan" as="xs:integer" select="1000"/>
  <xsl:variable name="f:max-rowspan" as="xs:integer" select="65534"/>

  <!--
    f:table-cells($table): the cells of $table in tree order: the td and th children of its rows (tr children of the
    table and of its thead, tbody and tfoot children). A td inside a nested table is not a cell of $table.
  -->
  <xsl:function name="f:table-cells" as="element()*">
    <xsl:param name="table" as="element(table)"/>
    <xsl:sequence select="($table/tr | $table/(thead | tbody | tfoot)/tr)/(td | th)"/>
  </xsl:function>

  <!--
    f:column-group-width($table): the columns that the table's leading colgroup elements declare (forming a table,
    steps "column groups"): every colgroup child before the first thead, tbody, tfoot or tr adds the spans of its col
    children, or its own span when it has none (span parsed like colspan: 0 or an error gives 1, at most 1000).
  -->
  <xsl:function name="f:column-group-width" as="xs:integer">
    <xsl:param name="table" as="element(table)"/>
    <xsl:variable name="first-row-element" as="element()?" select="$table/(thead | tbody | tfoot | tr)[1]"/>
    <xsl:variable name="colgroups" as="element(colgroup)*"
        select="$table/colgroup[empty($first-row-element) or . &lt;&lt; $first-row-element]"/>
    <xsl:sequence select="sum(for $group in $colgroups
                              return if ($group/col) then sum($group/col ! fp:span(@span)) else fp:span($group/@span))"/>
  </xsl:function>

  <!-- A span attribute of col/colgroup, and a colspan: non-negative integer; error or 0 -> 1; above 1000 -> 1000. -->
  <xsl:function name="fp:span" as="xs:integer">
    <xsl:param name="attribute" as="attribute()?"/>
    <xsl:variable name="parsed" as="xs:integer?" select="f:parse-non-negative-integer($attribute)"/>
    <xsl:sequence select="if (empty($parsed) or $parsed eq 0) then 1 else min(($parsed, $f:max-colspan))"/>
  </xsl:function>

  <!--
    f:table-rows($table): the rows of $table in table order, one map per tr:
      map { 'tr': element(tr), 'y': row index, 'group': row group index, 'group-kind': 'thead'|'tbody'|'tfoot'|'none',
            'left': rows from this one to the end of its row group (1 for the group's last row),
            'first-cell': the number, in tree order, of the row's first cell (the cells of the rows before it in tree
            order) }
    Row groups in tree order, except that every tfoot comes after all the others, in tree order (forming a table,
    steps "rows" to "end"). tr children of the table that follow one another (with no thead, tbody or tfoot between)
    form one group of kind 'none'. A row group without rows is not a row group (its index is not used).
  -->
  <xsl:function name="f:table-rows" as="map(*)*">
    <xsl:param name="table" as="element(table)"/>
    <xsl:variable name="sections" as="element()*" select="$table/(thead | tbody | tfoot)[tr]"/>
    <xsl:choose>
      <!-- one row group, a thead, tbody or tfoot (most tables: clean puts the rows in a tbody): its rows in tree
           order, the same as the general steps below give, without the maps of groups -->
      <xsl:when test="count($sections) eq 1 and empty($table/tr)">
        <xsl:variable name="kind" as="xs:string" select="local-name($sections)"/>
        <xsl:variable name="size" as="xs:integer" select="count($sections/tr)"/>
        <xsl:iterate select="$sections/tr">
          <xsl:param name="y" as="xs:integer" select="0"/>
          <xsl:param name="before" as="xs:integer" select="0"/>
          <xsl:sequence select="map { 'tr': ., 'group': 0, 'group-kind': $kind, 'left': $size - $y,
                                      'first-cell': $before, 'y': $y }"/>
          <xsl:next-iteration>
            <xsl:with-param name="y" select="$y + 1"/>
            <xsl:with-param name="before" select="$before + count(td | th)"/>
          </xsl:next-iteration>
        </xsl:iterate>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:table-rows($table)"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- f:table-rows in general: the row groups found, counted and ordered -->
  <xsl:function name="fp:table-rows" as="map(*)*">
    <xsl:param name="table" as="element(table)"/>
    <xsl:variable name="groups" as="map(*)*">
      <xsl:for-each-group select="$table/(thead | tbody | tfoot | tr)"
          group-adjacent="if (self::tr) then '' else generate-id()">
        <xsl:sequence select="if (self::tr) then map { 'kind': 'none', 'rows': current-group() }
                              else map { 'kind': local-name(), 'rows': tr }"/>
      </xsl:for-each-group>
    </xsl:variable>
    <!-- the groups in tree order, each with the number of cells before its first row and before each of its rows -->
    <xsl:variable name="counted" as="map(*)*">
      <xsl:iterate select="$groups[exists(?rows)]">
        <xsl:param name="cells-before" as="xs:integer" select="0"/>
        <xsl:variable name="first-cells" as="xs:integer*">
          <xsl:iterate select="?rows">
            <xsl:param name="before" as="xs:integer" select="$cells-before"/>
            <xsl:sequence select="$before"/>
            <xsl:next-iteration>
              <xsl:with-param name="before" select="$before + count(td | th)"/>
            </xsl:next-iteration>
          </xsl:iterate>
        </xsl:variable>
        <xsl:sequence select="map:put(., 'first-cells', $first-cells)"/>
        <xsl:next-iteration>
          <xsl:with-param name="cells-before" select="$first-cells[last()] + count(?rows[last()]/(td | th))"/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="ordered" as="map(*)*" select="$counted[?kind ne 'tfoot'], $counted[?kind eq 'tfoot']"/>
    <!-- the index of each group's first row: the rows of the groups before it -->
    <xsl:variable name="first-ys" as="xs:integer*"
        select="for $g in 1 to count($ordered) return sum(subsequence($ordered, 1, $g - 1) ! count(?rows))"/>
    <xsl:sequence
        select="for $g in 1 to count($ordered)
                return $ordered[$g] ! (let $group-rows := ?rows, $kind := ?kind, $first-cells := ?first-cells,
                                           $size := count($group-rows), $first-y := $first-ys[$g]
                                       return for $r in 1 to $size
                                              return map { 'tr': $group-rows[$r], 'group': $g - 1, 'group-kind': $kind,
                                                           'left': $size - $r + 1, 'first-cell': $first-cells[$r],
                                                           'y': $first-y + $r - 1 })"/>
  </xsl:function>

  <!--
    f:place-rows($table-index, $rows, $initial-width, $max-slots): the "algorithm for processing rows" over $rows (from
    f:table-rows), in table order (tfoot rows last). Returns one record per row, then one map with the table's width:
      map { 'row': the row's map of f:table-rows,
            'xs': the anchor column of each of the row's cells, in tree order (xs:integer*),
            'spans': map { position in the row of a cell with a colspan or rowspan attribute:
                           [effective colspan, effective rowspan] } (every other cell spans one slot),
            'active': [column, colspan, cell number] of each cell of an earlier row that covers this row,
            'errors': the span errors of the row's cells, in tree order (element(px:error)*) }
      map { 'cols': the table's width (x_width) }
    One record per row, not per cell: a cell is a column number (and, with a span attribute, an array), so the work
    per cell is a few integer operations. Raises px:limit when rows x columns would exceed $max-slots (checked as
    the width grows, before any slot exists).
  -->
  <xsl:function name="f:place-rows" as="map(*)*">
    <xsl:param name="table-index" as="xs:integer"/>
    <xsl:param name="rows" as="map(*)*"/>
    <xsl:param name="initial-width" as="xs:integer"/>
    <xsl:param name="max-slots" as="xs:integer"/>
    <xsl:variable name="row-count" as="xs:integer" select="count($rows)"/>
    <xsl:iterate select="$rows">
      <xsl:param name="width" as="xs:integer" select="fp:checked-width($row-count, $initial-width, $max-slots)"/>
      <!-- column -> first row index no longer covered by the multi-row cells placed so far in that column -->
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="map {}"/>
      <!-- [column, colspan, cell number, first row no longer covered] of the multi-row cells placed so far -->
      <xsl:param name="multi-row" as="array(xs:integer)*" select="()"/>
      <xsl:on-completion>
        <xsl:sequence select="map { 'cols': $width }"/>
      </xsl:on-completion>
      <xsl:variable name="row" as="map(*)" select="."/>
      <xsl:variable name="y" as="xs:integer" select="?y"/>
      <xsl:variable name="active" as="array(xs:integer)*" select="$multi-row[?4 gt $y]"/>
      <xsl:variable name="row-cells" as="element()*" select="?tr/(td | th)"/>
      <xsl:variable name="count" as="xs:integer" select="count($row-cells)"/>
      <xsl:choose>
        <!-- no cell of an earlier row covers this row and no cell of it has a span attribute (most rows): cell i
             is anchored in column i - 1; the same as the general steps below, without a map or a call per cell -->
        <xsl:when test="empty($active) and $row-count * $count le $max-slots
                        and empty($row-cells[exists(@colspan) or exists(@rowspan)])">
          <xsl:sequence select="map { 'row': $row, 'xs': 0 to $count - 1, 'spans': map {}, 'active': (), 'errors': () }"/>
          <xsl:next-iteration>
            <xsl:with-param name="width" select="max(($width, $count))"/>
            <xsl:with-param name="multi-row" select="()"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="placed" as="item()*"
              select="fp:place-row-cells($table-index, $row, $width, $covered-until, $row-count, $max-slots)"/>
          <xsl:variable name="state" as="map(*)" select="$placed[last()]"/>
          <xsl:variable name="cells" as="item()*" select="$placed[position() lt last()]"/>
          <xsl:variable name="spanning" as="map(*)*" select="$cells[. instance of map(*)]"/>
          <xsl:sequence select="map {
              'row': $row,
              'xs': if (empty($spanning)) then $cells else $cells ! (if (. instance of map(*)) then ?x else .),
              'spans': map:merge($spanning ! map { ?position: [?colspan, ?rowspan] }),
              'active': $active ! [?1, ?2, ?3],
              'errors': $spanning?errors }"/>
          <xsl:next-iteration>
            <xsl:with-param name="width" select="$state?width"/>
            <xsl:with-param name="covered-until" select="$state?covered-until"/>
            <xsl:with-param name="multi-row"
                select="if (empty($spanning)) then $active
                        else ($active, $spanning[?rowspan gt 1] ! [?x, ?colspan, ?n, $y + ?rowspan])"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!--
    One row of "processing rows" (steps 5 to 17): for each cell in tree order its anchor column, or, for a cell with
    a colspan or rowspan attribute, map { 'position', 'n', 'x', 'colspan', 'rowspan', 'errors' }; then
    map { 'width', 'covered-until' }.
  -->
  <xsl:function name="fp:place-row-cells" as="item()+">
    <xsl:param name="table-index" as="xs:integer"/>
    <xsl:param name="row" as="map(*)"/>
    <xsl:param name="width" as="xs:integer"/>
    <xsl:param name="covered-until" as="map(xs:integer, xs:integer)"/>
    <xsl:param name="row-count" as="xs:integer"/>
    <xsl:param name="max-slots" as="xs:integer"/>
    <xsl:variable name="y" as="xs:integer" select="$row?y"/>
    <xsl:variable name="left" as="xs:integer" select="$row?left"/>
    <xsl:variable name="first-cell" as="xs:integer" select="$row?first-cell"/>
    <xsl:iterate select="$row?tr/(td | th)">
      <xsl:param name="x" as="xs:integer" select="0"/>
      <xsl:param name="width" as="xs:integer" select="$width"/>
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="$covered-until"/>
      <xsl:on-completion>
        <xsl:sequence select="map { 'width': $width, 'covered-until': $covered-until }"/>
      </xsl:on-completion>
      <!-- "Cells": skip the slots that cells of earlier rows already cover. -->
      <xsl:variable name="anchor-x" as="xs:integer"
          select="if ($covered-until($x) gt $y) then fp:first-free-column($covered-until, $x, $width, $y) else $x"/>
      <xsl:choose>
        <xsl:when test="empty(@colspan) and empty(@rowspan)">
          <xsl:sequence select="$anchor-x"/>
          <xsl:next-iteration>
            <xsl:with-param name="x" select="$anchor-x + 1"/>
            <xsl:with-param name="width"
                select="if ($anchor-x lt $width) then $width
                        else fp:checked-width($row-count, $anchor-x + 1, $max-slots)"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="n" as="xs:integer" select="$first-cell + position() - 1"/>
          <xsl:variable name="id" as="xs:string" select="f:cell-id($table-index, $n)"/>
          <!-- the spans, and their errors; an absent attribute is a span of 1 without error (no map made) -->
          <xsl:variable name="colspan" as="map(*)?" select="if (exists(@colspan)) then fp:colspan(., $id) else ()"/>
          <xsl:variable name="rowspan" as="map(*)?" select="if (exists(@rowspan)) then fp:rowspan(., $id, $left) else ()"/>
          <xsl:variable name="columns-spanned" as="xs:integer" select="if (exists($colspan)) then $colspan?value else 1"/>
          <xsl:variable name="rows-spanned" as="xs:integer" select="if (exists($rowspan)) then $rowspan?value else 1"/>
          <xsl:sequence select="map {
              'position': position(), 'n': $n, 'x': $anchor-x, 'colspan': $columns-spanned, 'rowspan': $rows-spanned,
              'errors': ($colspan?errors, $rowspan?errors) }"/>
          <xsl:next-iteration>
            <xsl:with-param name="x" select="$anchor-x + $columns-spanned"/>
            <xsl:with-param name="width"
                select="fp:checked-width($row-count, max(($width, $anchor-x + $columns-spanned)), $max-slots)"/>
            <xsl:with-param name="covered-until" select="
                if ($rows-spanned eq 1) then $covered-until
                else fp:cover-columns($covered-until, $anchor-x, $columns-spanned, $y + $rows-spanned)"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- The first column at or after $from whose slot in row $y no earlier cell covers ($width is always free). -->
  <xsl:function name="fp:first-free-column" as="xs:integer">
    <xsl:param name="covered-until" as="map(xs:integer, xs:integer)"/>
    <xsl:param name="from" as="xs:integer"/>
    <xsl:param name="width" as="xs:integer"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:iterate select="$from to max(($from, $width))">
      <xsl:on-completion select="max(($from, $width))"/>
      <xsl:if test="not($covered-until(.) gt $y)">
        <xsl:sequence select="."/>
        <xsl:break/>
      </xsl:if>
    </xsl:iterate>
  </xsl:function>

  <!-- Record that columns $x .. $x + $colspan - 1 are covered up to (not including) row $until. -->
  <xsl:function name="fp:cover-columns" as="map(xs:integer, xs:integer)">
    <xsl:param name="covered-until" as="map(xs:integer, xs:integer)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:param name="colspan" as="xs:integer"/>
    <xsl:param name="until" as="xs:integer"/>
    <xsl:sequence select="fold-left($x to $x + $colspan - 1, $covered-until,
        function ($map, $column) { map:put($map, $column, max(($map($column), $until))) })"/>
  </xsl:function>

  <!--
    The effective colspan of a cell ("processing rows" step 8): map { 'value', 'errors' }. Error or 0 -> 1; above 1000
    -> 1000 with a colspan-clamped error.
  -->
  <xsl:function name="fp:colspan" as="map(*)">
    <xsl:param name="cell" as="element()"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:variable name="declared" as="xs:integer?" select="f:parse-non-negative-integer($cell/@colspan)"/>
    <xsl:sequence select="
        if (empty($declared) or $declared eq 0) then map { 'value': 1, 'errors': () }
        else if ($declared gt $f:max-colspan)
        then map { 'value': $f:max-colspan,
                   'errors': fp:span-error('colspan-clamped', $id, $declared, $f:max-colspan) }
        else map { 'value': $declared, 'errors': () }"/>
  </xsl:function>

  <!--
    The effective rowspan of a cell ("processing rows" steps 9 and 10, with the browsers' cut at the end of the row
    group): map { 'value', 'errors' }. $left is the number of rows from the cell's row to the end of its row group.
    Error -> 1; 0 -> $left (rowspan-zero); above 65534 -> 65534 (rowspan-clamped); then anything above $left ->
    $left (rowspan-clipped). "declared" in every error is the value the attribute gives.
  -->
  <xsl:function name="fp:rowspan" as="map(*)">
    <xsl:param name="cell" as="element()"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="left" as="xs:integer"/>
    <xsl:variable name="declared" as="xs:integer?" select="f:parse-non-negative-integer($cell/@rowspan)"/>
    <xsl:choose>
      <xsl:when test="empty($declared) or $declared eq 1">
        <xsl:sequence select="map { 'value': 1, 'errors': () }"/>
      </xsl:when>
      <xsl:when test="$declared eq 0">
        <xsl:sequence select="map { 'value': $left, 'errors': fp:span-error('rowspan-zero', $id, 0, $left) }"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="clamped" as="xs:integer" select="min(($declared, $f:max-rowspan))"/>
        <xsl:sequence select="map {
            'value': fp:rowspan-value($declared, $left),
            'errors': (if ($declared gt $f:max-rowspan)
                       then fp:span-error('rowspan-clamped', $id, $declared, $f:max-rowspan) else (),
                       if ($clamped gt $left) then fp:span-error('rowspan-clipped', $id, $declared, $left) else ()) }"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The effective rowspan of a cell whose rowspan attribute gives $declared (f:parse-non-negative-integer), $left
       rows from the end of its row group (the value of fp:rowspan): error -> 1; 0 -> $left; then at most 65534 and
       at most $left. -->
  <xsl:function name="fp:rowspan-value" as="xs:integer">
    <xsl:param name="declared" as="xs:integer?"/>
    <xsl:param name="left" as="xs:integer"/>
    <xsl:sequence select="if (empty($declared) or $declared eq 1) then 1
                          else if ($declared eq 0) then $left
                          else min(($declared, $f:max-rowspan, $left))"/>
  </xsl:function>

  <xsl:function name="fp:span-error" as="element(px:error)">
    <xsl:param name="code" as="xs:string"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="declared" as="xs:integer"/>
    <xsl:param name="effective" as="xs:integer"/>
    <px:error code="{$code}" cell="{$id}" declared="{$declared}" effective="{$effective}"/>
  </xsl:function>

  <!-- $cols, or raise px:limit if a table of $rows x $cols slots would exceed $max-slots. -->
  <xsl:function name="fp:checked-width" as="xs:integer">
    <xsl:param name="rows" as="xs:integer"/>
    <xsl:param name="cols" as="xs:integer"/>
    <xsl:param name="max-slots" as="xs:integer"/>
    <xsl:sequence select="if ($rows * $cols le $max-slots) then $cols
        else error(xs:QName('px:limit'), 'the table has ' || $rows || ' rows and at least ' || $cols
                   || ' columns: more than max_slots = ' || $max-slots || ' slots', 'max_slots')"/>
  </xsl:function>

</xsl:stylesheet>
