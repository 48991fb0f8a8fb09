"""Property tests (hypothesis) of stage 2 on generated tables: row groups of every kind (thead, tbody, tfoot, rows
outside groups), empty rows and groups, th and td, and span attributes valid, invalid, zero and huge.

- the grid equals the one a naive, independent reading of WHATWG "forming a table" computes (a slot dictionary
  filled cell by cell, spans cut at the end of their row group, the later cell owning an overlapped slot);
- every row has the same number of slots, and every slot's origin cell covers it;
- the grid does not depend on whether the optional end tags are written;
- the grid XML is valid against schemas/grid.xsd;
- a table without span attributes, and one with colspan attributes only, gives the same grid by the direct path and
  by the general steps; any table (rowspans, overlapping cells) gives the same grid document by the stage and by the
  general steps alone (an importing stylesheet whose fp:table-model has no direct path).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.stages.normalize import Normalizer, grid
from pyxform.runtime.saxon import builtin_schema

SPAN_VALUES = ["1", "2", "3", "0", "-1", "abc", "", " 2 ", "2;", "+2", "-0", "02", "4x", "1.9"]
BIG_SPAN_VALUES = ["1001", "70000", "99999999999999999999999"]


@dataclass(frozen=True)
class GenCell:
    tag: str
    colspan: str | None
    rowspan: str | None


@dataclass(frozen=True)
class GenGroup:
    kind: str  # thead, tbody, tfoot, or loose (tr children of the table: the HTML parser adds a tbody)
    rows: tuple[tuple[GenCell, ...], ...]


def span(big: bool) -> st.SearchStrategy[str | None]:
    values = SPAN_VALUES + (BIG_SPAN_VALUES if big else [])
    return st.one_of(st.none(), st.none(), st.sampled_from(values))


cells = st.builds(GenCell, tag=st.sampled_from(["td", "th"]), colspan=span(False), rowspan=span(True))
big_cells = st.builds(GenCell, tag=st.sampled_from(["td", "th"]), colspan=span(True), rowspan=span(True))
rows = st.lists(cells, max_size=5).map(tuple)
groups = st.builds(GenGroup, kind=st.sampled_from(["thead", "tbody", "tfoot", "loose"]),
                   rows=st.lists(rows, max_size=4).map(tuple))
tables = st.lists(groups, min_size=1, max_size=4).map(tuple)


# -- a naive reference ------------------------------------------------------------------------------------------
def parse_non_negative(value: str | None) -> int | None:
    """WHATWG 2.3.4.1 rules for parsing (non-negative) integers."""
    if value is None:
        return None
    match = re.match(r"[ \t\n\f\r]*([+-]?)([0-9]+)", value)
    if not match:
        return None
    number = int(match.group(2))
    if match.group(1) == "-" and number != 0:
        return None
    return number


def merged_groups(table: tuple[GenGroup, ...]) -> list[GenGroup]:
    """Adjacent loose groups are one run of rows (one implied tbody)."""
    result: list[GenGroup] = []
    for group in table:
        if group.kind == "loose" and result and result[-1].kind == "loose":
            result[-1] = GenGroup("loose", result[-1].rows + group.rows)
        else:
            result.append(group)
    return result


def reference_grid(table: tuple[GenGroup, ...]) -> dict:
    groups = merged_groups(table)
    tree_order = [(gi, ri, ci) for gi, g in enumerate(groups) for ri, row in enumerate(g.rows) for ci in range(len(row))]
    number = {key: n for n, key in enumerate(tree_order)}
    order = [gi for gi, g in enumerate(groups) if g.kind != "tfoot"] + [gi for gi, g in enumerate(groups)
                                                                        if g.kind == "tfoot"]
    slots: dict[tuple[int, int], list[tuple[int, GenCell, int, int]]] = {}
    y = width = 0
    for gi in order:
        group = groups[gi]
        for ri, row in enumerate(group.rows):
            left = len(group.rows) - ri
            x = 0
            for ci, cell in enumerate(row):
                while (y, x) in slots:
                    x += 1
                colspan = parse_non_negative(cell.colspan)
                colspan = 1 if not colspan else min(colspan, 1000)
                rowspan = parse_non_negative(cell.rowspan)
                rowspan = 1 if rowspan is None else (left if rowspan == 0 else min(rowspan, 65534, left))
                for r in range(y, y + rowspan):
                    for c in range(x, x + colspan):
                        slots.setdefault((r, c), []).append((number[(gi, ri, ci)], cell, y, x))
                width = max(width, x + colspan)
                x += colspan
            y += 1
    grid_rows = []
    for r in range(y):
        line = []
        for c in range(width):
            if (r, c) in slots:
                n, cell, ay, ax = max(slots[(r, c)], key=lambda item: item[0])
                line.append({"text": f"c{n}", "tag": cell.tag, "origin": [ay, ax]})
            else:
                line.append({"text": "", "tag": None, "origin": None})
        grid_rows.append(line)
    return {"index": 0, "rows": y, "cols": width, "grid": grid_rows}


# -- HTML with and without optional end tags -------------------------------------------------------------------
def to_html(table: tuple[GenGroup, ...], *, end_tags: bool) -> str:
    groups = merged_groups(table)
    out = ["<!DOCTYPE html><html><head><title>g</title></head><body><table>"]
    n = 0
    for gi, group in enumerate(groups):
        if group.kind != "loose":
            out.append(f"<{group.kind}>")
        for row in group.rows:
            out.append("<tr>")
            for cell in row:
                attributes = "".join(f' {name}="{value}"' for name, value in
                                     (("colspan", cell.colspan), ("rowspan", cell.rowspan)) if value is not None)
                out.append(f"<{cell.tag}{attributes}>c{n}")
                n += 1
                if end_tags:
                    out.append(f"</{cell.tag}>")
            if end_tags:
                out.append("</tr>")
        following_loose = gi + 1 < len(groups) and groups[gi + 1].kind == "loose"
        if group.kind != "loose" and (end_tags or following_loose):
            out.append(f"</{group.kind}>")  # a section's end tag may be left out unless loose rows follow it
    out.append("</table></body></html>")
    return "".join(out)


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(table=tables)
def test_grid_matches_a_naive_reading_of_the_spec(table, normalizer: Normalizer) -> None:
    document = grid(to_html(table, end_tags=True), normalizer=normalizer)
    (ours,) = document.to_json()["tables"]
    assert ours == reference_grid(table)


@FAST
@given(table=tables)
def test_every_row_is_full_and_every_origin_covers_its_slot(table, normalizer: Normalizer) -> None:
    (result,) = grid(to_html(table, end_tags=True), normalizer=normalizer).tables
    assert len(result.grid) == result.rows
    for r, row in enumerate(result.grid):
        assert len(row) == result.cols
        for c, cell in enumerate(row):
            if cell is not None:
                assert cell.covers(r, c)
    for cell in result.cells:  # a cell's anchor slot shows it, unless a later cell overlaps it there
        owner = result.grid[cell.row][cell.col]
        assert owner is cell or any(e.code == "overlap" and (e.row, e.col) == cell.origin and cell.id in e.cells
                                    for e in result.errors)


@FAST
@given(table=tables)
def test_the_grid_does_not_depend_on_optional_end_tags(table, normalizer: Normalizer) -> None:
    with_tags = grid(to_html(table, end_tags=True), normalizer=normalizer)
    without_tags = grid(to_html(table, end_tags=False), normalizer=normalizer)
    assert without_tags.to_json() == with_tags.to_json()
    assert [t.errors for t in without_tags.tables] == [t.errors for t in with_tags.tables]


@pytest.fixture(scope="module")
def grid_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(builtin_schema("grid.xsd"))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.lists(st.builds(GenGroup, kind=st.sampled_from(["thead", "tbody", "tfoot", "loose"]),
                                rows=st.lists(st.lists(big_cells, max_size=3).map(tuple), max_size=3).map(tuple)),
                      min_size=1, max_size=3).map(tuple))
def test_generated_grids_are_schema_valid(table, normalizer: Normalizer, grid_schema: etree.XMLSchema) -> None:
    document = grid(to_html(table, end_tags=False), normalizer=normalizer)
    root = etree.fromstring(document.xml.encode("utf-8"))
    assert grid_schema.validate(root), grid_schema.error_log


CONTENTS = ["x", "", " 1,234 ", '<a href="/p">link</a> tail', "<b>bold</b>", '<img src="i.png" alt="pic">',
            "<span>a</span><sup>1</sup>", "<table><tr><td>inner</td></tr></table>", "a<br>b"]


@FAST
@given(table=st.lists(st.builds(GenGroup, kind=st.sampled_from(["thead", "tbody", "tfoot", "loose"]),
                                rows=st.lists(st.lists(st.tuples(st.sampled_from(["td", "th"]),
                                                                 st.sampled_from(CONTENTS)), max_size=5),
                                              max_size=4).map(tuple)),
                      min_size=1, max_size=4).map(tuple),
       columns=st.sampled_from(["", "<colgroup span=3></colgroup>", "<col span=7>",
                                "<colgroup><col span=2><col></colgroup>"]),
       row_class=st.sampled_from(["", ' class="r"']))
def test_a_table_without_spans_is_the_same_grid_by_either_path(table, columns: str, row_class: str,
                                                               normalizer: Normalizer) -> None:
    """A table without span attributes is written from its row groups directly (normalize/simple.xsl,
    fp:simple-table); rowspan="1" on every cell, which changes nothing in WHATWG's algorithm, sends it through the
    general steps. Both give the same grid document (cells, content, links, errors; the width and empty columns
    that column groups give; the rows' class)."""

    def page(spans: bool) -> str:
        span = ' rowspan="1"' if spans else ""
        out = ["<!DOCTYPE html><html><head><title>g</title></head><body><table><caption>c</caption>", columns]
        for group in merged_groups(table):
            out.append(f"<{group.kind}>" if group.kind != "loose" else "")
            for row in group.rows:
                out.append(f"<tr{row_class}>" + "".join(f"<{tag}{span}>{content}</{tag}>"
                                            for tag, content in row) + "</tr>")
            out.append(f"</{group.kind}>" if group.kind != "loose" else "")
        return "".join(out) + "</table></body></html>"

    assert grid(page(False), normalizer=normalizer).xml == grid(page(True), normalizer=normalizer).xml


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.lists(st.builds(GenGroup, kind=st.sampled_from(["thead", "tbody", "tfoot", "loose"]),
                                rows=st.lists(st.lists(st.tuples(st.sampled_from(["td", "th"]),
                                                                 st.sampled_from(CONTENTS),
                                                                 span(True)), max_size=5),
                                              max_size=4).map(tuple)),
                      min_size=1, max_size=4).map(tuple),
       columns=st.sampled_from(["", "<colgroup span=3></colgroup>", "<col span=9>",
                                "<colgroup><col span=2><col></colgroup>"]))
