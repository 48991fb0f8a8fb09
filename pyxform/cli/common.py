"""What the verb modules of the command line share: a command's declaration, argument types, the limit options,
writing to standard output, and the error lines.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, in the command line's words
(:func:`command_line_message`: options where the Python API names keyword arguments).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..base.errors import EXIT_OK, EXIT_USAGE, InputError, InputNotFound, InternalError, OutputError, PyxformError, read_message
from ..base.limits import DEFAULT_LIMITS, LIMIT_OPTIONS, MIN_WORKER_MEMORY, Limits, limit_keyword
from ..base.source import looks_like_url

if TYPE_CHECKING:
    from ..jobs import TableFailureInfo as TableFailure

__all__ = ["Command", "EXIT_OK", "EXIT_INTERNAL", "EXIT_USAGE", "write_output", "report_error", "report_internal",
           "report_warnings",
           "command_line_message", "OPTION_FOR_KEYWORD", "limit_arguments", "worker_arguments", "limits_of", "whole_number",
           "table_index",
           "pipeline_arguments", "local_file", "input_file"]

EXIT_INTERNAL = InternalError.exit_code


@dataclass(frozen=True)
class Command:
    """One sub-command: its name, one-line help, and the functions that declare and run it (the run returns the
    exit code); ``on_interrupt``: what the line printed after Ctrl-C adds (how to go on, for a command that
    resumes)."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    on_interrupt: str = ""


# -- writing --------------------------------------------------------------------------------------------------------
def write_output(text: str, stream: BinaryIO | None = None) -> None:
    """Write ``text`` as UTF-8 to standard output (whatever the locale), ending with a line feed.

    :raises OutputError: standard output cannot be written (disk full, ...).
    """
    out = stream or sys.stdout.buffer
    try:
        out.write(text.encode("utf-8"))
        if not text.endswith("\n"):
            out.write(b"\n")
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as error:  # e.g. standard output on a full disk
        raise OutputError(f"cannot write the output: {error.strerror or error}", location="standard output") from None


#: The Python API's words for raising a limit or allowing private addresses (in the messages of pyxform's errors),
#: and the option that does it on the command line.
OPTION_FOR_KEYWORD: dict[str, str] = {
    **{limit_keyword(limit): option for limit, option in LIMIT_OPTIONS.items() if option.startswith("--")},
    "allow_private=True": "--allow-private",
    "allow_io=True": "--allow-io",
    "option table=...": "option --table",
    "option names=...": "option --names",
    "option method=...": "option --method",
}


def command_line_message(message: str) -> str:
    """An error message in the command line's words: ``raise it with limits=Limits(max_slots=...)`` becomes
    ``raise it with --max-slots`` (:data:`OPTION_FOR_KEYWORD`)."""
    for keyword, option in OPTION_FOR_KEYWORD.items():
        if keyword in message:
            message = message.replace(keyword, option)
    return message


def report_error(error: PyxformError) -> None:
    """Print ``pyxform: error [code]: location: message`` on standard error (``[xslt XTDE0640]``: with Saxon's
    error code for a stylesheet error), in the command line's words (:func:`command_line_message`); an
    :class:`~pyxform.base.errors.InternalError` as :func:`report_internal` says it."""
    if isinstance(error, InternalError):
        report_internal(error.message, error.location)
        return
    location = f"{error.location}: " if error.location else ""
    detail = getattr(error, "error_code", None)
    code = f"{error.code} {detail}" if detail else error.code
    print(f"pyxform: error [{code}]: {location}{command_line_message(error.message)}", file=sys.stderr)


def report_internal(message: str, where: str | None = None) -> None:
    """Print ``pyxform: internal error: [WHERE: ]TYPE: MESSAGE (please report this)`` on standard error."""
    print(f"pyxform: internal error: {where + ': ' if where else ''}{message} (please report this)", file=sys.stderr)


def report_warnings(source: str, failures: Sequence[TableFailure], messages: Sequence[str]) -> None:
    """Print a page's warnings on standard error, the same in every command: each table that failed while the
    others went on (``pyxform: warning [CODE]: SOURCE: table I (LOCATOR): MESSAGE``), then each message, a coded one
    of pyxform's stylesheets with its code (``pyxform: warning [unknown-cell]: SOURCE: ...``, read by
    :func:`pyxform.base.errors.read_message`), any other after the source."""
    for failure in failures:
        print(f"pyxform: warning [{failure.code}]: {source}: table {failure.index} ({failure.locator}): "
              f"{command_line_message(failure.message)}", file=sys.stderr)
    for message in messages:
        coded = read_message(message)
        if coded is not None:
            print(f"pyxform: warning [{coded.code}]: {source}: {coded.text}", file=sys.stderr)
        else:
            print(f"pyxform: warning: {source}: {message}", file=sys.stderr)


# -- arguments ------------------------------------------------------------------------------------------------------
_LIMIT_ARGUMENTS: tuple[tuple[str, str, str], ...] = (
    ("max_page_bytes", "BYTES", "largest page accepted"),
    ("max_tables", "N", "most tables in one page"),
    ("max_depth", "N", "deepest nesting of tables in table cells"),
    ("max_slots", "N", "most slots (rows x columns) in one table, checked before any slot exists"),
    ("max_page_slots", "N", "most slots in all the tables of a page (counted from below, before normalizing)"),
)


