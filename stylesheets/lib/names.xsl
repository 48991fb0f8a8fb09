<?xml version="1.0" encoding="UTF-8"?>
<!--
  Element names from header text (Zhang & Li 2007, section 3: "Population Statistics" gives population-statistics).

  The rule, applied by f:xml-name to the text of a header cell or caption:
    1. Unicode NFKC normalization (full-width and compatibility forms become plain letters and digits: "km²" gives
       "km2"), whitespace collapsed, lower-cased (fn:lower-case, every script); footnote markers are removed:
       "[9]", "[a]", "[iv]", "[note 3]", "[nb 1]", "[citation needed]" ("UK[9]" gives uk).
    2. A few symbols that carry meaning alone in headers are spelt out: "+/-" and "±" as plus-minus, "#" number,
       "%" percent, "&" and, "+" plus, "@" at. Apostrophes are removed ("Women's" gives womens).
    3. The words are the runs of letters (\p{L}), combining marks (\p{M}) and decimal digits (\p{Nd}) of every
       script; any other character separates words. Characters that XML does not allow in a name are separators too.
       The words are joined with "-", and the name is cut at a word boundary to at most 64 characters.
    4. No word at all (the text is only punctuation or symbols): the caller's fallback name (field, row, table).
    5. A name starting with a digit of any script, or with a character that cannot start an XML name (a combining
       mark), gets a leading "_" ("2010" gives _2010); so does a name starting with "xml", which XML reserves
       ("XML version" gives _xml-version).
  The result is always an NCName. The original text is kept by the caller in a px:label attribute.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <!-- Longest element name made from a header, in characters (cut at a word boundary). -->
  <xsl:variable name="fp:max-name-length" as="xs:integer" select="64"/>

  <!--
    f:xml-name($text, $fallback): the element name for a header text (the rule above).
    $text: the header's visible text, as written. $fallback: the name used when the text has no letter or digit.
    Returns an xs:NCName as a string; never the empty string.
  -->
  <xsl:function name="f:xml-name" as="xs:string" cache="yes">
    <xsl:param name="text" as="xs:string"/>
    <xsl:param name="fallback" as="xs:string"/>
    <xsl:variable name="folded" as="xs:string"
                  select="$text => normalize-unicode('NFKC') => lower-case() => fp:strip-footnotes() => normalize-space()"/>
    <xsl:variable name="words" as="xs:string*"
                  select="fp:name-safe(fp:spell-symbols($folded)) => tokenize('[^\p{L}\p{M}\p{Nd}]+')"/>
    <xsl:variable name="name" as="xs:string" select="fp:join-words($words[. ne ''], '')"/>
    <xsl:sequence select="
        if ($name eq '') then $fallback
        else if (matches($name, '^(\p{Nd}|xml)') or not(substring($name, 1, 1) castable as xs:NCName)) then '_' || $name
        else $name"/>
  </xsl:function>

  <!-- f:is-null($text): true when a header text gives a null tag (Rule 1): nothing but white space, no-break and
       zero-width spaces. -->
  <xsl:function name="f:is-null" as="xs:boolean">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:sequence select="not(matches(string($text), '[^\s\p{Z}\p{Cf}]'))"/>
  </xsl:function>

  <!-- Footnote markers: a bracketed number, letter, roman numeral, "note N", "nb N" or a "... needed" tag. -->
  <xsl:function name="fp:strip-footnotes" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="replace($text,
        '\[\s*([0-9]{1,4}|[a-z]|[ivx]{1,5}|(note|nb|n)\s*[0-9a-z]{1,3}|[a-z ]{1,20} needed)\s*\]', ' ')"/>
  </xsl:function>

  <xsl:function name="fp:spell-symbols" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="
        $text
        => replace('\+\s*/\s*[\-−]|±', ' plus-minus ')
        => replace('#', ' number ')
        => replace('%', ' percent ')
        => replace('&amp;', ' and ')
        => replace('\+', ' plus ')
        => replace('@', ' at ')
        => replace('[''’‘ʼ`´]', '')"/>
  </xsl:function>

  <!-- Replace every character that XML does not allow inside a name by a space (fast path: the whole text). -->
  <xsl:function name="fp:name-safe" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:variable name="letters" as="xs:string" select="replace($text, '[^\p{L}\p{M}\p{Nd}]+', '')"/>
    <xsl:sequence select="
        if ($letters eq '' or ('a' || $letters) castable as xs:NCName) then $text
        else string-join(
               for $c in string-to-codepoints($text) ! codepoints-to-string(.)
               return if (('a' || $c) castable as xs:NCName) then $c else ' ')"/>
  </xsl:function>

  <!-- Join words with "-" while the name stays within the length limit (a first word alone is cut). -->
  <xsl:function name="fp:join-words" as="xs:string">
    <xsl:param name="words" as="xs:string*"/>
    <xsl:param name="name" as="xs:string"/>
    <xsl:variable name="next" as="xs:string?" select="head($words)"/>
    <xsl:sequence select="
        if (empty($next)) then $name
        else if ($name eq '') then fp:join-words(tail($words), substring($next, 1, $fp:max-name-length))
        else if (string-length($name) + 1 + string-length($next) gt $fp:max-name-length) then $name
        else fp:join-words(tail($words), $name || '-' || $next)"/>
  </xsl:function>

</xsl:stylesheet>
