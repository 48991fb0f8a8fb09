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

  <!-- The roles of every table's cells, by cell id (ids are unique in a grid document). -->
  <xsl:variable name="fp:roles" as="map(xs:string, xs:string)" select="map:merge($fp:detected?*?roles)"/>

  <xsl:function name="fp:detect" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="result" as="map(*)" select="f:detect-headers($table, $method)"/>
    <xsl:variable name="assignment" as="map(*)" select="$result?assignment"/>
    <xsl:variable name="kinds" as="array(xs:string)" select="$result?kinds"/>
    <xsl:variable name="texts" as="array(array(*))" select="
        array:join(for $y in 0 to $assignment?model?rows - 1 return
                   [array:join(for $x in 0 to $assignment?model?cols - 1 return
                               [f:slot-header-texts($assignment, $y, $x)])])"/>
    <xsl:sequence select="map {
        'k' : string($result?k), 'p' : string($result?p), 'method' : string($result?method),
        'kind' : string($result?kind), 'roles' : $result?roles,
        'row-kinds' : map:merge(for $i in 1 to array:size($kinds) return
                                $kinds($i)[not(. = ('head', 'data'))] ! map:entry($i - 1, .)),
        'texts' : $texts,
        'row-headers' : some $row in 1 to array:size($texts), $x in 1 to array:size($texts($row))
                        satisfies $texts($row)($x)[1] ne '' }"/>
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

  <xsl:function name="f:cell-role" as="xs:string?">
    <xsl:param name="cell" as="element(px:cell)?"/>
    <xsl:sequence select="$cell ! string($fp:roles(string(@id)))"/>
  </xsl:function>

  <xsl:function name="f:slot-row-headers" as="xs:string?">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="fp:slot-texts($slot)[1]"/>
  </xsl:function>

  <xsl:function name="f:slot-column-headers" as="xs:string?">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="fp:slot-texts($slot)[2]"/>
  </xsl:function>

  <xsl:function name="fp:slot-texts" as="xs:string*">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:variable name="row" as="element(px:row)" select="$slot/parent::px:row"/>
    <xsl:sequence select="$fp:detected(generate-id($row/parent::px:table))
                          ?texts(xs:integer($row/@index) + 1)(xs:integer($slot/@col) + 1)"/>
  </xsl:function>

  <xsl:function name="f:has-row-headers" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?row-headers"/>
  </xsl:function>

  <xsl:function name="f:table-header-rows" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?k"/>
  </xsl:function>

  <xsl:function name="f:table-header-cols" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?p"/>
  </xsl:function>

  <xsl:function name="f:table-header-method" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?method"/>
  </xsl:function>

  <xsl:function name="f:table-kind-of" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?kind"/>
  </xsl:function>

  <xsl:function name="f:table-row-kinds" as="map(xs:integer, xs:string)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$fp:detected(generate-id($table))?row-kinds"/>
  </xsl:function>

</xsl:stylesheet>
