<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage xhtml: header-annotated grid (docs/formats.md sections 2 and 3) -> one XHTML page with every table rendered
  back as a clean, accessible HTML table, to see in a browser what pyxform understood (and to convert again: on the
  test cases the rendering gives the same attribute-value pairs).

  Per table (WCAG 2 technique H43 and the WHATWG "algorithm for assigning header cells", HTML 4.9.12.2):
    <table id="table-I">
      <caption>…</caption>      the table's caption, when it has one
      <thead>…</thead>          the k header rows, when no cell spans from them into the body
      <tbody>…</tbody>…         the other rows (all rows when there is no thead), a tbody per section
  Every cell sits at its anchor slot with its effective rowspan and colspan (the normalized grid, so a browser forms
  the same grid); a slot no cell covers stays empty.
    - A header cell with text is a th with an id (the grid's cell id) and the scope of the axis along which it
      heads data slots: col when only column header lists name it, row when only row header lists do; one that
      heads nothing keeps the scope row or col of its source th where the markup method honoured it, else col
      (anchored in a header row or a data column) or row (in a header column of the body).
    - A section cell is a th with an id and scope rowgroup, and each run of section rows starts a tbody (where no
      cell spans into it from above), so that the markup says which rows it heads (WHATWG: the rest of its row
      group).
    - A header cell without text heads nothing (a null tag): an empty th without id or scope where it holds an
      image or a link (so that it stays no data cell), else an empty td (a th would set a nested table's cells in
      bold); headers attributes leave it out.
    - Data and empty cells are td, with headers (the ids of their header cells: row headers outermost first, then
      column headers) where HTML can say it: not for a cell whose slots have different header cells (a span across
      columns under different headers: the attribute would give every slot all of them), nor for one headed by a
      section cell (the attribute would make the section a column header). There the scopes give the same
      assignment.
  Content: the cell's text with its line feeds as br, each link's text (where the text holds it, in order) as an a
  element with the link's href, its images as img, and the tables nested in it, rendered the same way in place.
  Links whose scheme is not http(s), mailto, ftp, tel or news (javascript:, vbscript:, data:) stay plain text, and
  images other than http(s) and data:image/ are left out: the rendering is made to be opened in a browser.
  Tables nested elsewhere (in a caption) follow their parent table.

  Parameters: table = the index of the one table to render (-1: every table); title = the page's title element
  (default: the page's title, else its source).
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                xmlns="http://www.w3.org/1999/xhtml"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:include href="lib/name-characters.xsl"/>
  <xsl:include href="lib/names.xsl"/>
  <xsl:include href="lib/slots.xsl"/>

  <!-- The index of the one table to render, or -1 for every table. -->
  <xsl:param name="table" as="xs:integer" select="-1"/>
  <!-- The page's title element; '' for the grid's title (else its source). -->
  <xsl:param name="title" as="xs:string" select="''"/>

  <xsl:output method="xhtml" html-version="5.0" encoding="UTF-8" indent="yes" omit-xml-declaration="no"/>

  <xsl:mode on-no-match="fail"/>
  <xsl:mode name="m:xhtml-table" on-no-match="fail"/>

  <xsl:key name="fp:row-cells" match="px:cell" use="../@index || ':' || @row"/>
  <xsl:key name="fp:row" match="px:row" use="../@index || ':' || @index"/>
  <xsl:key name="fp:column-header-of" match="px:slot[@column-headers]" use="tokenize(@column-headers)"/>
  <xsl:key name="fp:row-header-of" match="px:slot[@row-headers]" use="tokenize(@row-headers)"/>

  <xsl:template match="/">
    <xsl:apply-templates select="px:grids"/>
  </xsl:template>

  <xsl:template match="px:grids" as="element()">
    <xsl:if test="$table ge 0 and not(px:table[xs:integer(@index) eq $table])">
      <xsl:message terminate="yes" error-code="px:no-table"
        >[px:no-table] the page has no table {$table} (it has {count(px:table)} table(s))</xsl:message>
    </xsl:if>
    <xsl:variable name="indexes" as="xs:string*" select="px:table/@index"/>
    <html>
      <head>
        <meta charset="UTF-8"/>
        <title>{($title[. ne ''], @title[normalize-space()], @source[normalize-space()], 'pyxform tables')[1]}</title>
        <style>table {{ border-collapse: collapse; margin: 1em 0 }} th, td {{ border: 1px solid #888; padding: 0.2em 0.5em; vertical-align: top }} th {{ background: #eee }} caption {{ font-weight: bold; text-align: left }}</style>
      </head>
      <body>
        <xsl:apply-templates mode="m:xhtml-table" select="
            if ($table ge 0) then px:table[xs:integer(@index) eq $table]
            else px:table[not(@parent-table = $indexes) or not(fp:in-cell(.))]"/>
      </body>
    </html>
  </xsl:template>

  <!-- Whether a nested table sits in a cell of its parent table (where it is rendered). -->
  <xsl:function name="fp:in-cell" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="exists(key('f:cell', string($table/@parent-cell), root($table)))"/>
  </xsl:function>

  <xsl:template match="px:table" mode="m:xhtml-table" as="element()">
    <xsl:variable name="k" as="xs:integer" select="xs:integer((@header-rows, 0)[1])"/>
    <xsl:variable name="p" as="xs:integer" select="xs:integer((@header-cols, 0)[1])"/>
    <xsl:variable name="cells" as="element(px:cell)*" select="px:cell"/>
    <xsl:variable name="thead" as="xs:boolean"
                  select="$k gt 0 and $k lt xs:integer(@rows)
                          and empty($cells[xs:integer(@row) lt $k][xs:integer(@row) + xs:integer(@rowspan) gt $k])"/>
    <table id="table-{@index}">
      <xsl:if test="@hidden = 'true'">
        <xsl:attribute name="hidden" select="'hidden'"/>
      </xsl:if>
      <xsl:if test="px:caption">
        <caption>{px:caption}</caption>
      </xsl:if>
      <xsl:if test="$thead">
        <thead><xsl:sequence select="px:row[xs:integer(@index) lt $k] ! fp:html-row(., $k, $p)"/></thead>
      </xsl:if>
      <!-- row groups: a new tbody at each run of section rows that no cell spans into from above -->
      <xsl:variable name="sections" as="xs:integer*" select="distinct-values($cells[@role eq 'section']/xs:integer(@row))"/>
      <xsl:variable name="starts" as="xs:integer*" select="for $y in $sections[not(. - 1 = $sections)] return
          $y[empty($cells[xs:integer(@row) lt $y][xs:integer(@row) + xs:integer(@rowspan) gt $y])]"/>
      <xsl:for-each-group select="px:row[not($thead) or xs:integer(@index) ge $k]"
                          group-starting-with="px:row[xs:integer(@index) = $starts]">
        <tbody><xsl:sequence select="current-group() ! fp:html-row(., $k, $p)"/></tbody>
      </xsl:for-each-group>
    </table>
  </xsl:template>

  <!-- One grid row: the cells anchored in it, left to right. -->
  <xsl:function name="fp:html-row" as="element()">
    <xsl:param name="row" as="element(px:row)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <tr>
      <xsl:for-each select="key('fp:row-cells', $row/../@index || ':' || $row/@index, root($row))">
        <xsl:sort select="xs:integer(@col)"/>
        <xsl:sequence select="fp:html-cell(., $k, $p)"/>
      </xsl:for-each>
    </tr>
  </xsl:function>

  <xsl:function name="fp:html-cell" as="element()">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:variable name="header" as="xs:boolean" select="not(f:is-null(f:text($cell)))
                  and $cell/@role = ('header', 'section')"/>
    <!-- a header cell without text but with an image or a link heads nothing, but is no data cell either (one
         holding a table stays a td: a th would set the nested table's cells in bold) -->
    <xsl:variable name="null-header" as="xs:boolean" select="not($header) and $cell/@role eq 'header'
                  and exists($cell/(px:image | px:link))"/>
    <xsl:element name="{if ($header or $null-header) then 'th' else 'td'}">
      <xsl:choose>
        <xsl:when test="$header">
          <xsl:attribute name="id" select="$cell/@id"/>
          <xsl:attribute name="scope" select="if ($cell/@role eq 'section') then 'rowgroup' else fp:scope($cell, $k, $p)"/>
        </xsl:when>
        <xsl:when test="$null-header"/>
        <xsl:otherwise>
          <xsl:variable name="lists" as="xs:string*"
                        select="distinct-values(fp:slots($cell) ! normalize-space(string-join((@row-headers,
                                                                                              @column-headers), ' ')))"/>
          <!-- header cells without text are left out (they head nothing and have no id) -->
          <xsl:variable name="headers" as="xs:string*" select="tokenize($lists[1])
                        [key('f:cell', ., root($cell))[1][not(f:is-null(f:text(.)))]]"/>
          <xsl:if test="count($lists) eq 1 and exists($headers)
                        and not(some $id in $headers satisfies key('f:cell', $id, root($cell))/@role = 'section')">
            <xsl:attribute name="headers" select="$headers"/>
          </xsl:if>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="$cell/@rowspan ne '1'">
        <xsl:attribute name="rowspan" select="$cell/@rowspan"/>
      </xsl:if>
      <xsl:if test="$cell/@colspan ne '1'">
        <xsl:attribute name="colspan" select="$cell/@colspan"/>
      </xsl:if>
      <xsl:sequence select="fp:content($cell)"/>
    </xsl:element>
  </xsl:function>

  <!-- The scope of a header cell: the axis along which it heads data slots (col when only column header lists name
       it, row when only row header lists do). A header cell that heads nothing (or, through headers attributes,
       both ways) keeps the scope its author gave it where the markup method honoured it (a th with scope row or
       col); else col in a header row or right of the header columns, row in a header column of the body. -->
  <xsl:function name="fp:scope" as="xs:string">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:param name="k" as="xs:integer"/>
    <xsl:param name="p" as="xs:integer"/>
    <xsl:variable name="column" as="xs:boolean" select="exists(key('fp:column-header-of', $cell/@id, root($cell)))"/>
    <xsl:variable name="row" as="xs:boolean" select="exists(key('fp:row-header-of', $cell/@id, root($cell)))"/>
    <xsl:variable name="declared" as="xs:string" select="lower-case(normalize-space($cell/@scope))"/>
    <xsl:sequence select="
        if ($column and not($row)) then 'col'
        else if ($row and not($column)) then 'row'
        else if ($cell/../@header-method eq 'markup' and $cell/@tag eq 'th' and $declared = ('row', 'col'))
        then $declared
        else if (xs:integer($cell/@row) lt $k or xs:integer($cell/@col) ge $p) then 'col' else 'row'"/>
  </xsl:function>

  <!-- The slots a cell covers (and owns: where cells overlap, the slot names the later cell). -->
  <xsl:function name="fp:slots" as="element(px:slot)*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="top" as="xs:integer" select="xs:integer($cell/@row)"/>
    <xsl:variable name="left" as="xs:integer" select="xs:integer($cell/@col)"/>
    <xsl:variable name="table" as="xs:string" select="$cell/../@index"/>
    <xsl:sequence select="
        for $row in $top to $top + xs:integer($cell/@rowspan) - 1,
            $col in $left to $left + xs:integer($cell/@colspan) - 1
        return key('fp:row', $table || ':' || $row, root($cell))/px:slot[$col + 1][@cell eq $cell/@id]"/>
  </xsl:function>

  <!-- A cell's content: its sort key (as the class="sortkey" span it came from), text with links and line breaks,
       images, nested tables. -->
  <xsl:function name="fp:content" as="node()*">
    <xsl:param name="cell" as="element(px:cell)"/>
    <xsl:variable name="key" as="xs:string" select="string($cell/px:sort-key)"/>
    <xsl:variable name="keyed" as="xs:boolean" select="$key ne '' and starts-with(f:text($cell), $key)"/>
    <xsl:if test="$keyed">
      <span class="sortkey">{$key}</span>
    </xsl:if>
    <xsl:sequence select="fp:linked(if ($keyed) then substring-after(f:text($cell), $key) else f:text($cell),
                                    $cell/px:link[exists(fp:safe-url(@href, $fp:link-schemes))][normalize-space(.)])"/>
    <xsl:for-each select="$cell/px:image[exists(fp:safe-url(@src, $fp:image-schemes))]">
      <img src="{fp:safe-url(@src, $fp:image-schemes)}">
        <xsl:sequence select="@alt"/>
      </img>
    </xsl:for-each>
    <xsl:apply-templates select="f:nested-tables($cell)" mode="m:xhtml-table"/>
  </xsl:function>

  <!-- $text with the first occurrence of each link's text (in order, after the previous one) as an a element. -->
  <xsl:function name="fp:linked" as="node()*">
    <xsl:param name="text" as="xs:string"/>
    <xsl:param name="links" as="element(px:link)*"/>
    <xsl:variable name="link" as="element(px:link)?" select="head($links)"/>
    <xsl:choose>
      <xsl:when test="empty($link)">
        <xsl:sequence select="fp:lines($text)"/>
      </xsl:when>
      <xsl:when test="contains($text, string($link))">
        <xsl:sequence select="fp:lines(substring-before($text, string($link)))"/>
        <a href="{fp:safe-url($link/@href, $fp:link-schemes)}"><xsl:sequence select="fp:lines(string($link))"/></a>
        <xsl:sequence select="fp:linked(substring-after($text, string($link)), tail($links))"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:sequence select="fp:linked($text, tail($links))"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:function>

  <!-- The URL schemes the rendering keeps (a URL without a scheme is relative: kept). The rendering is meant to be
       opened in a browser: a page's javascript:, vbscript: or data:text/html link must not become live there. -->
  <xsl:variable name="fp:link-schemes" as="xs:string*" select="'http', 'https', 'mailto', 'ftp', 'tel', 'news'"/>
  <xsl:variable name="fp:image-schemes" as="xs:string*" select="'http', 'https', 'data:image/'"/>

  <!-- $url as a browser reads it (tab, line feed and carriage return removed anywhere, spaces trimmed: the WHATWG
       URL parser's first steps) if it is relative or its scheme is one of $schemes (an entry ending in '/' names a
       prefix, as 'data:image/'); else empty. -->
  <xsl:function name="fp:safe-url" as="xs:string?">
    <xsl:param name="url" as="xs:string?"/>
    <xsl:param name="schemes" as="xs:string*"/>
    <xsl:variable name="read" as="xs:string" select="normalize-space(replace(string($url), '[&#9;&#10;&#13;]', ''))"/>
    <xsl:variable name="scheme" as="xs:string"
                  select="if (matches($read, '^[A-Za-z][A-Za-z0-9+.\-]*:')) then lower-case(substring-before($read, ':'))
                          else ''"/>
    <xsl:sequence select="$read[. ne ''][$scheme eq '' or $scheme = $schemes
                          or (some $prefix in $schemes[ends-with(., '/')]
                              satisfies starts-with(lower-case(.), $prefix))]"/>
  </xsl:function>

  <!-- Text with each line feed as a br element. -->
  <xsl:function name="fp:lines" as="node()*">
    <xsl:param name="text" as="xs:string"/>
    <xsl:for-each select="tokenize($text, '&#10;')">
      <xsl:if test="position() gt 1"><br/></xsl:if>
      <xsl:value-of select="."/>
    </xsl:for-each>
  </xsl:function>

</xsl:stylesheet>
