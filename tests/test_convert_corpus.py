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
    # set of the columns it spans, so its pairs are counted once per note. An entity table (docs/mapping.md) is one
    # record read as it is written: its keys name their elements (where they are data cells, p = 0, the pairs have
    # them as values); its notes (a wide row that is no heading, a value without a key) come from cells the pairs
    # read as headers, sections or data alike: both are left to the entity tests (tests/test_rule1_trust.py).
    root = etree.fromstring(conversions["paper"].to_bytes())

    def table_of(element: etree._Element) -> etree._Element:
        return element if element.get(f"{{{PX}}}table") is not None else next(
            a for a in element.iterancestors() if a.get(f"{{{PX}}}table") is not None)

    def entity(element: etree._Element) -> bool:
        return table_of(element).get(f"{{{PX}}}table-kind") == "entity"

    def row_of(note: etree._Element) -> tuple[int, int]:
        return int(table_of(note).get(f"{{{PX}}}table")), int(note.get(f"{{{PX}}}row"))

    all_notes = [e for e in root.iter("note") if e.get(f"{{{PX}}}row") is not None]
    entity_notes = {row_of(e) for e in all_notes if entity(e)}
    skipped = {id(e) for note in all_notes if entity(note) for e in note.iter()}
    texts = [t for e in root.iter() if e is not root and id(e) not in skipped
             and (t := (e.text or "")).strip(" \t\r\n")]
    texts += [e.get(f"{{{PX}}}label") for e in root.iter() if isinstance(e.tag, str) and e.tag != "note"
              and len(e) == 0 and not (e.text or "").strip() and e.get(f"{{{PX}}}label") is not None
              and e.get(f"{{{PX}}}table") is None and entity(e)
              and table_of(e).get(f"{{{PX}}}header-cols") == "0"]      # an entity's key without a value
    texts.sort()
    notes = {row_of(e) for e in all_notes if not entity(e)}
    entities = {int(e.get(f"{{{PX}}}table")) for e in root.iter() if isinstance(e.tag, str)
                and e.get(f"{{{PX}}}table-kind") == "entity"}
    all_pairs = conversions["paper"].pairs()
    valued = {(p["table"], p["row"]) for p in all_pairs if p["value"] and p["col"] > 0}
    seen_notes: set[tuple[int, int]] = set()
    pairs = []
    for pair in all_pairs:
        if not pair["value"]:
            continue
        key = (pair["table"], pair["row"])
        if key in entity_notes or (pair["table"] in entities and pair["col"] == 0 and key in valued):
            continue                                   # an entity's note, or its key (a data cell with p = 0)
        if key in notes:
            if key in seen_notes:
                continue
            seen_notes.add(key)
        pairs.append(pair["value"])
    assert seen_notes == notes
    assert texts == sorted(pairs)
