"""The exceptions pyxform raises, and the one table of error codes, classes and exit statuses.

:data:`ERROR_TABLE` is the one place where an error code, its class and the command line's exit status are written:
every class below takes its ``code`` and ``exit_code`` from its row (a class of pyxform without a row cannot be
defined), the command line's other exit statuses (usage 2, some inputs failed 13, Ctrl-C 130, SIGTERM 143) are rows
too, and ``docs/errors.md``'s table is generated from it (``python -m pyxform.runtime.docs``).

Every error carries a ``code`` (a short stable string, also shown by the CLI), a ``location`` (where in the input the
problem is: a file name, a URL, a table index and locator, a line) and an ``exit_code`` for the command line. Every
error pickles and unpickles as itself, with all its attributes (``code``, ``location``, ``limit``, ``error_code``,
``errors``, ...): a worker process, a Dask worker or a crawler ships them (:meth:`PyxformError.__reduce__`, one
rule for every class).

pyxform's stylesheets say why they stop in one format, ``[px:CODE] MESSAGE`` (``[px:limit NAME] MESSAGE`` for a
resource limit, NAME a field of :class:`pyxform.base.limits.Limits`), read by :func:`read_message`; every code they
write is declared in :data:`STYLESHEET_CODES`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple


class ErrorCode(NamedTuple):
    """One row of :data:`ERROR_TABLE`.

    :ivar exit: the command line's exit status.
    :ivar code: the error's ``code``; for a status that is no error's (``cls`` is ``None``), the status's name.
    :ivar cls: the name of the exception class of this module, or ``None``.
    :ivar meaning: what it means, for ``docs/errors.md``.
    """

    exit: int
    code: str
    cls: str | None
    meaning: str


#: Every exit status of the command line, and every error code with its class, in the order of the exit statuses.
ERROR_TABLE: Final[tuple[ErrorCode, ...]] = (
    ErrorCode(0, "ok", None, "done; also a page where some tables failed and others were converted (a warning per "
              "failed table)"),
    ErrorCode(1, "error", "PyxformError", "the base class"),
    ErrorCode(1, "internal", "InternalError", "an error pyxform did not expect (a bug: please report it with the "
              "page)"),
    ErrorCode(1, "crash", "WorkerCrash", "the worker process converting a page died without an answer (a bug)"),
    ErrorCode(2, "usage", "UsageError", "usage: an option or a combination of options the command cannot serve"),
    ErrorCode(2, "bad-parameter", "ParameterError", "a stylesheet parameter a step does not declare, or a value it "
              "cannot take"),
    ErrorCode(2, "empty-query", "EmptyQuery", "a search query with no word to search for (`search`)"),
    ErrorCode(3, "input", "InputError", "the input could not be read"),
    ErrorCode(3, "not-found", "InputNotFound", "the input file (or the schema `validate` looks for) does not exist or "
              "cannot be read"),
    ErrorCode(3, "archive", "ArchiveError", "a WARC file that is no WARC, or a record of it that cannot be read "
              "(truncated, cut short, one gzip stream)"),
    ErrorCode(4, "empty", "EmptyInput", "the input holds no bytes, or only white space"),
    ErrorCode(5, "undecodable", "UndecodableInput", "the input is not text in any encoding (binary data)"),
    ErrorCode(6, "no-table", "NoTableError", "the page has no table, or no table N (`--table N`)"),
    ErrorCode(7, "limit", "LimitExceeded", "a resource limit: page bytes, tables, nesting, slots, time, memory"),
    ErrorCode(8, "fetch", "FetchError", "a URL not fetched: network error, HTTP status, size or time cap, bad "
              "redirect"),
    ErrorCode(8, "forbidden-address", "ForbiddenAddress", "a URL that resolves to a private, loopback, link-local or "
              "reserved address"),
    ErrorCode(8, "unsupported-scheme", "UnsupportedScheme", "a URL (or a redirect's target) that is not http(s): "
              "`file:`, `ftp:`, ..."),
    ErrorCode(9, "table", "TableError", "a table could not be processed (`--table N`, or every table of the page)"),
    ErrorCode(10, "xslt", "StylesheetError", "an XSLT stylesheet failed to compile or to run"),
    ErrorCode(10, "step", "StepError", "a Python step of a pipeline raised an exception"),
    ErrorCode(11, "invalid", "ValidationError", "an XML document does not validate against its schema (`validate`)"),
    ErrorCode(12, "query", "QueryError", "an XPath / XQuery expression failed, or its document could not be read"),
    ErrorCode(13, "partial", None, "several inputs, some of which failed (`convert A B C`, `index`), or files of a "
              "`query` folder skipped"),
    ErrorCode(14, "bad-xml", "BadXmlInput", "an XML input that is not well-formed, or declares or uses entities, or "
              "a grid document that is not one"),
    ErrorCode(15, "output", "OutputError", "an output that cannot be written, or would overwrite an input or another "
              "output"),
    ErrorCode(16, "crawl-state", "CrawlStateError", "a crawl folder that holds a crawl of other seeds or another topic "
              "(`crawl --restart` starts afresh), or a database that is not a crawl's, or that another crawl is "
              "running in"),
    ErrorCode(17, "index", "SearchIndexError", "no search index in the folder, not an index, or one of another version "
              "(`search`, `serve`, `index`)"),
    ErrorCode(18, "cluster", "ClusterError", "`batch`: the Dask cluster cannot run it (no scheduler, no worker, a "
              "worker that cannot write the batch folder or runs another pyxform)"),
    ErrorCode(130, "interrupted", None, "interrupted (Ctrl-C, SIGINT); the worker process is ended first"),
    ErrorCode(143, "terminated", None, "stopped by SIGTERM (the output being written and the worker process are "
              "cleaned up first)"),
)

#: Every code pyxform's stylesheets write (``[px:CODE] MESSAGE`` in ``xsl:message``, ``px:table-failure/@code``,
#: ``error(xs:QName('px:CODE'))``) and what it says. A stylesheet that stops with a code of :data:`ERROR_TABLE` raises
#: that error; with another, a :class:`StylesheetError` whose ``error_code`` is ``px:CODE``; a message that does not
#: stop the run is a warning.
STYLESHEET_CODES: Final[Mapping[str, str]] = MappingProxyType({
    "no-table": "the page has no table, or no table with the index asked for (`NoTableError`)",
    "table": "a table the table model could not build (`TableError`; `px:table-failure` of normalize)",
    "limit": "a table over a resource limit, `[px:limit NAME]` (`LimitExceeded`; `px:table-failure` of normalize)",
    "bad-parameter": "a stylesheet parameter outside the values it takes (`ParameterError`)",
    "not-a-grid": "the input of the headers stage is not a grid document",
    "no-header-annotations": "map: a table without the headers stage's annotations",
    "map": "map: a table whose mapping failed (`px:table-failure` in the output)",
    "unsupported": "schema: a document element in a namespace",
    "unknown-cell": "headers: a slot that names no cell of its table (a warning; the slot is read as empty)",
})

_EXIT_STATUS: Final = {row.code: row.exit for row in ERROR_TABLE}
_ROWS_BY_CLASS: Final = {row.cls: row for row in ERROR_TABLE if row.cls is not None}


def exit_status(code: str) -> int:
    """The exit status of an error code, or of a status that is no error's (``ok``, ``partial``, ``interrupted``,
    ``terminated``). :raises KeyError: an unknown code."""
    return _EXIT_STATUS[code]


#: Exit statuses of the command line that are no error's.
EXIT_OK: Final = exit_status("ok")
EXIT_USAGE: Final = exit_status("usage")
#: A run over several inputs (or a query over a folder) in which some failed and the others succeeded.
EXIT_PARTIAL_FAILURE: Final = exit_status("partial")
EXIT_INTERRUPTED: Final = exit_status("interrupted")
EXIT_TERMINATED: Final = exit_status("terminated")


def _bind(cls: type) -> None:
    """Set ``code`` and ``exit_code`` of a class of this package from its row of :data:`ERROR_TABLE` (a class defined
    elsewhere, e.g. in a user's program, inherits its parent's).

    :raises TypeError: a class of pyxform without a row, or one that sets ``code`` or ``exit_code`` itself.
    """
    row = _ROWS_BY_CLASS.get(cls.__name__)
    if not cls.__module__.startswith("pyxform"):
        return
    if row is None:
        raise TypeError(f"{cls.__name__} has no row in pyxform.base.errors.ERROR_TABLE: add (exit status, code, "
                        f"{cls.__name__!r}, meaning) there")
    if "code" in vars(cls) or "exit_code" in vars(cls):
        raise TypeError(f"{cls.__name__} sets code or exit_code itself: they come from its row of ERROR_TABLE")
    cls.code = row.code  # type: ignore[attr-defined]
    cls.exit_code = row.exit  # type: ignore[attr-defined]


class PyxformError(Exception):
    """Base class of every error pyxform raises on purpose.

    :param message: what went wrong, in words a user can act on.
    :param location: where: a path, URL, ``table 3 (/html/body/table[2])``, ``line 12``; ``None`` if unknown.
    """

    code: str
    exit_code: int

    def __init__(self, message: str, *, location: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _bind(cls)

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as this class with every attribute as it is now (also ones set after the constructor, such as a
        ``location`` added by a caller), without calling ``__init__``: subclasses need nothing of their own."""
        return (_restore, (type(self), self.args), dict(self.__dict__))


