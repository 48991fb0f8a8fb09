<?xml version="1.0" encoding="UTF-8"?>
<!--
  The table model of the headers stage: one map per px:table, built once, that every other module reads.

    f:table-model($table) => map {
      'table'  : the px:table element,
      'rows'   : m,  'cols' : n,
      'cells'  : map { cell id : cell record (an array, below) },
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

  A cell record is an array, not a map: in this Saxon build a map costs ~2 K instructions an entry to build and
  several times an array member's cost to read (a 12-entry map ~3 us to build against ~1.2 us for the array; a
  look-up ~0.3 us against ~0.1 us). Its members are read by name, through the static variables $c:id .. $c:row-class
  (namespace urn:pyxform:cell, declared below; measured: $cell($c:row) costs what $cell(2) does, ~30% less than an
  accessor function call), never by a bare number:

    $c:id       the cell id                     $c:text     the visible text (px:text)
    $c:row      anchor row (an integer)         $c:blank    the text shows nothing (f:is-blank)
    $c:col      anchor column                   $c:empty    blank, and no image, table-ref or link
    $c:rowspan  rows spanned (fp:span)          $c:bold     bold
    $c:colspan  columns spanned                 $c:element  the px:cell element
    $c:tag      'td' or 'th' (another tag lower-cased)
    $c:scope    the scope, lower-cased ('' if none)

  The attributes that only the markup's rare cases read (group, html-id, headers: assign.xsl) are read from the
  element where needed. The features that only the formatting method reads (content type, script, case, length,
  colon; font size, italic, face, colours, indentation, classes: members $c:type .. $c:row-class, see
  f:cell-features) are appended for the cells with text by f:with-features($model), which builds each such cell's
  longer array in one constructor: a record costs per member, and the content features cost regular expressions.
  A cell without text has no feature members (reading one is an error): f:cell-type gives the content type of any
  cell record.

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
    xmlns:c="urn:pyxform:cell"
    xmlns:err="http://www.w3.org/2005/xqt-errors"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- The members of a cell record (see the module comment), by position: the model's own, then the features that
       f:with-features appends to the cells with text (f:cell-features). -->
  <xsl:variable name="c:id" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="c:row" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="c:col" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="c:rowspan" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="c:colspan" as="xs:integer" select="5" static="yes"/>
  <xsl:variable name="c:tag" as="xs:integer" select="6" static="yes"/>
  <xsl:variable name="c:scope" as="xs:integer" select="7" static="yes"/>
  <xsl:variable name="c:text" as="xs:integer" select="8" static="yes"/>
  <xsl:variable name="c:blank" as="xs:integer" select="9" static="yes"/>
  <xsl:variable name="c:empty" as="xs:integer" select="10" static="yes"/>
  <xsl:variable name="c:bold" as="xs:integer" select="11" static="yes"/>
  <xsl:variable name="c:element" as="xs:integer" select="12" static="yes"/>
  <xsl:variable name="c:type" as="xs:integer" select="13" static="yes"/>
  <xsl:variable name="c:script" as="xs:integer" select="14" static="yes"/>
  <xsl:variable name="c:case" as="xs:integer" select="15" static="yes"/>
  <xsl:variable name="c:length" as="xs:integer" select="16" static="yes"/>
  <xsl:variable name="c:colon" as="xs:integer" select="17" static="yes"/>
  <xsl:variable name="c:font-size" as="xs:integer" select="18" static="yes"/>
  <xsl:variable name="c:italic" as="xs:integer" select="19" static="yes"/>
  <xsl:variable name="c:face" as="xs:integer" select="20" static="yes"/>
  <xsl:variable name="c:color" as="xs:integer" select="21" static="yes"/>
  <xsl:variable name="c:link-coloured" as="xs:integer" select="22" static="yes"/>
  <xsl:variable name="c:background" as="xs:integer" select="23" static="yes"/>
  <xsl:variable name="c:indent" as="xs:integer" select="24" static="yes"/>
  <xsl:variable name="c:class" as="xs:integer" select="25" static="yes"/>
  <xsl:variable name="c:look" as="xs:integer" select="26" static="yes"/>
  <xsl:variable name="c:row-class" as="xs:integer" select="27" static="yes"/>

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
    <xsl:variable name="cells" as="map(xs:string, array(*))">
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
               map:put(., 'wide', not(fp:column-mark($column-marks($only($c:col)), $only)))) }"/>
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

  <xsl:function name="fp:model-cell" as="array(*)">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="text" as="xs:string" select="string($cell/px:text)"/>
    <xsl:variable name="blank" as="xs:boolean" select="f:is-blank($text)"/>
    <!-- the members in the order of $c:id .. $c:element; the spans through fp:span -->
    <xsl:sequence select="[
        (: $c:id :) string($cell/@id),
        (: $c:row :) xs:integer($cell/@row),
        (: $c:col :) xs:integer($cell/@col),
        (: $c:rowspan :) fp:span($cell/@rowspan),
        (: $c:colspan :) fp:span($cell/@colspan),
        (: $c:tag :) let $tag := string($cell/@tag) return if ($tag eq 'td' or $tag eq 'th') then $tag else lower-case($tag),
        (: $c:scope :) if (exists($cell/@scope)) then lower-case(normalize-space($cell/@scope)) else '',
        (: $c:text :) $text,
        (: $c:blank :) $blank,
        (: $c:empty :) $blank and empty($cell/(px:image | px:table-ref | px:link)),
        (: $c:bold :) let $bold := string($cell/@bold) return $bold eq 'true' or $bold eq '1',
        (: $c:element :) $cell
      ]"/>
  </xsl:function>

  <!-- The content type of a cell record (f:content-type): its $c:type member where f:with-features gave it one, else
       computed from its text (the markup's paths read the model without features). -->
  <xsl:function name="f:cell-type" as="xs:string">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:sequence select="if (array:size($cell) ge $c:type) then $cell($c:type) else f:content-type($cell($c:text))"/>
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
    A cell record with text with the features that only the formatting method reads appended (computed for it
    alone: the content features cost regular expressions), in one array: the record's twelve members, then
      $c:type        f:content-type;
      $c:script, $c:case, $c:length
                     for a cell of type 'text' f:script, f:initial-case and its length (characters without footnote
                     markers); for other cells 'none', 'none' and 0, never read;
      $c:colon       a trailing colon;
    and the formatting features of clean:
      $c:font-size   px, an empty member if unknown;   $c:italic;   $c:face;   $c:color;
      $c:link-coloured  most of its text is the text of links, so that its colour is the page's colour of links;
      $c:background;   $c:indent (px);   $c:class;
      $c:look        face, colour, background and class in one string (f:look: f:distinct-score compares it first);
      $c:row-class   the class of the cell's row (classes as f:style-classes gives them).
  -->
  <xsl:function name="f:cell-features" as="array(*)">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:sequence select="fp:cell-features($cell, $row-classes, true())"/>
  </xsl:function>

  <!-- f:cell-features, with $c:link-coloured computed only if $coloured (some cell of the table has a colour): else it
       is false(), never read (f:distinct-score reads it only for a cell whose colour differs from its line's usual
       colour, the most frequent among the cells with text: all of them '' where no cell has a colour). A text
       without '[' (no reference mark: its clean form is its normalized form) of printable ASCII and white space
       alone, of type 'text' (so with a letter), has script 'latin', without f:script's two passes over it. -->
  <xsl:function name="fp:cell-features" as="array(*)">
    <xsl:param name="cell" as="array(*)"/>
    <xsl:param name="row-classes" as="map(*)"/>
    <xsl:param name="coloured" as="xs:boolean"/>
    <xsl:variable name="text" as="xs:string" select="$cell($c:text)"/>
    <xsl:variable name="element" as="element(px:cell)" select="$cell($c:element)"/>
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
    <!-- the record's members, then the features, in the order of $c:id .. $c:row-class -->
    <xsl:sequence select="[
        $cell($c:id), $cell($c:row), $cell($c:col), $cell($c:rowspan), $cell($c:colspan), $cell($c:tag),
        $cell($c:scope), $text, $cell($c:blank), $cell($c:empty), $cell($c:bold), $element,
        (: $c:type :) $type,
        (: $c:script :) if (not($is-text)) then 'none'
                        else if ($rest eq '' and not(contains($text, '['))) then 'latin'
                        else f:script($text),
        (: $c:case :) if ($is-text) then f:initial-case($text) else 'none',
        (: $c:length :) if ($is-text) then string-length($clean) else 0,
        (: $c:colon :) f:has-trailing-colon($text),
        (: $c:font-size :) if ($font-size eq $font-size) then $font-size else (),
        (: $c:italic :) $element/@italic = ('true', '1'),
        (: $c:face :) $face,
        (: $c:color :) $color,
        (: $c:link-coloured :) $coloured and exists($element/px:link)
                               and sum($element/px:link ! string-length(normalize-space(.))) * 2
                                   ge string-length(normalize-space($text)),
        (: $c:background :) $background,
        (: $c:indent :) if ($indent eq $indent) then $indent else 0.0e0,
        (: $c:class :) $class,
        (: $c:look :) f:look($face, $color, $background, $class),
        (: $c:row-class :) ($row-classes($cell($c:row)), '')[1]
      ]"/>
  </xsl:function>

  <!-- The model with the records of the cells with text replaced by f:cell-features' longer ones (for the formatting
       method). -->
  <xsl:function name="f:with-features" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <!-- one entry per cell id, not a merge of the changed cells with the whole cells map; one xsl:map-entry per
         cell record (each once: the keys of the cells map are distinct, and each record's id is its key), not a
         map:merge of one-entry maps -->
    <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
    <!-- the classes of each row by row index (the first row of an index), for $c:row-class: built here, since only
         the formatting method reads it -->
    <xsl:variable name="row-classes" as="map(*)"
        select="map:merge($model?table/px:row ! map { xs:integer(@index) : f:style-classes(@class) })"/>
    <!-- a cell with a colour: fp:cell-features' $c:link-coloured is read -->
    <xsl:variable name="coloured" as="xs:boolean"
        select="some $color in $model?table/px:cell/@color satisfies normalize-space($color) ne ''"/>
    <xsl:variable name="with-features" as="map(*)">
      <xsl:map>
        <xsl:for-each select="$cells?*">
          <xsl:map-entry key=".($c:id)" select="if (.($c:blank)) then .
                                                else fp:cell-features(., $row-classes, $coloured)"/>
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
    <!-- the cell records of the row, looked up once for the lists below -->
    <xsl:variable name="row-cells" as="array(*)*" select="$ids ! $cells(.)"/>
    <xsl:variable name="text-cells" as="array(*)*" select="$row-cells[not(.($c:blank))]"/>
    <xsl:variable name="texts" as="xs:string*" select="$text-cells ! .($c:id)"/>
    <xsl:variable name="contents" as="xs:string*" select="$row-cells[not(.($c:empty))] ! .($c:id)"/>
    <xsl:variable name="only" as="array(*)?" select="if (count($texts) eq 1 and count($contents) eq 1)
                                                    then $text-cells else ()"/>
    <!-- the tags of the cells anchored in the row, left to right -->
    <xsl:variable name="tags" as="xs:string*" select="$row-cells[.($c:row) eq $y] ! .($c:tag)"/>
    <xsl:variable name="first-td" as="xs:integer?" select="index-of($tags, 'td')[1]"/>
    <xsl:sequence select="map {
        'index' : $y,
        'group-kind' : string($row/@group-kind),
        'class' : $class,
        'ids' : $ids,
        'texts' : $texts,
        'contents' : $contents,
        'row-headed' : exists($first-td) and $first-td gt 1 and not(subsequence($tags, $first-td) = 'th'),
        'spanning' : exists($only) and $only($c:row) eq $y and $only($c:rowspan) eq 1
                     and $only($c:colspan) ge 2 and $only($c:colspan) * 2 ge $n,
        'wide' : if (not(exists($only) and $only($c:row) eq $y and $only($c:rowspan) eq 1)) then false()
                 else if ($only($c:colspan) ge 2 and $only($c:colspan) * 2 ge $n) then true()
                 else if ($n ge 3 and ($only($c:tag) eq 'th' or $only($c:bold)) and $only($c:scope) ne 'row') then ()
                 else false()
      }"/>
  </xsl:function>

  <!-- Per column: how many of the cells with text anchored in it, in rows that hold a td (not rows of header cells
       alone), spanning that column only, are th, and bold: map { column : map { 'text', 'th', 'bold' } }. The cell
       records are the values of the cells map (each once, in any order, as the marks are counts), not a look-up per
       id, nor map:for-each (a dynamic function call per cell cost as much as the rest of the model). -->
  <xsl:function name="fp:column-marks" as="map(xs:integer, map(*))">
    <xsl:param name="cell-records" as="array(*)*"/>
    <!-- one map per row with a td, not per td cell -->
    <xsl:variable name="td-rows" as="map(xs:integer, xs:boolean)" select="map:merge(
        distinct-values($cell-records[.($c:tag) eq 'td'] ! .($c:row)) ! map { . : true() })"/>
    <xsl:map>
      <xsl:for-each-group select="$cell-records[not(.($c:blank)) and .($c:colspan) eq 1
                                                and map:contains($td-rows, .($c:row))]"
          group-by=".($c:col)">
        <xsl:map-entry key="current-grouping-key()" select="map {
            'text' : count(current-group()), 'th' : count(current-group()[.($c:tag) eq 'th']),
            'bold' : count(current-group()[.($c:bold)]) }"/>
      </xsl:for-each-group>
    </xsl:map>
  </xsl:function>

  <!-- True if the heading mark of a lone cell (th, or bold for a td) is its column's own: at least half of the other
       cells with text anchored in its column (in rows with a td, one column wide) carry it (a row header column of th, a bold key column), so that the
       cell heads its own row, whose other cells are empty (missing values), as the others head theirs. -->
  <xsl:function name="fp:column-mark" as="xs:boolean">
    <xsl:param name="marks" as="map(*)?"/>
    <xsl:param name="cell" as="array(*)"/>
    <xsl:variable name="others" as="xs:integer" select="($marks?text, 1)[1] - 1"/>
    <xsl:variable name="marked" as="xs:integer"
        select="if ($cell($c:tag) eq 'th') then ($marks?th, 1)[1] - 1 else ($marks?bold, 1)[1] - 1"/>
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

  <!-- The cell record of a cell id. -->
  <xsl:function name="f:model-cell" as="array(*)">
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
