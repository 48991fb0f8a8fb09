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
    xmlns:fp="urn:pyxform:function:private"
    xmlns:m="urn:pyxform:mode"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!--
    The test (an XPath expression, with an element as context item) that the element holds only text and elements
    that the general way (mode m:visible-text) goes through for their text: inline phrasing elements and images
    without content. No line break and no hidden text is inside such an element, so its pieces, joined, are its
    string value with each whitespace character as a space (comments and processing instructions add nothing to
    either). f:visible-text takes a container of that kind by its string value, and the general way an element of
    that kind inside a container (rules below: about a tenth of f:visible-text's instructions on real pages, one
    template call per node less). Static variables, so that the three tests are one list. The common names first:
    a test stops at the first that fits.
  -->
  <xsl:variable name="fp:inline-names" static="yes" as="xs:string"
      select="'self::a or self::span or self::i or self::b or self::sup or self::small or self::strong or self::abbr
               or self::sub or self::u or self::s or self::font or self::em or self::code or self::tt or self::big
               or self::img[empty(node())]'"/>
  <xsl:variable name="fp:inline-only" static="yes" as="xs:string"
      select="'empty(descendant::*[not(' || $fp:inline-names || ')])'"/>

  <xsl:mode name="m:visible-text" on-no-match="fail" on-multiple-match="fail"/>

  <!--
    f:visible-text($container): the visible text of the content of $container (a td, th, caption or a): one string
    with line feeds for line breaks, no leading or trailing whitespace, no run of two spaces.
  -->
  <xsl:function name="f:visible-text" as="xs:string">
    <xsl:param name="container" as="element()"/>
    <!-- Each test reads the descendants only up to the first element that decides it. Not through a variable of
         the non-inline elements used by both tests: Saxon evaluated it in full, every element of a nested table
         included (f:visible-text on the cells with element children, every 16th corpus page: 50.5 -> 38-41 ms). -->
    <xsl:choose>
      <!-- only text and inline elements ($fp:inline-only; most cells, links and captions): the string value with its
           whitespace collapsed and trimmed, as the general way gives -->
      <xsl:when _test="empty($container/descendant::*[not({$fp:inline-names})])">
        <xsl:sequence select="normalize-space($container)"/>
      </xsl:when>
      <!-- only text, inline elements and empty br elements (a cell of lines): each text node's whitespace as spaces
           and each br as a line feed, in document order, as the general way gives them -->
      <xsl:when _test="empty($container/descendant::*[not({$fp:inline-names})][not(self::br[empty(node())])])">
        <xsl:sequence select="f:normalize-visible-text(string-join(
                                  $container/descendant::node()[self::text() or self::br]
                                  ! (if (self::br) then '&#10;' else translate(., '&#9;&#10;&#13;', '   '))))"/>
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
    <xsl:choose>
      <!-- a block of only text and inline elements (an li of a link, most blocks): its string value, as the
           rules give it piece by piece ($fp:inline-only) -->
      <xsl:when _test="{$fp:inline-only}">
        <xsl:sequence select="translate(., '&#9;&#10;&#13;', '   ')"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:apply-templates mode="m:visible-text"/>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:sequence select="'&#10;'"/>
  </xsl:template>

  <xsl:template match="table" mode="m:visible-text" as="xs:string">
    <xsl:sequence select="'&#10;'"/>
  </xsl:template>

  <xsl:template match="img | script | style | template | noscript | iframe | noembed | noframes | rp" mode="m:visible-text" as="empty-sequence()"/>

  <!-- an element of only text and inline elements (that is not one of the above): its string value, as the rule
       below gives it piece by piece ($fp:inline-only) -->
  <xsl:template _match="*[{$fp:inline-only}]" mode="m:visible-text" as="xs:string" priority="-0.25">
    <xsl:sequence select="translate(., '&#9;&#10;&#13;', '   ')"/>
  </xsl:template>

  <xsl:template match="*" mode="m:visible-text" as="xs:string*">
    <xsl:apply-templates mode="m:visible-text"/>
  </xsl:template>

  <xsl:template match="comment() | processing-instruction()" mode="m:visible-text" as="empty-sequence()"/>

</xsl:stylesheet>
