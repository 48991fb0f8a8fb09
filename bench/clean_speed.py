"""CPU time of the clean stage against the HTML5 parse it starts with, on the corpus pages, in one run.

Per page, interleaved (so that the load of a shared machine falls on every contender alike), CPU time of:

- ``html5 parse``: the peer: turbohtml's HTML5 tree construction of the decoded text, serialized as XML and parsed
  into an lxml tree by libxml2 (the route :func:`pyxform.stages.clean.parse.parse_html` takes, without its repairs);
- ``parse_html``: pyxform's parse step (the peer plus the repairs of what XML cannot hold);
- ``clean``: :func:`pyxform.stages.clean.clean` from the page's bytes (decode, parse, tables numbered, hidden elements,
  the cascade and the cells' formatting features);
- ``clean + hand-off``: clean as ``convert`` and ``grid`` run it, to the text handed to Saxon
  (:func:`pyxform.stages.clean.clean_tables_to_bytes`: the cells' features go into the tables' serialization in
  document order, not into the tree);
- ``lxml.html``: libxml2's HTML parser (not an HTML5 tree builder), for scale.

Prints milliseconds per page (the best of ``--repeat`` rounds) and each as a multiple of ``html5 parse``. Issue 17's
aim: clean at most 2x the HTML5 parse.

Run: ``python -m bench.clean_speed [--repeat 3] [--every 1] [--limit N]``.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from bench.corpus import add_sample_arguments, sample_pages

__all__ = ["clean_costs"]


def _contenders() -> dict[str, Callable[[bytes, str], object]]:
    import lxml.html
    import turbohtml
    from lxml import etree

    from pyxform.base.limits import DEFAULT_LIMITS
    from pyxform.stages.clean import clean_tables_to_bytes, clean
    from pyxform.base.safexml import xml_parser
    from pyxform.stages.clean.parse import _XML_SERIALIZATION, XHTML_NS, parse_html
    from pyxform.base.source import Source

    parser = xml_parser(remove_comments=True, remove_pis=True, collect_ids=False)  # the one clean's parse uses
    prolog_pattern = re.compile(r"(?:<!DOCTYPE[^>]*>|<!--.*?-->|<\?.*?\?>|\s)*(?=<html\b)", re.S)  # doctype, comments

    def html5_parse(data: bytes, text: str) -> object:
        document = turbohtml.parse(text, scripting=False, positions=False)
        markup = document.serialize(_XML_SERIALIZATION)
        prolog = prolog_pattern.match(markup)
        start = prolog.end() + 5 if prolog else 0
        try:
            return etree.fromstring(f'<html xmlns="{XHTML_NS}"{markup[start:]}'.encode(), parser)
        except etree.XMLSyntaxError:  # a name XML cannot hold: the time is spent all the same
            return None

    return {
        "html5 parse": html5_parse,
        "parse_html": lambda data, text: parse_html(text),
        "clean": lambda data, text: clean(Source(data, "", None)),
        "clean + hand-off": lambda data, text: clean_tables_to_bytes(Source(data, "", None), DEFAULT_LIMITS),
        "lxml.html": lambda data, text: lxml.html.document_fromstring(data),
    }


def clean_costs(pages: list[bytes], repeat: int) -> dict[str, float]:
    """``{contender: CPU seconds over all pages}``, the best of ``repeat`` interleaved rounds."""
    from pyxform.stages.clean.decode import decode_html

    texts = [decode_html(data).text for data in pages]
    contenders = _contenders()
    for run in contenders.values():  # warm up: imports, compiled style sheets, caches of the first use
        run(pages[0], texts[0])
    best = {name: float("inf") for name in contenders}
    for _ in range(repeat):
        spent = dict.fromkeys(contenders, 0.0)
        for data, text in zip(pages, texts):
            for name, run in contenders.items():
                started = time.process_time()
                run(data, text)
                spent[name] += time.process_time() - started
        for name, seconds in spent.items():
            best[name] = min(best[name], seconds)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_sample_arguments(parser, repeat=3)
    args = parser.parse_args(argv)
    pages = sample_pages(args)
    if not pages:
        return 2
    costs = clean_costs(pages, args.repeat)
    peer = costs["html5 parse"]
    print(f"{len(pages)} pages ({sum(map(len, pages)) / 1e6:.1f} MB), CPU time, best of {args.repeat} rounds")
    print("| work | ms/page (CPU) | x html5 parse |")
    print("| --- | ---: | ---: |")
    for name, seconds in costs.items():
        print(f"| {name} | {seconds * 1e3 / len(pages):.2f} | {seconds / peer:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
