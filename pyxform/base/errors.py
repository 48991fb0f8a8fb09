"""The exceptions pyxform raises, and the exit code of each.

Every error carries a ``code`` (a short stable string, also shown by the CLI), a ``location`` (where in the input the
problem is: a file name, a URL, a table index and locator, a line) and an ``exit_code`` for the command line. The
table of codes, classes and exit codes is in ``docs/errors.md``, the one place they are listed (``tests/test_docs.py``
keeps it equal to the classes below).

Every error pickles and unpickles as itself, with all its attributes (``code``, ``location``, ``limit``,
``error_code``, ``errors``, ...): a worker process, a Dask worker or a crawler ships them (:meth:`PyxformError.
__reduce__`, one rule for every class).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "PyxformError",
    "InputError",
    "InputNotFound",
    "EmptyInput",
    "UndecodableInput",
    "ArchiveError",
    "FetchError",
    "ForbiddenAddress",
    "UnsupportedScheme",
    "BadXmlInput",
    "NoTableError",
    "LimitExceeded",
    "TableError",
    "StylesheetError",
    "StepError",
    "ParameterError",
    "ValidationError",
    "QueryError",
    "OutputError",
    "SearchIndexError",
    "EmptyQuery",
    "WorkerCrash",
    "ClusterError",
    "InternalError",
    "UsageError",
    "CrawlStateError",
    "EXIT_PARTIAL_FAILURE",
]

#: Exit code of a batch run in which some inputs failed and the others succeeded.
EXIT_PARTIAL_FAILURE = 13


class PyxformError(Exception):
    """Base class of every error pyxform raises on purpose.

    :param message: what went wrong, in words a user can act on.
    :param location: where: a path, URL, ``table 3 (/html/body/table[2])``, ``line 12``; ``None`` if unknown.
    """

    code: str = "error"
    exit_code: int = 1

    def __init__(self, message: str, *, location: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as this class with every attribute as it is now (also ones set after the constructor, such as a
        ``location`` added by a caller), without calling ``__init__``: subclasses need nothing of their own."""
        return (_restore, (type(self), self.args), dict(self.__dict__))


def _restore(cls: type[PyxformError], args: tuple[Any, ...]) -> PyxformError:
    """An instance of ``cls`` with the exception arguments ``args``; :meth:`PyxformError.__reduce__` then sets its
    attributes."""
    return cls.__new__(cls, *args)


class InputError(PyxformError):
    """The input could not be read."""

    code = "input"
    exit_code = 3


class InputNotFound(InputError):
    """The input file does not exist or is not a readable file."""

    code = "not-found"
    exit_code = 3


class EmptyInput(InputError):
    """The input holds no bytes, or only white space ("the page is empty", "the page holds only white space")."""

    code = "empty"
    exit_code = 4


class UndecodableInput(InputError):
    """The input's bytes are not text in any encoding we can determine (e.g. binary data)."""

    code = "undecodable"
    exit_code = 5


class ArchiveError(InputError):
    """A web archive cannot be read as one: a file that is not a WARC, a record that is truncated or whose
    ``Content-Length`` runs past its end, a gzip file that is one stream rather than one member per record
    (ISO 28500 annex D), an HTTP body whose ``Content-Encoding`` cannot be decoded. The location names the file
    and the record's byte offset."""

    code = "archive"
    exit_code = 3


class FetchError(InputError):
    """An http(s) input could not be fetched (network error, HTTP status, size or time cap, bad redirect)."""

    code = "fetch"
    exit_code = 8


class ForbiddenAddress(FetchError):
    """A URL resolved to a private, loopback or link-local address (or another address that is not global)."""

    code = "forbidden-address"
    exit_code = 8


class UnsupportedScheme(FetchError):
    """A URL (given, or the target of a redirect) whose scheme is not ``http`` or ``https`` (``file:``, ``ftp:``
    ...): pyxform fetches nothing else."""

    code = "unsupported-scheme"
    exit_code = 8


class NoTableError(PyxformError):
    """The page holds no ``table`` element (or ``--table N`` names a table that does not exist)."""

    code = "no-table"
    exit_code = 6


