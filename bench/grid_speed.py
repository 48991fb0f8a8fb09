"""Speed of ``pyxform grid`` over the corpus against pandas.read_html (lxml) and the lxml parse alone: the throughput
section of :mod:`bench.run` with those contenders. Run: ``python -m bench.grid_speed [--limit N] [--repeat N]``."""

from __future__ import annotations

import sys

from bench.run import main

if __name__ == "__main__":
    sys.exit(main(["--sections", "throughput", "--contenders", "pyxform grid", "pandas lxml", "lxml parse",
                   "--no-save", *sys.argv[1:]]))
