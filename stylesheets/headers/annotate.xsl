<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:annotate: copy one px:table, adding the header annotations of docs/formats.md section 3 from the result map
  of f:detect-headers (tunnel parameter $result):
    px:table  header-rows, header-cols, header-method, kind, and a child px:header-evidence after caption and summary;
    px:cell   role (header, data, section, empty);
    px:slot   row-headers and column-headers (space-separated cell ids) on every slot of a data or empty cell.
  Annotations of an earlier run are replaced, so the stage can run twice on the same grid.
  No template of the mode matches an attribute: attributes are copied with xsl:copy-of (what shallow-copy does with
  each), without a template call per attribute.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:c="urn:pyxform:cell"
    xmlns:m="urn:pyxform:mode"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:mode name="m:annotate" on-no-match="shallow-copy" on-multiple-match="fail"/>

  <xsl:template match="px:table" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:copy-of select="@* except (@header-rows, @header-cols, @header-method, @kind)"/>
      <xsl:attribute name="header-rows" select="$result?k"/>
      <xsl:attribute name="header-cols" select="$result?p"/>
      <xsl:attribute name="header-method" select="$result?method"/>
      <xsl:attribute name="kind" select="$result?kind"/>
      <!-- grid.xsd: caption, summary, header-evidence, then cells, rows and errors -->
      <xsl:apply-templates select="px:caption | px:summary" mode="#current"/>
      <xsl:call-template name="fp:evidence">
        <xsl:with-param name="result" select="$result"/>
      </xsl:call-template>
      <!-- the cells and rows in one pass, without a template call per cell: a cell is copied as px:cell below
           copies it, with its role from the table's roles map; where a cell of the table holds an element that a
           template of the mode matches (no grid written by normalize), the cells, and any other child, go through
           the templates. tests/test_headers_annotate.py compares both paths on generated grids. -->
      <xsl:variable name="roles" as="map(*)" select="$result?roles"/>
      <xsl:variable name="plain" as="xs:boolean"
          select="empty(px:cell/descendant::*[self::px:table or self::px:cell or self::px:row or self::px:slot])"/>
      <xsl:for-each select="node() except (px:caption | px:summary | px:header-evidence)">
        <xsl:choose>
          <xsl:when test="$plain and self::px:cell">
            <xsl:copy>
              <xsl:copy-of select="@* except @role"/>
              <xsl:attribute name="role" select="$roles(string(@id))"/>
              <xsl:copy-of select="node()"/>
            </xsl:copy>
          </xsl:when>
          <xsl:otherwise>
            <xsl:apply-templates select="." mode="#current"/>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:for-each>
    </xsl:copy>
  </xsl:template>

  <!-- A cell: its attributes and children copied with xsl:copy-of, not one template call per node (a copy of a
       table's cells through templates cost about as much as the rest of the annotation). The same nodes: no
       template of this mode matches an attribute (each is shallow-copied, as xsl:copy-of copies it), nor any
       descendant of a cell of the grid (px:text, px:sort-key, px:link, px:image, px:table-ref), so that
       shallow-copy copies the subtree as it is; a cell that holds an element a template matches (no grid written
       by normalize) goes through the templates. The table's pass above copies the cells of a table without such a
       cell the same way. tests/test_headers_annotate.py compares both on generated grids. -->
  <xsl:template match="px:cell" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:copy>
      <xsl:copy-of select="@* except @role"/>
      <xsl:attribute name="role" select="$result?roles(string(@id))"/>
      <xsl:choose>
        <xsl:when test="empty(descendant::*[self::px:table or self::px:cell or self::px:row or self::px:slot])">
          <xsl:copy-of select="node()"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:apply-templates select="node()" mode="#current"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:copy>
  </xsl:template>

  <!-- A row: what its slots' header texts share is read once here (the owner ids of its slots, its row header texts
       by number of blocks before the cell, the table's roles and cells), and each slot of a data or empty cell looks
       up its two texts directly: the same lists as f:slot-header-texts, which the slots of a cell with a headers
       attribute (markup), of a table with row or column group headers, and of a row whose index is not one of the
       table's still go through (px:slot below). -->
  <xsl:template match="px:row" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:variable name="assignment" as="map(*)" select="$result?assignment"/>
    <xsl:variable name="model" as="map(*)" select="$assignment?model"/>
    <xsl:variable name="y" as="xs:double" select="number(@index)"/>
    <xsl:copy>
      <xsl:copy-of select="@*"/>
      <xsl:choose>
        <xsl:when test="$y eq floor($y) and $y ge 0 and $y lt $model?rows and $assignment?scans-alone">
          <xsl:variable name="row" as="xs:integer" select="xs:integer($y) + 1"/>
          <xsl:variable name="n" as="xs:integer" select="$model?cols"/>
          <xsl:variable name="owners" as="array(*)" select="$model?owner($row)"/>
          <xsl:variable name="roles" as="map(*)" select="$assignment?roles"/>
          <xsl:variable name="cells" as="map(*)" select="$model?cells"/>
          <!-- a headers attribute is looked for only in a table that has one (f:assign's 'headers-attribute') -->
          <xsl:variable name="markup" as="xs:boolean" select="$assignment?headers-attribute"/>
          <!-- a table without header and section cells (fp:headerless-assignment): every line's one scan list is
               empty and no cell has a headers attribute to read, so the two texts below are '' and '' -->
          <xsl:variable name="headerless" as="xs:boolean" select="$assignment?headerless"/>
          <xsl:variable name="row-texts" as="array(*)" select="$assignment?row-texts($row)"/>
          <xsl:variable name="row-firsts" as="xs:integer*" select="$assignment?row-firsts($row)"/>
          <!-- a row without row header blocks (most rows) has one row header text for all its slots -->
          <xsl:variable name="row-text" as="xs:string?"
              select="if (empty($row-firsts)) then $row-texts(1) else ()"/>
          <xsl:variable name="column-texts" as="array(*)" select="$assignment?column-texts"/>
          <xsl:variable name="column-firsts" as="array(*)" select="$assignment?column-firsts"/>
          <xsl:choose>
            <!-- the usual row: the model's row of its index, whose children are its n slots in column order (the
                 model's 'in-order' and no other child), so that a slot's column is its position, without reading and
                 casting its col attribute -->
            <xsl:when test="$model?in-order[$row] and $model?row-elements[$row] is . and count(node()) eq $n">
              <xsl:for-each select="node()">
                <xsl:variable name="x" as="xs:integer" select="position()"/>
                <xsl:variable name="id" as="xs:string" select="$owners($x)"/>
                <!-- (row headers, column headers); in a headerless table every cell is a data or empty cell, so
                     that no role is looked up; the cell record is looked up only where a headers attribute or a line's
                     header blocks need it -->
                <xsl:variable name="headers" as="xs:string*" select="
                    if ($id eq '') then ()
                    else if ($headerless) then ('', '')
                    else let $role := $roles($id) return
                    if (not($role eq 'data' or $role eq 'empty')) then ()
                    else if ($markup and fp:has-headers($cells($id)))
                    then f:slot-header-texts($assignment, $row - 1, $x - 1)
                    else (if (empty($row-firsts)) then $row-text
                          else $row-texts(1 + fp:count-less($row-firsts, $cells($id)($c:col))),
                          let $firsts := $column-firsts($x)
                          return $column-texts($x)(
                              if (empty($firsts)) then 1
                              else if (empty(tail($firsts))) then (if ($firsts lt $cells($id)($c:row)) then 2 else 1)
                              else 1 + fp:count-less($firsts, $cells($id)($c:row))))"/>
                <xsl:copy>
                  <xsl:copy-of select="@* except (@row-headers, @column-headers)"/>
                  <xsl:if test="exists($headers)">
                    <xsl:attribute name="row-headers" select="$headers[1]"/>
                    <xsl:attribute name="column-headers" select="$headers[2]"/>
                  </xsl:if>
                  <xsl:apply-templates select="node()" mode="#current"/>
                </xsl:copy>
              </xsl:for-each>
            </xsl:when>
            <xsl:otherwise>
              <xsl:for-each select="node()">
                <xsl:choose>
                  <xsl:when test="self::px:slot">
                    <xsl:variable name="x" as="xs:double" select="number(@col)"/>
                    <xsl:variable name="id" as="xs:string" select="
                        if ($x ne floor($x) or $x lt 0 or $x ge $n) then '' else $owners(xs:integer($x) + 1)"/>
                    <xsl:variable name="cell" as="array(*)?" select="
                        if ($id eq '') then ()
                        else let $role := $roles($id) return
                             if ($role eq 'data' or $role eq 'empty') then $cells($id) else ()"/>
                    <!-- (row headers, column headers); a column with one header block (or none) answers without
                         fp:count-less: its text is the first or the second by the block's start alone -->
                    <xsl:variable name="headers" as="xs:string*" select="
                        if (empty($cell)) then ()
                        else if ($headerless) then ('', '')
                        else if ($markup and fp:has-headers($cell))
                        then f:slot-header-texts($assignment, $row - 1, xs:integer($x))
                        else (if (empty($row-firsts)) then $row-text
                              else $row-texts(1 + fp:count-less($row-firsts, $cell($c:col))),
                              let $column := xs:integer($x) + 1,
                                  $firsts := $column-firsts($column)
                              return $column-texts($column)(
                                  if (empty($firsts)) then 1
                                  else if (empty(tail($firsts))) then (if ($firsts lt $cell($c:row)) then 2 else 1)
                                  else 1 + fp:count-less($firsts, $cell($c:row))))"/>
                    <xsl:copy>
                      <xsl:copy-of select="@* except (@row-headers, @column-headers)"/>
                      <xsl:if test="exists($headers)">
                        <xsl:attribute name="row-headers" select="$headers[1]"/>
                        <xsl:attribute name="column-headers" select="$headers[2]"/>
                      </xsl:if>
                      <xsl:apply-templates select="node()" mode="#current"/>
                    </xsl:copy>
                  </xsl:when>
                  <xsl:otherwise>
                    <xsl:apply-templates select="." mode="#current"/>
                  </xsl:otherwise>
                </xsl:choose>
              </xsl:for-each>
            </xsl:otherwise>
          </xsl:choose>
        </xsl:when>
        <xsl:otherwise>
          <xsl:apply-templates select="node()" mode="#current"/>
        </xsl:otherwise>
      </xsl:choose>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="px:slot" mode="m:annotate">
    <xsl:param name="result" as="map(*)" tunnel="yes"/>
    <xsl:variable name="y" as="xs:double" select="number(../@index)"/>
    <xsl:variable name="x" as="xs:double" select="number(@col)"/>
    <!-- (row headers, column headers) -->
    <xsl:variable name="headers" as="xs:string*" select="if ($y ne floor($y) or $x ne floor($x)) then ()
        else f:slot-header-texts($result?assignment, xs:integer($y), xs:integer($x))"/>
    <xsl:copy>
      <xsl:copy-of select="@* except (@row-headers, @column-headers)"/>
      <xsl:if test="exists($headers)">
        <xsl:attribute name="row-headers" select="$headers[1]"/>
        <xsl:attribute name="column-headers" select="$headers[2]"/>
      </xsl:if>
      <xsl:apply-templates select="node()" mode="#current"/>
    </xsl:copy>
  </xsl:template>

</xsl:stylesheet>
