"""The index's fields, declared once: what each holds, and its default weight in the text score.

Each table of a page is one document with these fields (``docs/search.md`` "Fields"). The engine's schema, the
extractor and the ranking all read this list; nothing else names a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["Field", "FIELDS", "FIELD_NAMES"]


@dataclass(frozen=True)
class Field:
    """One text field of a table document.

    :ivar name: the field's name in the index and in ``--weight NAME=W``.
    :ivar holds: what text it holds (documentation).
    """

    name: str
    holds: str


#: The fields, in the engine's column order.
FIELDS: Final[tuple[Field, ...]] = (
    Field("title", "the page title (<title>)"),
    Field("url", "the words of the page URL (host labels, path segments, query values)"),
    Field("heading", "the text of the nearest h1-h6 before the table (px:heading)"),
    Field("caption", "the table's caption"),
    Field("headers", "the column header texts (every header row), each column's header path"),
    Field("rowheaders", "the row header texts: the header columns' cells and the section rows"),
    Field("cells", "the data cell values"),
)

FIELD_NAMES: Final[tuple[str, ...]] = tuple(field.name for field in FIELDS)