@example(table=(GenGroup("tbody", ((("td", "x", "2"), ("td", "x", None)), (("td", "x", None),),
                                   (("th", "x", "1001"), ("td", "x", "0"), ("td", "x", "3")))),),
         columns="<col span=9>")
def test_a_table_with_colspans_only_is_the_same_grid_by_either_path(table, columns: str,
                                                                    normalizer: Normalizer) -> None:
    """A table with colspan attributes and no rowspan attribute is written from its row groups directly, each row's
    cells one after the other (normalize/simple.xsl, fp:span-table); rowspan="1" on every cell sends it through the
    general steps. Both give the same grid document: anchors and effective colspans (invalid, zero and huge values),
    the slots, colspan-clamped errors, the width, and the empty rows and columns (columns that only a colspan or
    the column groups cover)."""

    def page(general: bool) -> str:
        out = ["<!DOCTYPE html><html><head><title>g</title></head><body><table>", columns]
        for group in merged_groups(table):
            out.append(f"<{group.kind}>" if group.kind != "loose" else "")
            for row in group.rows:
                out.append("<tr>" + "".join(
                    f"<{tag}{'' if colspan is None else f' colspan={colspan!r}'}"
                    f"{' rowspan=1' if general else ''}>{content}</{tag}>" for tag, content, colspan in row) + "</tr>")
            out.append(f"</{group.kind}>" if group.kind != "loose" else "")
        return "".join(out) + "</table></body></html>"

    assert grid(page(False), normalizer=normalizer).xml == grid(page(True), normalizer=normalizer).xml


