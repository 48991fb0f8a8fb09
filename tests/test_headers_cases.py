"""The hand-made cases (tests/data/cases, copied from shared/cases): k and p of every table.

Each case's expected grid is turned back into a grid document (tests/grid_builder.py) so that the headers stage is
tested alone, and the case's input.html is run through the whole pipeline (``pyxform.headers``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pyxform
from pyxform.stages.headers import detect_headers

from .grid_builder import grid_from_expected

CASES = Path(__file__).parent / "data" / "cases"
CASE_NAMES = sorted(path.name for path in CASES.iterdir() if (path / "expected-headers.json").is_file())


def _expected(name: str) -> list[tuple[int, int, int]]:
    data = json.loads((CASES / name / "expected-headers.json").read_text(encoding="utf-8"))
    return [(t["index"], t["header_rows"], t["header_cols"]) for t in data["tables"]]


def _got(result) -> list[tuple[int, int, int]]:
    return [(t.index, t.header_rows, t.header_cols) for t in result.tables]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_case_from_expected_grid(name: str) -> None:
    grid = grid_from_expected(json.loads((CASES / name / "expected-grid.json").read_text(encoding="utf-8")))
    assert _got(detect_headers(grid)) == _expected(name)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_case_from_html(name: str) -> None:
    """The whole pipeline: clean, normalize and headers on the case's input.html."""
    result = pyxform.headers((CASES / name / "input.html").read_bytes())
    assert _got(result) == _expected(name)


def test_paper_example_gives_k2_p1_by_markup_and_by_formatting() -> None:
    """Zhang & Li 2007, Example 1: Table 3 has k = 2 header rows and p = 1 header column."""
    grid = grid_from_expected(json.loads((CASES / "paper-example" / "expected-grid.json").read_text("utf-8")))
    markup = detect_headers(grid).table(0)
    assert (markup.header_rows, markup.header_cols, markup.method) == (2, 1, "markup")
    formatting = detect_headers(grid, method="format").table(0)
    assert (formatting.header_rows, formatting.header_cols, formatting.method) == (2, 1, "format")


def test_paper_example_header_cells_of_each_data_slot() -> None:
    """Rule 1 needs h(i,1..p) and h(1..k,j): "Not available" spans Height and Weight, Ratio spans both header rows."""
    from .headers_helpers import slot_headers

    grid = grid_from_expected(json.loads((CASES / "paper-example" / "expected-grid.json").read_text("utf-8")))
    for method in ("auto", "format"):
        result = detect_headers(grid, method=method)
        assert slot_headers(result, 2, 1) == (["Males"], ["Average", "Height"])
        assert slot_headers(result, 2, 3) == (["Males"], ["Ratio"])
        assert slot_headers(result, 3, 1) == (["Females"], ["Average", "Height"])
        assert slot_headers(result, 3, 2) == (["Females"], ["Average", "Weight"])
        assert slot_headers(result, 0, 1) == (None, None)  # a header slot carries no header lists
