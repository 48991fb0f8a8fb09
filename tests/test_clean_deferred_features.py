"""clean_for_bytes' features put into the serialization: the fallback of :func:`.features.insert_features` taken for
real (not by a monkeypatched ``insert_features``) on trees changed by a caller, and each cell's features its own when
the cross-page style memos are emptied mid-page (threads)."""

from __future__ import annotations

import pytest
from lxml import etree

from pyxform.stages.clean import clean, clean_for_bytes
from pyxform.stages.clean.features import insert_features

PAGE = "<table><tr><td style='color:red'>a<td>b<table><tr><th>c</table></table><table><tr><td>d</table>"


def test_insert_features_gives_none_when_the_start_tags_are_not_as_many_as_the_cells() -> None:
    page = clean_for_bytes(PAGE)
    assert page.pending_features
    cells = list(page.tree.getroot().iter("{*}td", "{*}th"))
    data = etree.tostring(page.tree, encoding="utf-8")
    assert insert_features(data, cells[:-1], page.pending_features) is None
    assert insert_features(data + b"<!--<td -->", cells, page.pending_features) is None


def test_a_start_tag_count_that_does_not_match_falls_back_to_writing_the_features() -> None:
    """A comment holding "<td " (none in clean's tree: put there by the caller) makes one start tag more than cells:
    the features are written into the tree and it is serialized again, for both serializations."""
    for method in ("to_bytes", "tables_to_bytes"):
        written, deferred = clean(PAGE), clean_for_bytes(PAGE)
        for page in (written, deferred):
            page.tree.getroot().iter("{*}table").__next__().insert(0, etree.Comment(" <td x "))
        assert getattr(deferred, method)() == getattr(written, method)()
        assert deferred.pending_features is None  # the fallback was taken
        assert etree.tostring(deferred.tree) == etree.tostring(written.tree)


def test_start_tags_that_are_as_many_as_the_cells_but_not_theirs() -> None:
    written, deferred = clean(PAGE), clean_for_bytes(PAGE)
    for page in (written, deferred):
        body = page.tree.getroot()[-1]
        body.insert(0, etree.Comment(" <td x "))
        body.append(etree.Element("{urn:o}td", nsmap={"o": "urn:o"}))
    assert deferred.to_bytes() == written.to_bytes()


@pytest.mark.parametrize("deferred", [False, True])
def test_a_cells_features_are_its_own_when_the_shared_style_memos_are_emptied_mid_page(
        deferred: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    import pyxform.stages.clean.style as style

    page = "<table>" + "".join(f"<tr><td style='font-family:f{i}'>a</td></tr>" for i in range(400)) + "</table>"
    (clean_for_bytes if deferred else clean)(page)  # the shared memos now hold the page's cell styles
    original, calls = style.Cascade.child_style, [0]

    def child_style(self: style.Cascade, element: etree._Element,
                    parent: style.Style | None) -> style.Style:
        found = original(self, element, parent)
        calls[0] += 1
        if calls[0] == 200:  # what _share does when a memo is full (another thread's page, or this page's)
            style._SHARED_FAST[False].clear()
            style._SHARED_FAST[True].clear()
            style._SHARED_COMPUTED.clear()
        return found

    monkeypatch.setattr(style.Cascade, "child_style", child_style)
    data = (clean_for_bytes if deferred else clean)(page).to_bytes()
    pairs = re.findall(rb'<td style="font-family:([^"]*)"[^>]*px:face="([^"]*)"', data)
    assert len(pairs) == 400
    assert [face for face, _written in pairs] == [written for _face, written in pairs]


# clean_tables_to_bytes (the pipeline's and grid's tables-only hand-off, features kept in document order) against
# the public path, clean_for_bytes then tables_to_bytes(spend=True), and against clean's tree with the features
# written into it (lxml's serialization: no insertion into bytes, which both other paths share): pages whose cells
# are all in tables, and the pages that take its fallback (rows in a template, foreign td elements, cells outside
# rows).
_PIECES = ["<table>", "</table>", "<tr>", "<td>", "<th>", "<td style='font-weight:bold'>", "<td colspan=2>", "x",
           "\u00a0 y", "<b>z</b>", "<span style='color:red'>w</span>", "<p>", "<svg><td>s</td></svg>", "<template>",
           "</template>", "<tbody>", "<caption>c", "<h2>h</h2>", "<div style='display:none'>", "</div>", "<td></td>",
           "<math><mi>m</mi></math>", "<!-- c -->", "<style>td{color:blue} b{display:none}</style>", "<noscript>",
           "<h3 hidden>g</h3>", "<span style='visibility:hidden'>v</span>", "<h4>", "<div hidden><h5>k</h5></div>",
           # attribute values with "/" (features go before a start tag's ">" or an empty element's "/>")
           "<td title='a/'>", "<th abbr='//x/ />' class=/>", "<td data-x=/>", "<td/>"]


def _public(page: object) -> bytes:
    from pyxform.stages.clean import clean_for_bytes

    return clean_for_bytes(page).tables_to_bytes(spend=True)  # type: ignore[arg-type]


def _written(page: object) -> bytes:
    return clean(page).tables_to_bytes(spend=True)  # type: ignore[arg-type]


def _fused(page: object) -> bytes:
    from pyxform.base.limits import DEFAULT_LIMITS
    from pyxform.stages.clean import clean_tables_to_bytes

    return clean_tables_to_bytes(page, DEFAULT_LIMITS)[0]  # type: ignore[arg-type]


@pytest.mark.parametrize("page", [
    PAGE, "<table><tr><td>a</td><td><svg><td>s</td></svg></td></tr></table>",
    "<template><tr><td>t</td></tr></template><table><tr><td>a</table>",
    "<table><tr><td><template><tr><td>t</td></tr></template></td></tr></table>",
    "<table><tr><td>a<!-- <td> --></td><th>b</th></tr></table><p>x</p><table><tr><td>c</table>",
    "<p>no table</p>", "<h1>a</h1><div hidden><p><h2>b</h2></div><p hidden>e</p><table><tr><td>f</table>"
    "<h3>c<b hidden>d</b></h3><table><tr><td>g</table><h4 hidden>h</h4><table><tr><td>i</table>"])
def test_the_tables_hand_off_in_document_order_is_the_public_paths(page: str) -> None:
    assert _fused(page) == _public(page) == _written(page)


def test_the_tables_hand_off_in_document_order_on_generated_pages() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(_PIECES), max_size=30))
    def check(pieces: list[str]) -> None:
        page = "".join(pieces) or "x"
        assert _fused(page) == _public(page) == _written(page)

    check()


def test_the_tables_hand_off_in_document_order_on_corpus_pages() -> None:
    from bench.corpus import corpus_pages

    pages = corpus_pages()[::25]
    assert pages
    for path in pages:
        data = path.read_bytes()
        assert _fused(data) == _public(data) == _written(data), path


def test_annotate_tables_tells_a_row_outside_every_table() -> None:
    """Clean's parser leaves no row outside a table (template contents are not kept): a tree changed by hand
    has one, and annotate_tables says so, so that clean_tables_to_bytes takes the public path."""
    from pyxform.stages.clean.features import annotate_tables
    from pyxform.stages.clean.style import Cascade

    for moved, expected in ((False, True), (True, False)):
        root = clean("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>").tree.getroot()
        if moved:
            rows = list(root.iter("{*}tr"))
            root[-1].append(rows[-1])  # the second row into body, after the table
        in_order: list[bytes] = []
        assert annotate_tables(root, Cascade(root, []), None, in_order) is expected
        assert len(in_order) == 2
