<?xml version="1.0" encoding="UTF-8"?>
<!--
  The table model of the headers stage: one map per px:table, built once, that every other module reads.

    f:table-model($table) => map {
      'table'  : the px:table element,
      'rows'   : m,  'cols' : n,
      'cells'  : map { cell id : cell map (below) },
      'ids'    : cell ids in tree order,
      'owner'  : array of m arrays of n strings: the id of the cell covering slot (y, x), or '' if none,
      'skip'   : map { "y:x" : true } for slots that more than one cell covers (WHATWG: a scan skips them),
      'row'    : array of m row maps { 'index', 'group-kind', 'class', 'ids' (distinct covering cell ids,
                 left to right), 'texts' (those with visible text), 'contents' (those with any content),
                 'wide', 'spanning' (see f:is-wide-row) }
    }

  A cell map holds the grid attributes (row, col, rowspan, colspan, tag, scope, group, html-id, headers), the text
  and what the content evidence needs (type, script, case, length), and the formatting features of clean
  (font-size, bold, italic, face, color, background, indent, class and the class of the cell's row; classes as
  f:style-classes gives them).

  No per-cell sibling scans: the owner grid is read once row by row; everything else is map look-ups.
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

  <xsl:function name="f:table-model" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="rows" as="element(px:row)*">
      <xsl:perform-sort select="$table/px:row">
        <xsl:sort select="xs:integer(@index)"/>
      </xsl:perform-sort>
    </xsl:variable>
    <xsl:variable name="m" as="xs:integer" select="count($rows)"/>
    <xsl:variable name="n" as="xs:integer"
        select="if ($table/@cols castable as xs:integer) then xs:integer($table/@cols)
                else max((0, $rows ! count(px:slot)))"/>
    <xsl:variable name="row-classes" as="map(xs:integer, xs:string)"
        select="map:merge($rows ! map { xs:integer(@index) : f:style-classes(@class) })"/>
    <xsl:variable name="cells" as="map(xs:string, map(*))"
        select="map:merge($table/px:cell ! map { string(@id) : fp:cell(., $row-classes) })"/>
    <xsl:variable name="owner" as="array(*)" select="array:join(
        for $row in $rows return [ array { fp:row-owners($row, $n, $cells) } ])"/>
    <xsl:variable name="skip" as="map(xs:string, xs:boolean)"
        select="map:merge($table/px:error[@code eq 'overlap'] ! map { @row || ':' || @col : true() },
                          map { 'duplicates' : 'use-first' })"/>
    <xsl:variable name="row-maps" as="array(*)" select="array:join(
        for $y in 1 to $m
        return [ fp:row($rows[$y], $y - 1, distinct-values($owner($y)?*[. ne '']), $cells, $n) ])"/>
    <xsl:sequence select="map {
        'table' : $table,
        'rows' : $m,
        'cols' : $n,
        'cells' : $cells,
        'ids' : $table/px:cell/string(@id),
        'owner' : $owner,
        'skip' : $skip,
        'row' : $row-maps
      }"/>
  </xsl:function>

  <!-- The owner id of each of the n slots of a row, in column order ('' where no cell covers the slot). A slot that
       names no cell of the table is a broken grid: reported (px:unknown-cell) and read as a slot without a cell. -->
  <xsl:function name="fp:row-owners" as="xs:string*">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:param name="cells" as="map(xs:string, map(*))"/>
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

  <xsl:function name="fp:cell" as="map(*)">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="row-classes" as="map(xs:integer, xs:string)"/>
    <xsl:variable name="text" as="xs:string" select="string($cell/px:text)"/>
    <xsl:variable name="blank" as="xs:boolean" select="f:is-blank($text)"/>
    <xsl:variable name="row" as="xs:integer" select="xs:integer($cell/@row)"/>
    <xsl:sequence select="map {
        'id' : string($cell/@id),
        'row' : $row,
        'col' : xs:integer($cell/@col),
        'rowspan' : max((1, xs:integer(($cell/@rowspan[. castable as xs:integer], 1)[1]))),
        'colspan' : max((1, xs:integer(($cell/@colspan[. castable as xs:integer], 1)[1]))),
        'tag' : lower-case(string($cell/@tag)),
        'scope' : lower-case(normalize-space($cell/@scope)),
        'group' : string($cell/@group),
        'group-kind' : string($cell/@group-kind),
        'html-id' : string($cell/@html-id),
        'headers' : tokenize(string($cell/@headers)),
        'text' : $text,
        'blank' : $blank,
        'empty' : $blank and empty($cell/(px:image | px:table-ref | px:link)),
        'type' : if ($blank) then 'blank' else f:content-type($text),
        'script' : if ($blank) then 'none' else f:script($text),
        'case' : if ($blank) then 'none' else f:initial-case($text),
        'length' : if ($blank) then 0 else string-length(normalize-space(f:strip-footnotes($text))),
        'colon' : not($blank) and f:has-trailing-colon($text),
        'font-size' : $cell/@font-size[. castable as xs:double] ! xs:double(.),
        'bold' : $cell/@bold = ('true', '1'),
        'italic' : $cell/@italic = ('true', '1'),
        'face' : lower-case(normalize-space($cell/@face)),
        'color' : lower-case(normalize-space($cell/@color)),
        'background' : lower-case(normalize-space($cell/@background)),
        'indent' : ($cell/@indent[. castable as xs:double] ! xs:double(.), 0.0e0)[1],
        'class' : f:style-classes($cell/@class),
        'row-class' : ($row-classes($row), '')[1]
      }"/>
  </xsl:function>

  <xsl:function name="fp:row" as="map(*)">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="ids" as="xs:string*"/>
    <xsl:param name="cells" as="map(xs:string, map(*))"/>
    <xsl:param name="n" as="xs:integer"/>
    <xsl:variable name="texts" as="xs:string*" select="$ids[not($cells(.)?blank)]"/>
    <xsl:variable name="contents" as="xs:string*" select="$ids[not($cells(.)?empty)]"/>
    <xsl:variable name="only" as="map(*)?" select="if (count($texts) eq 1 and count($contents) eq 1)
                                                  then $cells($texts) else ()"/>
    <xsl:sequence select="map {
        'index' : $y,
        'group-kind' : string($row/@group-kind),
        'class' : f:style-classes($row/@class),
        'ids' : $ids,
        'texts' : $texts,
        'contents' : $contents,
        'spanning' : exists($only) and $only?row eq $y and $only?rowspan eq 1
                     and $only?colspan ge 2 and $only?colspan * 2 ge $n,
        'wide' : exists($only) and $only?row eq $y and $only?rowspan eq 1
                 and (($only?colspan ge 2 and $only?colspan * 2 ge $n)
                      or ($n ge 3 and ($only?tag eq 'th' or $only?bold)))
      }"/>
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
  <xsl:function name="f:row" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="$model?row($y + 1)"/>
  </xsl:function>

  <!-- The cell map of a cell id. -->
  <xsl:function name="f:cell" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:sequence select="$model?cells($id)"/>
  </xsl:function>

  <!-- Distinct ids of the cells covering column x, top to bottom, over the rows given (all rows if empty). -->
  <xsl:function name="f:column-ids" as="xs:string*">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="x" as="xs:integer"/>
    <xsl:param name="rows" as="xs:integer*"/>
    <xsl:sequence select="distinct-values(for $y in $rows return f:owner($model, $y, $x)[. ne ''])"/>
  </xsl:function>

  <!--
    True if row y is a wide row: the row holds one cell with content, which has visible text, is anchored in the
    row and spans only it, and either spans at least two columns and at least half the table's width (a spanning
    row), or is marked as a heading (th or bold) in a table of at least three columns with the rest of the row left
    empty (as in "<th>Group A</th><td></td><td></td>"). At the top of a table a wide row is a title; in the body
    it is a section row (or, after the last data row, a note).
  -->
  <xsl:function name="f:is-wide-row" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="f:row($model, $y)?wide"/>
  </xsl:function>

  <!-- True if no cell covering row y has any content (text, image, link or nested table). -->
  <xsl:function name="f:is-blank-row" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:sequence select="empty(f:row($model, $y)?contents)"/>
  </xsl:function>

</xsl:stylesheet>
