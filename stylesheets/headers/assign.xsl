<?xml version="1.0" encoding="UTF-8"?>
<!--
  The header cells of every data slot, by the cells' roles (headers/roles.xsl).

    f:assign($model, $roles, $markup) => the assignment: header blocks and scan results per line, sections per row
    f:slot-headers($assignment, $y, $x) => map { 'row' : row header ids, 'col' : column header ids } for a slot
      owned by a data or empty cell (computed when the slot is written: no map of all slots is built).

  Header cells of a slot (x, y) of a data cell anchored at (ax, ay): the WHATWG "algorithm for assigning header
  cells" (HTML 4.9.12.2) run over these roles instead of the th/td tags, per slot: column headers by the internal
  scanning algorithm from (x, ay) upward (Δx = 0, Δy = −1), row headers from (ax, y) leftward (Δx = −1, Δy = 0),
  with header blocks, opaque headers and the column / row header definitions (scope col/row, or auto: a header cell
  is a column header if no data cell covers its rows, a row header if it is not a column header: WHATWG's further
  condition, that no data cell cover its columns, is left out, see the variable row-header); with markup, row group headers (scope=rowgroup) of the same row group, column group headers
  (scope=colgroup; the grid has no colgroup elements, so a column group header's group is the columns it spans),
  and the headers attribute (ids of cells of the same table, first match; then only those). Section cells are
  skipped by the scans and head, outermost, every data row below them up to the next section row (consecutive
  section rows nest, outer first). Empty cells are removed from the lists, and duplicates.
  Order: row headers outermost first (sections, then by column), column headers top first (by row).

  Linear: each line's header blocks are built once from its header slots (slots between two header slots are read
  only to find a data cell that ends a block), the scans' results once per line and number of blocks before the
  principal cell, incrementally; a slot costs map look-ups and a search among its line's block starts.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- =================================================================================================== -->
  <!-- Header cells of the data slots                                                                      -->
  <!-- =================================================================================================== -->

  <xsl:function name="f:assign" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="headers-attribute" as="xs:boolean" select="$markup and exists($model?table/px:cell/@headers)"/>
    <xsl:choose>
      <!-- A table with no header and no section cell (~40% of tables: k = p = 0 and no th in a data row), and no
           headers attribute to read (which may name any cell): fp:headerless-assignment, the same map that
           fp:assignment builds for it without its table-wide steps. -->
      <xsl:when test="not($headers-attribute) and not($roles?* = ('header', 'section'))">
        <xsl:sequence select="fp:headerless-assignment($model, $roles, $markup)"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:assignment($model, $roles, $markup, $headers-attribute)"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!--
    f:assign for a table whose roles hold no header and no section cell, without a headers attribute to read: what
    fp:assignment gives then, built at once. No header cell: no header slot, so every line has no header block
    ('column-firsts', 'row-firsts' empty) and one scan list, empty ([()]), whose text is ''; no row or column group
    header (they are header cells); no section cell: no section runs (one empty run per row); the map of html ids
    as fp:assignment has it (read only for a cell with a headers attribute, none of which is read here).
    tests/test_headers_assign.py compares both maps on generated tables.
  -->
  <xsl:function name="fp:headerless-assignment" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="m" as="xs:integer" select="$model?rows"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <xsl:sequence select="map {
        'model' : $model, 'roles' : $roles,
        'column-firsts' : array:join((1 to $n) ! [()]),
        'row-firsts' : array:join((1 to $m) ! [()]),
        'column-lists' : array:join((1 to $n) ! [[()]]), 'row-lists' : array:join((1 to $m) ! [[()]]),
        'sections' : array:join((1 to $m) ! [()]),
        'scans-alone' : true(),
        'column-texts' : array:join((1 to $n) ! [['']]),
        'row-texts' : array:join((1 to $m) ! [['']]),
        'rowgroup-headers' : (), 'colgroup-headers' : (),
        'by-html-id' : fp:by-html-id($model, $markup), 'markup' : $markup,
        'headers-attribute' : false(), 'headerless' : true() }"/>
  </xsl:function>

  <!-- f:assign for any table ($headers-attribute: the markup is used and some cell has a headers attribute). -->
  <xsl:function name="fp:assignment" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:param name="headers-attribute" as="xs:boolean"/>
    <xsl:variable name="m" as="xs:integer" select="$model?rows"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <!-- rows that a data cell covers -->
    <xsl:variable name="row-has-data" as="xs:boolean*" select="for $y in 0 to $m - 1 return
        some $id in $model?row($y + 1)?ids satisfies $roles($id) = ('data', 'empty')"/>
    <xsl:variable name="headers" as="array(*)*"
        select="let $cells := $model?cells return $model?ids[$roles(.) eq 'header'] ! $cells(.)"/>
    <!-- column header / row header, per the WHATWG definitions (scope only with markup), except that a header cell
         in the auto state that is not a column header is a row header whatever the other cells of its columns are:
         WHATWG also asks that no data cell cover its columns, so one td in a column of th (a "Source:" note spanning
         the table, an "NC" in a column of round numbers, an empty cell) would make every th of that column head
         nothing; a th in a row of td is a row header as accessibility APIs map it (role rowheader) and as the
         authors of such tables mean it -->
    <xsl:variable name="column-header" as="map(xs:string, xs:boolean)" select="map:merge($headers ! map {
        .($c:id) : (let $scope := if ($markup and .($c:tag) eq 'th') then .($c:scope) else '' return
               if ($scope eq 'col') then true()
               else if ($scope = ('row', 'rowgroup', 'colgroup')) then false()
               else not(some $y in .($c:row) to .($c:row) + .($c:rowspan) - 1 satisfies $row-has-data[$y + 1])) })"/>
    <xsl:variable name="row-header" as="map(xs:string, xs:boolean)" select="map:merge($headers ! map {
        .($c:id) : (let $scope := if ($markup and .($c:tag) eq 'th') then .($c:scope) else '' return
               if ($scope eq 'row') then true()
               else if ($scope = ('col', 'rowgroup', 'colgroup')) then false()
               else not($column-header(.($c:id)))) })"/>
    <!-- the slots of the header cells (those they own, without overlaps), by column and by row, each an array
         [y, x, id] (a map per slot cost several times as much); the key of the overlap map is only made when the
         grid has overlaps -->
    <xsl:variable name="skip" as="map(*)" select="$model?skip"/>
    <xsl:variable name="no-skip" as="xs:boolean" select="map:size($skip) eq 0"/>
    <xsl:variable name="owner" as="array(*)" select="$model?owner"/>
    <xsl:variable name="header-slots" as="array(*)*" select="
        for $h in $headers,
            $id in $h($c:id),
            $y in $h($c:row) to min(($h($c:row) + $h($c:rowspan), $m)) - 1,
            $x in $h($c:col) to min(($h($c:col) + $h($c:colspan), $n)) - 1
        return if ($owner($y + 1)($x + 1) eq $id
                   and ($no-skip or not(map:contains($skip, $y || ':' || $x))))
               then [ $y, $x, $id ] else ()"/>
    <!-- grouped with for-each-group: map:merge with duplicates 'combine' appends to a key's sequence one item at a
         time, which costs the square of a long column of header cells -->
    <xsl:variable name="by-column" as="map(xs:integer, array(*)*)">
      <xsl:map>
        <xsl:for-each-group select="$header-slots" group-by="?2">
          <xsl:map-entry key="current-grouping-key()" select="current-group()"/>
        </xsl:for-each-group>
      </xsl:map>
    </xsl:variable>
    <xsl:variable name="by-row" as="map(xs:integer, array(*)*)">
      <xsl:map>
        <xsl:for-each-group select="$header-slots" group-by="?1">
          <xsl:map-entry key="current-grouping-key()" select="current-group()"/>
        </xsl:for-each-group>
      </xsl:map>
    </xsl:variable>
    <!-- header blocks: per column top-down, per row left to right (a line without header slots has none: most rows
         of a table without header columns, which are not looked at) -->
    <!-- a line with one header slot (most columns under one header row, most rows beside one header column) has
         one block, [position, id], as fp:blocks makes it: built at once -->
    <xsl:variable name="column-blocks" as="array(*)" select="array:join(for $x in 0 to $n - 1 return
        [ if (not(map:contains($by-column, $x))) then ()
          else let $slots := $by-column($x) return
               if (count($slots) eq 1) then [ $slots(1), $slots(3) ]
               else fp:blocks($model, $roles, true(), $x, fp:sort($slots, function($s) { $s(1) })) ])"/>
    <xsl:variable name="row-blocks" as="array(*)" select="array:join(for $y in 0 to $m - 1 return
        [ if (not(map:contains($by-row, $y))) then ()
          else let $slots := $by-row($y) return
               if (count($slots) eq 1) then [ $slots(2), $slots(3) ]
               else fp:blocks($model, $roles, false(), $y, fp:sort($slots, function($s) { $s(2) })) ])"/>
    <!-- the scans' results, once per line and number of blocks before the principal cell (a slot's column headers
         depend only on its column and on how many of the column's header blocks lie above the cell; row headers
         likewise): array per line of arrays indexed by 1 + that number; a line without blocks finds nothing -->
    <xsl:variable name="column-order" as="function(xs:string) as xs:integer*"
        select="function($id as xs:string) as xs:integer* { f:model-cell($model, $id) ! (.($c:row), .($c:col)) }"/>
    <xsl:variable name="row-order" as="function(xs:string) as xs:integer*"
        select="function($id as xs:string) as xs:integer* { f:model-cell($model, $id) ! (.($c:col), .($c:row)) }"/>
    <xsl:variable name="column-lists" as="array(*)" select="array:join(for $x in 1 to $n return
        [ if (empty($column-blocks($x))) then [()]
          else fp:scan-lists($model, $column-blocks($x), true(), $column-header, $column-order) ])"/>
    <xsl:variable name="row-lists" as="array(*)" select="array:join(for $y in 1 to $m return
        [ if (empty($row-blocks($y))) then [()]
          else fp:scan-lists($model, $row-blocks($y), false(), $row-header, $row-order) ])"/>
    <!-- markup: row group headers by group, column group headers, first cell of each html id -->
    <xsl:variable name="rowgroup-headers" as="array(*)*"
        select="if ($markup) then $headers[.($c:tag) eq 'th' and .($c:scope) eq 'rowgroup'] else ()"/>
    <xsl:variable name="colgroup-headers" as="array(*)*"
        select="if ($markup) then $headers[.($c:tag) eq 'th' and .($c:scope) eq 'colgroup'] else ()"/>
    <xsl:variable name="by-html-id" as="map(xs:string, xs:string)" select="fp:by-html-id($model, $markup)"/>
    <!-- a table without section cells (most) has no runs: one empty run per row, without looking at the rows -->
    <xsl:variable name="sections" as="array(*)" select="if ($roles?* = 'section') then fp:section-runs($model, $roles)
                                                         else array:join((1 to $m) ! [()])"/>
    <xsl:sequence select="map {
        'model' : $model, 'roles' : $roles,
        'column-firsts' : array:join(for $x in 1 to $n return [ $column-blocks($x) ! ?1 ]),
        'row-firsts' : array:join(for $y in 1 to $m return [ $row-blocks($y) ! ?1 ]),
        'column-lists' : $column-lists, 'row-lists' : $row-lists,
        'sections' : $sections,
        'scans-alone' : empty($rowgroup-headers) and empty($colgroup-headers),
        'column-texts' : array:join(for $x in 1 to $n return [ array {
            for $b in 1 to array:size($column-lists($x)) return string-join($column-lists($x)($b), ' ') } ]),
        'row-texts' : array:join(for $y in 1 to $m return [ array {
            for $b in 1 to array:size($row-lists($y)) return string-join(($sections($y), $row-lists($y)($b)), ' ') } ]),
        'rowgroup-headers' : $rowgroup-headers, 'colgroup-headers' : $colgroup-headers,
        'by-html-id' : $by-html-id, 'markup' : $markup,
        'headers-attribute' : $headers-attribute, 'headerless' : false() }"/>
  </xsl:function>

  <!-- With markup, the first cell of each html id (for the headers attribute); else, or without html ids, empty. -->
  <xsl:function name="fp:by-html-id" as="map(xs:string, xs:string)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:sequence select="if (not($markup) or empty($model?table/px:cell/@html-id)) then map {} else
        map:merge($model?ids ! f:model-cell($model, .)[string(.($c:element)/@html-id) ne '']
                    ! map { string(.($c:element)/@html-id) : .($c:id) },
                  map { 'duplicates' : 'use-first' })"/>
  </xsl:function>

  <!--
    Header blocks along one line of slots (a column top-down, or a row left to right): maximal runs of header cells
    not interrupted by a data cell (slots without a cell, with overlapping cells, or of a section cell are skipped,
    as the WHATWG scan skips them). Built from the line's header slots ($positions: arrays [y, x, id] in line
    order), looking at the slots between two of them only to find a data cell that ends the block: a line costs its
    header slots, not its length. Returns arrays [first, ids]: the position of the block's first slot and its header
    cells in line order, in line order (arrays: a map per block cost several times as much).
  -->
  <xsl:function name="fp:blocks" as="array(*)*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(*)"/>
    <xsl:param name="vertical" as="xs:boolean"/>
    <xsl:param name="line" as="xs:integer"/>
    <xsl:param name="positions" as="array(*)*"/>
    <xsl:iterate select="$positions">
      <xsl:param name="ids" as="xs:string*" select="()"/>
      <xsl:param name="first" as="xs:integer" select="-1"/>
      <xsl:param name="last" as="xs:integer" select="-1"/>
      <xsl:on-completion>
        <xsl:sequence select="if (exists($ids)) then [ $first, $ids ] else ()"/>
      </xsl:on-completion>
      <xsl:variable name="at" as="xs:integer" select="if ($vertical) then ?1 else ?2"/>
      <xsl:variable name="id" as="xs:string" select="?3"/>
      <xsl:choose>
        <xsl:when test="$id eq $ids[last()]">
          <xsl:next-iteration>
            <xsl:with-param name="last" select="$at"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:when test="exists($ids) and not(fp:data-between($model, $roles, $vertical, $line, $last, $at))">
          <xsl:next-iteration>
            <xsl:with-param name="ids" select="$ids, $id"/>
            <xsl:with-param name="last" select="$at"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:sequence select="if (exists($ids)) then [ $first, $ids ] else ()"/>
          <xsl:next-iteration>
            <xsl:with-param name="ids" select="$id"/>
            <xsl:with-param name="first" select="$at"/>
            <xsl:with-param name="last" select="$at"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- True if a slot strictly between positions $from and $to of a line is owned by a data or empty cell (not
       skipped: no cell, overlapping cells, a section cell); stops at the first such slot. -->
  <xsl:function name="fp:data-between" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(*)"/>
    <xsl:param name="vertical" as="xs:boolean"/>
    <xsl:param name="line" as="xs:integer"/>
    <xsl:param name="from" as="xs:integer"/>
    <xsl:param name="to" as="xs:integer"/>
    <xsl:sequence select="some $at in $from + 1 to $to - 1 satisfies (
        let $y := if ($vertical) then $at else $line,
            $x := if ($vertical) then $line else $at,
            $id := f:owner($model, $y, $x)
        return $id ne '' and not(map:contains($model?skip, $y || ':' || $x))
               and not($roles($id) = ('section', 'header')))"/>
  </xsl:function>

  <!--
    The internal algorithm for scanning and assigning header cells, for every principal data cell of one line at
    once: array indexed by 1 + b, b = 0 .. number of the line's header blocks, of the header cells that the scan from
    a principal cell with b blocks before it finds (without empty cells, sorted by $order). The scan passes the
    blocks nearest first and adds a cell unless it is not eligible (not a column header for a vertical scan, not a
    row header for a horizontal one) or an opaque header (a cell of a block passed before, nearer the principal
    cell) has the same anchor and extent across the scan: so a cell of block i is found for b blocks exactly when
    block i is the last of blocks 1 .. b holding a cell of that extent. Built incrementally, top (left) block first,
    with a map from extent to the cells of the last block that has it: a line costs its blocks, not their square.
  -->
  <xsl:function name="fp:scan-lists" as="array(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="blocks" as="array(*)*"/>
    <xsl:param name="vertical" as="xs:boolean"/>
    <xsl:param name="eligible" as="map(*)"/>
    <xsl:param name="order" as="function(xs:string) as xs:integer*"/>
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <xsl:choose>
      <!-- one block (most lines): its eligible cells with content, no opaque header to compare with; the array built
           at once -->
      <xsl:when test="count($blocks) eq 1">
        <xsl:sequence select="[ (), fp:sort(distinct-values($blocks?2[$eligible(.)][not($cells(.)($c:empty))]), $order) ]"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="lists" as="array(*)*">
          <xsl:sequence select="[()]"/>
          <xsl:iterate select="$blocks">
            <xsl:param name="latest" as="map(*)" select="map {}"/>
            <xsl:variable name="added" as="map(*)">
              <xsl:map>
                <xsl:for-each-group select="?2" group-by="let $c := f:model-cell($model, .) return
                    if ($vertical) then $c($c:col) || '+' || $c($c:colspan) else $c($c:row) || '+' || $c($c:rowspan)">
                  <xsl:map-entry key="current-grouping-key()" select="current-group()"/>
                </xsl:for-each-group>
              </xsl:map>
            </xsl:variable>
            <xsl:variable name="now" as="map(*)" select="map:merge(($added, $latest),
                map { 'duplicates' : 'use-first' })"/>
            <xsl:sequence select="[ fp:sort(distinct-values(map:for-each($now, function($extent, $ids) { $ids })
                [$eligible(.)][not(f:model-cell($model, .)($c:empty))]), $order) ]"/>
            <xsl:next-iteration>
              <xsl:with-param name="latest" select="$now"/>
            </xsl:next-iteration>
          </xsl:iterate>
        </xsl:variable>
        <xsl:sequence select="array:join($lists)"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- sort($items, (), $key), with none or one item returned as it is: most lines have one header cell, and a sort
       call costs about as much as the rest of such a line's blocks or scans. -->
  <xsl:function name="fp:sort" as="item()*">
    <xsl:param name="items" as="item()*"/>
    <xsl:param name="key" as="function(*)"/>
    <xsl:sequence select="if (count($items) le 1) then $items else sort($items, (), $key)"/>
  </xsl:function>

  <!-- Section cells heading each row: array of m sequences of ids (outer first). -->
  <xsl:function name="fp:section-runs" as="array(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:variable name="runs" as="array(*)*">
      <xsl:iterate select="0 to $model?rows - 1">
        <xsl:param name="run" as="xs:string*" select="()"/>
        <xsl:param name="previous" as="xs:boolean" select="false()"/>
        <xsl:variable name="y" as="xs:integer" select="."/>
        <xsl:variable name="section" as="xs:string?"
            select="((f:model-row($model, $y)?texts)[$roles(.) eq 'section'][f:model-cell($model, .)($c:row) eq $y])[1]"/>
        <xsl:choose>
          <xsl:when test="exists($section)">
            <xsl:sequence select="[()]"/>
            <xsl:next-iteration>
              <xsl:with-param name="run" select="(if ($previous) then $run else (), $section)"/>
              <xsl:with-param name="previous" select="true()"/>
            </xsl:next-iteration>
          </xsl:when>
          <xsl:otherwise>
            <xsl:sequence select="[ $run ]"/>
            <xsl:next-iteration>
              <xsl:with-param name="previous" select="false()"/>
            </xsl:next-iteration>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:iterate>
    </xsl:variable>
    <xsl:sequence select="array:join($runs)"/>
  </xsl:function>

  <!-- The number of values of an ascending sequence that are less than $value (binary search for long ones). -->
  <xsl:function name="fp:count-less" as="xs:integer">
    <xsl:param name="values" as="xs:integer*"/>
    <xsl:param name="value" as="xs:integer"/>
    <xsl:sequence select="if (count($values) le 8) then count($values[. lt $value])
        else let $half := count($values) idiv 2 return
             if ($values[$half + 1] lt $value) then $half + 1 + fp:count-less(subsequence($values, $half + 2), $value)
             else fp:count-less(subsequence($values, 1, $half), $value)"/>
  </xsl:function>

  <!--
    The header cells of slot (x, y): map { 'row' : row header ids, 'col' : column header ids }, if a data or empty
    cell owns the slot; else empty. $assignment is f:assign's result.
  -->
  <xsl:function name="f:slot-headers" as="map(*)?">
    <xsl:param name="assignment" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="model" as="map(*)" select="$assignment?model"/>
    <xsl:variable name="id" as="xs:string" select="if ($y ge 0 and $y lt $model?rows and $x ge 0 and $x lt $model?cols)
                                                   then f:owner($model, $y, $x) else ''"/>
    <xsl:sequence select="if ($id ne '' and $assignment?roles($id) = ('data', 'empty'))
                          then fp:slot-headers($assignment, f:model-cell($model, $id), $y, $x) else ()"/>
  </xsl:function>

  <!--
    The header cells of slot (x, y) as the annotation writes them: (row header ids, column header ids), each
    space-separated, if a data or empty cell owns the slot; else empty. The same lists as f:slot-headers; where the
    scans alone decide (no row or column group headers in the table, no headers attribute on the cell), read from
    the lists joined once per line and number of blocks ('row-texts', 'column-texts' of f:assign).
  -->
  <xsl:function name="f:slot-header-texts" as="xs:string*">
    <xsl:param name="assignment" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="model" as="map(*)" select="$assignment?model"/>
    <xsl:variable name="id" as="xs:string" select="if ($y ge 0 and $y lt $model?rows and $x ge 0 and $x lt $model?cols)
                                                   then f:owner($model, $y, $x) else ''"/>
    <xsl:if test="$id ne '' and $assignment?roles($id) = ('data', 'empty')">
      <xsl:variable name="cell" as="array(*)" select="f:model-cell($model, $id)"/>
      <xsl:choose>
        <xsl:when test="$assignment?scans-alone and not($assignment?markup and fp:has-headers($cell))">
          <xsl:sequence select="$assignment?row-texts($y + 1)(1 + fp:count-less($assignment?row-firsts($y + 1), $cell($c:col))),
                                $assignment?column-texts($x + 1)(1 + fp:count-less($assignment?column-firsts($x + 1),
                                                                                   $cell($c:row)))"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="headers" as="map(*)" select="fp:slot-headers($assignment, $cell, $y, $x)"/>
          <xsl:sequence select="string-join($headers?row, ' '), string-join($headers?col, ' ')"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:if>
  </xsl:function>

  <xsl:function name="fp:slot-headers" as="map(*)">
    <xsl:param name="context" as="map(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:choose>
      <xsl:when test="$context?markup and fp:has-headers($cell)">
        <!-- the headers attribute: the first cell of the table with each id; above the cell = column header -->
        <xsl:variable name="model" as="map(*)" select="$context?model"/>
        <xsl:variable name="listed" as="xs:string*" select="fp:keep($model, $cell,
            tokenize(string($cell($c:element)/@headers)) ! $context?by-html-id(.))"/>
        <xsl:variable name="above" as="xs:string*" select="$listed[
            let $h := f:model-cell($model, .) return $h($c:row) + $h($c:rowspan) le $cell($c:row)
              and not($h($c:col) + $h($c:colspan) le $cell($c:col) and $h($c:scope) eq 'row')]"/>
        <xsl:sequence select="map {
            'col' : sort($above, (), function($id) { f:model-cell($model, $id) ! (.($c:row), .($c:col)) }),
            'row' : sort($listed[not(. = $above)], (), function($id) { f:model-cell($model, $id) ! (.($c:col), .($c:row)) }) }"/>
      </xsl:when>
      <xsl:otherwise>
        <!-- the scans' lists are sorted already and hold no empty cell, no section cell and not the data cell
             itself: only row and column group headers need merging -->
        <xsl:variable name="column-scan" as="xs:string*" select="$context?column-lists($x + 1)(1 +
            fp:count-less($context?column-firsts($x + 1), $cell($c:row)))"/>
        <xsl:variable name="row-scan" as="xs:string*" select="$context?row-lists($y + 1)(1 +
            fp:count-less($context?row-firsts($y + 1), $cell($c:col)))"/>
        <xsl:variable name="colgroup" as="xs:string*" select="$context?colgroup-headers[
            .($c:col) le $x and $x lt .($c:col) + .($c:colspan) and .($c:row) le $y
            and .($c:row) + .($c:rowspan) le $cell($c:row)] ! .($c:id)"/>
        <xsl:variable name="rowgroup" as="xs:string*" select="$context?rowgroup-headers[
            string(.($c:element)/@group) eq string($cell($c:element)/@group) and .($c:col) le $x
            and .($c:row) le $y] ! .($c:id)"/>
        <xsl:variable name="model" as="map(*)" select="$context?model"/>
        <xsl:sequence select="map {
            'col' : if (empty($colgroup)) then $column-scan
                    else sort(fp:keep($model, $cell, ($column-scan, $colgroup)), (),
                              function($id) { f:model-cell($model, $id) ! (.($c:row), .($c:col)) }),
            'row' : let $sections := $context?sections($y + 1) return
                    if (empty($rowgroup)) then ($sections, $row-scan)
                    else fp:keep($model, $cell, ($sections, sort(($rowgroup, $row-scan), (),
                                                 function($id) { f:model-cell($model, $id) ! (.($c:col), .($c:row)) }))) }"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- True if the cell (cell record) has a headers attribute with at least one id (HTML: the ids of its header cells). -->
  <xsl:function name="fp:has-headers" as="xs:boolean">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:variable name="element" as="element()" select="$cell($c:element)"/>
    <xsl:sequence select="exists($element/@headers) and exists(tokenize(string($element/@headers)))"/>
  </xsl:function>

  <!-- Header cell ids without empty cells, the data cell itself and repeats (first occurrence kept). -->
  <xsl:function name="fp:keep" as="xs:string*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="ids" as="xs:string*"/>
    <xsl:sequence select="distinct-values($ids[not(f:model-cell($model, .)($c:empty))][. ne $cell($c:id)])"/>
  </xsl:function>

</xsl:stylesheet>
