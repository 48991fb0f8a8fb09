"""Tables of a page as pandas DataFrames: :meth:`pyxform.stages.tabular.TabularTable.to_dataframe` for each table of a
conversion (the rule, ``stylesheets/tabular.xsl``, is described in :mod:`pyxform.stages.tabular`).

pandas is an optional dependency (``pip install 'pyxform[pandas]'``); nothing here imports it until a DataFrame is
asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base.errors import NoTableError
from ..stages.tabular import DEFAULT_SEPARATOR
from .convert import Conversion, convert

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["to_dataframe", "to_dataframes"]


def _conversion(data: Any, options: dict[str, Any]) -> Conversion:
    return data if isinstance(data, Conversion) else convert(data, keep_grid=True, **options)


def to_dataframes(data: Any, *, numbers: bool = True, separator: str = DEFAULT_SEPARATOR,
                  **convert_options: Any) -> dict[int, pandas.DataFrame]:
    """Every table of a page as a pandas DataFrame (:meth:`TabularTable.to_dataframe`), by table index.

    :param data: a :class:`~pyxform.api.convert.Conversion`, or a page for :func:`pyxform.convert` (with
        ``convert_options``: ``table``, ``method``, ...).
    :raises ImportError: if pandas is not installed.
    """
    conversion = _conversion(data, convert_options)
    return {table.index: table.to_dataframe(numbers=numbers, separator=separator) for table in conversion.tables()}


def to_dataframe(data: Any, *, table: int | None = None, numbers: bool = True, separator: str = DEFAULT_SEPARATOR,
                 **convert_options: Any) -> pandas.DataFrame:
    """One table of a page as a pandas DataFrame: table ``table``, or the page's only table.

    :param data: a :class:`~pyxform.api.convert.Conversion` or a page (see :func:`to_dataframes`).
    :raises ValueError: if ``table`` is ``None`` and the page has several tables (the message lists them).
    :raises NoTableError: if the page has no table ``table``.
    :raises ImportError: if pandas is not installed.
    """
    if isinstance(data, Conversion):
        tables = data.tables()
        if table is not None:
            tables = [t for t in tables if t.index == table]
            if not tables:
                raise NoTableError(f"the conversion has no table {table}", location=data.source or None)
    else:
        tables = _conversion(data, {**convert_options, "table": table}).tables()
    if len(tables) != 1:
        shapes = ", ".join(f"{t.index} ({len(t.records)} x {len(t.columns)})" for t in tables)
        raise ValueError(f"the page has {len(tables)} tables; choose one with table=N (index (rows x columns): "
                         f"{shapes}), or use to_dataframes()")
    return tables[0].to_dataframe(numbers=numbers, separator=separator)
