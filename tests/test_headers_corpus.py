"""Header detection on the real pages of ../shared/corpus (skipped where it is absent): regression guards at the
issue's aims. The full evaluations, with their tables of errors, are bench/headers_web.py and
bench/headers_wikitables.py."""

from __future__ import annotations

import json

import pytest

from .conftest import CORPUS, ROOT

WEB = CORPUS / "web"
WIKITABLES = CORPUS / "wikitables" / "tables"


@pytest.mark.skipif(not WEB.is_dir(), reason="../shared/corpus/web is absent")
def test_web_pages_without_th_reach_the_aim() -> None:
    from bench.headers_eval import page_headers

    right = {"th": [], "other": [], "layout": []}
    for annotation_path in sorted(WEB.glob("*.json")):
        annotation = json.loads(annotation_path.read_text(encoding="utf-8"))
        results = page_headers(annotation_path.with_suffix(".html").read_bytes())
        for table in annotation["tables"]:
            got = results.get(table["table_index"])
            found = (got.header_rows, got.header_cols) if got else None
            if not table["is_data"]:
                right["layout"].append(found == (0, 0))
            else:
                key = "th" if table["header_marking"] == "th" else "other"
                right[key].append(found == (table["header_rows"], table["header_cols"]))
    share = {key: sum(values) / len(values) for key, values in right.items()}
    assert len(right["other"]) >= 70
    assert share["other"] >= 0.90, share
    assert share["th"] >= 0.97, share
    assert share["layout"] >= 0.95, share


@pytest.mark.skipif(not WIKITABLES.is_dir(), reason="../shared/corpus/wikitables is absent")
def test_markup_agrees_with_the_careful_reading() -> None:
    from bench.headers_eval import page_headers

    reading = json.loads((ROOT / "bench" / "data" / "wikitables_reading.json").read_text(encoding="utf-8"))["tables"]
    agree = 0
    for name, entry in reading.items():
        results = page_headers((WIKITABLES / f"{name}.html").read_text(encoding="utf-8"))
        table = results[min(results)]
        agree += (table.header_rows, table.header_cols) == (entry["header_rows"], entry["header_cols"])
    assert len(reading) >= 90
    assert agree / len(reading) >= 0.97
