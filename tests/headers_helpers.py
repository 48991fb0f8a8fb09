"""Helpers for the headers tests: run the stage on hand-made grids and read its annotations back."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from lxml import etree

from pyxform.stages.headers import HeadersResult, detect_headers

from .grid_builder import PX_NS, grid_xml, grids_xml

PX = "{" + PX_NS + "}"

__all__ = [
    "PX",
    "stage_and_variant",
    "stage_and_variant_outputs",
    "cell_roles",
    "col_scores",
    "detect",
    "detect_many",
    "evidence",
    "kp",
    "row_parts",
    "row_scores",
    "slot_headers",
]


@lru_cache(maxsize=None)
def stage_and_variant(variant: str) -> tuple[Any, Any, Any]:
    """(processor, the headers stage, ``variant``) compiled once per variant: ``variant`` is a stylesheet text that
    imports the stage from the placeholder ``HEADERS`` and puts back an older or more general path, for tests that
    compare the stage's output with that path's."""
    from saxonche import PySaxonProcessor

    from pyxform.runtime.saxon import builtin_stylesheet

    processor = PySaxonProcessor(license=False)
    headers = builtin_stylesheet("headers.xsl")
    compiler = processor.new_xslt30_processor()
    return (processor, compiler.compile_stylesheet(stylesheet_file=str(headers)),
            compiler.compile_stylesheet(stylesheet_text=variant.replace("HEADERS", headers.resolve().as_uri())))


def stage_and_variant_outputs(variant: str, xml: str, method: str) -> tuple[str, str]:
    """The headers stage's output on the grid document ``xml`` with ``method``, and ``variant``'s output (see
    :func:`stage_and_variant`)."""
    processor, stage, old = stage_and_variant(variant)
    node = processor.parse_xml(xml_text=xml)
    results = []
    for executable in (stage, old):
        executable.set_parameter("method", processor.make_string_value(method))
        results.append(executable.transform_to_string(xdm_node=node))
    return results[0], results[1]


def detect(rows: list[Any], method: str = "auto", **table_options: Any) -> HeadersResult:
    """Run the headers stage on one hand-made table (see grid_builder.grid_xml)."""
    return detect_headers(grid_xml(rows, **table_options), method=method)


def detect_many(tables: list[list[Any]], method: str = "auto") -> HeadersResult:
    return detect_headers(grids_xml(tables), method=method)


def kp(result: HeadersResult, index: int = 0) -> tuple[int, int, str]:
    """(k, p, method) of one table."""
    table = result.table(index)
    return table.header_rows, table.header_cols, table.method


def _table(result: HeadersResult, index: int = 0) -> etree._Element:
    for table in result.document.getroot().iter(PX + "table"):
        if table.get("index") == str(index):
            return table
    raise KeyError(index)


def _texts(table: etree._Element, ids: str | None) -> list[str] | None:
    if ids is None:
        return None
    cells = {cell.get("id"): cell.findtext(PX + "text") or "" for cell in table.iter(PX + "cell")}
    return [cells[i] for i in ids.split()]


def slot_headers(result: HeadersResult, y: int, x: int, index: int = 0) -> tuple[list[str] | None, list[str] | None]:
    """(row header texts, column header texts) of slot (y, x); (None, None) if the slot carries no header lists."""
    table = _table(result, index)
    row = table.find(f"{PX}row[@index='{y}']")
    slot = row.find(f"{PX}slot[@col='{x}']")
    return _texts(table, slot.get("row-headers")), _texts(table, slot.get("column-headers"))


def cell_roles(result: HeadersResult, index: int = 0) -> dict[str, str]:
    """{cell text: role} (texts must be unique in the test table for this to be useful)."""
    return {(cell.findtext(PX + "text") or ""): cell.get("role") for cell in _table(result, index).iter(PX + "cell")}


def evidence(result: HeadersResult, index: int = 0) -> etree._Element:
    element = result.table(index).evidence
    assert element is not None
    return element


def row_scores(result: HeadersResult, index: int = 0) -> dict[int, float]:
    """{row: score} from the formatting evidence (rows with text)."""
    return {int(e.get("row")): float(e.get("score")) for e in evidence(result, index).iter(PX + "row-score")}


def row_parts(result: HeadersResult, index: int = 0) -> dict[int, tuple[float, float]]:
    """{row: (format part, content part)} from the formatting evidence."""
    return {int(e.get("row")): (float(e.get("format")), float(e.get("content")))
            for e in evidence(result, index).iter(PX + "row-score")}


def col_scores(result: HeadersResult, index: int = 0) -> dict[int, float]:
    """{column: score} from the formatting evidence."""
    return {int(e.get("col")): float(e.get("score")) for e in evidence(result, index).iter(PX + "col-score")}
