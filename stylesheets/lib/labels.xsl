<?xml version="1.0" encoding="UTF-8"?>
<!--
  Labels from header text: the one rule for reference marks, used by every stage that reads or writes a header's text
  (headers: content types and repeated header rows; names: element names; map, tabular, pairs: labels and header
  paths), so that "US[18]", "US&#10;[18]" and "US" are one header everywhere; and for a grid cell, the rule for sort
  keys (f:cell-label).

  f:strip-marks($text)  the text without its reference marks: a bracketed footnote or note reference as sites write
                        them after a word ("[9]", "[a]", "[B]", "[iv]", "[note 3]", "[nb 1]", "[n 2]", "[citation
                        needed]", "[clarification needed]"): between square brackets (white space inside allowed), a
                        number of up to four digits, one letter, a lower-case roman numeral, "note", "nb", "n", "fn"
                        or a list style ("lower-alpha") followed by a short number or letter, or words ending with
                        "needed". Units in brackets ("[km]", "[kg]") are not marks and stay.
  f:label($text)        a header's text as a one-line label: reference marks cut, white space (line feeds
                        included) collapsed to single spaces, case and every other character kept ("US&#10;[18]"
                        gives "US"). Element names (lib/names.xsl), px:label, CSV column names and the header texts
                        of the attribute-value pairs are all made from it.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:f="urn:pyxform:function"
                xmlns:fp="urn:pyxform:function:private"
                exclude-result-prefixes="#all"
                expand-text="yes">

  <!-- f:strip-marks($text): the text without its reference marks (see the module comment), matched case-blind. The
       pattern is a literal: Saxon compiles a pattern held in a variable again on every call (~20 us a text with a
       "[", and the headers stage's table model calls this per cell). -->
  <xsl:function name="f:strip-marks" as="xs:string">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:sequence select="if (not(contains(string($text), '['))) then string($text)
                          else replace(string($text), '\[\s*(\p{Nd}{1,4}|\p{L}|[ivx]{2,5}|(note|nb|n|fn|lower-alpha|upper-alpha|lower-roman)\s*[\p{L}\p{Nd}]{1,4}|[\p{L} ]{1,30}needed)\s*\]', '', 'i')"/>
  </xsl:function>

  <!-- f:cell-label($cell): the label of a grid cell (px:cell): f:label of its text without its sort key, the text of
       an element of class sortkey that the text starts with (MediaWiki writes "Gablenz, Eccard" before the name it
       shows, "Eccard Gablenz", and hides it with its style sheet, which pyxform does not see). -->
  <xsl:function name="f:cell-label" as="xs:string">
    <xsl:param name="cell" as="element()"/>
    <xsl:variable name="text" as="xs:string" select="string($cell/*:text)"/>
    <xsl:variable name="key" as="xs:string" select="string($cell/*:sort-key)"/>
    <xsl:sequence select="f:label(if ($key ne '' and starts-with($text, $key)
                                     and normalize-space(substring-after($text, $key)) ne '')
                                  then substring-after($text, $key) else $text)"/>
  </xsl:function>

  <!-- f:label($text): a header's text as a one-line label (see the module comment). -->
  <xsl:function name="f:label" as="xs:string">
    <xsl:param name="text" as="xs:string?"/>
    <xsl:sequence select="normalize-space(f:strip-marks($text))"/>
  </xsl:function>

</xsl:stylesheet>
