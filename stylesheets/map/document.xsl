<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:document: the grid document (px:grids) -> the output's document element.

  Without the table parameter: <pyxform> with the page's provenance (px:source, px:title, px:encoding) holding the
  element of every top-level table in index order (a nested table appears inside the data cell that holds it; one
  nested in a header or section cell is listed here, at the top level, with px:parent-table), then a
  px:table-failure for every table that normalize could not process or that map failed on. With table = N: table N's
  element alone (nested or not); an index that names no table stops with error px:no-table, one that names a table
  normalize could not process with the code of its px:table-failure (px:limit, px:table).
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:px="urn:pyxform"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                xmlns:err="http://www.w3.org/2005/xqt-errors"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <xsl:mode name="m:document" on-no-match="fail"/>

  <xsl:template match="px:grids[$table ge 0]" mode="m:document" as="element()">
    <xsl:variable name="chosen" as="element(px:table)?" select="px:table[xs:integer(@index) eq $table]"/>
    <xsl:variable name="failure" as="element(px:table-failure)?"
                  select="px:table-failure[xs:integer(@index) eq $table][1]"/>
    <xsl:if test="exists($failure)">
      <xsl:message terminate="yes" error-code="px:{$failure/@code}"
        >[px:{$failure/@code}{$failure/@limit ! (' ' || .)}] table {$table} ({$failure/@locator}) could not be
        normalized: {$failure/@message}</xsl:message>
    </xsl:if>
    <xsl:if test="empty($chosen)">
      <xsl:variable name="indexes" as="xs:integer*" select="(px:table | px:table-failure)/@index ! xs:integer(.)"/>
      <xsl:message terminate="yes" error-code="px:no-table"
        >[px:no-table] the page has no table {$table} (it has {count($indexes)} table(s){
        if (exists($indexes)) then ', indexes ' || min($indexes) || ' to ' || max($indexes) else ''})</xsl:message>
    </xsl:if>
    <xsl:apply-templates select="$chosen" mode="m:map-table"/>
  </xsl:template>

  <!-- Whether a nested table sits in a data cell of its table, where Rule 1 puts its XML; a table nested in a header
       or section cell is listed at the top level instead, so that its data is not lost. -->
  <xsl:function name="fp:in-data-cell" as="xs:boolean">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:sequence select="f:cell-roles(key('f:cell', string($table/@parent-cell), root($table))) = 'data'"/>
  </xsl:function>

  <!-- one table's element; a function so that xsl:try can call it in its select -->
  <xsl:function name="fp:map-table" as="element()">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:apply-templates select="$table" mode="m:map-table"/>
  </xsl:function>

  <!-- the failure of a table that has no header annotations -->
  <xsl:function name="fp:no-header-failure" as="element(px:table-failure)">
    <xsl:param name="table" as="element(px:table)"/>
    <px:table-failure index="{$table/@index}" locator="{$table/@locator}" code="no-header-annotations"
                      message="the table has no header annotations (run the headers stage before map)"/>
  </xsl:function>

  <!-- table failures sorted by table index (after the tables in <pyxform>) -->
  <xsl:function name="fp:in-index-order" as="element(px:table-failure)*">
    <xsl:param name="failures" as="element(px:table-failure)*"/>
    <xsl:perform-sort select="$failures">
      <xsl:sort select="xs:integer(@index)"/>
    </xsl:perform-sort>
  </xsl:function>

  <xsl:template match="px:grids" mode="m:document" as="element(pyxform)">
    <xsl:if test="empty(px:table | px:table-failure)">
      <xsl:message terminate="yes" error-code="px:no-table">[px:no-table] the page has no table</xsl:message>
    </xsl:if>
    <xsl:variable name="indexes" as="xs:string*" select="px:table/@index"/>
    <pyxform px:source="{@source}" px:title="{@title}" px:encoding="{@encoding}">
      <xsl:variable name="tables" as="element(px:table)*"
                    select="px:table[not(@parent-table = $indexes) or not(fp:in-data-cell(.))]"/>
      <!-- Every table mapped straight into <pyxform> in one xsl:try (most pages: no table fails); a failure anywhere
           rolls the whole page back to the catch, where each table is mapped in a try of its own and a table that
           fails becomes a px:table-failure. Mapping each table in its own try always would build each table's
           element apart and copy it into <pyxform> (~10% of map on a large table). -->
      <!-- the failures known before mapping: the grid's, and the tables without header annotations -->
      <xsl:variable name="failures" as="element(px:table-failure)*"
                    select="px:table-failure, $tables[not(fp:is-annotated(.))] ! fp:no-header-failure(.)"/>
      <xsl:try>
        <xsl:apply-templates select="$tables[fp:is-annotated(.)]" mode="m:map-table"/>
        <xsl:sequence select="fp:in-index-order($failures)"/>
        <xsl:catch>
          <xsl:variable name="mapped" as="element()*">
            <xsl:for-each select="$tables[fp:is-annotated(.)]">
              <xsl:try select="fp:map-table(.)">
                <xsl:catch>
                  <px:table-failure index="{@index}" locator="{@locator}" code="map"
                                    message="{$err:code}: {$err:description}"/>
                </xsl:catch>
              </xsl:try>
            </xsl:for-each>
          </xsl:variable>
          <xsl:sequence select="$mapped[not(self::px:table-failure)]"/>
          <xsl:sequence select="fp:in-index-order(($failures, $mapped[self::px:table-failure]))"/>
        </xsl:catch>
      </xsl:try>
    </pyxform>
  </xsl:template>

</xsl:stylesheet>
