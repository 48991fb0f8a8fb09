"""Resource limits: defaults that real pages never reach, each raisable by an option.

A limit that is hit raises :class:`pyxform.base.errors.LimitExceeded` naming the limit and how to raise it (for a page):
the keyword argument (``limits=Limits(max_slots=...)``, :func:`limit_keyword`) in the words of the Python API, which
the command line shows as its option (``--max-slots``, :data:`LIMIT_OPTIONS`). For one table it records a
``px:table-failure`` with code ``limit`` (the page's other tables go on).

Where each limit is checked, and how the defaults were chosen (``python -m bench.corpus_run`` measures the corpus;
the largest of its 913 pages has 0.87 MB, its largest table 3,770 slots, its largest page 3,772 slots in all, its
deepest table nesting 7):

========================  ==================================================  ===========================  ===========
limit                     checked                                             default                      option
========================  ==================================================  ===========================  ===========
``max_page_bytes``        reading (file, stdin, URL, bytes) and clean         64 MiB (73 x the largest)    ``--max-page-bytes``
``max_tables``            clean, while numbering tables                       20,000                       ``--max-tables``
``max_depth``             clean (a page) and normalize (a table)              64 tables deep (9 x)         ``--max-depth``
``max_slots``             normalize, before any slot exists (a table)         2,500,000 (663 x)            ``--max-slots``
``max_page_slots``        clean, all tables' slots counted from below (page)  5,000,000 (1,326 x 3,772)    ``--max-page-slots``
``timeout``               the worker process of ``convert`` (a page)          300 s                        ``--timeout``
``max_memory``            the worker process of ``convert`` (a page)          8 GiB (RLIMIT_DATA)          ``--max-memory``
``fetch_timeout``         fetching a URL                                      30 s                         ``--fetch-timeout``
``max_fetch_bytes``       fetching a URL (after content decoding)             64 MiB                       --
========================  ==================================================  ===========================  ===========

The page and slot limits let a table of 100,000 rows x 25 columns (about 45 MB of HTML: statistics, exports, logs)
convert without options (issue 17); what bounds such a table's work is then ``timeout`` and ``max_memory``.

``timeout`` and ``max_memory`` need a process that can be stopped: :class:`pyxform.jobs.Worker` runs pages in one. The
in-process functions (:func:`pyxform.convert`, :func:`pyxform.grid`) are bounded by the other limits only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import LimitExceeded, limit_keyword

__all__ = ["Limits", "DEFAULT_LIMITS", "LIMIT_OPTIONS", "MIN_WORKER_MEMORY", "limit_exceeded", "limit_keyword",
           "limit_value", "check_page_bytes"]

#: The smallest ``max_memory`` (bytes) a worker process can start under: loading saxonche and compiling the stylesheets
#: needs about 200 MiB of data segment (measured: 150 MiB fails, 200 MiB starts). ``--max-memory`` refuses less (but 0).
MIN_WORKER_MEMORY: Final = 200 * 2**20

#: The command-line option that raises each limit.
LIMIT_OPTIONS: Final = {
    "max_page_bytes": "--max-page-bytes",
    "max_tables": "--max-tables",
    "max_depth": "--max-depth",
    "max_slots": "--max-slots",
    "max_page_slots": "--max-page-slots",
    "timeout": "--timeout",
    "max_memory": "--max-memory",
    "fetch_timeout": "--fetch-timeout",
    "max_fetch_bytes": "max_fetch_bytes",
}


@dataclass(frozen=True)
class Limits:
    """Resource limits for one page (see the module docstring for where each is checked and why its default).

    :ivar max_page_bytes: largest page accepted, in bytes.
    :ivar max_slots: most slots (rows x columns after span expansion) in one table.
    :ivar max_page_slots: most slots in all the tables of one page, counted from below without the table model (rows
        times the widest row's colspans), so that a page under it always passes; stops many-table span bombs early.
    :ivar max_depth: deepest nesting of tables inside table cells.
    :ivar max_tables: most ``table`` elements in one page.
    :ivar timeout: seconds one page may take in a worker process (0: no limit).
    :ivar max_memory: bytes of memory (data segment) a worker process may use (0: no limit).
    :ivar fetch_timeout: seconds allowed for fetching a URL (connect + read).
    :ivar max_fetch_bytes: largest HTTP response body accepted, in bytes.
    """

    max_page_bytes: int = 64 * 1024 * 1024
    max_slots: int = 2_500_000
    max_page_slots: int = 5_000_000
    max_depth: int = 64
    max_tables: int = 20_000
    timeout: float = 300.0
    max_memory: int = 8 * 1024 * 1024 * 1024
    fetch_timeout: float = 30.0
    max_fetch_bytes: int = 64 * 1024 * 1024


DEFAULT_LIMITS = Limits()


def limit_value(limit: str, limits: Limits) -> str:
    """A limit's value in the unit its option takes: ``300`` (seconds), ``16777216`` (bytes), ``210 MiB`` for
    ``max_memory`` (``--max-memory`` takes MiB)."""
    value = getattr(limits, limit)
    if limit == "max_memory":
        return f"{value / 2**20:g} MiB"
    return f"{value:g}" if isinstance(value, float) else str(value)


def check_page_bytes(size: int, limits: Limits, location: str | None) -> None:
    """:raises LimitExceeded: a page of ``size`` bytes is over ``limits.max_page_bytes`` (reading a page, clean)."""
    if size > limits.max_page_bytes:
        raise limit_exceeded("max_page_bytes", f"the page has more than {limits.max_page_bytes} bytes",
                             limits=limits, location=location)


def limit_exceeded(limit: str, what: str, *, limits: Limits, location: str | None = None) -> LimitExceeded:
    """The error for a limit that was hit: ``WHAT (limit NAME = VALUE; raise it with limits=Limits(NAME=...))``
    (:func:`limit_keyword`; the command line shows the option instead).

    :param limit: the field name of :class:`Limits` (``max_page_bytes``, ``timeout``, ...).
    :param what: what was found, e.g. ``"the page has more than 16777216 bytes"``.
    """
    return LimitExceeded(f"{what} (limit {limit} = {limit_value(limit, limits)}; raise it with "
                         f"{limit_keyword(limit)})", limit=limit, location=location)
