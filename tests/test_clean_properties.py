"""Property: any input either cleans to well-formed, namespace-correct XHTML or raises a PyxformError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from .html5_tree import dump
from pyxform.clean import clean
from pyxform.clean.parse import XHTML_NS, parse_html, parse_html_slow
from pyxform.errors import PyxformError

TAGS = ["table", "tr", "td", "th", "tbody", "thead", "tfoot", "caption", "p", "b", "i", "font", "div", "span",
        "svg", "math", "foreignObject", "noscript", "script", "style", "template", "select", "form", "a", "br",
        "fb:like", "h1", "big", "small", "center"]
ATTRS = ['', ' style="display:none"', ' style="font-size:2em;font-weight:bold"', ' xmlns="urn:x"', ' a:b="1"',
         ' class="c"', ' hidden', ' colspan=2', ' size=+2', ' bgcolor=red', ' "q"=1', ' xmlns:p="u"',
         ' style="visibility:hidden"']
TEXT = st.text(alphabet=st.sampled_from(list("ab <>&;\"'=/\u00a0\x00\x01\u4e2d\ud800\ufffe-!")), max_size=6)
markup = st.lists(st.one_of(
    st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(TAGS), st.sampled_from(ATTRS)),
    st.builds(lambda t: f"</{t}>", st.sampled_from(TAGS)),
    st.just("<style>td{color:blue} .c{display:none} :hover{x:y} td>>p{}</style>"),
    st.just("<!-- c -->"), st.just("<!DOCTYPE html>"),
    TEXT,
), max_size=30).map("".join)


def _check(page_bytes: bytes) -> None:
    root = etree.fromstring(page_bytes)
    assert root.tag == "{" + XHTML_NS + "}html"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_any_bytes_clean_or_raise_a_pyxform_error(data: bytes) -> None:
    try:
        page = clean(data)
    except PyxformError:
        return
    _check(page.to_bytes())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markup, st.sampled_from(["utf-8", "utf-16-le", "gb18030", "windows-1252"]))
def test_any_markup_cleans_to_well_formed_xhtml(text: str, codec: str) -> None:
    data = text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")
    try:
        page = clean(data)
    except PyxformError:
        return
    _check(page.to_bytes())


@settings(max_examples=300, deadline=None)
@given(markup)
def test_fast_route_and_walk_build_the_same_tree(text: str) -> None:
    assert dump(parse_html(text).tree.getroot()) == dump(parse_html_slow(text).tree.getroot())
