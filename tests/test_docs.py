"""The manual stays true: docs/stylesheets.md is generated from the stylesheets' own comments (python -m pyxform.runtime.docs)
and must be current; the README's test command is what CI runs; links lead somewhere; the commands shown parse; the
exit-code table of docs/errors.md is generated from the one error table."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pyxform.base.errors import ERROR_TABLE
from pyxform.runtime.docs import DOCS_PAGE, main, read_stylesheet, render, render_errors

STYLESHEETS = Path(__file__).resolve().parent.parent / "stylesheets"


def test_the_committed_page_is_current() -> None:
    assert DOCS_PAGE.read_text(encoding="utf-8") == render(), "run python -m pyxform.runtime.docs"
    assert main(["--check"]) == 0


def test_check_fails_on_a_stale_page(tmp_path: Path) -> None:
    stale = tmp_path / "stylesheets.md"
    stale.write_text("# old\n")
    errors = tmp_path / "errors.md"
    errors.write_text((ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["--check", "-o", str(stale), "--errors", str(errors)]) == 1
    assert main(["-o", str(stale), "--errors", str(errors)]) == 0
    assert main(["--check", "-o", str(stale), "--errors", str(errors)]) == 0


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


# -- the README and the manual in docs/ -----------------------------------------------------------------------------
ROOT = STYLESHEETS.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {_slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"#{1,6} ", line)}


def test_the_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith("#") and not line.startswith(("set ", "cd ", "bash .ci/"))]
    assert len(ci) == 1 and ci[0].startswith("python3.11 -m venv .venv && ")
    assert f"\n{ci[0]}\n" in readme, ".ci/run must run exactly the README's test command"
    assert "\npython3.11 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/pyxform convert examples/" in readme
    assert (ROOT / "examples" / "crazy-town.html").is_file()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_of_the_manual_leads_somewhere(page: Path) -> None:
    """Relative links name an existing file, and a ``#fragment`` a heading of that page."""
    broken = []
    for target in _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
        elif fragment and linked.suffix == ".md" and fragment not in _anchors(linked):
            broken.append(target)
    assert not broken, f"{page.name}: {broken}"


def test_the_slug_is_githubs() -> None:
    assert _slug(" Where `-o` writes") == "where--o-writes"
    assert _slug("Your own stylesheets: `--xslt`, `--param`") == "your-own-stylesheets---xslt---param"
    assert _slug("A worked example: HTML -> XML") == "a-worked-example-html---xml"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_command_shown_parses(page: Path) -> None:
    """Each ``$ pyxform ...`` line of a console example names options the command line has."""
    from pyxform.cli import build_parser

    parser = build_parser()
    lines = [line[2:] for block in _FENCE.findall(page.read_text(encoding="utf-8"))
             for line in block.splitlines() if line.startswith("$ pyxform ")]
    for line in lines:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split, lexer.commenters = True, "#"
        words = list(lexer)
        cut = next((i for i, word in enumerate(words) if word in ("|", ";", "&&", ">", "<")), len(words))
        try:
            parser.parse_args(words[1:cut])
        except SystemExit:
            pytest.fail(f"{page.name}: {line}")
    if page.relative_to(ROOT).as_posix() in ("README.md", "docs/pages.md", "docs/toolkit.md"):
        assert lines


def test_the_error_tables_of_errors_md_are_generated_from_the_one_error_table(tmp_path: Path) -> None:
    """docs/errors.md's exit-code table is ERROR_TABLE (code -> class -> exit status) and its list of codes the
    stylesheets write is STYLESHEET_CODES, as generated; a stale page fails the check."""
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    assert render_errors(page) == page, "run python -m pyxform.runtime.docs"
    block = page[page.index("<!-- BEGIN exit-codes"):page.index("<!-- END exit-codes -->")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in block.splitlines()
            if line.startswith("| ") and not line.startswith(("| exit", "| ---"))]
    listed = [(int(exit_code), code.strip("`"), re.findall(r"`(\w+)`", names)[:1]) for exit_code, code, names, _ in rows]
    assert listed == [(row.exit, row.code if row.cls else "", [row.cls] if row.cls else []) for row in ERROR_TABLE]
    assert [int(row[0]) for row in rows] == sorted(int(row[0]) for row in rows)
    stale = tmp_path / "errors.md"
    stale.write_text(page.replace("| 7 | `limit`", "| 8 | `limit`"), encoding="utf-8")
    output = tmp_path / "stylesheets.md"
    assert main(["-o", str(output), "--errors", str(stale), "--check"]) == 1
    assert main(["-o", str(output), "--errors", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == page
