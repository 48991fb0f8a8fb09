"""XSD generation for pyxform output, and validation with line-numbered errors.

:func:`generate_schema` runs ``stylesheets/schema.xsl`` (element names, nesting, repetition and simple types inferred
from the document, see that file's opening comment). :func:`validate` checks a document against an XSD 1.0 schema
with libxml2 (through lxml) and raises :class:`~pyxform.base.errors.ValidationError` listing ``(line, message)`` pairs.
Neither reads a DTD, resolves an external entity or touches the network.
"""

from __future__ import annotations

import os

from lxml import etree

from ..base.errors import ValidationError
from ..base.safexml import parse_untrusted, read_xml_input, serialize_root, xml_parser
from ..runtime.runner import runner

__all__ = ["generate_schema", "validate", "MAX_REPORTED_ERRORS"]

#: At most this many errors are listed in a ValidationError (the message gives the total).
MAX_REPORTED_ERRORS = 100

XmlInput = bytes | str | os.PathLike[str]


def _parse(data: bytes, *, what: str, location: str | None) -> etree._ElementTree:
    try:
        root = etree.fromstring(data, xml_parser())
    except etree.XMLSyntaxError as error:
        line = error.lineno if error.lineno else None
        raise ValidationError(f"the {what} is not well-formed XML: {error.msg}",
                              errors=[(line, error.msg)], location=location) from None
    entity = next(root.iter(etree.Entity), None)
    if entity is not None:
        message = f"entity reference {entity.text} (entities are not expanded)"
        raise ValidationError(f"the {what} uses an {message}", errors=[(entity.sourceline, message)],
                              location=location)
    return etree.ElementTree(root)


def generate_schema(document: XmlInput) -> str:
    """Generate an XSD 1.0 schema (text) for a pyxform output document.

    :param document: the output XML as bytes or text, or a path to it (``os.PathLike``, or a ``str`` that is not XML
        text: :func:`pyxform.base.safexml.is_xml_text`, the rule ``query`` follows too).
    :returns: the XSD, UTF-8 text with an XML declaration. The document validates against it.
    :raises InputNotFound: a path that cannot be read.
    :raises BadXmlInput: the document is not well-formed, or uses entities (none is expanded, no DTD is read).
    :raises StylesheetError: the document element is in a namespace.
    """
    data, location = read_xml_input(document)
    root = parse_untrusted(data, location=location)
    run_on = runner()
    node = run_on.parse(serialize_root(root), location=location)
    return run_on.run_to_string("schema", node, location=location)


def validate(document: XmlInput, schema: XmlInput | None = None) -> None:
    """Validate an XML document against an XSD 1.0 schema.

    :param document: the XML as bytes or text, or a path to it (as :func:`generate_schema`).
    :param schema: the XSD as bytes or text, or a path to it (the same rule); ``None``: a schema generated from the document itself
        (:func:`generate_schema`), which checks that the document is well-formed and that the generator covers it.
    :raises ValidationError: the document is not well-formed or not valid; ``errors`` lists ``(line, message)``
        (at most :data:`MAX_REPORTED_ERRORS`), ``location`` names the document.
    :raises InputNotFound: a path that cannot be read.
    """
    data, location = read_xml_input(document)
    tree = _parse(data, what="document", location=location)
    if schema is None:
        xsd_data, xsd_location = generate_schema(data).encode("utf-8"), "generated schema"
    else:
        xsd_data, xsd_location = read_xml_input(schema, what="schema")
    xsd_tree = _parse(xsd_data, what="schema", location=xsd_location)
    try:
        xml_schema = etree.XMLSchema(xsd_tree)
    except etree.XMLSchemaParseError as error:
        entries = [(entry.line or None, entry.message) for entry in error.error_log]  # type: ignore[attr-defined]
        raise ValidationError(f"the schema is not a valid XSD 1.0 schema: {error}",
                              errors=entries[:MAX_REPORTED_ERRORS], location=xsd_location) from None
    if xml_schema.validate(tree):
        return
    entries = [(entry.line or None, entry.message) for entry in xml_schema.error_log]
    first_line, first_message = entries[0]
    where = f"line {first_line}: " if first_line else ""
    raise ValidationError(f"{len(entries)} validation error(s); first: {where}{first_message}",
                          errors=entries[:MAX_REPORTED_ERRORS], location=location)