_bind(PyxformError)


def _restore(cls: type[PyxformError], args: tuple[Any, ...]) -> PyxformError:
    """An instance of ``cls`` with the exception arguments ``args``; :meth:`PyxformError.__reduce__` then sets its
    attributes."""
    return cls.__new__(cls, *args)


class InputError(PyxformError):
    """The input could not be read."""


class InputNotFound(InputError):
    """The input file does not exist or is not a readable file."""


class EmptyInput(InputError):
    """The input holds no bytes, or only white space ("the page is empty", "the page holds only white space")."""


class UndecodableInput(InputError):
    """The input's bytes are not text in any encoding we can determine (e.g. binary data)."""


class ArchiveError(InputError):
    """A web archive cannot be read as one: a file that is not a WARC, a record that is truncated or whose
    ``Content-Length`` runs past its end, a gzip file that is one stream rather than one member per record
    (ISO 28500 annex D), an HTTP body whose ``Content-Encoding`` cannot be decoded. The location names the file
    and the record's byte offset."""


class FetchError(InputError):
    """An http(s) input could not be fetched (network error, HTTP status, size or time cap, bad redirect)."""


class ForbiddenAddress(FetchError):
    """A URL resolved to a private, loopback or link-local address (or another address that is not global)."""


class UnsupportedScheme(FetchError):
    """A URL (given, or the target of a redirect) whose scheme is not ``http`` or ``https`` (``file:``, ``ftp:``
    ...): pyxform fetches nothing else."""


