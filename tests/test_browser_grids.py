"""Agreement with a real browser: for every table of the corpus pages, Chromium's grid (cell anchors, effective
spans, tags: ../shared/corpus/{wikitables,web}/browser-grids.jsonl) and ours must agree on structure (rows, cols,
every slot's origin and tag) for at least 99.5% of the tables. Run bench/grid_vs_browser.py for the full report with
the kinds of difference."""

from __future__ import annotations

import pytest

from .conftest import CORPUS

pytestmark = pytest.mark.skipif(not (CORPUS / "wikitables" / "browser-grids.jsonl").is_file(),
                                reason="../shared/corpus (browser-grids.jsonl) is absent")


@pytest.fixture(scope="module")
def comparisons(normalizer):
    from bench.grid_vs_browser import compare_page, load_oracle

    results = []
    for path, entries in sorted(load_oracle(CORPUS).items()):
        results.extend(compare_page(path, entries, normalizer))
    return results


def test_every_oracle_table_is_compared(comparisons) -> None:
    assert len(comparisons) >= 5821
    assert not [c for c in comparisons if c.kind == "missing"]


def test_structure_agrees_for_at_least_99_5_percent(comparisons) -> None:
    agreeing = sum(c.structure_agrees for c in comparisons)
    disagreeing = [(c.file, c.index, c.kind, c.detail) for c in comparisons if not c.structure_agrees]
    assert agreeing / len(comparisons) >= 0.995, disagreeing[:20]


def test_text_agrees_for_nearly_all(comparisons) -> None:
    # Text hidden by CSS and non-UTF-8 pages are clean's part (its full version prunes and decodes them); cells
    # holding a nested table differ by design (the browser's innerText includes the nested table).
    agreeing = sum(c.text_agrees for c in comparisons)
    assert agreeing / len(comparisons) >= 0.9
    unexplained = [c for c in comparisons if "other" in c.text_kinds]
    assert len(unexplained) <= 0.002 * len(comparisons), [(c.file, c.index, c.text_examples) for c in unexplained]
