<?xml version="1.0" encoding="UTF-8"?>
<!--
  The names of a table's elements (mode m:map-table, map/table.xsl): the table's label and element name, the element
  a header cell or a data column without a column header makes, and the element names of a table's header labels
  (Zhang & Li 2007, section 3: a cell's label names its element; docs/mapping.md gives the naming rules).
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <!-- The text the table's element is named after and where it came from: caption, title-row (an entity table's
       title: its first row with content, when that is one header or heading cell with text spanning the table; map
       key 'row' gives its index), heading, title or default. -->
  <xsl:function name="fp:table-label" as="map(xs:string, item())">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="top-level" as="xs:boolean" select="not($table/@parent-table)"/>
    <xsl:variable name="title-row" as="map(xs:string, item())?" select="if (not(f:table-kind-of($table) = 'entity')) then ()
        else (for $row in $table/px:row
              return let $cells := distinct-values($row/px:slot/@cell ! string()) ! key('f:cell', ., root($table))[1]
                            [fp:has-content(.)]
              return map {'cells': $cells, 'row': xs:integer($row/@index)}[exists($cells)]
             )[1][count(?cells) eq 1 and xs:integer(?cells/@colspan) eq xs:integer($table/@cols)
                  and (f:cell-roles(?cells) = ('header', 'section') or fp:is-heading(?cells))
                  and empty(?cells/(px:image | px:table-ref))]
             ! map {'from': 'title-row', 'text': f:cell-label(?cells), 'row': ?row}"/>
    <!-- the first candidate with text, each looked at only when those before it have none (a missing caption or
         heading has none) -->
    <xsl:variable name="caption" as="xs:string" select="if (empty($table/px:caption)) then ''
                                                        else f:label($table/px:caption)"/>
    <xsl:variable name="heading" as="xs:string" select="if (not($top-level and $table/@heading)) then ''
                                                        else f:label($table/@heading)"/>
    <xsl:sequence select="
        if (not(f:is-null($caption))) then map {'from': 'caption', 'text': $caption}
        else if (exists($title-row[not(f:is-null(?text))])) then $title-row
        else if (not(f:is-null($heading))) then map {'from': 'heading', 'text': $heading}
        else let $title := if ($top-level) then f:label(root($table)/px:grids/@title) else ''
             return if (not(f:is-null($title))) then map {'from': 'title', 'text': $title}
                    else map {'from': 'default', 'text': ''}"/>
  </xsl:function>

  <!-- The element of a data row that needs a record element (px:row is added by fp:nest). -->
  <xsl:variable name="fp:record-step" as="element()">
    <row/>
  </xsl:variable>

  <!-- The element of a data column without a column header with text: <column-N>, or <field column="N">. -->
  <xsl:function name="fp:column-step" as="element()" cache="yes">
    <xsl:param name="column" as="xs:integer"/>
    <xsl:choose>
      <xsl:when test="$f:generic-names">
        <field column="{$column + 1}"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:element name="column-{$column + 1}"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The (empty) element a header cell makes: named after its label ($names: f:element-names), or
       <field name="..."> with generic names. -->
  <xsl:function name="fp:header-step" as="element()">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="names" as="map(xs:string, xs:string)"/>
    <xsl:param name="with-links" as="xs:boolean"/>
    <xsl:param name="level" as="xs:string?"/>
    <xsl:sequence select="fp:header-step($cell, f:cell-label($cell), $names, $with-links, $level)"/>
  </xsl:function>

  <!-- fp:header-step with the cell's label (f:cell-label) given. -->
  <xsl:function name="fp:header-step" as="element()">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="label" as="xs:string"/>
    <xsl:param name="names" as="map(xs:string, xs:string)"/>
    <xsl:param name="with-links" as="xs:boolean"/>
    <xsl:param name="level" as="xs:string?"/>
    <xsl:element name="{if ($f:generic-names) then 'field' else $names($label)}">
      <xsl:attribute name="{if ($f:generic-names) then 'name' else 'px:label'}" select="$label"/>
      <xsl:if test="exists($level)">
        <xsl:attribute name="px:level" select="$level"/>
      </xsl:if>
      <xsl:if test="$with-links">
        <xsl:sequence select="f:link-attributes($cell)"/>
      </xsl:if>
    </xsl:element>
  </xsl:function>

  <!-- The corner of a table: map { header column x : the label of the header cells above it } (the header cells
       anchored in the header rows over column x that lie within the header columns, top first, joined with " / ":
       "Final" over the team names of a line score). A row header element carries it as px:level, the label of its
       level of row headers, which no data slot has among its headers. -->
  <xsl:function name="fp:corner-labels" as="map(xs:integer, xs:string)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:variable name="k" as="xs:integer" select="xs:integer(f:table-header-rows($table))"/>
    <xsl:variable name="p" as="xs:integer" select="xs:integer(f:table-header-cols($table))"/>
    <!-- the roles of a column's cells read at once (f:cell-roles) -->
    <xsl:sequence select="map:merge(for $x in 0 to $p - 1 return
        let $cells := $table/px:row[xs:integer(@index) lt $k]/px:slot[xs:integer(@col) eq $x]/f:cell(.),
            $roles := f:cell-roles($cells),
            $labels := distinct-values(
              (for $i in 1 to count($cells) return $cells[$i][$roles[$i] eq 'header'])
                [xs:integer(@col) + xs:integer(@colspan) le $p] ! f:cell-label(.)[. ne ''])
        return map:entry($x, string-join($labels, ' / '))[exists($labels)])"/>
  </xsl:function>

  <!--
    f:element-names($cells): map { label : element name } for the labels (f:label) of some header cells of one
    table, in the cells' order: one name per distinct label, and distinct labels get distinct names, so that
    siblings from different headers never share a name and the merge rule (same name, same header cell) is not
    needed to tell them apart. The name is f:xml-name of the label (fallback "field"); a name pyxform uses for its
    own structure (the record <row>, the note <note>, the unnamed <table>, the positional <column-N>) gets a trailing
    "_" ("Row" gives row_); a name already given to an earlier label gets "_2", "_3", ... (the first free one): "Total"
    and "TOTAL" give total and total_2, and two headers that agree in their first 64 characters of name stay apart.
    Names from header text hold "_" only as a leading "_" or in an escape _xHHHH_, so a suffix never makes another
    label's name.
  -->
  <xsl:function name="f:element-names" as="map(xs:string, xs:string)">
    <xsl:param name="cells" as="element(px:cell)*"/>
    <xsl:sequence select="fp:label-names(distinct-values($cells ! f:cell-label(.)))"/>
  </xsl:function>

  <!-- f:element-names of the cells whose distinct labels are given, in order. -->
  <xsl:function name="fp:label-names" as="map(xs:string, xs:string)">
    <xsl:param name="labels" as="xs:string*"/>
    <xsl:iterate select="$labels">
      <xsl:param name="names" as="map(xs:string, xs:string)" select="map {}"/>
      <xsl:param name="taken" as="map(xs:string, xs:boolean)" select="map {}"/>
      <xsl:on-completion select="$names"/>
      <xsl:variable name="base" as="xs:string" select="f:xml-name(., 'field')"/>
      <xsl:variable name="free" as="xs:string" select="if (fp:is-reserved($base)) then $base || '_'
                                                       else $base"/>
      <xsl:variable name="name" as="xs:string" select="if (not(map:contains($taken, $free))) then $free
          else (for $n in 2 to map:size($taken) + 2 return $free || '_' || $n)[not(map:contains($taken, .))][1]"/>
      <xsl:next-iteration>
        <xsl:with-param name="names" select="map:put($names, ., $name)"/>
        <xsl:with-param name="taken" select="map:put($taken, $name, true())"/>
      </xsl:next-iteration>
    </xsl:iterate>
  </xsl:function>

  <!-- Whether a name is one of pyxform's own elements in the output: a record, a note, a column named by position, a
       table without a name of its own (a header "Table" gives table_, so that count(//table) counts tables). -->
  <xsl:function name="fp:is-reserved" as="xs:boolean">
    <xsl:param name="name" as="xs:string"/>
    <!-- a literal pattern (compiled once, with the stylesheet), tried only on names that start like a column's -->
    <xsl:sequence select="$name = ('row', 'note', 'table')
                          or (starts-with($name, 'column-') and matches($name, '^column-[0-9]+$'))"/>
  </xsl:function>

  <!-- The name of a table's element: f:xml-name of its label (fallback "table"), with a trailing "_" when that is
       the name of a record, a note or a positional column (a caption "Row" gives row_: count(//row) counts records,
       never a table). -->
  <xsl:function name="fp:table-name" as="xs:string">
    <xsl:param name="label" as="xs:string"/>
    <xsl:variable name="base" as="xs:string" select="f:xml-name($label, 'table')"/>
    <xsl:sequence select="if ($base ne 'table' and fp:is-reserved($base)) then $base || '_' else $base"/>
  </xsl:function>

</xsl:stylesheet>
