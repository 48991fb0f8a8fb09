"""Stage 1, clean: page bytes -> annotated XHTML (see ``docs/formats.md`` section 1).

PROVISIONAL: a minimal version (UTF-8 decoding, HTML5 parse, table annotations) that the foundation work replaces with
WHATWG encoding sniffing, pruning of hidden content and per-cell formatting features.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from .parse import XHTML_NS, parse_html

__all__ = ["CleanedPage", "clean", "PX_NS"]

PX_NS = "urn:pyxform"
_PX = "{" + PX_NS + "}"
_X = "{" + XHTML_NS + "}"


@dataclass
class CleanedPage:
    """The annotated XHTML of one page.

    :ivar tree: lxml tree rooted at ``{http://www.w3.org/1999/xhtml}html``.
    :ivar encoding: the encoding used to decode the bytes.
    :ivar warnings: problems met and repaired (e.g. undecodable bytes replaced).
    """

    tree: etree._ElementTree
    encoding: str
    encoding_source: str
    source: str = ""
    warnings: list[str] = field(default_factory=list)

    def to_bytes(self) -> bytes:
        """Serialize as UTF-8 XML (no XML declaration, no DTD)."""
        return etree.tostring(self.tree, encoding="utf-8")


def locator(element: etree._Element) -> str:
    """An XPath 1.0 path to ``element`` with unprefixed HTML names: ``/html/body/div[2]/table[1]``."""
    steps = []
    node: etree._Element | None = element
    while node is not None:
        parent = node.getparent()
        name = etree.QName(node).localname
        if parent is None:
            steps.append(name)
        else:
            position = 1 + sum(1 for sibling in node.itersiblings(node.tag, preceding=True))
            steps.append(f"{name}[{position}]")
        node = parent
    return "/" + "/".join(reversed(steps))


def clean(data: bytes | str, *, source: str = "") -> CleanedPage:
    """Clean one page into annotated XHTML. PROVISIONAL minimal version."""
    if isinstance(data, bytes):
        text, encoding, encoding_source = data.decode("utf-8", "replace"), "utf-8", "default"
    else:
        text, encoding, encoding_source = data, "utf-8", "caller"
    tree = parse_html(text)
    root = tree.getroot()
    root.set(_PX + "source", source)
    root.set(_PX + "encoding", encoding)
    root.set(_PX + "encoding-source", encoding_source)
    title = root.find(f"{_X}head/{_X}title")
    root.set(_PX + "title", " ".join((title.text or "").split()) if title is not None else "")
    for index, table in enumerate(root.iter(_X + "table")):
        table.set(_PX + "index", str(index))
        table.set(_PX + "locator", locator(table))
        table.set(_PX + "depth", str(sum(1 for a in table.iterancestors(_X + "table"))))
    return CleanedPage(tree=tree, encoding=encoding, encoding_source=encoding_source, source=source)
