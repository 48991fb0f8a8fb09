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
