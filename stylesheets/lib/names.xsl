<?xml version="1.0" encoding="UTF-8"?>
<!--
  Element names from header text (Zhang & Li 2007, section 3: "Population Statistics" gives population-statistics).
  Needs lib/name-characters.xsl (the name characters of XML 1.0, fourth edition); includes lib/labels.xsl (the rule
  for reference marks).

  The rule, applied by f:xml-name to the text of a header cell or caption:
    1. Unicode NFKC normalization (full-width and compatibility forms become plain letters and digits: "km²" gives
       "km2"), the label rule of lib/labels.xsl (reference marks cut: "UK[9]" gives uk; white space collapsed),
       lower-cased (fn:lower-case, every script).
    2. A few symbols that carry meaning alone in headers are spelt out: "+/-" and "±" as plus-minus, "#" number,
       "%" percent, "&" and, "+" plus, "@" at. Apostrophes are removed ("Women's" gives womens).
    3. The words are the runs of letters (\p{L}), combining marks (\p{M}) and decimal digits (\p{Nd}) of every
       script; any other character separates words. Within a word, a character that XML 1.0 (fourth edition) does
       not allow in names is replaced by its canonical decomposition when that consists of allowed characters
       ("ș" U+0219 becomes s + U+0326), else written _xHHHH_ with its code point in hexadecimal (as SQL/XML and .NET
       escape names), so letters of every script are kept and every XML processor accepts the name. A word holds no
       "_" (it separates words), so the escapes read back unambiguously: replacing each _xHHHH_ by its character
       gives the word again (in canonical decomposition where a character was decomposed).
    4. The words are joined with "-", and the name is cut at a word boundary to at most 64 characters (a first word
       longer than that is cut at a character boundary: an escape is never split).
    5. No word at all (the text is only punctuation or symbols): the caller's fallback name (field, row, table).
    6. A name that does not start with a letter (a digit of any script, a combining mark, an escape) gets a leading
       "_" ("2010" gives _2010); so does a name starting with "xml", which XML reserves ("XML version" gives
       _xml-version).
  The result is always an NCName under every edition of XML 1.0. The original text is kept by the caller in a
  px:label attribute.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:include href="labels.xsl"/>

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
    <!-- an ASCII text (most labels) is its own NFKC normalization and stays ASCII through steps 1 and 2; its words are
         then its runs of ASCII letters and digits, all name characters, split without the regular expression (whose
         Unicode classes cost ~0.5 us a character) -->
    <xsl:variable name="ascii" as="xs:boolean" select="max((0, string-to-codepoints($text))) lt 128"/>
    <xsl:variable name="folded" as="xs:string" select="
        (if ($ascii) then $text else normalize-unicode($text, 'NFKC')) => f:label() => lower-case()"/>
    <xsl:variable name="spelled" as="xs:string" select="fp:spell-symbols($folded)"/>
    <xsl:variable name="words" as="xs:string*" select="
        if ($ascii) then tokenize(translate($spelled, $fp:ascii-separators, $fp:ascii-spaces))
        else tokenize($spelled, '[^\p{L}\p{M}\p{Nd}]+')[. ne ''] ! fp:name-word(.)"/>
    <!-- words that fit the length limit together are all kept (fp:join-words keeps each while they fit) -->
    <xsl:variable name="joined" as="xs:string" select="string-join($words, '-')"/>
    <xsl:variable name="name" as="xs:string" select="if (string-length($joined) le $fp:max-name-length) then $joined
                                                     else fp:join-words($words, '')"/>
    <xsl:sequence select="
        if ($name eq '') then $fallback
        else if (not(fp:starts-name($name)) or starts-with($name, 'xml')) then '_' || $name
        else $name"/>
  </xsl:function>

  <!-- The ASCII characters that a string may hold (XML 1.0) and that are not letters or digits (in an ASCII text, the
       characters that separate words: rule 3), and as many spaces. -->
  <xsl:variable name="fp:ascii-separators" as="xs:string"
                select="codepoints-to-string((9, 10, 13, 32 to 47, 58 to 64, 91 to 96, 123 to 127))"/>
  <xsl:variable name="fp:ascii-spaces" as="xs:string"
                select="string-join((1 to string-length($fp:ascii-separators)) ! ' ')"/>

  <!-- A name starts with a letter or "_"; a word holds letters, combining characters, digits and extenders. (Saxon
       compiles a regular expression that is not a literal at every call: with these character classes, ~0.1 ms.) -->
  <xsl:variable name="fp:name-start" as="xs:string" select="'^[' || $f:name-letters || '_]'"/>
  <xsl:variable name="fp:name-word" as="xs:string" select="'^[' || $f:name-letters || $f:name-others || ']+$'"/>

  <!-- Whether a name (not empty) starts with a letter or "_": a name starting with an ASCII character (most) is
       answered without the regular expression. -->
  <xsl:function name="fp:starts-name" as="xs:boolean">
    <xsl:param name="name" as="xs:string"/>
    <xsl:variable name="first" as="xs:integer" select="string-to-codepoints(substring($name, 1, 1))"/>
    <xsl:sequence select="if ($first gt 127) then matches($name, $fp:name-start)
                          else ($first ge 97 and $first le 122) or ($first ge 65 and $first le 90) or $first eq 95"/>
  </xsl:function>

  <!-- One word with every character a name may not hold decomposed or escaped (rule 3). -->
  <xsl:function name="fp:name-word" as="xs:string">
    <xsl:param name="word" as="xs:string"/>
    <!-- ASCII letters and digits (most words) are name characters: answered without the regular expression -->
    <xsl:sequence select="
        if (translate($word, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', '') eq '') then $word
        else if (matches($word, $fp:name-word)) then $word
        else string-join(
               for $code in string-to-codepoints($word)
               return let $character := codepoints-to-string($code),
                          $decomposed := normalize-unicode($character, 'NFD')
               return if (matches($character, $fp:name-word)) then $character
                      else if (matches($decomposed, $fp:name-word)) then $decomposed
                      else '_x' || fp:hex($code, if ($code gt 65535) then 8 else 4) || '_')"/>
  </xsl:function>

  <!-- $number in upper-case hexadecimal, at least $digits digits. -->
  <xsl:function name="fp:hex" as="xs:string">
    <xsl:param name="number" as="xs:integer"/>
    <xsl:param name="digits" as="xs:integer"/>
    <xsl:variable name="last" as="xs:string" select="substring('0123456789ABCDEF', $number mod 16 + 1, 1)"/>
    <xsl:sequence select="
        if ($number lt 16 and $digits le 1) then $last
        else fp:hex($number idiv 16, $digits - 1) || $last"/>
  </xsl:function>

  <!-- f:is-null($text): true when a header text gives a null tag (Rule 1): nothing but white space, no-break and
       zero-width spaces. -->
  <xsl:function name="f:is-null" as="xs:boolean">
    <xsl:param name="text" as="xs:string?"/>
    <!-- a text starting with a printable ASCII character other than the space is answered without the regular
         expression (several microseconds a call) -->
    <xsl:variable name="first" as="xs:integer?" select="string-to-codepoints(substring(string($text), 1, 1))"/>
    <xsl:sequence select="if (empty($first)) then true()
                          else if ($first ge 33 and $first le 126) then false()
                          else not(matches(string($text), '[^\s\p{Z}\p{Cf}]'))"/>
  </xsl:function>

  <xsl:function name="fp:spell-symbols" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <!-- a text without any of the symbols (most labels) is returned without the seven regular expressions -->
    <xsl:sequence select="
        if (translate($text, '+±#%&amp;@''’‘ʼ`´', '') eq $text) then $text
        else $text
        => replace('\+\s*/\s*[\-−]|±', ' plus-minus ')
        => replace('#', ' number ')
        => replace('%', ' percent ')
        => replace('&amp;', ' and ')
        => replace('\+', ' plus ')
        => replace('@', ' at ')
        => replace('[''’‘ʼ`´]', '')"/>
  </xsl:function>

  <!-- Join words with "-" while the name stays within the length limit (a first word alone is cut, at a character
       boundary: fp:cut-word). -->
  <xsl:function name="fp:join-words" as="xs:string">
    <xsl:param name="words" as="xs:string*"/>
    <xsl:param name="name" as="xs:string"/>
    <xsl:variable name="next" as="xs:string?" select="head($words)"/>
    <xsl:sequence select="
        if (empty($next)) then $name
        else if ($name eq '') then fp:join-words(tail($words), fp:cut-word($next))
        else if (string-length($name) + 1 + string-length($next) gt $fp:max-name-length) then $name
        else fp:join-words(tail($words), $name || '-' || $next)"/>
  </xsl:function>

  <!-- An escaped word cut to at most $fp:max-name-length characters without splitting an escape _xHHHH_ (a word
       holds "_" only in escapes). -->
  <xsl:function name="fp:cut-word" as="xs:string">
    <xsl:param name="word" as="xs:string"/>
    <xsl:choose>
      <xsl:when test="string-length($word) le $fp:max-name-length">
        <xsl:sequence select="$word"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:iterate select="analyze-string($word, '_x[0-9A-F]+_|.', 's')/*:match ! string()">
          <xsl:param name="kept" as="xs:string" select="''"/>
          <xsl:on-completion select="$kept"/>
          <xsl:choose>
            <xsl:when test="string-length($kept) + string-length(.) gt $fp:max-name-length">
              <xsl:break select="$kept"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:next-iteration>
                <xsl:with-param name="kept" select="$kept || ."/>
              </xsl:next-iteration>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:iterate>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

</xsl:stylesheet>
