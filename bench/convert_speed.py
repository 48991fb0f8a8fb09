"""Speed of ``pyxform convert`` over the corpus pages, against pandas (``read_html`` + ``DataFrame.to_xml``: the
usual way to get XML from a page's tables in Python) on the same pages. One run, both timed the same way; the result
is pages per second and the ratio, never an absolute threshold.

- pyxform: ``pyxform.convert(page_bytes).to_bytes()``: clean, normalize, headers, map, merge and serialization, every
  table of the page, in one process with the stylesheets compiled once before timing. Also timed: the schema
  generation of the output (``Conversion.schema()``) and the pairs (``Conversion.pairs()``), each on its own.
- pandas: ``pandas.read_html(io.StringIO(text), flavor="lxml")`` then ``frame.to_xml(parser="lxml")`` for every
  table found, its columns renamed ``c0``, ``c1``, ... first (``to_xml`` refuses header texts that are not XML
  names, which is most of them); a page on which it raises counts, its time included. pandas does no header detection beyond
  ``th``/``thead``, no nesting and no merge, so it does less work than pyxform.

Run: ``python -m bench.convert_speed [--corpus ../shared/corpus] [--limit N] [--repeat 1]`` (needs the ``bench``
extra for pandas).
"""

from __future__ import annotations

import argparse
import io
import sys
import warnings
from pathlib import Path

from bench.corpus import DEFAULT_CORPUS, corpus_pages
from bench.run import timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=1, help="passes per contender; the best is kept")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    args = parser.parse_args(argv)
    paths = corpus_pages(args.corpus)[: args.limit]
    if not paths:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2
    import pandas

    import pyxform
    from pyxform.base.errors import NoTableError

    pages = [path.read_bytes() for path in paths]
    pyxform.convert(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>")  # compile the stylesheets once

    def run_pyxform(data: bytes) -> object:
        try:
            return pyxform.convert(data).to_bytes()
        except NoTableError:
            return None

    def run_pandas(data: bytes) -> object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frames = pandas.read_html(io.StringIO(data.decode("utf-8", "replace")), flavor="lxml")
            out = []
            for frame in frames:  # to_xml refuses column names that are not XML names ("0", "Rank (2010)")
                frame.columns = [f"c{i}" for i in range(len(frame.columns))]
                out.append(frame.to_xml(parser="lxml"))
            return out

    conversions = []

    print(f"{len(pages)} pages ({sum(map(len, pages)) / 1e6:.1f} MB)")
    ours, _ = timed("pyxform convert", run_pyxform, pages, args.repeat)
    peer, _ = timed("pandas read_html + to_xml", run_pandas, pages, args.repeat)
    for data in pages:
        try:
            conversions.append(pyxform.convert(data))
        except NoTableError:
            continue
    timed("  schema of the output", lambda i: conversions[i].schema(),
                           list(range(len(conversions))), args.repeat)  # type: ignore[arg-type]
    timed("  pairs of the output", lambda i: conversions[i].pairs(),
                          list(range(len(conversions))), args.repeat)  # type: ignore[arg-type]
    print(f"pyxform / pandas time ratio: {ours / peer:.2f} (pyxform {'slower' if ours > peer else 'faster'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
