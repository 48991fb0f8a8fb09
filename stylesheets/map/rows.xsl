<?xml version="1.0" encoding="UTF-8"?>
<!--
  The rows of a table that map reads from its slots (map/table.xsl): the data rows, each with its data slots, their
  cells and their header annotations (column-headers, row-headers), and the rows without values. headers-map.xsl
  has its own, reading the header detection's results instead of the annotated grid.
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

  <!-- fp:data-rows($table, $note-rows, $row-headers): the rows of a table with data slots (f:data-slots, the same
       slots in the same order), note rows left out, as maps { 'row' : the row index, 'slots' : the row's data slots,
       'cells' : the cell of each, 'ch' : the column-headers value of each, 'rh' : the row-headers value of each (none
       without $row-headers: the table has no row header cell) }: each slot's cell is looked up once, for the data
       test and for the value. headers-map.xsl has its own, from the header detection. -->
  <xsl:function name="fp:data-rows" as="map(*)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="note-rows" as="xs:string*"/>
    <xsl:param name="row-headers" as="xs:boolean"/>
    <xsl:variable name="rows" as="element(px:row)*" select="$table/px:row"/>
    <xsl:variable name="root" as="node()" select="root($table)"/>
    <xsl:choose>
      <!-- rows with distinct indexes (a grid's rows): one row at a time, as f:data-slots takes them -->
      <xsl:when test="count(distinct-values($rows/@index ! string())) eq count($rows)">
        <xsl:variable name="data-rows" as="map(*)*">
          <xsl:for-each select="if (empty($note-rows)) then $rows else $rows[not(@index = $note-rows)]">
            <xsl:variable name="slots" as="element(px:slot)*" select="px:slot[@cell]"/>
            <xsl:variable name="cells" as="element(px:cell)*" select="$slots ! key('f:cell', string(@cell), $root)[1]"/>
            <!-- the data slots and their cells: all slots (a row of data cells, most rows); those of data cells, by
                 position; or, where a slot names no cell (so the two do not pair up), looked up again -->
            <xsl:variable name="paired" as="xs:boolean" select="count($cells) eq count($slots)"/>
            <xsl:variable name="data" as="xs:integer*" select="
                if (not($paired) or empty($cells[not(@role = 'data')])) then ()
                else for $i in 1 to count($cells) return $i[$cells[$i]/@role = 'data']"/>
            <xsl:variable name="row-slots" as="element(px:slot)*" select="
                if (not($paired)) then $slots[key('f:cell', string(@cell), $root)[1]/@role = 'data']
                else if (empty($cells[not(@role = 'data')])) then $slots
                else for $i in $data return $slots[$i]"/>
            <xsl:if test="exists($row-slots)">
              <xsl:choose>
                <!-- no cell with several data slots in the row: no span duplicates -->
                <xsl:when test="count(distinct-values($row-slots ! string(@cell))) eq count($row-slots)">
                  <xsl:sequence select="map { 'row' : string(@index), 'slots' : $row-slots, 'cells' :
                      if (not($paired)) then $row-slots ! key('f:cell', string(@cell), $root)[1]
                      else if (empty($data)) then $cells
                      else for $i in $data return $cells[$i],
                      'ch' : $row-slots ! string(@column-headers),
                      'rh' : if ($row-headers) then $row-slots ! string(@row-headers) else () }"/>
                </xsl:when>
                <xsl:otherwise>
                  <!-- span duplicates: the first slots found below, with the header ids of all such rows -->
                  <xsl:sequence select="map { 'row' : string(@index), 'slots' : $row-slots, 'spans' : true() }"/>
                </xsl:otherwise>
              </xsl:choose>
            </xsl:if>
          </xsl:for-each>
        </xsl:variable>
        <xsl:variable name="spans" as="map(*)*" select="$data-rows[?spans]"/>
        <xsl:choose>
          <xsl:when test="empty($spans)">
            <xsl:sequence select="$data-rows"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:variable name="header-ids" as="map(xs:string, xs:string*)"
                          select="fp:header-ids($table, $spans ! ?slots)"/>
            <xsl:for-each select="$data-rows">
              <xsl:choose>
                <xsl:when test="?spans">
                  <xsl:variable name="first" as="element(px:slot)*" select="fp:first-slots-by(?slots, $header-ids)"/>
                  <xsl:sequence select="map { 'row' : ?row, 'slots' : $first,
                                              'cells' : $first ! key('f:cell', string(@cell), $root)[1],
                                              'ch' : $first ! string(@column-headers),
                                              'rh' : if ($row-headers) then $first ! string(@row-headers) else () }"/>
                </xsl:when>
                <xsl:otherwise>
                  <xsl:sequence select="."/>
                </xsl:otherwise>
              </xsl:choose>
            </xsl:for-each>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each-group select="f:data-slots($table)[not(../@index = $note-rows)]" group-adjacent="string(../@index)">
          <xsl:sequence select="map { 'row' : current-grouping-key(), 'slots' : current-group(),
                                      'cells' : current-group() ! key('f:cell', string(@cell), $root)[1],
                                      'ch' : current-group() ! string(@column-headers),
                                      'rh' : if ($row-headers) then current-group() ! string(@row-headers) else () }"/>
        </xsl:for-each-group>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- fp:empty-rows($table, $note-rows): the data rows of a table with row header cells whose every value is
       missing (no data slot; a slot of an empty cell with row-headers), note rows left out, whose row headers are
       not sections alone, as maps { 'row' : the row index, 'rh' : the row-headers value of its first such slot }.
       headers-map.xsl has its own, from the header detection. -->
  <xsl:function name="fp:empty-rows" as="map(*)*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="note-rows" as="xs:string*"/>
    <xsl:sequence select="
        ($table/px:row[px:slot/@row-headers][not(@index = $note-rows) and not(px:slot[@cell][f:cell(.)/@role = 'data'])]
           /px:slot[@row-headers][f:cell(.)/@role = 'empty'][1])
        [exists(fp:header-cells($table, string(@row-headers))[not(@role = 'section')])]
        ! map { 'row' : string(../@index), 'rh' : string(@row-headers) }"/>
  </xsl:function>

</xsl:stylesheet>
