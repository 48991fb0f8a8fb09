<?xml version="1.0" encoding="UTF-8"?>
<!-- The label rule of pyxform (stylesheets/lib/labels.xsl: reference marks cut, one line) applied to texts, so that
     a benchmark compares header texts exactly as pyxform labels them: <texts><t>US[18]</t></texts> gives
     <labels><l>US</l></labels>. Used by bench/pairs_truth.py (labels). -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:f="urn:pyxform:function" exclude-result-prefixes="#all" expand-text="yes">
  <xsl:import href="https://pyxform.invalid/stylesheets/lib/labels.xsl"/>
  <xsl:template match="/">
    <labels><xsl:for-each select="/texts/t"><l>{f:label(string(.))}</l></xsl:for-each></labels>
  </xsl:template>
</xsl:stylesheet>
