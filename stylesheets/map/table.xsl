<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:map-table: one px:table of the annotated grid -> its Rule 1 element (Zhang & Li 2007, section 3).

  Each data slot (lib/slots.xsl) becomes one chain of nested elements, from the table element down:
    row header cells, outermost first (section cells included)     one element per cell, px:key = the cell id
    a record element <row>, when the row needs one (below)          px:key = the row index
    column header cells, top first                                  px:key = the cell id @ the row index
      (no column header with text: one element named by position, <column-N>, N = slot column + 1)
    the value: the data cell's text, its links and images as attributes, the XML of the tables nested in it.
  Header cells with empty text are null tags and make no element. The chains of one table are siblings in row order;
  merge.xsl joins adjacent siblings of the same name and px:key, which rebuilds phi(r(i)) of Rule 1 exactly (one
  element per row header cell, one per column header cell and row), while rows that are different records stay apart.

  A row needs a record element when it has no row header cell of its own (tables without row headers, p = 0, where
  each data row becomes <row>, also under section cells) or when its row header path (the ids of its non-null row
  header cells) is shared with another data row (two rows under one row header cell that spans them both): otherwise
  their values would merge into one element and records would mix.

  A note row (row kind "note" in the headers stage's px:header-evidence: one cell with text spanning the table, or
  a lone heading-like cell, after the last data row: a source line, a footnote) below a record is not a record: its
  cell gives one <note px:row="R"> element after the records, holding its value, instead of its text under every
  column header of the columns it spans. (A table of wide rows only, such as a one-cell layout table, has records.)

  The table element is named after the caption; a top-level table without a caption after the nearest preceding
  heading, then the page title; otherwise (or for a nested table without a caption) it is <table>.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:mode name="m:map-table" on-no-match="fail"/>

  <xsl:template match="px:table" mode="m:map-table" as="element()">
    <xsl:if test="not(fp:is-annotated(.))">
      <xsl:message terminate="yes" error-code="px:no-header-annotations"
        >[px:no-header-annotations] table {@index} ({@locator}) has no header
        annotations (header-rows, header-cols): run the headers stage before map</xsl:message>
    </xsl:if>
    <xsl:variable name="table" as="element(px:table)" select="."/>
    <xsl:variable name="entity" as="xs:boolean" select="f:table-kind-of(.) = 'entity'"/>
    <xsl:variable name="label" as="map(xs:string, item())" select="fp:table-label($table)"/>
    <!-- note rows (a table-wide row after the last data row: a source line, a footnote; headers stage, row kind
         "note") give one <note> element, not a value under every column header of the columns the note spans -->
    <xsl:variable name="note-rows" as="xs:string*" select="f:note-rows($table) ! string()"/>
    <!-- Most tables (layout tables, tables with column headers only) have no row header cell: then each data row is
         one record element around its column parts, and no row is without values (an empty row keeps its row
         header path, which such a row has not): the same as fp:units and fp:nest-units make there, without the maps
         of row header paths. -->
    <xsl:variable name="no-row-headers" as="xs:boolean" select="not($entity) and not(f:has-row-headers(.))"/>
    <!-- the data rows: maps { 'row' : the row index, 'slots' : its data slots (f:data-slots), 'cells' : their
         cells, 'ch' : their column-headers values, 'rh' : their row-headers values (with row header cells), in the
         same order }, note rows left out; each slot's cell and annotations read once (fp:data-rows) -->
    <xsl:variable name="data-rows" as="map(*)*" select="if ($entity) then ()
                                                        else fp:data-rows($table, $note-rows, not($no-row-headers))"/>
    <!-- A data row whose every value is missing (its row header cells, then empty cells) is no pair, but it is a
         row of the table: its row header path is kept, ending in an empty element, in its place among the rows (as
         CSV keeps it). A section row (whose one header is a section) is not such a row. (Without row header cells
         there is no such row.) -->
    <xsl:variable name="empty-rows" as="map(*)*"
                  select="if ($entity or $no-row-headers) then () else fp:empty-rows($table, $note-rows)"/>
    <!-- Slots of one row share their row header cells, and slots of one column their column header cells: the cells
         and the element each makes are found once per distinct px:slot/@row-headers (@column-headers) value.
         Without row header cells, the row header maps are not needed (made only on the other path: a map is made
         where it is declared). -->
    <xsl:variable name="column-headers" as="map(xs:string, element(px:cell)*)" select="
        map:merge(distinct-values($data-rows ! ?ch) ! map:entry(., fp:header-cells($table, .)))"/>
    <xsl:variable name="row-header-values" as="xs:string*" select="if ($no-row-headers) then ()
        else distinct-values(($data-rows, $empty-rows) ! ?rh)"/>
    <xsl:variable name="row-header-ids" as="xs:string*"
                  select="distinct-values($row-header-values ! fp:header-cells($table, .)/@id)"/>
    <!-- the role of each row header cell (header or section), read once (f:cell-roles) -->
    <xsl:variable name="row-header-roles" as="map(xs:string, xs:string)" select="
        if (empty($row-header-ids)) then map {}
        else let $roles := f:cell-roles($row-header-ids ! key('f:cell', ., root($table))[1])
             return map:merge(for $i in 1 to count($row-header-ids) return map:entry(string($row-header-ids[$i]), $roles[$i]))"/>
    <xsl:variable name="column-header-ids" as="xs:string*"
                  select="distinct-values(map:for-each($column-headers, function($k, $cells) {$cells/@id}))"/>
    <!-- the header cells of the table and the label of each, made once: the names need all labels of the table
         first, then each header cell's element (step) is made with its label; without row header cells (most
         tables) the steps are made in one pass over the cells, without finding each again by its id -->
    <xsl:variable name="header-cells" as="element(px:cell)*"
                  select="key('f:cell', ($row-header-ids, $column-header-ids), root($table))[parent::px:table is $table]"/>
    <xsl:variable name="header-labels" as="xs:string*" select="$header-cells ! f:cell-label(.)"/>
    <xsl:variable name="labels" as="map(xs:string, xs:string)" select="
        map:merge(for $i in 1 to count($header-cells) return map:entry(string($header-cells[$i]/@id), $header-labels[$i]))"/>
    <xsl:variable name="names" as="map(xs:string, xs:string)" select="fp:label-names(distinct-values($header-labels))"/>
    <xsl:variable name="corners" as="map(xs:integer, xs:string)"
                  select="if (empty($row-header-ids)) then map {} else fp:corner-labels($table)"/>
    <xsl:variable name="steps" as="map(xs:string, element())" select="
        if (empty($row-header-ids))
        then map:merge(for $i in 1 to count($header-cells) return let $cell := $header-cells[$i]
                       return map:entry('c' || $cell/@id, fp:header-step($cell, $header-labels[$i], $names, false(), ())))
        else map:merge((
          for $cell in $row-header-ids ! key('f:cell', ., root($table))[1]
          return map:entry('r' || $cell/@id, fp:header-step($cell, $labels(string($cell/@id)), $names, true(),
                                                             $corners(xs:integer($cell/@col))
                                                               [$row-header-roles(string($cell/@id)) eq 'header'])),
          $column-header-ids
            ! map:entry('c' || ., fp:header-step(key('f:cell', ., root($table))[1], $labels(.), $names, false(), ()))))"/>
    <xsl:element name="{if ($f:generic-names) then 'table' else fp:table-name($label?text)}">
      <xsl:if test="$f:generic-names">
        <xsl:attribute name="name" select="$label?text"/>
      </xsl:if>
      <xsl:attribute name="px:label" select="$label?text"/>
      <xsl:attribute name="px:name-from" select="$label?from"/>
      <xsl:attribute name="px:source" select="root($table)/px:grids/@source"/>
      <xsl:attribute name="px:table" select="@index"/>
      <xsl:attribute name="px:locator" select="@locator"/>
      <xsl:attribute name="px:header-rows" select="f:table-header-rows(.)"/>
      <xsl:attribute name="px:header-cols" select="f:table-header-cols(.)"/>
      <xsl:attribute name="px:header-method" select="f:table-header-method(.)"/>
      <xsl:if test="exists(f:table-kind-of(.))">
        <xsl:attribute name="px:table-kind" select="f:table-kind-of(.)"/>
      </xsl:if>
      <xsl:if test="@parent-table">
        <xsl:attribute name="px:parent-table" select="@parent-table"/>
      </xsl:if>
      <xsl:if test="@hidden = 'true'">
        <xsl:attribute name="px:hidden" select="'true'"/>
      </xsl:if>
      <xsl:attribute name="px:key" select="'t' || @index"/>
      <xsl:choose>
        <xsl:when test="$entity">
          <xsl:call-template name="fp:entity-content">
            <xsl:with-param name="table" select="$table"/>
            <xsl:with-param name="title-row" select="$label?row"/>
          </xsl:call-template>
        </xsl:when>
        <xsl:when test="$no-row-headers">
          <xsl:variable name="columns" as="map(xs:string, item())" select="fp:columns($column-headers, $steps)"/>
          <xsl:for-each select="$data-rows">
            <row px:row="{?row}" px:key="r{?row}">
              <xsl:call-template name="fp:column-parts">
                <xsl:with-param name="slots" select="?slots"/>
                <xsl:with-param name="cells" select="?cells"/>
                <xsl:with-param name="column-headers" select="?ch"/>
                <xsl:with-param name="row" select="?row"/>
                <xsl:with-param name="columns" select="$columns"/>
              </xsl:call-template>
            </row>
          </xsl:for-each>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="row-headers" as="map(xs:string, element(px:cell)*)"
                        select="map:merge($row-header-values ! map:entry(., fp:header-cells($table, .)))"/>
          <!-- the identity of a row header path: the ids of its non-null row header cells -->
          <xsl:variable name="paths" as="map(xs:string, xs:string)" select="
              map:merge(map:for-each($row-headers, function($k, $cells) {map:entry($k, string-join($cells/@id, ' '))}))"/>
          <!-- the data rows with each row's distinct row header values, read once -->
          <xsl:variable name="headed-rows" as="map(*)*"
                        select="$data-rows ! map:put(., 'row-headers', distinct-values(?rh))"/>
          <xsl:variable name="rows-per-path" as="map(xs:string, xs:integer)">
            <xsl:map>
              <xsl:for-each-group select="$headed-rows ! (let $row := ?row return ?row-headers ! map {
                  'path' : ($paths(.), '')[1], 'row' : $row })" group-by="?path">
                <xsl:map-entry key="current-grouping-key()" select="count(distinct-values(current-group() ! ?row))"/>
              </xsl:for-each-group>
            </xsl:map>
          </xsl:variable>
          <xsl:variable name="units" as="array(*)*"
                        select="fp:units($headed-rows, $row-headers, $row-header-roles, $paths, $rows-per-path, $steps)"/>
          <xsl:variable name="empty-row-units" as="array(*)*" select="
              for $row in $empty-rows return
              let $ids := fp:header-cells($table, $row?rh)/@id ! string()
              return [$ids, $ids ! $steps('r' || .), $row?row, (), (), ()]"/>
          <xsl:call-template name="fp:nest-units">
            <xsl:with-param name="units" select="if (empty($empty-row-units)) then $units
                else sort(($units, $empty-row-units), (), function($unit) {xs:integer($unit(3))})"/>
            <xsl:with-param name="depth" select="1"/>
            <xsl:with-param name="columns" select="fp:columns($column-headers, $steps)"/>
          </xsl:call-template>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:for-each-group select="if ($entity or empty($note-rows)) then ()
                                  else f:data-slots($table)[../@index = $note-rows]"
                          group-by="../@index">
        <note px:row="{current-grouping-key()}" px:key="n{current-grouping-key()}">
          <xsl:call-template name="fp:value">
            <xsl:with-param name="cell" select="f:cell(.)"/>
          </xsl:call-template>
        </note>
      </xsl:for-each-group>
    </xsl:element>
  </xsl:template>

  <!-- The row parts of a table's chains, in row order ($data-rows: maps { 'row' : the row index, 'slots' : its data
       slots, 'cells' : their cells, 'row-headers' : the slots' distinct px:slot/@row-headers values}). The chain of
       nested elements of one data slot is made of a row part (its row header cells, outermost first, and the record
       element when the row needs one) and a column part (its column header cells, or the positional column element),
       around its value. The row part is the same for the adjacent slots of a row with the same row header cells:
       each run of them is one unit [keys, elements, row, slots, cells]: the px:key of each element of the row part,
       outermost first; the elements (made once per table: fp:header-step, $fp:record-step), whose copies
       fp:nest-units nests; the row index; the slots of the run, in order, their cells and their column-headers values.
       $row-header-roles: the role of each row header cell, by id. -->
  <xsl:function name="fp:units" as="array(*)*">
    <xsl:param name="data-rows" as="map(*)*"/>
    <xsl:param name="row-headers" as="map(xs:string, element(px:cell)*)"/>
    <xsl:param name="row-header-roles" as="map(xs:string, xs:string)"/>
    <xsl:param name="paths" as="map(xs:string, xs:string)"/>
    <xsl:param name="rows-per-path" as="map(xs:string, xs:integer)"/>
    <xsl:param name="steps" as="map(xs:string, element())"/>
    <xsl:for-each select="$data-rows">
      <xsl:variable name="row" as="xs:string" select="?row"/>
      <!-- per row header value: the keys and elements of the row header cells and of the record element -->
      <xsl:variable name="prefixes" as="map(xs:string, array(*))" select="map:merge(?row-headers ! (
          let $cells := $row-headers(.),
              $record := empty($cells[not($row-header-roles(string(@id)) = 'section')])
                         or $rows-per-path(($paths(.), '')[1]) gt 1
          return map { . : [($cells/@id ! string(), ('r' || $row)[$record]),
                            ($cells/@id ! $steps('r' || .), $fp:record-step[$record])] }))"/>
      <xsl:choose>
        <xsl:when test="count(?row-headers) eq 1">
          <xsl:variable name="prefix" as="array(*)" select="$prefixes(?row-headers)"/>
          <xsl:sequence select="[$prefix(1), $prefix(2), $row, ?slots, ?cells, ?ch]"/>
        </xsl:when>
        <xsl:otherwise>
          <!-- runs of slots whose row parts have the same keys (two row header values can name the same cells),
               by the slots' positions in the row -->
          <xsl:variable name="slots" as="element(px:slot)*" select="?slots"/>
          <xsl:variable name="cells" as="element(px:cell)*" select="?cells"/>
          <xsl:variable name="rh" as="xs:string*" select="?rh"/>
          <xsl:variable name="ch" as="xs:string*" select="?ch"/>
          <xsl:for-each-group select="1 to count($slots)" group-adjacent="
              let $i := . return string-join($prefixes($rh[$i])(1), ' ')">
            <xsl:variable name="first" as="xs:integer" select="."/>
            <xsl:variable name="prefix" as="array(*)" select="$prefixes($rh[$first])"/>
            <xsl:sequence select="[$prefix(1), $prefix(2), $row, for $i in current-group() return $slots[$i],
                                   for $i in current-group() return $cells[$i],
                                   for $i in current-group() return $ch[$i]]"/>
          </xsl:for-each-group>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:for-each>
  </xsl:function>

  <!-- The column parts of a table's chains: map { 'parts' : map { a distinct px:slot/@column-headers value : map {
       'ids' : the ids of its column header cells, top first (none: the positional column element), 'steps' : their
       elements, 'wide' : whether the innermost spans several columns (the value element then gets px:col, so that
       values under one header keep their columns when one is missing: JSON places them by it) } }, 'flat' : whether
       every column part is at most one element (one row of column headers) }. -->
  <xsl:function name="fp:columns" as="map(xs:string, item())">
    <xsl:param name="column-headers" as="map(xs:string, element(px:cell)*)"/>
    <xsl:param name="steps" as="map(xs:string, element())"/>
    <xsl:sequence select="map {
        'parts' : map:merge(map:for-each($column-headers, function($value, $cells) { map { $value : map {
            'ids' : $cells/@id ! string(),
            'steps' : $cells/@id ! $steps('c' || .),
            'wide' : number($cells[last()]/@colspan) gt 1 } } })),
        'flat' : every $cells in map:for-each($column-headers, function($value, $cells) { count($cells) })
                 satisfies $cells le 1 }"/>
  </xsl:function>

  <!-- The elements of the units (fp:units) from the $depth-th element of their row parts on: a copy of that element
       with its px:key (the record element with px:row too) holding the units' next elements, or, past the row part,
       the column parts and values of the unit's slots (fp:column-parts). Adjacent units whose element at $depth has
       the same key share one copy, holding the rest of each: the merge rule (merge.xsl) would join those copies
       anyway, and making them once saves building and merging an element per slot. The element that ends the row
       part of a row without values (no slots) is its own. -->
  <xsl:template name="fp:nest-units" as="element()*">
    <xsl:param name="units" as="array(*)*"/>
    <xsl:param name="depth" as="xs:integer"/>
    <xsl:param name="columns" as="map(xs:string, item())"/>
    <xsl:for-each-group select="$units" group-adjacent="
        if (count(?1) gt $depth or (count(?1) eq $depth and exists(?4))) then ?1[$depth] else '#' || position()">
      <xsl:variable name="unit" as="array(*)" select="."/>
      <xsl:choose>
        <xsl:when test="count($unit(1)) lt $depth">
          <xsl:call-template name="fp:column-parts">
            <xsl:with-param name="slots" select="$unit(4)"/>
            <xsl:with-param name="cells" select="$unit(5)"/>
            <xsl:with-param name="column-headers" select="$unit(6)"/>
            <xsl:with-param name="row" select="$unit(3)"/>
            <xsl:with-param name="columns" select="$columns"/>
          </xsl:call-template>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="step" as="element()" select="$unit(2)[$depth]"/>
          <xsl:copy select="$step">
            <xsl:if test="$step is $fp:record-step">
              <xsl:attribute name="px:row" select="$unit(3)"/>
            </xsl:if>
            <xsl:sequence select="$step/@*"/>
            <xsl:attribute name="px:key" select="$unit(1)[$depth]"/>
            <xsl:call-template name="fp:nest-units">
              <xsl:with-param name="units" select="current-group()"/>
              <xsl:with-param name="depth" select="$depth + 1"/>
              <xsl:with-param name="columns" select="$columns"/>
            </xsl:call-template>
          </xsl:copy>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:for-each-group>
  </xsl:template>

  <!-- The column parts of some slots of one row and their values: for each slot, the elements of its column header
       cells (top first, px:key = the cell id @ the row index), or its positional column element (px:key = p + the
       column @ the row index), the innermost holding the value of the slot's cell ($cells: the slots' cells, in the
       same order; $column-headers: their column-headers values). Where every column part is one element (one row of column headers), each slot gives its element
       directly; otherwise the column parts are nested as chains (fp:nest), adjacent slots sharing the elements of a
       column header cell that spans them. A named template, so that its elements are written straight into the
       row's element; each copies its column's element without namespace nodes (copy-namespaces="no": the px
       namespace its attributes need is declared anyway). -->
  <xsl:template name="fp:column-parts" as="element()*">
    <xsl:param name="slots" as="element(px:slot)*"/>
    <xsl:param name="cells" as="element(px:cell)*"/>
    <xsl:param name="column-headers" as="xs:string*"/>
    <xsl:param name="row" as="xs:string"/>
    <xsl:param name="columns" as="map(xs:string, item())"/>
    <xsl:choose>
      <xsl:when test="$columns?flat">
        <xsl:variable name="parts" as="map(xs:string, map(*))" select="$columns?parts"/>
        <xsl:variable name="at" as="xs:string" select="'@' || $row"/>
        <xsl:for-each select="$slots">
          <xsl:variable name="slot" as="element(px:slot)" select="."/>
          <xsl:variable name="i" as="xs:integer" select="position()"/>
          <xsl:variable name="cell" as="element(px:cell)" select="$cells[$i]"/>
          <xsl:variable name="part" as="map(*)?" select="$parts($column-headers[$i])"/>
          <xsl:variable name="id" as="xs:string?" select="$part?ids"/>
          <xsl:choose>
            <xsl:when test="exists($id)">
              <xsl:variable name="step" as="element()" select="$part?steps"/>
              <xsl:copy select="$step" copy-namespaces="no">
                <xsl:sequence select="$step/@*"/>
                <xsl:attribute name="px:key" select="$id || $at"/>
                <xsl:if test="$part?wide">
                  <xsl:attribute name="px:col" select="xs:integer($slot/@col)"/>
                </xsl:if>
                <xsl:choose>
                  <!-- a cell with px:text alone (most cells; the grid's px:cell starts with px:text) is text only:
                       its text, without fp:value's tests and call (~4% of map on a plain table) -->
                  <xsl:when test="exists($cell/*[2]) or empty($cell/px:text)">
                    <xsl:call-template name="fp:value">
                      <xsl:with-param name="cell" select="$cell"/>
                    </xsl:call-template>
                  </xsl:when>
                  <xsl:otherwise>
                    <xsl:value-of select="$cell/px:text"/>
                  </xsl:otherwise>
                </xsl:choose>
              </xsl:copy>
            </xsl:when>
            <xsl:otherwise>
              <xsl:variable name="column" as="xs:integer" select="xs:integer(@col)"/>
              <xsl:variable name="step" as="element()" select="fp:column-step($column)"/>
              <xsl:copy select="$step">
                <xsl:sequence select="$step/@*"/>
                <xsl:attribute name="px:key" select="'p' || $column || '@' || $row"/>
                <xsl:call-template name="fp:value">
                  <xsl:with-param name="cell" select="$cell"/>
                </xsl:call-template>
              </xsl:copy>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="fp:nest">
          <xsl:with-param name="chains" select="for $i in 1 to count($slots) return
            let $slot := $slots[$i],
                $part := $columns?parts($column-headers[$i]),
                $column := xs:integer($slot/@col)
            return if (exists($part?ids)) then [$part?ids, $part?steps, $cells[$i], $column[$part?wide]]
                   else ['p' || $column, fp:column-step($column), $cells[$i], ()]"/>
          <xsl:with-param name="depth" select="1"/>
          <xsl:with-param name="at" select="'@' || $row"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The elements of the column parts of chains [keys, elements, cell, column] from their $depth-th element on: a
       copy of that element with its px:key (its key, then $at: @ the row index) holding the chain's next elements,
       or, for the last, the value of the slot's cell (with px:col when the chain gives a column). Adjacent chains
       whose element at $depth has the same key and is not the last of either share one copy, holding the rest of
       each. -->
  <xsl:template name="fp:nest" as="element()*">
    <xsl:param name="chains" as="array(*)*"/>
    <xsl:param name="depth" as="xs:integer"/>
    <xsl:param name="at" as="xs:string"/>
    <xsl:for-each-group select="$chains" group-adjacent="if (count(?1) gt $depth) then ?1[$depth] else position()">
      <xsl:variable name="chain" as="array(*)" select="."/>
      <xsl:variable name="step" as="element()" select="$chain(2)[$depth]"/>
      <xsl:copy select="$step">
        <xsl:sequence select="$step/@*"/>
        <xsl:attribute name="px:key" select="$chain(1)[$depth] || $at"/>
        <xsl:choose>
          <xsl:when test="count($chain(1)) gt $depth">
            <xsl:call-template name="fp:nest">
              <xsl:with-param name="chains" select="current-group()"/>
              <xsl:with-param name="depth" select="$depth + 1"/>
              <xsl:with-param name="at" select="$at"/>
            </xsl:call-template>
          </xsl:when>
          <xsl:otherwise>
            <xsl:if test="exists($chain(4))">
              <xsl:attribute name="px:col" select="$chain(4)"/>
            </xsl:if>
            <xsl:call-template name="fp:value">
              <xsl:with-param name="cell" select="$chain(3)"/>
            </xsl:call-template>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:copy>
    </xsl:for-each-group>
  </xsl:template>

</xsl:stylesheet>
