<?xml version="1.0" encoding="UTF-8"?>
<!--
  The table model of the headers stage: one map per px:table, built once, that every other module reads.

    f:table-model($table) => map {
      'table'  : the px:table element,
      'rows'   : m,  'cols' : n,
      'cells'  : map { cell id : cell map (below) },
      'ids'    : cell ids in tree order,
      'owner'  : array of m arrays of n strings: the id of the cell covering slot (y, x), or '' if none,
      'row-elements' : the m px:row elements by index (the rows of 'owner' and 'row'),
      'in-order' : m booleans: row y's px:slot children are its n slots in column order (fp:slots-in-order),
      'skip'   : map { "y:x" : true } for slots that more than one cell covers (WHATWG: a scan skips them),
      'row'    : array of m row maps { 'index', 'group-kind', 'class', 'ids' (distinct covering cell ids,
                 left to right), 'texts' (those with visible text), 'contents' (those with any content),
                 'wide', 'spanning' (see f:is-wide-row), 'row-headed' (the cells anchored in the row are th
                 cells followed by td cells only, empty ones or ones holding a table included: WHATWG reads the th
                 cells as the row's headers, since a td shares their row) },
    }

  A cell map holds the grid attributes (row, col, rowspan, colspan, tag, scope), the text (with blank, empty), bold,
  and the px:cell element ('element'); the attributes that only the markup's rare cases read (group, html-id,
  headers: assign.xsl) are read from the element where needed, since every entry of a map built once per cell costs
  (~0.6 us to build and hold, against ~0.1 us an array member). The features that only the formatting method
  reads (content type, script, case, length, colon; font size, italic, face, colours, indentation, classes) are
  added for the cells with text by f:with-features($model) (f:cell-features): a cell map costs per entry, and the
  content features cost regular expressions.

  No per-cell sibling scans: the owner grid is read once row by row; everything else is map look-ups.

  Types: a parameter of a function called once per cell, slot, row or column that receives one of the table-wide
  maps or arrays (cells, roles, row kinds, profiles) is declared map(*) or array(*), with the precise type in its
  description: Saxon checks a declared member type such as array(xs:integer) member by member on every call, which
  made such a call cost the size of the table.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:err="http://www.w3.org/2005/xqt-errors"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:table-model" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <!-- the rows by index: as they are when their indexes are 0, 1, 2, ... in tree order (the grid writes them so),
         without the sort and its integer casts -->
    <xsl:variable name="table-rows" as="element(px:row)*" select="$table/px:row"/>
    <xsl:variable name="rows" as="element(px:row)*" select="
        if (every $i in 1 to count($table-rows) satisfies string($table-rows[$i]/@index) eq string($i - 1))
        then $table-rows else sort($table-rows, (), function($row) { xs:integer($row/@index) })"/>
    <xsl:variable name="m" as="xs:integer" select="count($rows)"/>
    <xsl:variable name="n" as="xs:integer"
        select="if ($table/@cols castable as xs:integer) then xs:integer($table/@cols)
                else max((0, $rows ! count(px:slot)))"/>
    <!-- the classes of each row, for the row maps -->
    <xsl:variable name="classes" as="xs:string*" select="$rows ! f:style-classes(@class)"/>
    <!-- one xsl:map-entry per cell, not a map:merge of one-entry maps (~5 us a cell less on a 3,000-row table);
         xsl:map rejects a repeated id, which a grid that is not valid may hold: such a grid gets map:merge's first
         cell of each id, as before -->
    <xsl:variable name="cells" as="map(xs:string, map(*))">
      <xsl:try>
        <xsl:map>
          <xsl:for-each select="$table/px:cell">
            <xsl:map-entry key="string(@id)" select="fp:model-cell(.)"/>
          </xsl:for-each>
        </xsl:map>
        <xsl:catch errors="err:XTDE3365">
          <xsl:sequence select="map:merge($table/px:cell ! map { string(@id) : fp:model-cell(.) })"/>
        </xsl:catch>
      </xsl:try>
    </xsl:variable>
    <!-- the column indexes as the grid writes them, for the test of the usual row in fp:row-owners -->
    <xsl:variable name="col-names" as="xs:string*" select="(0 to $n - 1) ! string(.)"/>
    <!-- per row: its px:slot children are its n slots in column order (the grid writes them so), which
         fp:row-owners and the annotation read -->
    <xsl:variable name="in-order" as="xs:boolean*" select="$rows ! fp:slots-in-order(., $n, $col-names)"/>
    <xsl:variable name="owner" as="array(*)" select="array:join(
        for $y in 1 to $m return [ array { fp:row-owners($rows[$y], $n, $cells, $in-order[$y]) } ])"/>
    <xsl:variable name="overlaps" as="element(px:error)*" select="$table/px:error[@code eq 'overlap']"/>
    <xsl:variable name="skip" as="map(xs:string, xs:boolean)"
        select="if (empty($overlaps)) then map {}
                else map:merge($overlaps ! map { @row || ':' || @col : true() }, map { 'duplicates' : 'use-first' })"/>
    <!-- the row maps; a row whose one text cell is a lone heading mark (fp:model-row) is wide unless the mark is its
         column's: the column marks (fp:column-marks, a pass over all cells) are counted only when such a row exists
         (few tables have one), and its 'wide' decided then -->
    <xsl:variable name="rows-1" as="map(*)*" select="
        for $y in 1 to $m
        return fp:model-row($rows[$y], $y - 1, $classes[$y], distinct-values($owner($y)?*[. ne '']), $cells, $n)"/>
    <xsl:variable name="row-maps" as="array(*)" select="
        if (every $row in $rows-1 satisfies exists($row?wide)) then array { $rows-1 }
        else let $column-marks := fp:column-marks($cells?*) return array { $rows-1 ! (
          if (exists(?wide)) then .
          else let $only := $cells(?texts) return
               map:put(., 'wide', not(fp:column-mark($column-marks($only?col), $only)))) }"/>
    <xsl:sequence select="map {
        'table' : $table,
        'rows' : $m,
        'cols' : $n,
        'cells' : $cells,
        'ids' : $table/px:cell/string(@id),
        'owner' : $owner,
        'row-elements' : $rows,
        'in-order' : $in-order,
        'skip' : $skip,
        'row' : $row-maps
      }"/>
  </xsl:function>

  <!-- True if the row's px:slot children are its n slots in column order, the i-th with col "i - 1" (the usual row:
       the grid writes them so). $col-names: the strings "0" .. "n - 1", compared with the columns as they are, not
       an integer made a string per slot. -->
  <xsl:function name="fp:slots-in-order" as="xs:boolean">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="col-names" as="xs:string*"/>
    <xsl:variable name="slots" as="element(px:slot)*" select="$row/px:slot"/>
    <xsl:sequence select="count($slots) eq $n
                          and (every $i in 1 to $n satisfies string($slots[$i]/@col) eq $col-names[$i])"/>
  </xsl:function>

  <!-- The owner id of each of the n slots of a row, in column order ('' where no cell covers the slot). A slot that
       names no cell of the table is a broken grid: reported (px:unknown-cell) and read as a slot without a cell.
       $in-order: fp:slots-in-order of the row. -->
  <xsl:function name="fp:row-owners" as="xs:string*">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="cells" as="map(*)"/>
    <xsl:param name="in-order" as="xs:boolean"/>
    <!-- each slot's cell attribute read once, for the test and the result -->
    <xsl:variable name="owners" as="xs:string*" select="if ($in-order) then $row/px:slot ! string(@cell) else ()"/>
    <xsl:choose>
      <!-- the usual row: its slots' cells as they are -->
      <xsl:when test="$in-order and (every $id in $owners satisfies ($id eq '' or map:contains($cells, $id)))">
        <xsl:sequence select="$owners"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:row-owners-by-column($row, $n, $cells)"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- fp:row-owners for any row: its slots by column. -->
  <xsl:function name="fp:row-owners-by-column" as="xs:string*">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="cells" as="map(*)"/>
    <xsl:variable name="by-col" as="map(xs:integer, xs:string)" select="map:merge(
        $row/px:slot[@col castable as xs:integer] ! map { xs:integer(@col) : string(@cell) },
        map { 'duplicates' : 'use-last' })"/>
    <xsl:for-each select="0 to $n - 1">
      <xsl:variable name="id" as="xs:string" select="($by-col(.), '')[1]"/>
      <xsl:choose>
        <xsl:when test="$id eq '' or map:contains($cells, $id)">
          <xsl:sequence select="$id"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:message error-code="px:unknown-cell">[px:unknown-cell] table {$row/../@index} row {$row/@index} slot {.}: no cell "{$id}"</xsl:message>
          <xsl:sequence select="''"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:for-each>
  </xsl:function>

  <xsl:function name="fp:model-cell" as="map(*)">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="text" as="xs:string" select="string($cell/px:text)"/>
    <xsl:variable name="blank" as="xs:boolean" select="f:is-blank($text)"/>
    <!-- built with xsl:map (measured ~20% fewer instructions than the same twelve entries as a map constructor
         expression); the spans through fp:span -->
    <xsl:map>
      <xsl:map-entry key="'id'" select="string($cell/@id)"/>
      <xsl:map-entry key="'row'" select="xs:integer($cell/@row)"/>
      <xsl:map-entry key="'col'" select="xs:integer($cell/@col)"/>
      <xsl:map-entry key="'rowspan'" select="fp:span($cell/@rowspan)"/>
      <xsl:map-entry key="'colspan'" select="fp:span($cell/@colspan)"/>
      <xsl:map-entry key="'tag'" select="let $tag := string($cell/@tag) return
                                         if ($tag eq 'td' or $tag eq 'th') then $tag else lower-case($tag)"/>
      <xsl:map-entry key="'scope'" select="if (exists($cell/@scope)) then lower-case(normalize-space($cell/@scope)) else ''"/>
      <xsl:map-entry key="'text'" select="$text"/>
      <xsl:map-entry key="'blank'" select="$blank"/>
      <xsl:map-entry key="'empty'" select="$blank and empty($cell/(px:image | px:table-ref | px:link))"/>
      <xsl:map-entry key="'bold'" select="let $bold := string($cell/@bold) return $bold eq 'true' or $bold eq '1'"/>
      <xsl:map-entry key="'element'" select="$cell"/>
    </xsl:map>
  </xsl:function>

  <!-- Face, colour, background and class in one string, tab-separated (none of them holds a tab: normalize-space and
       f:style-classes leave none): two cells (or a cell and a line's usual values) with equal looks are equal in all
       four, so that f:distinct-score answers 0 with one comparison (most cells of a line look alike). -->
  <xsl:function name="f:look" as="xs:string">
    <xsl:param name="face" as="xs:string"/>
    <xsl:param name="color" as="xs:string"/>
    <xsl:param name="background" as="xs:string"/>
    <xsl:param name="class" as="xs:string"/>
    <xsl:sequence select="$face || '&#9;' || $color || '&#9;' || $background || '&#9;' || $class"/>
  </xsl:function>

  <!-- A rowspan or colspan attribute as the number of rows or columns spanned: its value rounded down if it is a
       number of at least 1, else 1. number() and a NaN-safe test instead of "castable as" (the same values for the
       grid's integers at a fraction of the cost); the grid's usual "1" is answered without number() and the cast
       of a double to an integer, which cost ~20,000 instructions a span (callgrind; this runs twice per cell). -->
  <xsl:function name="fp:span" as="xs:integer">
    <xsl:param name="span" as="attribute()?"/>
    <xsl:variable name="value" as="xs:string" select="string($span)"/>
    <xsl:sequence select="if ($value eq '1') then 1
                          else let $number := number($value) return
                               if ($number ge 1) then xs:integer(floor($number)) else 1"/>
  </xsl:function>

  <!--
    The features of a cell with text that only the formatting method reads (computed for it alone: the content
    features cost regular expressions): the content features, 'type' (f:content-type), and for a cell of type 'text'
    'script' (f:script), 'case' (f:initial-case) and 'length' (characters without footnote markers; for other cells
    'none', 'none' and 0, never read), 'colon' (a trailing colon), and the formatting
    features of clean, 'font-size' (px, absent if unknown), 'italic', 'face', 'color', 'link-coloured' (most of its
    text is the text of links, so that its colour is the page's colour of links), 'background', 'indent' (px),
    'class' and 'row-class' (the class of the cell's row; classes as f:style-classes gives them), and 'look' (face,
    colour, background and class in one string, f:look: f:distinct-score compares it first).
  -->
  <xsl:function name="f:cell-features" as="map(*)">
    <xsl:param name="cell" as="map(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:sequence select="fp:cell-features($cell, $row-classes, true())"/>
  </xsl:function>

  <!-- f:cell-features, with 'link-coloured' computed only if $coloured (some cell of the table has a colour): else it
       is false(), never read (f:distinct-score reads it only for a cell whose colour differs from its line's usual
       colour, the most frequent among the cells with text: all of them '' where no cell has a colour). A text
       without '[' (no reference mark: its clean form is its normalized form) of printable ASCII and white space
       alone, of type 'text' (so with a letter), has script 'latin', without f:script's two passes over it. -->
  <xsl:function name="fp:cell-features" as="map(*)">
    <xsl:param name="cell" as="map(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:param name="coloured" as="xs:boolean"/>
    <xsl:variable name="text" as="xs:string" select="$cell?text"/>
    <xsl:variable name="element" as="element(px:cell)" select="$cell?element"/>
    <xsl:variable name="font-size" as="xs:double" select="number($element/@font-size)"/>
    <xsl:variable name="indent" as="xs:double" select="number($element/@indent)"/>
    <!-- the clean text once for the type and the length; script, case and length are read for the cells of type
         'text' alone (content.xsl counts them over text cells, f:content-score compares them for a text cell only),
         so the other cells (numbers and dates: most data cells) get constants instead of their costs -->
    <xsl:variable name="clean" as="xs:string" select="normalize-space(f:strip-marks($text))"/>
    <xsl:variable name="rest" as="xs:string" select="fp:ascii-rest($clean)"/>
    <xsl:variable name="type" as="xs:string" select="fp:clean-content-type($clean, $rest)"/>
    <xsl:variable name="is-text" as="xs:boolean" select="$type eq 'text'"/>
    <xsl:variable name="face" as="xs:string" select="lower-case(normalize-space($element/@face))"/>
    <xsl:variable name="color" as="xs:string" select="lower-case(normalize-space($element/@color))"/>
    <xsl:variable name="background" as="xs:string" select="lower-case(normalize-space($element/@background))"/>
    <xsl:variable name="class" as="xs:string"
        select="if (exists($element/@class)) then f:style-classes($element/@class) else ''"/>
    <xsl:sequence select="map {
        'type' : $type,
        'script' : if (not($is-text)) then 'none'
                   else if ($rest eq '' and not(contains($text, '['))) then 'latin'
                   else f:script($text),
        'case' : if ($is-text) then f:initial-case($text) else 'none',
        'length' : if ($is-text) then string-length($clean) else 0,
        'colon' : f:has-trailing-colon($text),
        'font-size' : if ($font-size eq $font-size) then $font-size else (),
        'italic' : $element/@italic = ('true', '1'),
        'face' : $face,
        'color' : $color,
        'link-coloured' : $coloured and exists($element/px:link)
                          and sum($element/px:link ! string-length(normalize-space(.))) * 2
                              ge string-length(normalize-space($text)),
        'background' : $background,
        'indent' : if ($indent eq $indent) then $indent else 0.0e0,
        'class' : $class,
        'look' : f:look($face, $color, $background, $class),
        'row-class' : ($row-classes($cell?row), '')[1]
      }"/>
  </xsl:function>

  <!-- The model with f:cell-features added to the cell maps of the cells with text (for the formatting method). -->
  <xsl:function name="f:with-features" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <!-- one entry per cell id, not a merge of the changed cells with the whole cells map; one xsl:map-entry per
         cell map (each once: the keys of the cells map are distinct, and each cell map's id is its key), not a
         map:merge of one-entry maps -->
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <!-- the classes of each row by row index (the first row of an index), for 'row-class': built here, since only
         the formatting method reads it -->
    <xsl:variable name="row-classes" as="map(*)"
        select="map:merge($model?table/px:row ! map { xs:integer(@index) : f:style-classes(@class) })"/>
    <!-- a cell with a colour: fp:cell-features' 'link-coloured' is read -->
    <xsl:variable name="coloured" as="xs:boolean"
        select="some $color in $model?table/px:cell/@color satisfies normalize-space($color) ne ''"/>
    <xsl:variable name="with-features" as="map(*)">
      <xsl:map>
        <xsl:for-each select="$cells?*">
          <xsl:map-entry key="?id" select="if (?blank) then .
                                           else map:merge((., fp:cell-features(., $row-classes, $coloured)))"/>
        </xsl:for-each>
      </xsl:map>
    </xsl:variable>
    <xsl:sequence select="map:put($model, 'cells', $with-features)"/>
  </xsl:function>

  <!-- The map of row y (f:table-model), but for 'wide' where it depends on the column marks of the row's one text cell
       (a lone th or bold cell in a table of at least three columns): left empty, for f:table-model to decide. -->
  <xsl:function name="fp:model-row" as="map(*)">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="class" as="xs:string"/>
    <xsl:param name="ids" as="xs:string*"/>
    <xsl:param name="cells" as="map(*)"/>
    <xsl:param name="n" as="xs:integer"/>
    <!-- the cell maps of the row, looked up once for the lists below -->
    <xsl:variable name="row-cells" as="map(*)*" select="$ids ! $cells(.)"/>
    <xsl:variable name="text-cells" as="map(*)*" select="$row-cells[not(?blank)]"/>
    <xsl:variable name="texts" as="xs:string*" select="$text-cells ! ?id"/>
    <xsl:variable name="contents" as="xs:string*" select="$row-cells[not(?empty)] ! ?id"/>
    <xsl:variable name="only" as="map(*)?" select="if (count($texts) eq 1 and count($contents) eq 1)
                                                  then $text-cells else ()"/>
    <!-- the tags of the cells anchored in the row, left to right -->
    <xsl:variable name="tags" as="xs:string*" select="$row-cells[?row eq $y] ! ?tag"/>
    <xsl:variable name="first-td" as="xs:integer?" select="index-of($tags, 'td')[1]"/>
    <xsl:sequence select="map {
        'index' : $y,
        'group-kind' : string($row/@group-kind),
        'class' : $class,
        'ids' : $ids,
        'texts' : $texts,
        'contents' : $contents,
        'row-headed' : exists($first-td) and $first-td gt 1 and not(subsequence($tags, $first-td) = 'th'),
        'spanning' : exists($only) and $only?row eq $y and $only?rowspan eq 1
                     and $only?colspan ge 2 and $only?colspan * 2 ge $n,
        'wide' : if (not(exists($only) and $only?row eq $y and $only?rowspan eq 1)) then false()
                 else if ($only?colspan ge 2 and $only?colspan * 2 ge $n) then true()
                 else if ($n ge 3 and ($only?tag eq 'th' or $only?bold) and $only?scope ne 'row') then ()
                 else false()
      }"/>
  </xsl:function>

  <!-- Per column: how many of the cells with text anchored in it, in rows that hold a td (not rows of header cells
       alone), spanning that column only, are th, and bold: map { column : map { 'text', 'th', 'bold' } }. The cell
       maps are the values of the cells map (each once, in any order, as the marks are counts), not a look-up per
       id, nor map:for-each (a dynamic function call per cell cost as much as the rest of the model). -->
  <xsl:function name="fp:column-marks" as="map(xs:integer, map(*))">
    <xsl:param name="cell-maps" as="map(*)*"/>
    <!-- one map per row with a td, not per td cell -->
    <xsl:variable name="td-rows" as="map(xs:integer, xs:boolean)" select="map:merge(
        distinct-values($cell-maps[?tag eq 'td'] ! ?row) ! map { . : true() })"/>
    <xsl:map>
      <xsl:for-each-group select="$cell-maps[not(?blank) and ?colspan eq 1 and map:contains($td-rows, ?row)]"
          group-by="?col">
        <xsl:map-entry key="current-grouping-key()" select="map {
            'text' : count(current-group()), 'th' : count(current-group()[?tag eq 'th']),
            'bold' : count(current-group()[?bold]) }"/>
      </xsl:for-each-group>
    </xsl:map>
  </xsl:function>

  <!-- True if the heading mark of a lone cell (th, or bold for a td) is its column's own: at least half of the other
       cells with text anchored in its column (in rows with a td, one column wide) carry it (a row header column of th, a bold key column), so that the
       cell heads its own row, whose other cells are empty (missing values), as the others head theirs. -->
  <xsl:function name="fp:column-mark" as="xs:boolean">
    <xsl:param name="marks" as="map(*)?"/>
    <xsl:param name="cell" as="map(*)"/>
    <xsl:variable name="others" as="xs:integer" select="($marks?text, 1)[1] - 1"/>
    <xsl:variable name="marked" as="xs:integer"
        select="if ($cell?tag eq 'th') then ($marks?th, 1)[1] - 1 else ($marks?bold, 1)[1] - 1"/>
    <xsl:sequence select="$others gt 0 and $marked * 2 ge $others"/>
  </xsl:function>

  <!-- ===================================================================================================== -->
  <!-- Look-ups                                                                                              -->
  <!-- ===================================================================================================== -->

  <!-- The id of the cell covering slot (y, x), or '' if none. -->
  <xsl:function name="f:owner" as="xs:string">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:sequence select="$model?owner($y + 1)($x + 1)"/>
  </xsl:function>

  <!-- The row map of row y. -->
  <xsl:function name="f:model-row" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="$model?row($y + 1)"/>
  </xsl:function>

  <!-- The cell map of a cell id. -->
  <xsl:function name="f:model-cell" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:sequence select="$model?cells($id)"/>
  </xsl:function>

  <!-- Distinct ids of the cells covering column x, top to bottom, over the rows given (all rows if empty). -->
  <xsl:function name="f:column-ids" as="xs:string*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:param name="rows" as="xs:integer*"/>
    <!-- the owner grid looked up once, not through f:owner per row (this runs for many columns of every table) -->
    <xsl:variable name="owner" as="array(*)" select="$model?owner"/>
    <xsl:sequence select="distinct-values(for $y in $rows return $owner($y + 1)($x + 1)[. ne ''])"/>
  </xsl:function>

  <!--
    True if row y is a wide row: the row holds one cell with content, which has visible text, is anchored in the
    row and spans only it, and either spans at least two columns and at least half the table's width (a spanning
    row), or is marked as a heading (th or bold) in a table of at least three columns with the rest of the row left
    empty (as in "<th>Group A</th><td></td><td></td>") where that mark is not its column's (fp:column-mark). A th
    with scope=row is not such a heading: its author declares that it heads its own row (HTML 4.9.12.2), which is a
    data row with empty data cells; nor is a th in a column of th row headers (or a bold td in a bold key column):
    it heads its own row as the others do, and the row is a data row whose values are missing. At the top of a
    table a wide row is a title; in the body it is a section row (or, after the last data row, a note).
  -->
  <xsl:function name="f:is-wide-row" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="f:model-row($model, $y)?wide"/>
  </xsl:function>

  <!-- True if no cell covering row y has any content (text, image, link or nested table). -->
  <xsl:function name="f:is-blank-row" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="empty(f:model-row($model, $y)?contents)"/>
  </xsl:function>

</xsl:stylesheet>