class LimitExceeded(PyxformError):
    """A resource limit was reached (page bytes, slots per table, nesting depth, time per page).

    :param limit: the name of the limit (``max_slots``, ``max_depth``, ...) and the option that raises it.
    """

    code = "limit"
    exit_code = 7

    def __init__(self, message: str, *, limit: str, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.limit = limit


class TableError(PyxformError):
    """One table could not be processed; the other tables of the page are not affected."""

    code = "table"
    exit_code = 9


class StylesheetError(PyxformError):
    """An XSLT stylesheet failed to compile or to run.

    :param error_code: Saxon's error code (``XTDE0640``, ``FODC0005``, ...), if known.
    """

    code = "xslt"
    exit_code = 10

    def __init__(self, message: str, *, error_code: str | None = None, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.error_code = error_code


class StepError(PyxformError):
    """A Python step of a pipeline (:meth:`pyxform.runtime.steps.Step.python`) raised an exception, or returned something
    that is not a tree. The exception it raised is the ``__cause__``.

    :param step: the step's name.
    """

    code = "step"
    exit_code = 10

    def __init__(self, message: str, *, step: str, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.step = step


class ParameterError(PyxformError, ValueError):
    """A stylesheet parameter refused before anything runs: a step the pipeline does not have, a parameter a
    built-in step does not declare, or a value the parameter's declared type or its fixed set of values cannot take.
    Also a :class:`ValueError`; the command line reports it as a usage error (exit code 2).

    :param step: the step's name; :param parameter: the parameter's name (``None`` for an unknown step).
    """

    code = "bad-parameter"
    exit_code = 2

    def __init__(self, message: str, *, step: str, parameter: str | None = None,
                 location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.step = step
        self.parameter = parameter


class ValidationError(PyxformError):
    """An XML document is not valid against its schema. ``errors`` lists ``(line, message)`` pairs."""

    code = "invalid"
    exit_code = 11

    def __init__(self, message: str, *, errors: list[tuple[int | None, str]] | None = None,
                 location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.errors = errors or []


class QueryError(PyxformError):
    """An XPath or XQuery expression could not be compiled or evaluated, or its document could not be read.

    :param error_code: Saxon's error code (``XPST0003``, ``XPTY0004``, ...), if known.
    """

    code = "query"
    exit_code = 12

    def __init__(self, message: str, *, error_code: str | None = None, location: str | None = None) -> None:
        super().__init__(message, location=location)
        self.error_code = error_code


class BadXmlInput(InputError):
    """An XML input (a grid document, an output file given to ``schema``) is not well-formed, or declares or uses
    entities: pyxform never expands an entity nor reads a DTD, so such a document is refused rather than misread."""

    code = "bad-xml"
    exit_code = 14


class OutputError(PyxformError):
    """An output file could not be written (disk full, no permission, no such folder); the old file is intact."""

    code = "output"
    exit_code = 15


class SearchIndexError(PyxformError):
    """A search index that cannot be opened: no index in the folder, not an index, or one of another version."""

    code = "index"
    exit_code = 17


class EmptyQuery(PyxformError, ValueError):
    """A search query with no word to search for (empty, only spaces, punctuation or symbols)."""

    code = "empty-query"
    exit_code = 2


class WorkerCrash(PyxformError):
    """The worker process that converted a page died without an answer (a crash of Saxon or Python: a bug)."""

    code = "crash"
    exit_code = 1


class ClusterError(PyxformError):
    """The Dask cluster of ``pyxform batch`` cannot run it: the scheduler cannot be reached, no worker joins, a
    worker cannot write the batch folder or runs another version of pyxform, or the connection is lost. The pages
    recorded so far stay recorded: ``--resume`` goes on from there."""

    code = "cluster"
    exit_code = 18


class InternalError(PyxformError):
    """An error pyxform did not expect (a bug: please report it with the page): the message names the Python
    exception (``KeyError: 'x'``). A page job records it (:func:`pyxform.jobs.run_page`) instead of raising, so one
    page never stops a batch or a crawl."""

    code = "internal"
    exit_code = 1


class UsageError(Exception):
    """A combination of options or inputs a command cannot serve, found before any page is read (the command line
    exits 2 and shows the usage). Not a :class:`PyxformError`: it is about the options, not about an input."""


class CrawlStateError(PyxformError):
    """A crawl folder cannot be resumed with these settings: it holds a crawl of other seeds or another topic (start
    afresh with ``--restart``), or its database is not a crawl's."""

    code = "crawl-state"
    exit_code = 16
