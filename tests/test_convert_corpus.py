"""End to end over real pages of ../shared/corpus (skipped where it is absent): every page converts, in both name
styles, and its output validates against the schema generated for it; the pairs agree with the XML's values."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pyxform.convert import convert
from pyxform.errors import NoTableError
from pyxform.schema import validate

from .conftest import CORPUS

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
    root = etree.fromstring(conversions["paper"].to_bytes())
    texts = sorted(t for e in root.iter() if e is not root and (t := (e.text or "")).strip(" \t\r\n"))
    pairs = sorted(p["value"] for p in conversions["paper"].pairs() if p["value"])
    assert texts == pairs
