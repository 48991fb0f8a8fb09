<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage pairs: header-annotated grid -> the attribute-value pairs of its data cells (Zhang & Li 2007, section 5:
  the pairs whose share is recall and precision).

  One px:pair per data slot (lib/slots.xsl: per slot, as Rule 1 reads the normalized table; slots of one cell in one
  row with the same headers are one pair), tables in index order (nested tables are tables of their own):
    <px:pair table="I" row="r" col="c" cell="tI.cN">
      <px:row-header>Males</px:row-header>...         row header labels, outermost first (sections too)
      <px:column-header>Average</px:column-header>... column header labels, top first
      <px:value>1.78</px:value>                       the data cell's text as written
      <px:nested index="5"/>...                       tables nested in the data cell
    </px:pair>
  Header labels are the header texts as f:label gives them (lib/labels.xsl: one line, reference marks cut: "US[18]"
  gives "US"), as in element names, px:label and CSV column names. Empty header cells (null tags) are left out; a
  header spanning several header rows or columns appears once.

  Parameter table: the index of the one table whose pairs are wanted, or -1 for all tables.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:include href="lib/name-characters.xsl"/>
  <xsl:include href="lib/names.xsl"/>
  <xsl:include href="lib/slots.xsl"/>

  <xsl:param name="table" as="xs:integer" select="-1"/>

  <xsl:output method="xml" encoding="UTF-8" indent="no"/>

  <xsl:mode on-no-match="fail"/>

  <xsl:template match="/">
    <xsl:apply-templates select="px:grids"/>
  </xsl:template>

  <xsl:template match="px:grids" as="element(px:pairs)">
    <xsl:if test="$table ge 0 and not(px:table[xs:integer(@index) eq $table])">
      <xsl:message terminate="yes" error-code="px:no-table"
        >[px:no-table] the page has no table {$table} (it has {count(px:table)
        } table(s))</xsl:message>
    </xsl:if>
    <px:pairs source="{@source}">
      <xsl:apply-templates select="px:table[$table lt 0 or xs:integer(@index) eq $table]"/>
    </px:pairs>
  </xsl:template>

  <xsl:template match="px:table" as="element(px:pair)*">
    <xsl:variable name="index" as="xs:string" select="@index"/>
    <xsl:for-each select="f:data-slots(.)">
      <xsl:variable name="cell" as="element(px:cell)" select="f:cell(.)"/>
      <px:pair table="{$index}" row="{../@index}" col="{@col}" cell="{@cell}">
        <xsl:for-each select="f:row-headers(.)">
          <px:row-header>{f:cell-label(.)}</px:row-header>
        </xsl:for-each>
        <xsl:for-each select="f:column-headers(.)">
          <px:column-header>{f:cell-label(.)}</px:column-header>
        </xsl:for-each>
        <px:value>{f:text($cell)}</px:value>
        <xsl:for-each select="f:nested-tables($cell)">
          <px:nested index="{@index}"/>
        </xsl:for-each>
      </px:pair>
    </xsl:for-each>
  </xsl:template>

</xsl:stylesheet>
