<?xml version="1.0" encoding="UTF-8"?>
<!--
  The kind of a table, once its header region is known: how its data is laid out, which decides how it maps
  (map/table.xsl: an entity table is one record, docs/mapping.md).

    f:table-kind($model, $k, $p, $kinds) => 'layout' | 'entity' | 'matrix' | 'relational'

    layout      no grid of values to read under headers: fewer than two rows or two columns, fewer than two cells
                with text, or no header found (k = p = 0) in a table whose cells hold tables (tables laid out in a
                table); the first test that holds decides, in this order;
    entity      one thing described by key-value pairs (an infobox, a spec sheet, a "Details" box): no row of column
                labels (k = 0, or every header row is a title row spanning the table), at most one header column;
                of the rows that are neither wide (titles, sub-headings, notes) nor blank, none has more than two
                cells with content, and at least half, and at least two where the keys are header cells (p = 1) or
                three where nothing marks them (two rows alone do not tell keys from a two-column list), are
                key-value rows: a key, a text that is no number, in the first column, and one value cell after it (the second column, or a cell
                spanning the rest), the keys all different within each run of rows between wide or blank rows (a
                spec sheet repeats "Type" under "Camera" and under "Display"; the other rows are values without a
                key: a link, a button);
    matrix      a two-dimensional table (Zhang & Li's k > 0 and p > 0): some column-label row and some header column,
                so that every value sits under a row header and a column header; or a cross-tab whose row labels are
                not marked: below column labels, every column after the first holds numbers (a line score, a
                calendar, counts per year and place);
    relational  records under column labels, or rows of values without any header (the paper's one-dimensional
                tables): the rest.
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
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:table-kind" as="xs:string">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:param name="kinds" as="array(*)"/>
    <!-- the cell records as the values of the cells map, in any order (the tests below are empty, some): not a look-up
         per id -->
    <xsl:variable name="cells" as="array(*)*" select="$model?cells?*"/>
    <xsl:variable name="titles-only" as="xs:boolean"
        select="every $y in 0 to $k - 1 satisfies (f:is-wide-row($model, $y) or f:is-blank-row($model, $y))"/>
    <xsl:sequence select="
        if ($model?rows lt 2 or $model?cols lt 2 or empty($cells[not(.($c:blank))][2])) then 'layout'
        else if ($k + $p eq 0 and (some $c in $cells satisfies exists($c($c:element)/px:table-ref))) then 'layout'
        else if ($titles-only and $p le 1 and fp:is-entity($model, $k, 3 - $p)) then 'entity'
        else if (not($titles-only) and ($p ge 1 or fp:is-cross-tab($model, $k, $kinds))) then 'matrix'
        else 'relational'"/>
  </xsl:function>

  <!-- True if, below column labels, every column after the first holds numbers (three in four of its cells with text
       in the data rows), at least two such columns: one measure over two dimensions, the rows named by the first
       column or by position (a line score, a calendar, counts per year), whether or not the row labels are marked. -->
  <xsl:function name="fp:is-cross-tab" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="kinds" as="array(*)"/>
    <xsl:variable name="data" as="xs:integer*" select="f:rows-of-kind($kinds, 'data')"/>
    <xsl:sequence select="$k ge 1 and $model?cols ge 3 and exists($data) and (every $x in 1 to $model?cols - 1 satisfies
        fp:mostly-numeric(f:column-ids($model, $x, $data) ! f:model-cell($model, .)[not(.($c:blank))]))"/>
  </xsl:function>

  <!-- True if at least one and at least three in four of the cells (cell records with text) hold numbers: their
       content types are read in turn until either count decides (a column of numbers is answered after three
       quarters of its cells, a column of text after a quarter: each type costs the text's content tests). -->
  <xsl:function name="fp:mostly-numeric" as="xs:boolean">
    <xsl:param name="cells" as="array(*)*"/>
    <xsl:variable name="total" as="xs:integer" select="count($cells)"/>
    <!-- numeric * 4 >= total * 3, that is numeric >= ceiling(3 * total / 4) -->
    <xsl:variable name="need" as="xs:integer" select="(3 * $total + 3) idiv 4"/>
    <xsl:iterate select="$cells">
      <xsl:param name="numeric" as="xs:integer" select="0"/>
      <xsl:param name="other" as="xs:integer" select="0"/>
      <!-- reached only without cells: with cells, one of the two counts decides before the last -->
      <xsl:on-completion select="false()"/>
      <xsl:variable name="is-numeric" as="xs:boolean" select="f:cell-type(.) eq 'numeric'"/>
      <xsl:choose>
        <xsl:when test="$is-numeric and $numeric + 1 ge $need">
          <xsl:break select="true()"/>
        </xsl:when>
        <xsl:when test="not($is-numeric) and $other + 1 gt $total - $need">
          <xsl:break select="false()"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:next-iteration>
            <xsl:with-param name="numeric" select="if ($is-numeric) then $numeric + 1 else $numeric"/>
            <xsl:with-param name="other" select="if ($is-numeric) then $other else $other + 1"/>
          </xsl:next-iteration>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:iterate>
  </xsl:function>

  <!-- True if the rows from $k on are key-value rows (see the module comment), at least $least of them. -->
  <xsl:function name="fp:is-entity" as="xs:boolean">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="least" as="xs:integer"/>
    <xsl:variable name="breaks" as="xs:integer*"
        select="($k to $model?rows - 1)[f:is-wide-row($model, .) or f:is-blank-row($model, .)]"/>
    <xsl:variable name="rows" as="xs:integer*" select="($k to $model?rows - 1)[not(. = $breaks)]"/>
    <!-- each key as "RUN KEY": RUN the number of wide or blank rows above it (the group it is in) -->
    <xsl:variable name="keys" as="xs:string*" select="
        for $y in $rows return fp:key-value($model, $y) ! (count($breaks[. lt $y]) || ' ' || normalize-space(.($c:text)))"/>
    <!-- the rows' counts of cells first: a table with a row of more than two cells with content (most tables that
         get here: no header rows) is answered without the keys, whose content types cost -->
    <xsl:sequence select="(every $y in $rows satisfies count(f:model-row($model, $y)?contents) le 2)
        and count($keys) ge $least and count($keys) * 2 ge count($rows)
        and count(distinct-values($keys)) eq count($keys)"/>
  </xsl:function>

  <!-- The key cell of row y if the row is a key-value row: two cells with content, the first anchored in column 0
       (and in the row), not spanning the table, its text no number; the second covering every other column or
       the second column of a two-column table. Else empty. -->
  <xsl:function name="fp:key-value" as="array(*)?">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="y" as="xs:integer"/>
    <xsl:variable name="contents" as="array(*)*" select="f:model-row($model, $y)?contents ! f:model-cell($model, .)"/>
    <xsl:variable name="key" as="array(*)?" select="$contents[1]"/>
    <xsl:variable name="value" as="array(*)?" select="$contents[2]"/>
    <xsl:sequence select="$key[count($contents) eq 2 and .($c:col) eq 0 and .($c:colspan) eq 1 and .($c:row) eq $y
        and not(.($c:blank)) and f:cell-type(.) eq 'text'
        and $value($c:col) eq 1 and $value($c:col) + $value($c:colspan) ge $model?cols]"/>
  </xsl:function>

</xsl:stylesheet>
