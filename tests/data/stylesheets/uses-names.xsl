<?xml version="1.0" encoding="UTF-8"?>
<!-- Test data: imports pyxform's names module by its public URI (resolved by pyxform's XML catalog, offline). -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function"
                exclude-result-prefixes="#all" expand-text="yes">
  <xsl:import href="https://pyxform.invalid/stylesheets/lib/name-characters.xsl"/>
  <xsl:import href="https://pyxform.invalid/stylesheets/lib/names.xsl"/>
  <xsl:template match="/">
    <names>
      <xsl:for-each select="//label">
        <name>{f:xml-name(string(.), 'field')}</name>
      </xsl:for-each>
    </names>
  </xsl:template>
</xsl:stylesheet>