# Elements f:visible-text (normalize/text.xsl) reads by the string value when a cell, link or caption holds only
# them and text; wbr is not among them and adds no text, so a <wbr> in each container sends the same content the
# general way. OTHER: elements the shortcut must not take (a line break, blocks, a hidden rp), so that adding one to
# its list is caught too.
INLINE = ["a", "span", "i", "b", "sup", "small", "strong", "abbr", "sub", "u", "s", "font", "em", "code", "tt", "big"]
OTHER = ["p", "div", "li", "rp", "nobr", "time"]
TEXT = st.lists(st.sampled_from(list("ab1,.é") + [" ", "\t", "\n", "\r", "\x0c", "\u00a0", "\u3000", "\u200b", "&amp;",
                                                  "&nbsp;", "&#10;"]), max_size=6).map("".join)


def inline_content(depth: int = 0) -> st.SearchStrategy[str]:
    leaf = st.one_of(TEXT, st.just('<img src="i.png" alt="pic">'), TEXT.map(lambda text: f"<!--{text}-->"),
                     st.just("1<br>2"))
    if depth == 2:
        return leaf
    element = st.tuples(st.sampled_from(INLINE[1:] + OTHER), inline_content(depth + 1)).map(
        lambda t: f"x<{t[0]}>{t[1]}</{t[0]}>y")
    link = inline_content(depth + 1).map(lambda inner: f'<a href="/u">{inner}</a>')
    return st.lists(st.one_of(leaf, element, link), max_size=4).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=inline_content())
