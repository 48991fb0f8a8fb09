<?xml version="1.0" encoding="UTF-8"?>
<!--
  A user's post-processing step (test data and README example): every value of pyxform's output becomes
  <value path="Males/Average/Height">1.78</value> under a root element named by the parameter root, in another
  vocabulary.
-->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:px="urn:pyxform"
                exclude-result-prefixes="#all" expand-text="yes">
  <xsl:param name="root" as="xs:string" select="'dataset'"/>
  <xsl:param name="limit" as="xs:integer" select="1000"/>
  <xsl:output method="xml" indent="yes"/>
  <xsl:template match="/">
    <xsl:message>rename: {count(//*[not(*)][text()])} values</xsl:message>
    <xsl:element name="{$root}">
      <xsl:for-each select="(//*[not(*)][text()])[position() le $limit]">
        <value path="{string-join(ancestor-or-self::*[@px:label][not(@px:table)]/@px:label, '/')}">{.}</value>
      </xsl:for-each>
    </xsl:element>
  </xsl:template>
</xsl:stylesheet>
