<?xml version="1.0" encoding="UTF-8"?>
<!--
  f:cell: one td or th of a table, placed by f:place-rows, becomes a px:cell (docs/formats.md section 2): its anchor
  slot and effective spans, its tag and row group, the formatting features that clean put on it (px:font-size ...
  px:align, copied without prefix), its table-model attributes (scope, headers, id, abbr, class), and its content:
  the visible text, its sort key (the text of an element of class sortkey, MediaWiki's sort keys, which the site's
  style sheet hides: a label leaves it out), the links, the images and references to the tables nested in it. Links,
  images and tables inside a nested table belong to that table's cells, not to this one.

  A function rather than a template with parameters: in saxonche a template's parameters cost about a microsecond
  each per cell.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:f="urn:pyxform:function"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!--
    f:cell($cell, $id, $row, $col, $rowspan, $colspan, $group, $group-kind, $table, $table-indexes): the px:cell of
    $cell (a td or th of $table) with the id, anchor slot, effective spans and row group that f:place-rows gave it.
  -->
  <xsl:function name="f:cell" as="element(px:cell)">
    <xsl:param name="cell" as="element()"/>
    <xsl:param name="id" as="xs:string"/>
    <xsl:param name="row" as="xs:integer"/>
    <xsl:param name="col" as="xs:integer"/>
    <xsl:param name="rowspan" as="xs:integer"/>
    <xsl:param name="colspan" as="xs:integer"/>
    <xsl:param name="group" as="xs:integer"/>
    <xsl:param name="group-kind" as="xs:string"/>
    <xsl:param name="table" as="element(table)"/>
    <!-- map(xs:string, xs:integer): declared map(*), since Saxon checks a declared entry type entry by entry on every
         call (once per cell, over every table of the page) -->
    <xsl:param name="table-indexes" as="map(*)"/>
    <xsl:for-each select="$cell">
      <px:cell id="{$id}" row="{$row}" col="{$col}" rowspan="{$rowspan}" colspan="{$colspan}" tag="{local-name()}"
               group="{$group}" group-kind="{$group-kind}">
        <!-- the formatting features of docs/formats.md section 1, without prefix, in that order (one instruction with a
             fixed name each: cheaper than a computed name from local-name()) -->
        <xsl:if test="exists(@px:font-size)">
          <xsl:attribute name="font-size" select="@px:font-size"/>
        </xsl:if>
        <xsl:if test="exists(@px:bold)">
          <xsl:attribute name="bold" select="@px:bold"/>
        </xsl:if>
        <xsl:if test="exists(@px:italic)">
          <xsl:attribute name="italic" select="@px:italic"/>
        </xsl:if>
        <xsl:if test="exists(@px:align)">
          <xsl:attribute name="align" select="@px:align"/>
        </xsl:if>
        <xsl:if test="exists(@px:face)">
          <xsl:attribute name="face" select="@px:face"/>
        </xsl:if>
        <xsl:if test="exists(@px:color)">
          <xsl:attribute name="color" select="@px:color"/>
        </xsl:if>
        <xsl:if test="exists(@px:background)">
          <xsl:attribute name="background" select="@px:background"/>
        </xsl:if>
        <xsl:if test="exists(@px:indent)">
          <xsl:attribute name="indent" select="@px:indent"/>
        </xsl:if>
        <xsl:copy-of select="@scope, @headers, @abbr, @class"/>
        <xsl:if test="exists(@id)">
          <xsl:attribute name="html-id" select="@id"/>
        </xsl:if>
        <!-- a cell of text only (most cells): what f:visible-text gives, without the call -->
        <px:text>{if (empty(*)) then normalize-space() else f:visible-text(.)}</px:text>
        <xsl:if test="exists(*)">
          <!-- links, images and tables of this cell: those inside a nested table belong to that table's cells -->
          <xsl:variable name="found" as="element()*" select="descendant::*[self::a[@href] or self::img or self::table
                                                                 or contains-token(@class, 'sortkey')]"/>
          <xsl:variable name="content" as="element()*"
              select="if (exists($found[self::table])) then $found[ancestor::table[1] is $table] else $found"/>
          <xsl:for-each select="$content[contains-token(@class, 'sortkey')][1]">
            <px:sort-key>{f:visible-text(.)}</px:sort-key>
          </xsl:for-each>
          <xsl:for-each select="$content[self::a[@href]]">
            <px:link href="{@href}">{if (empty(*)) then normalize-space() else f:visible-text(.)}</px:link>
          </xsl:for-each>
          <xsl:for-each select="$content[self::img]">
            <px:image>
              <xsl:copy-of select="@src, @alt"/>
            </px:image>
          </xsl:for-each>
          <xsl:for-each select="$content[self::table]">
            <px:table-ref index="{$table-indexes(generate-id())}"/>
          </xsl:for-each>
        </xsl:if>
      </px:cell>
    </xsl:for-each>
  </xsl:function>

</xsl:stylesheet>
