<?xml version="1.0" encoding="UTF-8"?>
<!--
  The header annotations of a grid (docs/formats.md section 3), as map and the slot rules read them: every read of
  a cell's role, a slot's row-headers and column-headers (and whether a table has any row-headers), a table's header-rows, header-cols, header-method and kind
  and its px:header-evidence row kinds goes through these functions. Here they read the annotated grid that the
  headers stage writes; headers-map.xsl overrides them to read the header detection's results of the grid's tables
  directly, without that annotated copy.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                exclude-result-prefixes="#all">

  <!-- f:cell-role($cell): the cell's role (header, data, section, empty); empty for no cell or a cell without one. -->
  <xsl:function name="f:cell-role" as="xs:string?">
    <xsl:param name="cell" as="element(px:cell)?"/>
    <xsl:sequence select="$cell/@role ! string()"/>
  </xsl:function>

  <!-- f:slot-row-headers($slot): the ids of the slot's row header cells, space-separated (row-headers); empty for a
       slot without the annotation (not a slot of a data or empty cell). -->
  <xsl:function name="f:slot-row-headers" as="xs:string?">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="$slot/@row-headers ! string()"/>
  </xsl:function>

  <!-- f:slot-column-headers($slot): the ids of the slot's column header cells, space-separated (column-headers). -->
  <xsl:function name="f:slot-column-headers" as="xs:string?">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="$slot/@column-headers ! string()"/>
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
