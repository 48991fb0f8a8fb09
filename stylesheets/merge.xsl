<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage merge: Rule 1 XML -> output XML, by the merge rule of Zhang & Li 2007, section 4:
    <t1><t2>s2</t2></t1><t1><t3>s3</t3></t1> = <t1><t2>s2</t2><t3>s3</t3></t1>, applied recursively.

  Two adjacent sibling elements merge when
    - they have the same name and the same px:key (map.xsl gives elements made from the same header cell the same
      key, within one data row for column headers; a record <row>, a table and each value have keys of their own, so
      two rows headed "Total" by two different cells, or two records of a table without row headers, never merge;
      input without px:key merges on the name alone, as the paper states the rule), and
    - both hold elements only (no text): values are never concatenated.
  The merged element keeps the first one's attributes and takes the children of all, in order, merged in turn.
  Whitespace-only text between elements is not significant and is dropped. px:key is removed from the output.
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

  <xsl:output method="xml" encoding="UTF-8" indent="yes" omit-xml-declaration="no"/>
  <xsl:strip-space elements="*"/>

  <xsl:mode on-no-match="fail"/>

  <xsl:template match="document-node()">
    <xsl:document>
      <xsl:sequence select="f:merge(node())"/>
    </xsl:document>
  </xsl:template>

  <!-- f:merge($nodes): the nodes with adjacent mergeable siblings merged, recursively. -->
  <xsl:function name="f:merge" as="node()*">
    <xsl:param name="nodes" as="node()*"/>
    <xsl:choose>
      <!-- no two adjacent nodes with the same name (a value's text, a record's fields, an only child): nothing merges,
           no key needed (nodes of different names never merge) -->
      <xsl:when test="every $i in 2 to count($nodes)
                      satisfies not(node-name($nodes[$i]) = node-name($nodes[$i - 1]))">
        <xsl:for-each select="$nodes">
          <xsl:choose>
            <!-- an element without element children (a value: most elements) has nothing to merge inside: its
                 children are copied as they are, without a call of f:merge on them -->
            <xsl:when test=". instance of element() and empty(*)">
              <xsl:copy>
                <xsl:sequence select="@* except @px:key"/>
                <xsl:sequence select="node()"/>
              </xsl:copy>
            </xsl:when>
            <xsl:when test=". instance of element()">
              <xsl:copy>
                <xsl:sequence select="@* except @px:key"/>
                <xsl:sequence select="f:merge(node())"/>
              </xsl:copy>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="."/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:for-each-group select="$nodes" group-adjacent="fp:merge-key(.)">
          <xsl:choose>
            <xsl:when test=". instance of element()">
              <xsl:copy>
                <xsl:sequence select="@* except @px:key"/>
                <xsl:sequence select="f:merge(current-group()/node())"/>
              </xsl:copy>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="current-group()"/>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:for-each-group>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- Equal for nodes that merge with each other; unique for every other node. -->
  <xsl:function name="fp:merge-key" as="xs:string">
    <xsl:param name="node" as="node()"/>
    <xsl:sequence select="
        if ($node instance of element() and exists($node/*) and not($node/text()[normalize-space()]))
        then string-join(('element', namespace-uri($node), local-name($node), string($node/@px:key)), '&#9;')
        else generate-id($node)"/>
  </xsl:function>

</xsl:stylesheet>
