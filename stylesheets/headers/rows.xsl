<?xml version="1.0" encoding="UTF-8"?>
<!--
  Row kinds: what each row of a table is, once the number k of header rows is known.

    f:row-kinds($model, $k, $markup) => array of m strings, one per row:
      head     a header row (y < k);
      blank    no cell covering the row has any content;
      section  a wide row (f:is-wide-row) in the body with a data row somewhere below it: its text heads the data
               rows below it, up to the next section row ("Group A", "Technische Daten"); also a wide title row
               among the k header rows when the table is a stack of sub-tables (a section row in the body is
               followed by a repeated header row): the title is then the first sub-table's section, not a heading
               of the later sub-tables;
      note     a wide row after the last data row (a source line, a footnote): data, not a header;
      repeat   a header row repeated inside the body: (a) at least two of its text cells, and at least half of
               them, repeat the text of a header cell of the same column; or (b) with markup, every text cell that
               starts in the row is a th, not all of them with scope=row (row headers of a row whose data cells
               are empty), none holds a number in a column after the first, and the row is not a row of leading th
               cells followed by td cells only (empty ones too, or holding a nested table: the th cells head their
               own row, whose values are missing or nested, as WHATWG assigns them);
      summary  with markup only: every text cell that starts in the row is a th but some cell after the first
               column holds a number (a "Total" or "Career" row marked up with th, also under a td that spans
               down from the rows above): a data row whose leading cells head it;
      data     any other row.

  Rule 1 of the issue: repeated header rows and section rows are not data rows. The reasons for (a), (b) and the
  summary rule are in docs/headers.md.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:row-kinds" as="array(xs:string)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="m" as="xs:integer" select="$model?rows"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <!-- header texts by column: map { x : normalized lower-case texts of the header cells over column x } -->
    <xsl:variable name="header-texts" as="map(xs:integer, xs:string*)" select="if ($k le 0) then map {} else map:merge(
        for $x in 0 to $n - 1
        return map { $x : distinct-values(f:column-ids($model, $x, 0 to $k - 1)
                                           ! f:model-cell($model, .)[not(.($c:blank))] ! fp:key-text(.($c:text))) })"/>
    <!-- the last row below the header that is neither blank nor wide: wide rows before it are sections -->
    <!-- looked for from the bottom up: the last row is most often such a row -->
    <xsl:variable name="last-data" as="xs:integer"
        select="(reverse($k to $m - 1)[not(f:is-wide-row($model, .)) and not(f:is-blank-row($model, .))], -1)[1]"/>
    <xsl:variable name="kinds" as="xs:string*" select="for $y in 0 to $m - 1 return
        if ($y lt $k) then 'head'
        else let $row := f:model-row($model, $y) return
        if (empty($row?contents)) then 'blank'
        else if ($row?wide) then (if ($y lt $last-data) then 'section' else 'note')
        else fp:body-row-kind($model, $row, $header-texts, $markup)"/>
    <!-- stacked sub-tables: a section row followed by a repeated header row starts a sub-table of the same form as
         the top one, so the wide title rows above the header's label rows are the first sub-table's section rows -->
    <xsl:variable name="stacked" as="xs:boolean"
        select="some $y in $k to $m - 2 satisfies ($kinds[$y + 1] eq 'section' and $kinds[$y + 2] eq 'repeat')"/>
    <xsl:sequence select="array { for $y in 0 to $m - 1 return
        if ($stacked and $y lt $k and f:is-wide-row($model, $y)) then 'section' else $kinds[$y + 1] }"/>
  </xsl:function>

  <xsl:function name="fp:body-row-kind" as="xs:string">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="row" as="map(*)"/>
    <xsl:param name="header-texts" as="map(*)"/>
    <xsl:param name="markup" as="xs:boolean"/>
    <xsl:variable name="y" as="xs:integer" select="$row?index"/>
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <xsl:variable name="texts" as="array(*)*" select="$row?texts ! $cells(.)"/>
    <!-- the cells that start in the row: a td spanning down from above (a club's name over its seasons and its
         total row) belongs to the rows above as much as to this one -->
    <xsl:variable name="own" as="array(*)*" select="$texts[.($c:row) eq $y]"/>
    <!-- (a): at least two of the n text cells, and at least half of them, repeat a header text: at least $need
         cells, that is at most n - $need that do not. The cells that do not are read lazily, up to the
         (n - $need + 1)th: a data row (most rows) is answered after about half its cells, not all (this runs for
         every body row of every scored table). A cell under no header text (no header row, or blank header cells
         over its columns) repeats none: its key text is not computed; without header texts at all (k = 0), no cell
         repeats one and the cells are not looked at. -->
    <xsl:variable name="n" as="xs:integer" select="count($texts)"/>
    <xsl:variable name="need" as="xs:integer" select="max((2, ($n + 1) idiv 2))"/>
    <xsl:variable name="repeated" as="xs:boolean" select="$n ge 2 and map:size($header-texts) gt 0 and empty($texts[not(
        let $cell := . return
        (some $x in $cell($c:col) to $cell($c:col) + $cell($c:colspan) - 1 satisfies exists($header-texts($x)))
        and (let $key := fp:key-text($cell($c:text)) return
             some $x in $cell($c:col) to $cell($c:col) + $cell($c:colspan) - 1 satisfies $key = $header-texts($x)))]
        [$n - $need + 1])"/>
    <xsl:sequence select="
        if ($repeated) then 'repeat'
        else if ($markup and not($row?row-headed) and exists($own) and (every $c in $own satisfies $c($c:tag) eq 'th'))
        then (if (some $c in $own satisfies ($c($c:col) ge 1 and f:cell-type($c) eq 'numeric'))
              then 'summary'
              else if (some $c in $own satisfies $c($c:scope) ne 'row') then 'repeat'
              else 'data')
        else 'data'"/>
  </xsl:function>

  <xsl:function name="fp:key-text" as="xs:string">
    <xsl:param name="text" as="xs:string"/>
    <xsl:sequence select="lower-case(normalize-space(f:strip-marks($text)))"/>
  </xsl:function>

  <!-- The rows of a kind, as 0-based indexes. -->
  <xsl:function name="f:rows-of-kind" as="xs:integer*">
    <xsl:param name="kinds" as="array(xs:string)"/>
    <xsl:param name="kind" as="xs:string*"/>
    <xsl:sequence select="(1 to array:size($kinds))[$kinds(.) = $kind] ! (. - 1)"/>
  </xsl:function>

</xsl:stylesheet>
