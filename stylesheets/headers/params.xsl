<?xml version="1.0" encoding="UTF-8"?>
<!--
  Parameters of the headers stage, in one place: the method, and every weight and threshold of the formatting
  method with its reason. docs/headers.md explains them at more length. All are stylesheet parameters, so an
  evaluation can vary one without editing the modules.
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- auto: markup where it marks something useful, else formatting; markup: th/thead/scope/headers only;
       format: formatting and content only, as if the author had marked nothing. -->
  <xsl:param name="method" as="xs:string" select="'auto'"/>

  <!-- Only the table with this px:table/@index is annotated (the others are copied unchanged); -1: all tables. -->
  <xsl:param name="table" as="xs:integer" select="-1"/>

  <!-- Zhang & Li 2007, step 2: A += (n - k0) * 10 per HTML font-size level, +10 for bold, +1 for italic. -->
  <xsl:param name="weight-size-level" as="xs:double" select="10"/>
  <xsl:param name="weight-bold" as="xs:double" select="10"/>
  <xsl:param name="weight-italic" as="xs:double" select="1"/>

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

  <!-- A CSS class (of the cell, or of its row) that differs from the table's usual one: the page's external
       stylesheets are not available, so a class that sets cells apart stands for the formatting it would give them;
       as strong as a colon (6), below bold. -->
  <xsl:param name="weight-class" as="xs:double" select="6"/>

  <!-- Content evidence (content.xsl): a text cell over a column of numbers or dates, as strong as bold (10); a
       label-shaped text cell over a text column (5). $typed-share: three in four of a column's other cells make
       it "typed alike" while leaving room for a stray note. -->
  <xsl:param name="weight-content-type" as="xs:double" select="10"/>
  <xsl:param name="weight-content-shape" as="xs:double" select="5"/>
  <xsl:param name="typed-share" as="xs:double" select="0.75"/>

  <!-- The boundary rule: every header row (column) must score at least $threshold above the mean of the data rows
       (columns) below (right of) the boundary. 5 is half of bold: a row in which half the cells are bold, or which
       has both its own text and background colour, or its own class, or a trailing colon, stands out; a row that
       differs by one weak feature (face, a colour) does not. Below it: "no header". -->
  <xsl:param name="threshold" as="xs:double" select="5"/>

</xsl:stylesheet>
