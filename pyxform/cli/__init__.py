"""Layer 7, the command line: the only place that parses arguments, prints, and maps errors to exit codes.

    main      the parser (one sub-parser per command), the dispatch, the exit codes (pyxform.cli.main)
    common    what the verb modules share: Command, argument types, the limit options, error lines
    pages     grid, headers, convert (docs/pages.md)
    toolkit   schema, validate, query, transform (docs/toolkit.md)

A verb module declares each of its commands as a :class:`Command` and :data:`pyxform.cli.main.COMMANDS` lists it.
"""

from .common import Command, report_error, write_output
from .main import COMMANDS, build_parser, main

__all__ = ["main", "build_parser", "COMMANDS", "Command", "report_error", "write_output"]
