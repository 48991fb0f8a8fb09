"""Reading XML that a user or a page supplies, so that no entity, DTD or XInclude can reach a URI or blow up.

pyxform reads XML in two places: lxml (libxml2) and Saxon's parser (the JDK's). Both are configured here:

- :func:`parse_untrusted` (lxml): no DTD loaded, no network, no entity substituted; a document that still holds an
  entity reference (an entity of its internal subset, or one that only an external DTD could define) is refused with
  :class:`~pyxform.base.errors.BadXmlInput`, and libxml2 refuses entity amplification ("billion laughs") itself. XInclude
  is never processed (``xi:include`` stays an element).
- :func:`check_prolog` (before Saxon parses text): a document type declaration is refused, so Saxon's parser never
  sees a DTD: no internal entity is expanded, no external DTD or entity is fetched (the runtimes are also locked,
  ``allowedProtocols`` empty, see :mod:`pyxform.runtime.saxon`).
- :data:`SAXON_PARSER_LIMITS`: the JDK's parser limits (JDK 24 lowered ``maxElementDepth`` to 100 and
  ``elementAttributeLimit`` to 200) would refuse real pages (unclosed ``font`` tags nest deep); Saxon gets them
  lifted, since the text it parses is either pyxform's own XHTML or was checked by :func:`parse_untrusted`.
  The entity limits stay at the JDK's defaults.
"""

from __future__ import annotations

import re
from typing import Final

from lxml import etree

from .errors import BadXmlInput

__all__ = ["parse_untrusted", "check_prolog", "serialize_root", "SAXON_PARSER_LIMITS"]

_LINE_SUFFIX: Final = re.compile(r",? line \d+, column \d+$")
_PARSER_PROPERTY: Final = "http://saxon.sf.net/feature/parserProperty?uri="

#: Saxon configuration properties that lift the JDK XML parser limits meant for untrusted XML (value "0": none).
SAXON_PARSER_LIMITS: Final = {
    _PARSER_PROPERTY + "jdk.xml.maxElementDepth": "0",
    _PARSER_PROPERTY + "jdk.xml.elementAttributeLimit": "0",
    _PARSER_PROPERTY + "jdk.xml.maxXMLNameLimit": "0",
}


def _parser() -> etree.XMLParser:
    # One parser per call: lxml parsers are not thread-safe.
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True,
                           remove_blank_text=False)


def parse_untrusted(data: bytes | str, *, what: str = "document", location: str | None = None) -> etree._Element:
    """Parse XML from outside (a user's file, a grid document) with lxml, safely.

    :param data: the XML (bytes in any encoding its declaration names, or text).
    :param what: what the document is, for messages (``"grid document"``, ``"document"``).
    :param location: where it comes from (a path), for messages.
    :returns: the root element. The document's DTD, if it has one without entities, is ignored.
    :raises BadXmlInput: the text is not well-formed XML (with line and column), or uses an entity (entities are
        never expanded, so the document cannot be read as its author meant), or libxml2 refused an entity
        amplification.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        root = etree.fromstring(raw, _parser())
    except etree.XMLSyntaxError as error:
        message = _LINE_SUFFIX.sub("", error.msg or str(error))
        where = f" (line {error.lineno}, column {error.offset})" if error.lineno else ""
        raise BadXmlInput(f"the {what} is not well-formed XML: {message}{where}", location=location) from None
    if root is None:
        raise BadXmlInput(f"the {what} is empty", location=location)
    entity = next(root.iter(etree.Entity), None)
    if entity is not None:
        raise BadXmlInput(f"the {what} uses the entity reference {entity.text} on line {entity.sourceline}: pyxform "
                          "expands no entity and reads no DTD (write the character itself)", location=location)
    return root


def serialize_root(root: etree._Element) -> str:
    """The root element as XML text, without the document type declaration and prolog (for Saxon)."""
    return etree.tostring(root, encoding="unicode")


def _skip_prolog(text: str) -> int:
    """Index of the first markup in ``text`` that is not white space, the XML declaration, a PI or a comment."""
    i, n = 0, len(text)
    while i < n:
        if text[i] in " \t\r\n\ufeff":
            i += 1
        elif text.startswith("<?", i):
            end = text.find("?>", i + 2)
            if end < 0:
                return i
            i = end + 2
        elif text.startswith("<!--", i):
            end = text.find("-->", i + 4)
            if end < 0:
                return i
            i = end + 3
        else:
            return i
    return i


def check_prolog(text: str, *, location: str | None = None) -> None:
    """Refuse a document type declaration before Saxon's parser sees the text.

    :raises BadXmlInput: the text declares a document type (its internal subset could declare entities, its external
        subset would be fetched).
    """
    start = _skip_prolog(text)
    if text[start:start + 9].upper() == "<!DOCTYPE":
        raise BadXmlInput("the document has a document type declaration (DTD): pyxform reads no DTD and expands no "
                          "entity", location=location)
