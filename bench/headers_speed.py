"""Speed of the headers stage on generated tables: CPU time per cell, against a Saxon identity transform.

The tables (``generated_grid``) are grid documents (``docs/formats.md`` section 2) of R rows x C columns, built like
long real tables: a header row of ``th``; row headers in ``th`` in column 0; text and number columns; a section row
(one cell spanning the table) every 100 rows and the header row repeated every 500 rows, so that header blocks,
opaque headers and sections are exercised at every size. With ``--format-only`` the ``th`` become bold ``td`` (as
``bench.headers_eval.strip_markup`` does to a page), so the formatting method decides.

Measured: the headers stylesheet run on the parsed grid in pyxform's shared Saxon runtime (``method`` auto and
format), and, as the peer, a stylesheet that copies the grid unchanged (``xsl:mode on-no-match="shallow-copy"``)
in the same processor: the least any stylesheet that annotates the grid must cost. CPU seconds of the process (the
machine is shared; Saxon runs in-process), best of ``--repeat`` runs; per cell = time / (R x C). A linear stage keeps
its time per cell flat as R grows.

Run: ``python -m bench.headers_speed [--rows 1000,10000,100000] [--cols 20] [--repeat 2] [--methods auto,format]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

__all__ = ["generated_grid", "main"]

IDENTITY = ('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
            '<xsl:mode on-no-match="shallow-copy"/></xsl:stylesheet>')


def generated_grid(rows: int, cols: int, *, markup: bool = True, seed: int = 1) -> str:
    """A grid document with one table of ``rows`` x ``cols`` slots (see the module docstring)."""
    rnd = random.Random(seed)
    cells: list[str] = []
    row_xml: list[str] = []
    n = 0

    def cell(y: int, x: int, tag: str, text: str, colspan: int = 1) -> str:
        nonlocal n
        cid = f"t0.c{n}"
        n += 1
        bold = "true" if tag == "th" or not markup and tag == "b" else "false"
        tag = "td" if tag == "b" else tag
        cells.append(f'<px:cell id="{cid}" row="{y}" col="{x}" rowspan="1" colspan="{colspan}" tag="{tag}" '
                     f'group="0" group-kind="tbody" font-size="16" bold="{bold}" italic="false">'
                     f"<px:text>{text}</px:text></px:cell>")
        return cid

    head = "th" if markup else "b"
    for y in range(rows):
        slots: list[str] = []
        if y % 100 == 50:  # a section row
            cid = cell(y, 0, head, f"Section {y // 100}", colspan=cols)
            slots = [f'<px:slot col="{x}" cell="{cid}"/>' for x in range(cols)]
        else:
            for x in range(cols):
                if y % 500 == 0:
                    cid = cell(y, x, head, f"Label {x}")
                elif x == 0:
                    cid = cell(y, x, head, f"Item {y}")
                elif x % 3 == 1:
                    cid = cell(y, x, "td", rnd.choice(["alpha", "beta", "gamma", "delta"]) + f" {y % 97}")
                else:
                    cid = cell(y, x, "td", f"{rnd.randint(0, 99999):,}")
                slots.append(f'<px:slot col="{x}" cell="{cid}"/>')
        row_xml.append(f'<px:row index="{y}" group="0" group-kind="tbody">{"".join(slots)}</px:row>')
    return ('<px:grids xmlns:px="urn:pyxform" source="generated" title="" encoding="utf-8">'
            f'<px:table index="0" rows="{rows}" cols="{cols}" locator="/html/body/table[1]" depth="0" font-size="16">'
            + "".join(cells) + "".join(row_xml) + "</px:table></px:grids>")


def _best(repeat: int, run: Any) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="1000,10000,100000", help="comma-separated row counts")
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2, help="runs per measurement (the best counts)")
    parser.add_argument("--methods", default="auto,format")
    args = parser.parse_args(argv)
    from pyxform.runtime.runner import shared_runtime

    runtime = shared_runtime()
    from saxonche import PySaxonProcessor

    peer = PySaxonProcessor(license=False)
    identity = peer.new_xslt30_processor().compile_stylesheet(stylesheet_text=IDENTITY)
    print(f"{'rows x cols':>14} {'method':<7} {'headers':>9} {'us/cell':>8} {'identity':>9} {'us/cell':>8} "
          f"{'ratio':>6}")
    for rows in (int(r) for r in args.rows.split(",")):
        cells = rows * args.cols
        for method in args.methods.split(","):
            text = generated_grid(rows, args.cols, markup=method != "format")
            node = runtime.parse(text)
            headers = _best(args.repeat, lambda: runtime.transform_to_string(
                "headers", node, {"method": method, "table": -1}))
            peer_node = peer.parse_xml(xml_text=text)
            copy = _best(args.repeat, lambda: identity.transform_to_string(xdm_node=peer_node))
            print(f"{rows:>8} x {args.cols:<3} {method:<7} {headers:>8.2f}s {headers / cells * 1e6:>8.1f} "
                  f"{copy:>8.2f}s {copy / cells * 1e6:>8.1f} {headers / copy:>6.1f}", flush=True)
            del node, peer_node
    return 0


if __name__ == "__main__":
    sys.exit(main())
