"""The headers-map stage (stylesheets/headers-map.xsl: headers and map in one transformation, convert's default path)
against the headers stage then map, on generated tables (hypothesis) and on real pages; and convert's results that
read the annotated grid (table indexes and failures, pairs) on the path without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyxform.api.convert import convert
from pyxform.api.pipeline import CONVERSION, Step
from pyxform.base.errors import NoTableError
from pyxform.base.limits import Limits
from pyxform.runtime.runner import runner

from .conftest import CORPUS

GRID = CONVERSION.until("normalize")
# the default pipeline with a step between headers and map, so that convert runs them apart (no headers-map)
APART = CONVERSION.insert_after("headers", Step.python("same", lambda tree: tree, tree="xdm"))


def both(page: bytes, *, method: str = "auto", names: str = "paper", table: int = -1) -> tuple[str, str]:
    """map's output on the headers stage's grid, and headers-map's output, for one page."""
    run_on = runner()
    grid = GRID.run(page).node
    params = {"table": table, "names": names}
    apart = run_on.run_to_string("map", run_on.run("headers", grid, {"method": method}), params)
    fused = run_on.run_to_string("headers-map", grid, {**params, "method": method})
    return apart, fused


TEXTS = ["", "Name", "Year", "Total", "1999", "3.5", "12", "Source: a survey", "Team:", "—", "x y", "2001-05-02"]


@st.composite
def cells(draw: st.DrawFn, depth: int) -> str:
    tag = draw(st.sampled_from(["td", "td", "th"]))
    attributes = "".join(f' {name}="{draw(st.sampled_from(["2", "3"]))}"' for name in ("colspan", "rowspan")
                         if draw(st.integers(0, 5)) == 0)
    if draw(st.integers(0, 6)) == 0:
        attributes += f' scope="{draw(st.sampled_from(["col", "row", "colgroup", "rowgroup"]))}"'
    if draw(st.integers(0, 8)) == 0:
        attributes += ' headers="h1"'
    if draw(st.integers(0, 8)) == 0:
        attributes += ' id="h1"'
    text = draw(st.sampled_from(TEXTS))
    content = draw(st.sampled_from(["{}", "<b>{}</b>", "<i>{}</i>", "<a href='/x'>{}</a>"])).format(text)
    if depth < 1 and draw(st.integers(0, 10)) == 0:
        content += draw(tables(depth + 1))
    return f"<{tag}{attributes}>{content}</{tag}>"


@st.composite
def tables(draw: st.DrawFn, depth: int = 0) -> str:
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(cells(depth), min_size=1, max_size=width), min_size=1, max_size=6))
    body = "".join("<tr>" + "".join(row) + "</tr>" for row in rows)
    if draw(st.booleans()):  # a header row in thead
        body = "<thead><tr>" + "".join(f"<th>H{i}</th>" for i in range(width)) + "</tr></thead>" + body
    if draw(st.integers(0, 3)) == 0:  # a note row spanning the table
        body += f"<tr><td colspan='{width}'>Source: a survey</td></tr>"
    caption = "<caption>Results</caption>" if draw(st.integers(0, 3)) == 0 else ""
    return f"<table>{caption}{body}</table>"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tables(), min_size=1, max_size=3), st.sampled_from(["auto", "markup", "format"]),
       st.sampled_from(["paper", "generic"]))
def test_generated_tables(page_tables: list[str], method: str, names: str) -> None:
    page = ("<h2>Heading</h2>" + "<p>text</p>".join(page_tables)).encode()
    apart, fused = both(page, method=method, names=names)
    assert fused == apart


@pytest.mark.parametrize("table", [0, 1, 5])
def test_one_table(table: int) -> None:
    """With table: that table alone (its headers detected as the headers stage detects every table's), or the
    same error."""
    page = b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><table><tr><td>x</td></tr></table></td></tr></table>"
    try:
        apart = both(page, table=table)
    except NoTableError as error:
        with pytest.raises(NoTableError, match=str(error).split("(")[0].strip()):
            runner().run("headers-map", GRID.run(page).node, {"table": table})
        return
    assert apart[1] == apart[0]


REAL = ["200-0", "200-26", "201-26", "201-37", "202-263", "203-115", "203-181"]


@pytest.mark.skipif(not (CORPUS / "wikitables").is_dir(), reason=f"the corpus is not at {CORPUS}")
@pytest.mark.parametrize("page", [CORPUS / "wikitables" / "pages" / f"{name}.html" for name in REAL]
                         + sorted((CORPUS / "web").glob("*.html"))[::6], ids=lambda p: p.name)
def test_real_pages(page: Path) -> None:
    try:
        apart, fused = both(page.read_bytes())
    except NoTableError:
        pytest.skip("the page has no table")
    assert fused == apart


def test_convert_without_the_annotated_grid() -> None:
    """convert's default path (headers-map) and the path with headers and map apart give the same output, table
    indexes, failures and pairs; the annotated grid is made only when read, and equals the headers stage's."""
    page = (b"<table><tr><th>Name</th><th>Year</th></tr><tr><td>a</td><td>1999</td></tr></table>"
            b"<table><tr><td colspan='60'>wide</td></tr></table>"
            b"<table><tr><th></th><th>2000</th></tr><tr><th>Males</th><td>1.78</td></tr></table>")
    limits = Limits(max_slots=50)
    fused, apart = convert(page, limits=limits), convert(page, pipeline=APART, limits=limits)
    assert fused._grid is None  # not made yet
    assert fused.xml == apart.xml
    assert fused.table_indexes() == apart.table_indexes() == [0, 2]
    assert fused.table_failures() == apart.table_failures() and len(fused.table_failures()) == 1
    assert fused._grid is None  # the indexes and failures did not need it
    assert fused.pairs() == apart.pairs()
    assert runner().serialize(fused.grid) == runner().serialize(apart.grid)
    for table in (0, 2):
        assert convert(page, table=table).xml == convert(page, table=table, pipeline=APART).xml


def test_keep_grid_runs_the_headers_stage_apart() -> None:
    """The callers that read the annotated grid (the CSV, pairs, XHTML and tables formats, DataFrames) convert with
    the headers stage apart, so that header detection does not run twice."""
    page = b"<table><tr><th>Name</th><th>Year</th></tr><tr><td>a</td><td>1999</td></tr></table>"
    wanted = convert(page, keep_grid=True)
    assert wanted._grid is not None and wanted._unannotated is None
    fused = convert(page)
    assert fused._grid is None and fused._unannotated is not None  # the grid is made when asked for
    assert wanted.xml == convert(page).xml and wanted.pairs() == convert(page).pairs()
