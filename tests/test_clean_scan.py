"""clean's scan takes the links' targets of a page without ``area`` elements from one XPath query over the ``a``
elements (``_A_HREFS``): they must be what the walk over ``a`` and ``area`` elements gives (``_hrefs``)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pyxform.stages.clean import _hrefs, _scan
from pyxform.stages.clean.parse import parse_html

HREF = st.sampled_from(["", " ", "\t/x\n", "/a", "b c", "\u00a0d\u00a0", "\x0c", "#", "é"])
LINK = st.one_of(
    st.builds(lambda tag, href: f"<{tag} href='{href}'>t</{tag}>", st.sampled_from(["a", "area", "link", "base"]),
              HREF),
    st.sampled_from(["<a>no</a>", "<svg><a href='/svg'>s</a></svg>", "<math><a href='/m'>m</a></math>",
                     "<table><tr><td><a href='/c'>c</a>", "<noscript><a href='/n'>n</a></noscript>",
                     "<map><area href=' /ar '></map>", "<p>x</p>", "<a href='/o'><b><a href='/i'>i</a></b></a>"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(LINK, max_size=12).map("".join))
@example("<a href=' /a '>a</a><map><area href='/b'></map><a href='/c'>c</a>")
def test_the_links_of_the_scan_are_those_of_the_walk(page: str) -> None:
    """With and without ``area`` elements, ``PageLinks.hrefs`` is the walk's list."""
    root = parse_html(page).tree.getroot()
    _tables, links, _noscripts, _titles = _scan(root, 1000)
    assert links.hrefs == tuple(_hrefs(root))
