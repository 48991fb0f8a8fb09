"""End to end over real pages of ../shared/corpus (skipped where it is absent): every page converts, in both name
styles, and its output validates against the schema generated for it; the pairs agree with the XML's values."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pyxform.api.convert import convert
from pyxform.base.errors import NoTableError
from pyxform.stages.schema import validate

from .conftest import CORPUS

PX = "urn:pyxform"

# Every page of corpus/web and corpus/misc (many without th; GB2312/GBK pages) and a spread of Wikipedia pages.
PAGES = sorted((CORPUS / "web").glob("*.html")) + sorted((CORPUS / "misc").glob("*.html")) + [
    CORPUS / "wikitables" / "pages" / f"{name}.html" for name in ("200-0", "200-26", "201-26", "201-37", "202-263",
                                                                   "203-115", "203-181")]


@pytest.mark.skipif(not (CORPUS / "web").is_dir(), reason=f"the corpus is not at {CORPUS}")
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_real_page_converts_and_validates(page: Path) -> None:
    data = page.read_bytes()
    conversions = {}
    for names in ("paper", "generic"):
        try:
            conversions[names] = convert(data, names=names, source=page.name)
        except NoTableError:
            pytest.skip("the page has no table")
        validate(conversions[names].to_bytes(), conversions[names].schema())
    # every value of the XML is a pair's value and back; a note row's cell (one <note>) gives one pair per header
    # set of the columns it spans, so its pairs are counted once per note
    root = etree.fromstring(conversions["paper"].to_bytes())
    texts = sorted(t for e in root.iter() if e is not root and (t := (e.text or "")).strip(" \t\r\n"))
    notes = {(int(e.getparent().get(f"{{{PX}}}table")), int(e.get(f"{{{PX}}}row"))) for e in root.iter("note")
             if e.get(f"{{{PX}}}row") is not None}
    seen_notes: set[tuple[int, int]] = set()
    pairs = []
    for pair in conversions["paper"].pairs():
        if not pair["value"]:
            continue
        key = (pair["table"], pair["row"])
        if key in notes:
            if key in seen_notes:
                continue
            seen_notes.add(key)
        pairs.append(pair["value"])
    assert seen_notes == notes
    assert texts == sorted(pairs)
