"""The truth of the pairs evaluation: the header cells that a table's markup assigns to each data slot.

A :class:`Table` is a browser grid (``browser-grids.jsonl``: Chromium's table model) with each cell's ``scope``; a
:class:`Reading` says how its markup is read. :meth:`Table.truth_pairs` gives, per data slot, the row header texts
(outermost first), the column header texts (top first) and the value.

Three readings are measured (``bench/pairs_wikitables.py``):

``Reading()`` -- **WHATWG exactly** (HTML 4.9.12.2, "Forming relationships between data cells and header cells"):
  ``th`` cells are header cells, ``td`` cells data cells; a header cell is a column header if its ``scope`` is
  ``col`` or, in the auto state, no ``td`` covers a slot of its rows; a row header if its scope is ``row`` or, in
  the auto state, it is not a column header and no ``td`` covers a slot of its columns; the "internal algorithm for
  scanning and assigning header cells" from each slot, leftward for row headers and upward for column headers, with
  header blocks and opaque headers (a header cell is skipped when a header cell of a block nearer the data, i.e.
  separated from it by a data cell, has the same anchor and extent across the scan).

``Reading(issue_rules=True)`` -- **the issue's reading** of the markup (issue 4: "repeated header rows and section
  rows are not data rows; a section row heads the rows below it"), which is WHATWG as above except for two kinds of
  rows, found from the grid alone:

  * A **wide row** is a row whose only cell with text is anchored in that row, spans only that row, and either
    spans at least two columns and at least half of the table's columns, or is a ``th`` in a table of at least
    three columns with every other cell of the row empty.
    The **leading rows** are the rows from the top that are blank, wide, or *label rows* (not wide; every cell with
    text a ``th``, or the row in ``thead``), up to the last label row. Below them, a wide row with a non-blank,
    non-wide row somewhere below it is a **section row**; its cell (the row's empty cells are padding, neither
    header nor data) heads, as the outermost row header, every data
    row below it up to the next section row (consecutive section rows nest, outer first), and is no column header:
    the scans pass over it. Wide rows among the leading rows are titles (column headers, as WHATWG has them), except
    that they are the first section rows when the leading rows hold no label row and the table has section rows
    (a succession box), or when a section row in the body is followed by a repeated header row (the table is a
    stack of sub-tables, each with its own title and labels).
  * A **repeated header row** is a row below the leading rows, not wide, at least two of whose cells with text, and
    at least half of them, repeat (white space and case aside) the text of a leading header cell over one of their
    columns: its cells are header cells whatever their tag.

  The auto-state tests count only data cells of rows that are neither section nor repeated header rows.

The review of the disagreements (``bench/data/pairs_review.json``) may add, for one table, a reading that a careful
reader confirms where the markup says something else than its author meant (each with the reason in the review):

``th_heads_row``  a ``th`` that is not a column header heads its row: the auto-state row header test ignores the
                  ``td`` cells of its columns (a "Source:" footer spanning the table, an "NC" cell in a column of
                  race numbers) -- how authors use such ``th`` columns and how browsers' accessibility trees read them;
``summary_rows``  a body row whose cells with text anchored in it are all ``th``, one of which, after the row's
                  first column, holds a digit (a "Total" row set in ``th`` for emphasis), is a data row: its cells
                  are data cells, except those in columns where every data row holds a ``th`` (row headers);
``header_rows``, ``header_cols``  the table's first N rows / columns are header rows / columns even though
                  written with ``td`` (a table whose markup marks no header);
``section_rows``  these rows are section rows (a bold ``td`` alone in its row, "May succeed to Governorship");
``values``        the visible text of the cell at these slots, where the browser's ``innerText`` is not the cell's
                  own text (it includes the text of a nested table, which is a table of its own).

Data slots and pairs: every slot owned by a data cell whose text is not empty (the later cell in tree order owns a
slot covered by several), one pair per slot as Rule 1 reads the normalized table, except that slots of one cell in
one row with the same headers are one pair. Empty header cells are dropped; each header cell counts once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["Cell", "Reading", "Table", "clean_headers", "labels", "squash"]

_LABELS_XSL = Path(__file__).resolve().parent / "data" / "labels.xsl"

_NUMBER = re.compile(r"\d")


@cache
def _label_pipeline() -> Any:
    from pyxform import Pipeline, Step

    return Pipeline([Step.xslt(_LABELS_XSL)])


def labels(texts: list[str]) -> dict[str, str]:
    """{text: label} for header texts, by pyxform's own label rule (``stylesheets/lib/labels.xsl``: reference marks
    such as ``[18]`` cut, white space collapsed), so that header texts are compared as pyxform labels them."""
    from lxml import etree

    distinct = sorted(set(texts))
    if not distinct:
        return {}
    root = etree.Element("texts")
    for text in distinct:
        etree.SubElement(root, "t").text = text
    result = _label_pipeline().run(etree.tostring(root, encoding="unicode"), serialize=True)
    out = etree.fromstring(result.text.encode("utf-8"))
    return dict(zip(distinct, (element.text or "" for element in out), strict=True))


def squash(text: str) -> str:
    """Text with runs of white space collapsed to one space, trimmed."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Reading:
    """How the markup of a table is read (see the module docstring)."""

    issue_rules: bool = False
    th_heads_row: bool = False
    summary_rows: bool = False
    header_rows: int = 0
    header_cols: int = 0
    section_rows: tuple[int, ...] = ()
    overrides: tuple[tuple[int, int, str], ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, *, base: Reading) -> Reading:
        """``base`` with the options of a review entry's ``reading`` object."""
        if not data:
            return base
        unknown = set(data) - {"th_heads_row", "summary_rows", "header_rows", "header_cols", "section_rows", "values"}
        if unknown:
            raise ValueError(f"unknown reading option(s): {sorted(unknown)}")
        return Reading(issue_rules=base.issue_rules, th_heads_row=bool(data.get("th_heads_row", base.th_heads_row)),
                       summary_rows=bool(data.get("summary_rows", base.summary_rows)),
                       header_rows=int(data.get("header_rows", base.header_rows)),
                       header_cols=int(data.get("header_cols", base.header_cols)),
                       section_rows=tuple(int(y) for y in data.get("section_rows", ())),
                       overrides=tuple((int(r), int(c), str(v)) for (r, c), v in data.get("values", ())))


