"""The ``pyxform`` command line: ``pyxform COMMAND ...``: the parser, the dispatch, and the errors' exit codes.

Each command is one :class:`~pyxform.cli.common.Command` of a verb module (:mod:`pyxform.cli.pages`,
:mod:`pyxform.cli.toolkit`, :mod:`pyxform.cli.search`): a function that adds its arguments to an ``argparse``
sub-parser and a function that runs it and returns the exit code. Adding a command is adding one line to :data:`COMMANDS`.

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

from typing import NoReturn

from ..base.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, PyxformError, UsageError
from . import batch, crawl, pages, search, toolkit
from .common import (EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, Command, command_line_message, report_error,
                     report_internal)

__all__ = ["main", "build_parser", "COMMANDS"]

#: Every command, in the order ``pyxform --help`` lists them.
COMMANDS: tuple[Command, ...] = (
    pages.GRID,
    pages.HEADERS,
    pages.CONVERT,
    toolkit.SCHEMA,
    toolkit.VALIDATE,
    toolkit.QUERY,
    toolkit.TRANSFORM,
    crawl.CRAWL,
    search.INDEX, search.SEARCH, search.SERVE,
    batch.BATCH,
)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but a usage error is one line and a pointer to the command's ``--help``, exit 2:
    ``pyxform convert: error: MESSAGE`` then ``See 'pyxform convert --help'.``"""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nSee '{self.prog} --help'.\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-parser per command of :data:`COMMANDS`."""
    parser = _Parser(prog="pyxform", description="Turn the tables of web pages into clean, queryable XML.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run, parser=sub)
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
    args, unknown = build_parser().parse_known_args(argv)
    if unknown:  # said by the command's own parser, which knows its options
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    sigterm_handled = _exit_on_sigterm()
    try:
        return _run(args)
    finally:
        if sigterm_handled:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run(args: argparse.Namespace) -> int:
    from ..runtime.params import ParameterWarning

    try:
        with warnings.catch_warnings():  # shown as pyxform's own warnings, once, before any input is read
            warnings.simplefilter("ignore", ParameterWarning)
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
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: say so, with what is known
        report_internal(f"{type(error).__name__}: {error}")
        return EXIT_INTERNAL
