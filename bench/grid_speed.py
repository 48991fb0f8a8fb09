"""Speed of ``pyxform grid`` over the corpus pages, against pandas.read_html (lxml flavor) on the same pages, with
lxml's HTML parse alone as the floor. One run, all three timed the same way; the result is pages per second and
ratios, never an absolute threshold.

- pyxform: ``pyxform.grid(page_bytes)`` in one process (what ``pyxform grid`` runs after start-up): clean (HTML5
  parse into XHTML) + the normalize stylesheet for every table of the page + reading the grid into Python. The
  runtime is compiled once, before timing (as in any long-running use).
- pandas: ``pandas.read_html(io.StringIO(text), flavor="lxml")`` (every table of the page into a DataFrame; a page
  on which it raises counts, its time included).
- lxml parse-only: ``lxml.html.document_fromstring(page_bytes)``.

Run: ``python -m bench.grid_speed [--corpus ../shared/corpus] [--repeat 1] [--limit N]`` (needs the ``bench`` extra
for pandas).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def corpus_pages(corpus: Path) -> list[Path]:
    pages = sorted((corpus / "wikitables" / "pages").glob("*.html"))
    pages += sorted((corpus / "web").glob("*.html")) + sorted((corpus / "misc").glob("*.html"))
    return pages


def timed(label: str, work: Callable[[bytes], object], pages: list[bytes], repeat: int) -> tuple[float, int]:
    """Best of ``repeat`` passes over all pages: (seconds, pages that raised)."""
    best = float("inf")
    failures = 0
    for _ in range(repeat):
        failures = 0
        started = time.perf_counter()
        for data in pages:
            try:
                work(data)
            except Exception:  # a peer's failure on a page is part of its run
                failures += 1
        best = min(best, time.perf_counter() - started)
    print(f"  {label:<28} {best:7.2f} s  {len(pages) / best:7.1f} pages/s  ({failures} pages raised)", flush=True)
    return best, failures


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
    pages = [path.read_bytes() for path in paths]
    megabytes = sum(map(len, pages)) / 1e6
    print(f"{len(pages)} pages, {megabytes:.1f} MB")

    import lxml.html
    import pandas

    from pyxform.normalize import Normalizer, grid

    normalizer = Normalizer()  # compiles the stylesheets once, outside the timing
    warnings.simplefilter("ignore")

    def run_pyxform(data: bytes) -> object:
        return grid(data, normalizer=normalizer)

    def run_pandas(data: bytes) -> object:
        return pandas.read_html(io.StringIO(data.decode("utf-8", "replace")), flavor="lxml")

    def run_lxml(data: bytes) -> object:
        return lxml.html.document_fromstring(data)

    pyxform_s, _ = timed("pyxform grid", run_pyxform, pages, args.repeat)
    pandas_s, _ = timed("pandas.read_html (lxml)", run_pandas, pages, args.repeat)
    lxml_s, _ = timed("lxml parse only (floor)", run_lxml, pages, args.repeat)
    print(f"ratios (time / pandas time): pyxform {pyxform_s / pandas_s:.2f}, lxml parse {lxml_s / pandas_s:.2f}")
    print(f"pyxform is {pandas_s / pyxform_s:.2f}x the speed of pandas.read_html, "
          f"{lxml_s / pyxform_s:.3f}x the speed of the lxml parse floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
