<?xml version="1.0" encoding="UTF-8"?>
<!--
  Stage json: output XML (docs/formats.md section 4) -> JSON nested like the XML (docs/formats.md section 5).

  The document is an object with one member, named after the document element ({"pyxform": {...}}, or the table's
  element with a single table). An element becomes
    - its text, a string, when it has neither child elements nor attributes to keep (values stay as written: "007"
      and "1,234" are not numbers);
    - otherwise an object: "@NAME" for each attribute in no namespace (href, src, alt; name and column with generic
      names), "#text" for its text when it also has child elements or such attributes (a data cell holding a nested
      table), then one member per child element name, in the order the names first appear;
    - "" when it has no text, no child element and no attribute to keep.
  One shape per field: when some element at a path (the same path of element names from the document element) is
  an object, every element at that path is one ({"#text": "1"} beside {"@href": ..., "#text": "2"}, {} for an empty
  one). A member is an array when elements of its name repeat somewhere at that path (so a name that repeats in one
  record is an array in every record), and always for record elements (<row px:row="R">) and notes; otherwise a
  single value. Values under one header cell that spans several columns (elements with px:col) are an array with
  one position per column met at that path, null where a record has no value, so that a missing first value does
  not shift the next. The urn:pyxform attributes (provenance, labels) are left out: the XML keeps them.
  Written by xml-to-json() from the XPath 3.1 XML representation of JSON, so members keep document order.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:fn="http://www.w3.org/2005/xpath-functions"
                xmlns:map="http://www.w3.org/2005/xpath-functions/map"
                xmlns:px="urn:pyxform"
                xmlns:fp="urn:pyxform:function:private"
                xmlns:m="urn:pyxform:mode"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <!-- true(): indent the JSON as Saxon does; false() (default): one line (pyxform re-indents it with Python's json). -->
  <xsl:param name="indent" as="xs:boolean" select="false()"/>

  <xsl:output method="text" encoding="UTF-8"/>

  <xsl:mode on-no-match="fail"/>
  <xsl:mode name="m:json" on-no-match="fail"/>

  <!-- The paths (element names from the document element, '/'-separated) at which an element name repeats under
       one parent: a group of same-path elements has more members than distinct parents. -->
  <xsl:variable name="fp:repeated" as="map(xs:string, xs:boolean)">
    <xsl:map>
      <xsl:for-each-group select="//*" group-by="fp:path(.)">
        <xsl:if test="count(current-group()) gt count(current-group()/..) or exists(current-group()[@px:row])">
          <xsl:map-entry key="current-grouping-key()" select="true()"/>
        </xsl:if>
      </xsl:for-each-group>
    </xsl:map>
  </xsl:variable>

  <!-- The paths at which some element is an object (it has child elements or attributes to keep): every element at
       such a path is an object, so that a field has one shape in every record. -->
  <xsl:variable name="fp:objects" as="map(xs:string, xs:boolean)">
    <xsl:map>
      <xsl:for-each-group select="//*" group-by="fp:path(.)">
        <xsl:if test="exists(current-group()[* or @*[namespace-uri() eq '']])">
          <xsl:map-entry key="current-grouping-key()" select="true()"/>
        </xsl:if>
      </xsl:for-each-group>
    </xsl:map>
  </xsl:variable>

  <!-- The paths whose elements all carry px:col (values under one header cell that spans several columns), with the
       columns met there in order: their arrays have one position per column, null where a record has no value. -->
  <xsl:variable name="fp:positions" as="map(xs:string, xs:string*)">
    <xsl:map>
      <xsl:for-each-group select="//*" group-by="fp:path(.)">
        <xsl:if test="every $e in current-group() satisfies exists($e/@px:col)">
          <xsl:map-entry key="current-grouping-key()"
                         select="sort(distinct-values(current-group()/@px:col ! string()), (), xs:integer#1)"/>
        </xsl:if>
      </xsl:for-each-group>
    </xsl:map>
  </xsl:variable>

  <xsl:template match="/">
    <xsl:variable name="json" as="element(fn:map)">
      <fn:map>
        <xsl:apply-templates select="*" mode="m:json">
          <xsl:with-param name="key" select="name(*)"/>
        </xsl:apply-templates>
      </fn:map>
    </xsl:variable>
    <xsl:value-of select="xml-to-json($json, map {'indent': $indent})"/>
  </xsl:template>

  <!-- One element as the JSON value of member $key (no key inside arrays). -->
  <xsl:template match="*" mode="m:json" as="element()">
    <xsl:param name="key" as="xs:string?"/>
    <xsl:variable name="attributes" as="attribute()*" select="@*[namespace-uri() eq '']"/>
    <xsl:variable name="text" as="xs:string" select="normalize-space(string-join(text()))"/>
    <xsl:choose>
      <xsl:when test="empty(*) and empty($attributes) and not(map:contains($fp:objects, fp:path(.)))">
        <fn:string>
          <xsl:if test="exists($key)"><xsl:attribute name="key" select="$key"/></xsl:if>
          <xsl:value-of select="if ($text eq '') then '' else fp:text(.)"/>
        </fn:string>
      </xsl:when>
      <xsl:otherwise>
        <fn:map>
          <xsl:if test="exists($key)"><xsl:attribute name="key" select="$key"/></xsl:if>
          <xsl:for-each select="$attributes">
            <fn:string key="@{local-name()}">{.}</fn:string>
          </xsl:for-each>
          <xsl:if test="$text ne ''">
            <fn:string key="#text">{fp:text(.)}</fn:string>
          </xsl:if>
          <xsl:for-each-group select="*" group-by="name()">
            <xsl:variable name="path" as="xs:string" select="fp:path(.)"/>
            <xsl:choose>
              <xsl:when test="map:contains($fp:positions, $path)">
                <xsl:variable name="group" as="element()+" select="current-group()"/>
                <fn:array key="{current-grouping-key()}">
                  <xsl:for-each select="$fp:positions($path)">
                    <xsl:variable name="at" as="element()?" select="$group[@px:col eq current()][1]"/>
                    <xsl:choose>
                      <xsl:when test="exists($at)">
                        <xsl:apply-templates select="$at" mode="m:json"/>
                      </xsl:when>
                      <xsl:otherwise>
                        <fn:null/>
                      </xsl:otherwise>
                    </xsl:choose>
                  </xsl:for-each>
                </fn:array>
              </xsl:when>
              <xsl:when test="map:contains($fp:repeated, $path)">
                <fn:array key="{current-grouping-key()}">
                  <xsl:apply-templates select="current-group()" mode="m:json"/>
                </fn:array>
              </xsl:when>
              <xsl:otherwise>
                <xsl:apply-templates select="." mode="m:json">
                  <xsl:with-param name="key" select="current-grouping-key()"/>
                </xsl:apply-templates>
              </xsl:otherwise>
            </xsl:choose>
          </xsl:for-each-group>
        </fn:map>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The element names from the document element to $element, '/'-separated. -->
  <xsl:function name="fp:path" as="xs:string" cache="yes">
    <xsl:param name="element" as="element()"/>
    <xsl:sequence select="string-join($element/ancestor-or-self::*/name(), '/')"/>
  </xsl:function>

  <!-- An element's own text as written (its text nodes joined; the white space of indentation around child elements
       trimmed). -->
  <xsl:function name="fp:text" as="xs:string">
    <xsl:param name="element" as="element()"/>
    <xsl:sequence select="replace(string-join($element/text()), '^\s+|\s+$', '')"/>
  </xsl:function>

</xsl:stylesheet>
