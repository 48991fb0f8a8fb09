"""The one error table (code -> class -> exit status) and the stylesheets' one message format: every class of
pyxform takes its code and exit status from its row, a class without a row cannot be defined, the stylesheets write
only declared codes, and a coded message becomes the error of its code with its limit as data."""

from __future__ import annotations

import inspect
import pickle
import re
from pathlib import Path

import pytest

from pyxform.base import errors
from pyxform.base.errors import (ERROR_TABLE, STYLESHEET_CODES, CodedMessage, LimitExceeded, NoTableError,
                                 ParameterError, PyxformError, StylesheetError, TableError, UsageError, coded_error,
                                 coded_message, error_class, exit_status, read_message)

STYLESHEETS = Path(__file__).resolve().parent.parent / "stylesheets"


def _classes() -> list[type[BaseException]]:
    return [cls for _, cls in inspect.getmembers(errors, inspect.isclass)
            if issubclass(cls, BaseException) and cls.__module__ == errors.__name__]


def test_every_class_has_its_row_and_every_row_its_class() -> None:
    rows = {row.cls: row for row in ERROR_TABLE if row.cls}
    assert sorted(cls.__name__ for cls in _classes()) == sorted(rows)
    for cls in _classes():
        row = rows[cls.__name__]
        assert (cls.code, cls.exit_code) == (row.code, row.exit)  # type: ignore[attr-defined]
    assert len({row.code for row in ERROR_TABLE}) == len(ERROR_TABLE)  # a code names one row
    assert [row.exit for row in ERROR_TABLE] == sorted(row.exit for row in ERROR_TABLE)
    assert (exit_status("usage"), exit_status("partial"), exit_status("interrupted"),
            exit_status("terminated")) == (2, 13, 130, 143)
    assert UsageError.exit_code == 2 and error_class("limit") is LimitExceeded and error_class("usage") is None


def test_a_class_of_pyxform_without_a_row_cannot_be_defined() -> None:
    namespace = {"__module__": "pyxform.wings.crawl"}
    with pytest.raises(TypeError, match="has no row in pyxform.base.errors.ERROR_TABLE"):
        type("CrawlTrouble", (PyxformError,), namespace)
    with pytest.raises(TypeError, match="come from its row of ERROR_TABLE"):  # one table: no code of its own
        type("TableError", (PyxformError,), {**namespace, "code": "table", "exit_code": 9})
    mine = type("MyError", (LimitExceeded,), {"__module__": "my_program"})  # a user's class inherits
    assert (mine.code, mine.exit_code) == ("limit", 7)


def _codes_written() -> dict[str, set[str]]:
    """Every code the stylesheets write, literally: in ``error-code``, ``[px:CODE]``, ``xs:QName('px:CODE')`` and
    ``px:table-failure/@code``; by file."""
    patterns = [r'error-code="px:([a-z][a-z0-9-]*)"', r"\[px:([a-z][a-z0-9-]*)[] ]", r"QName\('px:([a-z][a-z0-9-]*)'\)",
                r'<px:table-failure[^>]*\bcode="([a-z][a-z0-9-]*)"']
    found: dict[str, set[str]] = {}
    for path in sorted(STYLESHEETS.rglob("*.xsl")):
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            for code in re.findall(pattern, text):
                found.setdefault(code, set()).add(path.relative_to(STYLESHEETS).as_posix())
    return found


def test_the_stylesheets_write_only_declared_codes_and_each_declared_code_is_written() -> None:
    written = _codes_written()
    assert {"no-table", "limit", "bad-parameter", "unknown-cell"} <= set(written)  # the scan finds them
    undeclared = {code: files for code, files in written.items() if code not in STYLESHEET_CODES}
    assert undeclared == {}, "declare them in pyxform.base.errors.STYLESHEET_CODES"
    text = "".join(path.read_text(encoding="utf-8") for path in STYLESHEETS.rglob("*.xsl"))
    assert [code for code in STYLESHEET_CODES if f"'{code}'" not in text and code not in written] == []
    # the old formats are gone: "px:CODE: text", "[pyxform:CODE]"
    assert re.findall(r">\s*px:[a-z-]+:|\[pyxform:", text) == []


def test_one_message_format_read_by_one_reader() -> None:
    assert coded_message("limit", "too big", limit="max_slots") == "[px:limit max_slots] too big"
    assert read_message("[px:limit max_slots] table 3 (/t)\n   could not be normalized") == CodedMessage(
        "limit", "table 3 (/t) could not be normalized", "max_slots")
    assert read_message("[px:unknown-cell] table 0 row 1 slot 2: no cell") == CodedMessage(
        "unknown-cell", "table 0 row 1 slot 2: no cell")
    assert read_message("px:no-table: old format") is None and read_message("a message of yours") is None


def test_a_coded_message_is_the_error_of_its_code_with_its_limit_as_data() -> None:
    limit = coded_error(read_message("[px:limit max_depth] table 2 (/t) could not be normalized: deep"),  # type: ignore[arg-type]
                        location="p.html")
    assert isinstance(limit, LimitExceeded) and limit.limit == "max_depth" and limit.location == "p.html"
    assert limit.message.endswith("(raise it with limits=Limits(max_depth=...))")
    assert type(coded_error(CodedMessage("no-table", "none"))) is NoTableError
    assert type(coded_error(CodedMessage("table", "broken"))) is TableError
    assert type(coded_error(CodedMessage("limit", "no name"))) is TableError  # a limit must be named to be one
    wrong = coded_error(CodedMessage("bad-parameter", "names must be paper or generic"), step="map")
    assert isinstance(wrong, ParameterError) and wrong.step == "map" and wrong.exit_code == 2
    other = coded_error(CodedMessage("not-a-grid", "no"), stylesheet="headers.xsl")
    assert isinstance(other, StylesheetError) and (other.error_code, other.location) == ("px:not-a-grid", "headers.xsl")
    again = pickle.loads(pickle.dumps(limit))
    assert (type(again), again.limit, again.message) == (LimitExceeded, "max_depth", limit.message)
