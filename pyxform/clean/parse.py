"""HTML5 parsing: decoded page text -> lxml tree of XHTML elements.

The tree is built by Lexbor (through ``selectolax``), a C implementation of the WHATWG HTML tree construction
algorithm (implied ``tbody``, unclosed ``tr``/``td``, misnested formatting elements, foster parenting), and copied
into an lxml tree whose element names are in the XHTML namespace.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["XHTML_NS", "parse_html"]

XHTML_NS = "http://www.w3.org/1999/xhtml"
_XHTML = "{" + XHTML_NS + "}"
_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")
# Characters XML 1.0 does not allow (C0 controls other than tab, LF, CR; surrogates; U+FFFE/U+FFFF).
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML_CHAR.sub("\ufffd", text) if _NOT_XML_CHAR.search(text) else text


def parse_html(text: str) -> etree._ElementTree:
    """Parse ``text`` as an HTML5 document and return an lxml tree rooted at ``{XHTML}html``.

    Comments and doctype are not copied. Attributes whose names are not XML names are dropped; characters XML does not
    allow become U+FFFD. Never raises on bad markup (HTML5 parsing has no errors that stop it).
    """
    from selectolax.lexbor import LexborHTMLParser

    document = LexborHTMLParser(text)
    builder = etree.TreeBuilder()
    namespaces = {None: XHTML_NS, "px": "urn:pyxform"}
    stack: list[tuple[object, bool]] = [(document.root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            builder.end(_XHTML + node.tag)  # type: ignore[attr-defined]
            continue
        if node.is_element_node:  # type: ignore[attr-defined]
            tag = node.tag  # type: ignore[attr-defined]
            if not _XML_NAME.match(tag):
                continue
            attributes = {
                name: _xml_text(value or "")
                for name, value in node.attributes.items()  # type: ignore[attr-defined]
                if name and _XML_NAME.match(name) and name != "xmlns"
            }
            builder.start(_XHTML + tag, attributes, namespaces)
            stack.append((node, True))
            children = []
            child = node.child  # type: ignore[attr-defined]
            while child is not None:
                children.append(child)
                child = child.next
            stack.extend((child, False) for child in reversed(children))
        elif node.is_text_node:  # type: ignore[attr-defined]
            builder.data(_xml_text(node.text_content or ""))  # type: ignore[attr-defined]
    root = builder.close()
    return etree.ElementTree(root)
