"""Tables as rows and columns: CSV files and pandas DataFrames from a conversion.

``stylesheets/tabular.xsl`` turns the header-annotated grid into columns and records (``docs/formats.md`` section 5:
the normalized table, header rows as column names, header columns as the row index; the rule is there, in one
place). This module reads that document into :class:`TabularTable` objects and writes them out:

    TabularTable.header(separator)   one name per column: the header path joined with ``separator`` (" / ")
    TabularTable.to_csv()            RFC 4180 CSV text (header row, then one row per record)
    TabularTable.to_dataframe()      a pandas DataFrame: MultiIndex columns when the table has k > 1 header rows,
                                     the row header columns (and sections) as the index, numeric columns as numbers

:mod:`pyxform.api.dataframes` gives the same from a page or a :class:`~pyxform.api.convert.Conversion`
(``to_dataframes(page)``, ``to_dataframe(page, table=N)``).

pandas is an optional dependency (``pip install 'pyxform[pandas]'``); nothing here imports it until a DataFrame is
asked for.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..base.safexml import parse_xml

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = ["DEFAULT_SEPARATOR", "Column", "TabularTable", "read_tabular"]

#: Joins the levels of a column's header path in CSV header rows and flat column names: "Average / Height".
DEFAULT_SEPARATOR = " / "

_PX = "{urn:pyxform}"
# A number as tables write it: optional sign (ASCII or U+2212 minus), digits with optional thousands commas,
# optional fraction and exponent.
_NUMBER = re.compile(r"[+\-\u2212]?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d+)?(?:[eE][+\-]?\d+)?")


@dataclass(frozen=True)
class Column:
    """One column of a table.

    :ivar kind: ``section`` (the section rows heading the record), ``row-header`` (a header column of the grid) or
        ``data``.
    :ivar levels: the header path, one text per header row, top first (``""`` below a header that spans down).
    :ivar col: the column's 0-based grid column (``None`` for a section column).
    """

    kind: Literal["section", "row-header", "data"]
    levels: tuple[str, ...]
    col: int | None

    def name(self, separator: str = DEFAULT_SEPARATOR) -> str:
        """The header path as one name: the non-empty levels joined with ``separator``."""
        return separator.join(level for level in self.levels if level)


@dataclass(frozen=True)
class TabularTable:
    """One table as columns and records (``docs/formats.md`` section 5).

    :ivar index: the table's index on the page (``px:index``).
    :ivar header_rows, header_cols: k and p.
    :ivar columns: section columns, then row header columns, then data columns.
    :ivar records: one tuple of texts per record, a text per column; ``rows`` gives each record's grid row.
    :ivar caption: the caption's visible text, or ``None``.
    :ivar parent_table: for a nested table, the index of the table it sits in.
    :ivar depth: how many tables the table sits in (0 for a top-level table).
    :ivar locator: an XPath 1.0 path to the table in the parsed source page (``/html/body/div[2]/table[1]``).
    :ivar heading: the text of the nearest ``h1``-``h6`` before the table in document order, or ``None``.
    :ivar hidden: whether CSS hides the table.
    :ivar header_method: how the headers stage found k and p: ``markup``, ``format`` or ``none``.
    :ivar notes: the table's note rows (a source line, a footnote after the data), one text each, in row order: they
        are not records (CSV leaves them out; a DataFrame has them in ``attrs["notes"]``).
    """

    index: int
    header_rows: int
    header_cols: int
    columns: tuple[Column, ...]
    records: tuple[tuple[str, ...], ...]
    rows: tuple[int, ...]
    caption: str | None = None
    parent_table: int | None = None
    depth: int = 0
    locator: str | None = None
    heading: str | None = None
    hidden: bool = False
    header_method: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def index_columns(self) -> tuple[Column, ...]:
        """The section and row header columns (the DataFrame's index)."""
        return tuple(column for column in self.columns if column.kind != "data")

    def header(self, separator: str = DEFAULT_SEPARATOR) -> list[str]:
        """One name per column (:meth:`Column.name`), as the CSV header row has them."""
        return [column.name(separator) for column in self.columns]

    def to_csv(self, separator: str = DEFAULT_SEPARATOR) -> str:
        """The table as CSV text (RFC 4180: comma-separated, fields quoted where needed, CRLF line ends): the
        header row (:meth:`header`), then one row per record; values as written."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(self.header(separator))
        writer.writerows(self.records)
        return out.getvalue()

    def to_dataframe(self, *, numbers: bool = True, separator: str = DEFAULT_SEPARATOR) -> pandas.DataFrame:
        """The table as a pandas DataFrame.

        Columns: the data columns; a ``pandas.MultiIndex`` with one level per header row when k > 1 (``("Average",
        "Height")``, ``("Ratio", "")`` for a header spanning both rows, so ``df["Ratio"]`` is a Series), else their
        names. Index: the section and row header columns (a MultiIndex when there are several), named after their
        header paths joined with ``separator`` (``None`` where empty); without any, a RangeIndex. ``df.attrs`` has
        ``table`` (the index), ``caption`` and ``notes`` (the note rows' texts, a list).

        :param numbers: convert each data column whose non-empty values are all numbers (``1,234``, ``-2.5``,
            ``−3``, ``1e6``) to numbers, empty values becoming NaN; other columns keep their texts.
        :raises ImportError: if pandas is not installed.
        """
        pd = _pandas()
        data_positions = [i for i, column in enumerate(self.columns) if column.kind == "data"]
        index_positions = [i for i, column in enumerate(self.columns) if column.kind != "data"]
        data_columns = [self.columns[i] for i in data_positions]
        if self.header_rows > 1:
            labels: Any = pd.MultiIndex.from_tuples([column.levels for column in data_columns])
        else:
            labels = pd.Index([column.name(separator) for column in data_columns], dtype=object)
        frame = pd.DataFrame([[record[i] for i in data_positions] for record in self.records], columns=labels,
                             dtype=object)
        if numbers:
            for position in range(len(data_columns)):
                values = frame.iloc[:, position]
                numeric = _numeric(values.tolist())
                if numeric is not None:
                    frame.isetitem(position, pd.Series(numeric, index=frame.index).pipe(_tighten, pd))
        if index_positions:
            names = [self.columns[i].name(separator) or None for i in index_positions]
            arrays = [[record[i] for record in self.records] for i in index_positions]
            if len(arrays) == 1:
                frame.index = pd.Index(arrays[0], name=names[0], dtype=object)
            else:
                frame.index = pd.MultiIndex.from_arrays(arrays, names=names)
        frame.attrs["table"] = self.index
        frame.attrs["caption"] = self.caption
        frame.attrs["notes"] = list(self.notes)
        return frame


def _numeric(values: list[str]) -> list[float | int | None] | None:
    """The values as numbers if every non-empty one is a number (else ``None``); empty values as ``None``."""
    result: list[float | int | None] = []
    seen = False
    for value in values:
        text = value.strip()
        if not text:
            result.append(None)
            continue
        if not _NUMBER.fullmatch(text) or not any(ch.isdigit() for ch in text):
            return None
        text = text.replace(",", "").replace("\u2212", "-")
        seen = True
        result.append(int(text) if re.fullmatch(r"[+\-]?\d+", text) else float(text))
    return result if seen else None


def _tighten(series: Any, pd: Any) -> Any:
    """int64 when every value is an integer and none is missing, else float64."""
    if series.notna().all() and all(isinstance(value, int) for value in series):
        return series.astype("int64")
    return pd.to_numeric(series, errors="coerce").astype("float64")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError("DataFrames need pandas: pip install 'pyxform[pandas]'") from None
    return pandas


def read_tabular(xml: str | bytes) -> list[TabularTable]:
    """Read the output of ``stylesheets/tabular.xsl`` (``px:tabular``) into :class:`TabularTable` objects, in table
    index order."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    root = parse_xml(data)
    tables = []
    for element in root.iterchildren(_PX + "table"):
        columns = tuple(
            Column(kind=column.get("kind", "data"),  # type: ignore[arg-type]
                   levels=tuple(level.text or "" for level in column.iterchildren(_PX + "level")),
                   col=int(column.get("col")) if column.get("col") is not None else None)
            for column in element.iterchildren(_PX + "column"))
        records = [record for record in element.iterchildren(_PX + "record")]
        parent = element.get("parent-table")
        tables.append(TabularTable(
            index=int(element.get("index", "0")), header_rows=int(element.get("header-rows", "0")),
            header_cols=int(element.get("header-cols", "0")), columns=columns,
            records=tuple(tuple(value.text or "" for value in record.iterchildren(_PX + "value"))
                          for record in records),
            rows=tuple(int(record.get("row", "0")) for record in records),
            caption=element.get("caption"), parent_table=int(parent) if parent is not None else None,
            depth=int(element.get("depth", "0")), locator=element.get("locator"), heading=element.get("heading"),
            hidden=element.get("hidden") == "true", header_method=element.get("header-method"),
            notes=tuple(note.text or "" for note in element.iterchildren(_PX + "note"))))
    return tables
