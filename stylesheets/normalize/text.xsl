<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:visible-text: the visible text of a cell or caption (docs/formats.md section 2, "Visible text"), as a
  sequence of strings that f:visible-text joins and normalizes. Every source whitespace run becomes one space; br
  and the start and end of a block element become a line feed; a nested table is a block whose text is left out
  (it is a table of its own); img contributes nothing (its alt goes to px:image); script, style, template,
  noscript, iframe, noembed, noframes (raw text or fallback that browsers do not render) and rp (display: none in
  the user-agent stylesheet) are never rendered as text.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:f="urn:pyxform:function"
    xmlns:m="urn:pyxform:mode"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:mode name="m:visible-text" on-no-match="fail" on-multiple-match="fail"/>

  <!--
    f:visible-text($container): the visible text of the content of $container (a td, th, caption or a): one string
    with line feeds for line breaks, no leading or trailing whitespace, no run of two spaces.
  -->
  <xsl:function name="f:visible-text" as="xs:string">
    <xsl:param name="container" as="element()"/>
    <xsl:choose>
      <!-- only text, or only elements that the general way goes through for their text (inline phrasing elements,
           images without content; most cells, links and captions): no line break, no hidden text, so the text is the
           string value with its whitespace collapsed and trimmed, as the general way gives. The common names first:
           a test stops at the first that fits. -->
      <xsl:when test="empty($container/descendant::*[not(self::a or self::span or self::i or self::b or self::sup
                          or self::small or self::strong or self::abbr or self::sub or self::u or self::s or self::font
                          or self::em or self::code or self::tt or self::big or self::img[empty(node())])])">
        <xsl:sequence select="normalize-space($container)"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="pieces" as="xs:string*">
          <xsl:apply-templates select="$container/node()" mode="m:visible-text"/>
        </xsl:variable>
        <xsl:sequence select="f:normalize-visible-text(string-join($pieces))"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- every ASCII whitespace character becomes a space (f:normalize-visible-text collapses the runs): the translation
       of f:spaces-for-whitespace, inline, since a function call per text node costs more than the translation -->
  <xsl:template match="text()" mode="m:visible-text" as="xs:string">
    <xsl:sequence select="translate(., '&#9;&#10;&#13;', '   ')"/>
  </xsl:template>

  <xsl:template match="br" mode="m:visible-text" as="xs:string">
    <xsl:sequence select="'&#10;'"/>
  </xsl:template>

  <xsl:template match="p | div | li | ul | ol | dl | dt | dd | h1 | h2 | h3 | h4 | h5 | h6 | pre | blockquote | address
                       | hr | figure | figcaption | section | article | header | footer | nav | aside | main | form
                       | fieldset | center" mode="m:visible-text" as="xs:string*">
    <xsl:sequence select="'&#10;'"/>
    <xsl:apply-templates mode="m:visible-text"/>
    <xsl:sequence select="'&#10;'"/>
  </xsl:template>

  <xsl:template match="table" mode="m:visible-text" as="xs:string">
    <xsl:sequence select="'&#10;'"/>
  </xsl:template>

  <xsl:template match="img | script | style | template | noscript | iframe | noembed | noframes | rp" mode="m:visible-text" as="empty-sequence()"/>

  <xsl:template match="*" mode="m:visible-text" as="xs:string*">
    <xsl:apply-templates mode="m:visible-text"/>
  </xsl:template>

  <xsl:template match="comment() | processing-instruction()" mode="m:visible-text" as="empty-sequence()"/>

</xsl:stylesheet>
