<?xml version="1.0" encoding="UTF-8"?>
<!--
  Values of data cells (phi(d) of Rule 1, Zhang & Li 2007, section 3) and the links and images of cells.

  f:value($cell): the content of the innermost element of a data slot's chain:
    - attributes href (the URL of each link in the cell, space-separated), src (each image's URL, space-separated)
      and alt (the alt text, when the cell has exactly one image and it has one); URLs are resolved against the page
      URL when the page came from http(s), and spaces in them are written %20;
    - the cell's visible text exactly as the grid has it (never case-folded), when it is not empty;
    - the element of every table nested in the cell (mode m:map-table: Rule 1 applied recursively, any depth).
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

  <xsl:function name="f:value" as="node()*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:call-template name="fp:value">
      <xsl:with-param name="cell" select="$cell"/>
    </xsl:call-template>
  </xsl:function>

  <!-- f:value's content, written straight into the element being built: called where map makes a value's element
       (the column parts), it makes no temporary nodes, which a function returning them does (~1 us a data cell). -->
  <xsl:template name="fp:value">
    <xsl:param name="cell" as="element(px:cell)"/>
    <!-- most cells have no link, image or nested table: one look at the children rules out all three -->
    <xsl:variable name="text-only" as="xs:boolean" select="empty($cell/(px:link | px:image | px:table-ref))"/>
    <xsl:if test="not($text-only)">
      <xsl:sequence select="f:link-attributes($cell)"/>
    </xsl:if>
    <xsl:variable name="text" as="xs:string" select="f:text($cell)"/>
    <xsl:if test="$text ne ''">
      <xsl:value-of select="$text"/>
    </xsl:if>
    <xsl:if test="not($text-only)">
      <xsl:apply-templates select="f:nested-tables($cell)" mode="m:map-table"/>
    </xsl:if>
  </xsl:template>

  <!-- href, src and alt attributes for the links and images of a cell (none when it has neither). -->
  <xsl:function name="f:link-attributes" as="attribute()*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="links" as="element(px:link)*" select="$cell/px:link[normalize-space(@href)]"/>
    <xsl:variable name="images" as="element(px:image)*" select="$cell/px:image"/>
    <!-- the page URL is read, and whether it is http(s) decided, once per cell with a link or an image -->
    <xsl:if test="exists($links) or exists($images)">
      <xsl:variable name="base" as="xs:string" select="string(root($cell)/px:grids/@source)"/>
      <xsl:variable name="http" as="xs:boolean" select="fp:is-http($base)"/>
      <xsl:if test="exists($links)">
        <xsl:attribute name="href" select="$links/fp:url(@href, $base, $http)"/>
      </xsl:if>
      <xsl:if test="$images[normalize-space(@src)]">
        <xsl:attribute name="src" select="$images[normalize-space(@src)]/fp:url(@src, $base, $http)"/>
      </xsl:if>
      <xsl:if test="count($images) eq 1 and normalize-space($images/@alt)">
        <xsl:attribute name="alt" select="$images/@alt"/>
      </xsl:if>
    </xsl:if>
  </xsl:function>

  <!-- Whether a page URL is http or https (the scheme in any case); a plain lower-case prefix (most) is answered
       without the pattern. -->
  <xsl:function name="fp:is-http" as="xs:boolean">
    <xsl:param name="base" as="xs:string"/>
    <xsl:sequence select="starts-with($base, 'http://') or starts-with($base, 'https://')
                          or (contains($base, '://') and matches($base, '^https?://', 'i'))"/>
  </xsl:function>

  <!-- A URL as written (white space collapsed, spaces as %20), resolved against the page URL when that is http(s)
       ($http). -->
  <xsl:function name="fp:url" as="xs:string">
    <xsl:param name="url" as="xs:string"/>
    <xsl:param name="base" as="xs:string"/>
    <xsl:param name="http" as="xs:boolean"/>
    <xsl:variable name="collapsed" as="xs:string" select="normalize-space($url)"/>
    <xsl:variable name="written" as="xs:string"
                  select="if (contains($collapsed, ' ')) then replace($collapsed, ' ', '%20') else $collapsed"/>
    <xsl:choose>
      <xsl:when test="$http">
        <xsl:try select="string(resolve-uri($written, $base))">
          <xsl:catch select="$written"/>
        </xsl:try>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="$written"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

</xsl:stylesheet>
