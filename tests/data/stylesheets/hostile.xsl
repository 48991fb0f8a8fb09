<?xml version="1.0" encoding="UTF-8"?>
<!--
  A hostile stylesheet for tests/test_saxon_lockdown.py: every way XSLT 3.0 / XPath 3.1 has to read a URI, evaluate
  an expression or write a file, each steered by the input document (as a page would try to steer a stylesheet).
  $probe picks one. Compiled into a fresh SaxonRuntime, which is then locked like pyxform's own.
-->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema" exclude-result-prefixes="#all" expand-text="yes">
  <xsl:param name="probe" as="xs:string" select="'doc'"/>

  <xsl:template match="/">
    <xsl:variable name="uri" as="xs:string" select="string(/page/uri)"/>
    <out>
      <xsl:choose>
        <xsl:when test="$probe = 'doc'"><xsl:sequence select="string(doc($uri))"/></xsl:when>
        <xsl:when test="$probe = 'document'"><xsl:sequence select="string(document($uri))"/></xsl:when>
        <xsl:when test="$probe = 'doc-available'"><xsl:sequence select="doc-available($uri)"/></xsl:when>
        <xsl:when test="$probe = 'collection'"><xsl:sequence select="count(collection($uri))"/></xsl:when>
        <xsl:when test="$probe = 'uri-collection'"><xsl:sequence select="string-join(uri-collection($uri), ' ')"/></xsl:when>
        <xsl:when test="$probe = 'unparsed-text'"><xsl:sequence select="unparsed-text($uri)"/></xsl:when>
        <xsl:when test="$probe = 'unparsed-text-lines'"><xsl:sequence select="unparsed-text-lines($uri)"/></xsl:when>
        <xsl:when test="$probe = 'unparsed-text-available'"><xsl:sequence select="unparsed-text-available($uri)"/></xsl:when>
        <xsl:when test="$probe = 'json-doc'"><xsl:sequence select="serialize(json-doc($uri), map{'method': 'json'})"/></xsl:when>
        <xsl:when test="$probe = 'evaluate'"><xsl:evaluate xpath="string(/page/xpath)" context-item="."/></xsl:when>
        <xsl:when test="$probe = 'evaluate-doc'"><xsl:evaluate xpath="'string(doc(''' || $uri || '''))'"/></xsl:when>
        <xsl:when test="$probe = 'transform'">
          <xsl:sequence select="string(transform(map{'stylesheet-location': $uri, 'source-node': .})?output)"/>
        </xsl:when>
        <xsl:when test="$probe = 'source-document'">
          <xsl:source-document href="{$uri}" streamable="no"><xsl:sequence select="string(.)"/></xsl:source-document>
        </xsl:when>
        <xsl:when test="$probe = 'result-document'">
          <xsl:result-document href="{/page/out}" method="text">written by a page</xsl:result-document>
        </xsl:when>
        <xsl:when test="$probe = 'parse-xml'"><xsl:sequence select="string(parse-xml(string(/page/xml)))"/></xsl:when>
      </xsl:choose>
    </out>
  </xsl:template>
</xsl:stylesheet>
