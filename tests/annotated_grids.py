"""Header-annotated grids (docs/formats.md sections 2 and 3) for the map, merge, pairs and schema tests.

A test oracle, not pyxform code: tables are written as rows of :class:`C` cells, placed on the grid with spans as the
WHATWG table model places them (each cell at the first free slot of its row), and annotated with the k/p header model
of Zhang & Li: cells anchored in the first k rows or the first p columns are header cells; a cell marked
``section=True`` is a section cell heading the rows below it; every other cell with text is a data cell; each data
slot lists its row headers (sections above it, then the header cells of its row in the first p columns, left to right)
and column headers (the header cells of its column in the first k rows, top to bottom), each cell once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr


@dataclass
class C:
    """One cell: text, tag, spans; links (href, text), images (src, alt), nested tables (T)."""

    text: str = ""
    tag: str = "td"
    rowspan: int = 1
    colspan: int = 1
    section: bool = False
    links: list[tuple[str, str]] = field(default_factory=list)
    images: list[tuple[str, str]] = field(default_factory=list)
    nested: list[T] = field(default_factory=list)


def th(text: str = "", rowspan: int = 1, colspan: int = 1, **kw: object) -> C:
    return C(text, "th", rowspan, colspan, **kw)  # type: ignore[arg-type]


def td(text: str = "", rowspan: int = 1, colspan: int = 1, **kw: object) -> C:
    return C(text, "td", rowspan, colspan, **kw)  # type: ignore[arg-type]


@dataclass
class T:
    """One table: rows of cells, k header rows, p header columns, caption and heading."""

    rows: list[list[C]]
    k: int = 0
    p: int = 0
    caption: str | None = None
    heading: str | None = None
    method: str = "markup"


def grid_xml(*tables: T, source: str = "page.html", title: str = "Page") -> str:
    """The annotated grid document of a page holding ``tables`` (nested tables follow their parent, preorder)."""
    out: list[str] = []
    counter = [0]

    def emit(table: T, parent: tuple[int, str] | None, depth: int) -> None:
        index = counter[0]
        counter[0] += 1
        placed: dict[tuple[int, int], tuple[int, C]] = {}
        anchors: list[tuple[int, int, int, C]] = []  # (row, col, n, cell)
        n = 0
        for r, row in enumerate(table.rows):
            c = 0
            for cell in row:
                while (r, c) in placed:
                    c += 1
                for dr in range(cell.rowspan):
                    for dc in range(cell.colspan):
                        placed[(r + dr, c + dc)] = (n, cell)
                anchors.append((r, c, n, cell))
                n += 1
                c += cell.colspan
        nrows = max([r for r, _ in placed] + [len(table.rows) - 1]) + 1
        ncols = max([c for _, c in placed] + [-1]) + 1
        anchor_of = {id(cell): (r, c) for r, c, _, cell in anchors}

        def cid(n: int) -> str:
            return f"t{index}.c{n}"

        def role(cell: C) -> str:
            r, c = anchor_of[id(cell)]
            if cell.section:
                return "section"
            if r < table.k or c < table.p:
                return "header"
            return "data" if (cell.text or cell.nested or cell.images) else "empty"

        body_after: list[str] = []
        attrs = f' parent-table="{parent[0]}" parent-cell="{parent[1]}"' if parent else ""
        heading = f" heading={quoteattr(table.heading)}" if table.heading is not None else ""
        out.append(f'<px:table index="{index}" rows="{nrows}" cols="{ncols}" locator="/html/body/table[{index + 1}]"'
                   f' depth="{depth}" font-size="16"{heading}{attrs} header-rows="{table.k}"'
                   f' header-cols="{table.p}" header-method="{table.method}">')
        if table.caption is not None:
            out.append(f"<px:caption>{escape(table.caption)}</px:caption>")
        nested_jobs: list[tuple[T, str]] = []
        for r, c, n, cell in anchors:
            out.append(f'<px:cell id="{cid(n)}" row="{r}" col="{c}" rowspan="{cell.rowspan}" colspan="{cell.colspan}"'
                       f' tag="{cell.tag}" group="0" group-kind="tbody" font-size="16"'
                       f' bold="{"true" if cell.tag == "th" else "false"}" italic="false" role="{role(cell)}">')
            out.append(f"<px:text>{escape(cell.text)}</px:text>")
            for href, text in cell.links:
                out.append(f"<px:link href={quoteattr(href)}>{escape(text)}</px:link>")
            for src, alt in cell.images:
                out.append(f"<px:image src={quoteattr(src)} alt={quoteattr(alt)}/>")
            for k, sub in enumerate(cell.nested):
                out.append(f'<px:table-ref index="@@{index}.{n}.{k}@@"/>')
                nested_jobs.append((sub, cid(n)))
            out.append("</px:cell>")
        sections: list[str] = []
        for r in range(nrows):
            out.append(f'<px:row index="{r}" group="0" group-kind="tbody">')
            row_cells = [placed.get((r, c)) for c in range(ncols)]
            section_cells = {n for entry in row_cells if entry for n in [entry[0]] if entry[1].section}
            for c in range(ncols):
                entry = placed.get((r, c))
                if entry is None:
                    out.append(f'<px:slot col="{c}"/>')
                    continue
                n, cell = entry
                extra = ""
                if role(cell) == "data":
                    row_headers: list[str] = list(sections)
                    for hc in range(table.p):
                        h = placed.get((r, hc))
                        if h and role(h[1]) == "header" and cid(h[0]) not in row_headers:
                            row_headers.append(cid(h[0]))
                    column_headers: list[str] = []
                    for hr in range(table.k):
                        h = placed.get((hr, c))
                        if h and role(h[1]) == "header" and cid(h[0]) not in column_headers:
                            column_headers.append(cid(h[0]))
                    extra = f' row-headers="{" ".join(row_headers)}" column-headers="{" ".join(column_headers)}"'
                out.append(f'<px:slot col="{c}" cell="{cid(n)}"{extra}/>')
            out.append("</px:row>")
            if section_cells:
                sections = [cid(n) for n in sorted(section_cells)]
        out.append("</px:table>")
        for k, (sub, parent_cell) in enumerate(nested_jobs):
            sub_index = counter[0]
            n = int(parent_cell.split(".c")[1])
            marker = f"@@{index}.{n}.{sum(1 for s, pc in nested_jobs[:k] if pc == parent_cell)}@@"
            for i, line in enumerate(out):
                if marker in line:
                    out[i] = line.replace(marker, str(sub_index))
            emit(sub, (index, parent_cell), depth + 1)
        del body_after

    for table in tables:
        emit(table, None, 0)
    return (f'<px:grids xmlns:px="urn:pyxform" source={quoteattr(source)} title={quoteattr(title)}'
            f' encoding="utf-8">' + "".join(out) + "</px:grids>")
