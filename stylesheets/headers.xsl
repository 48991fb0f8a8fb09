<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage headers (docs/formats.md section 3): grid -> grid with header annotations.

  For every px:table: k header rows and p header columns (Zhang & Li 2007, Table 2), how they were found
  (header-method markup | format | none) with the scores that decided it (px:header-evidence), the table's kind
  (relational | entity | matrix | layout), the role of every cell, and the header cells of every data slot
  (row-headers, column-headers).

  Parameters (headers/params.xsl): method = auto | markup | format; table = index of the one table to annotate
  (-1: all); the weights and thresholds of the formatting method.

  Modules: headers/model.xsl (table model), markup.xsl (th/thead), format.xsl (formatting scores), boundary.xsl
  (the boundary rule), content.xsl (content evidence), rows.xsl (section, repeated header and summary rows),
  roles.xsl (each cell's role), assign.xsl (the WHATWG assignment of header cells), kind.xsl (the table's kind),
  decide.xsl (which method decides), evidence.xsl, annotate.xsl (output).
  Function library: headers/functions.xsl; the rule for reference marks: lib/labels.xsl.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:m="urn:pyxform:mode"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:include href="lib/labels.xsl"/>
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
  <xsl:include href="headers/evidence.xsl"/>
  <xsl:include href="headers/annotate.xsl"/>

  <xsl:output method="xml" encoding="UTF-8" indent="no" omit-xml-declaration="yes"/>

  <xsl:mode on-no-match="shallow-copy"/>

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
    <xsl:apply-templates/>
  </xsl:template>

  <xsl:template match="px:table[$table lt 0 or string(@index) eq string($table)]">
    <xsl:apply-templates select="." mode="m:annotate">
      <xsl:with-param name="result" as="map(*)" select="f:detect-headers(., $method)" tunnel="yes"/>
    </xsl:apply-templates>
  </xsl:template>

</xsl:stylesheet>
