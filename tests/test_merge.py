"""The merge rule (Zhang & Li 2007, section 4) as stylesheets/merge.xsl applies it."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from pyxform.runtime.runner import runner

from .xmlcompare import canonical


def merge(xml: str) -> str:
    run_on = runner()
    return run_on.serialize(run_on.run("merge", run_on.parse(xml)))


def same(xml: str, expected: str) -> bool:
    return canonical(merge(xml), ignore_px=False) == canonical(expected, ignore_px=False)


def test_the_papers_rule() -> None:
    assert same("<r><t1><t2>s2</t2></t1><t1><t3>s3</t3></t1></r>", "<r><t1><t2>s2</t2><t3>s3</t3></t1></r>")


def test_merging_is_recursive() -> None:
    assert same("<r><a><b><c>1</c></b></a><a><b><d>2</d></b></a><a><e>3</e></a></r>",
                "<r><a><b><c>1</c><d>2</d></b><e>3</e></a></r>")


def test_values_are_never_concatenated() -> None:
    assert same("<r><a>1</a><a>2</a></r>", "<r><a>1</a><a>2</a></r>")


def test_mixed_content_does_not_merge() -> None:
    assert same("<r><a>x<b>1</b></a><a><b>2</b></a></r>", "<r><a>x<b>1</b></a><a><b>2</b></a></r>")


def test_only_adjacent_siblings_merge() -> None:
    assert same("<r><a><x>1</x></a><b>2</b><a><y>3</y></a></r>", "<r><a><x>1</x></a><b>2</b><a><y>3</y></a></r>")


def test_keys_keep_different_records_apart_and_are_removed() -> None:
    source = ('<r xmlns:px="urn:pyxform"><total px:key="c1"><v px:key="c9@1">1</v></total>'
              '<total px:key="c2"><v px:key="c9@2">2</v></total>'
              '<total px:key="c2" px:label="Total"><w px:key="c8@2">3</w></total></r>')
    assert same(source, '<r xmlns:px="urn:pyxform"><total><v>1</v></total><total><v>2</v><w>3</w></total></r>')


def test_whitespace_between_elements_is_not_significant() -> None:
    assert same("<r>\n  <a><b>1</b></a>\n  <a><c>2</c></a>\n</r>", "<r><a><b>1</b><c>2</c></a></r>")


def test_first_elements_attributes_are_kept() -> None:
    assert same('<r><a n="1"><b>1</b></a><a n="2"><c>2</c></a></r>', '<r><a n="1"><b>1</b><c>2</c></a></r>')


# -- properties ---------------------------------------------------------------------------------------------------
_NAMES = st.sampled_from(["a", "b", "c"])


def _trees(depth: int) -> st.SearchStrategy[etree._Element]:
    leaf = st.builds(lambda name, text: _element(name, text, []), _NAMES, st.sampled_from(["1", "2", "x"]))
    if depth == 0:
        return leaf
    inner = st.builds(lambda name, children: _element(name, None, children), _NAMES,
                      st.lists(_trees(depth - 1), min_size=1, max_size=4))
    return st.one_of(leaf, inner)


def _element(name: str, text: str | None, children: list[etree._Element]) -> etree._Element:
    element = etree.Element(name)
    element.text = text
    element.extend(children)
    return element


def _leaves(root: etree._Element) -> list[tuple[str, str]]:
    return [("/".join(a.tag for a in reversed(list(e.iterancestors())) if a is not root) + "/" + e.tag, e.text or "")
            for e in root.iter() if len(e) == 0 and e is not root]


@settings(max_examples=150, deadline=None)
@given(st.lists(_trees(3), min_size=1, max_size=6))
def test_merge_keeps_every_value_in_order_and_leaves_nothing_to_merge(children: list[etree._Element]) -> None:
    root = _element("r", None, children)
    merged = etree.fromstring(merge(etree.tostring(root, encoding="unicode")).encode())
    assert _leaves(merged) == _leaves(root)
    for element in merged.iter():
        kids = list(element)
        for left, right in pairwise(kids):
            assert not (left.tag == right.tag and len(left) and len(right)), etree.tostring(merged)
    assert canonical(merge(etree.tostring(merged, encoding="unicode")), ignore_px=False) == canonical(
        etree.tostring(merged), ignore_px=False)
