<?xml version="1.0" encoding="UTF-8"?>
<!--
  The direct path of a simple table (see fp:table-model in normalize/table.xsl: rows in tree order, no overlapping
  cells): the anchor columns of its cells from its rows alone (fp:anchors, fp:span-anchors), and the content of its
  px:table written from its row groups (fp:simple-table, fp:span-table), the same as the general steps
  (f:place-rows, fp:grid-row) give, without a record per row.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- The effective rowspan (fp:rowspan-value) of each cell of the row groups $groups, in tree order. -->
  <xsl:function name="fp:rowspans" as="xs:integer+">
    <xsl:param name="groups" as="element()+"/>
    <xsl:sequence select="$groups ! (let $size := count(tr)
                                     return tr ! (let $left := $size - position() + 1
                                                  return (td | th) ! (if (empty(@rowspan)) then 1
                                                                      else fp:rowspan-value(
                                                                          f:parse-non-negative-integer(@rowspan),
                                                                          $left))))"/>
  </xsl:function>

  <!--
    The anchor column of each cell of the rows $trs (tree order, which is table order), whose effective colspans and
    rowspans are $colspans and $rowspans: "processing rows" steps 5 to 17, the first column at or after the end of
    the row's previous cell that no cell of an earlier row covers. Ends with -1 (and stops) at the first cell that
    spans a column a cell of an earlier row covers (overlapping cells) or that makes the table wider than $max-slots
    allows: the caller takes the general steps (which raise px:limit for the latter). A row
    that no cell of an earlier row reaches and whose cells have no span attribute (most rows) has its cells in
    columns 0, 1, ... without a step per cell.
  -->
  <xsl:function name="fp:span-anchors" as="xs:integer*">
    <xsl:param name="trs" as="element(tr)+"/>
    <xsl:param name="colspans" as="xs:integer+"/>
    <xsl:param name="rowspans" as="xs:integer+"/>
    <xsl:iterate select="$trs">
      <xsl:param name="y" as="xs:integer" select="0"/>
      <!-- the cells of the rows before this one -->
      <xsl:param name="before" as="xs:integer" select="0"/>
      <!-- column -> first row index no longer covered by the multi-row cells placed so far in that column -->
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="map {}"/>
      <!-- the first row that no multi-row cell placed so far covers -->
      <xsl:param name="reach" as="xs:integer" select="0"/>
      <xsl:variable name="cells" as="element()*" select="td | th"/>
      <xsl:variable name="count" as="xs:integer" select="count($cells)"/>
      <xsl:choose>
        <xsl:when test="$reach le $y and empty($cells[exists(@colspan) or exists(@rowspan)])">
          <xsl:sequence select="0 to $count - 1"/>
          <xsl:next-iteration>
            <xsl:with-param name="y" select="$y + 1"/>
            <xsl:with-param name="before" select="$before + $count"/>
            <xsl:with-param name="covered-until" select="map {}"/>
          </xsl:next-iteration>
        </xsl:when>
        <xsl:otherwise>
          <xsl:variable name="placed" as="item()*"
              select="fp:span-row-anchors($y, subsequence($colspans, $before + 1, $count),
                                          subsequence($rowspans, $before + 1, $count), $covered-until, count($trs))"/>
          <xsl:variable name="state" as="item()" select="$placed[last()]"/>
          <xsl:choose>
            <xsl:when test="$state instance of xs:integer">
              <!-- overlapping cells, or too many slots: the anchors so far, then -1 -->
              <xsl:break select="$placed"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="$placed[position() lt last()]"/>
              <xsl:next-iteration>
                <xsl:with-param name="y" select="$y + 1"/>
                <xsl:with-param name="before" select="$before + $count"/>
                <xsl:with-param name="covered-until" select="$state"/>
                <xsl:with-param name="reach"
                    select="max(($reach, $y + max(subsequence($rowspans, $before + 1, $count))))"/>
              </xsl:next-iteration>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- The anchor columns of the cells of row $y, of effective colspans $colspans and rowspans $rowspans (see
       fp:span-anchors; $row-count: the table's rows), then the columns covered after it (map: column -> first row
       no longer covered); or the anchors before the first cell that overlaps a cell of an earlier row or ends past
       the columns that $max-slots allows, then -1. -->
  <xsl:function name="fp:span-row-anchors" as="item()+">
    <xsl:param name="y" as="xs:integer"/>
    <xsl:param name="colspans" as="xs:integer*"/>
    <xsl:param name="rowspans" as="xs:integer*"/>
    <xsl:param name="covered-until" as="map(xs:integer, xs:integer)"/>
    <xsl:param name="row-count" as="xs:integer"/>
    <xsl:iterate select="1 to count($colspans)">
      <xsl:param name="x" as="xs:integer" select="0"/>
      <xsl:param name="covered-until" as="map(xs:integer, xs:integer)" select="$covered-until"/>
      <xsl:on-completion select="$covered-until"/>
      <!-- the first free column ($x plus the number of covered columns is free) -->
      <xsl:variable name="anchor" as="xs:integer"
          select="if ($covered-until($x) gt $y)
                  then fp:first-free-column($covered-until, $x, $x + map:size($covered-until), $y)
                  else $x"/>
      <xsl:variable name="colspan" as="xs:integer" select="$colspans[current()]"/>
      <xsl:variable name="rowspan" as="xs:integer" select="$rowspans[current()]"/>
      <xsl:choose>
        <!-- a table wider than $max-slots allows: the general steps raise px:limit (before the columns are
             covered) -->
        <xsl:when test="($anchor + $colspan) * $row-count gt $max-slots">
          <xsl:break select="-1"/>
        </xsl:when>
        <xsl:when test="$colspan gt 1 and map:size($covered-until) gt 0
                        and (some $c in $anchor + 1 to $anchor + $colspan - 1 satisfies $covered-until($c) gt $y)">
          <xsl:break select="-1"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:sequence select="$anchor"/>
          <xsl:next-iteration>
            <xsl:with-param name="x" select="$anchor + $colspan"/>
            <xsl:with-param name="covered-until"
                select="if ($rowspan eq 1) then $covered-until
                        else fp:cover-columns($covered-until, $anchor, $colspan, $y + $rowspan)"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- The anchor column of each cell of the rows $trs (tree order), whose effective colspans are $colspans, when no
       cell covers a slot of a later row: a row's cells one after the other from column 0. -->
  <xsl:function name="fp:anchors" as="xs:integer*">
    <xsl:param name="trs" as="element(tr)+"/>
    <xsl:param name="colspans" as="xs:integer+"/>
    <xsl:iterate select="$trs">
      <xsl:param name="before" as="xs:integer" select="0"/>
      <xsl:variable name="count" as="xs:integer" select="count(td | th)"/>
      <xsl:iterate select="subsequence($colspans, $before + 1, $count)">
        <xsl:param name="x" as="xs:integer" select="0"/>
        <xsl:sequence select="$x"/>
        <xsl:next-iteration>
          <xsl:with-param name="x" select="$x + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
      <xsl:next-iteration>
        <xsl:with-param name="before" select="$before + $count"/>
      </xsl:next-iteration>
    </xsl:iterate>
  </xsl:function>

  <!--
    The content of the px:table of a simple table (see fp:table-model): its cells in tree order, one px:row per tr
    (cell i of the row in column i - 1, the columns after its last cell empty), then an empty-row error for each row
    without cells and an empty-column error for each column after the widest row (column groups wider than the
    rows). The same as f:place-rows, fp:grid-row and f:empty-lines give for such a table. $groups: its row groups in
    tree order (all with rows).
  -->
  <xsl:template name="fp:simple-table">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="groups" as="element()+" required="yes"/>
    <xsl:param name="cols" as="xs:integer" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <!-- the rows in tree order; each row's number of cells and the number of its first cell (the cells of the rows
         before it), counted once, so that both passes below are for-each loops (an xsl:iterate per row group and
         row costs more); the index of each row group only when there are several (most tables have one) -->
    <xsl:variable name="trs" as="element(tr)+" select="$groups/tr"/>
    <xsl:variable name="counts" as="xs:integer+" select="$trs ! count(td | th)"/>
    <xsl:variable name="firsts" as="xs:integer+">
      <xsl:iterate select="$counts">
        <xsl:param name="before" as="xs:integer" select="0"/>
        <xsl:sequence select="$before"/>
        <xsl:next-iteration>
          <xsl:with-param name="before" select="$before + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="group-index" as="map(xs:string, xs:integer)?"
        select="if (count($groups) eq 1) then ()
                else map:merge(for $g in 1 to count($groups) return map { generate-id($groups[$g]): $g - 1 })"/>
    <!-- the cells ($y: the row's index, $first: the number of its first cell) -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="group" as="xs:integer"
          select="if (empty($group-index)) then 0 else $group-index(generate-id(..))"/>
      <xsl:variable name="group-kind" as="xs:string" select="local-name(..)"/>
      <xsl:for-each select="td | th">
        <px:cell id="{$prefix}{$first + position() - 1}" row="{$y}" col="{position() - 1}" rowspan="1" colspan="1"
                 tag="{local-name()}" group="{$group}" group-kind="{$group-kind}">
          <xsl:call-template name="fp:cell-content"/>
        </px:cell>
      </xsl:for-each>
    </xsl:for-each>
    <!-- the grid -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
      <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
              group-kind="{local-name(..)}">
        <xsl:copy-of select="@class"/>
        <xsl:for-each select="0 to $count - 1">
          <px:slot col="{.}" cell="{$prefix}{$first + .}"/>
        </xsl:for-each>
        <xsl:for-each select="$count to $cols - 1">
          <px:slot col="{.}"/>
        </xsl:for-each>
      </px:row>
    </xsl:for-each>
    <!-- the errors: rows without cells, columns after the widest row -->
    <xsl:for-each select="1 to count($trs)">
      <xsl:if test="empty($trs[current()]/(td | th))">
        <px:error code="empty-row" row="{. - 1}"/>
      </xsl:if>
    </xsl:for-each>
    <xsl:for-each select="max((0, $trs ! count(td | th))) to $cols - 1">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
  </xsl:template>

  <!--
    The content of the px:table of a simple table with span attributes (see fp:table-model): its cells in tree
    order, one px:row per tr, then the span errors of its cells (tree order), an empty-row error for each row without
    cells and an empty-column error for each column in which no cell is anchored. The same as f:place-rows,
    fp:grid-row, the span errors and f:empty-lines give for such a table. $colspans, $rowspans and $xs: the effective
    colspan, the effective rowspan (empty without rowspan attributes) and the anchor column of each cell in tree
    order. Without rowspans, a row's slots are its cells' columns from their anchors, as many as their colspans, then
    the columns after its last cell, empty; with rowspans, the columns between and after its cells are those the
    cells of earlier rows cover (in one slot at most: no cells overlap), or empty.
  -->
  <xsl:template name="fp:span-table">
    <xsl:context-item as="element(table)" use="required"/>
    <xsl:param name="groups" as="element()+" required="yes"/>
    <xsl:param name="cols" as="xs:integer" required="yes"/>
    <xsl:param name="prefix" as="xs:string" required="yes"/>
    <xsl:param name="colspans" as="xs:integer+" required="yes"/>
    <xsl:param name="rowspans" as="xs:integer*" required="yes"/>
    <xsl:param name="xs" as="xs:integer+" required="yes"/>
    <xsl:variable name="trs" as="element(tr)+" select="$groups/tr"/>
    <xsl:variable name="counts" as="xs:integer+" select="$trs ! count(td | th)"/>
    <xsl:variable name="firsts" as="xs:integer+">
      <xsl:iterate select="$counts">
        <xsl:param name="before" as="xs:integer" select="0"/>
        <xsl:sequence select="$before"/>
        <xsl:next-iteration>
          <xsl:with-param name="before" select="$before + ."/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <xsl:variable name="group-index" as="map(xs:string, xs:integer)?"
        select="if (count($groups) eq 1) then ()
                else map:merge(for $g in 1 to count($groups) return map { generate-id($groups[$g]): $g - 1 })"/>
    <!-- the cells ($n: the cell's position in tree order, 1-based) -->
    <xsl:for-each select="$trs">
      <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
      <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
      <xsl:variable name="group" as="xs:integer"
          select="if (empty($group-index)) then 0 else $group-index(generate-id(..))"/>
      <xsl:variable name="group-kind" as="xs:string" select="local-name(..)"/>
      <xsl:for-each select="td | th">
        <xsl:variable name="n" as="xs:integer" select="$first + position()"/>
        <px:cell id="{$prefix}{$n - 1}" row="{$y}" col="{$xs[$n]}"
                 rowspan="{if (empty($rowspans)) then 1 else $rowspans[$n]}" colspan="{$colspans[$n]}"
                 tag="{local-name()}" group="{$group}" group-kind="{$group-kind}">
          <xsl:call-template name="fp:cell-content"/>
        </px:cell>
      </xsl:for-each>
    </xsl:for-each>
    <!-- the grid -->
    <xsl:choose>
      <xsl:when test="empty($rowspans)">
        <xsl:for-each select="$trs">
          <xsl:variable name="y" as="xs:integer" select="position() - 1"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
          <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
          <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
                  group-kind="{local-name(..)}">
            <xsl:copy-of select="@class"/>
            <xsl:for-each select="$first + 1 to $first + $count">
              <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
              <xsl:for-each select="$xs[current()] to $xs[current()] + $colspans[current()] - 1">
                <px:slot col="{.}" cell="{$id}"/>
              </xsl:for-each>
            </xsl:for-each>
            <xsl:for-each select="(if ($count eq 0) then 0 else $xs[$first + $count] + $colspans[$first + $count])
                                  to $cols - 1">
              <px:slot col="{.}"/>
            </xsl:for-each>
          </px:row>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <xsl:iterate select="$trs">
          <!-- [column, colspan, cell number, first row no longer covered] of the multi-row cells of earlier rows -->
          <xsl:param name="multi-row" as="array(xs:integer)*" select="()"/>
          <xsl:param name="y" as="xs:integer" select="0"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y + 1]"/>
          <xsl:variable name="count" as="xs:integer" select="$counts[$y + 1]"/>
          <xsl:variable name="active" as="array(xs:integer)*" select="$multi-row[?4 gt $y]"/>
          <px:row index="{$y}" group="{if (empty($group-index)) then 0 else $group-index(generate-id(..))}"
                  group-kind="{local-name(..)}">
            <xsl:copy-of select="@class"/>
            <xsl:choose>
              <xsl:when test="empty($active)">
                <xsl:for-each select="$first + 1 to $first + $count">
                  <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
                  <xsl:for-each select="$xs[current()] to $xs[current()] + $colspans[current()] - 1">
                    <px:slot col="{.}" cell="{$id}"/>
                  </xsl:for-each>
                </xsl:for-each>
                <xsl:for-each select="(if ($count eq 0) then 0 else $xs[$first + $count] + $colspans[$first + $count])
                                      to $cols - 1">
                  <px:slot col="{.}"/>
                </xsl:for-each>
              </xsl:when>
              <xsl:otherwise>
                <!-- column -> the cell of an earlier row that covers it (one: no cells overlap) -->
                <xsl:variable name="reaching" as="map(xs:integer, xs:integer+)" select="fp:reaching($active)"/>
                <xsl:iterate select="$first + 1 to $first + $count">
                  <xsl:param name="next" as="xs:integer" select="0"/>
                  <xsl:on-completion>
                    <xsl:call-template name="fp:reaching-slots">
                      <xsl:with-param name="from" select="$next"/>
                      <xsl:with-param name="to" select="$cols"/>
                      <xsl:with-param name="reaching" select="$reaching"/>
                      <xsl:with-param name="prefix" select="$prefix"/>
                    </xsl:call-template>
                  </xsl:on-completion>
                  <xsl:variable name="x" as="xs:integer" select="$xs[current()]"/>
                  <xsl:variable name="colspan" as="xs:integer" select="$colspans[current()]"/>
                  <xsl:variable name="id" as="xs:string" select="$prefix || . - 1"/>
                  <!-- columns $next to $x - 1: covered by cells of earlier rows -->
                  <xsl:for-each select="$next to $x - 1">
                    <px:slot col="{.}" cell="{$prefix}{$reaching(.)}"/>
                  </xsl:for-each>
                  <xsl:for-each select="$x to $x + $colspan - 1">
                    <px:slot col="{.}" cell="{$id}"/>
                  </xsl:for-each>
                  <xsl:next-iteration>
                    <xsl:with-param name="next" select="$x + $colspan"/>
                  </xsl:next-iteration>
                </xsl:iterate>
              </xsl:otherwise>
            </xsl:choose>
          </px:row>
          <xsl:next-iteration>
            <xsl:with-param name="multi-row"
                select="$active, (for $n in $first + 1 to $first + $count
                                  return if ($rowspans[$n] eq 1) then ()
                                         else [$xs[$n], $colspans[$n], $n - 1, $y + $rowspans[$n]])"/>
            <xsl:with-param name="y" select="$y + 1"/>
          </xsl:next-iteration>
        </xsl:iterate>
      </xsl:otherwise>
    </xsl:choose>
    <!-- the span errors: colspans above 1000 (an effective colspan of 1000); with rowspans, those of fp:colspan and
         fp:rowspan for each cell with a span attribute -->
    <xsl:choose>
      <xsl:when test="empty($rowspans)">
        <xsl:for-each select="for $n in 1 to count($colspans) return $n[$colspans[$n] eq $f:max-colspan]">
          <xsl:variable name="declared" as="xs:integer"
              select="f:parse-non-negative-integer(($trs/(td | th))[current()]/@colspan)"/>
          <xsl:if test="$declared gt $f:max-colspan">
            <xsl:sequence select="fp:span-error('colspan-clamped', $prefix || . - 1, $declared, $f:max-colspan)"/>
          </xsl:if>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <!-- rows from each row to the end of its row group -->
        <xsl:variable name="lefts" as="xs:integer+" select="$groups ! reverse(1 to count(tr))"/>
        <xsl:for-each select="$trs">
          <xsl:variable name="y" as="xs:integer" select="position()"/>
          <xsl:variable name="first" as="xs:integer" select="$firsts[$y]"/>
          <xsl:for-each select="td | th">
            <xsl:if test="exists(@colspan) or exists(@rowspan)">
              <xsl:variable name="n" as="xs:integer" select="$first + position()"/>
              <xsl:variable name="id" as="xs:string" select="$prefix || $n - 1"/>
              <xsl:sequence select="if ($colspans[$n] eq $f:max-colspan) then fp:colspan(., $id)?errors else (),
                                    if (exists(@rowspan)) then fp:rowspan(., $id, $lefts[$y])?errors else ()"/>
            </xsl:if>
          </xsl:for-each>
        </xsl:for-each>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:for-each select="1 to count($trs)">
      <xsl:if test="$counts[current()] eq 0">
        <px:error code="empty-row" row="{. - 1}"/>
      </xsl:if>
    </xsl:for-each>
    <xsl:variable name="anchors" as="map(xs:integer, xs:boolean)"
        select="map:merge(distinct-values($xs) ! map { .: true() })"/>
    <xsl:for-each select="(0 to $cols - 1)[not(map:contains($anchors, .))]">
      <px:error code="empty-column" col="{.}"/>
    </xsl:for-each>
  </xsl:template>

</xsl:stylesheet>
