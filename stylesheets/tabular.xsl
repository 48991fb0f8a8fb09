<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage tabular: header-annotated grid (docs/formats.md sections 2 and 3) -> each table as columns and records
  (docs/formats.md section 5), the shape of a CSV file or a pandas DataFrame: the normalized table (spans
  expanded) with its header rows turned into column names and its header columns into the row index.

  Per table (nested tables are tables of their own), with k header rows and p header columns:
    <px:table index="0" header-rows="2" header-cols="1" levels="2">  (and, from the grid's px:table: caption,
                                                                      parent-table, hidden, depth, locator, heading,
                                                                      header-method)
      <px:column kind="section"><px:level>section</px:level>...</px:column>  one per level of section rows, if any
      <px:column kind="row-header" col="0"><px:level/>...</px:column>         one per header column c < p
      <px:column kind="data" col="1"><px:level>Average</px:level><px:level>Height</px:level></px:column>
      <px:record row="2"><px:value>Males</px:value><px:value>1.78</px:value>...</px:record>
      <px:note row="9">Source: ...</px:note>                                   one per note row, if any
    </px:table>
  Column names: every column has levels = max(k, 1) px:level elements, the texts of the slots above it in the
  header rows, top first, as labels (f:cell-label: one line, reference marks and sort keys cut); a header cell that spans down gives its text once, at its top row, and an empty level
  below (pandas' convention for a MultiIndex: ('Ratio', '')); a horizontally spanning header gives its text to each
  column it covers. A data column whose levels are all empty is named column-N (N = its 1-based grid column, as map
  names it). Section columns are named section, section-2, ...
  Data columns that carry nothing, no header label and no value in any record (a column that only a note, a title
  or a section row spans, or an empty spacer column), are left out.
  Records: one per body row (rows k and below) that is neither a section row, nor a note row (f:note-rows: a
  source line or footnote after the data, given as px:note instead), nor a row whose every slot in the data columns
  is a header cell (a repeated header row), nor a row no cell covers. Values, in column order: the section cells
  heading the row (from the slots' row-headers, outermost first), the texts of the row's slots in the header
  columns, then in the data columns; a spanning cell gives its text in every slot it covers, an uncovered slot ''.
  Notes: <px:note row="R">, the text of the note row (once, not once per column it spans), after the records.

  Parameter table: the index of the one table wanted, or -1 for all tables.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:array="http://www.w3.org/2005/xpath-functions/array"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:include href="lib/name-characters.xsl"/>
  <xsl:include href="lib/names.xsl"/>
  <xsl:include href="lib/slots.xsl"/>

  <!-- The index of the one table wanted, or -1 for every table. -->
  <xsl:param name="table" as="xs:integer" select="-1"/>

  <xsl:output method="xml" encoding="UTF-8" indent="no"/>

  <xsl:mode on-no-match="fail"/>

  <xsl:template match="/">
    <xsl:apply-templates select="px:grids"/>
  </xsl:template>

  <xsl:template match="px:grids" as="element(px:tabular)">
    <xsl:if test="$table ge 0 and not(px:table[xs:integer(@index) eq $table])">
      <xsl:message terminate="yes" error-code="px:no-table"
        >[px:no-table] the page has no table {$table} (it has {count(px:table)} table(s))</xsl:message>
    </xsl:if>
    <px:tabular source="{@source}" title="{@title}">
      <xsl:apply-templates select="px:table[$table lt 0 or xs:integer(@index) eq $table]"/>
      <xsl:sequence select="px:table-failure[$table lt 0]"/>
    </px:tabular>
  </xsl:template>

  <xsl:template match="px:table" as="element(px:table)">
    <xsl:variable name="k" as="xs:integer" select="xs:integer((@header-rows, 0)[1])"/>
    <xsl:variable name="p" as="xs:integer" select="min((xs:integer((@header-cols, 0)[1]), xs:integer(@cols)))"/>
    <xsl:variable name="levels" as="xs:integer" select="max(($k, 1))"/>
    <xsl:variable name="rows" as="element(px:row)*" select="px:row"/>
    <xsl:variable name="notes" as="xs:integer*" select="f:note-rows(.)"/>
    <xsl:variable name="records" as="element(px:row)*"
                  select="$rows[xs:integer(@index) ge $k][not(xs:integer(@index) = $notes)][fp:is-record(., $p)]"/>
    <!-- the data columns that carry something: a header label, or a value in some record (a column that only a
         note, a title or a section row spans, or an empty spacer column, is left out) -->
    <xsl:variable name="columns" as="xs:integer*" select="(0 to xs:integer(@cols) - 1)[
        let $col := . return $col lt $p or exists(fp:column-levels($rows, $k, $col)[. ne ''])
          or (some $r in $records satisfies fp:slot-text($r/px:slot[$col + 1]) ne '')]"/>
    <xsl:variable name="sections" as="array(xs:string)*" select="$records ! array { fp:sections(., $p) }"/>
    <xsl:variable name="section-levels" as="xs:integer" select="max((0, $sections ! array:size(.)))"/>
    <px:table index="{@index}" header-rows="{$k}" header-cols="{$p}" levels="{$levels}">
      <xsl:sequence select="@parent-table, @hidden, @depth, @locator, @heading, @header-method"/>
      <xsl:if test="px:caption">
        <xsl:attribute name="caption" select="px:caption"/>
      </xsl:if>
      <xsl:for-each select="1 to $section-levels">
        <px:column kind="section">
          <px:level>{if (. eq 1) then 'section' else 'section-' || .}</px:level>
          <xsl:sequence select="(2 to $levels) ! fp:level('')"/>
        </px:column>
      </xsl:for-each>
      <xsl:for-each select="$columns">
        <xsl:variable name="col" as="xs:integer" select="."/>
        <xsl:variable name="names" as="xs:string*" select="fp:column-levels($rows, $k, $col)"/>
        <px:column kind="{if ($col lt $p) then 'row-header' else 'data'}" col="{$col}">
          <xsl:choose>
            <xsl:when test="$col ge $p and empty($names[. ne ''])">
              <xsl:sequence select="fp:level('column-' || $col + 1), (2 to $levels) ! fp:level('')"/>
            </xsl:when>
            <xsl:otherwise>
              <xsl:sequence select="$names ! fp:level(.), (count($names) + 1 to $levels) ! fp:level('')"/>
            </xsl:otherwise>
          </xsl:choose>
        </px:column>
      </xsl:for-each>
      <xsl:for-each select="$records">
        <xsl:variable name="position" as="xs:integer" select="position()"/>
        <xsl:variable name="row-sections" as="xs:string*" select="$sections[$position]?*"/>
        <px:record row="{@index}">
          <xsl:sequence select="(1 to $section-levels) ! fp:value(($row-sections[current()], '')[1])"/>
          <xsl:sequence select="px:slot[xs:integer(@col) = $columns] ! fp:value(fp:slot-text(.))"/>
        </px:record>
      </xsl:for-each>
      <xsl:for-each select="$rows[xs:integer(@index) = $notes]">
        <px:note row="{@index}">{string-join(distinct-values(px:slot/@cell ! string()) ! key('f:cell', ., root(current()))
                                 ! f:text(.)[. ne ''], ' ')}</px:note>
      </xsl:for-each>
    </px:table>
  </xsl:template>

  <xsl:function name="fp:level" as="element(px:level)">
    <xsl:param name="text" as="xs:string"/>
    <px:level>{$text}</px:level>
  </xsl:function>

  <xsl:function name="fp:value" as="element(px:value)">
    <xsl:param name="text" as="xs:string"/>
    <px:value>{$text}</px:value>
  </xsl:function>

  <!-- The text of the cell covering a slot ('' for a slot no cell covers). -->
  <xsl:function name="fp:slot-text" as="xs:string">
    <xsl:param name="slot" as="element(px:slot)"/>
    <xsl:sequence select="(f:cell($slot) ! f:text(.), '')[1]"/>
  </xsl:function>

  <!-- The names of column $col, one per header row, top first: a cell that also covers the slot above gives ''. -->
  <xsl:function name="fp:column-levels" as="xs:string*">
    <xsl:param name="rows" as="element(px:row)*"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="col" as="xs:integer"/>
    <xsl:variable name="cells" as="xs:string*" select="$rows[position() le $k] ! string(px:slot[$col + 1]/@cell)"/>
    <xsl:sequence select="
        for $r in 1 to count($cells)
        return if ($cells[$r] eq '' or ($r gt 1 and $cells[$r] eq $cells[$r - 1])) then ''
               else (f:cell($rows[$r]/px:slot[$col + 1]) ! f:cell-label(.), '')[1]"/>
  </xsl:function>

  <!-- Whether a body row is a record: some slot covered, no section cell, and some slot in the data columns that is
       not a header cell. With no data columns (p = cols), no row is. -->
  <xsl:function name="fp:is-record" as="xs:boolean">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:variable name="roles" as="xs:string*" select="$row/px:slot ! (f:cell(.)/@role, 'none')[1]"/>
    <xsl:sequence select="exists($roles[. ne 'none']) and not($roles = 'section')
                          and exists($roles[position() gt $p][. ne 'header'])"/>
  </xsl:function>

  <!-- The texts of the section cells heading a record row, outermost first (from its data slots' row-headers). -->
  <xsl:function name="fp:sections" as="xs:string*">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:variable name="slot" as="element(px:slot)?" select="$row/px:slot[position() gt $p][@row-headers][1]"/>
    <xsl:sequence select="if (empty($slot)) then () else f:row-headers($slot)[@role = 'section'] ! f:text(.)"/>
  </xsl:function>

</xsl:stylesheet>
