"""XPath 3.1 and XQuery 3.1 over pyxform output: Saxon-HE for files and folders, elementpath for lxml trees.

:func:`query` evaluates an expression over one XML file or over every ``*.xml`` file of a folder (a collection). The
documents are read and parsed by Python and handed to Saxon in memory; the query processor itself is locked like the
pipeline's (Saxon's ``allowedProtocols`` is empty), so an expression cannot open any URI: ``doc()``,
``collection('uri')``, ``unparsed-text()`` and the like fail. What the expression sees instead:

- the context item: the document, when the target is one file (absent for a folder);
- ``collection()`` (no argument) and the variable ``$collection``: the documents of the target, folder files in name
  order, each with its file URI as base URI.

:func:`xpath` evaluates XPath 3.1 with the pure-Python elementpath on an lxml tree (no Saxon).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from .errors import BadXmlInput, InputNotFound, QueryError
from .safexml import SAXON_PARSER_LIMITS, parse_untrusted, serialize_root
from .saxon import _ALLOWED_PROTOCOLS

__all__ = ["QueryItem", "QueryResult", "query", "xpath", "documents_of", "DEFAULT_NAMESPACES"]

#: Namespace prefixes every expression may use without declaring them.
DEFAULT_NAMESPACES: dict[str, str] = {"px": "urn:pyxform"}

_COLLECTION_VARIABLE = "collection"
_XQUERY_PROLOG_HEAD = re.compile(
    r"""\A(?:\s+|\(:(?:(?!:\)).)*:\)                         # white space and comments
        |xquery\s+(?:version|encoding)\b[^;]*;                # version declaration
        |declare\s+(?:namespace|default|boundary-space|base-uri|construction|ordering|copy-namespaces
                     |decimal-format)\b[^;]*;                 # setters and namespace declarations
        |import\s+(?:schema|module)\b[^;]*;                   # imports
        )*""",
    re.VERBOSE | re.DOTALL)


@dataclass(frozen=True)
class QueryItem:
    """One item of a query result.

    :ivar kind: ``element``, ``attribute``, ``text``, ``document``, ``comment``, ``processing-instruction``,
        ``namespace`` for nodes; ``atomic``; ``map``, ``array`` or ``function`` otherwise.
    :ivar xml: the item serialized: nodes as XML, atomic values as their string value.
    :ivar text: the item's string value (for maps, arrays and functions, their serialization).
    """

    kind: str
    xml: str
    text: str


@dataclass(frozen=True)
class QueryResult:
    """The items an expression returned, in order."""

    items: tuple[QueryItem, ...]

    def __len__(self) -> int:
        return len(self.items)

    def lines(self, *, text: bool = False) -> list[str]:
        """One string per item: its XML (nodes) or its value (atomic values); with ``text``, string values only."""
        return [item.text if text else item.xml for item in self.items]

    def values(self) -> list[str]:
        """The string value of each item."""
        return [item.text for item in self.items]


class _QueryProcessor:
    """A Saxon processor for queries, locked (no URI access) from the start."""

    def __init__(self) -> None:
        from saxonche import PySaxonProcessor

        self.processor = PySaxonProcessor(license=False)
        for name, value in SAXON_PARSER_LIMITS.items():
            self.processor.set_configuration_property(name, value)
        self.processor.set_configuration_property(_ALLOWED_PROTOCOLS, "")
        self.lock = threading.Lock()


_processor: _QueryProcessor | None = None
_processor_lock = threading.Lock()


def _query_processor() -> _QueryProcessor:
    global _processor
    if _processor is None:
        with _processor_lock:
            if _processor is None:
                _processor = _QueryProcessor()
    return _processor


def documents_of(target: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The XML files a query target names: a file, a folder (its ``*.xml`` files, sorted by name, not recursive) or
    a list of files.

    :raises InputNotFound: a path that does not exist, or a folder without XML files.
    """
    if isinstance(target, (str, os.PathLike)):
        path = Path(target)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
            if not files:
                raise InputNotFound("the folder holds no .xml file", location=str(path))
            return files
        if not path.is_file():
            raise InputNotFound("no such file or folder", location=str(path))
        return [path]
    paths = [Path(p) for p in target]
    for path in paths:
        if not path.is_file():
            raise InputNotFound("no such file", location=str(path))
    return paths


