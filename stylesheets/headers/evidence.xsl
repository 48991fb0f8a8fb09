<?xml version="1.0" encoding="UTF-8"?>
<!--
  The px:header-evidence element of a table: how its header region was found and the scores that decided it
  (docs/formats.md section 3).

    f:evidence($result) => element(px:header-evidence)
    fp:evidence (named template, parameter $result): the same element written in place, as m:annotate does for each
      table (the function's element is a temporary tree that a caller's output copies again)

    <px:header-evidence requested="auto" method="format" threshold="5">
      <px:markup usable="false" title-only="false" header-rows="0" header-cols="0" th-cells="0"/>
      <px:format header-rows="1" header-cols="0" base-font-size="16" base-indent="0" base-row-class="">
        <px:row-score row="0" score="15" format="10" content="5" wide="false"/>   (rows with text)
        <px:row-boundary header-rows="1" title-rows="">
          <px:candidate after="0" difference="14" body-mean="1" separation="14" valid="true" chosen="true"/>
        </px:row-boundary>
        <px:col-score col="0" score="0"/>
        <px:col-boundary header-cols="0"> … </px:col-boundary>
      </px:format>
      <px:row-kind row="7" kind="section"/>                                     (rows that are not head or data)
    </px:header-evidence>
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:px="urn:pyxform"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:sc="urn:pyxform:score"
    xmlns:bc="urn:pyxform:candidate"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <xsl:function name="f:evidence" as="element(px:header-evidence)">
    <xsl:param name="result" as="map(*)"/>
    <xsl:call-template name="fp:evidence">
      <xsl:with-param name="result" select="$result"/>
    </xsl:call-template>
  </xsl:function>

  <xsl:template name="fp:evidence">
    <xsl:param name="result" as="map(*)"/>
    <px:header-evidence requested="{$result?requested}" method="{$result?method}" threshold="{$threshold}">
      <xsl:for-each select="$result?markup">
        <px:markup usable="{?usable}" title-only="{?title-only}" header-rows="{?k}" header-cols="{?p}"
                   th-cells="{?th-cells}"/>
      </xsl:for-each>
      <xsl:for-each select="$result?format">
        <xsl:variable name="base" as="map(*)" select="?base"/>
        <px:format header-rows="{?k}" header-cols="{?p}" base-font-size="{$base?font-size}"
                   base-indent="{$base?indent}" base-row-class="{$base?row-class}">
          <!-- the score records of the rows and columns (headers/format.xsl: positions $sc:...) -->
          <xsl:for-each select="?row-scores[exists(.($sc:score))]">
            <px:row-score row="{.($sc:index)}" score="{f:round2(.($sc:score))}" format="{f:round2(.($sc:format))}"
                          content="{f:round2(.($sc:content))}" wide="{.($sc:wide)}"/>
          </xsl:for-each>
          <px:row-boundary header-rows="{?row-boundary?k}" title-rows="{?row-boundary?titles}">
            <xsl:call-template name="fp:candidates">
              <xsl:with-param name="boundary" select="?row-boundary"/>
            </xsl:call-template>
          </px:row-boundary>
          <xsl:for-each select="?col-scores[exists(.($sc:score))]">
            <px:col-score col="{.($sc:index)}" score="{f:round2(.($sc:score))}"/>
          </xsl:for-each>
          <px:col-boundary header-cols="{?col-boundary?k}">
            <xsl:call-template name="fp:candidates">
              <xsl:with-param name="boundary" select="?col-boundary"/>
            </xsl:call-template>
          </px:col-boundary>
        </px:format>
      </xsl:for-each>
      <xsl:for-each select="1 to array:size($result?kinds)">
        <xsl:variable name="kind" as="xs:string" select="$result?kinds(.)"/>
        <xsl:if test="not($kind = ('head', 'data'))">
          <px:row-kind row="{. - 1}" kind="{$kind}"/>
        </xsl:if>
      </xsl:for-each>
    </px:header-evidence>
  </xsl:template>

  <xsl:template name="fp:candidates">
    <xsl:param name="boundary" as="map(*)"/>
    <!-- the candidate records (headers/boundary.xsl: positions $bc:...); the chosen one's j (none if none) -->
    <xsl:variable name="chosen-j" as="xs:integer?" select="$boundary?chosen ! .($bc:j)"/>
    <xsl:for-each select="$boundary?candidates">
      <px:candidate after="{.($bc:index)}" difference="{f:round2(.($bc:difference))}"
                    body-mean="{f:round2(.($bc:body-mean))}" separation="{f:round2(.($bc:separation))}"
                    valid="{.($bc:valid)}" chosen="{$chosen-j = .($bc:j)}"/>
    </xsl:for-each>
  </xsl:template>

</xsl:stylesheet>
