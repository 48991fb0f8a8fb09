<?xml version="1.0" encoding="UTF-8"?>
<!--
  Which method decides a table's header region, and the whole result for one table.

    f:detect-headers($table, $method) => map {
      'method'  : 'markup' | 'format' | 'none' (none: k = p = 0),
      'k', 'p'  : header rows and header columns,
      'kinds'   : row kinds (rows.xsl),
      'kind'    : the table's kind, relational | entity | matrix | layout (kind.xsl),
      'roles'   : cell roles, 'assignment' : the header cells of the data slots (assign.xsl, f:slot-headers),
      'markup'  : the markup analysis (absent with method format),
      'format'  : the formatting analysis (absent when markup decided alone)
    }

  auto: the markup decides where it marks something useful (f:markup-analysis 'usable'). When its header rows are
  only title rows (a wide caption-like row such as a calendar's month, labelling no column), the formatting method
  looks for the column-label rows below them and k is the larger of the two (the formatting method's up to the first
  row with a th scope=row, fp:label-rows). Otherwise the formatting method decides.
  markup: the markup alone. format: the formatting method alone, th/thead/scope/headers ignored.
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

  <xsl:function name="f:detect-headers" as="map(*)">
    <xsl:param name="table" as="element(px:table)"/>
    <xsl:param name="method" as="xs:string"/>
    <xsl:variable name="model" as="map(*)" select="f:table-model($table)"/>
    <xsl:variable name="markup" as="map(*)?" select="if ($method eq 'format') then () else f:markup-analysis($model)"/>
    <xsl:variable name="use-markup" as="xs:boolean"
        select="$method eq 'markup' or ($method eq 'auto' and $markup?usable)"/>
    <xsl:variable name="format" as="map(*)?"
        select="if (not($use-markup) or ($method eq 'auto' and $markup?title-only)) then f:format-analysis($model)
                else ()"/>
    <xsl:variable name="decision" as="map(*)" select="
        if (not($use-markup)) then map { 'k' : $format?k, 'p' : $format?p, 'kinds' : $format?kinds, 'by' : 'format' }
        else if (exists($format) and fp:label-rows($model, $markup?k, $format?k) gt $markup?k) then
          let $k := fp:label-rows($model, $markup?k, $format?k),
              $kinds := f:row-kinds($model, $k, true())
          return map { 'k' : $k, 'p' : f:markup-header-cols($model, $kinds), 'kinds' : $kinds, 'by' : 'markup' }
        else map { 'k' : $markup?k, 'p' : $markup?p, 'kinds' : $markup?kinds, 'by' : 'markup' }"/>
    <xsl:variable name="roles" as="map(xs:string, xs:string)"
        select="f:roles($model, $decision?k, $decision?p, $decision?kinds, $use-markup)"/>
    <xsl:sequence select="map:merge((
        map {
          'method' : if ($decision?k + $decision?p eq 0) then 'none' else $decision?by,
          'k' : $decision?k,
          'p' : $decision?p,
          'kinds' : $decision?kinds,
          'kind' : f:table-kind(($format?model, $model)[1], $decision?k, $decision?p, $decision?kinds),
          'roles' : $roles,
          'assignment' : f:assign($model, $roles, $use-markup),
          'requested' : $method
        },
        $markup ! map { 'markup' : . },
        $format ! map { 'format' : . }))"/>
  </xsl:function>

  <!-- The header rows when the formatting method finds $format-k header rows under the markup's $markup-k title
       rows: the formatting method's, up to the first row below the title rows that holds a th with scope=row and
       text (its author declares it a row header, HTML 4.9.12.2: the row is a data row, not a column-label row),
       without the blank rows before it. -->
  <xsl:function name="fp:label-rows" as="xs:integer">
    <xsl:param name="model" as="map(*)"/>
    <xsl:param name="markup-k" as="xs:integer"/>
    <xsl:param name="format-k" as="xs:integer"/>
    <xsl:variable name="k" as="xs:integer" select="min(($format-k, ($markup-k to $format-k - 1)[
        some $id in f:model-row($model, .)?texts satisfies
          (let $c := f:model-cell($model, $id) return $c($c:tag) eq 'th' and $c($c:scope) eq 'row' and $c($c:row) eq .)]))"/>
    <!-- without the blank rows it ends with -->
    <xsl:sequence select="max(($markup-k, ($markup-k to $k - 1)[not(f:is-blank-row($model, .))] ! (. + 1)))"/>
  </xsl:function>

</xsl:stylesheet>
