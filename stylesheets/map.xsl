<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage map: header-annotated grid (docs/formats.md sections 2 and 3) -> Rule 1 XML, before the merge rule.

  Zhang & Li 2007, section 3, Rule 1: phi(T) = <c> phi(r(k+1)) ... phi(r(m)) </c>; for a data row, its row header
  cells outermost first as nested elements and, inside, for each data column its column header cells top first as
  nested elements around phi(d(i,j)); phi(d) is the XML of d's table when d holds a table, else d's text. Null tags
  (empty header cells) are dropped with their end tags. How each kind of table maps is described in
  docs/mapping.md.

  Every element made here carries px:key, the identity the merge rule (merge.xsl) uses: elements from the same row
  header cell share it, elements from a column header cell share it only within one data row, record elements and
  tables never share it. merge.xsl removes px:key.

  Parameters:
    names  'paper' (element names from header text, lib/names.xsl) or 'generic' (<field name="Average">).
    table  index of the one table to map (its element becomes the document element), or -1 for every table under a
           <pyxform> document element.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:include href="lib/name-characters.xsl"/>
  <xsl:include href="lib/names.xsl"/>
  <xsl:include href="lib/slots.xsl"/>
  <xsl:include href="lib/annotations.xsl"/>
  <xsl:include href="map/document.xsl"/>
  <xsl:include href="map/table.xsl"/>
  <xsl:include href="map/rows.xsl"/>
  <xsl:include href="map/names.xsl"/>
  <xsl:include href="map/value.xsl"/>
  <xsl:include href="map/entity.xsl"/>

  <!-- paper: element names from the header text (lib/names.xsl); generic: <field name="Average">. -->
  <xsl:param name="names" as="xs:string" select="'paper'" px:values="paper generic"/>
  <xsl:param name="table" as="xs:integer" select="-1"/>

  <xsl:variable name="f:generic-names" as="xs:boolean" select="$names eq 'generic'"/>

  <xsl:output method="xml" encoding="UTF-8" indent="no" omit-xml-declaration="no"/>

  <xsl:mode on-no-match="fail"/>

  <xsl:template match="/">
    <xsl:if test="not($names = ('paper', 'generic'))">
      <xsl:message terminate="yes" error-code="px:bad-parameter"
        >[px:bad-parameter] names must be 'paper' or 'generic', not '{$names}'</xsl:message>
    </xsl:if>
    <xsl:apply-templates select="px:grids" mode="m:document"/>
  </xsl:template>

</xsl:stylesheet>
