<?xml version="1.0" encoding="UTF-8"?>
<!--
  Content evidence (beyond the paper): a header cell is short text, and the cells of a data column are typed
  alike. A cell whose content differs from the rest of its column in the way a label differs from values scores
  like a formatting feature in the row averages of the formatting method (format.xsl). Columns only: a text column
  beside numeric ones is the usual key column of a relational table, not a header column (see docs/headers.md).

    f:content-profile($columns) => map { x : column profile }  (once per table; $columns: the cells with text of
                                                                each column over the rows that are not wide)
    f:content-score($model, $profile, $cell, $x) => 0, $weight-content-shape or $weight-content-type

  The reference of column x is the set of distinct cells covering it in rows that are not wide (titles and section
  rows span the columns and say nothing about one column) whose type is numeric or text. For a cell, "the others"
  is that set without the cell itself.

    type contrast   the cell is text and at least $typed-share of the others (at least one) are numeric
                    (numbers, measures, dates: "data columns are typed alike") => $weight-content-type;
    shape contrast  the cell is text, at least $typed-share of the others are text, and the cell differs from
                    them as a label from its values: its script (CJK / Latin) is not that of $typed-share of
                    the others; or it starts with a capital letter while $typed-share of the others that start
                    with a letter start with a small one; or it is at most 1 / $length-ratio as long as the median
                    of the others => $weight-content-shape.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    xmlns:cr="urn:pyxform:content-rule"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- The members of a column's content rule (f:content-rule), by position: the column's profile, its reference
       cells (map { id : true() }), the score of a reference cell and of another text cell (0, 1 or 2), and, where
       the first is 2, the reference cells' shape tests by script (cjk, latin) and by initial capital. -->
  <xsl:variable name="cr:column" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="cr:members" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="cr:score-self" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="cr:score-other" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="cr:cjk-self" as="xs:integer" select="5" static="yes"/>
  <xsl:variable name="cr:latin-self" as="xs:integer" select="6" static="yes"/>
  <xsl:variable name="cr:upper-self" as="xs:integer" select="7" static="yes"/>

  <!-- $columns: per column, the distinct cells with text covering it in rows that are not wide, top to bottom (as
       f:format-analysis gathers them once for this and the columns' usual values). -->
  <xsl:function name="f:content-profile" as="map(xs:integer, map(*))">
    <xsl:param name="columns" as="array(*)"/>
    <xsl:sequence select="fp:content-profile($columns, true())"/>
  </xsl:function>

  <!-- f:content-profile, with the shape counts for the text cells outside the reference cells of a column only if
       $others: the formatting method scores such cells only in wide rows (a text cell of a row that is not wide is
       one of the reference cells of each column it covers), so a table without wide rows (most) does not need them. -->
  <xsl:function name="fp:content-profile" as="map(xs:integer, map(*))">
    <xsl:param name="columns" as="array(*)"/>
    <xsl:param name="others" as="xs:boolean"/>
    <xsl:map>
      <xsl:for-each select="0 to array:size($columns) - 1">
        <xsl:map-entry key="." select="fp:column-profile($columns(. + 1)[.($c:type) = ('numeric', 'text')], $others)"/>
      </xsl:for-each>
    </xsl:map>
  </xsl:function>

  <!-- A column's profile: 'members' (map { id : true() } of its reference cells, distinct as $columns has them),
       'count', 'numeric', 'text'; and the counts that only the shape tests read, 'cjk', 'latin', 'scripted',
       'upper', 'lower', 'lengths' (sorted) and 'first-index' (of each length in 'lengths'), only where a text cell
       of the column has the shape decide its score (fp:rule-score 2; a column of numbers, most data columns, has no
       shape test): one of its reference cells, or, with $others, another. -->
  <xsl:function name="fp:column-profile" as="map(*)">
    <xsl:param name="cells" as="array(*)*"/>
    <xsl:param name="others" as="xs:boolean"/>
    <xsl:variable name="texts" as="array(*)*" select="$cells[.($c:type) eq 'text']"/>
    <xsl:variable name="count" as="xs:integer" select="count($cells)"/>
    <xsl:variable name="numeric" as="xs:integer" select="count($cells[.($c:type) eq 'numeric'])"/>
    <xsl:variable name="text" as="xs:integer" select="count($texts)"/>
    <xsl:map>
      <xsl:map-entry key="'members'">
        <xsl:map>
          <xsl:for-each select="$cells">
            <xsl:map-entry key=".($c:id)" select="true()"/>
          </xsl:for-each>
        </xsl:map>
      </xsl:map-entry>
      <xsl:map-entry key="'count'" select="$count"/>
      <xsl:map-entry key="'numeric'" select="$numeric"/>
      <xsl:map-entry key="'text'" select="$text"/>
      <xsl:if test="fp:rule-score($count - 1, $numeric, $text - 1) eq 2
                    or ($others and fp:rule-score($count, $numeric, $text) eq 2)">
        <xsl:variable name="lengths" as="xs:integer*" select="sort($texts ! .($c:length))"/>
        <xsl:map-entry key="'cjk'" select="count($texts[.($c:script) eq 'cjk'])"/>
        <xsl:map-entry key="'latin'" select="count($texts[.($c:script) eq 'latin'])"/>
        <xsl:map-entry key="'scripted'" select="count($texts[.($c:script) = ('cjk', 'latin', 'other')])"/>
        <xsl:map-entry key="'upper'" select="count($texts[.($c:case) eq 'upper'])"/>
        <xsl:map-entry key="'lower'" select="count($texts[.($c:case) eq 'lower'])"/>
        <xsl:map-entry key="'lengths'" select="array { $lengths }"/>
        <xsl:map-entry key="'first-index'" select="map:merge(
            for $i in 1 to count($lengths) return map { $lengths[$i] : $i }, map { 'duplicates' : 'use-first' })"/>
      </xsl:if>
    </xsl:map>
  </xsl:function>

  <!-- True if at least $typed-share of the reference cells of column x (at least two) are numeric. -->
  <xsl:function name="f:is-numeric-column" as="xs:boolean">
    <xsl:param name="profile" as="map(*)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="column" as="map(*)" select="$profile($x)"/>
    <xsl:sequence select="$column?count ge 2 and $column?numeric ge $typed-share * $column?count"/>
  </xsl:function>

  <!-- The content score of a cell in column x (see the module comment). -->
  <xsl:function name="f:content-score" as="xs:double">
    <xsl:param name="profile" as="map(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="column" as="map(*)" select="$profile($x)"/>
    <xsl:variable name="self" as="xs:boolean" select="map:contains($column?members, $cell($c:id))"/>
    <xsl:variable name="is-text" as="xs:boolean" select="$cell($c:type) eq 'text'"/>
    <!-- counts over the others: the column less the cell itself -->
    <xsl:variable name="others" as="xs:integer" select="$column?count - (if ($self) then 1 else 0)"/>
    <xsl:variable name="numeric" as="xs:integer" select="$column?numeric"/>
    <xsl:variable name="text" as="xs:integer" select="$column?text - (if ($self and $is-text) then 1 else 0)"/>
    <xsl:sequence select="
        if (not($is-text) or $others lt 1) then 0
        else if ($numeric ge $typed-share * $others) then $weight-content-type
        else if ($text ge $typed-share * $others and fp:shape-differs($column, $cell, $self))
        then $weight-content-shape
        else 0"/>
  </xsl:function>

  <!--
    f:content-score's column terms, once per column (f:content-rule($profile, $x)), for the slots of the formatting
    method's rows (f:rule-content-score): what the column's counts answer for a text cell that is one of the
    reference cells (self) and for one that is not (other), as a record read by the positions $cr:... above:
    score-self / score-other 0 (score 0: no others, or neither test passes), 1 (type contrast: $weight-content-type)
    or 2 (the shape decides); and, where score-self is 2, the shape tests that depend on a reference cell only
    through its script or case, cjk-self, latin-self (its script differs from the others'), upper-self (an initial
    capital differs from the others' initial case; all three empty otherwise). The same counts, comparisons and
    order as f:content-score and fp:shape-differs, so the same values. A text cell that is not a reference cell (in
    a wide row: rare) has its shape tested by fp:shape-differs itself, on demand.
  -->
  <xsl:function name="f:content-rule" as="array(*)">
    <xsl:param name="profile" as="map(*)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:variable name="column" as="map(*)" select="$profile($x)"/>
    <xsl:variable name="count" as="xs:integer" select="$column?count"/>
    <xsl:variable name="numeric" as="xs:integer" select="$column?numeric"/>
    <xsl:variable name="text" as="xs:integer" select="$column?text"/>
    <xsl:variable name="score-self" as="xs:integer" select="fp:rule-score($count - 1, $numeric, $text - 1)"/>
    <xsl:variable name="score-other" as="xs:integer" select="fp:rule-score($count, $numeric, $text)"/>
    <!-- the shape tests of the reference cells only where their score is 2 (they are read then alone): a column of
         numbers, or of one cell, has none of them -->
    <!-- the column's shape counts are in its profile then (fp:column-profile) -->
    <xsl:variable name="shaped" as="xs:boolean" select="$score-self eq 2"/>
    <xsl:variable name="scripted" as="xs:integer?" select="if ($shaped) then $column?scripted else ()"/>
    <xsl:variable name="cased" as="xs:integer?" select="if ($shaped) then $column?upper + $column?lower else ()"/>
    <!-- the members in the order of the positions $cr:... -->
    <xsl:sequence select="[
        $column, $column?members, $score-self, $score-other,
        if ($shaped) then fp:script-differs($scripted - 1, $column?cjk - 1) else (),
        if ($shaped) then fp:script-differs($scripted - 1, $column?latin - 1) else (),
        if ($shaped) then $cased - 1 ge 1 and $column?lower ge $typed-share * ($cased - 1) else ()
      ]"/>
  </xsl:function>

  <!-- f:content-score's answer from the counts over the others: 0 (score 0), 1 (type contrast) or 2 (the shape
       decides). -->
  <xsl:function name="fp:rule-score" as="xs:integer">
    <xsl:param name="others" as="xs:integer"/>
    <xsl:param name="numeric" as="xs:integer"/>
    <xsl:param name="text" as="xs:integer"/>
    <xsl:sequence select="if ($others lt 1) then 0
                          else if ($numeric ge $typed-share * $others) then 1
                          else if ($text ge $typed-share * $others) then 2
                          else 0"/>
  </xsl:function>

  <!-- fp:shape-differs' script test for a cell of script cjk or latin: $same of the $scripted others share it. -->
  <xsl:function name="fp:script-differs" as="xs:boolean">
    <xsl:param name="scripted" as="xs:integer"/>
    <xsl:param name="same" as="xs:integer"/>
    <xsl:sequence select="$same ge 0 and $scripted ge 1 and ($scripted - $same) ge $typed-share * $scripted"/>
  </xsl:function>

  <!-- f:content-score of a cell in a column from the column's f:content-rule (the same value). -->
  <xsl:function name="f:rule-content-score" as="xs:double">
    <xsl:param name="rule" as="array(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:choose>
      <xsl:when test="$cell($c:type) ne 'text'">
        <xsl:sequence select="0"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="self" as="xs:boolean" select="map:contains($rule($cr:members), $cell($c:id))"/>
        <xsl:variable name="score" as="xs:integer"
            select="if ($self) then $rule($cr:score-self) else $rule($cr:score-other)"/>
        <xsl:sequence select="if ($score eq 0) then 0
                              else if ($score eq 1) then $weight-content-type
                              else if (if ($self) then fp:rule-shape-differs($rule, $cell)
                                       else fp:shape-differs($rule($cr:column), $cell, false()))
                              then $weight-content-shape
                              else 0"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- fp:shape-differs of a reference cell of the column (self) from the column's f:content-rule. -->
  <xsl:function name="fp:rule-shape-differs" as="xs:boolean">
    <xsl:param name="rule" as="array(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:variable name="script" as="xs:string" select="$cell($c:script)"/>
    <xsl:variable name="length" as="xs:integer" select="$cell($c:length)"/>
    <xsl:variable name="median" as="xs:double?" select="fp:median-without($rule($cr:column), $length)"/>
    <xsl:sequence select="
        (if ($script eq 'cjk') then $rule($cr:cjk-self)
         else if ($script eq 'latin') then $rule($cr:latin-self) else false())
        or ($cell($c:case) eq 'upper' and $rule($cr:upper-self))
        or (exists($median) and $length * $length-ratio le $median)"/>
  </xsl:function>

  <xsl:function name="fp:shape-differs" as="xs:boolean">
    <xsl:param name="column" as="map(*)"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="self" as="xs:boolean"/>
    <xsl:variable name="less" as="xs:integer" select="if ($self) then 1 else 0"/>
    <!-- script -->
    <xsl:variable name="scripted" as="xs:integer"
        select="$column?scripted - (if ($cell($c:script) = ('cjk', 'latin', 'other')) then $less else 0)"/>
    <xsl:variable name="same-script" as="xs:integer" select="
        if ($cell($c:script) eq 'cjk') then $column?cjk - $less
        else if ($cell($c:script) eq 'latin') then $column?latin - $less
        else -1"/>
    <xsl:variable name="script-differs" as="xs:boolean" select="$same-script ge 0 and $scripted ge 1
        and ($scripted - $same-script) ge $typed-share * $scripted"/>
    <!-- initial case -->
    <xsl:variable name="lower" as="xs:integer" select="$column?lower"/>
    <xsl:variable name="cased" as="xs:integer"
        select="$column?upper + $column?lower - (if ($cell($c:case) = ('upper', 'lower')) then $less else 0)"/>
    <xsl:variable name="case-differs" as="xs:boolean" select="$cell($c:case) eq 'upper' and $cased ge 1
        and $lower ge $typed-share * $cased"/>
    <!-- length: the median of the others' lengths -->
    <xsl:variable name="median" as="xs:double?"
        select="fp:median-without($column, if ($self and $cell($c:type) eq 'text') then $cell($c:length) else ())"/>
    <xsl:variable name="length-differs" as="xs:boolean" select="exists($median) and $cell($c:length) * $length-ratio le $median"/>
    <xsl:sequence select="$script-differs or $case-differs or $length-differs"/>
  </xsl:function>

  <!--
    The median of a column's sorted text lengths less one occurrence of $removed (none if empty), in constant time:
    position j of the shortened list is position j of the full list before the removed one, j + 1 after it.
  -->
  <xsl:function name="fp:median-without" as="xs:double?">
    <xsl:param name="column" as="map(*)"/>
    <xsl:param name="removed" as="xs:integer?"/>
    <!-- an array: positional access in constant time (a sequence held in a map may be read from its start) -->
    <xsl:variable name="lengths" as="array(*)" select="$column?lengths"/>
    <xsl:variable name="at" as="xs:integer?" select="$removed ! $column?first-index(.)"/>
    <xsl:variable name="n" as="xs:integer" select="array:size($lengths) - (if (exists($at)) then 1 else 0)"/>
    <!-- position j of the shortened list by fp:nth-length (a function, not a closure made at each call: this runs for
         every text cell of the formatting method) -->
    <xsl:sequence select="
        if ($n le 0) then ()
        else if ($n mod 2 eq 1) then fp:nth-length($lengths, $at, ($n + 1) idiv 2)
        else (fp:nth-length($lengths, $at, $n idiv 2) + fp:nth-length($lengths, $at, $n idiv 2 + 1)) div 2"/>
  </xsl:function>

  <!-- Position j of a column's sorted lengths less the one at position $at (none: the full list), as a double. -->
  <xsl:function name="fp:nth-length" as="xs:double">
    <xsl:param name="lengths" as="array(*)"/>
    <xsl:param name="at" as="xs:integer?"/>
    <xsl:param name="j" as="xs:integer"/>
    <xsl:sequence select="xs:double(if (exists($at) and $j ge $at) then $lengths($j + 1) else $lengths($j))"/>
  </xsl:function>

</xsl:stylesheet>
