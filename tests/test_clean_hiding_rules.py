"""Hidden elements are found matching only the author rules that declare ``display`` or ``visibility``
(``Cascade._matching_rules(hiding_only=True)``): the page cleans as when every rule is matched (the general path)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyxform.base.errors import PyxformError
from pyxform.stages.clean import clean, clean_for_bytes
from pyxform.stages.clean.style import Cascade

SELECTORS = ["td", "span", ".h", ".k", "#i", "div .h", "tr > td", "td:first-child", "span + b", "b ~ span",
             "tr:nth-child(2) td", "td:last-child", "[title]", "div:empty", "p:only-child", "*", "table b"]
DECLARATIONS = ["display:none", "visibility:hidden", "visibility:visible", "color:red", "font-size:20px",
                "font-weight:bold", "padding-left:3px", "display:block", "display:none !important"]
SHEET = st.lists(st.tuples(st.sampled_from(SELECTORS), st.sampled_from(DECLARATIONS)), max_size=8).map(
    lambda rules: "<style>" + "".join(f"{selector} {{{declaration}}}" for selector, declaration in rules) + "</style>")
PART = st.sampled_from(["<span class=h>h</span>", "<b>b</b>", "<span>s</span>", "<div class=k>d</div>",
                        "<p id=i>p</p>", "<span title=t hidden>t</span>", "<div></div>", "x", "<h2>Head</h2>",
                        "<span style='visibility:hidden'><b style='visibility:visible'>v</b></span>"])
CELL = st.lists(PART, max_size=4).map("".join)
PAGE = st.tuples(SHEET, st.lists(st.lists(CELL, min_size=1, max_size=3), min_size=1, max_size=3),
                 st.lists(PART, max_size=3).map("".join)).map(
    lambda parts: parts[0] + parts[2] + "<div class=k><table>" + "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in parts[1]) + "</table></div>"
    + parts[2])


def _cleaned(page: str) -> tuple[bytes, bytes, list[str]]:
    """The serializations of :func:`clean` and :func:`clean_for_bytes` (or the error) and the warnings."""
    try:
        whole, tables = clean(page), clean_for_bytes(page)
    except PyxformError as error:
        return b"", str(error).encode(), []
    return whole.to_bytes(), tables.tables_to_bytes(), list(whole.warnings)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=PAGE)
@example(page="<style>td:first-child {color:red} .h {display:none}</style><table><tr><td><span class=h>h</span></td>"
         "<td>x</td></tr></table>")
def test_hidden_elements_found_with_the_hiding_rules_alone_clean_the_same(page: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes of :func:`clean` and :func:`clean_for_bytes` and the warnings, with ``hiding_only`` honoured and
    with every rule matched."""
    shortcut = _cleaned(page)
    matching_rules = Cascade._matching_rules
    with monkeypatch.context() as patch:
        patch.setattr(Cascade, "_matching_rules",
                      lambda self, element, hiding_only=False: matching_rules(self, element))  # every rule
        general = _cleaned(page)
    assert shortcut == general


@pytest.mark.parametrize("sheet", ["* {display:none}", "body, head, html {display: none}", "html, body {display:none}"])
def test_hidden_skeleton_warnings_come_in_document_order(sheet: str) -> None:
    """A rule's matches are a set; the warnings about the hidden html/head/body it keeps follow the document."""
    page = f"<html><head><style>{sheet}</style></head><body><table><tr><td>x</table></body></html>"
    names = [name for name in ("html", "head", "body") if name in sheet or "*" in sheet]
    expected = [f"<{name}> is hidden by the page's style: kept" for name in names]
    for _ in range(20):  # set order follows memory addresses, which change from parse to parse
        assert [w for w in clean(page).warnings if "is hidden" in w] == expected


@pytest.mark.parametrize(("page", "names"), [
    ("<html><head style='display:none'></head><body hidden><table><tr><td>x</table></body></html>", ["head", "body"]),
    ("<html><head><style>html{display:none}</style></head><body hidden><table><tr><td>x</table></body></html>",
     ["html", "body"]),
])
def test_hidden_skeleton_warnings_follow_the_document_with_or_without_rules(page: str, names: list[str]) -> None:
    """Elements hidden by an attribute (hidden, style) and by a rule come in one document order (review13)."""
    assert [w for w in clean(page).warnings if "is hidden" in w] == [
        f"<{name}> is hidden by the page's style: kept" for name in names]
