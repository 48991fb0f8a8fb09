"""docs/stylesheets.md is generated from the stylesheets' own comments (python -m pyxform.docs) and must be current."""

from __future__ import annotations

from pathlib import Path

from pyxform.docs import DOCS_PAGE, main, read_stylesheet, render

STYLESHEETS = Path(__file__).resolve().parent.parent / "stylesheets"


def test_the_committed_page_is_current() -> None:
    assert DOCS_PAGE.read_text(encoding="utf-8") == render(), "run python -m pyxform.docs"
    assert main(["--check"]) == 0


def test_check_fails_on_a_stale_page(tmp_path: Path) -> None:
    stale = tmp_path / "stylesheets.md"
    stale.write_text("# old\n")
    assert main(["--check", "-o", str(stale)]) == 1
    assert main(["-o", str(stale)]) == 0 and main(["--check", "-o", str(stale)]) == 0


def test_parameters_modes_and_functions_come_with_their_comments() -> None:
    tabular = read_stylesheet(STYLESHEETS, "tabular.xsl")
    assert tabular.opening.startswith("Stage tabular: header-annotated grid")
    assert [(p.name, p.signature, p.comment) for p in tabular.params] == [
        ("table", "xs:integer = -1", "The index of the one table wanted, or -1 for every table.")]
    assert tabular.includes == ["lib/name-characters.xsl", "lib/names.xsl", "lib/slots.xsl"]
    slots = read_stylesheet(STYLESHEETS, "lib/slots.xsl")
    cell = next(f for f in slots.functions if f.name == "f:cell")
    assert cell.signature == "($slot as element(px:slot)) as element(px:cell)?"
    assert cell.comment.startswith("f:cell($slot): the cell covering a slot")
    table = read_stylesheet(STYLESHEETS, "map/table.xsl")
    assert [m.name for m in table.modes] == ["m:map-table"] and table.modes[0].comment.startswith("one px:table of")
    page = render()
    assert "| `xhtml` | `stylesheets/xhtml.xsl` |" in page and "## `tabular`: `stylesheets/tabular.xsl`" in page
