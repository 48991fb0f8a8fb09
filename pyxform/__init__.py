"""pyxform: the tables of real web pages as clean, queryable XML (after Zhang & Li 2007).

Public API of the conversion: :func:`convert` (page -> :class:`Conversion`), :func:`convert_grid`,
:func:`generate_schema`, :func:`validate`, :func:`query` (XPath 3.1 / XQuery 3.1 with Saxon-HE) and :func:`xpath`
(elementpath on lxml trees). Errors: :mod:`pyxform.errors`.
"""

from __future__ import annotations

from .convert import Conversion, convert, convert_grid
from .query import QueryResult, query, xpath
from .schema import generate_schema, validate

__all__ = ["Conversion", "convert", "convert_grid", "generate_schema", "validate", "query", "QueryResult", "xpath"]
