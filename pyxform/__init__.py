"""pyxform: turn the tables of real web pages into clean, queryable XML (after Zhang & Li 2007).

The public API is re-exported here and imported lazily, so ``import pyxform`` stays cheap (Saxon starts only when
a stage runs). The package is in layers, each importing only itself and those below: ``base`` (errors, limits, files,
safe XML, sources, fetching) < ``runtime`` (Saxon, the stage registry, steps, parameters) < ``stages`` < ``api``
(this module, pipelines, conversions) < ``jobs`` (one page with its options, the isolated worker) < ``wings`` <
``cli``.

    grid(page, *, table=None) -> GridDocument     stage 2: every table of a page as a dense grid (WHATWG table model)
    headers(page, *, method="auto", table=None) -> HeadersResult
                                                  stage 3: header rows and columns of every table, header cells of
                                                  every data cell (markup, else formatting)
    detect_headers(grid_xml, *, method="auto")   stage 3 alone, on a grid document
    Normalizer                                    stage 2 with an explicit, reusable compiled runtime
    GridDocument, TableGrid, Cell, ...            the typed grid model (pyxform.stages.normalize)
    convert(page, *, table=None, names="paper")   the whole conversion: page -> Conversion (.xml, .pairs(), .schema())
    convert_grid(grid, ...)                       map + merge alone, from a header-annotated grid
    Pipeline, Step, CONVERSION                    XSLT 3.0 pipelines: pyxform's conversion with steps of your own
                                                  (pyxform.api.pipeline)
    to_dataframe(page), to_dataframes(page)       tables as pandas DataFrames (the optional extra "pandas")
    generate_schema(xml), validate(xml, xsd)      an XSD for an output; validation with line-numbered errors
    query(target, expr, xquery=False)             XPath 3.1 / XQuery 3.1 (Saxon-HE) over output files
    xpath(tree, expr)                             XPath 3.1 with elementpath on an lxml tree
    PyxformError and subclasses                   the exception tree (pyxform.base.errors)
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
    "convert": "api.convert",
    "convert_grid": "api.convert",
    "Conversion": "api.convert",
    "query": "stages.query",
    "QueryResult": "stages.query",
    "xpath": "stages.query",
    "generate_schema": "stages.schema",
    "validate": "stages.schema",
    "Pipeline": "api.pipeline",
    "Step": "runtime.steps",
    "PipelineResult": "api.pipeline",
    "CONVERSION": "api.pipeline",
    "to_dataframe": "api.dataframes",
    "to_dataframes": "api.dataframes",
    "grid": "stages.normalize",
    "headers": "stages.headers",
    "detect_headers": "stages.headers",
    "HeadersResult": "stages.headers",
    "TableHeaders": "stages.headers",
    "Normalizer": "stages.normalize",
    "GridDocument": "stages.normalize",
    "TableGrid": "stages.normalize",
    "TableFailure": "stages.normalize",
    "TableModelError": "stages.normalize",
    "Cell": "stages.normalize",
    "Link": "stages.normalize",
    "Image": "stages.normalize",
    "Limits": "base.limits",
    "DEFAULT_LIMITS": "base.limits",
    "PyxformError": "base.errors",
    "InputError": "base.errors",
    "InputNotFound": "base.errors",
    "EmptyInput": "base.errors",
    "UndecodableInput": "base.errors",
    "ArchiveError": "base.errors",
    "NoTableError": "base.errors",
    "LimitExceeded": "base.errors",
    "TableError": "base.errors",
    "StylesheetError": "base.errors",
    "StepError": "base.errors",
    "ParameterError": "base.errors",
    "ValidationError": "base.errors",
    "BadXmlInput": "base.errors",
    "OutputError": "base.errors",
    "WorkerCrash": "base.errors",
    "ClusterError": "base.errors",
}

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .api.convert import Conversion, convert, convert_grid
    from .api.dataframes import to_dataframe, to_dataframes
    from .api.pipeline import CONVERSION, Pipeline, PipelineResult
    from .base.errors import (
        ArchiveError,
        ClusterError,
        EmptyInput,
        InputError,
        InputNotFound,
        LimitExceeded,
        NoTableError,
        ParameterError,
        PyxformError,
        StepError,
        StylesheetError,
        TableError,
        UndecodableInput,
        ValidationError,
    )
    from .base.limits import DEFAULT_LIMITS, Limits
    from .runtime.steps import Step
    from .stages.headers import HeadersResult, TableHeaders, detect_headers, headers
    from .stages.normalize import (
        Cell,
        GridDocument,
        Image,
        Link,
        Normalizer,
        TableFailure,
        TableGrid,
        TableModelError,
        grid,
    )
    from .stages.query import QueryResult, query, xpath
    from .stages.schema import generate_schema, validate

def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pyxform' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
