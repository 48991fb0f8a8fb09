<?xml version="1.0" encoding="UTF-8"?>
<!--
  Mode m:cell: one td or th of a table, placed by f:place-cells, becomes a px:cell (docs/formats.md section 2):
  its anchor slot and effective spans, its tag and row group, the formatting features that clean put on it
  (px:font-size ... px:align, copied without prefix), its table-model attributes (scope, headers, id, abbr, class),
  and its content: the visible text, its sort key (the text of an element of class sortkey, MediaWiki's sort keys,
  which the site's style sheet hides: a label leaves it out), the links, the images and references to the tables
  nested in it. Links, images and tables inside a nested table belong to that table's cells, not to this one.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:f="urn:pyxform:function"
    xmlns:m="urn:pyxform:mode"
    xmlns:px="urn:pyxform"
    xpath-default-namespace="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:mode name="m:cell" on-no-match="fail" on-multiple-match="fail"/>

  <xsl:template match="td | th" mode="m:cell" as="element(px:cell)">
    <xsl:param name="placement" as="map(*)" required="yes"/>
    <xsl:param name="table" as="element(table)" tunnel="yes" required="yes"/>
    <xsl:param name="table-indexes" as="map(xs:string, xs:integer)" tunnel="yes" required="yes"/>
    <!-- links, images and tables of this cell: those inside a nested table belong to that table's cells -->
    <xsl:variable name="found" as="element()*" select="if (empty(*)) then () else
        descendant::*[self::a[@href] or self::img or self::table or contains-token(@class, 'sortkey')]"/>
    <xsl:variable name="content" as="element()*"
        select="if (exists($found[self::table])) then $found[ancestor::table[1] is $table] else $found"/>
    <px:cell id="{$placement?id}" row="{$placement?row}" col="{$placement?col}" rowspan="{$placement?rowspan}"
             colspan="{$placement?colspan}" tag="{local-name()}" group="{$placement?group}"
             group-kind="{$placement?group-kind}">
      <!-- the formatting features of docs/formats.md section 1, without prefix, in that order -->
      <xsl:for-each select="@px:font-size, @px:bold, @px:italic, @px:align, @px:face, @px:color, @px:background,
                            @px:indent">
        <xsl:attribute name="{local-name()}" select="."/>
      </xsl:for-each>
      <xsl:copy-of select="@scope, @headers, @abbr, @class"/>
      <xsl:if test="exists(@id)">
        <xsl:attribute name="html-id" select="@id"/>
      </xsl:if>
      <px:text>{f:visible-text(.)}</px:text>
      <xsl:for-each select="$content[contains-token(@class, 'sortkey')][1]">
        <px:sort-key>{f:visible-text(.)}</px:sort-key>
      </xsl:for-each>
      <xsl:for-each select="$content[self::a[@href]]">
        <px:link href="{@href}">{f:visible-text(.)}</px:link>
      </xsl:for-each>
      <xsl:for-each select="$content[self::img]">
        <px:image>
          <xsl:copy-of select="@src, @alt"/>
        </px:image>
      </xsl:for-each>
      <xsl:for-each select="$content[self::table]">
        <px:table-ref index="{$table-indexes(generate-id())}"/>
      </xsl:for-each>
    </px:cell>
  </xsl:template>

</xsl:stylesheet>
