<?xml version="1.0" encoding="UTF-8"?>
<!-- Test data: a dynamic error on line 7 (FORG0001), a terminating message with a code, or a read of a URI. -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:my="urn:example" expand-text="yes">
  <xsl:param name="kind" as="xs:string" select="'cast'"/>
  <xsl:param name="uri" as="xs:string" select="''"/>
  <xsl:template match="/"><xsl:message>starting {$kind}</xsl:message><xsl:if test="$kind = 'cast'"><r><xsl:sequence select="xs:integer('abc')"/></r></xsl:if>
    <xsl:if test="$kind = 'stop'">
      <xsl:message terminate="yes" error-code="my:stop">stopped on purpose</xsl:message>
    </xsl:if>
    <xsl:if test="$kind = 'read'">
      <r><xsl:value-of select="unparsed-text($uri)"/></r>
    </xsl:if>
    <xsl:if test="$kind = 'doc'">
      <r><xsl:copy-of select="doc($uri)"/></r>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
