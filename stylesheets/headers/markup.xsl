<?xml version="1.0" encoding="UTF-8"?>
<!--
  The markup method: k and p from what the author marked (th, thead), for tables that are regular enough.

    f:markup-analysis($model) => map {
      'k'          : header rows: the leading rows that are header rows, where a header row is a row of thead
                     with content, or a row whose cells with text are all th, not all with scope row or rowgroup; blank rows and td title rows (a
                     single wide cell, f:is-wide-row) at the top count only when a header row follows them; a wide
                     row below a header row that is not wide is a section row and ends the header rows;
      'kinds'      : f:row-kinds($model, k, true());
      'p'          : header columns: the leading columns whose cells in every data row are th, blank, or td set in
                     bold (a td that looks like the th around it: an authoring slip such as a "NC" row in a column
                     of th race numbers), with th the majority of those with text, leaving at least one column that
                     is not a header column;
      'usable'     : k or p is not 0, or a section row's heading is a th with scope=rowgroup (the author marks
                     which rows it heads), and the table has a cell with content (text, an image, a link, a nested
                     table) that is not a th (markup that marks every cell as a header, or none, tells nothing: the
                     formatting method decides instead);
      'title-only' : every header row is a wide title row or blank (a caption-like row that labels no column);
      'th-cells'   : how many th cells the table has
    }

  Which header cells head which data cell is the WHATWG "algorithm for assigning header cells" (assign.xsl), which
  also honours scope and headers/id; k and p here describe the header region where the table is regular.
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

  <xsl:function name="f:markup-analysis" as="map(*)">
    <xsl:param name="model" as="map(*)"/>
    <xsl:variable name="k" as="xs:integer" select="fp:markup-header-rows($model)"/>
    <xsl:variable name="kinds" as="array(xs:string)" select="f:row-kinds($model, $k, true())"/>
    <xsl:variable name="p" as="xs:integer" select="f:markup-header-cols($model, $kinds)"/>
    <!-- the cell records as the values of the cells map, in any order (the tests below are some and count): not a
         look-up per id -->
    <xsl:variable name="cells" as="array(*)*" select="$model?cells?*"/>
    <xsl:sequence select="map {
        'k' : $k,
        'p' : $p,
        'kinds' : $kinds,
        'usable' : ($k gt 0 or $p gt 0
                    or (some $c in $cells satisfies ($c($c:tag) eq 'th' and $c($c:scope) eq 'rowgroup' and not($c($c:blank))
                                                    and $kinds($c($c:row) + 1) eq 'section')))
                   and (some $c in $cells satisfies (not($c($c:empty)) and $c($c:tag) ne 'th')),
        'title-only' : $k gt 0 and (every $y in 0 to $k - 1 satisfies
                                      (f:is-wide-row($model, $y) or f:is-blank-row($model, $y))),
        'th-cells' : count($cells[.($c:tag) eq 'th'])
      }"/>
  </xsl:function>

  <!-- The top kind of a row for the markup method: header, blank, title or data. A row of th cells followed by td
       cells (empty ones too) is a data row: the td shares their row, so WHATWG reads them as its row headers. A row
       whose cells with text are
       all th with scope row or rowgroup labels no column: its author declares that they head their own row or the
       rows of their row group (HTML 4.9.12.2; a navigation box's group heading over an empty list), as in the body
       (rows.xsl); such a row is a title when it is wide (then a section row when no label row follows), else data. -->
  <xsl:function name="fp:markup-top-kind" as="xs:string">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:variable name="row" as="map(*)" select="f:model-row($model, $y)"/>
    <xsl:variable name="texts" as="array(*)*" select="$row?texts ! f:model-cell($model, .)"/>
    <xsl:sequence select="
        if (empty($row?contents)) then 'blank'
        else if ($row?group-kind eq 'thead') then 'header'
        else if ($row?row-headed and not($row?wide)) then 'data'
        else if (exists($texts) and (every $c in $texts satisfies $c($c:tag) eq 'th')
                 and (some $c in $texts satisfies not($c($c:scope) = ('row', 'rowgroup')))) then 'header'
        else if ($row?wide) then 'title'
        else 'data'"/>
  </xsl:function>

  <!--
    k: the leading run of header, blank and title rows, up to its last header row. A spanning row (f:is-wide-row)
    after a header row that is not wide ends the run: below column labels a row spanning the table heads rows (a
    section row), not columns. A run of wide rows only, in a table that has wide rows in its body too, is no header:
    its first row is the first of the table's section rows (a succession box's "Parliament" over "Political
    offices"), not a title; unless the run is in thead, where its author declares it the table's header.
  -->
  <xsl:function name="fp:markup-header-rows" as="xs:integer">
    <xsl:param name="model" as="map(*)"/>
    <xsl:variable name="run" as="map(*)*">
      <xsl:iterate select="0 to $model?rows - 1">
        <xsl:param name="labels-seen" as="xs:boolean" select="false()"/>
        <xsl:variable name="kind" as="xs:string" select="fp:markup-top-kind($model, .)"/>
        <xsl:variable name="row" as="map(*)" select="f:model-row($model, .)"/>
        <xsl:choose>
          <xsl:when test="$kind eq 'data' or ($row?spanning and $labels-seen and $row?group-kind ne 'thead')">
            <xsl:break/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:sequence select="map { 'kind' : $kind, 'wide' : $row?wide or $kind eq 'blank',
                                        'thead' : $row?group-kind eq 'thead' }"/>
            <xsl:next-iteration>
              <xsl:with-param name="labels-seen" select="$labels-seen or ($kind eq 'header' and not($row?wide))"/>
            </xsl:next-iteration>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="k" as="xs:integer" select="max((0, index-of($run ! ?kind, 'header')))"/>
    <!-- the wide rows in the body (up to the last data row, looked for from the bottom up: the last row is most often
         one) are looked for only for a run of wide rows: Saxon evaluates a variable of one item as soon as it is
         declared, so they are not variables (they cost a look at every body row of every table) -->
    <xsl:sequence select="if ($k gt 0 and (every $r in $run[position() le $k] satisfies $r?wide)
                              and not(some $r in $run[position() le $k] satisfies $r?thead)
                              and (let $last-data := (reverse($k to $model?rows - 1)
                                                        [not(f:is-wide-row($model, .) or f:is-blank-row($model, .))], -1)[1]
                                   return some $y in $k to $last-data - 1 satisfies f:is-wide-row($model, $y)))
                          then 0 else $k"/>
  </xsl:function>

  <!-- p for the markup method, given the row kinds: see f:markup-analysis. -->
  <xsl:function name="f:markup-header-cols" as="xs:integer">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="kinds" as="array(xs:string)"/>
    <xsl:variable name="data-rows" as="xs:integer*" select="f:rows-of-kind($kinds, 'data')"/>
    <xsl:iterate select="0 to $model?cols - 2">
      <xsl:on-completion select="max((0, $model?cols - 1))"/>
      <xsl:variable name="x" as="xs:integer" select="."/>
      <xsl:variable name="cells" as="array(*)*" select="f:column-ids($model, $x, $data-rows) ! f:model-cell($model, .)"/>
      <xsl:choose>
        <xsl:when test="empty($data-rows)
                        or (some $c in $cells satisfies ($c($c:tag) ne 'th' and not($c($c:blank)) and not($c($c:bold))))
                        or count($cells[.($c:tag) eq 'th' and not(.($c:blank))]) * 2 le count($cells[not(.($c:blank))])">
          <xsl:break select="$x"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:next-iteration/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

</xsl:stylesheet>
