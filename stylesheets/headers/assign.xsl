<?xml version="1.0" encoding="UTF-8"?>
<!--
  Cell roles and the header cells of every data slot.

    f:roles($model, $k, $p, $kinds, $markup) => map { cell id : 'header' | 'data' | 'section' | 'empty' }
    f:assign($model, $roles, $markup) => map { "y:x" : map { 'row' : row header ids, 'col' : column header ids } }
      for every slot owned by a data or empty cell.

  Roles (anchor row and column of the cell): the text cell of a section row is a section cell (also a title row
  that is the first of stacked sub-tables, rows.xsl); a cell anchored in a header row (y < k), in a repeated
  header row or, outside note rows (a note spanning the table is data even where it starts in a header column),
  in a header column (x < p) is a header cell; with markup, so is any th of a data row; other cells without
  content are empty; the rest are data.

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

  Linear: each column's and each row's header blocks are built once (one pass over its slots); a slot's scan visits
  only the blocks before it.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:f="urn:pyxform:functions"
    xmlns:fp="urn:pyxform:functions:private"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- =================================================================================================== -->
  <!-- Roles                                                                                               -->
  <!-- =================================================================================================== -->

  <xsl:function name="f:roles" as="map(xs:string, xs:string)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:param name="kinds" as="array(xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:sequence select="map:merge($model?ids ! f:cell($model, .) ! map { ?id : fp:role(., $k, $p, $kinds, $markup) })"/>
  </xsl:function>

  <xsl:function name="fp:role" as="xs:string">
    <xsl:param name="cell" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:param name="kinds" as="array(xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="kind" as="xs:string" select="$kinds($cell?row + 1)"/>
    <xsl:sequence select="
        if ($kind eq 'section') then (if ($cell?blank) then 'empty' else 'section')
        else if ($cell?row lt $k or $kind = ('head', 'repeat')) then 'header'
        else if ($kind eq 'note') then (if ($cell?empty) then 'empty' else 'data')
        else if ($cell?col lt $p) then 'header'
        else if ($markup and $cell?tag eq 'th' and $kind = ('data')) then 'header'
        else if ($cell?empty) then 'empty'
        else 'data'"/>
  </xsl:function>

  <!-- =================================================================================================== -->
  <!-- Header cells of the data slots                                                                      -->
  <!-- =================================================================================================== -->

  <xsl:function name="f:assign" as="map(xs:string, map(*))">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="m" as="xs:integer" select="$model?rows"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <xsl:variable name="is-data" as="function(xs:string) as xs:boolean"
        select="function($id as xs:string) as xs:boolean { $roles($id) = ('data', 'empty') }"/>
    <!-- rows and columns that a data cell covers -->
    <xsl:variable name="row-has-data" as="xs:boolean*"
        select="for $y in 0 to $m - 1 return some $id in f:row($model, $y)?ids satisfies $is-data($id)"/>
    <xsl:variable name="headers" as="map(*)*"
        select="$model?ids[$roles(.) eq 'header'] ! f:cell($model, .)"/>
    <!-- column header / row header, per the WHATWG definitions (scope only with markup), except that a header cell
         in the auto state that is not a column header is a row header whatever the other cells of its columns are:
         WHATWG also asks that no data cell cover its columns, so one td in a column of th (a "Source:" note spanning
         the table, an "NC" in a column of round numbers, an empty cell) would make every th of that column head
         nothing; a th in a row of td is a row header as accessibility APIs map it (role rowheader) and as the
         authors of such tables mean it -->
    <xsl:variable name="column-header" as="map(xs:string, xs:boolean)" select="map:merge($headers ! map {
        ?id : (let $scope := if ($markup and ?tag eq 'th') then ?scope else '' return
               if ($scope eq 'col') then true()
               else if ($scope = ('row', 'rowgroup', 'colgroup')) then false()
               else not(some $y in ?row to ?row + ?rowspan - 1 satisfies $row-has-data[$y + 1])) })"/>
    <xsl:variable name="row-header" as="map(xs:string, xs:boolean)" select="map:merge($headers ! map {
        ?id : (let $scope := if ($markup and ?tag eq 'th') then ?scope else '' return
               if ($scope eq 'row') then true()
               else if ($scope = ('col', 'rowgroup', 'colgroup')) then false()
               else not($column-header(?id))) })"/>
    <!-- header blocks: per column top-down, per row left to right -->
    <xsl:variable name="column-blocks" as="array(*)" select="array:join(for $x in 0 to $n - 1 return
        [ fp:blocks($model, $roles, for $y in 0 to $m - 1 return map { 'at' : $y, 'key' : $y || ':' || $x,
                                                                       'id' : f:owner($model, $y, $x) }) ])"/>
    <xsl:variable name="row-blocks" as="array(*)" select="array:join(for $y in 0 to $m - 1 return
        [ fp:blocks($model, $roles, for $x in 0 to $n - 1 return map { 'at' : $x, 'key' : $y || ':' || $x,
                                                                       'id' : f:owner($model, $y, $x) }) ])"/>
    <!-- the scans' results, once per line and number of blocks before the principal cell (a slot's column headers
         depend only on its column and on how many of the column's header blocks lie above the cell; row headers
         likewise): array per line of arrays indexed by 1 + that number -->
    <xsl:variable name="column-lists" as="array(*)" select="fp:scan-lists($model, $column-blocks, true(),
        $column-header, function($id as xs:string) as xs:integer* { f:cell($model, $id) ! (?row, ?col) })"/>
    <xsl:variable name="row-lists" as="array(*)" select="fp:scan-lists($model, $row-blocks, false(),
        $row-header, function($id as xs:string) as xs:integer* { f:cell($model, $id) ! (?col, ?row) })"/>
    <!-- section cells heading each row -->
    <xsl:variable name="sections" as="array(*)" select="fp:section-runs($model, $roles)"/>
    <!-- markup: row group headers by group, column group headers, first cell of each html id -->
    <xsl:variable name="rowgroup-headers" as="map(*)*"
        select="if ($markup) then $headers[?tag eq 'th' and ?scope eq 'rowgroup'] else ()"/>
    <xsl:variable name="colgroup-headers" as="map(*)*"
        select="if ($markup) then $headers[?tag eq 'th' and ?scope eq 'colgroup'] else ()"/>
    <xsl:variable name="by-html-id" as="map(xs:string, xs:string)" select="if (not($markup)) then map {} else
        map:merge($model?ids ! f:cell($model, .)[?html-id ne ''] ! map { ?html-id : ?id },
                  map { 'duplicates' : 'use-first' })"/>
    <xsl:variable name="context" as="map(*)" select="map {
        'model' : $model, 'roles' : $roles, 'column-header' : $column-header, 'row-header' : $row-header,
        'column-blocks' : $column-blocks, 'row-blocks' : $row-blocks, 'sections' : $sections,
        'column-lists' : $column-lists, 'row-lists' : $row-lists,
        'rowgroup-headers' : $rowgroup-headers, 'colgroup-headers' : $colgroup-headers,
        'by-html-id' : $by-html-id, 'markup' : $markup }"/>
    <xsl:sequence select="map:merge(
        for $id in $model?ids[$is-data(.)] return
        let $cell := f:cell($model, $id) return
        for $y in $cell?row to min(($cell?row + $cell?rowspan, $m)) - 1,
            $x in $cell?col to min(($cell?col + $cell?colspan, $n)) - 1
        return if (f:owner($model, $y, $x) eq $id)
               then map { $y || ':' || $x : fp:slot-headers($context, $cell, $y, $x) } else ())"/>
  </xsl:function>

  <!--
    Header blocks along one line of slots (a column top-down, or a row left to right): maximal runs of header cells
    not interrupted by a data cell (slots without a cell, with overlapping cells, or of a section cell are skipped,
    as the WHATWG scan skips them). Returns maps { 'first' : position of the block's first slot, 'ids' : its header
    cells from the last to the first (the order of a scan towards the start of the line) }, in line order.
  -->
  <xsl:function name="fp:blocks" as="map(*)*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="slots" as="map(*)*"/>
    <xsl:variable name="final" as="map(*)" select="fold-left($slots,
        map { 'blocks' : (), 'current' : (), 'first' : -1, 'last' : '' },
        function($state as map(*), $slot as map(*)) as map(*) {
          let $id := $slot?id,
              $role := if ($id eq '' or map:contains($model?skip, $slot?key)) then 'none' else $roles($id)
          return
            if ($role = ('none', 'section') or $id eq $state?last) then $state
            else if ($role eq 'header') then map:merge((map {
                'current' : ($state?current, $id), 'last' : $id,
                'first' : if (empty($state?current)) then $slot?at else $state?first }, $state),
                map { 'duplicates' : 'use-first' })
            else if (exists($state?current)) then map {
                'blocks' : ($state?blocks, map { 'first' : $state?first, 'ids' : reverse($state?current) }),
                'current' : (), 'first' : -1, 'last' : $id }
            else map:put($state, 'last', $id)
        })"/>
    <xsl:sequence select="$final?blocks,
        if (exists($final?current)) then map { 'first' : $final?first, 'ids' : reverse($final?current) } else ()"/>
  </xsl:function>

  <!--
    The internal algorithm for scanning and assigning header cells, for a data principal cell, over the header
    blocks before it (nearest first): a header cell is added unless an opaque header (a cell of a block already
    passed, i.e. separated from the principal cell by a data cell) has the same anchor and extent across the scan,
    or it is not a column header (vertical scan) / row header (horizontal scan).
  -->
  <xsl:function name="fp:scan" as="xs:string*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="blocks" as="map(*)*"/>
    <xsl:param name="vertical" as="xs:boolean"/>
    <xsl:param name="eligible" as="map(xs:string, xs:boolean)"/>
    <xsl:variable name="extent" as="function(xs:string) as xs:string" select="function($id as xs:string) as xs:string {
        let $c := f:cell($model, $id) return
        if ($vertical) then $c?col || '+' || $c?colspan else $c?row || '+' || $c?rowspan }"/>
    <xsl:sequence select="fold-left(reverse($blocks), map { 'opaque' : map {}, 'found' : () },
        function($state as map(*), $block as map(*)) as map(*) {
          map {
            'found' : ($state?found, $block?ids[$eligible(.) and not(map:contains($state?opaque, $extent(.)))]),
            'opaque' : map:merge(($state?opaque, $block?ids ! map { $extent(.) : true() }),
                                 map { 'duplicates' : 'use-first' })
          }
        })?found"/>
  </xsl:function>

  <!-- For each line (column or row) and each b = 0 .. number of its header blocks: the header cells that the scan
       from a principal cell with b blocks before it finds, without empty cells, sorted by $order. -->
  <xsl:function name="fp:scan-lists" as="array(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="blocks-by-line" as="array(*)"/>
    <xsl:param name="vertical" as="xs:boolean"/>
    <xsl:param name="eligible" as="map(xs:string, xs:boolean)"/>
    <xsl:param name="order" as="function(xs:string) as xs:integer*"/>
    <xsl:sequence select="array:join(for $line in 1 to array:size($blocks-by-line) return
        let $blocks := $blocks-by-line($line) return [
        array:join(for $b in 0 to count($blocks) return [
          sort(distinct-values(fp:scan($model, subsequence($blocks, 1, $b), $vertical, $eligible)
                               [not(f:cell($model, .)?empty)]), (), $order) ]) ])"/>
  </xsl:function>

  <!-- Section cells heading each row: array of m sequences of ids (outer first). -->
  <xsl:function name="fp:section-runs" as="array(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="roles" as="map(xs:string, xs:string)"/>
    <xsl:variable name="section-of" as="xs:string*"
        select="for $y in 0 to $model?rows - 1 return
                  ((f:row($model, $y)?texts)[$roles(.) eq 'section'][f:cell($model, .)?row eq $y], '')[1]"/>
    <xsl:sequence select="fold-left(1 to count($section-of),
        map { 'run' : (), 'previous' : false(), 'out' : [] },
        function($state as map(*), $i as xs:integer) as map(*) {
          let $id := $section-of[$i] return
          if ($id ne '') then map {
            'run' : (if ($state?previous) then $state?run else (), $id), 'previous' : true(),
            'out' : array:append($state?out, ()) }
          else map { 'run' : $state?run, 'previous' : false(), 'out' : array:append($state?out, $state?run) }
        })?out"/>
  </xsl:function>

  <xsl:function name="fp:slot-headers" as="map(*)">
    <xsl:param name="context" as="map(*)"/>
    <xsl:param name="cell" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="model" as="map(*)" select="$context?model"/>
    <xsl:variable name="by-position" as="function(xs:string) as xs:integer*"
        select="function($id as xs:string) as xs:integer* { f:cell($model, $id) ! (?row, ?col) }"/>
    <xsl:variable name="by-column" as="function(xs:string) as xs:integer*"
        select="function($id as xs:string) as xs:integer* { f:cell($model, $id) ! (?col, ?row) }"/>
    <xsl:variable name="keep" as="function(xs:string*) as xs:string*" select="function($ids as xs:string*) as xs:string* {
        distinct-values($ids[not(f:cell($model, .)?empty)][. ne $cell?id]) }"/>
    <xsl:choose>
      <xsl:when test="$context?markup and exists($cell?headers)">
        <!-- the headers attribute: the first cell of the table with each id; above the cell = column header -->
        <xsl:variable name="listed" as="xs:string*" select="$keep($cell?headers ! $context?by-html-id(.))"/>
        <xsl:variable name="above" as="xs:string*" select="$listed[
            let $h := f:cell($model, .) return $h?row + $h?rowspan le $cell?row
              and not($h?col + $h?colspan le $cell?col and $h?scope eq 'row')]"/>
        <xsl:sequence select="map {
            'col' : sort($above, (), $by-position),
            'row' : sort($listed[not(. = $above)], (), $by-column) }"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="column-scan" as="xs:string*" select="$context?column-lists($x + 1)(1 +
            count($context?column-blocks($x + 1)[?first lt $cell?row]))"/>
        <xsl:variable name="row-scan" as="xs:string*" select="$context?row-lists($y + 1)(1 +
            count($context?row-blocks($y + 1)[?first lt $cell?col]))"/>
        <xsl:variable name="colgroup" as="xs:string*" select="$context?colgroup-headers[
            ?col le $x and $x lt ?col + ?colspan and ?row le $y and ?row + ?rowspan le $cell?row] ! ?id"/>
        <xsl:variable name="rowgroup" as="xs:string*" select="$context?rowgroup-headers[
            ?group eq $cell?group and ?col le $x and ?row le $y] ! ?id"/>
        <xsl:sequence select="map {
            'col' : if (empty($colgroup)) then $column-scan
                    else sort($keep(($column-scan, $colgroup)), (), $by-position),
            'row' : let $sections := $context?sections($y + 1) return
                    if (empty($rowgroup) and empty($sections)) then $row-scan
                    else $keep(($sections, sort(($rowgroup, $row-scan), (), $by-column))) }"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

</xsl:stylesheet>
