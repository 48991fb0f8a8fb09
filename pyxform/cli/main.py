"""The ``pyxform`` command line: ``pyxform COMMAND ...``: the parser, the dispatch, and the errors' exit codes.

Each command is one :class:`~pyxform.cli.common.Command` of a verb module (:mod:`pyxform.cli.pages`,
:mod:`pyxform.cli.toolkit`, :mod:`pyxform.cli.search`): a function that adds its arguments to an ``argparse``
sub-parser and a function that runs it and returns the exit code. Adding a command is adding one line to
:data:`_COMMANDS`.

Errors are printed as ``pyxform: error [CODE]: LOCATION: MESSAGE`` on standard error, and the exit code is the
error's ``exit_code``; every exit status (also usage 2, some inputs failed 13, Ctrl-C 130, SIGTERM 143) comes from the
one table :data:`pyxform.base.errors.ERROR_TABLE` (listed in ``docs/errors.md``). A usage error prints one line and a
pointer to ``--help`` (as git does), not the whole usage.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import warnings
from collections.abc import Sequence

from importlib import import_module
from typing import Any, Final, NoReturn

from ..base.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, PyxformError, UsageError
from .common import (EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, Command, command_line_message, report_error,
                     report_internal)

__all__ = ["main", "build_parser", "COMMANDS"]

#: Every command, in the order ``pyxform --help`` lists them: its name and where it is declared (verb module,
#: name). A verb module is imported only when one of its commands runs or the whole list is asked for, so that
#: ``pyxform search`` starts without the jobs layer, lxml or Saxon (``docs/search.md``).
_COMMANDS: Final[tuple[tuple[str, str, str], ...]] = (
    ("grid", "pages", "GRID"),
    ("headers", "pages", "HEADERS"),
    ("convert", "pages", "CONVERT"),
    ("schema", "toolkit", "SCHEMA"),
    ("validate", "toolkit", "VALIDATE"),
    ("query", "toolkit", "QUERY"),
    ("transform", "toolkit", "TRANSFORM"),
    ("crawl", "crawl", "CRAWL"),
    ("index", "search", "INDEX"), ("search", "search", "SEARCH"), ("serve", "search", "SERVE"),
    ("batch", "batch", "BATCH"),
)


def _command(module: str, name: str) -> Command:
    command: Command = getattr(import_module(f"{__package__}.{module}"), name)
    return command


def __getattr__(name: str) -> Any:
    if name == "COMMANDS":  # every command (imports every verb module)
        return tuple(_command(module, attr) for _, module, attr in _COMMANDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named(argv: Sequence[str]) -> tuple[Command, ...] | None:
    """The command whose name is ``argv``'s first word, alone, or ``None`` when it names none."""
    for name, module, attr in _COMMANDS:
        if argv and argv[0] == name:
            return (_command(module, attr),)
    return None


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but a usage error is one line and a pointer to the command's ``--help``, exit 2:
    ``pyxform convert: error: MESSAGE`` then ``See 'pyxform convert --help'.``"""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nSee '{self.prog} --help'.\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command of :data:`COMMANDS`; with ``argv`` whose first word
    names a command, with that command's sub-parser only (its verb module alone is imported)."""
    parser = _Parser(prog="pyxform", description="Turn the tables of web pages into clean, queryable XML.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = _named(argv) if argv is not None else None
    for command in chosen or __getattr__("COMMANDS"):
        sub = commands.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run, parser=sub, on_interrupt=command.on_interrupt)
    return parser


def _exit_on_sigterm() -> bool:
    """Turn SIGTERM into ``SystemExit(143)`` so that ``finally`` blocks run (an output being written removes its
    temporary file, the worker process is ended); only where SIGTERM has its default action, in the main thread.
    Returns whether the handler was installed (:func:`main` puts the default back when it returns)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False
    signal.signal(signal.SIGTERM, _raise_exit)
    return True


def _raise_exit(signum: int, frame: object) -> None:
    raise SystemExit(EXIT_TERMINATED)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the ``pyxform`` script passes it to ``sys.exit``)."""
    args, unknown = build_parser(sys.argv[1:] if argv is None else argv).parse_known_args(argv)
    if unknown:  # said by the command's own parser, which knows its options
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    sigterm_handled = _exit_on_sigterm()
    try:
        return _run(args)
    finally:
        if sigterm_handled:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run(args: argparse.Namespace) -> int:
    # the verbs that take stylesheet parameters import the runtime with their module; the others (search) need not
    params = sys.modules.get("pyxform.runtime.params")
    try:
        with warnings.catch_warnings():  # shown as pyxform's own warnings, once, before any input is read
            if params is not None:
                warnings.simplefilter("ignore", params.ParameterWarning)
            return int(args.run(args))
    except UsageError as error:
        args.parser.error(command_line_message(str(error)))
        return EXIT_USAGE  # not reached: argparse exits
    except PyxformError as error:
        report_error(error)
        return error.exit_code
    except BrokenPipeError:  # e.g. piped into head: not an error of ours
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        hint = f": {args.on_interrupt}" if args.on_interrupt else ""
        print(f"pyxform {args.command}: interrupted{hint}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: say so, with what is known
        report_internal(f"{type(error).__name__}: {error}")
        return EXIT_INTERNAL
