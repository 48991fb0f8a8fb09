"""pyxform: turn the tables of real web pages into clean, queryable XML (after Zhang & Li 2007).

The public API is re-exported here and imported lazily, so ``import pyxform`` stays cheap (Saxon starts only when
a stage runs):

    grid(page, *, table=None) -> GridDocument     stage 2: every table of a page as a dense grid (WHATWG table model)
    headers(page, *, method="auto", table=None) -> HeadersResult
                                                  stage 3: header rows and columns of every table, header cells of
                                                  every data cell (markup, else formatting)
    detect_headers(grid_xml, *, method="auto")   stage 3 alone, on a grid document
    Normalizer                                    stage 2 with an explicit, reusable compiled runtime
    GridDocument, TableGrid, Cell, ...            the typed grid model (pyxform.normalize)
    convert(page, *, table=None, names="paper")   the whole conversion: page -> Conversion (.xml, .pairs(), .schema())
    convert_grid(grid, ...)                       map + merge alone, from a header-annotated grid
    Pipeline, Step, CONVERSION                    XSLT 3.0 pipelines: pyxform's conversion with steps of your own
                                                  (pyxform.pipeline)
    to_dataframe(page), to_dataframes(page)       tables as pandas DataFrames (the optional extra "pandas")
    generate_schema(xml), validate(xml, xsd)      an XSD for an output; validation with line-numbered errors
    query(target, expr, xquery=False)             XPath 3.1 / XQuery 3.1 (Saxon-HE) over output files
    xpath(tree, expr)                             XPath 3.1 with elementpath on an lxml tree
    PyxformError and subclasses                   the exception tree (pyxform.errors)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__all__ = [
    "convert",
    "convert_grid",
    "Conversion",
    "Pipeline",
    "Step",
    "PipelineResult",
    "CONVERSION",
    "to_dataframe",
    "to_dataframes",
    "generate_schema",
    "validate",
    "query",
    "QueryResult",
    "xpath",
    "grid",
    "headers",
    "detect_headers",
    "HeadersResult",
    "TableHeaders",
    "Normalizer",
    "GridDocument",
    "TableGrid",
    "TableFailure",
    "TableModelError",
    "Cell",
    "Link",
    "Image",
    "Limits",
    "DEFAULT_LIMITS",
    "PyxformError",
    "InputError",
    "InputNotFound",
    "EmptyInput",
    "UndecodableInput",
    "ArchiveError",
    "NoTableError",
    "LimitExceeded",
    "TableError",
    "StylesheetError",
    "StepError",
    "ParameterError",
    "ValidationError",
    "BadXmlInput",
    "OutputError",
    "WorkerCrash",
    "ClusterError",
]

_LAZY: dict[str, str] = {
    "Pipeline": "pipeline",
    "Step": "pipeline",
    "PipelineResult": "pipeline",
    "CONVERSION": "pipeline",
    "to_dataframe": "tabular",
    "to_dataframes": "tabular",
    "grid": "normalize",
    "headers": "header_detection",
    "detect_headers": "header_detection",
    "HeadersResult": "header_detection",
    "TableHeaders": "header_detection",
    "Normalizer": "normalize",
    "GridDocument": "normalize",
    "TableGrid": "normalize",
    "TableFailure": "normalize",
    "TableModelError": "normalize",
    "Cell": "normalize",
    "Link": "normalize",
    "Image": "normalize",
    "Limits": "limits",
    "DEFAULT_LIMITS": "limits",
    "PyxformError": "errors",
    "InputError": "errors",
    "InputNotFound": "errors",
    "EmptyInput": "errors",
    "UndecodableInput": "errors",
    "ArchiveError": "errors",
    "NoTableError": "errors",
    "LimitExceeded": "errors",
    "TableError": "errors",
    "StylesheetError": "errors",
    "StepError": "errors",
    "ParameterError": "errors",
    "ValidationError": "errors",
    "BadXmlInput": "errors",
    "OutputError": "errors",
    "WorkerCrash": "errors",
    "ClusterError": "errors",
}

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .errors import (ArchiveError, EmptyInput, InputError, InputNotFound, LimitExceeded, NoTableError,
                         ParameterError, PyxformError, StepError, StylesheetError, TableError, UndecodableInput,
                         ValidationError)
    from .header_detection import HeadersResult, TableHeaders, detect_headers, headers
    from .limits import DEFAULT_LIMITS, Limits
    from .normalize import Cell, GridDocument, Image, Link, Normalizer, TableFailure, TableGrid, TableModelError, grid
    from .pipeline import CONVERSION, Pipeline, PipelineResult, Step
    from .tabular import to_dataframe, to_dataframes

# Imported eagerly, not lazily: the functions convert and query share their names with their modules, and importing
# a submodule (pyxform.convert) rebinds the package attribute to the module unless the function is bound first.
from .convert import Conversion, convert, convert_grid  # noqa: E402
from .query import QueryResult, query, xpath  # noqa: E402
from .schema import generate_schema, validate  # noqa: E402


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pyxform' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
