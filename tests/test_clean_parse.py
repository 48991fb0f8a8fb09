"""HTML5 parsing: tree-construction cases, the fast route equals the fallback walk, table numbering vs the browser."""

from __future__ import annotations

import pytest
from lxml import etree

from .html5_tree import CORPUS, css_path, dump, html_tables, load_browser_grids, read_cases, table_cells
from pyxform.stages.clean import clean
from pyxform.stages.clean.decode import decode_html
from pyxform.stages.clean.parse import XHTML_NS, parse_html, parse_html_slow

X = "{" + XHTML_NS + "}"
PX = "{urn:pyxform}"
CASES = read_cases()
BROWSER = load_browser_grids()
needs_corpus = pytest.mark.skipif(not BROWSER, reason="../shared/corpus is absent")


@pytest.mark.parametrize(("name", "data", "expected"), CASES, ids=[c[0] for c in CASES])
def test_tree_construction(name: str, data: str, expected: str) -> None:
    assert dump(parse_html(data, drop=()).tree.getroot()) == expected


@pytest.mark.parametrize(("name", "data", "expected"), CASES, ids=[c[0] for c in CASES])
def test_fallback_walk_builds_the_same_tree(name: str, data: str, expected: str) -> None:
    assert dump(parse_html_slow(data, drop=()).tree.getroot()) == expected


def test_names_xml_cannot_hold_are_repaired() -> None:
    markup = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:fb="x"><body><div xmlns="urn:evil" a:b=1 "q"=2 '
              'c=3><table><tr><td>1</table></div><fb:like>x</fb:like><svg><a xlink:href="#i">l</a><foreignObject>'
              '<p>in</p></foreignObject></svg><p>t\x01\x00</p><!-- c --><script>s()</script>')
    fast = parse_html(markup).tree.getroot()
    slow = parse_html_slow(markup).tree.getroot()
    assert dump(fast) == dump(slow)
    div = fast.find(f"{X}body/{X}div")
    assert div is not None and dict(div.attrib) == {"c": "3"}
    assert fast.find(f"{X}body/{X}div/{X}table/{X}tbody/{X}tr/{X}td").text == "1"
    assert fast.find(f"{X}body/{X}fb_like").text == "x"
    assert fast.find(f".//{{http://www.w3.org/2000/svg}}foreignObject/{X}p").text == "in"
    assert fast.find(f"{X}body/{X}p").text == "t\ufffd\ufffd"
    assert not fast.findall(f".//{X}script")


def test_style_sheets_and_quirks_mode_are_reported() -> None:
    parsed = parse_html('<!DOCTYPE html><style media="screen">td{color:red}</style><table></table>')
    assert parsed.style_sheets == (("td{color:red}", "screen"),)
    assert parsed.quirks is False
    assert parse_html("<table></table>").quirks is True
    assert parse_html('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>').quirks is True
    assert parse_html('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" '
                      '"http://www.w3.org/TR/html4/loose.dtd"><p>').quirks is False


def test_deep_nesting_does_not_crash() -> None:
    tree = parse_html("<div>" * 5000 + "<table><tr><td>deep</td></tr></table>").tree
    assert [td.text for td in tree.iter(X + "td")] == ["deep"]


@needs_corpus
@pytest.mark.parametrize("path", sorted(BROWSER), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_tables_match_the_browser(path) -> None:  # noqa: ANN001
    """Every page: same number of tables, same CSS path each, same cell texts (scripts and noscript included as the
    browser's textContent has them) except where the browser decoded a lying charset or ran document.write."""
    records = BROWSER[path]
    text = decode_html(path.read_bytes()).text
    fast = parse_html(text, drop=()).tree.getroot()
    tables = html_tables(fast)
    assert len(tables) == len(records)
    assert [css_path(t) for t in tables] == [r["locator"] for r in records]
    differing = [r["table_index"] for r, t in zip(records, tables)
                 if table_cells(t) != [(c["tag"], c["text"]) for c in r["cells"]]]
    assert len(differing) <= (1 if path.name in ("qq_news_charset_mismatch.html",
                                                 "cbs_nfl_scores_2006_week9.html") else 0)


@needs_corpus
@pytest.mark.parametrize("path", sorted(BROWSER)[::10], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fast_route_equals_the_walk_on_the_corpus(path) -> None:  # noqa: ANN001
    text = decode_html(path.read_bytes()).text
    assert etree.tostring(parse_html(text).tree, method="c14n") == etree.tostring(
        parse_html_slow(text).tree, method="c14n")


@needs_corpus
@pytest.mark.parametrize("path", sorted(BROWSER), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_clean_keeps_the_browser_index_of_each_table(path) -> None:  # noqa: ANN001
    records = BROWSER[path]
    page = clean(path.read_bytes())
    root = page.tree.getroot()
    indexes = [int(t.get(PX + "index")) for t in root.iter(X + "table")]
    assert indexes == sorted(set(indexes))
    assert set(indexes) <= {r["table_index"] for r in records}
    depths = {r["table_index"]: r["nested_depth"] for r in records}
    for table in root.iter(X + "table"):
        assert int(table.get(PX + "depth")) == depths[int(table.get(PX + "index"))]
        assert table.get(PX + "locator", "").startswith("/html/body[1]/") or table.get(PX + "locator", "").startswith(
            "/html/head[1]/")
