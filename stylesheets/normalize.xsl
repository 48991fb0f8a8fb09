<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage 2, normalize: annotated XHTML (docs/formats.md section 1) -> grid (section 2, schemas/grid.xsd).

  Every table element of the page, nested ones included, in document order, becomes a px:table: the WHATWG HTML
  table model ("forming a table", HTML 4.9.12.1) with every slot filled, or a px:table-failure. Modules:
    normalize/rows.xsl   the table model: rows and row groups, cell anchors and effective spans (functions)
    normalize/grid.xsl   the dense grid (named templates) and the table model errors (functions)
    normalize/table.xsl  mode m:normalize-table: one table -> px:table or px:table-failure
    normalize/simple.xsl the direct path of a simple table: anchors from its rows, its px:table from its row groups
    normalize/cells.xsl  fp:cell-content: one td/th -> the content of its px:cell
    normalize/text.xsl   mode m:visible-text: the visible text of a cell or caption
    normalize/functions.xsl the stage's functions (WHATWG microsyntaxes, text normalization, locators)
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:m="urn:pyxform:mode"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:include href="normalize/functions.xsl"/>
  <xsl:include href="normalize/rows.xsl"/>
  <xsl:include href="normalize/grid.xsl"/>
  <xsl:include href="normalize/table.xsl"/>
  <xsl:include href="normalize/simple.xsl"/>
  <xsl:include href="normalize/cells.xsl"/>
  <xsl:include href="normalize/text.xsl"/>

  <!-- Most slots (rows x columns) in one table; a bigger table becomes a px:table-failure with code limit. -->
  <xsl:param name="max-slots" as="xs:integer" select="4000000"/>
  <!-- Deepest nesting of a table inside table cells; a deeper table becomes a px:table-failure with code limit. -->
  <xsl:param name="max-depth" as="xs:integer" select="64"/>
  <!-- Normalize only the table with this index (0-based, document order); -1 for every table. -->
  <xsl:param name="only-table" as="xs:integer" select="-1"/>

  <xsl:output method="xml" encoding="UTF-8" indent="no" omit-xml-declaration="yes"/>

  <xsl:mode on-no-match="fail" on-multiple-match="fail"/>

  <!-- The result is the document node of xsl:document below (px:grids). No "as" on this template: Saxon checks a
       declared document-node(element(px:grids)) by building the whole grid first and passing it on as a finished
       tree (a third of the stage's instructions on a page of small tables; none of them with the check left out). -->
  <xsl:template match="/">
    <xsl:variable name="tables" as="element(table)*" select="//table"/>
    <xsl:variable name="table-indexes" as="map(xs:string, xs:integer)"
        select="map:merge(for $position in 1 to count($tables)
                          return $tables[$position] ! map { generate-id(): (@px:index[. castable as xs:integer] ! xs:integer(.),
                                                                             $position - 1)[1] })"/>
    <xsl:document>
      <px:grids>
        <xsl:for-each select="/*/(@px:source, @px:title, @px:encoding)">
          <xsl:attribute name="{local-name()}" select="."/>
        </xsl:for-each>
        <xsl:apply-templates mode="m:normalize-table"
            select="if ($only-table lt 0) then $tables else $tables[$table-indexes(generate-id()) eq $only-table]">
          <xsl:with-param name="table-indexes" select="$table-indexes" tunnel="yes"/>
        </xsl:apply-templates>
      </px:grids>
    </xsl:document>
  </xsl:template>

</xsl:stylesheet>
