"""The compiled runtimes pyxform runs its stylesheets on, one of each per process, and the runner that translates
their failures.

    shared_runtime()   every built-in stylesheet (:data:`~pyxform.runtime.registry.PIPELINE_STYLESHEETS`) compiled
                       into one :class:`~pyxform.runtime.saxon.SaxonRuntime`, then locked against URI access
    runner()           the :class:`Runner` over it
    user_runner(...)   a runtime with stylesheets of the user's compiled beside the built-in ones (cached per process)
    Runner             a compiled runtime with its lock and the error translation

**Runtimes and security.** A locked processor cannot compile more stylesheets and a document node cannot move between
processors, so a pipeline with stylesheets of the user's gets a runtime of its own: every built-in stylesheet and every
user stylesheet of the pipeline compiled into a new processor, then locked. Such runtimes are cached per process (at
most :data:`MAX_RUNTIMES`, least recently used dropped) by the set of user stylesheet files (path, modification time
and size), so a pipeline compiles once however often it runs, and an edited stylesheet is compiled anew. ``allow_io``
leaves that runtime unlocked (an explicit opt-in of the user's, :class:`pyxform.api.pipeline.Pipeline`).

**Errors.** A stylesheet of pyxform's that stops on bad input says why in ``xsl:message terminate="yes"``, in the one
format ``[px:CODE] MESSAGE`` (:func:`pyxform.base.errors.read_message`); :class:`Runner` raises the error of that
code (:data:`pyxform.base.errors.ERROR_TABLE`: ``px:no-table`` is :class:`~pyxform.base.errors.NoTableError`,
``[px:limit max_slots]`` a :class:`~pyxform.base.errors.LimitExceeded` naming the limit), or a
:class:`~pyxform.base.errors.StylesheetError` with ``error_code`` ``px:CODE`` for a code of
:data:`~pyxform.base.errors.STYLESHEET_CODES` that is no error class. Every other failure is a
:class:`~pyxform.base.errors.StylesheetError` with Saxon's error code and the stylesheet module, line and column.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..base.errors import InputNotFound, PyxformError, StylesheetError, coded_error, read_message
from .compile_check import check_user_stylesheet
from .registry import BUILTIN_STAGES, PIPELINE_STYLESHEETS
from .saxon import SaxonRuntime, XsltMessage, builtin_stylesheet, per_process

__all__ = ["Runner", "runner", "shared_runtime", "user_runner", "MAX_RUNTIMES"]

#: Most user runtimes kept compiled in one process.
MAX_RUNTIMES = 8

# Saxon's node kinds (``PyXdmNode.node_kind``) and the grid document's names read by the node API
_DOCUMENT_NODE = 9
_ELEMENT_NODE = 1
_GRIDS = "Q{urn:pyxform}grids"
_GRID_ATTRIBUTES = ("index", "code", "locator", "limit", "message", "header-rows")

Params = Mapping[str, Any]


# -- the shared runtime --------------------------------------------------------------------------------------------
def _builtin_stylesheets() -> dict[str, Path | str]:
    """Every built-in pipeline stylesheet that ships with this installation, by runtime name."""
    found: dict[str, Path | str] = {}
    for name, file_name in PIPELINE_STYLESHEETS:
        try:
            found[name] = builtin_stylesheet(file_name)
        except FileNotFoundError:
            continue
    return found


@per_process
def shared_runtime() -> SaxonRuntime:
    """The process-wide :class:`SaxonRuntime` with every built-in pipeline stylesheet compiled, created on first use
    (compiling takes about a second) and locked against URI access."""
    runtime = SaxonRuntime()
    runtime.compile_all(_builtin_stylesheets())
    return runtime


# -- the runner: one compiled runtime, its lock, its errors --------------------------------------------------------
class Runner:
    """Runs compiled stylesheets of one :class:`~pyxform.runtime.saxon.SaxonRuntime` and translates their failures.

    Safe to share between threads: each call holds the runtime's lock (a Saxon executable is not re-entrant).
    """

    def __init__(self, runtime: SaxonRuntime | None = None) -> None:
        self.runtime = runtime or shared_runtime()
        self.lock = self.runtime.lock

    def has(self, stage: str) -> bool:
        """Whether the stylesheet ``stage`` (a built-in stage name, or a user stylesheet's path) is compiled."""
        return self.runtime.has(stage)

    def require(self, *stages: str) -> None:
        """:raises StylesheetError: if a stage's stylesheet is not installed."""
        missing = [stage for stage in stages if not self.has(stage)]
        if missing:
            raise StylesheetError(f"this installation of pyxform has no stylesheet for: {', '.join(missing)}",
                                  location=", ".join(BUILTIN_STAGES.get(stage, stage) for stage in missing))

    def parse(self, xml: str | bytes, *, location: str | None = None) -> Any:
        """Parse XML text into a document node of this runtime (no DTD is read, no entity expanded, no URI reached).

        :raises BadXmlInput: if the text is not well-formed or declares a document type.
        """
        with self.lock:
            return self.runtime.parse(xml, location=location)

    def run(self, stage: str, node: Any, params: Params | None = None, *, location: str | None = None,
            messages: list[XsltMessage] | None = None, to_string: bool = False) -> Any:
        """Run one compiled stylesheet on a document node; return the result document node (or, ``to_string``, its
        serialization by the stylesheet's ``xsl:output``).

        :param messages: receives this call's ``xsl:message`` texts (they leave the runtime's shared log).
        :raises NoTableError, TableError, LimitExceeded, ParameterError: if the stylesheet stopped with a code
            of :data:`~pyxform.base.errors.ERROR_TABLE` (``[px:CODE] MESSAGE``).
        :raises StylesheetError: for any other failure of the stylesheet.
        """
        self.require(stage)
        with self.lock:
            first = len(self.runtime.messages)
            try:
                if to_string:
                    return self.runtime.transform_to_string(stage, node, params)
                return self.runtime.transform(stage, node, params)
            except StylesheetError as error:
                raise self._failure(stage, error, location, self.runtime.messages[first:]) from None
            finally:
                if messages is not None:
                    messages.extend(self.runtime.messages[first:])
                del self.runtime.messages[first:]

    def run_to_string(self, stage: str, node: Any, params: Params | None = None, *,
                      location: str | None = None) -> str:
        """Like :meth:`run`, serialized with the stylesheet's ``xsl:output`` settings."""
        return str(self.run(stage, node, params, location=location, to_string=True))

    def serialize(self, node: Any) -> str:
        """Serialize a document node as indented XML, with an XML declaration (UTF-8)."""
        with self.lock:
            text = node.to_string()
        if text.startswith("<?xml"):
            return text if text.endswith("\n") else text + "\n"
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + text + ("" if text.endswith("\n") else "\n")

    def _strings(self, node: Any, expression: str) -> list[str]:
        """The string value of each item ``expression`` (XPath 3.1, prefix ``px`` bound) selects from ``node``."""
        with self.lock:
            xpath = self.runtime.processor.new_xpath_processor()
            xpath.declare_namespace("px", "urn:pyxform")
            xpath.set_context(xdm_item=node)
            result = xpath.evaluate(expression)
            return [str(result.item_at(i)) for i in range(result.size)] if result is not None else []

    def _grid_children(self, grid: Any, name: str) -> list[dict[str, str | None]] | None:
        """The attributes ``index``, ``code``, ``locator``, ``limit``, ``message`` and ``header-rows`` of each child
        ``px:NAME`` of a grid document's ``px:grids`` element, in document order, read through Saxon's node API (an
        XPath expression would be compiled on every call: ~50 us a call, as much as a small table's clean); ``None``
        when ``grid`` is not a document node (the XPath route then says what it selects)."""
        with self.lock:
            # Saxon's node API (node_kind, children, ...) called from another thread than the one that first used
            # Saxon ends the process ("StackOverflowError ... wrong IsolateThread", exit 99) unless this thread is
            # attached first (saxonche 13: reading the property attaches; ~0.1 us)
            self.runtime.processor.attach_current_thread
            if grid.node_kind != _DOCUMENT_NODE:
                return None
            for top in grid.children:
                if top.node_kind == _ELEMENT_NODE and top.name == _GRIDS:
                    wanted = f"Q{{urn:pyxform}}{name}"
                    return [{attribute: child.get_attribute_value(attribute) for attribute in _GRID_ATTRIBUTES}
                            for child in top.children if child.node_kind == _ELEMENT_NODE and child.name == wanted]
            return []

    def table_indexes(self, grid: Any, *, failures: bool = False) -> list[int]:
        """The ``px:index`` of every table of a grid document (``docs/formats.md`` section 2), in document order
        (with ``failures``: of every ``px:table-failure`` instead)."""
        name = "table-failure" if failures else "table"
        children = self._grid_children(grid, name)
        if children is None:
            return [int(index) for index in self._strings(grid, f"/px:grids/px:{name}/@index/string()")]
        return [int(index) for index in (child["index"] for child in children) if index is not None]

    def table_failures(self, grid: Any) -> list[dict[str, Any]]:
        """Every ``px:table-failure`` of a grid document (``docs/formats.md`` section 2), in document order, as
        ``{"index", "code", "message", "locator", "limit"}`` (``limit`` ``None`` unless the code is ``limit``)."""
        children = self._grid_children(grid, "table-failure")
        if children is None:
            rows = [row.split("\t", 4) for row in self._strings(
                grid, "/px:grids/px:table-failure ! string-join((@index, string(@code), string(@locator), "
                      "string(@limit), string(@message)), codepoints-to-string(9))")]
        else:
            rows = [[child["index"] or "", child["code"] or "", child["locator"] or "", child["limit"] or "",
                     child["message"] or ""] for child in children]
        return [{"index": int(index), "code": code, "message": message, "locator": locator, "limit": limit or None}
                for index, code, locator, limit, message in rows]

    def has_tables_without_headers(self, grid: Any) -> bool:
        """Whether some table of a grid document lacks the header annotations (``header-rows``) of the headers
        stage."""
        children = self._grid_children(grid, "table")
        if children is None:
            return self._strings(grid, "exists(/px:grids/px:table[not(@header-rows)])") == ["true"]
        return any(child["header-rows"] is None for child in children)

    @staticmethod
    def _failure(stage: str, error: StylesheetError, location: str | None,
                 messages: Sequence[XsltMessage]) -> PyxformError:
        """Turn a stylesheet's ``xsl:message terminate="yes"`` in the one format (``[px:CODE] MESSAGE``) into the
        error of that code (:func:`pyxform.base.errors.coded_error`); any other failure stays a
        :class:`StylesheetError` (a user stylesheet's message added to it)."""
        if "terminated by xsl:message" in error.message and messages:
            coded = read_message(messages[-1].text)
            if coded is not None:
                return coded_error(coded, location=location, stylesheet=BUILTIN_STAGES.get(stage, stage), step=stage)
            error.message = f"{error.message}: {messages[-1].text}"
            error.args = (error.message,)
        if location and not error.location:
            error.location = location
        return error


@per_process
def runner() -> Runner:
    """The process-wide :class:`Runner` of the built-in stylesheets (compiled on first use, then locked)."""
    return Runner()


# -- runtimes of user pipelines ------------------------------------------------------------------------------------
_user_runners: OrderedDict[tuple[Any, ...], Runner] = OrderedDict()
_user_runners_lock = threading.Lock()


def user_runner(stylesheets: Sequence[Path], allow_io: bool) -> Runner:
    """A runner with every built-in stylesheet and ``stylesheets`` compiled, locked unless ``allow_io``; one per
    distinct set of files (path, modification time, size) and ``allow_io``, at most :data:`MAX_RUNTIMES` kept.

    :raises InputNotFound: a stylesheet that does not exist.
    :raises StylesheetError: without ``allow_io``, a stylesheet that would read a file or URI while it is compiled
        (:func:`~pyxform.runtime.compile_check.check_user_stylesheet`), or one that does not compile."""
    identity = []
    for path in sorted(set(stylesheets)):
        try:
            status = path.stat()
        except OSError:
            raise InputNotFound("no such stylesheet", location=str(path)) from None
        identity.append((str(path), status.st_mtime_ns, status.st_size))
    key = (tuple(identity), allow_io)
    with _user_runners_lock:
        found = _user_runners.get(key)
        if found is not None:
            _user_runners.move_to_end(key)
            return found
        if not allow_io:  # what compiling would read or evaluate before the lock (compile_check)
            for path in stylesheets:
                check_user_stylesheet(path)
        runtime = SaxonRuntime(allow_io=allow_io)
        runtime.compile_all({**_builtin_stylesheets(), **{str(path): path for path in stylesheets}})
        made = Runner(runtime)
        _user_runners[key] = made
        while len(_user_runners) > MAX_RUNTIMES:
            _user_runners.popitem(last=False)
        return made
