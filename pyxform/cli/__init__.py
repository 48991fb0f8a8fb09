"""Layer 7, the command line: the only place that parses arguments, prints, and maps errors to exit codes.

    main      the parser (one sub-parser per command), the dispatch, the exit codes (pyxform.cli.main)
    common    what the verb modules share: Command, argument types, the limit options, error lines
    pages     grid, headers, convert (docs/pages.md)
    toolkit   schema, validate, query, transform (docs/toolkit.md)

A verb module declares each of its commands as a :class:`Command` and :data:`pyxform.cli.main.COMMANDS` lists it.
"""

from typing import Any

from .common import Command, report_error, write_output
from .main import build_parser, main


def __getattr__(name: str) -> Any:
    if name == "COMMANDS":  # every command: imports every verb module (pyxform.cli.main)
        from importlib import import_module

        return import_module(f"{__name__}.main").COMMANDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["main", "build_parser", "COMMANDS", "Command", "report_error", "write_output"]
