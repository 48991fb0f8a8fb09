<?xml version="1.0" encoding="UTF-8"?>
<!--
  Parameters of the headers stage, in one place: the method, and every weight and threshold of the formatting
  method with its reason. docs/headers.md explains them at more length. All are stylesheet parameters, so an
  evaluation can vary one without editing the modules. px:values lists the values of a parameter that takes one of
  a fixed set (pyxform checks a value given to it before the stage runs).
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:px="urn:pyxform"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- auto: markup where it marks something useful, else formatting; markup: th/thead/scope/headers only;
       format: formatting and content only, as if the author had marked nothing. -->
  <xsl:param name="method" as="xs:string" select="'auto'" px:values="auto markup format"/>

  <!-- Only the table with this px:table/@index is annotated (the others are copied unchanged); -1: all tables. -->
  <xsl:param name="table" as="xs:integer" select="-1"/>

  <!-- Zhang & Li 2007, step 2: A += (n - k0) * 10 per HTML font-size level, +10 for bold, +1 for italic. -->
  <xsl:param name="weight-size-level" as="xs:double" select="10"/>
  <xsl:param name="weight-bold" as="xs:double" select="10"/>
  <xsl:param name="weight-italic" as="xs:double" select="1"/>
  <!-- signed: the paper's (n - k0); absolute: |n - k0| (smaller type also sets cells apart). -->
  <xsl:param name="size-difference" as="xs:string" select="'signed'" px:values="signed absolute"/>

  <!-- The paper's further features, in its order of importance (colon, indentation, face and colour) and all
       below bold. A trailing colon is the usual mark of a key in a key: value layout (6). Indentation: a cell
       indented less than the table's usual indentation heads the indented cells after it (4). Face and colour
       (text colour, background colour) differing from the table's usual one (3 each): weak alone, but a header
       band with its own text and background colour (3 + 3) stands out. -->
  <xsl:param name="weight-colon" as="xs:double" select="6"/>
  <xsl:param name="weight-indent" as="xs:double" select="4"/>
  <xsl:param name="weight-face" as="xs:double" select="3"/>
  <xsl:param name="weight-color" as="xs:double" select="3"/>
  <xsl:param name="weight-background" as="xs:double" select="3"/>

  <!-- CSS classes: the page's external stylesheets are not available, so class names themselves are the evidence.
       A class (of the cell, or of its row where row classes style rather than name the rows) that differs from the
       table's usual one stands for formatting we cannot see: as strong as a colour (3), since classes also mark
       the role of whole data columns ("price", "name"). A class named for a heading role (a token containing head,
       label, title or caption, or the token th: "tdlabel", "table-header") says what the author means: as
       strong as a colon (6), on top. -->
  <xsl:param name="weight-class" as="xs:double" select="3"/>
  <!-- A band: a row (column) whose cells all have a background colour of their own, one that no other row (column)
       has on all its cells, set apart from the cells across it: a header row or column painted as a whole. On top
       of the background itself (3), as strong again: a band of its own colour stands out as a header does by text
       and background colour together (6), while a colour that varies from cell to cell (win/loss, a status) does
       not. -->
  <xsl:param name="weight-band" as="xs:double" select="3"/>
  <xsl:param name="weight-header-class" as="xs:double" select="6"/>

  <!-- Content evidence (content.xsl): a text cell over a column of numbers or dates, as strong as bold (10); a
       label-shaped text cell over a text column, as strong as a trailing colon, the other textual mark of a label
       (6). $typed-share: three in four of a column's other cells make
       it "typed alike" while leaving room for a stray note. -->
  <xsl:param name="weight-content-type" as="xs:double" select="10"/>
  <xsl:param name="weight-content-shape" as="xs:double" select="6"/>
  <xsl:param name="typed-share" as="xs:double" select="0.75"/>
  <!-- "Header cells are short text": a text cell at most half as long as the median of the rest of its column. -->
  <xsl:param name="length-ratio" as="xs:double" select="2"/>

  <!-- The boundary rule: every header row (column) must score at least $threshold above the mean of the data rows
       (columns) below (right of) the boundary. 5 is half of bold: a row in which half the cells are bold, or which
       has both its own text and background colour, or its own class, or a trailing colon, stands out; a row that
       differs by one weak feature (face, a colour) does not. Below it: "no header". -->
  <xsl:param name="threshold" as="xs:double" select="5"/>

  <!-- Most header rows and header columns the formatting method proposes: header hierarchies deeper than four rows
       or three columns are exceptional (WHATWG's and the paper's examples have two rows and one column), while
       a run of highlighted data rows at the top of a long table would otherwise pass for a deep header. -->
  <xsl:param name="max-header-rows" as="xs:integer" select="4"/>
  <xsl:param name="max-header-cols" as="xs:integer" select="3"/>

</xsl:stylesheet>