def _load(processor: Any, path: Path) -> Any:
    """Parse one file with lxml (no DTD, no entities, no network: :func:`pyxform.safexml.parse_untrusted`) and give
    its root element (without DTD) to Saxon with the file's URI as base URI."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputNotFound(f"cannot read the document: {error.strerror or error}", location=str(path)) from None
    try:
        text = serialize_root(parse_untrusted(data, location=str(path)))
    except BadXmlInput as error:
        raise QueryError(f"cannot read the document: {error.message}", location=str(path)) from None
    builder = processor.new_document_builder()
    builder.set_base_uri(path.resolve().as_uri())
    try:
        return builder.parse_xml(xml_text=text)
    except Exception as error:  # saxonche's PySaxonApiError
        raise QueryError(f"cannot read the document: {' '.join(str(error).split())}", location=str(path)) from None


def rewrite_collection_calls(expression: str) -> str:
    """Replace each ``collection()`` / ``fn:collection()`` call without argument by ``$collection``, outside string
    literals and comments."""
    out: list[str] = []
    i = 0
    call = re.compile(r"(?<![\w.:$-])(?:fn:)?collection\s*\(\s*\)")
    while i < len(expression):
        ch = expression[i]
        if ch in "\"'":
            end = i + 1
            while end < len(expression):
                if expression[end] == ch:
                    if end + 1 < len(expression) and expression[end + 1] == ch:  # doubled quote escapes
                        end += 2
                        continue
                    break
                end += 1
            out.append(expression[i:end + 1])
            i = end + 1
        elif expression.startswith("(:", i):
            depth, end = 1, i + 2
            while end < len(expression) and depth:
                if expression.startswith("(:", end):
                    depth, end = depth + 1, end + 2
                elif expression.startswith(":)", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
            out.append(expression[i:end])
            i = end
        else:
            match = call.match(expression, i)
            if match and (i == 0 or not re.match(r"[\w.:$-]", expression[i - 1])):
                out.append("$" + _COLLECTION_VARIABLE)
                i = match.end()
            else:
                out.append(ch)
                i += 1
    return "".join(out)


def _item(item: Any) -> QueryItem:
    if item.is_node:
        kind = item.node_kind_str
        if kind in ("element", "document", "comment", "processing-instruction"):
            return QueryItem(kind, item.to_string(), item.string_value)
        if kind == "attribute":
            return QueryItem(kind, str(item), item.string_value)
        return QueryItem(kind, item.string_value, item.string_value)
    if item.is_atomic:
        value = item.string_value
        return QueryItem("atomic", value, value)
    kind = "map" if item.is_map else "array" if item.is_array else "function"
    return QueryItem(kind, str(item), str(item))


def query(target: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], expression: str, *,
          xquery: bool = False, namespaces: Mapping[str, str] | None = None) -> QueryResult:
    """Evaluate an XPath 3.1 (or, with ``xquery``, XQuery 3.1) expression with Saxon-HE over XML files.

    :param target: one XML file (the context item and the collection), a folder (its ``*.xml`` files are the
        collection; no context item) or a list of files.
    :param expression: the expression. ``collection()`` and ``$collection`` are the target's documents; prefix
        ``px`` is bound to ``urn:pyxform``; more prefixes via ``namespaces`` (XPath) or the query prolog (XQuery).
    :returns: a :class:`QueryResult`.
    :raises InputNotFound: the target does not exist.
    :raises QueryError: a document is not well-formed, or the expression fails to compile or to run (Saxon's error
        code and message).
    """
    paths = documents_of(target)
    single = isinstance(target, (str, os.PathLike)) and not Path(target).is_dir()
    bound = {**DEFAULT_NAMESPACES, **(namespaces or {})}
    runner = _query_processor()
    with runner.lock:
        processor = runner.processor
        documents = [_load(processor, path) for path in paths]
        collection = processor.empty_sequence()
        for document in documents:
            collection.add_xdm_item(document)
        rewritten = rewrite_collection_calls(expression)
        try:
            if xquery:
                result = _run_xquery(processor, rewritten, documents[0] if single else None, collection, bound)
            else:
                result = _run_xpath(processor, rewritten, documents[0] if single else None, collection, bound)
        except QueryError:
            raise
        except Exception as error:  # saxonche raises PySaxonApiError
            message = " ".join(str(error).split())
            if ("XPDY0002" in message or "context item is absent" in message) and not single:
                message += " (over a folder there is no context item: start from collection() or $collection)"
            raise QueryError(message, location=str(target) if single else None) from None
    items = tuple(_item(result.item_at(i)) for i in range(result.size)) if result is not None else ()
    return QueryResult(items)


def _run_xpath(processor: Any, expression: str, context: Any, collection: Any, namespaces: Mapping[str, str]) -> Any:
    xpath_processor = processor.new_xpath_processor()
    xpath_processor.set_language_version("3.1")
    for prefix, uri in namespaces.items():
        xpath_processor.declare_namespace(prefix, uri)
    xpath_processor.declare_variable(_COLLECTION_VARIABLE)
    xpath_processor.set_parameter(_COLLECTION_VARIABLE, collection)
    if context is not None:
        xpath_processor.set_context(xdm_item=context)
    return xpath_processor.evaluate(expression)


def _run_xquery(processor: Any, query_text: str, context: Any, collection: Any, namespaces: Mapping[str, str]) -> Any:
    head = _XQUERY_PROLOG_HEAD.match(query_text)
    cut = head.end() if head else 0
    declarations = "".join(f'declare namespace {prefix} = "{uri}";\n' for prefix, uri in namespaces.items()
                           if not re.search(rf"declare\s+namespace\s+{re.escape(prefix)}\s*=", query_text))
    text = (query_text[:cut] + declarations + f"declare variable ${_COLLECTION_VARIABLE} external;\n"
            + query_text[cut:])
    xquery_processor = processor.new_xquery_processor()
    xquery_processor.set_parameter(_COLLECTION_VARIABLE, collection)
    if context is not None:
        xquery_processor.set_context(xdm_item=context)
    xquery_processor.set_query_content(text)
    return xquery_processor.run_query_to_value()


def xpath(node: etree._Element | etree._ElementTree, expression: str, *,
          namespaces: Mapping[str, str] | None = None, variables: Mapping[str, Any] | None = None) -> list[Any]:
    """Evaluate an XPath 3.1 expression on an lxml tree with elementpath (pure Python, no Saxon).

    :param node: the context: an lxml element or tree (e.g. :meth:`pyxform.convert.Conversion.tree`).
    :param namespaces: prefixes for the expression, besides ``px`` (``urn:pyxform``).
    :param variables: values of ``$name`` variables.
    :returns: the result sequence as a list (lxml elements, attribute values, Python numbers and strings, ...).
    :raises QueryError: the expression does not compile or fails.
    """
    import elementpath
    from elementpath.xpath31 import XPath31Parser

    try:
        result = elementpath.select(node, expression, namespaces={**DEFAULT_NAMESPACES, **(namespaces or {})},
                                    variables=dict(variables or {}), parser=XPath31Parser)
    except elementpath.ElementPathError as error:
        raise QueryError(str(error)) from None
    return result if isinstance(result, list) else [result]
