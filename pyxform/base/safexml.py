"""Reading XML so that no entity, DTD or XInclude can reach a URI or blow up: the one lxml parser, and Saxon's.

pyxform reads XML in two places: lxml (libxml2) and Saxon's parser (the JDK's). Both are configured here:

- :func:`xml_parser` (lxml): the one parser configuration every lxml parse of pyxform uses (:func:`parse_xml` for
  pyxform's own results, :func:`parse_file` for stylesheets and catalogs): no DTD, no network, no entity.
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

import os
import re
from typing import Final

from lxml import etree

from .errors import BadXmlInput, InputNotFound

__all__ = ["xml_parser", "parse_xml", "parse_file", "parse_untrusted", "check_prolog", "serialize_root",
           "is_xml_text", "read_xml_input", "XML_TEXT", "SAXON_PARSER_LIMITS"]

_LINE_SUFFIX: Final = re.compile(r",? line \d+, column \d+$")
_PARSER_PROPERTY: Final = "http://saxon.sf.net/feature/parserProperty?uri="

#: Saxon configuration properties that lift the JDK XML parser limits meant for untrusted XML (value "0": none).
SAXON_PARSER_LIMITS: Final = {
    _PARSER_PROPERTY + "jdk.xml.maxElementDepth": "0",
    _PARSER_PROPERTY + "jdk.xml.elementAttributeLimit": "0",
    _PARSER_PROPERTY + "jdk.xml.maxXMLNameLimit": "0",
}


def xml_parser(**options: bool) -> etree.XMLParser:
    """The one lxml parser configuration of pyxform: no entity substituted, no DTD loaded, no network, large
    documents allowed (``huge_tree``). A new parser per call (lxml parsers are not to be shared between threads).

    :param options: further ``etree.XMLParser`` switches (``remove_comments=True``, ...); the four above cannot be
        turned off.
    """
    return etree.XMLParser(**{**options, "resolve_entities": False, "no_network": True, "load_dtd": False,
                              "huge_tree": True})


def parse_xml(data: bytes | str) -> etree._Element:
    """Parse XML that pyxform wrote itself (a stylesheet's result, a stage's output) with :func:`xml_parser`; XML
    from outside goes through :func:`parse_untrusted`.

    :raises lxml.etree.XMLSyntaxError: the text is not well-formed.
    """
    return etree.fromstring(data.encode("utf-8") if isinstance(data, str) else data, xml_parser())


def parse_file(path: str | os.PathLike[str]) -> etree._Element:
    """The root element of an XML file (a stylesheet, a catalog, a schema), parsed with :func:`xml_parser`.

    :raises OSError: the file cannot be read. :raises lxml.etree.XMLSyntaxError: it is not well-formed.
    """
    return etree.parse(os.fspath(path), xml_parser()).getroot()


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
        root = etree.fromstring(raw, xml_parser())
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


#: How errors name an XML input given as text (not a file).
XML_TEXT: Final = "<XML text>"


def is_xml_text(value: object) -> bool:
    """The one rule for an XML input given as a ``str`` (``validate``, ``generate_schema``, ``query``, a pipeline's
    XML input): XML text when its first character after white space is ``<`` (no file name pyxform reads starts so),
    else a path."""
    return isinstance(value, str) and value.lstrip().startswith("<")


def read_xml_input(document: bytes | str | os.PathLike[str], *, what: str = "document") -> tuple[bytes, str | None]:
    """The bytes of an XML input and its name: ``bytes`` and XML text (:func:`is_xml_text`) are the XML itself (no
    name), any other ``str`` and an ``os.PathLike`` name a file, which is read.

    :param what: what the input is, for messages (``document``, ``schema``).
    :raises InputNotFound: the file cannot be read (naming it and the system's reason).
    """
    if isinstance(document, (bytes, bytearray, memoryview)):
        return bytes(document), None
    if is_xml_text(document):
        return str(document).encode("utf-8"), None
    path = os.fspath(document)
    try:
        with open(path, "rb") as stream:
            return stream.read(), path
    except FileNotFoundError:
        raise InputNotFound(f"no such {what} file", location=path) from None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise InputNotFound(f"cannot read the {what}: {reason}", location=path) from None


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
