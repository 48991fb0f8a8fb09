"""The shortcuts taken for speed give the same results as the plain way: normalizing only the top-level tables
(``CleanedPage.tables_to_bytes``) gives the grid of the whole annotated page, and a grid document read lazily
(``GridDocument.from_xml``) holds the model that ``read_grid_xml`` reads. ``bench/check_outputs.py`` checks the same
on the whole corpus before and after a change."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyxform.stages.clean import clean
from pyxform.stages.normalize import GridDocument, Normalizer, grid, read_grid_xml

from .conftest import CASES

CASE_PAGES = sorted(CASES.glob("*/input.html"))

# Tables in odd places: nested (in a cell and in a caption), hidden by CSS (kept, marked), inside other elements,
# after the body's end, with a tfoot before the body rows, in a form, and an svg holding text that is no table.
ODD_PLACES = """<!DOCTYPE html><html><head><title>odd &amp; "places"</title>
<style>.gone { display: none }</style></head><body>
<h2>First</h2><div><div><table><caption>c<table><tr><td>in caption</table></caption>
<tr><th>a<td>b<table id=n><tr><td rowspan=2>x<td>y<tr><td>z</table></table></div></div>
<div class=gone><table><tr><td>hidden</table></div>
<form><table><tfoot><tr><td>foot</tfoot><tbody><tr><td colspan=2>body</tbody></table></form>
<svg><text>no table</text></svg><p>text between</p></body></html>
<table><tr><td>after the body</table>"""


def _grid_xml(normalizer: Normalizer, xhtml: bytes) -> str:
    return normalizer.normalize(xhtml).xml


@pytest.mark.parametrize("html", [path.read_bytes() for path in CASE_PAGES] + [ODD_PLACES.encode()],
                         ids=[path.parent.name for path in CASE_PAGES] + ["odd-places"])
def test_the_tables_alone_give_the_grid_of_the_whole_page(html: bytes, normalizer: Normalizer) -> None:
    page = clean(html)
    whole = _grid_xml(normalizer, page.to_bytes())
    assert whole.count("<px:table ") >= 1
    assert _grid_xml(normalizer, page.tables_to_bytes()) == whole


def test_the_tables_alone_keep_the_page_attributes_and_every_table() -> None:
    page = clean(ODD_PLACES.encode())
    from lxml import etree

    reduced = etree.fromstring(page.tables_to_bytes())
    root = page.tree.getroot()
    assert dict(reduced.attrib) == dict(root.attrib)
    assert reduced.get("{urn:pyxform}title") == 'odd & "places"'
    x = "{http://www.w3.org/1999/xhtml}"
    assert [t.get("{urn:pyxform}index") for t in reduced.iter(x + "table")] == \
        [t.get("{urn:pyxform}index") for t in root.iter(x + "table")] == [str(n) for n in range(6)]
    assert all(child.tag == x + "table" and child.get("{urn:pyxform}depth") == "0" for child in reduced)


def test_a_lazy_grid_document_reads_the_same_model(normalizer: Normalizer) -> None:
    document = grid(ODD_PLACES.encode(), normalizer=normalizer)
    assert "not read yet" in repr(document)
    eager = read_grid_xml(document.xml)
    assert document.tables == eager.tables and len(document.tables) == 6
    assert (document.failures, document.source, document.title, document.encoding) == \
        (eager.failures, eager.source, eager.title, eager.encoding) == ((), "", 'odd & "places"', "utf-8")
    assert document.table(2).grid[0][0].text == "x" and document.table(2).parent_table == 0
    assert document.table(3).grid[0][0].text == "hidden"
    assert "not read yet" not in repr(document)


def test_an_eager_grid_document_is_still_built_from_its_parts() -> None:
    document = GridDocument(tables=(), source="s", title="t", encoding="utf-8", xml="<x/>")
    assert (document.tables, document.failures, document.source, document.title, document.xml) == \
        ((), (), "s", "t", "<x/>")


def test_a_page_without_tables_is_still_an_error(normalizer: Normalizer) -> None:
    from pyxform.base.errors import NoTableError

    with pytest.raises(NoTableError):
        grid(b"<p>no table here</p>", normalizer=normalizer)
    with pytest.raises(NoTableError):
        grid(ODD_PLACES.encode(), table=99, normalizer=normalizer)


def test_cases_are_present() -> None:
    assert len(CASE_PAGES) >= 11 and all(isinstance(path, Path) for path in CASE_PAGES)


def test_the_conversion_pipeline_gives_the_same_output_with_the_whole_page(tmp_path: Path, monkeypatch) -> None:
    # With keep_stages the clean step's result is written out, so the pipeline hands Saxon the whole page; without,
    # only the tables. Both must convert the same, and the dump must be the whole annotated page.
    from pyxform.stages.clean import CleanedPage
    from pyxform.api.pipeline import CONVERSION

    calls: list[str] = []
    for method in ("to_bytes", "_tables_to_bytes_in_order"):  # the latter: the tables-only hand-off
        original = getattr(CleanedPage, method)
        monkeypatch.setattr(CleanedPage, method,
                            lambda self, *args, _original=original, _name=method, **options: calls.append(_name)
                            or _original(self, *args, **options))
    fast = CONVERSION.run(ODD_PLACES.encode())
    assert calls == ["_tables_to_bytes_in_order"]
    whole = CONVERSION.run(ODD_PLACES.encode(), keep_stages=tmp_path)
    assert calls == ["_tables_to_bytes_in_order", "to_bytes"]
    assert fast.to_bytes() == whole.to_bytes()
    assert b"in caption" in fast.to_bytes() and b"after the body" in fast.to_bytes()
    dumped = (tmp_path / "00-clean.xhtml").read_text(encoding="utf-8")
    assert "text between" in dumped and "<svg" in dumped


_UNREAD = ("title", "style", "srcset", "align", "width", "bgcolor")  # some of clean's _UNREAD_ATTRIBUTES
_attribute = st.tuples(st.sampled_from(_UNREAD + ("class", "href", "colspan", "alt", "xtitle", "data-x", "span")),
                       st.text(alphabet='ab "<>&=\n', max_size=6))
# Cell content that reads like an unread attribute (text and attribute values: ' title="x"'), and elements with them.
_content = st.lists(st.one_of(
    st.sampled_from([' title="x"', ' style="a" >', 'x title="y"<', "plain", "&gt;", '"']),
    st.tuples(st.sampled_from(["span", "a", "img", "b", "svg"]), st.lists(_attribute, max_size=3)).map(
        lambda pair: f"<{pair[0]}" + "".join(f" {name}='{html.escape(value)}'" for name, value in pair[1])
        + ">t" + ("" if pair[0] == "img" else f"</{pair[0]}>"))), max_size=5).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(_attribute, max_size=3), _content), min_size=1, max_size=4))
def test_the_spent_tables_leave_out_only_attributes_normalize_does_not_read(cells: list) -> None:
    # tables_to_bytes(spend=True) leaves out the title, style, srcset (...) attributes of the tables' elements
    # (normalize reads none of them): every element, text and other attribute is the whole page's.
    page = "<table title=t style=s>" + "".join(
        "<tr><td" + "".join(f" {name}='{html.escape(value)}'" for name, value in attributes) + f">{content}"
        for attributes, content in cells) + "</table><p title=p>after</p>"
    from lxml import etree

    cleaned = clean(page)
    whole = etree.fromstring(cleaned.tables_to_bytes())
    expected = [(e.tag, e.text, e.tail, {k: v for k, v in e.attrib.items() if k not in _UNREAD})
                for table in whole for e in table.iter()]
    reduced = etree.fromstring(cleaned.tables_to_bytes(spend=True))
    assert [(e.tag, e.text, e.tail, dict(e.attrib)) for table in reduced for e in table.iter()] == expected
    assert dict(reduced.attrib) == dict(whole.attrib)


def test_the_spent_tables_give_the_grid_of_the_whole_page(normalizer: Normalizer) -> None:
    page = clean("""<table title="t" style="color:red" data-sort="1"><tr><th title='a"b' style="x">h<td srcset="a 1x"
        data-v=2>x title="y" &gt; <img src=i title=t srcset="s 2x" alt=a> style="z"<a href=u title=l>l</a></table>""")
    whole = _grid_xml(normalizer, page.to_bytes())
    spent = page.tables_to_bytes(spend=True)
    assert b'style="color' not in spent and b" srcset=" not in spent and b'title="l' not in spent
    assert b' title="y"' in spent and b' style="z"' in spent  # text, not attributes
    assert _grid_xml(normalizer, spent) == whole