class NoTableError(PyxformError):
    """The page holds no ``table`` element (or ``--table N`` names a table that does not exist)."""


class LimitExceeded(PyxformError):
    """A resource limit was reached (page bytes, slots per table, nesting depth, time per page).

    :param limit: the name of the limit (``max_slots``, ``max_depth``, ...) and the option that raises it.
    """

    def __init__(self, message: str, *, limit: str, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.limit = limit


class TableError(PyxformError):
    """One table could not be processed; the other tables of the page are not affected."""


class StylesheetError(PyxformError):
    """An XSLT stylesheet failed to compile or to run.

    :param error_code: Saxon's error code (``XTDE0640``, ``FODC0005``, ...), or ``px:CODE`` for a code of
        :data:`STYLESHEET_CODES`, if known.
    """

    def __init__(self, message: str, *, error_code: str | None = None, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.error_code = error_code


class StepError(PyxformError):
    """A Python step of a pipeline (:meth:`pyxform.runtime.steps.Step.python`) raised an exception, or returned
    something that is not a tree. The exception it raised is the ``__cause__``.

    :param step: the step's name.
    """

    def __init__(self, message: str, *, step: str, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.step = step


class ParameterError(PyxformError, ValueError):
    """A stylesheet parameter refused before anything runs: a step the pipeline does not have, a parameter a
    built-in step does not declare, or a value the parameter's declared type or its fixed set of values cannot take.
    Also a :class:`ValueError`; the command line reports it as a usage error (exit code 2).

    :param step: the step's name; :param parameter: the parameter's name (``None`` for an unknown step).
    """

    def __init__(self, message: str, *, step: str, parameter: str | None = None,
                 location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.step = step
        self.parameter = parameter


class ValidationError(PyxformError):
    """An XML document is not valid against its schema. ``errors`` lists ``(line, message)`` pairs."""

    def __init__(self, message: str, *, errors: list[tuple[int | None, str]] | None = None,
                 location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.errors = errors or []


class QueryError(PyxformError):
    """An XPath or XQuery expression could not be compiled or evaluated, or its document could not be read.

    :param error_code: Saxon's error code (``XPST0003``, ``XPTY0004``, ...), if known.
    """

    def __init__(self, message: str, *, error_code: str | None = None, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.error_code = error_code


class BadXmlInput(InputError):
    """An XML input (a grid document, an output file given to ``schema``) is not well-formed, or declares or uses
    entities (pyxform never expands an entity nor reads a DTD, so such a document is refused rather than misread),
    or a grid document that does not follow its schema or whose tables are not the size they declare."""


class OutputError(PyxformError):
    """An output file could not be written (disk full, no permission, no such folder; the old file is intact), or
    it would overwrite an input or another output of the same run (refused before anything is read)."""


class SearchIndexError(PyxformError):
    """A search index that cannot be opened: no index in the folder, not an index, or one of another version."""


class EmptyQuery(PyxformError, ValueError):
    """A search query with no word to search for (empty, only spaces, punctuation or symbols)."""


class CrawlStateError(PyxformError):
    """A crawl folder cannot be used with these settings: it holds a crawl of other seeds or another topic (start
    afresh with ``--restart``), its database is not a crawl's, or another crawl is running in it."""


class WorkerCrash(PyxformError):
    """The worker process that converted a page died without an answer (a crash of Saxon or Python: a bug)."""


class ClusterError(PyxformError):
    """The Dask cluster of ``pyxform batch`` cannot run it: the scheduler cannot be reached, no worker joins, a
    worker cannot write the batch folder or runs another version of pyxform, or the connection is lost. The pages
    recorded so far stay recorded: ``--resume`` goes on from there."""


class InternalError(PyxformError):
    """An error pyxform did not expect (a bug: please report it with the page): the message names the Python
    exception (``KeyError: 'x'``). A page job records it (:func:`pyxform.jobs.run_page`) instead of raising, so one
    page never stops a batch or a crawl."""


class UsageError(Exception):
    """A combination of options or inputs a command cannot serve, found before any page is read (the command line
    prints the message and a pointer to ``--help``, and exits 2). Not a :class:`PyxformError`: it is about the
    options, not about an input."""

    code: str
    exit_code: int


_bind(UsageError)


def error_class(code: str) -> type[PyxformError] | None:
    """The :class:`PyxformError` class of an error code of :data:`ERROR_TABLE`, or ``None``."""
    for row in ERROR_TABLE:
        if row.code == code and row.cls is not None:
            found = globals()[row.cls]
            return found if issubclass(found, PyxformError) else None
    return None


# -- the stylesheets' messages -----------------------------------------------------------------------------------
_CODED_MESSAGE: Final = re.compile(r"\s*\[px:(?P<code>[a-z][a-z0-9-]*)(?: (?P<limit>[a-z][a-z0-9_]*))?\] ?(?P<text>.*)",
                                   re.DOTALL)


@dataclass(frozen=True)
class CodedMessage:
    """A message of pyxform's stylesheets read by :func:`read_message`.

    :ivar code: a code of :data:`STYLESHEET_CODES`. :ivar text: the message, white space collapsed.
    :ivar limit: for ``limit``: the limit's name (a field of :class:`pyxform.base.limits.Limits`).
    """

    code: str
    text: str
    limit: str | None = None


def coded_message(code: str, text: str, *, limit: str | None = None) -> str:
    """A message in the stylesheets' one format: ``[px:CODE] TEXT`` (``[px:limit NAME] TEXT``)."""
    return f"[px:{code}{' ' + limit if limit else ''}] {text}"


def read_message(text: str) -> CodedMessage | None:
    """Read a message in the stylesheets' one format (:func:`coded_message`); ``None`` for any other text (a user
    stylesheet's message)."""
    match = _CODED_MESSAGE.fullmatch(text)
    if match is None:
        return None
    return CodedMessage(match["code"], " ".join(match["text"].split()), match["limit"])


def limit_keyword(limit: str) -> str:
    """How the Python API raises a limit: ``limits=Limits(max_slots=...)`` (the command line shows its option
    instead, :data:`pyxform.base.limits.LIMIT_OPTIONS`)."""
    return f"limits=Limits({limit}=...)"


def coded_error(message: CodedMessage, *, location: str | None = None, stylesheet: str | None = None,
                step: str | None = None) -> PyxformError:
    """The error of a coded message (a stylesheet that stopped, a failed table): the class of its code
    (:data:`ERROR_TABLE`; a limit says how to raise it), else a :class:`StylesheetError` with ``error_code``
    ``px:CODE`` located at ``stylesheet``.

    :param step: the pipeline step that ran the stylesheet (for :class:`ParameterError`).
    """
    kind = error_class(message.code)
    if kind is LimitExceeded:
        if message.limit:
            return LimitExceeded(f"{message.text} (raise it with {limit_keyword(message.limit)})", limit=message.limit,
                                 location=location)
        kind = TableError  # a limit without its name (a grid written by an older pyxform)
    if kind is ParameterError:
        return ParameterError(message.text, step=step or stylesheet or "", location=location)
    if kind is NoTableError or kind is TableError:
        return kind(message.text, location=location)
    return StylesheetError(message.text, error_code=f"px:{message.code}", location=location or stylesheet)


def table_failure_error(index: int, locator: str, code: str, message: str, *, limit: str | None = None,
                        location: str | None = None) -> PyxformError:
    """The error of a table asked for alone (``--table N``) that could not be normalized (``px:table-failure``:
    its code and limit, as data): :class:`LimitExceeded` for a limit (exit 7), else :class:`TableError` (exit 9).
    The map stage says the same for ``convert`` (``stylesheets/map/document.xsl``)."""
    text = f"table {index} ({locator}) could not be normalized: {message}"
    return coded_error(CodedMessage(code if code == "limit" else "table", text, limit), location=location)


def no_table_error(index: int | None, indexes: Sequence[int] = (), *, location: str | None = None) -> NoTableError:
    """The page has no table (``index`` ``None``), or none with this index (``indexes``: those of the tables it
    has). The map stage says the same for ``convert`` (``stylesheets/map/document.xsl``)."""
    if index is None:
        return NoTableError("the page has no table", location=location)
    known = f", indexes {min(indexes)} to {max(indexes)}" if indexes else ""
    return NoTableError(f"the page has no table {index} (it has {len(indexes)} table(s){known})", location=location)


__all__ = ["ERROR_TABLE", "ErrorCode", "STYLESHEET_CODES", "exit_status", "error_class", "EXIT_OK", "EXIT_USAGE",
           "EXIT_PARTIAL_FAILURE", "EXIT_INTERRUPTED", "EXIT_TERMINATED", "CodedMessage", "coded_message",
           "read_message", "coded_error", "limit_keyword", "table_failure_error", "no_table_error", *_ROWS_BY_CLASS]
