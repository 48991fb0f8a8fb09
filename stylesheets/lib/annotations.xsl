<?xml version="1.0" encoding="UTF-8"?>
<!--
  The header annotations of a table as map reads them by table (docs/formats.md section 3): its header-rows,
  header-cols, header-method, kind, px:header-evidence row kinds, whether a slot has row header cells, and the roles
  of some cells. Here they read the annotated grid; headers-map.xsl overrides them (and map's functions that read a
  table's slots: fp:data-rows, fp:empty-rows, f:data-slots, f:note-rows) to read the header detection's results.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all">

  <!-- fp:is-annotated($table): whether the table has header annotations (header-rows and header-cols). -->
  <xsl:function name="fp:is-annotated" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="exists($table/@header-rows) and exists($table/@header-cols)"/>
  </xsl:function>

  <!-- f:cell-roles($cells): the role of each cell (header, data, section, empty; '' for a cell without one), in
       order. -->
  <xsl:function name="f:cell-roles" as="xs:string*">
    <xsl:param name="cells" as="element(px:cell)*"/>
    <xsl:sequence select="$cells ! string(@role)"/>
  </xsl:function>

  <!-- f:has-row-headers($table): whether a slot of the table has row header cells (a row-headers value other than
       ''). -->
  <xsl:function name="f:has-row-headers" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="exists($table/px:row/px:slot[@row-headers ne ''])"/>
  </xsl:function>

  <!-- f:table-header-rows($table): the table's number of header rows k (header-rows); empty for a table without the
       annotations. -->
  <xsl:function name="f:table-header-rows" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$table/@header-rows ! string()"/>
  </xsl:function>

  <!-- f:table-header-cols($table): the table's number of header columns p (header-cols). -->
  <xsl:function name="f:table-header-cols" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$table/@header-cols ! string()"/>
  </xsl:function>

  <!-- f:table-header-method($table): how the table's header region was found (header-method: markup, format, none). -->
  <xsl:function name="f:table-header-method" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$table/@header-method ! string()"/>
  </xsl:function>

  <!-- f:table-kind-of($table): the table's kind (kind: relational, entity, matrix, layout). -->
  <xsl:function name="f:table-kind-of" as="xs:string?">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="$table/@kind ! string()"/>
  </xsl:function>

  <!-- f:table-row-kinds($table): map { row index : kind } of the rows that are neither head nor data rows (section,
       repeated header, summary, note: px:header-evidence/px:row-kind). -->
  <xsl:function name="f:table-row-kinds" as="map(xs:integer, xs:string)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="map:merge($table/px:header-evidence/px:row-kind ! map { xs:integer(@row) : string(@kind) })"/>
  </xsl:function>

</xsl:stylesheet>