def limit_arguments(parser: argparse.ArgumentParser, *, worker: bool = False) -> None:
    """Add the options that raise the resource limits (:mod:`pyxform.base.limits`); ``worker``: also time and
    memory."""
    group = parser.add_argument_group("resource limits (a page or table over one fails with exit code 7)")
    for name, metavar, text in _LIMIT_ARGUMENTS:
        group.add_argument(LIMIT_OPTIONS[name], dest=name, type=whole_number, metavar=metavar,
                           help=f"{text} (default {getattr(DEFAULT_LIMITS, name)})")
    group.add_argument("--fetch-timeout", dest="fetch_timeout", type=_seconds, metavar="SECONDS",
                       help=f"seconds to fetch a URL (default {DEFAULT_LIMITS.fetch_timeout:g})")
    group.add_argument("--allow-private", action="store_true",
                       help="let URLs reach private, loopback and link-local addresses (refused by default)")
    if worker:
        worker_arguments(group, "page")


def worker_arguments(group: argparse._ActionsContainer, noun: str) -> None:
    """``--timeout`` and ``--max-memory``: the limits of the worker process that runs each ``noun`` (``page``,
    ``transformation``, ``query``), which is stopped when it reaches one."""
    group.add_argument("--timeout", dest="timeout", type=_seconds, metavar="SECONDS",
                       help=f"seconds one {noun} may take; its worker process is stopped then (default "
                            f"{DEFAULT_LIMITS.timeout:g}; 0: no limit)")
    group.add_argument("--max-memory", dest="max_memory", type=_megabytes, metavar="MB",
                       help=f"memory the {noun}'s worker process may use, in MiB (default "
                            f"{DEFAULT_LIMITS.max_memory // 2**20}; 0: no limit; else at least "
                            f"{MIN_WORKER_MEMORY // 2**20}). With --timeout 0 and --max-memory 0 it runs in this "
                            "process")


def limits_of(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` of the options given (the defaults for the others)."""
    names = ("max_page_bytes", "max_tables", "max_depth", "max_slots", "max_page_slots", "fetch_timeout", "timeout",
             "max_memory")
    given = {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}
    return replace(DEFAULT_LIMITS, **given) if given else DEFAULT_LIMITS


def _seconds(value: str) -> float:
    """A number of seconds, 0 or more (``--timeout``, ``--fetch-timeout``)."""
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number >= 0:
        raise argparse.ArgumentTypeError(f"takes a number of seconds, 0 or more (e.g. 30 or 0.5), not {value!r}")
    return number


def _megabytes(value: str) -> int:
    """``--max-memory MB``: 0 (no limit) or at least :data:`~pyxform.base.limits.MIN_WORKER_MEMORY` (the worker's
    start)."""
    number = whole_number(value) * 2**20
    if 0 < number < MIN_WORKER_MEMORY:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) or at least {MIN_WORKER_MEMORY // 2**20} MiB: the worker process needs about that "
            "much to load Saxon and compile the stylesheets before any page")
    return number


def whole_number(value: str) -> int:
    """A whole number, 0 or more (the limits, ``--max-memory``)."""
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"takes a whole number, 0 or more, not {value!r}")
    return number


def table_index(value: str) -> int:
    """``--table N``: a table's index (``px:index``: 0-based, document order, nested tables counted)."""
    try:
        return whole_number(value)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"takes a table's index, a whole number 0 or more (0 is the first table of "
                                         f"the page), not {value!r}") from None


def pipeline_arguments(parser: argparse.ArgumentParser, *, steps: str) -> None:
    """--param and --allow-io, shared by convert and transform."""
    qualified = (f" ({steps}NAME=VALUE: a parameter of that pipeline step, e.g. headers.threshold=4)"
                 if steps else "")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a stylesheet parameter of your stylesheet(s); VALUE is cast to the parameter's declared "
                             f"type (xs:untypedAtomic, as Saxon's command line does){qualified}")
    parser.add_argument("--allow-io", action="store_true",
                        help="let your stylesheets read URIs (doc(), unparsed-text(), collection()); off by default: "
                             "every stylesheet runs with no file or network access")


# -- local files ----------------------------------------------------------------------------------------------------
def local_file(name: str, command: str, what: str) -> str:
    """``name``, an argument that must be a local file or folder: standard input (``-``) and URLs are refused by
    name rather than looked up as files.

    :param what: what the argument is, for the message (``the stylesheet``, ``the document``).
    :raises InputError: ``name`` is ``-`` or a URL.
    """
    if name == "-":
        raise InputError(f"`pyxform {command}` does not read {what} from standard input: give a file", location="-")
    if looks_like_url(name):
        raise InputError(f"`pyxform {command}` does not read {what} from a URL: download it and give the file",
                         location=name)
    return name


def input_file(name: str, command: str, what: str = "the document") -> Path:
    """The path of an input file that must exist (``schema``, ``validate``).

    :raises InputError: standard input or a URL (:func:`local_file`).
    :raises InputNotFound: no such file, or a directory (the wording of :func:`pyxform.base.source.read_source`).
    """
    path = Path(local_file(name, command, what))
    if path.is_dir():
        raise InputNotFound("is a directory, not a file", location=name)
    if not path.exists():  # a pipe (``<(command)``'s /dev/fd/63) or a device reads like a file
        raise InputNotFound("no such file", location=name)
    return path
