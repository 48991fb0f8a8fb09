<?xml version="1.0" encoding="UTF-8"?>
<!--
  The formatting method (Zhang & Li 2007, step 2), with content evidence and a "no header" outcome.

    f:format-analysis($model) => map {
      'k', 'p'       : header rows and header columns;
      'kinds'        : f:row-kinds($model, k, false());
      'base'         : map of the table's usual values: font-size (k0, px), face, color, background, class, indent;
      'row-scores'   : one score record per row (an array read by the positions $sc:index, $sc:score, $sc:format,
                       $sc:content, $sc:wide ...: see their declarations; no score for a row with no text);
      'col-scores'   : one score record per column ($sc:index, $sc:score) over the data rows;
      'row-boundary', 'col-boundary' : see fp:boundary (boundary.xsl);
      'model'        : the table model with f:cell-features (f:with-features): f:table-kind reads the content types
                       from it rather than computing them again
    }

  Feature value of a cell with text (cells without text take no part): A = (level(n) - level(k0)) * 10 for its font
  size n on the HTML font-size scale (f:font-size-level; k0 is the table's usual size), + 10 bold, + 1 italic,
  + colon, indentation and class weights (params.xsl), + face, colour, background and class weights where the cell
  differs from the usual value of its line: its column's, when rows are scored (a header cell differs from the
  cells below it, even by lacking their code font), its row's, when columns are scored. The row value is the mean
  over the row's slots covered by cells with text (spanning cells count in every slot, as in the paper's normalized
  table) of A plus the cell's content score in that column (content.xsl); the column value is the mean of A over
  the column's slots in the data rows (no content evidence: see content.xsl).

  Order: k from the rows over all columns; p from the columns over the data rows below k, leaving out rows whose
  own format value stands $threshold above the data rows' mean (a bold total or highlighted row says nothing about
  the columns); if p > 0, k again from the rows over the columns right of the header columns (a bold key column
  raises every row alike and only blurs the row values).
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    xmlns:rs="urn:pyxform:row-slots"
    xmlns:sc="urn:pyxform:score"
    xmlns:u="urn:pyxform:usual"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- The members of a row's slot record (fp:row-slots), by position: the row's index, whether it is wide, whether
       it has text, the rows its cells with text are spanned from; and per slot covered by a cell with text (parallel
       sequences, in column order) the slot's column, its format value and marks, its content score, their sums, its
       typed code and its value for the column pass. -->
  <xsl:variable name="rs:index" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="rs:wide" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="rs:text" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="rs:spanned-from" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="rs:x" as="xs:integer" select="5" static="yes"/>
  <xsl:variable name="rs:format" as="xs:integer" select="6" static="yes"/>
  <xsl:variable name="rs:marks" as="xs:integer" select="7" static="yes"/>
  <xsl:variable name="rs:content" as="xs:integer" select="8" static="yes"/>
  <xsl:variable name="rs:format-content" as="xs:integer" select="9" static="yes"/>
  <xsl:variable name="rs:marks-content" as="xs:integer" select="10" static="yes"/>
  <xsl:variable name="rs:typed" as="xs:integer" select="11" static="yes"/>
  <xsl:variable name="rs:column" as="xs:integer" select="12" static="yes"/>

  <!-- The members of a score record (fp:row-scores, fp:column-scores; read by fp:boundary and f:evidence), by
       position: the row's (or column's) index, whether it is wide, whether it has text, whether its slots are typed
       as the data (rows), the rows its cells with text are spanned from (rows); and, where it has scored slots in
       the pass, its score, format value, marks (rows), sub-score (rows: the score with the marks for the format
       value) and content score (rows). A member a record has not is empty. -->
  <xsl:variable name="sc:index" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="sc:wide" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="sc:text" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="sc:data-typed" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="sc:spanned-from" as="xs:integer" select="5" static="yes"/>
  <xsl:variable name="sc:score" as="xs:integer" select="6" static="yes"/>
  <xsl:variable name="sc:format" as="xs:integer" select="7" static="yes"/>
  <xsl:variable name="sc:marks" as="xs:integer" select="8" static="yes"/>
  <xsl:variable name="sc:sub-score" as="xs:integer" select="9" static="yes"/>
  <xsl:variable name="sc:content" as="xs:integer" select="10" static="yes"/>

  <!-- The members of a line's usual values (fp:usual; read by f:distinct-score and fp:bands), by position: the usual
       face, text colour, background and class, and their look (f:look). -->
  <xsl:variable name="u:face" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="u:color" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="u:background" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="u:class" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="u:look" as="xs:integer" select="5" static="yes"/>

  <xsl:function name="f:format-analysis" as="map(*)">
    <xsl:param name="table-model" as="map(*)"/>
    <xsl:variable name="model" as="map(*)" select="f:with-features($table-model)"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <xsl:variable name="scored" as="array(*)*" select="$model?ids ! f:model-cell($model, .)[not(.($c:blank))]"/>
    <xsl:variable name="base" as="map(*)" select="fp:base($model, $scored)"/>
    <!-- the cells with text of each column over the rows that are not wide, once for the content profile and the
         usual values -->
    <xsl:variable name="narrow-rows" as="xs:integer*"
        select="(0 to $model?rows - 1)[not(f:is-wide-row($model, .))]"/>
    <xsl:variable name="column-cells" as="array(*)" select="array:join(for $x in 0 to $n - 1 return
        [ f:column-ids($model, $x, $narrow-rows) ! f:model-cell($model, .)[not(.($c:blank))] ])"/>
    <!-- the shape counts for cells outside a column's reference cells only if some row is wide (fp:content-profile) -->
    <xsl:variable name="profile" as="map(xs:integer, map(*))"
        select="fp:content-profile($column-cells, count($narrow-rows) lt $model?rows)"/>
    <!-- the usual face, colour, background and class of each column (over rows that are not wide) and of each row
         (sequences by column and row index, read by position) -->
    <xsl:variable name="column-usual" as="array(*)*"
        select="for $x in 0 to $n - 1 return fp:usual($column-cells($x + 1))"/>
    <xsl:variable name="row-usual" as="array(*)*"
        select="(0 to $model?rows - 1) ! fp:usual(f:model-row($model, .)?texts ! f:model-cell($model, .))"/>
    <!-- a band is a line of cells with text that share a background (fp:bands): where no cell with text has one
         (most tables), there is no band, of rows or of columns, and fp:bands is not called -->
    <xsl:variable name="painted" as="xs:boolean" select="some $cell in $scored satisfies $cell($c:background) ne ''"/>
    <xsl:variable name="row-bands" as="map(xs:integer, xs:boolean)" select="if (not($painted)) then map {}
        else fp:bands($model, $narrow-rows, function($y) { f:model-row($model, $y)?texts },
                      function($id, $x) { $column-usual[$x + 1] }, true())"/>
    <xsl:variable name="context" as="map(*)" select="map { 'model' : $model, 'base' : $base,
        'profile' : $profile, 'column-usual' : $column-usual, 'row-usual' : $row-usual, 'row-bands' : $row-bands,
        'painted' : $painted }"/>
    <!-- the slot values of every row, computed once for both row passes and the column pass -->
    <xsl:variable name="row-slots" as="array(*)*" select="fp:row-slots($context)"/>
    <!-- pass 1: k over all columns -->
    <xsl:variable name="rows-1" as="array(*)*" select="fp:row-scores($context, $row-slots, 0)"/>
    <xsl:variable name="row-boundary-1" as="map(*)" select="fp:boundary($rows-1, true(), $max-header-rows, ())"/>
    <xsl:variable name="kinds-1" as="array(xs:string)" select="f:row-kinds($model, $row-boundary-1?k, false())"/>
    <!-- p over the data rows, less those that stand out as a whole (a bold total row) -->
    <xsl:variable name="data-rows" as="xs:integer*" select="f:rows-of-kind($kinds-1, 'data')"/>
    <!-- as a map: "index = $data-rows" would compare each row with every data row -->
    <xsl:variable name="is-data-row" as="map(*)" select="map:merge($data-rows ! map { . : true() })"/>
    <xsl:variable name="data-format" as="xs:double*"
        select="$rows-1[map:contains($is-data-row, .($sc:index))] ! .($sc:format)"/>
    <xsl:variable name="usual" as="xs:double" select="(f:mean($data-format), 0)[1]"/>
    <xsl:variable name="column-rows" as="xs:integer*"
        select="$rows-1[map:contains($is-data-row, .($sc:index))][not(.($sc:format) ge $usual + $threshold)]
                ! .($sc:index)"/>
    <xsl:variable name="cols" as="array(*)*" select="fp:column-scores($context, $row-slots, $column-rows)"/>
    <xsl:variable name="col-boundary" as="map(*)" select="fp:boundary($cols, false(), $max-header-cols,
        fp:labels-rows($model, $column-rows))"/>
    <xsl:variable name="p" as="xs:integer" select="$col-boundary?k"/>
    <!-- pass 2: k over the columns right of the header columns -->
    <xsl:variable name="rows-2" as="array(*)*"
        select="if ($p gt 0) then fp:row-scores($context, $row-slots, $p) else $rows-1"/>
    <xsl:variable name="row-boundary" as="map(*)"
        select="if ($p gt 0) then fp:boundary($rows-2, true(), $max-header-rows, ()) else $row-boundary-1"/>
    <xsl:variable name="k" as="xs:integer" select="$row-boundary?k"/>
    <xsl:sequence select="map {
        'k' : $k,
        'p' : $p,
        'kinds' : if ($k eq $row-boundary-1?k) then $kinds-1 else f:row-kinds($model, $k, false()),
        'base' : $base,
        'row-scores' : $rows-2,
        'col-scores' : $cols,
        'row-boundary' : $row-boundary,
        'col-boundary' : $col-boundary,
        'model' : $model
      }"/>
  </xsl:function>

  <!-- The table's usual values: the most frequent font size among its cells with text (the paper's k0), indentation
       and row class. -->
  <xsl:function name="fp:base" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="scored" as="array(*)*"/>
    <xsl:variable name="sizes" as="xs:double*" select="$scored ! .($c:font-size)"/>
    <xsl:variable name="indents" as="xs:double*" select="$scored ! .($c:indent)"/>
    <!-- row classes of the rows with text: styling if one value covers at least half of them (zebra stripes, a
         body class); identifiers otherwise (a class per row, as "product-row-price") -->
    <xsl:variable name="row-classes" as="xs:string*"
        select="(0 to $model?rows - 1)[exists(f:model-row($model, .)?texts)] ! f:model-row($model, .)?class"/>
    <xsl:variable name="table-size" as="xs:double?"
        select="$model?table/@font-size[. castable as xs:double] ! xs:double(.)"/>
    <xsl:sequence select="map {
        'font-size' : if (fp:all-equal($sizes)) then $sizes[1]
                      else (f:mode($sizes ! string(.)) ! xs:double(.), $table-size, 16.0e0)[1],
        'row-class' : (f:mode($row-classes), '')[1],
        'row-classes-style' : f:mode-share($row-classes) ge 0.5,
        'indent' : if (empty($indents)) then 0.0e0
                   else if (fp:all-equal($indents)) then $indents[1]
                   else (f:mode($indents ! string(.)) ! xs:double(.), 0.0e0)[1]
      }"/>
  </xsl:function>

  <!-- The usual face, colour, background and class of some cells: the most frequent value of each (and their
       'look', f:look). Cells that all look alike (most lines: equal looks are equal in all four) have the first
       one's values, without the four fp:usual-value scans; one or two cells (the rows of a two-column table) have
       the last one's values, as f:mode gives them (a tie goes to the value that first occurs last). -->
  <xsl:function name="fp:usual" as="array(*)">
    <xsl:param name="cells" as="array(*)*"/>
    <xsl:variable name="first" as="array(*)?" select="$cells[1]"/>
    <xsl:variable name="count" as="xs:integer" select="count($cells)"/>
    <xsl:choose>
      <xsl:when test="$count eq 1 or $count eq 2 or (exists($first) and (every $cell in $cells satisfies $cell($c:look) eq $first($c:look)))">
        <xsl:variable name="cell" as="array(*)" select="if ($count le 2) then $cells[$count] else $first"/>
        <!-- the members in the order of the positions $u:... -->
        <xsl:sequence select="[ $cell($c:face), $cell($c:color), $cell($c:background), $cell($c:class),
                                $cell($c:look) ]"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="face" as="xs:string" select="fp:usual-value($cells ! .($c:face))"/>
        <xsl:variable name="color" as="xs:string" select="fp:usual-value($cells ! .($c:color))"/>
        <xsl:variable name="background" as="xs:string" select="fp:usual-value($cells ! .($c:background))"/>
        <xsl:variable name="class" as="xs:string" select="fp:usual-value($cells ! .($c:class))"/>
        <xsl:sequence select="[ $face, $color, $background, $class, f:look($face, $color, $background, $class) ]"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The most frequent of some values (f:mode), '' for none. Values all equal (most lines: no face, colour or class
       of their own) are answered by comparison, without f:mode's grouping (this runs four times per row and per
       column). -->
  <xsl:function name="fp:usual-value" as="xs:string">
    <xsl:param name="values" as="xs:string*"/>
    <xsl:sequence select="if (empty($values)) then ''
                          else if (every $value in $values satisfies $value eq $values[1]) then $values[1]
                          else (f:mode($values), '')[1]"/>
  </xsl:function>

  <!-- The features that set a cell apart from the cells around it (its column's usual values, for the rows; its
       row's, for the columns): face, text colour, background colour and class. The text colour of a cell whose text
       is mostly links is the page's colour of links, in data cells as much as in headers: it does not count. A cell
       that looks as the usual values (f:look: most cells) scores 0 by one comparison (this runs for every slot). -->
  <xsl:function name="f:distinct-score" as="xs:double">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="usual" as="array(*)"/>
    <xsl:sequence select="if ($cell($c:look) eq $usual($u:look)) then 0 else sum((
        if ($cell($c:face) ne $usual($u:face)) then $weight-face else 0,
        if ($cell($c:color) ne $usual($u:color) and not($cell($c:link-coloured))) then $weight-color else 0,
        if ($cell($c:background) ne $usual($u:background)) then $weight-background else 0,
        if ($cell($c:class) ne $usual($u:class)) then $weight-class else 0))"/>
  </xsl:function>

  <!-- The feature value of a cell with text without the features relative to its line (see the module comment;
       weights in params.xsl): size, bold, italic, colon, indentation, a header class, and a row class that differs
       from the table's usual one. -->
  <xsl:function name="f:format-score" as="xs:double">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="base" as="map(*)"/>
    <xsl:sequence select="fp:marks-score($cell, $base)
                          + fp:size-score($cell($c:font-size), f:font-size-level($base?font-size))"/>
  </xsl:function>

  <!-- The size term of f:format-score for a cell of font size $font-size (px; none if unknown: 0) in a table whose
       usual size is at level $base-level of the font-size scale. -->
  <xsl:function name="fp:size-score" as="xs:double">
    <xsl:param name="font-size" as="xs:double?"/>
    <xsl:param name="base-level" as="xs:double"/>
    <xsl:sequence select="
        if (exists($font-size))
        then fp:size-difference(f:font-size-level($font-size) - $base-level) * $weight-size-level
        else 0"/>
  </xsl:function>

  <!-- f:format-score without the size term: the marks a cell carries whatever its type size. -->
  <xsl:function name="fp:marks-score" as="xs:double">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="base" as="map(*)"/>
    <xsl:sequence select="sum((
        if ($cell($c:bold)) then $weight-bold else 0,
        if ($cell($c:italic)) then $weight-italic else 0,
        if ($cell($c:colon)) then $weight-colon else 0,
        if ($cell($c:indent) lt $base?indent) then $weight-indent else 0,
        if ($base?row-classes-style and $cell($c:row-class) ne $base?row-class) then $weight-class else 0,
        if (($cell($c:class) ne '' and f:is-header-class($cell($c:class)))
            or ($cell($c:row-class) ne '' and f:is-header-class($cell($c:row-class)))) then $weight-header-class else 0))"/>
  </xsl:function>

  <!-- The size term: the paper's signed (n - k0), or its absolute value with $size-difference = 'absolute'. -->
  <xsl:function name="fp:size-difference" as="xs:double">
    <xsl:param name="levels" as="xs:double"/>
    <xsl:sequence select="if ($size-difference eq 'absolute') then abs($levels) else $levels"/>
  </xsl:function>

  <!-- The slots of each row covered by scored cells, once for the row passes and the column pass: one slot record
       per row (an array read by the positions $rs:..., declared above: a map of twelve entries costs eight times as
       much to build), its index, wide, text, spanned-from, the slots' columns x and per slot (parallel sequences) the
       format value and the marks with the distinct score from the column's usual values (format, marks), content,
       their sums format-content, marks-content, typed (0 column not numeric, 1 numeric, 2 a number there) and
       column (the column pass' value: the larger of value and marks, with the distinct score from the row's). -->
  <xsl:function name="fp:row-slots" as="array(*)*">
    <xsl:param name="context" as="map(*)"/>
    <xsl:variable name="model" as="map(*)" select="$context?model"/>
    <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
    <!-- the context's maps looked up once per table, and per column once (not per slot) whether it is numeric, its
         usual values and the column terms of its content scores (f:content-rule); the usual size's level once (a cell
         of the usual size, most cells, has a size term of 0: not computed) -->
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <xsl:variable name="base" as="map(*)" select="$context?base"/>
    <xsl:variable name="base-size" as="xs:double" select="$base?font-size"/>
    <xsl:variable name="base-level" as="xs:double" select="f:font-size-level($base-size)"/>
    <xsl:variable name="profile" as="map(*)" select="$context?profile"/>
    <xsl:variable name="row-usual" as="array(*)*" select="$context?row-usual"/>
    <xsl:variable name="column-usual" as="array(*)*" select="$context?column-usual"/>
    <xsl:variable name="numeric" as="xs:boolean*"
        select="for $x in 0 to $n - 1 return f:is-numeric-column($profile, $x)"/>
    <xsl:variable name="rules" as="array(*)*" select="for $x in 0 to $n - 1 return f:content-rule($profile, $x)"/>
    <xsl:for-each select="0 to $model?rows - 1">
      <xsl:variable name="y" as="xs:integer" select="."/>
      <xsl:variable name="row" as="map(*)" select="f:model-row($model, $y)"/>
      <xsl:variable name="usual-of-row" as="array(*)" select="$row-usual[$y + 1]"/>
      <xsl:variable name="owners" as="xs:string*" select="$model?owner($y + 1)?*"/>
      <!-- one pass over the slots: per slot covered by a cell with text, six values, its column, the format value,
           the marks (each with the distinct score), the content score, the typed code and the column pass' value,
           read back by position below -->
      <xsl:variable name="slot-values" as="xs:double*" select="for $x in 0 to $n - 1 return
          let $id := $owners[$x + 1] return if ($id eq '') then () else
          let $cell := $cells($id) return if ($cell($c:blank)) then () else
          let $type := $cell($c:type), $look := $cell($c:look),
              $marks := fp:marks-score($cell, $base),
              $value := $marks + (if ($cell($c:font-size) eq $base-size) then 0
                                  else fp:size-score($cell($c:font-size), $base-level)),
              $usual := $column-usual[$x + 1],
              $distinct := if ($look eq $usual($u:look)) then 0 else f:distinct-score($cell, $usual)
          return ($x, $value + $distinct, $marks + $distinct,
                  if ($type eq 'text') then f:rule-content-score($rules[$x + 1], $cell) else 0,
                  if (not($numeric[$x + 1])) then 0 else if ($type eq 'numeric') then 2 else 1,
                  max(($value, $marks))
                  + (if ($look eq $usual-of-row($u:look)) then 0 else f:distinct-score($cell, $usual-of-row)))"/>
      <xsl:variable name="slots" as="xs:integer*" select="0 to count($slot-values) idiv 6 - 1"/>
      <!-- the members in the order of the positions $rs:... -->
      <xsl:sequence select="[
          $y, $row?wide, exists($row?texts),
          distinct-values($row?texts ! $cells(.)[.($c:row) lt $y] ! .($c:row)),
          for $i in $slots return xs:integer($slot-values[6 * $i + 1]),
          for $i in $slots return $slot-values[6 * $i + 2],
          for $i in $slots return $slot-values[6 * $i + 3],
          for $i in $slots return $slot-values[6 * $i + 4],
          for $i in $slots return $slot-values[6 * $i + 2] + $slot-values[6 * $i + 4],
          for $i in $slots return $slot-values[6 * $i + 3] + $slot-values[6 * $i + 4],
          for $i in $slots return $slot-values[6 * $i + 5],
          for $i in $slots return $slot-values[6 * $i + 6]
        ]"/>
    </xsl:for-each>
  </xsl:function>

  <!-- Row values over the columns from $from on (fp:row-slots of the rows): one score record per row (positions
       $sc:...). -->
  <xsl:function name="fp:row-scores" as="array(*)*">
    <xsl:param name="context" as="map(*)"/>
    <xsl:param name="row-slots" as="array(*)*"/>
    <xsl:param name="from" as="xs:integer"/>
    <xsl:for-each select="$row-slots">
      <xsl:variable name="row" as="array(*)" select="."/>
      <!-- the slots in columns $from.. : a tail of the row's slots (their columns ascend) -->
      <xsl:variable name="start" as="xs:integer" select="count($row($rs:x)[. lt $from]) + 1"/>
      <xsl:variable name="typed" as="xs:double*" select="subsequence($row($rs:typed), $start)[. gt 0]"/>
      <xsl:variable name="data-typed" as="xs:boolean"
          select="exists($typed) and count($typed[. eq 2]) * 2 ge count($typed)"/>
      <!-- a band of numbers in numeric columns is a highlighted data row (a winner, a total), not a header -->
      <xsl:variable name="band" as="xs:double"
          select="if (map:contains($context?row-bands, $row($rs:index)) and not($data-typed)) then $weight-band else 0"/>
      <!-- the score record's members in the order of the positions $sc:... (the scores empty without slots) -->
      <xsl:variable name="scored" as="xs:boolean" select="$start le count($row($rs:x))"/>
      <xsl:sequence select="[
          $row($rs:index), $row($rs:wide), $row($rs:text), $data-typed, $row($rs:spanned-from),
          if ($scored) then f:mean(subsequence($row($rs:format-content), $start)) + $band else (),
          if ($scored) then f:mean(subsequence($row($rs:format), $start)) + $band else (),
          if ($scored) then f:mean(subsequence($row($rs:marks), $start)) + $band else (),
          if ($scored) then f:mean(subsequence($row($rs:marks-content), $start)) + $band else (),
          if ($scored) then f:mean(subsequence($row($rs:content), $start)) else ()
        ]"/>
    </xsl:for-each>
  </xsl:function>

  <!-- Column values over the rows $rows: one score record per column (index, score; no score without text), from
       the slots' column values of those rows (fp:row-slots: smaller type does not take away a cell's marks here: a
       column of row headers in smaller bold type heads its rows as one in the usual size does). -->
  <xsl:function name="fp:column-scores" as="array(*)*">
    <xsl:param name="context" as="map(*)"/>
    <xsl:param name="row-slots" as="array(*)*"/>
    <xsl:param name="rows" as="xs:integer*"/>
    <xsl:variable name="model" as="map(*)" select="$context?model"/>
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <!-- no cell with text with a background: no band (f:format-analysis) -->
    <xsl:variable name="bands" as="map(xs:integer, xs:boolean)" select="if (not($context?painted)) then map {}
        else let $row-usual := $context?row-usual return fp:bands($model, 0 to $model?cols - 1,
                      function($x) { f:column-ids($model, $x, $rows)[not($cells(.)($c:blank))] },
                      function($id, $x) { $row-usual[$cells($id)($c:row) + 1] }, false())"/>
    <xsl:variable name="slot-rows" as="array(*)*" select="for $y in $rows return $row-slots[$y + 1]"/>
    <xsl:for-each select="0 to $model?cols - 1">
      <xsl:variable name="x" as="xs:integer" select="."/>
      <!-- each row's slot in column x: at its position among the row's scored slots -->
      <xsl:variable name="slots" as="xs:double*" select="$slot-rows ! (let $at := index-of(.($rs:x), $x) return .($rs:column)[$at])"/>
      <xsl:variable name="band" as="xs:double" select="if (map:contains($bands, $x)) then $weight-band else 0"/>
      <xsl:variable name="score" as="xs:double?" select="f:mean($slots) ! (. + $band)"/>
      <!-- the score record (positions $sc:...): a column's score is its format value -->
      <xsl:sequence select="[ $x, false(), exists($slots), (), (), $score, $score, (), (), () ]"/>
    </xsl:for-each>
  </xsl:function>

  <!--
    Bands: lines (rows, or columns) whose cells with text all share one background colour of their own, a header band
    (a row or column painted as a whole, as header rows and header columns often are, while conditional colours
    such as win/loss backgrounds vary from cell to cell). A line is a band if at least two of its cells with text
    ($ids($line)), and at least $typed-share of them (a highlighted row may cross a band column), have the same
    background B (not none), at least half of those differ from the usual background across the line
    ($usual($id, $line): their column's, for a row; their row's, for a column), and no other line has B on all of
    its cells with text. map { line : true() } of the bands. $rows: the lines are rows (a wide row is no band).
  -->
  <xsl:function name="fp:bands" as="map(xs:integer, xs:boolean)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="lines" as="xs:integer*"/>
    <xsl:param name="ids" as="function(xs:integer) as xs:string*"/>
    <xsl:param name="usual" as="function(xs:string, xs:integer) as array(*)?"/>
    <xsl:param name="rows" as="xs:boolean"/>
    <!-- the one background of each line whose cells with text share one -->
    <xsl:variable name="painted" as="map(*)*" select="for $line in $lines return
        let $all := $ids($line) ! f:model-cell($model, .), $colour := fp:usual-value($all ! .($c:background)),
            $cells := $all[.($c:background) eq $colour]
        return map { 'line' : $line, 'background' : $colour, 'cells' : $cells }
               [$colour ne '' and count($cells) ge 2 and count($cells) ge $typed-share * count($all)]"/>
    <xsl:sequence select="map:merge(for $band in $painted return
        let $differ := $band?cells[.($c:background) ne ($usual(.($c:id), if ($rows) then .($c:col) else .($c:row)) ! .($u:background), '')[1]]
        return if (count($differ) * 2 ge count($band?cells)
                   and count($painted[?background eq $band?background]) eq 1)
               then map { $band?line : true() } else ())"/>
  </xsl:function>

  <!--
    The header columns up to column x label the rows (Zhang & Li's row headers head their rows): the table has at
    least two rows (a table of one row is no column of labels), and of the rows $rows (the data rows the columns are
    scored over) at least half have text in columns 0 .. x, and at least half of those have
    texts there that no other row has (a column of the same few values, "Win", "Loss", is data, however it is
    coloured; a repeated outer header such as a team's name next to its years is labelled with the years). Returns
    the test as a function of x.
  -->
  <xsl:function name="fp:labels-rows" as="function(xs:integer) as xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="rows" as="xs:integer*"/>
    <xsl:sequence select="function($x as xs:integer) as xs:boolean {
        let $labels := $rows ! string-join(for $c in 0 to $x return
                         (f:owner($model, ., $c)[. ne ''] ! f:model-cell($model, .)($c:text), '')[1], '&#9;')
                       [normalize-space(translate(., '&#9;', ' ')) ne '']
        return $model?rows ge 2 and count($labels) * 2 ge count($rows)
               and count(distinct-values($labels)) * 2 ge count($labels) }"/>
  </xsl:function>

</xsl:stylesheet>