def test_the_string_value_shortcut_of_visible_text_is_the_general_walk(content: str, normalizer: Normalizer) -> None:
    """A cell, link or caption of inline elements and text (and br elements: lines) has the visible text the general
    walk (mode m:visible-text) gives the same content with a <wbr> in each container (which the shortcuts do not
    take)."""
    forced = content.replace("</a>", "<wbr></a>") + "<wbr>"
    page = ("<!DOCTYPE html><html><head><title>v</title></head><body>"
            f"<table><caption>{content}</caption><tr><td>{content}</td><th>{content}</th></tr></table>"
            f"<table><caption>{forced}</caption><tr><td>{forced}</td><th>{forced}</th></tr></table></body></html>")
    shortcut, general = grid(page, normalizer=normalizer).tables
    assert shortcut.caption == general.caption
    assert [(cell.text, [(link.href, link.text) for link in cell.links]) for cell in shortcut.cells] == \
           [(cell.text, [(link.href, link.text) for link in cell.links]) for cell in general.cells]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=inline_content(), block=st.sampled_from(["p", "div", "li", "center"]))
@example(content="x<rp>a</rp>y", block="p")  # rp is not shown: it must not be among the inline-only names (review13)
def test_the_string_value_shortcut_inside_the_general_walk_is_the_general_walk(content: str, block: str,
                                                                                normalizer: Normalizer) -> None:
    """Inside the general walk (a cell with a block), an element of inline elements and text is taken by its string
    value (normalize/text.xsl, $fp:inline-only): the same text as the walk gives with a <wbr> in every element
    (which the shortcut does not take), blocks, unknown elements and a hidden rp among them. The cells' text only:
    the HTML parser may split a link around a block differently when a <wbr> ends it."""
    forced = content.replace("</", "<wbr></")
    page = ("<!DOCTYPE html><html><head><title>v</title></head><body>"
            f"<table><tr><td>a<{block}>{content}</{block}>{content}</td></tr></table>"
            f"<table><tr><td>a<{block}>{forced}<wbr></{block}>{forced}</td></tr></table></body></html>")
    shortcut, general = grid(page, normalizer=normalizer).tables
    assert [cell.text for cell in shortcut.cells] == [cell.text for cell in general.cells]


# The general steps alone (normalize/table.xsl's fp:table-model without its direct paths): f:table-rows,
# f:place-rows and a record per row for every table. The stage's output is compared with this one's.
GENERAL_STEPS = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" xpath-default-namespace="http://www.w3.org/1999/xhtml">
  <xsl:import href="NORMALIZE"/>
  <xsl:function name="fp:table-model" as="map(*)">
    <xsl:param name="table" as="element(table)"/>
    <xsl:param name="index" as="xs:integer"/>
    <xsl:variable name="checked" as="element(table)" select="fp:checked-depth($table)"/>
    <xsl:variable name="placed" as="map(*)+"
        select="f:place-rows($index, f:table-rows($checked), f:column-group-width($checked), $max-slots)"/>
    <xsl:sequence select="map { 'rows': fp:checked-area($placed[position() lt last()], $max-slots),
                                'cols': $placed[last()]?cols }"/>
  </xsl:function>
