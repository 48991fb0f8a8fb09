"""Hand-made grid documents (docs/formats.md section 2) for the headers tests.

Two builders:

* :func:`grid_xml` turns rows of cell specs into a ``px:grids`` document, expanding spans like the WHATWG
  "algorithm for processing rows" does for simple, non-overlapping tables (enough for small test tables; the real
  expansion is the normalize stage's job).
* :func:`grid_from_expected` turns a case's ``expected-grid.json`` (a dense grid with each slot's ``origin``) back into
  a grid document, so the cases can be run through the headers stage alone.

A cell spec is a string ``"th:Text"`` / ``"td:Text"`` (``"td:"`` for an empty cell) or a dict with keys ``tag``,
``text`` and optional ``colspan``, ``rowspan``, ``bold``, ``italic``, ``font_size``, ``face``, ``color``,
``background``, ``indent``, ``class_``, ``scope``, ``headers``, ``id`` (the html id), ``image`` (an image src).
A row may also be a dict ``{"cells": [...], "group_kind": "thead", "group": 2, "class_": "..."}`` (by default a
thead row is in row group 0 and any other row in group 1). Like clean, a ``th`` is bold
unless the spec says otherwise.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

PX_NS = "urn:pyxform"

__all__ = ["PX_NS", "cell", "grid_from_expected", "grid_xml", "grids_xml"]


def cell(tag: str, text: str = "", **features: Any) -> dict[str, Any]:
    """A cell spec: ``cell("td", "Price", bold=True, colspan=2)``."""
    return {"tag": tag, "text": text, **features}


def _spec(item: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(item, dict):
        return dict(item)
    tag, _, text = item.partition(":")
    return {"tag": tag, "text": text}


def _group(row: dict[str, Any]) -> int:
    return int(row.get("group", 0 if row.get("group_kind") == "thead" else 1))


def _table_xml(index: int, rows: list[Any], font_size: float = 16, extra: str = "") -> str:
    """One px:table element from rows of cell specs (see the module docstring)."""
    row_specs: list[dict[str, Any]] = []
    for row in rows:
        row_specs.append(dict(row) if isinstance(row, dict) else {"cells": row})
    occupied: dict[tuple[int, int], str] = {}
    cells: list[tuple[str, dict[str, Any], int, int, int, int, str]] = []
    width = 0
    for y, row in enumerate(row_specs):
        x = 0
        for item in row["cells"]:
            spec = _spec(item)
            while (y, x) in occupied:
                x += 1
            colspan = int(spec.get("colspan", 1))
            rowspan = min(int(spec.get("rowspan", 1)), len(row_specs) - y)
            cell_id = f"t{index}.c{len(cells)}"
            for dy in range(rowspan):
                for dx in range(colspan):
                    occupied[(y + dy, x + dx)] = cell_id
            cells.append((cell_id, spec, y, x, rowspan, colspan, row.get("group_kind", "tbody"), _group(row)))
            x += colspan
            width = max(width, x)
    width = max([width] + [x + 1 for (_, x) in occupied])
    out = [(f'<px:table index="{index}" rows="{len(row_specs)}" cols="{width}" '
            f'locator="/html/body/table[{index + 1}]" depth="0" font-size="{font_size:g}"{extra}>')]
    for cell_id, spec, y, x, rowspan, colspan, group_kind, group in cells:
        tag = spec["tag"]
        bold = spec.get("bold", tag == "th")
        attrs = {
            "id": cell_id, "row": y, "col": x, "rowspan": rowspan, "colspan": colspan, "tag": tag,
            "group": group, "group-kind": group_kind,
            "font-size": f'{float(spec.get("font_size", font_size)):g}',
            "bold": "true" if bold else "false", "italic": "true" if spec.get("italic") else "false",
        }
        for key, name in (("scope", "scope"), ("headers", "headers"), ("id", "html-id"), ("class_", "class"),
                          ("face", "face"), ("color", "color"), ("background", "background"), ("indent", "indent")):
            if key in spec:
                attrs[name] = spec[key]
        attr_text = " ".join(f"{name}={quoteattr(str(value))}" for name, value in attrs.items())
        image = f'<px:image src={quoteattr(spec["image"])} alt=""/>' if spec.get("image") else ""
        out.append(f'<px:cell {attr_text}><px:text>{escape(spec.get("text", ""))}</px:text>{image}</px:cell>')
    for y, row in enumerate(row_specs):
        group_kind = row.get("group_kind", "tbody")
        row_class = f' class={quoteattr(row["class_"])}' if "class_" in row else ""
        out.append(f'<px:row index="{y}" group="{_group(row)}" group-kind="{group_kind}"'
                   f'{row_class}>')
        for x in range(width):
            owner = occupied.get((y, x))
            out.append(f'<px:slot col="{x}" cell="{owner}"/>' if owner else f'<px:slot col="{x}"/>')
        out.append("</px:row>")
    out.append("</px:table>")
    return "".join(out)


def grids_xml(tables: list[list[Any]], **table_options: Any) -> str:
    """A px:grids document holding one table per item of ``tables`` (each a list of rows)."""
    body = "".join(_table_xml(i, rows, **table_options) for i, rows in enumerate(tables))
    return f'<px:grids xmlns:px="{PX_NS}" source="test" title="" encoding="utf-8">{body}</px:grids>'


def grid_xml(rows: list[Any], **table_options: Any) -> str:
    """A px:grids document with a single table (index 0)."""
    return grids_xml([rows], **table_options)


def grid_from_expected(expected: dict[str, Any]) -> str:
    """A grid document from a case's ``expected-grid.json``: cells from slot origins, spans from their extent."""
    tables = []
    for table in expected["tables"]:
        grid = table["grid"]
        extent: dict[tuple[int, int], dict[str, Any]] = {}
        for y, row in enumerate(grid):
            for x, slot in enumerate(row):
                if slot.get("origin") is None:
                    continue
                origin = tuple(slot["origin"])
                info = extent.setdefault(origin, {"tag": slot["tag"], "text": slot["text"], "rows": set(),
                                                  "cols": set()})
                info["rows"].add(y)
                info["cols"].add(x)
        order = sorted(extent)
        ids = {origin: f't{table["index"]}.c{n}' for n, origin in enumerate(order)}
        out = [(f'<px:table index="{table["index"]}" rows="{table["rows"]}" cols="{table["cols"]}" '
                f'locator="/html/body/table" depth="0" font-size="16">')]
        for origin in order:
            info = extent[origin]
            rowspan = max(info["rows"]) - origin[0] + 1
            colspan = max(info["cols"]) - origin[1] + 1
            bold = "true" if info["tag"] == "th" else "false"
            out.append(f'<px:cell id="{ids[origin]}" row="{origin[0]}" col="{origin[1]}" rowspan="{rowspan}" '
                       f'colspan="{colspan}" tag="{info["tag"]}" group="0" group-kind="tbody" font-size="16" '
                       f'bold="{bold}" italic="false"><px:text>{escape(info["text"])}</px:text></px:cell>')
        for y, row in enumerate(grid):
            out.append(f'<px:row index="{y}" group="0" group-kind="tbody">')
            for x, slot in enumerate(row):
                origin = slot.get("origin")
                out.append(f'<px:slot col="{x}" cell="{ids[tuple(origin)]}"/>' if origin else f'<px:slot col="{x}"/>')
            out.append("</px:row>")
        out.append("</px:table>")
        tables.append("".join(out))
    return f'<px:grids xmlns:px="{PX_NS}" source="case" title="" encoding="utf-8">{"".join(tables)}</px:grids>'
