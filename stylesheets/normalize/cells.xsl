<?xml version="1.0" encoding="UTF-8"?>
<!--
  One td or th of a table, placed by f:place-rows, becomes a px:cell (docs/formats.md section 2): its anchor slot and
  effective spans, its tag and row group, the formatting features that clean put on it (px:font-size ...
  px:align, copied without prefix), its table-model attributes (scope, headers, id, abbr, class), and its content:
  the visible text, its sort key (the text of an element of class sortkey, MediaWiki's sort keys, which the site's
  style sheet hides: a label leaves it out), the links, the images and references to the tables nested in it. Links,
  images and tables inside a nested table belong to that table's cells, not to this one.

  The callers (normalize/table.xsl) write the px:cell with its first eight attributes, from what they know of the
  cell's place, and call fp:cell-content inside it for the rest: a template without parameters (in saxonche a
  template's parameters cost about a microsecond each per cell; a function returning the element cost more).
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!--
    fp:cell-content: with a td or th of a table as the context item, what its px:cell holds after the eight attributes
    that its caller writes (id, row, col, rowspan, colspan, tag, group, group-kind, in that order): the formatting
    features, the table-model attributes, the text and the content. A named template without parameters, called
    inside the caller's px:cell, which it writes into as it goes. The function it replaces (f:cell, ten typed
    parameters, returning the element) cost about 12,000 instructions a cell more (callgrind, 10% of the stage on a
    plain table), most likely building its result element apart and copying it into the grid.
  -->
  <xsl:template name="fp:cell-content">
    <xsl:context-item as="element()" use="required"/>
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
      <!-- links, images and tables of this cell: those inside a nested table belong to that table's cells (the
           cell's table is its nearest table ancestor: a cell is a td or th of a tr of the table or of its row group).
           A class with the token sortkey holds the string sortkey: contains() first, cheaper than contains-token()
           on each class: the same elements (every 16th corpus page: 3,909 of the 28,337 elements in cells have a
           class, 18 the token sortkey) -->
      <xsl:variable name="found" as="element()*" select="descendant::*[self::a[@href] or self::img or self::table
                                                             or contains(@class, 'sortkey')
                                                                and contains-token(@class, 'sortkey')]"/>
      <xsl:variable name="table" as="element(table)" select="ancestor::table[1]"/>
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
      <xsl:if test="exists($content[self::table])">
        <xsl:call-template name="fp:table-refs">
          <xsl:with-param name="tables" select="$content[self::table]"/>
        </xsl:call-template>
      </xsl:if>
    </xsl:if>
  </xsl:template>

  <!-- The px:table-ref of each table of $tables (tables nested in a cell; the page's table indexes tunnelled from the
       root template: only cells with nested tables declare them). -->
  <xsl:template name="fp:table-refs">
    <xsl:param name="tables" as="element(table)+" required="yes"/>
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)" tunnel="yes" required="yes"/>
    <xsl:for-each select="$tables">
      <px:table-ref index="{$table-indexes(generate-id())}"/>
    </xsl:for-each>
  </xsl:template>

</xsl:stylesheet>
