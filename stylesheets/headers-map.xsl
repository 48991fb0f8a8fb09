<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage headers-map: grid (docs/formats.md section 2) -> Rule 1 XML, before the merge rule: the headers stage and
  map in one transformation, for convert's default pipeline. The output is map's on the grid the headers stage
  annotates (every table): map.xsl reads the header annotations through lib/annotations.xsl, whose functions are
  overridden here to read the header detection's results of each table (f:detect-headers, once per table) directly,
  so that no annotated copy of the grid is written.

  Parameters: the headers stage's (headers/params.xsl: method, the weights and thresholds) and map's (names, table:
  the one table to map; every table's headers are detected, as the headers stage does by default).
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

  <xsl:import href="map.xsl"/>
  <xsl:include href="headers/functions.xsl"/>
  <xsl:include href="headers/params.xsl"/>
  <xsl:include href="headers/model.xsl"/>
  <xsl:include href="headers/rows.xsl"/>
  <xsl:include href="headers/markup.xsl"/>
  <xsl:include href="headers/content.xsl"/>
  <xsl:include href="headers/format.xsl"/>
  <xsl:include href="headers/boundary.xsl"/>
  <xsl:include href="headers/roles.xsl"/>
  <xsl:include href="headers/assign.xsl"/>
  <xsl:include href="headers/kind.xsl"/>
  <xsl:include href="headers/decide.xsl"/>

  <!-- The detection of every table, by generate-id of its px:table: map { 'k', 'p', 'method', 'kind' : as the
       headers stage writes them; 'roles' : cell id -> role; 'row-kinds' : f:table-row-kinds; 'texts' : per row
       index + 1, per column + 1, the slot's (row headers, column headers), empty for a slot of a header or section
       cell (f:slot-header-texts, as the headers stage's px:slot annotations); 'row-headers' : f:has-row-headers }.
       -->
  <xsl:variable name="fp:detected" as="map(xs:string, map(*))"
      select="map:merge(/px:grids/px:table ! map:entry(generate-id(.), fp:detect(.)))"/>

  <xsl:function name="fp:detect" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="result" as="map(*)" select="f:detect-headers($table, $method)"/>
    <xsl:variable name="assignment" as="map(*)" select="$result?assignment"/>
    <xsl:variable name="kinds" as="array(xs:string)" select="$result?kinds"/>
    <xsl:variable name="texts" as="array(array(*))" select="fp:texts($assignment)"/>
    <xsl:sequence select="map {
        'k' : string($result?k), 'p' : string($result?p), 'method' : string($result?method),
        'kind' : string($result?kind), 'roles' : $result?roles,
        'row-kinds' : map:merge(for $i in 1 to array:size($kinds) return
                                $kinds($i)[not(. = ('head', 'data'))] ! map:entry($i - 1, .)),
        'texts' : $texts,
        'row-headers' : some $row in 1 to array:size($texts), $x in 1 to array:size($texts($row))
                        satisfies $texts($row)($x)[1] ne '' }"/>
  </xsl:function>

  <!-- fp:detect's 'texts': per row, per column, the slot's (row headers, column headers) as f:slot-header-texts
       gives them; where the scans alone decide, read as headers/annotate.xsl reads a row's (the lists joined once per
       line and number of blocks, the row's shared values read once), without a function call per slot. -->
  <xsl:function name="fp:texts" as="array(array(*))">
    <xsl:param name="assignment" as="map(*)"/>
    <xsl:variable name="model" as="map(*)" select="$assignment?model"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <xsl:choose>
      <xsl:when test="$assignment?scans-alone">
        <xsl:variable name="roles" as="map(*)" select="$assignment?roles"/>
        <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
        <xsl:variable name="markup" as="xs:boolean" select="$assignment?headers-attribute"/>
        <xsl:variable name="headerless" as="xs:boolean" select="$assignment?headerless"/>
        <xsl:variable name="column-texts" as="array(*)" select="$assignment?column-texts"/>
        <xsl:variable name="column-firsts" as="array(*)" select="$assignment?column-firsts"/>
        <xsl:sequence select="array:join(for $row in 1 to $model?rows return
            let $owners := $model?owner($row),
                $row-texts := $assignment?row-texts($row),
                $row-firsts := $assignment?row-firsts($row),
                $row-text := if (empty($row-firsts)) then $row-texts(1) else ()
            return [array:join(for $x in 1 to $n return [
                let $id := $owners($x) return
                if ($id eq '') then ()
                else if ($headerless) then ('', '')
                else let $role := $roles($id) return
                if (not($role eq 'data' or $role eq 'empty')) then ()
                else if ($markup and fp:has-headers($cells($id))) then f:slot-header-texts($assignment, $row - 1, $x - 1)
                else (if (empty($row-firsts)) then $row-text
                      else $row-texts(1 + fp:count-less($row-firsts, $cells($id)($c:col))),
                      let $firsts := $column-firsts($x)
                      return $column-texts($x)(
                          if (empty($firsts)) then 1
                          else if (empty(tail($firsts))) then (if ($firsts lt $cells($id)($c:row)) then 2 else 1)
                          else 1 + fp:count-less($firsts, $cells($id)($c:row))))])])"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="array:join(for $y in 0 to $model?rows - 1 return
                              [array:join(for $x in 0 to $n - 1 return [f:slot-header-texts($assignment, $y, $x)])])"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <xsl:template match="/">
    <xsl:if test="not($method = ('auto', 'markup', 'format'))">
      <xsl:message terminate="yes" error-code="px:bad-parameter">[px:bad-parameter] method must be auto, markup or format, not "{$method}"</xsl:message>
    </xsl:if>
    <xsl:if test="not($size-difference = ('signed', 'absolute'))">
      <xsl:message terminate="yes" error-code="px:bad-parameter">[px:bad-parameter] size-difference must be signed or absolute, not "{$size-difference}"</xsl:message>
    </xsl:if>
    <xsl:if test="not(px:grids)">
      <xsl:message terminate="yes" error-code="px:not-a-grid">[px:not-a-grid] the input is not a grid document (px:grids)</xsl:message>
    </xsl:if>
    <!-- every table's detection before the mapping, so that a failure in it fails the stage, as it fails the headers
         stage, and is not caught as one table's failure by map's xsl:try (map/document.xsl) -->
    <xsl:if test="map:size($fp:detected) ge 0">
      <xsl:apply-imports/>
    </xsl:if>
  </xsl:template>

  <!-- The detection of a table (fp:detect). -->
  <xsl:function name="fp:detected" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))"/>
  </xsl:function>

  <!-- map's readers of the header annotations (lib/annotations.xsl), by table or for a few cells at once -->

  <xsl:function name="fp:is-annotated" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="true()"/>
  </xsl:function>

  <xsl:function name="f:cell-roles" as="xs:string*">
    <xsl:param name="cells" as="element(px:cell)*"/>
    <xsl:sequence select="$cells ! string(fp:detected(parent::px:table)?roles(string(@id)))"/>
  </xsl:function>

  <xsl:function name="f:has-row-headers" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?row-headers"/>
  </xsl:function>

  <xsl:function name="f:table-header-rows" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?k"/>
  </xsl:function>

  <xsl:function name="f:table-header-cols" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?p"/>
  </xsl:function>

  <xsl:function name="f:table-header-method" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?method"/>
  </xsl:function>

  <xsl:function name="f:table-kind-of" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?kind"/>
  </xsl:function>

  <xsl:function name="f:table-row-kinds" as="map(xs:integer, xs:string)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="fp:detected($table)?row-kinds"/>
  </xsl:function>

  <!-- map's and lib/slots.xsl's functions that read a table's slots, each as there, with a cell's role from the
       detection's roles and a slot's (row-headers, column-headers) from its 'texts' -->

  <!-- map/rows.xsl's fp:data-rows -->
  <xsl:function name="fp:data-rows" as="map(*)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="note-rows" as="xs:string*"/>
    <xsl:param name="row-headers" as="xs:boolean"/>
    <xsl:variable name="detected" as="map(*)" select="fp:detected($table)"/>
    <xsl:variable name="roles" as="map(*)" select="$detected?roles"/>
    <xsl:variable name="texts" as="array(*)" select="$detected?texts"/>
    <xsl:variable name="rows" as="element(px:row)*" select="$table/px:row"/>
    <xsl:variable name="root" as="node()" select="root($table)"/>
    <xsl:choose>
      <xsl:when test="count(distinct-values($rows/@index ! string())) eq count($rows)">
        <xsl:for-each select="if (empty($note-rows)) then $rows else $rows[not(@index = $note-rows)]">
          <xsl:variable name="slots" as="element(px:slot)*" select="px:slot[@cell][$roles(string(@cell)) eq 'data']"/>
          <xsl:if test="exists($slots)">
            <xsl:variable name="row-texts" as="array(*)" select="$texts(xs:integer(@index) + 1)"/>
            <xsl:variable name="columns" as="xs:integer*" select="$slots ! (xs:integer(@col) + 1)"/>
            <xsl:choose>
              <xsl:when test="count(distinct-values($slots ! string(@cell))) eq count($slots)">
                <xsl:sequence select="map { 'row' : string(@index), 'slots' : $slots,
                    'cells' : $slots ! key('f:cell', string(@cell), $root)[1],
                    'ch' : $columns ! $row-texts(.)[2],
                    'rh' : if ($row-headers) then $columns ! $row-texts(.)[1] else () }"/>
              </xsl:when>
              <xsl:otherwise>
                <xsl:variable name="first" as="element(px:slot)*" select="fp:first-slots($table, $slots)"/>
                <xsl:sequence select="map { 'row' : string(@index), 'slots' : $first,
                    'cells' : $first ! key('f:cell', string(@cell), $root)[1],
                    'ch' : $first ! $row-texts(xs:integer(@col) + 1)[2],
                    'rh' : if ($row-headers) then $first ! $row-texts(xs:integer(@col) + 1)[1] else () }"/>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:if>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each-group select="f:data-slots($table)[not(../@index = $note-rows)]" group-adjacent="string(../@index)">
          <xsl:variable name="headers" as="array(*)*"
              select="current-group() ! array { $texts(xs:integer(../@index) + 1)(xs:integer(@col) + 1) }"/>
          <xsl:sequence select="map { 'row' : current-grouping-key(), 'slots' : current-group(),
                                      'cells' : current-group() ! key('f:cell', string(@cell), $root)[1],
                                      'ch' : $headers ! ?2, 'rh' : if ($row-headers) then $headers ! ?1 else () }"/>
        </xsl:for-each-group>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- map/rows.xsl's fp:empty-rows: a slot has row-headers where its cell is a data or an empty cell -->
  <xsl:function name="fp:empty-rows" as="map(*)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="note-rows" as="xs:string*"/>
    <xsl:variable name="detected" as="map(*)" select="fp:detected($table)"/>
    <xsl:variable name="roles" as="map(*)" select="$detected?roles"/>
    <xsl:variable name="texts" as="array(*)" select="$detected?texts"/>
    <xsl:sequence select="
        for $row in $table/px:row[not(@index = $note-rows)] return
        let $slots := $row/px:slot[@cell],
            $slot-roles := $slots ! string($roles(string(@cell)))
        return if ($slot-roles = 'data') then ()
        else (for $i in 1 to count($slots) return $slots[$i][$slot-roles[$i] eq 'empty'])[1]
             ! (let $rh := $texts(xs:integer($row/@index) + 1)(xs:integer(@col) + 1)[1]
                return map { 'row' : string($row/@index), 'rh' : $rh }
                       [exists(fp:header-cells($table, $rh)[not($roles(string(@id)) = 'section')])])"/>
  </xsl:function>

  <!-- lib/slots.xsl's f:data-slots -->
  <xsl:function name="f:data-slots" as="element(px:slot)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="roles" as="map(*)" select="fp:detected($table)?roles"/>
    <xsl:variable name="rows" as="element(px:row)*" select="$table/px:row"/>
    <xsl:choose>
      <xsl:when test="count(distinct-values($rows/@index ! string())) eq count($rows)">
        <xsl:for-each select="$rows">
          <xsl:variable name="row-slots" as="element(px:slot)*" select="px:slot[@cell][$roles(string(@cell)) eq 'data']"/>
          <xsl:sequence select="if (count(distinct-values($row-slots ! string(@cell))) eq count($row-slots)) then $row-slots
                                else fp:first-slots($table, $row-slots)"/>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:first-slots($table, $rows/px:slot[@cell][$roles(string(@cell)) eq 'data'])"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- lib/slots.xsl's fp:first-slots: the first slot of each group of slots with the same row index, cell and header
       cells with text -->
  <xsl:function name="fp:first-slots" as="element(px:slot)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="slots" as="element(px:slot)*"/>
    <xsl:variable name="texts" as="array(*)" select="fp:detected($table)?texts"/>
    <xsl:variable name="headers" as="array(*)*"
        select="$slots ! array { $texts(xs:integer(../@index) + 1)(xs:integer(@col) + 1) }"/>
    <xsl:variable name="header-ids" as="map(xs:string, xs:string*)" select="
        map:merge(distinct-values(('', $headers ! ?*)) ! map:entry(., fp:header-cells($table, .)/@id ! string()))"/>
    <xsl:for-each-group select="1 to count($slots)" group-by="
        let $i := ., $slot := $slots[$i], $pair := $headers[$i]
        return string-join(($slot/../@index, $slot/@cell, '|', $header-ids($pair(1)), '|', $header-ids($pair(2))), ' ')">
      <xsl:sequence select="$slots[current-group()[1]]"/>
    </xsl:for-each-group>
  </xsl:function>

  <!-- lib/slots.xsl's f:note-rows -->
  <xsl:function name="f:note-rows" as="xs:integer*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="detected" as="map(*)" select="fp:detected($table)"/>
    <xsl:variable name="kinds" as="map(xs:integer, xs:string)" select="$detected?row-kinds"/>
    <xsl:variable name="notes" as="xs:integer*" select="sort(map:keys($kinds)[$kinds(.) eq 'note'])"/>
    <xsl:sequence select="if (empty($notes)) then () else
        let $roles := $detected?roles,
            $first-record := min($table/px:row[px:slot[$roles(string(@cell)) = 'data']]/xs:integer(@index)[not(. = $notes)])
        return $notes[exists($first-record) and . gt $first-record]"/>
  </xsl:function>

</xsl:stylesheet>
