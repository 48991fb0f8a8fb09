"""Helpers shared by the parser tests and ``bench/parsers.py``: the html5lib-tests tree dump, the case file reader,
and the browser-grids locator and cell text of a table."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from lxml import etree

from pyxform.stages.clean.parse import MATHML_NS, SVG_NS, XHTML_NS

__all__ = ["dump", "read_cases", "css_path", "table_cells", "html_tables", "load_browser_grids", "CASES", "CORPUS"]

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
CASES = ROOT / "tests" / "data" / "html5" / "tree-construction.dat"
_PREFIX = {XHTML_NS: "", SVG_NS: "svg ", MATHML_NS: "math ", "": ""}
_ASCII_SPACE = re.compile("[\t\n\x0c\r ]+")


def _name(qname: str) -> tuple[str, str]:
    if qname.startswith("{"):
        ns, _, local = qname[1:].partition("}")
        return ns, local
    return "", qname


def dump(root: etree._Element) -> str:
    """The tree as html5lib-tests ``#document`` lines (comments and doctype left out)."""
    lines: list[str] = []

    def text(value: str | None, depth: int) -> None:
        if not value:
            return
        if lines and lines[-1].startswith("| " + "  " * depth + '"') and lines[-1].endswith('"'):
            lines[-1] = lines[-1][:-1] + value + '"'
        else:
            lines.append("| " + "  " * depth + f'"{value}"')

    def element(node: etree._Element, depth: int) -> None:
        if not isinstance(node.tag, str):
            text(node.tail, depth)
            return
        ns, local = _name(node.tag)
        lines.append("| " + "  " * depth + f"<{_PREFIX.get(ns, ns + ' ')}{local}>")
        attributes = []
        for key, value in node.attrib.items():
            ans, alocal = _name(key)
            if ans == "urn:pyxform":
                continue
            attributes.append((f"{ans.rsplit('/', 1)[-1]} {alocal}" if ans else alocal, value))
        for key, value in sorted(attributes):
            lines.append("| " + "  " * (depth + 1) + f'{key}="{value}"')
        text(node.text, depth + 1)
        for child in node:
            element(child, depth + 1)
        text(node.tail, depth)

    element(root, 0)
    return "\n".join(lines)


def read_cases(path: Path = CASES) -> list[tuple[str, str, str]]:
    """``(name, data, expected dump)`` for each case of a ``.dat`` file."""
    cases = []
    for block in path.read_text(encoding="utf-8").split("\n#name\n"):
        block = block.removeprefix("#name\n")
        name, _, rest = block.partition("\n#data\n")
        data, _, expected = rest.partition("\n#document\n")
        cases.append((name.strip(), data, expected.rstrip("\n")))
    return cases


def css_path(table: etree._Element) -> str:
    """The browser-grids locator: ``html > body > div:nth-of-type(3) > table`` (index only among same-type siblings)."""
    steps = []
    node: etree._Element | None = table
    while node is not None and isinstance(node.tag, str):
        local = _name(node.tag)[1]
        parent = node.getparent()
        if parent is None:
            steps.append(local)
        else:
            same = [s for s in parent if s.tag == node.tag]
            steps.append(f"{local}:nth-of-type({same.index(node) + 1})" if len(same) > 1 else local)
        node = parent
    return " > ".join(reversed(steps))


def table_cells(table: etree._Element) -> list[tuple[str, str]]:
    """``(tag, textContent, ASCII whitespace collapsed, trimmed)`` of each cell of ``table`` itself, in tree order."""
    cells = []
    for cell in table.iter():
        if not isinstance(cell.tag, str) or _name(cell.tag)[1] not in ("td", "th"):
            continue
        parent = cell.getparent()
        if parent is None or _name(parent.tag)[1] != "tr":
            continue
        owner = next((a for a in cell.iterancestors() if _name(a.tag)[1] == "table"), None)
        if owner is table:
            # the browser's text: ASCII whitespace runs collapsed, then trimmed as JavaScript's trim() does
            cells.append((_name(cell.tag)[1], _ASCII_SPACE.sub(" ", "".join(cell.itertext())).strip()))
    return cells


def html_tables(root: etree._Element) -> list[etree._Element]:
    """The HTML ``table`` elements of a tree in document order (XHTML namespace or none)."""
    return [t for t in root.iter() if isinstance(t.tag, str) and _name(t.tag) in ((XHTML_NS, "table"), ("", "table"))]


def load_browser_grids() -> dict[Path, list[dict]]:
    """The browser's tables of each corpus page, by page path, in ``table_index`` order."""
    pages: dict[Path, list[dict]] = defaultdict(list)
    for folder in ("web", "wikitables"):
        grids = CORPUS / folder / "browser-grids.jsonl"
        if not grids.exists():
            continue
        for line in grids.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            pages[CORPUS / folder / record["file"]].append(record)
    for records in pages.values():
        records.sort(key=lambda r: r["table_index"])
    return dict(pages)