</xsl:stylesheet>"""


@pytest.fixture(scope="module")
def stage_and_general_steps():
    from saxonche import PySaxonProcessor

    from pyxform.runtime.saxon import builtin_stylesheet

    processor = PySaxonProcessor(license=False)
    normalize = builtin_stylesheet("normalize.xsl")
    compiler = processor.new_xslt30_processor()
    general = GENERAL_STEPS.replace("NORMALIZE", normalize.resolve().as_uri())
    return (processor, compiler.compile_stylesheet(stylesheet_file=str(normalize)),
            compiler.compile_stylesheet(stylesheet_text=general))


ROWSPAN_VALUES = ["2", "2", "3", "0", "1", "-1", "x", " 4", "9", "70000", "99999999999999999999999"]
span_cells = st.tuples(st.sampled_from(["td", "th"]), st.sampled_from(CONTENTS[:6]),
                       st.one_of(st.none(), st.none(), st.none(), st.sampled_from(["2", "0", "3", "1001", "x"])),
                       st.one_of(st.none(), st.none(), st.sampled_from(ROWSPAN_VALUES)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.lists(st.builds(GenGroup, kind=st.sampled_from(["thead", "tbody", "tbody", "tfoot", "loose"]),
                                rows=st.lists(st.lists(span_cells, max_size=5).map(tuple), max_size=5).map(tuple)),
                      min_size=1, max_size=4).map(tuple),
       columns=st.sampled_from(["", "<colgroup span=3></colgroup>", "<col span=9>"]),
       row_class=st.sampled_from(["", ' class="r"']))
@example(table=(GenGroup("thead", ((("th", "x", None, None), ("th", "x", "2", None)),)),
                GenGroup("tbody", ((("th", "x", None, "3"), ("td", "x", None, None), ("td", "x", None, "2")),
                                   (("td", "x", "2", None),), (("td", "x", None, "0"), ("td", "x", None, None)))),
                GenGroup("tfoot", ((("td", "x", None, "2"),),))),
         columns="", row_class="")
@example(table=(GenGroup("tbody", ((("th", "x", None, "2"), ("td", "x", None, None)),
                                   (("td", "x", "2", None),))),), columns="", row_class="")  # overlap
def test_a_table_with_spans_is_the_same_grid_by_the_general_steps(table, columns: str, row_class: str,
                                                                   stage_and_general_steps) -> None:
    """Every direct path of fp:table-model (normalize/table.xsl, normalize/simple.xsl: tables without spans, with
    colspans only, and with rowspans, fp:span-anchors and fp:span-table) gives the grid document that the general
    steps (f:table-rows, f:place-rows, fp:grid-row) give: anchors, effective spans (zero, invalid, huge and clipped rowspans, several row
    groups, tfoot), the slots that cells of earlier rows cover, the span errors in tree order, overlapping cells
    (which take the general steps), the width and the empty rows and columns."""
    from pyxform.stages.clean import clean_for_bytes

    processor, stage, general = stage_and_general_steps
    out = ["<!DOCTYPE html><html><head><title>g</title></head><body><table>", columns]
    for group in merged_groups(table):
        out.append(f"<{group.kind}>" if group.kind != "loose" else "")
        for row in group.rows:
            out.append(f"<tr{row_class}>" + "".join(
                f"<{tag}{'' if colspan is None else f' colspan={colspan!r}'}"
                f"{'' if rowspan is None else f' rowspan={rowspan!r}'}>{content}</{tag}>"
                for tag, content, colspan, rowspan in row) + "</tr>")
        out.append(f"</{group.kind}>" if group.kind != "loose" else "")
    page = "".join(out) + "</table></body></html>"
    node = processor.parse_xml(xml_text=clean_for_bytes(page).tables_to_bytes().decode("utf-8"))
    assert stage.transform_to_string(xdm_node=node) == general.transform_to_string(xdm_node=node)
