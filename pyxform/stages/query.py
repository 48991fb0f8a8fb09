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

from ..base.errors import BadXmlInput, InputError, InputNotFound, QueryError
from ..base.safexml import (SAXON_PARSER_LIMITS, XML_TEXT, is_xml_text, parse_untrusted, read_xml_input,
                             serialize_root)
from ..runtime.saxon import ALLOWED_PROTOCOLS, per_process

__all__ = ["QueryItem", "QueryResult", "SkippedDocument", "query", "xpath", "documents_of", "is_xml_text",
           "DEFAULT_NAMESPACES", "STANDARD_NAMESPACES", "XML_TEXT"]

#: Namespace prefixes every expression may use without declaring them.
DEFAULT_NAMESPACES: dict[str, str] = {"px": "urn:pyxform"}
#: The prefixes XQuery 3.1 (and elementpath's XPath) know without a declaration, bound for XPath expressions too
#: (Saxon's XPath API binds none of them): ``fn:``, ``map:``, ``array:``, ``math:``, ``xs:``, ``err:``.
STANDARD_NAMESPACES: dict[str, str] = {
    "fn": "http://www.w3.org/2005/xpath-functions",
    "map": "http://www.w3.org/2005/xpath-functions/map",
    "array": "http://www.w3.org/2005/xpath-functions/array",
    "math": "http://www.w3.org/2005/xpath-functions/math",
    "xs": "http://www.w3.org/2001/XMLSchema",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "err": "http://www.w3.org/2005/xqt-errors",
}

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
class SkippedDocument:
    """A file of a folder (or list) target that could not be read, so the query ran without it.

    :ivar path: the file.
    :ivar message: why, with the line and column where the XML breaks (``not well-formed XML: ... (line 1,
        column 12)``) or the line of a refused entity.
    """

    path: str
    message: str


@dataclass(frozen=True)
class QueryResult:
    """The items an expression returned, in order, and the files of the collection that were skipped.

    :ivar skipped: files of a folder or list target that could not be read (not well-formed, entities, unreadable):
        the expression ran over the others. Always empty for a one-file target (its error is raised).
    """

    items: tuple[QueryItem, ...]
    skipped: tuple[SkippedDocument, ...] = ()

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
        from ..runtime.environment import processor_class

        self.processor = processor_class()(license=False)  # environment-variable() sees no variable
        for name, value in SAXON_PARSER_LIMITS.items():
            self.processor.set_configuration_property(name, value)
        self.processor.set_configuration_property(ALLOWED_PROTOCOLS, "")
        self.lock = threading.Lock()


_query_processor = per_process(_QueryProcessor)


def _kind(path: Path) -> str:
    """``dir``, ``file`` (also what reads like one: a pipe such as ``<(command)``'s ``/dev/fd/63``, a device) or
    ``missing``; a path the system cannot even look up (too long, a NUL byte) is refused.

    :raises InputNotFound: naming the path (shortened) and the system's reason.
    """
    try:
        return "dir" if path.is_dir() else "file" if path.exists() else "missing"
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        shown = str(path) if len(str(path)) <= 80 else str(path)[:77] + "..."
        raise InputNotFound(f"cannot read this path: {reason}", location=shown) from None


