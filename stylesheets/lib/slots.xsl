<?xml version="1.0" encoding="UTF-8"?>
<!--
  Data slots and their header cells in a header-annotated grid (docs/formats.md sections 2 and 3), shared by the map
  and pairs stages so that the XML and the attribute-value pairs always agree.

  A data slot is a slot covered by a cell with role="data". Rule 1 (Zhang & Li 2007, section 3) maps every data slot
  d(i,j), so a data cell spanning several slots appears once per slot (the paper's reading: "Not available" under both
  height and weight). The one exception: slots of the same cell in the same row with the same row headers and the
  same column headers are a single pair, because they differ in nothing but the span (a value spanning two columns
  under one header spanning the same two columns is stated once, not twice).
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:key name="f:cell" match="px:cell" use="@id"/>
  <xsl:key name="f:table" match="px:table" use="xs:integer(@index)"/>

  <!-- f:data-slots($table): the data slots of a table, rows in order, each row's slots left to right, without the
       span duplicates described above (the first slot of each, also where slots with other headers lie between:
       a note spanning the table under empty headers at both ends; headers compared as the header cells with text
       that the slot lists). -->
  <xsl:function name="f:data-slots" as="element(px:slot)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="rows" as="element(px:row)*" select="$table/px:row"/>
    <!-- f:cell inline, with the document found once (root() costs ~0.5 us a call) -->
    <xsl:variable name="root" as="node()" select="root($table)"/>
    <xsl:choose>
      <!-- rows with distinct indexes (a grid's rows): only a row in which a cell has several data slots has span
           duplicates; the others keep all their slots (the same slots, in the same order) -->
      <xsl:when test="count(distinct-values($rows/@index ! string())) eq count($rows)">
        <xsl:for-each select="$rows">
          <xsl:variable name="row-slots" as="element(px:slot)*"
                        select="px:slot[@cell][key('f:cell', string(@cell), $root)[1]/@role = 'data']"/>
          <xsl:choose>
            <!-- "!", not "/": the cell ids without sorting the slots into document order -->
            <xsl:when test="count(distinct-values($row-slots ! string(@cell))) eq count($row-slots)">
              <xsl:sequence select="$row-slots"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="fp:first-slots($table, $row-slots)"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence
            select="fp:first-slots($table, $rows/px:slot[@cell][key('f:cell', string(@cell), $root)[1]/@role = 'data'])"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The first slot of each group of slots with the same row index, cell and header cells with text (f:data-slots),
       in the order of the slots. -->
  <xsl:function name="fp:first-slots" as="element(px:slot)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="slots" as="element(px:slot)*"/>
    <xsl:sequence select="fp:first-slots-by($slots, fp:header-ids($table, $slots))"/>
  </xsl:function>

  <!-- The ids of the header cells with text, per distinct row-headers or column-headers value of some slots (found
       once each): the header-ids that fp:first-slots-by($slots, $header-ids) needs for those slots. -->
  <xsl:function name="fp:header-ids" as="map(xs:string, xs:string*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="slots" as="element(px:slot)*"/>
    <xsl:sequence select="
        map:merge(distinct-values(('', $slots/@row-headers ! string(), $slots/@column-headers ! string()))
                  ! map:entry(., fp:header-cells($table, .)/@id ! string()))"/>
  </xsl:function>

  <!-- fp:first-slots with the header ids of the slots given (fp:header-ids of these or more slots). -->
  <xsl:function name="fp:first-slots-by" as="element(px:slot)*">
    <xsl:param name="slots" as="element(px:slot)*"/>
    <xsl:param name="header-ids" as="map(xs:string, xs:string*)"/>
    <xsl:for-each-group select="$slots"
                        group-by="string-join((../@index, @cell, '|', $header-ids(string(@row-headers)), '|',
                                               $header-ids(string(@column-headers))), ' ')">
      <xsl:sequence select="current-group()[1]"/>
    </xsl:for-each-group>
  </xsl:function>

  <!-- f:note-rows($table): the rows of a table that are notes, not records: rows of kind "note" in the headers
       stage's evidence (a table-wide row after the last data row: a source line, a footnote such as "— denotes a
       recording that did not chart") below a row that holds data; a table of wide rows alone (a one-cell layout
       table) has records, not notes. Map gives each one <note> element, tabular one px:note, instead of a record. -->
  <xsl:function name="f:note-rows" as="xs:integer*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="notes" as="xs:integer*"
        select="$table/px:header-evidence/px:row-kind[@kind eq 'note']/@row ! xs:integer(.)"/>
    <!-- most tables have no note row: the search for the first record is made only when there is one -->
    <xsl:sequence select="if (empty($notes)) then () else
        let $first-record := min($table/px:row[px:slot[f:cell(.)/@role = 'data']]/xs:integer(@index)[not(. = $notes)])
        return $notes[exists($first-record) and . gt $first-record]"/>
  </xsl:function>

  <!-- f:cell($slot): the cell covering a slot (empty for a slot no cell covers). -->
  <xsl:function name="f:cell" as="element(px:cell)?">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="key('f:cell', string($slot/@cell), root($slot))[1]"/>
  </xsl:function>

  <!-- f:row-headers($slot): the slot's row header cells (section cells included), outermost first, without the
       cells whose text is empty (Rule 1's null tags). -->
  <xsl:function name="f:row-headers" as="element(px:cell)*">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="fp:header-cells($slot, string($slot/@row-headers))"/>
  </xsl:function>

  <!-- f:column-headers($slot): the slot's column header cells, top first, without null tags. -->
  <xsl:function name="f:column-headers" as="element(px:cell)*">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="fp:header-cells($slot, string($slot/@column-headers))"/>
  </xsl:function>

  <!-- fp:header-cells($node, $ids): the cells of $node's document named by the space-separated ids (each once, in
       order), without null tags. -->
  <xsl:function name="fp:header-cells" as="element(px:cell)*">
    <xsl:param name="node" as="node()"/>
    <xsl:param name="ids" as="xs:string"/>
    <xsl:variable name="root" as="node()" select="root($node)"/>
    <!-- one id without white space (most): no tokenizing -->
    <xsl:sequence select="
        if ($ids ne '' and $ids eq normalize-space($ids) and not(contains($ids, ' ')))
        then key('f:cell', $ids, $root)[1][not(f:is-null(string(px:text)))]
        else for $id in distinct-values(tokenize($ids))
             return key('f:cell', $id, $root)[1][not(f:is-null(string(px:text)))]"/>
  </xsl:function>

  <!-- f:text($cell): the cell's visible text, as written (docs/formats.md section 2). -->
  <xsl:function name="f:text" as="xs:string">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:sequence select="string($cell/px:text)"/>
  </xsl:function>

  <!-- f:nested-tables($cell): the tables nested in a data cell, in document order; only tables whose parent-table is
       the cell's own table are followed, so a damaged grid cannot make the recursion loop. -->
  <xsl:function name="f:nested-tables" as="element(px:table)*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="table" as="element(px:table)" select="$cell/parent::px:table"/>
    <xsl:sequence select="
        for $ref in $cell/px:table-ref
        return key('f:table', xs:integer($ref/@index), root($cell))
               [@parent-table = $table/@index][xs:integer(@index) gt xs:integer($table/@index)]"/>
  </xsl:function>

</xsl:stylesheet>
