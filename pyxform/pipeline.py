"""The conversion pipeline's stages on the process-wide Saxon runtime: compiled once, locked, documents in memory.

``clean`` (Python) feeds ``normalize.xsl`` -> ``headers.xsl`` -> ``map.xsl`` -> ``merge.xsl``; ``pairs.xsl`` and
``schema.xsl`` read the annotated grid and the output. All of them are compiled into the one runtime of
:func:`pyxform.normalize.shared_runtime` (its ``PIPELINE_STYLESHEETS``), after which the runtime is locked (no
stylesheet can reach a URI). :class:`Pipeline` runs the stages on it under one lock and turns a stylesheet's coded
``xsl:message`` into the matching pyxform error. A stage whose stylesheet is not installed is reported by
:meth:`Pipeline.require` with a clear error.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any

from .errors import NoTableError, PyxformError, StylesheetError
from .normalize import PIPELINE_STYLESHEETS, shared_runtime
from .saxon import SaxonRuntime

__all__ = ["Pipeline", "pipeline", "STAGES"]

#: Stage name -> stylesheet file (in ``stylesheets/``), in pipeline order.
STAGES: dict[str, str] = dict(PIPELINE_STYLESHEETS)

# xsl:message error codes (in the pyxform namespace) that are errors of the input, not of a stylesheet.
# A stylesheet that stops on bad input says why in an xsl:message whose text starts with "px:CODE: ".
_INPUT_ERRORS: dict[str, type[PyxformError]] = {
    "no-table": NoTableError,
}
_CODED_MESSAGE = re.compile(r"\s*px:([\w-]+):\s*(.*)", re.DOTALL)


class Pipeline:
    """The stages of the pipeline on one locked :class:`SaxonRuntime` (default: the shared one).

    Safe to share between threads: :meth:`run` holds a lock, because a Saxon executable is not re-entrant.
    """

    def __init__(self, runtime: SaxonRuntime | None = None) -> None:
        self.runtime = runtime or shared_runtime()
        self.lock = threading.RLock()

    def has(self, stage: str) -> bool:
        """Whether the stylesheet of ``stage`` is installed and compiled."""
        return self.runtime.has(stage)

    def require(self, *stages: str) -> None:
        """:raises StylesheetError: if a stage's stylesheet is not installed."""
        missing = [stage for stage in stages if not self.has(stage)]
        if missing:
            raise StylesheetError(f"this installation of pyxform has no stylesheet for: {', '.join(missing)}",
                                  location=", ".join(STAGES[stage] for stage in missing))

    def parse(self, xml: str | bytes) -> Any:
        """Parse XML text into a document node of this runtime (no DTD or entity can reach a URI).

        :raises StylesheetError: if the text is not well-formed.
        """
        with self.lock:
            return self.runtime.parse(xml)

    def run(self, stage: str, node: Any, params: Mapping[str, Any] | None = None, *,
            location: str | None = None) -> Any:
        """Run one stage on a document node and return the result document node.

        :raises NoTableError: if the stylesheet stopped with ``px:no-table`` (``--table N`` names no table).
        :raises StylesheetError: for any other failure of the stylesheet.
        """
        self.require(stage)
        with self.lock:
            try:
                return self.runtime.transform(stage, node, params)
            except StylesheetError as error:
                raise self._failure(stage, error, location) from None

    def run_to_string(self, stage: str, node: Any, params: Mapping[str, Any] | None = None, *,
                      location: str | None = None) -> str:
        """Like :meth:`run`, serialized with the stylesheet's ``xsl:output`` settings."""
        self.require(stage)
        with self.lock:
            try:
                return self.runtime.transform_to_string(stage, node, params)
            except StylesheetError as error:
                raise self._failure(stage, error, location) from None

    def serialize(self, node: Any) -> str:
        """Serialize a document node as indented XML, with an XML declaration (UTF-8)."""
        with self.lock:
            text = node.to_string()
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + text + ("" if text.endswith("\n") else "\n")


    def table_indexes(self, grid: Any, *, failures: bool = False) -> list[int]:
        """The ``px:index`` of every table of a grid document (``docs/formats.md`` section 2), in document order
        (with ``failures``: of every ``px:table-failure`` instead)."""
        with self.lock:
            xpath = self.runtime.processor.new_xpath_processor()
            xpath.declare_namespace("px", "urn:pyxform")
            xpath.set_context(xdm_item=grid)
            result = xpath.evaluate(f"/px:grids/px:{'table-failure' if failures else 'table'}/@index/string()")
        return [int(str(result.item_at(i))) for i in range(result.size)] if result is not None else []

    def has_tables_without_headers(self, grid: Any) -> bool:
        """Whether some table of a grid document lacks the header annotations (``header-rows``) of the headers
        stage."""
        with self.lock:
            xpath = self.runtime.processor.new_xpath_processor()
            xpath.declare_namespace("px", "urn:pyxform")
            xpath.set_context(xdm_item=grid)
            return bool(xpath.effective_boolean_value("exists(/px:grids/px:table[not(@header-rows)])"))

    def _failure(self, stage: str, error: StylesheetError, location: str | None) -> PyxformError:
        """Turn a stylesheet's ``xsl:message terminate="yes"`` (text ``px:CODE: description``) into the error of
        that code; any other failure stays a :class:`StylesheetError`."""
        if "terminated by xsl:message" in error.message:
            stage_messages = [m.text for m in self.runtime.messages if m.stylesheet == stage]
            match = _CODED_MESSAGE.match(stage_messages[-1]) if stage_messages else None
            if match:
                code, text = match.group(1), " ".join(match.group(2).split())
                kind = _INPUT_ERRORS.get(code, StylesheetError)
                if kind is StylesheetError:
                    return StylesheetError(text, error_code="px:" + code, location=location or STAGES[stage])
                return kind(text, location=location)
        if location and not error.location:
            error.location = location
        return error


_pipeline: Pipeline | None = None
_pipeline_lock = threading.Lock()


def pipeline() -> Pipeline:
    """The process-wide :class:`Pipeline` (created, and its stylesheets compiled, on first use)."""
    global _pipeline
    if _pipeline is None:
        with _pipeline_lock:
            if _pipeline is None:
                _pipeline = Pipeline()
    return _pipeline
