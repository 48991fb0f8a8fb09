"""Corpus CPU time of ``convert`` and ``grid`` against ``pandas.read_html(flavor="lxml")``, in one run (issue 17).

Per page, interleaved (so that a shared machine's load falls on every contender alike), CPU time of:

- ``pyxform convert``: ``pyxform.convert(page).xml`` (clean, normalize, headers, map, merge, the output XML);
- ``pyxform grid``: ``pyxform.normalize.grid(page).xml`` (clean, normalize, the grid XML);
- ``pandas lxml``: ``pandas.read_html(io.StringIO(text), flavor="lxml")``, the peer (no header detection beyond
  ``th``/``thead``, no nesting, no merge: less work than pyxform);
- ``lxml parse``: ``lxml.html.document_fromstring``, the floor no converter goes below.

A page on which a contender raises counts with its time. Prints pages per CPU second and each contender's CPU time
as a multiple of pandas', the best of ``--repeat`` rounds. Issue 17's aims: ``convert`` at most 3x, ``grid`` at most
1.5x pandas.

Run: ``python -m bench.peers [--every 1] [--repeat 1] [--limit N]`` (needs the ``bench`` extra for pandas).
"""

from __future__ import annotations

import argparse
import io
import time
import warnings
from collections.abc import Callable

from bench.corpus import add_sample_arguments, sample_pages

PEER = "pandas lxml"


def _contenders() -> dict[str, Callable[[bytes], object]]:
    import lxml.html
    import pandas

    import pyxform
    from pyxform.stages.normalize import Normalizer, grid

    normalizer = Normalizer()

    def pandas_lxml(data: bytes) -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pandas.read_html(io.StringIO(data.decode("utf-8", "replace")), flavor="lxml")

    return {
        "pyxform convert": lambda data: pyxform.convert(data).xml,
        "pyxform grid": lambda data: grid(data, normalizer=normalizer).xml,
        PEER: pandas_lxml,
        "lxml parse": lambda data: lxml.html.document_fromstring(data),
    }


def peer_costs(pages: list[bytes], repeat: int) -> dict[str, float]:
    """``{contender: CPU seconds over all pages}``, the best of ``repeat`` interleaved rounds."""
    contenders = _contenders()
    for run in contenders.values():  # warm up: stylesheets compiled, imports done
        try:
            run(pages[0])
        except Exception:
            pass
    best = {name: float("inf") for name in contenders}
    for _ in range(repeat):
        spent = dict.fromkeys(contenders, 0.0)
        for data in pages:
            for name, run in contenders.items():
                started = time.process_time()
                try:
                    run(data)
                except Exception:  # a page without tables, a page a peer cannot read: its time counts
                    pass
                spent[name] += time.process_time() - started
        best = {name: min(best[name], spent[name]) for name in contenders}
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_sample_arguments(parser, repeat=1)
    args = parser.parse_args(argv)
    pages = sample_pages(args)
    if not pages:
        return 2
    costs = peer_costs(pages, args.repeat)
    print(f"{len(pages)} pages ({sum(map(len, pages)) / 1e6:.1f} MB), CPU time, best of {args.repeat}")
    print(f"| tool | pages per CPU second | ms/page | CPU time / {PEER} |")
    print("| --- | ---: | ---: | ---: |")
    for name, seconds in costs.items():
        print(f"| {name} | {len(pages) / seconds:.1f} | {seconds * 1e3 / len(pages):.1f} | "
              f"{seconds / costs[PEER]:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
