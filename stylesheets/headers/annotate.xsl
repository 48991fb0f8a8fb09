<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:annotate: copy one px:table, adding the header annotations of docs/formats.md section 3 from the result map
  of f:detect-headers (tunnel parameter $result):
    px:table  header-rows, header-cols, header-method, kind, and a child px:header-evidence after caption and summary;
    px:cell   role (header, data, section, empty);
    px:slot   row-headers and column-headers (space-separated cell ids) on every slot of a data or empty cell.
  Annotations of an earlier run are replaced, so the stage can run twice on the same grid.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:m="urn:pyxform:mode"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:mode name="m:annotate" on-no-match="shallow-copy" on-multiple-match="fail"/>

  <xsl:template match="px:table" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:apply-templates select="@* except (@header-rows, @header-cols, @header-method, @kind)" mode="#current"/>
      <xsl:attribute name="header-rows" select="$result?k"/>
      <xsl:attribute name="header-cols" select="$result?p"/>
      <xsl:attribute name="header-method" select="$result?method"/>
      <xsl:attribute name="kind" select="$result?kind"/>
      <!-- grid.xsd: caption, summary, header-evidence, then cells, rows and errors -->
      <xsl:apply-templates select="px:caption | px:summary" mode="#current"/>
      <xsl:sequence select="f:evidence($result)"/>
      <xsl:apply-templates select="node() except (px:caption | px:summary | px:header-evidence)" mode="#current"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="px:cell" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:apply-templates select="@* except @role" mode="#current"/>
      <xsl:attribute name="role" select="$result?roles(string(@id))"/>
      <xsl:apply-templates select="node()" mode="#current"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="px:slot" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:variable name="y" as="xs:double" select="number(../@index)"/>
    <xsl:variable name="x" as="xs:double" select="number(@col)"/>
    <!-- (row headers, column headers) -->
    <xsl:variable name="headers" as="xs:string*" select="if ($y ne floor($y) or $x ne floor($x)) then ()
        else f:slot-header-texts($result?assignment, xs:integer($y), xs:integer($x))"/>
    <xsl:copy>
      <xsl:apply-templates select="@* except (@row-headers, @column-headers)" mode="#current"/>
      <xsl:if test="exists($headers)">
        <xsl:attribute name="row-headers" select="$headers[1]"/>
        <xsl:attribute name="column-headers" select="$headers[2]"/>
      </xsl:if>
      <xsl:apply-templates select="node()" mode="#current"/>
    </xsl:copy>
  </xsl:template>

</xsl:stylesheet>
