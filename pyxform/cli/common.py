"""What the verb modules of the command line share: a command's declaration, argument types, the limit options,
writing to standard output, and the error lines.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, in the command line's words
(:func:`command_line_message`: options where the Python API names keyword arguments).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from ..base.errors import InputError, InputNotFound, InternalError, OutputError, PyxformError
from ..base.limits import DEFAULT_LIMITS, LIMIT_OPTIONS, MIN_WORKER_MEMORY, Limits, limit_keyword
from ..base.source import looks_like_url

__all__ = ["Command", "EXIT_OK", "EXIT_INTERNAL", "EXIT_USAGE", "write_output", "report_error", "report_internal",
           "command_line_message", "OPTION_FOR_KEYWORD", "limit_arguments", "limits_of", "non_negative",
           "pipeline_arguments", "local_file", "input_file"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2


@dataclass(frozen=True)
class Command:
    """One sub-command: its name, one-line help, and the functions that declare and run it (the run returns the
    exit code)."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


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
        group.add_argument(LIMIT_OPTIONS[name], dest=name, type=non_negative, metavar=metavar,
                           help=f"{text} (default {getattr(DEFAULT_LIMITS, name)})")
    group.add_argument("--fetch-timeout", dest="fetch_timeout", type=_seconds, metavar="SECONDS",
                       help=f"seconds to fetch a URL (default {DEFAULT_LIMITS.fetch_timeout:g})")
    group.add_argument("--allow-private", action="store_true",
                       help="let URLs reach private, loopback and link-local addresses (refused by default)")
    if worker:
        group.add_argument("--timeout", dest="timeout", type=_seconds, metavar="SECONDS",
                           help=f"seconds one page may take; the page's worker process is stopped then (default "
                                f"{DEFAULT_LIMITS.timeout:g}; 0: no limit)")
        group.add_argument("--max-memory", dest="max_memory", type=_megabytes, metavar="MB",
                           help=f"memory one page's worker process may use, in MiB (default "
                                f"{DEFAULT_LIMITS.max_memory // 2**20}; 0: no limit; else at least "
                                f"{MIN_WORKER_MEMORY // 2**20}). With --timeout 0 and "
                                "--max-memory 0 pages are converted in this process")


def limits_of(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` of the options given (the defaults for the others)."""
    names = ("max_page_bytes", "max_tables", "max_depth", "max_slots", "max_page_slots", "fetch_timeout", "timeout",
             "max_memory")
    given = {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}
    return replace(DEFAULT_LIMITS, **given) if given else DEFAULT_LIMITS


def _seconds(value: str) -> float:
    number = float(value)
    if not number >= 0:
        raise argparse.ArgumentTypeError("must be 0 or more seconds")
    return number


def _megabytes(value: str) -> int:
    """``--max-memory MB``: 0 (no limit) or at least :data:`~pyxform.base.limits.MIN_WORKER_MEMORY` (the worker's
    start)."""
    number = non_negative(value) * 2**20
    if 0 < number < MIN_WORKER_MEMORY:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) or at least {MIN_WORKER_MEMORY // 2**20} MiB: the worker process needs about that "
            "much to load Saxon and compile the stylesheets before any page")
    return number


def non_negative(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


# argparse names a type function in its message ("invalid _non_negative value"): keep the name it always had.
non_negative.__name__ = "_non_negative"


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
    if not path.is_file():
        raise InputNotFound("no such file", location=name)
    return path