@dataclass
class Cell:
    """One td/th cell of a browser grid: anchor (r, c), effective spans, tag, visible text, scope."""

    index: int
    r: int
    c: int
    rs: int
    cs: int
    tag: str
    text: str
    scope: str
    role: str = field(default="")  # "header", "data" or "section" under a reading

    @property
    def header(self) -> bool:
        return self.role == "header"


class Table:
    """A browser grid with the header assignment of a :class:`Reading`."""

    def __init__(self, record: dict[str, Any], scopes: list[str] | None, reading: Reading | None = None, *,
                 relaxed: bool = False) -> None:
        self.reading = reading or Reading(th_heads_row=relaxed)
        self.rows, self.cols = record["rows"], record["cols"]
        # texts: the browser's innerText (the visible text: hidden sort keys are not part of it)
        self.cells = [Cell(i, c["r"], c["c"], min(c["rs"], max(1, record["rows"] - c["r"])), c["cs"], c["tag"],
                           squash(c["itext"] if c.get("itext") is not None else c["text"]),
                           (scopes[i] if scopes else ""))
                      for i, c in enumerate(record["cells"])]
        self.cover: dict[tuple[int, int], list[Cell]] = {}
        for cell in self.cells:
            for y in range(cell.r, min(cell.r + cell.rs, self.rows)):
                for x in range(cell.c, min(cell.c + cell.cs, self.cols)):
                    self.cover.setdefault((x, y), []).append(cell)
        for r, c, value in self.reading.overrides:
            if (owner := self.owner(c, r)) is not None:
                owner.text = squash(value)
        for cell in self.cells:
            cell.role = "header" if cell.tag == "th" else "data"
        self.kinds = ["data"] * self.rows
        self._apply_reading()
        # rows whose data cells count in the auto-state tests
        counted = [kind not in ("section", "repeat") for kind in self.kinds]
        data_rows = {y for y in range(self.rows) if counted[y] and any(
            c.role == "data" for x in range(self.cols) for c in self.cover.get((x, y), []))}
        data_cols = {x for x in range(self.cols) if any(
            c.role == "data" and counted[y] for y in range(self.rows) for c in self.cover.get((x, y), []))}
        self.column_header = {cell.index: self._is_column_header(cell, data_rows) for cell in self.cells
                              if cell.header}
        self.row_header = {cell.index: self._is_row_header(cell, data_cols) for cell in self.cells if cell.header}
        self.sections = self._section_runs()

    # ------------------------------------------------------------------------------------------------------------
    # Reading the markup
    # ------------------------------------------------------------------------------------------------------------

    def owner(self, x: int, y: int) -> Cell | None:
        """The cell that owns a slot in the dense grid (the later cell in tree order, as the grid format)."""
        cells = self.cover.get((x, y))
        return cells[-1] if cells else None

    def _row_cells(self, y: int) -> list[Cell]:
        seen: list[Cell] = []
        for x in range(self.cols):
            cell = self.owner(x, y)
            if cell is not None and cell not in seen:
                seen.append(cell)
        return seen

    def _apply_reading(self) -> None:
        reading = self.reading
        if reading.header_rows or reading.header_cols:
            for cell in self.cells:
                if cell.r < reading.header_rows or cell.c < reading.header_cols:
                    cell.role = "header"
        if reading.issue_rules:
            self._issue_rules()
        if reading.summary_rows:
            self._summary_rows()

    def _is_wide(self, y: int) -> bool:
        cells = self._row_cells(y)
        texts = [c for c in cells if c.text]
        if len(texts) != 1:
            return False
        only = texts[0]
        if only.r != y or only.rs != 1:
            return False
        return (only.cs >= 2 and only.cs * 2 >= self.cols) or (only.tag == "th" and self.cols >= 3)

    def _is_label(self, y: int, thead: set[int]) -> bool:
        texts = [c for c in self._row_cells(y) if c.text]
        return bool(texts) and not self._is_wide(y) and (y in thead or all(c.role == "header" for c in texts))

    def _issue_rules(self) -> None:
        rows = range(self.rows)
        blank = {y for y in rows if not any(c.text for c in self._row_cells(y))}
        wide = {y for y in rows if self._is_wide(y)}
        thead: set[int] = set()  # the browser grids do not record row groups; thead rows are all th on Wikipedia
        lead_end, last_label = 0, -1
        for y in rows:
            if y in blank or y in wide:
                lead_end = y + 1
            elif self._is_label(y, thead):
                lead_end, last_label = y + 1, y
            else:
                break
        leading = range(last_label + 1) if last_label >= 0 else range(lead_end)
        body = range(len(leading), self.rows)
        substantive = [y for y in body if y not in blank and y not in wide]
        last_data = max(substantive, default=-1)
        listed = set(self.reading.section_rows)
        # repeated header rows below the leading rows
        header_texts: dict[int, set[str]] = {x: set() for x in range(self.cols)}
        for y in leading:
            if y in wide:
                continue
            for x in range(self.cols):
                cell = self.owner(x, y)
                if cell is not None and cell.text and cell.role == "header":
                    header_texts[x].add(cell.text.lower())
        repeats: list[int] = []
        for y in body:
            if y in wide or y in blank or y in listed:
                continue
            texts = [c for c in self._row_cells(y) if c.text]
            count = sum(1 for c in texts if any(c.text.lower() in header_texts[x]
                                                for x in range(c.c, min(c.c + c.cs, self.cols))))
            if count >= 2 and count * 2 >= len(texts):
                repeats.append(y)
        sections = sorted({y for y in body if y in wide and y < last_data} | listed)
        titles = [y for y in leading if y in wide and y not in listed]
        has_labels = any(y not in wide and y not in blank for y in leading)
        if titles and sections and (not has_labels or any(s + 1 in repeats for s in sections)):
            sections = sorted(set(titles) | set(sections))
        for y in sections:
            self.kinds[y] = "section"
            for cell in self._row_cells(y):
                if cell.r == y:  # the text cell, and the empty cells that pad the row: no header, no data
                    cell.role = "section"
        for y in repeats:
            self.kinds[y] = "repeat"
            for cell in self._row_cells(y):
                if cell.r == y and cell.text:
                    cell.role = "header"

    def _texts(self, y: int) -> list[str]:
        return [c.text.lower() for c in self._row_cells(y) if c.text] if 0 <= y < self.rows else []

    def _summary_rows(self) -> None:
        body_start = next((y for y in range(self.rows)
                           if any(c.role == "data" and c.text for c in self._row_cells(y))), self.rows)
        summary = []
        for y in range(body_start, self.rows):
            texts = [c for c in self._row_cells(y) if c.text and c.r == y]
            if (texts and self.kinds[y] == "data" and all(c.tag == "th" for c in texts)
                    and any(c.c >= 1 and _NUMBER.search(c.text) for c in texts)):
                summary.append(y)
        data_rows = [y for y in range(body_start, self.rows) if y not in summary and self.kinds[y] == "data"
                     and any(c.role == "data" for c in self._row_cells(y))]
        th_columns = {x for x in range(self.cols)
                      if (owners := [self.owner(x, y) for y in data_rows])
                      and all(o is not None and o.tag == "th" for o in owners if o is not None and o.text)
                      and any(o is not None and o.text for o in owners)}
        for y in summary:
            self.kinds[y] = "summary"
            for cell in self._row_cells(y):
                if cell.r == y and not all(x in th_columns for x in range(cell.c, min(cell.c + cell.cs, self.cols))):
                    cell.role = "data"

    def _is_column_header(self, cell: Cell, data_rows: set[int]) -> bool:
        if cell.scope == "col":
            return True
        return cell.scope not in ("row", "rowgroup", "colgroup") and not any(
            y in data_rows for y in range(cell.r, cell.r + cell.rs))

    def _is_row_header(self, cell: Cell, data_cols: set[int]) -> bool:
        if cell.scope == "row":
            return True
        return (cell.scope not in ("col", "rowgroup", "colgroup") and not self.column_header[cell.index]
                and (self.reading.th_heads_row or not any(x in data_cols for x in range(cell.c, cell.c + cell.cs))))

    def _section_runs(self) -> list[list[Cell]]:
        """The section cells heading each row, outermost first."""
        out: list[list[Cell]] = []
        run: list[Cell] = []
        previous = False
        for y in range(self.rows):
            cells = [c for c in self._row_cells(y) if c.role == "section" and c.r == y and c.text]
            if cells:
                run = (run if previous else []) + cells[:1]
                previous = True
                out.append([])
            else:
                previous = False
                out.append(run)
        return out

    # ------------------------------------------------------------------------------------------------------------
    # Assignment
    # ------------------------------------------------------------------------------------------------------------

    def scan(self, principal: Cell, x: int, y: int, dx: int, dy: int) -> list[Cell]:
        """WHATWG "internal algorithm for scanning and assigning header cells", from slot (x, y)."""
        found: list[Cell] = []
        opaque: list[Cell] = []
        in_block = principal.header
        block: list[Cell] = [principal] if principal.header else []
        while True:
            x, y = x + dx, y + dy
            if x < 0 or y < 0:
                return found
            covering = self.cover.get((x, y), [])
            if len(covering) != 1 or covering[0].role == "section":
                continue
            current = covering[0]
            if current.header:
                in_block = True
                block.append(current)
                blocked = False
                if dx == 0:
                    blocked = any(o.c == current.c and o.cs == current.cs for o in opaque) or \
                        not self.column_header[current.index]
                if dy == 0:
                    blocked = any(o.r == current.r and o.rs == current.rs for o in opaque) or \
                        not self.row_header[current.index]
                if not blocked:
                    found.append(current)
            elif in_block:
                in_block = False
                opaque.extend(block)
                block = []

    def truth_pairs(self) -> dict[tuple[int, int], tuple[list[str], list[str], str]]:
        """{(row, col): (row header texts outermost first, column header texts top first, value)} per data slot."""
        pairs: dict[tuple[int, int], tuple[list[str], list[str], str]] = {}
        for y in range(self.rows):
            seen: set[tuple[int, tuple[str, ...], tuple[str, ...]]] = set()
            for x in range(self.cols):
                cell = self.owner(x, y)
                if cell is None or cell.role != "data" or not cell.text:
                    continue
                rows = clean_headers(self.sections[y] + self.scan(cell, x, y, -1, 0)[::-1], cell)
                cols = clean_headers(self.scan(cell, x, y, 0, -1), cell)[::-1]
                key = (cell.index, tuple(c.text for c in rows), tuple(c.text for c in cols))
                if key in seen:
                    continue
                seen.add(key)
                pairs[(y, x)] = ([c.text for c in rows], [c.text for c in cols], cell.text)
        return pairs


def clean_headers(headers: list[Cell], principal: Cell) -> list[Cell]:
    """The header cells without empty ones, the principal cell and repeats (first occurrence kept)."""
    out: list[Cell] = []
    for cell in headers:
        if cell.text and cell is not principal and cell not in out:
            out.append(cell)
    return out
