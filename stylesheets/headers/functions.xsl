<?xml version="1.0" encoding="UTF-8"?>
<!--
  Function library of the headers stage: what a cell's text is (blank, null, numeric, text), its script and
  initial case, trailing colons, the HTML font-size scale, and small statistics (mean, median, mode).

  Public functions (f:) are used by the modules under headers/; fp: functions are private helpers.
  Every threshold named here is documented in docs/headers.md with its reason.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- ===================================================================================================== -->
  <!-- Text                                                                                                  -->
  <!-- ===================================================================================================== -->

  <!-- True if the text shows nothing: only whitespace, no-break spaces, zero-width and other format chars. A text
       that starts with a printable ASCII character other than the space (most texts) is answered without the
       regular expression, which costs several microseconds a call (this runs once per cell). -->
  <xsl:function name="f:is-blank" as="xs:boolean">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:variable name="first" as="xs:integer?" select="string-to-codepoints(substring(string($text), 1, 1))"/>
    <xsl:sequence select="if (empty($first)) then true()
                          else if ($first ge 33 and $first le 126) then false()
                          else matches(string($text), '^[\s\p{Z}\p{Cf}]*$')"/>
  </xsl:function>

  <!--
    The content type of a cell's text, for the content evidence of the headers stage:
      blank    nothing visible;
      null     a placeholder with no letter or digit ("-", "—", "?", "*") or n/a;
      numeric  numbers, measures, money, percentages, ranges, times and dates: at least one digit and at least as
               many digits as letters (after reference marks are cut, lib/labels.xsl), or an English month name next to a
               number ("12 March 2010", "Mar 3");
      text     anything else.
  -->
  <xsl:function name="f:content-type" as="xs:string">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:sequence select="if (f:is-blank($text)) then 'blank'
                          else f:clean-content-type(normalize-space(f:strip-marks($text)))"/>
  </xsl:function>

  <!-- f:content-type of a text that is not blank, given its clean form (reference marks cut, spaces normalized):
       f:cell-features computes the clean form once for the type and the length. -->
  <xsl:function name="f:clean-content-type" as="xs:string">
    <xsl:param name="clean" as="xs:string"/>
    <xsl:sequence select="fp:clean-content-type($clean, fp:ascii-rest($clean))"/>
  </xsl:function>

  <!-- A text without its printable ASCII characters (space to ~): '' for a text of printable ASCII alone. -->
  <xsl:function name="fp:ascii-rest" as="xs:string">
    <xsl:param name="clean" as="xs:string"/>
    <xsl:sequence select="translate($clean, ' !&quot;#$%&amp;''()*+,-./0123456789:;&lt;=&gt;?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~', '')"/>
  </xsl:function>

  <!-- f:clean-content-type given the clean text's fp:ascii-rest ($rest: f:cell-features reads it for the script too). -->
  <xsl:function name="fp:clean-content-type" as="xs:string">
    <xsl:param name="clean" as="xs:string"/>
    <xsl:param name="rest" as="xs:string"/>
    <!-- printable ASCII (most cells, and most characters of the others) is recognized and counted with translate(),
         which costs far less than a regular expression: Saxon's cost ~0.4 us per character of the text it reads.
         The regular expressions read only the characters outside printable ASCII ($rest): the ASCII letters and
         digits are counted with translate() (\p{L} and \p{Nd} hold no other ASCII character), so the counts are
         those of the regular expressions over the whole text. -->
    <xsl:variable name="letters" as="xs:integer" select="string-length($clean) - string-length(translate($clean,
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', ''))
        + (if ($rest eq '') then 0 else string-length(replace($rest, '\P{L}+', '')))"/>
    <xsl:variable name="digits" as="xs:integer" select="string-length($clean) - string-length(translate($clean,
        '0123456789', '')) + (if ($rest eq '') then 0 else string-length(replace($rest, '\P{Nd}+', '')))"/>
    <!-- the placeholders below have at most four characters, and lower-case() shortens no text: a longer text is not
         lower-cased for the test -->
    <xsl:sequence select="
        if ($letters + $digits eq 0
            or (string-length($clean) le 4 and lower-case($clean) = ('n/a', 'n.a.', 'na', 'tba', 'tbd'))) then 'null'
        else if ($digits gt 0 and $digits ge $letters) then 'numeric'
        else if ($digits gt 0 and fp:has-month-date($clean)) then 'numeric'
        else 'text'"/>
  </xsl:function>

  <!-- A month name next to a number ("12 March 2010", "Mar 3"), in a clean text (spaces normalized: single spaces, none
       at either end). Literal patterns, so that Saxon compiles them once. The case-blind patterns cost ~0.4 us per
       character they read, so a text without any month abbreviation is answered by contains() alone, and the patterns
       read only the words next to a word that starts (ends) with a digit: a pattern's "\s+" is one space between two
       words of a clean text, and a word holds no space, so the text matches
         (^|[^a-z])(jan|...|dec)[a-z]*\.?,?\s+\d{1,4}   if and only if a word matches (^|[^a-z])(jan|...|dec)[a-z]*\.?,?$
                                                      and the next word starts with a digit (\d);
         \d{1,2}\.?\s+(jan|...|dec)[a-z]*\.?($|[^a-z])  if and only if a word ends with a digit, or a digit and a full
                                                      stop, and the next word matches ^(jan|...|dec) (the rest of the
                                                      pattern matches whatever follows: the longest [a-z]* stops at the
                                                      end of the text or before a character that is not [a-z]). -->
  <xsl:function name="fp:has-month-date" as="xs:boolean">
    <xsl:param name="text" as="xs:string"/>
    <xsl:variable name="lower" as="xs:string" select="lower-case($text)"/>
    <xsl:sequence select="(some $month in ('jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov',
                                          'dec') satisfies contains($lower, $month))
                          and fp:month-next-to-number(tokenize($text))"/>
  </xsl:function>

  <!-- fp:has-month-date over the words of a clean text (tokenize#1: the words between single spaces). -->
  <xsl:function name="fp:month-next-to-number" as="xs:boolean">
    <xsl:param name="words" as="xs:string*"/>
    <xsl:sequence select="some $i in 1 to count($words) - 1 satisfies (
        let $word := $words[$i], $next := $words[$i + 1], $length := string-length($word),
            $last := substring($word, $length, 1)
        return (fp:is-digit(substring($next, 1, 1))
                and matches($word, '(^|[^a-z])(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?$', 'i'))
               or (fp:is-digit(if ($last eq '.') then substring($word, $length - 1, 1) else $last)
                   and matches($next, '^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)', 'i')))"/>
  </xsl:function>

  <!-- True if a character (or '') is a decimal digit, \d (\p{Nd}): an ASCII one without a regular expression. -->
  <xsl:function name="fp:is-digit" as="xs:boolean">
    <xsl:param name="char" as="xs:string"/>
    <xsl:sequence select="$char ne '' and (contains('0123456789', $char)
                                          or (string-to-codepoints($char) gt 127 and matches($char, '^\d$')))"/>
  </xsl:function>

  <!-- The dominant script of the letters of a text: cjk (Han, kana, Hangul), latin, other, or none (no letter). -->
  <xsl:function name="f:script" as="xs:string">
    <xsl:param name="text" as="xs:string?"/>
    <!-- white space (\s: tab, line feed, carriage return, space) and printable ASCII, recognized with translate()
         rather than a regular expression (this runs once per cell with text in the formatting method): $rest is the
         text without them -->
    <xsl:variable name="rest" as="xs:string" select="translate(string($text), '&#9;&#10;&#13; !&quot;#$%&amp;''()*+,-./0123456789:;&lt;=&gt;?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~', '')"/>
    <xsl:sequence select="
        if ($rest eq '')
        then (if (translate(string($text), 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', '') ne string($text))
              then 'latin' else 'none')
        else fp:script(string($text), $rest)"/>
  </xsl:function>

  <!-- f:script for a text with characters outside ASCII ($rest: the text less white space and printable ASCII).
       The ASCII letters (Latin) are counted with translate(), the regular expressions read $rest alone (they cost
       ~0.4 us per character read): the same counts as over the whole text. -->
  <xsl:function name="fp:script" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:param name="rest" as="xs:string"/>
    <xsl:variable name="ascii-letters" as="xs:integer" select="string-length($text) - string-length(translate($text,
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', ''))"/>
    <!-- the letters outside ASCII -->
    <xsl:variable name="letters" as="xs:string" select="replace($rest, '\P{L}', '')"/>
    <xsl:variable name="cjk" as="xs:integer" select="string-length(replace($letters,
        '[^&#x3400;-&#x4DBF;&#x4E00;-&#x9FFF;&#xF900;-&#xFAFF;&#x3040;-&#x30FF;&#xAC00;-&#xD7AF;]', ''))"/>
    <xsl:variable name="latin" as="xs:integer" select="$ascii-letters + string-length(replace($letters,
        '[^A-Za-z&#xC0;-&#x24F;&#x1E00;-&#x1EFF;]', ''))"/>
    <xsl:variable name="total" as="xs:integer" select="$ascii-letters + string-length($letters)"/>
    <xsl:sequence select="
        if ($total eq 0) then 'none'
        else if ($cjk * 2 gt $total) then 'cjk'
        else if ($latin * 2 gt $total) then 'latin'
        else 'other'"/>
  </xsl:function>

  <!-- The case of the first letter of a text: upper, lower, or none (no letter, or a letter without case). -->
  <xsl:function name="f:initial-case" as="xs:string">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:variable name="start" as="xs:string" select="substring(string($text), 1, 1)"/>
    <!-- an ASCII letter first (most texts) is read without regular expressions -->
    <xsl:variable name="first" as="xs:string" select="
        if (contains('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', $start) and $start ne '') then $start
        else substring(replace(string($text), '^\P{L}+', ''), 1, 1)"/>
    <xsl:sequence select="
        if (contains('ABCDEFGHIJKLMNOPQRSTUVWXYZ', $first) and $first ne '') then 'upper'
        else if (contains('abcdefghijklmnopqrstuvwxyz', $first) and $first ne '') then 'lower'
        else if (matches($first, '^[\p{Lu}\p{Lt}]$')) then 'upper'
        else if (matches($first, '^\p{Ll}$')) then 'lower'
        else 'none'"/>
  </xsl:function>

  <!-- True if the text ends with a colon (ASCII or full-width), as labels such as "Price:" do. -->
  <xsl:function name="f:has-trailing-colon" as="xs:boolean">
    <xsl:param name="text" as="xs:string?"/>
    <!-- the pattern reads the whole text (~0.4 us a character): a text that ends with a colon, or with a printable
         ASCII character that is no colon (neither [\s\p{Z}] nor a colon), is answered by its last character -->
    <xsl:variable name="last" as="xs:integer?"
        select="string-to-codepoints(substring(string($text), string-length(string($text)), 1))"/>
    <xsl:sequence select="(contains(string($text), ':') or contains(string($text), '：'))
                          and ($last = (58, 65306)
                               or (not($last ge 33 and $last le 126) and matches(string($text), '[:：][\s\p{Z}]*$')))"/>
  </xsl:function>

  <!--
    The class tokens of a class attribute that may style the cell, sorted and space-separated: microformat names
    (hCard, hCalendar and the h-/p-/u-/dt-/e- prefixes of microformats2, http://microformats.org) say what the
    content is, not how it looks, and are left out. This runs for every row and every cell with text (the
    formatting method): an absent or blank attribute is answered at once, the names are looked up in a global map
    and the prefixes compared without a regular expression.
  -->
  <xsl:function name="f:style-classes" as="xs:string">
    <xsl:param name="class" as="xs:string?"/>
    <xsl:sequence select="if (normalize-space($class) eq '') then ''
        else string-join(sort(distinct-values(tokenize(lower-case(string($class)))
          [not(map:contains($fp:microformats, .)) and not(substring-before(., '-') = ('h', 'p', 'u', 'dt', 'e'))])), ' ')"/>
  </xsl:function>

  <!-- The microformat class names that f:style-classes leaves out. -->
  <xsl:variable name="fp:microformats" as="map(xs:string, xs:boolean)" select="map:merge(('vcard', 'vevent', 'hcard',
      'hcalendar', 'fn', 'n', 'org', 'nickname', 'given-name', 'family-name', 'additional-name', 'honorific-prefix',
      'honorific-suffix', 'url', 'email', 'tel', 'adr', 'street-address', 'locality', 'region', 'postal-code',
      'country-name', 'geo', 'latitude', 'longitude', 'bday', 'category', 'note', 'role', 'title', 'agent', 'label',
      'summary', 'dtstart', 'dtend', 'location', 'description', 'uid', 'attendee', 'contact', 'organization-name',
      'organization-unit', 'photo', 'logo') ! map { . : true() })"/>

  <!-- True if one of the class tokens names a heading role: it contains head, label, title or caption, or is th.
       A token contains one of the four words if and only if the whole string does (a word holds no white space, so
       it lies inside one token): answered by contains(), without a regular expression per token (~0.4 us per
       character read; this runs twice per cell with text in the formatting method); the tokens are compared with
       "th" only if the string contains it. -->
  <xsl:function name="f:is-header-class" as="xs:boolean">
    <xsl:param name="classes" as="xs:string?"/>
    <xsl:variable name="string" as="xs:string" select="string($classes)"/>
    <xsl:sequence select="contains($string, 'head') or contains($string, 'label') or contains($string, 'title')
                          or contains($string, 'caption')
                          or (contains($string, 'th') and (some $token in tokenize($string) satisfies $token eq 'th'))"/>
  </xsl:function>

  <!-- ===================================================================================================== -->
  <!-- Font size                                                                                             -->
  <!-- ===================================================================================================== -->

  <!--
    A font size in CSS px on the HTML font-size scale 1..7 of Zhang & Li's formula (n - k0) * 10, where n and k0 are
    <font size> levels. The levels are the CSS absolute-size keywords x-small .. xxx-large (CSS Fonts 4, 2.5):
    10, 13, 16, 18, 24, 32, 48 px = 1 .. 7; between two levels the scale is linear, below 10 px and above 48 px it
    goes on with the slope of the nearest segment.
  -->
  <xsl:function name="f:font-size-level" as="xs:double">
    <xsl:param name="px" as="xs:double"/>
    <xsl:variable name="sizes" as="xs:double+" select="(10, 13, 16, 18, 24, 32, 48)"/>
    <xsl:variable name="segment" as="xs:integer"
        select="max((1, min((6, count($sizes[. le $px])))))"/>
    <xsl:variable name="low" as="xs:double" select="$sizes[$segment]"/>
    <xsl:variable name="high" as="xs:double" select="$sizes[$segment + 1]"/>
    <xsl:sequence select="$segment + ($px - $low) div ($high - $low)"/>
  </xsl:function>

  <!-- ===================================================================================================== -->
  <!-- Statistics                                                                                            -->
  <!-- ===================================================================================================== -->

  <!-- The arithmetic mean, or the empty sequence for no values. -->
  <xsl:function name="f:mean" as="xs:double?">
    <xsl:param name="values" as="xs:double*"/>
    <xsl:sequence select="if (empty($values)) then () else sum($values) div count($values)"/>
  </xsl:function>

  <!-- The median (mean of the two middle values for an even count), or the empty sequence for no values. -->
  <xsl:function name="f:median" as="xs:double?">
    <xsl:param name="values" as="xs:double*"/>
    <xsl:variable name="sorted" as="xs:double*" select="sort($values)"/>
    <xsl:variable name="n" as="xs:integer" select="count($sorted)"/>
    <xsl:sequence select="
        if ($n eq 0) then ()
        else if ($n mod 2 eq 1) then $sorted[($n + 1) idiv 2]
        else ($sorted[$n idiv 2] + $sorted[$n idiv 2 + 1]) div 2"/>
  </xsl:function>

  <!-- The most frequent value; ties go to the value that first occurs last (in a table, values met further down
       and right belong to the data rather than to the headers). Empty for no values. -->
  <xsl:function name="f:mode" as="xs:string?">
    <xsl:param name="values" as="xs:string*"/>
    <!-- values all equal (most tables: one font size, one indentation, no row class) are answered by comparison,
         without the grouping; of two values the tie rule takes the second, whether or not they differ -->
    <xsl:sequence select="if (count($values) eq 2) then $values[2]
                          else if (every $value in $values satisfies $value eq $values[1]) then $values[1]
                          else fp:mode($values)"/>
  </xsl:function>

  <xsl:function name="fp:mode" as="xs:string?">
    <xsl:param name="values" as="xs:string*"/>
    <!-- [value, count] per distinct value, in order of first occurrence: grouped, not counted with fold-left and
         map:put, which call a function item per value (this runs several times per row and column) -->
    <xsl:variable name="counts" as="array(*)*">
      <xsl:for-each-group select="$values" group-by=".">
        <xsl:sequence select="[ current-grouping-key(), count(current-group()) ]"/>
      </xsl:for-each-group>
    </xsl:variable>
    <xsl:variable name="best" as="xs:integer" select="max((0, $counts ! ?2))"/>
    <xsl:sequence select="($counts[?2 eq $best])[last()] ! ?1"/>
  </xsl:function>

  <!-- True if there are values and all of them are the same number, the first, whose string is that of each (a zero
       may be 0 or -0, equal numbers with different strings, so its values are equal only if all are 0, not -0):
       the most frequent value of their strings (f:mode) is then the first, without making a string of each (the
       formatting method's usual size and indentation, fp:base: this runs over every cell with text of a table). -->
  <xsl:function name="fp:all-equal" as="xs:boolean">
    <xsl:param name="values" as="xs:double*"/>
    <xsl:variable name="first" as="xs:double?" select="$values[1]"/>
    <xsl:sequence select="exists($first) and (
        if ($first ne 0) then (every $value in $values satisfies $value eq $first)
        else (every $value in $values satisfies ($value eq 0 and 1 div $value gt 0)))"/>
  </xsl:function>

  <!-- The share (0..1) of the values equal to the most frequent one; 0 for no values. -->
  <xsl:function name="f:mode-share" as="xs:double">
    <xsl:param name="values" as="xs:string*"/>
    <xsl:variable name="mode" as="xs:string?" select="f:mode($values)"/>
    <xsl:sequence select="if (empty($values)) then 0 else count($values[. eq $mode]) div count($values)"/>
  </xsl:function>

  <!-- A number rounded to two decimals, for the evidence the stage records. -->
  <xsl:function name="f:round2" as="xs:double">
    <xsl:param name="value" as="xs:double?"/>
    <xsl:sequence select="if (empty($value)) then 0 else round($value * 100) div 100"/>
  </xsl:function>

</xsl:stylesheet>