def documents_of(target: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The XML files a query target names: a file, a folder (its ``*.xml`` files, sorted by name, not recursive) or
    a list of files.

    :raises InputError: the target is a URL (queries read local files only), or an empty list.
    :raises InputNotFound: a path that does not exist or cannot be looked up, or a folder without XML files.
    """
    from ..base.source import looks_like_url

    if isinstance(target, (str, os.PathLike)):
        if isinstance(target, str) and looks_like_url(target):
            raise InputError("a query reads XML files and folders, not URLs: fetch the document first",
                             location=target)
        path = Path(target)
        kind = _kind(path)
        if kind == "dir":
            try:
                files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".xml" and p.is_file())
            except OSError as error:
                raise InputNotFound(f"cannot list the folder: {error.strerror or error}", location=str(path)) from None
            if not files:
                raise InputNotFound("the folder holds no .xml file", location=str(path))
            return files
        if kind == "missing":
            raise InputNotFound("no such file or folder", location=str(path))
        return [path]
    paths = [Path(p) for p in target]
    if not paths:
        raise InputError("no document to query: the list of files is empty (give a file, a folder, or files)")
    for path in paths:
        if _kind(path) != "file":
            raise InputNotFound("no such file", location=str(path))
    return paths


def _load(processor: Any, path: Path | str) -> Any:
    """Parse one file (or, given a ``str``, XML text) with lxml (no DTD, no entities, no network:
    :func:`pyxform.base.safexml.parse_untrusted`) and give its root element (without DTD) to Saxon, with the file's URI
    as base URI."""
    data, name = read_xml_input(path)
    location = name or XML_TEXT
    try:
        text = serialize_root(parse_untrusted(data, location=location))
    except BadXmlInput as error:
        raise QueryError(f"cannot read the document: {error.message}", location=location) from None
    builder = processor.new_document_builder()
    if not isinstance(path, str):
        builder.set_base_uri(path.resolve().as_uri())
    try:
        return builder.parse_xml(xml_text=text)
    except Exception as error:  # saxonche's PySaxonApiError
        raise QueryError(f"cannot read the document: {' '.join(str(error).split())}", location=location) from None


def rewrite_collection_calls(expression: str) -> str:
    """Replace each ``collection()`` / ``fn:collection()`` call without argument by ``$collection``, outside string
    literals and comments."""
    return _rewrite_with_offsets(expression)[0]


def _rewrite_with_offsets(expression: str) -> tuple[str, list[tuple[int, int]]]:
    """:func:`rewrite_collection_calls`, and for each replacement the offsets (in the result, in ``expression``)
    where the text after it starts (to map an error position back to the user's expression)."""
    out: list[str] = []
    offsets: list[tuple[int, int]] = []
    length = 0
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
            length += len(out[-1])
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
            length += len(out[-1])
            i = end
        else:
            match = call.match(expression, i)
            if match and (i == 0 or not re.match(r"[\w.:$-]", expression[i - 1])):
                out.append("$" + _COLLECTION_VARIABLE)
                length += len(out[-1])
                i = match.end()
                offsets.append((length, i))
            else:
                out.append(ch)
                length += 1
                i += 1
    return "".join(out), offsets


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
        collection; no context item) or a list of files, given as paths (``str`` or ``os.PathLike``); or one XML
        document as text. A ``str`` is XML text when its first character after white space is ``<``, otherwise a
        path (no file or folder name is tried for text, and a URL is refused). XML text is the context item and
        the collection, without a base URI; its errors are located at ``<XML text>``.
    :param expression: the expression. ``collection()`` and ``$collection`` are the target's documents; prefix
        ``px`` is bound to ``urn:pyxform``, and the standard prefixes (``fn``, ``map``, ``array``, ``math``, ``xs``:
        :data:`STANDARD_NAMESPACES`) in XPath as in XQuery; more prefixes via ``namespaces`` (XPath) or the query
        prolog (XQuery).
    :returns: a :class:`QueryResult`.
    :raises InputNotFound: the target does not exist or cannot be read (a path too long, ...).
    :raises InputError: the target is a URL, or an empty list.
    :raises QueryError: a document is not well-formed, or the expression fails to compile or to run (Saxon's error
        code and message).
    """
    paths: Sequence[Path | str] = [target] if is_xml_text(target) else documents_of(target)  # type: ignore[list-item]
    single = isinstance(target, (str, os.PathLike)) and (is_xml_text(target) or _kind(Path(target)) != "dir")
    where = XML_TEXT if is_xml_text(target) else str(target)
    bound = {**DEFAULT_NAMESPACES, **(namespaces or {})}
    runner = _query_processor()
    with runner.lock:
        processor = runner.processor
        documents, skipped = [], []
        for path in paths:
            try:
                documents.append(_load(processor, path))
            except (QueryError, InputNotFound) as error:
                if single:
                    raise
                skipped.append(SkippedDocument(str(path), error.message))  # one bad file never stops the others
        if not documents:
            raise QueryError(f"none of the {len(paths)} files could be read; first: {skipped[0].path}: "
                             f"{skipped[0].message}", location=where)
        collection = processor.empty_sequence()
        for document in documents:
            collection.add_xdm_item(document)
        rewritten, offsets = _rewrite_with_offsets(expression)
        try:
            if xquery:
                result = _run_xquery(processor, rewritten, documents[0] if single else None, collection, bound)
            else:
                result = _run_xpath(processor, rewritten, documents[0] if single else None, collection, bound)
        except QueryError:
            raise
        except Exception as error:  # saxonche raises PySaxonApiError
            message = " ".join(str(error).split())
            code, message = _locate_error(processor, message, expression, rewritten, offsets, bound, xquery)
            if ("XPDY0002" in message or "context item is absent" in message) and not single:
                message += " (over a folder there is no context item: start from collection() or $collection)"
            raise QueryError(message, error_code=code, location=where if single else None) from None
    processor.attach_current_thread  # the node API below (node_kind_str, ...) needs this thread attached
    items = tuple(_item(result.item_at(i)) for i in range(result.size)) if result is not None else ()
    return QueryResult(items, tuple(skipped))


_SAXON_STATIC_ERROR = re.compile(
    r"\A\s*Static error (?:in|near) \{.*?\} (?:on line (?P<line>\d+) at column (?P<column>\d+)|at char (?P<char>\d+))"
    r"(?: of \S*)?\s+(?P<code>[A-Z]{4}\d{4})\s+(?P<message>.*)\Z", re.DOTALL)
_SAXON_DYNAMIC_ERROR = re.compile(
    r"\A\s*Error on line (?P<line>\d+) column (?P<column>\d+)(?P<char>)(?: of \S*)?:?\s+(?P<code>[A-Z]{4}\d{4}):?\s+"
    r"(?P<message>.*)\Z", re.DOTALL)
_ERROR_CODE = re.compile(r"\A\s*(?P<code>[A-Z]{4}\d{4})\b:?\s*(?P<message>.*)\Z", re.DOTALL)


def _prolog(namespaces: Mapping[str, str], query_text: str) -> str:
    """The declarations pyxform puts before a query: its namespaces (unless the query declares the prefix) and
    ``$collection``."""
    declarations = "".join(f'declare namespace {prefix} = "{uri}";\n' for prefix, uri in namespaces.items()
                           if not re.search(rf"declare\s+namespace\s+{re.escape(prefix)}\s*=", query_text))
    return declarations + f"declare variable ${_COLLECTION_VARIABLE} external;\n"


def _saxon_offset(text: str, line: int | None, column: int | None, char: int | None) -> int:
    """The offset in ``text`` (0-based) of the position Saxon reports: ``at char N`` (1-based, just after the
    token) for one-line text, ``on line L at column C`` (C one more than the character count) otherwise."""
    if char is not None:
        return min(max(char - 1, 0), len(text))
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    start = starts[min(max((line or 1) - 1, 0), len(starts) - 1)]
    return min(start + max((column or 2) - 2, 0), len(text))


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _locate_error(processor: Any, message: str, expression: str, rewritten: str, offsets: list[tuple[int, int]],
                  namespaces: Mapping[str, str], xquery: bool) -> tuple[str | None, str]:
    """Saxon's error code and message, with the position in the user's ``expression`` (never in the declarations
    pyxform added). Saxon's XPath API reports neither code nor position: a static error of an XPath expression is
    located by compiling it once more as the body of an XQuery that is never evaluated (``if (false())``), and the
    position is used only when that gives the same message."""
    if xquery:
        found = _SAXON_STATIC_ERROR.match(message) or _SAXON_DYNAMIC_ERROR.match(message)
        if found is None:
            coded = _ERROR_CODE.match(message)
            return (coded["code"], coded["message"]) if coded else (None, message)
        head = _XQUERY_PROLOG_HEAD.match(rewritten)
        cut = head.end() if head else 0
        inserted = len(_prolog(namespaces, rewritten))
        text = rewritten[:cut] + _prolog(namespaces, rewritten) + rewritten[cut:]
        position = _saxon_offset(text, _int(found["line"]), _int(found["column"]), _int(found["char"]))
        position = position if position < cut else max(position - inserted, cut)
    else:
        prefix = _prolog(namespaces, "") + "if (false()) then (\n"
        probe = processor.new_xquery_processor()
        probe.set_query_content(prefix + rewritten + "\n) else ()")
        try:
            probe.run_query_to_value()
            return None, message
        except Exception as error:
            found = _SAXON_STATIC_ERROR.match(" ".join(str(error).split()))
        if found is None:
            return None, message
        position = _saxon_offset(prefix + rewritten + "\n) else ()", _int(found["line"]), _int(found["column"]),
                                 _int(found["char"])) - len(prefix)
        # the same error, or one at the end of the expression (what XPath saw as <eof> the probe sees as its ")")
        if found["message"].strip() != message.strip() and position < len(rewritten):
            return None, message
        position = min(max(position, 0), len(rewritten))
        found = {"code": found["code"], "message": message}  # type: ignore[assignment]
    line, column = _line_and_column(expression, _original_offset(offsets, position))
    return found["code"], f"{found['message'].strip()} (near line {line}, column {column} of the query)"


def _int(value: str | None) -> int | None:
    return int(value) if value else None


def _original_offset(offsets: list[tuple[int, int]], position: int) -> int:
    """The offset in the user's expression of ``position`` in the rewritten one (``offsets``: the rewritten and
    original offsets where each rewritten piece starts)."""
    rewritten_start, original_start = 0, 0
    for new, old in offsets:
        if new > position:
            break
        rewritten_start, original_start = new, old
    return original_start + (position - rewritten_start)


def _run_xpath(processor: Any, expression: str, context: Any, collection: Any, namespaces: Mapping[str, str]) -> Any:
    xpath_processor = processor.new_xpath_processor()
    xpath_processor.set_language_version("3.1")
    for prefix, uri in {**STANDARD_NAMESPACES, **namespaces}.items():
        xpath_processor.declare_namespace(prefix, uri)
    xpath_processor.declare_variable(_COLLECTION_VARIABLE)
    xpath_processor.set_parameter(_COLLECTION_VARIABLE, collection)
    if context is not None:
        xpath_processor.set_context(xdm_item=context)
    return xpath_processor.evaluate(expression)


def _run_xquery(processor: Any, query_text: str, context: Any, collection: Any, namespaces: Mapping[str, str]) -> Any:
    head = _XQUERY_PROLOG_HEAD.match(query_text)
    cut = head.end() if head else 0
    text = query_text[:cut] + _prolog(namespaces, query_text) + query_text[cut:]
    xquery_processor = processor.new_xquery_processor()
    xquery_processor.set_parameter(_COLLECTION_VARIABLE, collection)
    if context is not None:
        xquery_processor.set_context(xdm_item=context)
    xquery_processor.set_query_content(text)
    return xquery_processor.run_query_to_value()


def xpath(node: etree._Element | etree._ElementTree, expression: str, *,
          namespaces: Mapping[str, str] | None = None, variables: Mapping[str, Any] | None = None) -> list[Any]:
    """Evaluate an XPath 3.1 expression on an lxml tree with elementpath (pure Python, no Saxon).

    :param node: the context: an lxml element or tree (e.g. :meth:`pyxform.api.convert.Conversion.tree`).
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
