<?xml version="1.0" encoding="UTF-8"?>
<!--
  The formatting method (Zhang & Li 2007, step 2), with content evidence and a "no header" outcome.

    f:format-analysis($model) => map {
      'k', 'p'       : header rows and header columns;
      'kinds'        : f:row-kinds($model, k, false());
      'base'         : map of the table's usual values: font-size (k0, px), face, color, background, class, indent;
      'row-scores'   : one map per row { 'index', 'score', 'format', 'content', 'wide' } ('score' absent for a
                       row with no text);
      'col-scores'   : one map per column { 'index', 'score' } over the data rows;
      'row-boundary', 'col-boundary' : see fp:boundary
    }

  Feature value of a cell with text (cells without text take no part): A = (level(n) - level(k0)) * 10 for its font
  size n on the HTML font-size scale (f:font-size-level; k0 is the table's usual size), + 10 bold, + 1 italic,
  + colon, indentation, face, colour, background and class weights (params.xsl). The row value is the mean over the
  row's slots covered by cells with text (spanning cells count in every slot, as in the paper's normalized table)
  of A plus the cell's content score in that column (content.xsl); the column value is the mean of A over the
  column's slots in the data rows (no content evidence: see content.xsl).

  Order: k from the rows over all columns; p from the columns over the data rows below k; if p > 0, k again from
  the rows over the columns right of the header columns (a bold key column raises every row alike and only blurs
  the row values).
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:functions"
    xmlns:fp="urn:pyxform:functions:private"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:format-analysis" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <xsl:variable name="scored" as="map(*)*" select="$model?ids ! f:cell($model, .)[not(?blank)]"/>
    <xsl:variable name="base" as="map(*)" select="fp:base($model, $scored)"/>
    <xsl:variable name="values" as="map(xs:string, xs:double)"
        select="map:merge($scored ! map { ?id : f:format-score(., $base) })"/>
    <xsl:variable name="profile" as="map(xs:integer, map(*))" select="f:content-profile($model)"/>
    <!-- pass 1: k over all columns -->
    <xsl:variable name="rows-1" as="map(*)*" select="fp:row-scores($model, $values, $profile, 0 to $n - 1)"/>
    <xsl:variable name="row-boundary-1" as="map(*)" select="fp:boundary($rows-1, true())"/>
    <xsl:variable name="kinds-1" as="array(xs:string)" select="f:row-kinds($model, $row-boundary-1?k, false())"/>
    <!-- p over the data rows -->
    <xsl:variable name="cols" as="map(*)*"
        select="fp:column-scores($model, $values, f:rows-of-kind($kinds-1, 'data'))"/>
    <xsl:variable name="col-boundary" as="map(*)" select="fp:boundary($cols, false())"/>
    <xsl:variable name="p" as="xs:integer" select="$col-boundary?k"/>
    <!-- pass 2: k over the columns right of the header columns -->
    <xsl:variable name="rows-2" as="map(*)*"
        select="if ($p gt 0) then fp:row-scores($model, $values, $profile, $p to $n - 1) else $rows-1"/>
    <xsl:variable name="row-boundary" as="map(*)"
        select="if ($p gt 0) then fp:boundary($rows-2, true()) else $row-boundary-1"/>
    <xsl:variable name="k" as="xs:integer" select="$row-boundary?k"/>
    <xsl:sequence select="map {
        'k' : $k,
        'p' : $p,
        'kinds' : if ($k eq $row-boundary-1?k) then $kinds-1 else f:row-kinds($model, $k, false()),
        'base' : $base,
        'row-scores' : $rows-2,
        'col-scores' : $cols,
        'row-boundary' : $row-boundary,
        'col-boundary' : $col-boundary
      }"/>
  </xsl:function>

  <!-- The table's usual values: the most frequent among its cells with text (the paper's k0 for the size). -->
  <xsl:function name="fp:base" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="scored" as="map(*)*"/>
    <xsl:variable name="sizes" as="xs:string*" select="$scored ! ?font-size ! string(.)"/>
    <xsl:variable name="table-size" as="xs:double?"
        select="$model?table/@font-size[. castable as xs:double] ! xs:double(.)"/>
    <xsl:sequence select="map {
        'font-size' : (f:mode($sizes) ! xs:double(.), $table-size, 16.0e0)[1],
        'face' : (f:mode($scored ! ?face), '')[1],
        'color' : (f:mode($scored ! ?color), '')[1],
        'background' : (f:mode($scored ! ?background), '')[1],
        'class' : (f:mode($scored ! ?class), '')[1],
        'indent' : (f:mode($scored ! string(?indent)) ! xs:double(.), 0.0e0)[1]
      }"/>
  </xsl:function>

  <!-- The feature value A of a cell with text (see the module comment; weights in params.xsl). -->
  <xsl:function name="f:format-score" as="xs:double">
    <xsl:param name="cell" as="map(*)"/>
    <xsl:param name="base" as="map(*)"/>
    <xsl:sequence select="sum((
        if (exists($cell?font-size))
        then (f:font-size-level($cell?font-size) - f:font-size-level($base?font-size)) * $weight-size-level
        else 0,
        if ($cell?bold) then $weight-bold else 0,
        if ($cell?italic) then $weight-italic else 0,
        if ($cell?colon) then $weight-colon else 0,
        if ($cell?indent lt $base?indent) then $weight-indent else 0,
        if ($cell?face ne $base?face) then $weight-face else 0,
        if ($cell?color ne $base?color) then $weight-color else 0,
        if ($cell?background ne $base?background) then $weight-background else 0,
        if ($cell?class ne $base?class) then $weight-class else 0))"/>
  </xsl:function>

  <!-- Row values over the columns $columns: one map per row (see f:format-analysis). -->
  <xsl:function name="fp:row-scores" as="map(*)*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="values" as="map(xs:string, xs:double)"/>
    <xsl:param name="profile" as="map(xs:integer, map(*))"/>
    <xsl:param name="columns" as="xs:integer*"/>
    <xsl:for-each select="0 to $model?rows - 1">
      <xsl:variable name="y" as="xs:integer" select="."/>
      <xsl:variable name="slots" as="map(*)*" select="
          for $x in $columns
          return f:owner($model, $y, $x)[map:contains($values, .)]
                 ! map { 'format' : $values(.), 'content' : f:content-score($profile, f:cell($model, .), $x) }"/>
      <xsl:sequence select="map:merge((
          map { 'index' : $y, 'wide' : f:is-wide-row($model, $y),
                'text' : exists(f:row($model, $y)?texts) },
          if (exists($slots)) then map {
            'format' : f:mean($slots ! ?format),
            'content' : f:mean($slots ! ?content),
            'score' : f:mean($slots ! (?format + ?content))
          } else ()))"/>
    </xsl:for-each>
  </xsl:function>

  <!-- Column values over the rows $rows: one map per column { 'index', 'score' } ('score' absent if no text). -->
  <xsl:function name="fp:column-scores" as="map(*)*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="values" as="map(xs:string, xs:double)"/>
    <xsl:param name="rows" as="xs:integer*"/>
    <xsl:for-each select="0 to $model?cols - 1">
      <xsl:variable name="x" as="xs:integer" select="."/>
      <xsl:variable name="slots" as="xs:double*"
          select="for $y in $rows return f:owner($model, $y, $x)[map:contains($values, .)] ! $values(.)"/>
      <xsl:sequence select="map:merge((
          map { 'index' : $x, 'wide' : false(), 'text' : exists($slots) },
          if (exists($slots)) then map { 'score' : f:mean($slots), 'format' : f:mean($slots) } else ()))"/>
    </xsl:for-each>
  </xsl:function>

  <!--
    The boundary rule over rows (or columns) in order, each { 'index', 'score'?, 'wide', 'text' }.

    With $titles, the wide rows at the top (before the first scored row that is not wide) are title rows; wide
    rows further down are section rows and take no part. S = the remaining scored, not wide items, in order.
    A candidate boundary after S[j], j = 1 .. floor(|S| / 2) (headers are a minority of the rows), is valid if
    every S[1..j] scores at least $threshold above the mean of S[j+1..] (the boundary separates higher-scoring
    header rows from the data rows) and the paper's adjacent difference D = S[j] - S[j+1] is positive. The chosen
    boundary is the valid one with the largest D (the paper's rule: where adjacent rows differ most); equal D: the
    lower one. Items right after the chosen one that have text but no score (in the second row pass: text only in the
    header columns, such as an index-name row) join the header. No valid candidate: no header, except that title
    rows which themselves stand out by $threshold over the mean of S are header rows.

    Returns map { 'k' : count of leading header items (index of the last header item + 1, or 0),
                  'candidates' : the candidate maps { 'j', 'index', 'difference', 'body-mean', 'separation',
                  'valid' }, 'chosen' : the chosen candidate (absent if none), 'titles' : indexes of title rows }.
  -->
  <xsl:function name="fp:boundary" as="map(*)">
    <xsl:param name="items" as="map(*)*"/>
    <xsl:param name="titles" as="xs:boolean"/>
    <xsl:variable name="first-body" as="xs:integer"
        select="(index-of($items ! (exists(?score) and not(?wide and $titles)), true())[1], count($items) + 1)[1]"/>
    <xsl:variable name="title-items" as="map(*)*"
        select="if ($titles) then $items[position() lt $first-body][?wide and exists(?score)] else ()"/>
    <xsl:variable name="body" as="map(*)*" select="$items[position() ge $first-body][exists(?score)]
                                                   [not($titles and ?wide)]"/>
    <xsl:variable name="r" as="xs:integer" select="count($body)"/>
    <xsl:variable name="candidates" as="map(*)*" select="
        for $j in 1 to $r idiv 2 return
        let $head := subsequence($body, 1, $j) ! ?score,
            $rest := subsequence($body, $j + 1) ! ?score,
            $mean := f:mean($rest),
            $difference := $body[$j]?score - $body[$j + 1]?score,
            $separation := min($head) - $mean
        return map {
          'j' : $j, 'index' : $body[$j]?index, 'difference' : $difference, 'body-mean' : $mean,
          'separation' : $separation, 'valid' : $separation ge $threshold and $difference gt 0
        }"/>
    <xsl:variable name="chosen" as="map(*)?" select="(sort($candidates[?valid], (),
        function($c) { ($c?difference, $c?j) }))[last()]"/>
    <xsl:variable name="all-mean" as="xs:double?" select="f:mean($body ! ?score)"/>
    <xsl:variable name="titles-stand-out" as="xs:boolean" select="exists($title-items)
        and (every $t in $title-items satisfies $t?score ge ($all-mean, 0)[1] + $threshold)"/>
    <!-- after the chosen item: items with text but no score in this pass (text only in header columns) -->
    <xsl:variable name="extended" as="xs:integer?" select="if (empty($chosen)) then () else
        (for $i in $chosen?index + 1 to count($items) - 1
         return $items[$i + 1][not(exists(?score) or ?wide or not(?text))] ! ?index)
        [. eq $chosen?index + position()][last()]"/>
    <xsl:sequence select="map:merge((
        map {
          'k' : if (exists($chosen)) then max(($chosen?index, $extended)) + 1
                else if ($titles-stand-out) then $title-items[last()]?index + 1
                else 0,
          'candidates' : $candidates,
          'titles' : $title-items ! ?index
        },
        $chosen ! map { 'chosen' : . }))"/>
  </xsl:function>

</xsl:stylesheet>
