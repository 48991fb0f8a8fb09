<?xml version="1.0" encoding="UTF-8"?>
<!--
  The boundary rule of the formatting method (format.xsl): where the header rows (or header columns) end, from the
  score records of the rows (or columns) in order (fp:boundary), and the tests it holds candidates to: the scores a
  header line is held against (fp:body-scores) and header rows formatted throughout (fp:formatted-throughout).
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:map="http://www.w3.org/2005/xpath-functions/map"
    xmlns:array="http://www.w3.org/2005/xpath-functions/array"
    xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private"
    xmlns:sc="urn:pyxform:score"
    xmlns:bc="urn:pyxform:candidate"
    exclude-result-prefixes="#all"
    expand-text="yes">

  <!-- The members of a candidate record (fp:boundary; read by f:evidence), by position: the candidate's j, the index
       of the line it falls after, the adjacent difference D, the mean of the scores below, the separation (the
       lowest header score less that mean) and whether it is valid. -->
  <xsl:variable name="bc:j" as="xs:integer" select="1" static="yes"/>
  <xsl:variable name="bc:index" as="xs:integer" select="2" static="yes"/>
  <xsl:variable name="bc:difference" as="xs:integer" select="3" static="yes"/>
  <xsl:variable name="bc:body-mean" as="xs:integer" select="4" static="yes"/>
  <xsl:variable name="bc:separation" as="xs:integer" select="5" static="yes"/>
  <xsl:variable name="bc:valid" as="xs:integer" select="6" static="yes"/>

  <!-- The scores the header lines are held against: all of them for rows; for columns, without the columns that
       stand out from the others as a whole (at least $threshold over their median: a bold total column at the right,
       highlighted data, as bold total rows are left out of the column scores). -->
  <xsl:function name="fp:body-scores" as="xs:double*">
    <xsl:param name="scores" as="xs:double*"/>
    <xsl:param name="columns" as="xs:boolean"/>
    <xsl:variable name="median" as="xs:double?" select="f:median($scores)"/>
    <xsl:sequence select="if (not($columns) or empty($scores)) then $scores
                          else $scores[. lt $median + $threshold]"/>
  </xsl:function>

  <!-- True if header rows S[1..j] over the rest S[j+1..] are formatted throughout: when the first stands out from the
       rest by its formatting alone (format at least $threshold above the rest's mean format), every one of them
       carries formatting marks of its own, whatever its type size (marks, the format less the size term, at least
       $threshold above the rest's mean marks: a header marked by formatting is marked as a whole, a sub-header row
       in smaller bold type included; a row that stands out by its content alone below it is a data row), or is
       spanned into by a cell with text of a header row above it (the header's own cells span it: "Year" and "Song"
       over two rows beside plain chart names). -->
  <xsl:function name="fp:formatted-throughout" as="xs:boolean">
    <xsl:param name="head" as="array(*)*"/>
    <xsl:param name="rest" as="array(*)*"/>
    <xsl:variable name="rest-format" as="xs:double" select="(f:mean($rest ! .($sc:format)), 0)[1]"/>
    <xsl:variable name="rest-marks" as="xs:double"
        select="(f:mean($rest ! (.($sc:marks), .($sc:format))[1]), 0)[1]"/>
    <xsl:sequence select="count($head) le 1 or $head[1]($sc:format) lt $rest-format + $threshold
                          or (every $h in $head satisfies
                                (($h($sc:marks), $h($sc:format))[1] ge $rest-marks + $threshold
                                 or $h($sc:spanned-from) = $head ! .($sc:index)))"/>
  </xsl:function>

  <!--
    The boundary rule over the score records of rows (or columns) in order (format.xsl, positions $sc:...: index,
    score (none for a line without text in the pass), wide, text, and what the tests below read).

    With $titles, the wide rows at the top (before the first scored row that is not wide) are title rows; wide
    rows further down are section rows and take no part. S = the remaining scored, not wide items, in order.
    A candidate boundary after S[j], j = 1 .. min(floor(|S| / 2), $max) (headers are a minority of the rows, and
    not a deep hierarchy), is valid if every S[1..j] scores at least $threshold above the mean of S[j+1..] (the
    boundary separates higher-scoring header rows from the data rows) and at least $threshold itself (headers are
    set apart by features of their own, not only by data set smaller), the paper's adjacent difference
    D = S[j] - S[j+1] is positive, and, for j > 1, S[j] is not typed like the data (with rows: at least half its
    cells in numeric columns are numbers; below the first header row such a row is a highlighted data row, a
    winner or a total, however it is formatted). The chosen
    boundary is the lowest valid one. (The paper takes the largest D; but when two header rows differ in strength, a
    title or grouping row in bigger or bolder type over a smaller label row, the largest D falls between the two
    header rows, while every row above the lowest valid boundary stands out from the data.) Items right after the
    chosen one that have text but no score (in the second row pass: text only in the header columns, such as an
    index-name row) join the header. No valid candidate: no header, except that title rows which themselves stand
    out by $threshold over the mean of S are header rows (if S is not empty: a title over nothing heads nothing).

    Returns map { 'k' : count of leading header items (index of the last header item + 1, or 0),
                  'candidates' : the candidate records (arrays, positions $bc:... above), 'chosen' : the chosen
                  candidate (absent if none), 'titles' : indexes of title rows }.
  -->
  <xsl:function name="fp:boundary" as="map(*)">
    <xsl:param name="items" as="array(*)*"/>
    <xsl:param name="titles" as="xs:boolean"/>
    <xsl:param name="max" as="xs:integer"/>
    <xsl:param name="labels" as="(function(xs:integer) as xs:boolean)?"/>
    <xsl:variable name="first-body" as="xs:integer"
        select="(index-of($items ! (exists(.($sc:score)) and not(.($sc:wide) and $titles)), true())[1],
                 count($items) + 1)[1]"/>
    <xsl:variable name="title-items" as="array(*)*" select="if ($titles)
        then $items[position() lt $first-body][.($sc:wide) and exists(.($sc:score))] else ()"/>
    <xsl:variable name="body" as="array(*)*" select="$items[position() ge $first-body][exists(.($sc:score))]
                                                     [not($titles and .($sc:wide))]"/>
    <xsl:variable name="r" as="xs:integer" select="count($body)"/>
    <!-- below the first header row, a row's value leaves out the size term when that is larger (its sub-score): smaller
         type does not take away the marks of a sub-header row set in smaller bold type under the header row -->
    <xsl:variable name="candidates" as="array(*)*" select="
        for $j in 1 to min(($r idiv 2, $max)) return
        let $head := (subsequence($body, 1, 1) ! .($sc:score),
                      subsequence($body, 2, $j - 1) ! max((.($sc:score), .($sc:sub-score)))),
            $rest := fp:body-scores(subsequence($body, $j + 1) ! .($sc:score), not($titles)),
            $mean := f:mean($rest),
            $difference := $head[last()] - $body[$j + 1]($sc:score),
            $separation := min($head) - $mean
        (: the candidate record: its members in the order of the positions $bc:... :)
        return [
          $j, $body[$j]($sc:index), $difference, $mean, $separation,
          $separation ge $threshold and min($head) ge $threshold and $difference gt 0
          and not($j gt 1 and $body[$j]($sc:data-typed))
          and fp:formatted-throughout(subsequence($body, 1, $j), subsequence($body, $j + 1))
          and (empty($labels) or $labels($body[$j]($sc:index)))
        ]"/>
    <xsl:variable name="chosen" as="array(*)?" select="$candidates[.($bc:valid)][last()]"/>
    <xsl:variable name="all-mean" as="xs:double?" select="f:mean($body ! .($sc:score))"/>
    <xsl:variable name="titles-stand-out" as="xs:boolean" select="exists($title-items) and exists($body)
        and (every $t in $title-items satisfies $t($sc:score) ge $all-mean + $threshold)"/>
    <!-- after the chosen item: items with text but no score in this pass (text only in header columns) -->
    <xsl:variable name="extended" as="xs:integer?" select="if (empty($chosen)) then () else
        (for $i in $chosen($bc:index) + 1 to count($items) - 1
         return $items[$i + 1][not(exists(.($sc:score)) or .($sc:wide) or not(.($sc:text)))] ! .($sc:index))
        [. eq $chosen($bc:index) + position()][last()]"/>
    <xsl:sequence select="
        if (exists($chosen))
        then map { 'k' : max(($chosen($bc:index), $extended)) + 1, 'candidates' : $candidates,
                   'titles' : $title-items ! .($sc:index), 'chosen' : $chosen }
        else map { 'k' : if ($titles-stand-out) then $title-items[last()]($sc:index) + 1 else 0,
                   'candidates' : $candidates, 'titles' : $title-items ! .($sc:index) }"/>
  </xsl:function>

</xsl:stylesheet>
