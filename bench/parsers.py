"""Which HTML parser builds pyxform's tree: correctness and speed, measured on the same inputs in one run.

Each route turns decoded page text into an lxml tree (XHTML namespace where the route can):

- ``turbohtml fast``: pyxform's route (``pyxform.stages.clean.parse.parse_html``): turbohtml (C) -> XML text -> libxml2;
- ``turbohtml walk``: pyxform's fallback: turbohtml tree copied node by node with an lxml TreeBuilder;
- ``lexbor walk``: selectolax (Lexbor, C) copied node by node (the provisional route);
- ``html5ever walk``: markupever (html5ever, Rust) copied node by node;
- ``html5lib``: html5lib (pure Python) with its lxml tree builder;
- ``lxml.html``: libxml2's HTML parser: the speed peer; not an HTML5 tree builder.

Correctness, two measures:

1. ``tests/data/html5/tree-construction.dat``: hand-made HTML5 tree-construction cases (tables: implied tbody,
   unclosed tr/td, foster parenting, form/table/p interplay, misnesting, noscript with scripting enabled), expected
   trees written from the HTML Living Standard's "tree construction" section, in the html5lib-tests dump format.
2. The browser: ``../shared/corpus/*/browser-grids.jsonl`` lists every table Chromium found on the 467 corpus pages,
   with its CSS path and its cells' text. A route agrees on a page when it finds the same number of tables, and on a
   table when the CSS path and every cell's tag and text (textContent, whitespace collapsed) are the same.

Speed: milliseconds per page to build the tree, all corpus pages, each route in turn (best of ``--repeat`` runs).

Run: ``.venv/bin/python bench/parsers.py [--repeat 3] [--routes ...]`` (needs the ``bench`` extra for html5lib and
markupever).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "tests"))

from html5_tree import CORPUS, css_path, dump, html_tables, load_browser_grids, read_cases, table_cells  # noqa: E402

from pyxform.stages.clean.decode import decode_html  # noqa: E402
from pyxform.stages.clean.parse import XHTML_NS, parse_html, parse_html_slow  # noqa: E402

_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML_CHAR.sub("\ufffd", text)


# --- routes: text -> lxml root (raw tree: script/style kept, comments dropped) ---------------------------------------


def route_turbohtml_fast(text: str) -> etree._Element:
    return parse_html(text, drop=()).tree.getroot()


def route_turbohtml_walk(text: str) -> etree._Element:
    return parse_html_slow(text, drop=()).tree.getroot()


def route_lexbor_walk(text: str) -> etree._Element:
    from selectolax.lexbor import LexborHTMLParser

    document = LexborHTMLParser(text)
    builder = etree.TreeBuilder()
    stack: list[tuple[object, bool]] = [(document.root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            builder.end("{" + XHTML_NS + "}" + node.tag)  # type: ignore[attr-defined]
            continue
        if node.is_element_node:  # type: ignore[attr-defined]
            tag = node.tag  # type: ignore[attr-defined]
            if not _XML_NAME.match(tag):
                continue
            attributes = {k: _clean(v or "") for k, v in node.attributes.items() if k and _XML_NAME.match(k)}  # type: ignore[attr-defined]
            builder.start("{" + XHTML_NS + "}" + tag, attributes)
            stack.append((node, True))
            children = []
            child = node.child  # type: ignore[attr-defined]
            while child is not None:
                children.append(child)
                child = child.next
            stack.extend((c, False) for c in reversed(children))
        elif node.is_text_node:  # type: ignore[attr-defined]
            builder.data(_clean(node.text_content or ""))  # type: ignore[attr-defined]
    return builder.close()


def route_html5ever_walk(text: str) -> etree._Element:
    import markupever
    from markupever import dom

    tree = markupever.parse(text)
    builder = etree.TreeBuilder()
    stack: list[tuple[object, str | None]] = [(tree.root().first_child, None)]
    root = tree.root()
    stack = [(child, None) for child in reversed(list(root.children()))]
    while stack:
        node, closing = stack.pop()
        if closing is not None:
            builder.end(closing)
        elif isinstance(node, dom.Element):
            name = node.name
            if not _XML_NAME.match(name.local):
                continue
            tag = "{" + name.ns + "}" + name.local if name.ns else name.local
            attributes = {}
            for qual, value in node.attrs.items():
                if _XML_NAME.match(qual.local):
                    attributes["{" + qual.ns + "}" + qual.local if qual.ns else qual.local] = _clean(value)
            builder.start(tag, attributes)
            stack.append((node, tag))
            stack.extend((c, None) for c in reversed(list(node.children())))
        elif isinstance(node, dom.Text):
            builder.data(_clean(node.content))
    return builder.close()


def route_html5lib(text: str) -> etree._Element:
    import html5lib

    return html5lib.parse(text, treebuilder="lxml", namespaceHTMLElements=True).getroot()


def route_lxml_html(text: str) -> etree._Element:
    import lxml.html

    return lxml.html.document_fromstring(_clean(text))


ROUTES: dict[str, Callable[[str], etree._Element]] = {
    "turbohtml fast": route_turbohtml_fast,
    "turbohtml walk": route_turbohtml_walk,
    "lexbor walk": route_lexbor_walk,
    "html5ever walk": route_html5ever_walk,
    "html5lib": route_html5lib,
    "lxml.html": route_lxml_html,
}

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--routes", nargs="*", default=list(ROUTES))
    args = parser.parse_args()

    cases = read_cases()
    browser = load_browser_grids()
    texts = {path: decode_html(path.read_bytes()).text for path in sorted(browser)}
    for path in sorted(CORPUS.glob("misc/*.html")):
        texts[path] = decode_html(path.read_bytes()).text
    total_bytes = sum(len(t.encode("utf-8")) for t in texts.values())
    print(f"{len(cases)} tree-construction cases; {len(texts)} corpus pages ({total_bytes / 1e6:.1f} MB), "
          f"{sum(len(v) for v in browser.values())} browser tables on {len(browser)} pages\n")

    rows = []
    for name in args.routes:
        route = ROUTES[name]
        failed = [case for case, data, expected in cases if dump(route(data)) != expected]
        pages_ok = tables_ok = paths_ok = tables = 0
        for path, records in browser.items():
            found = html_tables(route(texts[path]))
            pages_ok += len(found) == len(records)
            for record, table in zip(records, found):
                paths_ok += css_path(table) == record["locator"]
                expected_cells = [(c["tag"], c["text"]) for c in record["cells"]]
                tables_ok += table_cells(table) == expected_cells
            tables += len(records)
        timings = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            for text in texts.values():
                route(text)
            timings.append((time.perf_counter() - start) * 1000 / len(texts))
        rows.append((name, len(cases) - len(failed), pages_ok, paths_ok, tables_ok, tables, min(timings), failed))
        print(f"  measured {name}", file=sys.stderr)

    peer = next((r[6] for r in rows if r[0] == "lxml.html"), None)
    print(f"| route | cases passed (of {len(cases)}) | pages with the browser's table count (of {len(browser)}) "
          "| tables with the browser's path | tables with the browser's cells | ms/page | x lxml.html |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, passed, pages_ok, paths_ok, tables_ok, tables, ms, _failed in rows:
        ratio = f"{ms / peer:.2f}" if peer else "-"
        print(f"| {name} | {passed} | {pages_ok} | {paths_ok}/{tables} | {tables_ok}/{tables} | {ms:.2f} | {ratio} |")
    print()
    for name, *_, failed in rows:
        if failed:
            print(f"{name} fails: {', '.join(failed)}")
    print(f"\nmedian page: {statistics.median(len(t) for t in texts.values()) / 1000:.0f} k characters")


if __name__ == "__main__":
    main()
