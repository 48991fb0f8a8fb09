<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
      xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function" exclude-result-prefixes="#all">
      <xsl:include href="file:///work/wt-convert/stylesheets/lib/names.xsl"/>
      <xsl:template match="/">
        <names><xsl:for-each select="/texts/t"><n null="{f:is-null(string(.))}">{f:xml-name(string(.), 'field')}</n>
        </xsl:for-each></names>
      </xsl:template>
    </xsl:stylesheet>