<?xml version="1.0" encoding="UTF-8"?>
<!--
  Function library shared by pyxform's stages: microsyntax parsing (WHATWG HTML 2.3.4), text normalization and
  locators. Public functions are in the f: namespace, their helpers in fp:. No function reads a URI.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:px="urn:pyxform"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!--
    ASCII whitespace is written [ &#9;&#10;&#13;] in the regular expressions below (literal, so that Saxon compiles
    each once): U+000C FORM FEED is not an XML character, so it never reaches a stylesheet.
  -->

  <!-- Digit strings longer than this are not converted exactly: every caller clamps far below 10^18. -->
  <xsl:variable name="fp:max-digits" as="xs:integer" select="18"/>

  <!--
    f:parse-non-negative-integer($value): WHATWG HTML 2.3.4.1 "rules for parsing non-negative integers" (through
    2.3.4.1's "rules for parsing integers"): skip leading ASCII whitespace, an optional "+" or "-", then the leading
    run of ASCII digits; anything after the digits is ignored ("2;" gives 2). Returns the empty sequence where the
    rules return an error (no digits, or a negative value; "-0" is 0). A value of more than 18 significant digits is
    returned as 10^18, so no caller ever converts or allocates in proportion to a huge attribute value. A short value
    that is an xs:integer (optional whitespace and sign around ASCII digits: most span values) is cast, without
    the regular expressions: the same number.
  -->
  <xsl:function name="f:parse-non-negative-integer" as="xs:integer?">
    <xsl:param name="value" as="xs:string?"/>
    <xsl:choose>
      <xsl:when test="string-length($value) le 12 and $value castable as xs:integer">
        <xsl:sequence select="xs:integer($value)[. ge 0]"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="fp:parse-non-negative-integer">
          <xsl:with-param name="value" select="$value"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The general steps of f:parse-non-negative-integer, by regular expressions (any value). -->
  <xsl:template name="fp:parse-non-negative-integer" as="xs:integer?">
    <xsl:param name="value" as="xs:string?" required="yes"/>
    <xsl:variable name="match" as="xs:string?"
        select="if (matches(($value, '')[1], '^[ &#9;&#10;&#13;]*[+\-]?[0-9]'))
                then replace($value, '^[ &#9;&#10;&#13;]*([+\-]?)([0-9]+).*$', '$1 $2', 's') else ()"/>
    <xsl:if test="exists($match)">
      <xsl:variable name="sign" as="xs:string" select="substring-before($match, ' ')"/>
      <xsl:variable name="digits" as="xs:string" select="replace(substring-after($match, ' '), '^0+(.)', '$1')"/>
      <xsl:variable name="magnitude" as="xs:integer"
          select="if (string-length($digits) gt $fp:max-digits) then xs:integer('1' || string-join((1 to $fp:max-digits) ! '0'))
                  else xs:integer($digits)"/>
      <xsl:sequence select="if ($sign eq '-' and $magnitude ne 0) then () else $magnitude"/>
    </xsl:if>
  </xsl:template>

  <!--
    f:normalize-visible-text($raw): the last step of pyxform's visible-text rule (docs/formats.md section 2). $raw
    has every source whitespace run already turned into spaces and every line break (br, block boundary) as a line
    feed; this collapses a run of spaces and line feeds that holds a line feed into one line feed, every other run
    of spaces into one space, and trims spaces and line feeds at both ends. U+00A0 is not whitespace here.
  -->
  <xsl:function name="f:normalize-visible-text" as="xs:string">
    <xsl:param name="raw" as="xs:string"/>
    <!-- normalize-space() collapses and trims exactly the characters in play here (space, and line feed as a line) -->
    <xsl:sequence select="if (not(contains($raw, '&#10;'))) then normalize-space($raw)
                          else string-join(tokenize($raw, '&#10;') ! normalize-space()[.], '&#10;')"/>
  </xsl:function>

  <!-- f:collapse-whitespace($text): every run of ASCII whitespace in $text becomes one space (nothing trimmed). -->
  <xsl:function name="f:collapse-whitespace" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="replace($text, '[ &#9;&#10;&#13;]+', ' ')"/>
  </xsl:function>

  <!--
    f:spaces-for-whitespace($text): every ASCII whitespace character of $text becomes a space (runs are left for
    f:normalize-visible-text to collapse; no regular expression, so it is cheap on every text node).
  -->
  <xsl:function name="f:spaces-for-whitespace" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="translate($text, '&#9;&#10;&#13;', '   ')"/>
  </xsl:function>

  <!--
    f:locator($element): an XPath 1.0 path to $element with unprefixed local names and positional predicates among
    same-named siblings, e.g. /html/body/div[2]/table[1] (the form of px:locator in docs/formats.md section 1). Used
    where the input does not carry px:locator.
  -->
  <xsl:function name="f:locator" as="xs:string">
    <xsl:param name="element" as="element()"/>
    <xsl:sequence select="'/' || string-join(
        for $step in $element/ancestor-or-self::*
        return if ($step/parent::*)
               then local-name($step) || '[' || 1 + count($step/preceding-sibling::*[node-name() eq node-name($step)]) || ']'
               else local-name($step), '/')"/>
  </xsl:function>

  <!-- f:cell-id($table-index, $cell-number): the id of a cell in the grid format, "t{table}.c{n}". -->
  <xsl:function name="f:cell-id" as="xs:string">
    <xsl:param name="table-index" as="xs:integer"/>
    <xsl:param name="cell-number" as="xs:integer"/>
    <xsl:sequence select="'t' || $table-index || '.c' || $cell-number"/>
  </xsl:function>

</xsl:stylesheet>
