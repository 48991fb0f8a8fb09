<?xml version="1.0" encoding="UTF-8"?>
<!--
  An entity table (the headers stage's kind "entity": key-value pairs describing one thing, such as an infobox, a
  product spec sheet or a "Details" box) as one record: Rule 1 read the way the table is written, each key the
  header of the value beside it.

    fp:entity-content($table) => the children of the table's element (which is named after the table's title, see
                                 fp:table-label in map/table.xsl), in row order:
      a key-value row       <key px:label="Key">value</key>: the key (the cell with content in the first column)
                            names an element holding the value (f:value of each other cell with content; with
                            several, one element each, with px:col);
      a sub-heading row     a heading (a th or bold cell with text and neither image nor table, alone in its row:
                            a section row, or a title row after the first) opens a group element named after it,
                            holding the rows that follow, up to the next sub-heading or a sub-heading row without
                            text (a row of empty th cells), which closes it;
      a note                a wide row that is not a heading (an image with its caption, a source line), or a value
                            without a key: <note px:row="R">value</note>, where it stands;
      a key without a value   an empty element named after the key (nothing of the table is lost);
    the title row that names the record and blank rows give no element.
  Names: one per distinct label (f:element-names), as for every table. The column headers of the values (the title
  rows above them) are not repeated around each value: they name the record, or head groups.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:template name="fp:entity-content" as="element()*">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="title-row" as="xs:integer?"/>
    <xsl:variable name="k" as="xs:integer" select="xs:integer(f:table-header-rows($table))"/>
    <xsl:variable name="kinds" as="map(xs:integer, xs:string)" select="f:table-row-kinds($table)"/>
    <!-- one map per row that gives something: { 'row', 'type' : key | group | end | note, 'key', 'cells' } -->
    <xsl:variable name="items" as="map(*)*">
      <xsl:for-each select="$table/px:row[not(xs:integer(@index) = $title-row)]">
        <xsl:sort select="xs:integer(@index)"/>
        <xsl:variable name="y" as="xs:integer" select="xs:integer(@index)"/>
        <xsl:variable name="covering" as="element(px:cell)*"
                      select="distinct-values(px:slot/@cell ! string()) ! key('f:cell', ., root($table))[1]"/>
        <xsl:variable name="contents" as="element(px:cell)*" select="$covering[fp:has-content(.)]"/>
        <xsl:variable name="kind" as="xs:string" select="($kinds($y), if ($y lt $k) then 'head' else 'data')[1]"/>
        <xsl:choose>
          <xsl:when test="empty($contents)">
            <xsl:if test="$covering[@tag eq 'th'][xs:integer(@row) eq $y]">
              <xsl:sequence select="map { 'row' : $y, 'type' : 'end' }"/>
            </xsl:if>
          </xsl:when>
          <xsl:when test="$kind = ('head', 'section', 'note') and count($contents) eq 1">
            <xsl:sequence select="map { 'row' : $y, 'cells' : $contents,
                'type' : if ($kind ne 'note' and fp:is-heading($contents)) then 'group' else 'note' }"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:variable name="key" as="element(px:cell)?"
                          select="$contents[xs:integer(@col) eq 0][xs:integer(@colspan) lt xs:integer($table/@cols)]"/>
            <xsl:variable name="values" as="element(px:cell)*" select="$contents except $key"/>
            <xsl:choose>
              <xsl:when test="exists($key) and not(f:is-null(f:cell-label($key)))">
                <xsl:sequence select="map { 'row' : $y, 'type' : 'key', 'key' : $key, 'cells' : $values }"/>
              </xsl:when>
              <xsl:when test="exists($key) and exists($values)">
                <xsl:sequence select="map { 'row' : $y, 'type' : 'note', 'cells' : $values }"/>
              </xsl:when>
              <xsl:when test="empty($key)">
                <xsl:sequence select="map { 'row' : $y, 'type' : 'note', 'cells' : $contents }"/>
              </xsl:when>
            </xsl:choose>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:for-each>
    </xsl:variable>
    <xsl:variable name="names" as="map(xs:string, xs:string)"
                  select="f:element-names(($items[?type eq 'key'] ! ?key, $items[?type eq 'group'] ! ?cells))"/>
    <!-- each item's group: the row of the last group or end item at or before it (-1: none) -->
    <xsl:variable name="grouped" as="map(*)*">
      <xsl:iterate select="$items">
        <xsl:param name="group" as="xs:integer" select="-1"/>
        <xsl:variable name="now" as="xs:integer" select="if (?type = ('group', 'end')) then ?row else $group"/>
        <xsl:sequence select="map:put(., 'group', $now)"/>
        <xsl:next-iteration>
          <xsl:with-param name="group" select="$now"/>
        </xsl:next-iteration>
      </xsl:iterate>
    </xsl:variable>
    <!-- written straight into the table's element (templates, not functions: no temporary elements to copy) -->
    <xsl:for-each-group select="$grouped" group-adjacent="?group">
      <xsl:variable name="members" as="map(*)*" select="current-group()[?type = ('key', 'note')]"/>
      <xsl:variable name="head" as="map(*)" select="current-group()[1]"/>
      <xsl:choose>
        <xsl:when test="$head?type eq 'group'">
          <xsl:variable name="step" as="element()" select="fp:header-step($head?cells, $names, true(), ())"/>
          <xsl:copy select="$step">
            <xsl:sequence select="$step/@*"/>
            <xsl:attribute name="px:key" select="'g' || $head?row"/>
            <xsl:for-each select="$members">
              <xsl:call-template name="fp:entity-item">
                <xsl:with-param name="item" select="."/>
                <xsl:with-param name="names" select="$names"/>
              </xsl:call-template>
            </xsl:for-each>
          </xsl:copy>
        </xsl:when>
        <xsl:otherwise>
          <xsl:for-each select="$members">
            <xsl:call-template name="fp:entity-item">
              <xsl:with-param name="item" select="."/>
              <xsl:with-param name="names" select="$names"/>
            </xsl:call-template>
          </xsl:for-each>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:for-each-group>
  </xsl:template>

  <!-- The element of a key-value row (one per value cell) or of a note. -->
  <xsl:template name="fp:entity-item" as="element()*">
    <xsl:param name="item" as="map(*)"/>
    <xsl:param name="names" as="map(xs:string, xs:string)"/>
    <xsl:choose>
      <xsl:when test="$item?type eq 'key' and empty($item?cells)">
        <!-- a key without a value: its element, empty (the key is the table's text) -->
        <xsl:variable name="step" as="element()" select="fp:header-step($item?key, $names, false(), ())"/>
        <xsl:copy select="$step">
          <xsl:sequence select="$step/@*"/>
          <xsl:attribute name="px:key" select="'e' || $item?row"/>
        </xsl:copy>
      </xsl:when>
      <xsl:when test="$item?type eq 'key'">
        <!-- the key's element (fp:header-step without links) made directly around each value, not copied from a
             temporary one -->
        <xsl:variable name="label" as="xs:string" select="f:cell-label($item?key)"/>
        <xsl:variable name="roles" as="xs:string*" select="f:cell-roles($item?cells)"/>
        <xsl:for-each select="$item?cells">
          <xsl:variable name="cell" as="element(px:cell)" select="."/>
          <xsl:variable name="i" as="xs:integer" select="position()"/>
          <xsl:element name="{if ($f:generic-names) then 'field' else $names($label)}">
            <xsl:attribute name="{if ($f:generic-names) then 'name' else 'px:label'}" select="$label"/>
            <xsl:if test="count($item?cells) gt 1">
              <xsl:attribute name="px:col" select="$cell/@col"/>
            </xsl:if>
            <xsl:attribute name="px:key" select="'e' || $item?row || '.' || $cell/@col"/>
            <xsl:call-template name="fp:entity-value">
              <xsl:with-param name="cell" select="$cell"/>
              <xsl:with-param name="role" select="$roles[$i]"/>
            </xsl:call-template>
          </xsl:element>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <note px:row="{$item?row}" px:key="n{$item?row}">
          <xsl:variable name="roles" as="xs:string*" select="f:cell-roles($item?cells)"/>
          <xsl:for-each select="$item?cells">
            <xsl:variable name="i" as="xs:integer" select="position()"/>
            <xsl:call-template name="fp:entity-value">
              <xsl:with-param name="cell" select="."/>
              <xsl:with-param name="role" select="$roles[$i]"/>
            </xsl:call-template>
          </xsl:for-each>
        </note>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The value of a cell ($role: its role, f:cell-roles): f:value for a data cell; for another (a header or section cell read as a value here),
       its links, images and text, its nested tables being listed at the top level of the output (map/document.xsl),
       so that no table appears twice. A template, so that it writes straight into the element being built. -->
  <xsl:template name="fp:entity-value" as="node()*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="role" as="xs:string"/>
    <xsl:choose>
      <xsl:when test="$role eq 'data'">
        <xsl:call-template name="fp:value">
          <xsl:with-param name="cell" select="$cell"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="f:link-attributes($cell)"/>
        <xsl:value-of select="f:text($cell)[. ne '']"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- True if a cell shows something: text, a link, an image or a table. -->
  <xsl:function name="fp:has-content" as="xs:boolean">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:sequence select="not(f:is-null(string($cell/px:text))) or exists($cell/(px:link | px:image | px:table-ref))"/>
  </xsl:function>

  <!-- True if a cell reads as a heading: a th or a bold cell with text, without image or table. -->
  <xsl:function name="fp:is-heading" as="xs:boolean">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:sequence select="($cell/@tag eq 'th' or $cell/@bold = 'true') and not(f:is-null(f:cell-label($cell)))
                          and empty($cell/(px:image | px:table-ref))"/>
  </xsl:function>

</xsl:stylesheet>
