"""Reference documentation of the built-in stylesheets, generated from the stylesheets themselves.

Each stylesheet documents itself (the DocBook xslTNG / XSpec manner): the file opens with a comment saying what it
does (for a stage driver: ``Stage NAME: input -> output``, its rules and parameters), and each global parameter,
named mode and public (``f:``) function is preceded by a comment. A parameter that takes one of a fixed set of
values lists them in the extension attribute ``px:values`` (space-separated; ``px`` is ``urn:pyxform``), e.g.
``<xsl:param name="method" as="xs:string" select="'auto'" px:values="auto markup format"/>``: pyxform checks the
values given to it before a stage runs (:mod:`pyxform.params`). This module reads those comments and the
declarations (names, ``as`` types, defaults, values, ``on-no-match``) and writes ``docs/stylesheets.md``: per stage (in
pipeline order, :data:`pyxform.pipeline.BUILTIN_STAGES`) its opening comment, parameters, modes and modules, then
every module with its public functions.

``python -m pyxform.docs`` writes the page; ``python -m pyxform.docs --check`` exits 1 when the committed page is
not what the stylesheets say now (a test runs the same check).
"""

from __future__ import annotations

import argparse
import functools
import sys
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .normalize import PIPELINE_STYLESHEETS
from .saxon import builtin_stylesheet

__all__ = ["StylesheetDoc", "Declaration", "read_stylesheet", "stylesheet_docs", "stage_parameters",
           "stage_parameter_declarations", "render", "DOCS_PAGE", "VALUES_ATTRIBUTE"]

XSL = "http://www.w3.org/1999/XSL/Transform"
_X = "{" + XSL + "}"
#: The extension attribute of an ``xsl:param`` that lists the values it takes (space-separated).
VALUES_ATTRIBUTE = "{urn:pyxform}values"
#: Where the generated page lives in the repository.
DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "stylesheets.md"


@dataclass
class Declaration:
    """A parameter, mode or function: its signature and the comment before it; for a parameter also its declared
    type (``as``, ``item()*`` if none) and the values it takes when they are a fixed set (``px:values``)."""

    kind: str
    name: str
    signature: str
    comment: str
    type: str = ""
    values: tuple[str, ...] = ()


@dataclass
class StylesheetDoc:
    """What one stylesheet module says about itself."""

    path: str  # relative to stylesheets/, posix
    opening: str
    includes: list[str] = field(default_factory=list)
    params: list[Declaration] = field(default_factory=list)
    modes: list[Declaration] = field(default_factory=list)
    functions: list[Declaration] = field(default_factory=list)


def _comment_text(comment: etree._Comment) -> str:
    """A comment's text with the common indentation removed and surrounding blank lines dropped."""
    return textwrap.dedent(comment.text or "").strip("\n").rstrip()


def _preceding_comment(element: etree._Element) -> str:
    """The comment right before ``element`` (only white space between), or ''."""
    previous = element.getprevious()
    if isinstance(previous, etree._Comment) and not (previous.tail or "").strip():
        return " ".join(_comment_text(previous).split())
    return ""


def _parse(path: Path) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_blank_text=False)
    return etree.parse(str(path), parser).getroot()


def read_stylesheet(root_folder: Path, relative: str) -> StylesheetDoc:
    """Read the documentation of one stylesheet module (``relative`` to the stylesheets folder)."""
    root = _parse(root_folder / relative)
    document = root.getroottree()
    opening = ""
    for node in document.getroot().itersiblings(preceding=True):
        if isinstance(node, etree._Comment):
            opening = _comment_text(node)
    doc = StylesheetDoc(relative, opening)
    folder = Path(relative).parent
    for element in root:
        if not isinstance(element.tag, str):
            continue
        if element.tag in (_X + "include", _X + "import"):
            doc.includes.append((folder / element.get("href", "")).as_posix())
        elif element.tag == _X + "param":
            default = element.get("select") or "(content)"
            declared_type = element.get("as", "item()*")
            values = tuple(element.get(VALUES_ATTRIBUTE, "").split())
            signature = f"{declared_type} = {default}" + (f", one of {' '.join(values)}" if values else "")
            doc.params.append(Declaration("param", element.get("name", ""), signature, _preceding_comment(element),
                                          declared_type, values))
        elif element.tag == _X + "mode" and element.get("name"):
            name = element.get("name", "")
            comment = _preceding_comment(element)
            if not comment and opening.startswith(f"Mode {name}:"):  # one mode per file: its opening comment
                comment = " ".join(opening.split("\n\n")[0].split()).removeprefix(f"Mode {name}:").strip()
            doc.modes.append(Declaration("mode", name, f"on-no-match={element.get('on-no-match', 'text-only-copy')}",
                                         comment))
        elif element.tag == _X + "function" and element.get("name", "").startswith("f:"):
            params = ", ".join(f"${p.get('name')} as {p.get('as', 'item()*')}"
                               for p in element.iterchildren(_X + "param"))
            doc.functions.append(Declaration("function", element.get("name", ""),
                                             f"({params}) as {element.get('as', 'item()*')}",
                                             _preceding_comment(element)))
    return doc


def _modules(root_folder: Path, relative: str, seen: set[str]) -> Iterator[StylesheetDoc]:
    """A stylesheet and every module it includes, depth first, each once."""
    if relative in seen:
        return
    seen.add(relative)
    doc = read_stylesheet(root_folder, relative)
    yield doc
    for include in doc.includes:
        yield from _modules(root_folder, include, seen)


def stylesheet_docs() -> list[tuple[str, list[StylesheetDoc]]]:
    """Per built-in stage, in pipeline order: its name and its modules (the driver first)."""
    root_folder = builtin_stylesheet(PIPELINE_STYLESHEETS[0][1]).parent
    return [(stage, list(_modules(root_folder, file_name, set()))) for stage, file_name in PIPELINE_STYLESHEETS]


@functools.lru_cache(maxsize=None)
def stage_parameter_declarations(stage: str) -> dict[str, Declaration]:
    """The global parameters of a built-in stage (its driver and every module it includes) by name, with their
    declared types and fixed sets of values.

    :raises KeyError: ``stage`` is not one of :data:`PIPELINE_STYLESHEETS`.
    """
    file_name = dict(PIPELINE_STYLESHEETS)[stage]
    root_folder = builtin_stylesheet(file_name).parent
    return {param.name: param for module in _modules(root_folder, file_name, set()) for param in module.params}


def stage_parameters(stage: str) -> dict[str, str]:
    """The global parameters of a built-in stage and their declared types (``as``, ``item()*`` if none), e.g.
    ``{"threshold": "xs:double", ...}`` for ``headers``.

    :raises KeyError: ``stage`` is not one of :data:`PIPELINE_STYLESHEETS`.
    """
    return {name: param.type for name, param in stage_parameter_declarations(stage).items()}


def _markdown(text: str) -> str:
    """Prose for a Markdown list item or table cell: angle brackets and bars escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def _declarations(title: str, items: Sequence[Declaration]) -> list[str]:
    if not items:
        return []
    lines = [f"**{title}**", ""]
    for item in items:
        lines.append(f"- `{item.name}` `{item.signature}`" + (f": {_markdown(item.comment)}" if item.comment else ""))
    return lines + [""]


def _quote(text: str) -> list[str]:
    """The opening comment as a preformatted block (it is laid out as text, with aligned columns)."""
    return ["```text", *text.splitlines(), "```", ""] if text else []


def render() -> str:
    """The Markdown page (``docs/stylesheets.md``) for the stylesheets installed now."""
    stages = stylesheet_docs()
    lines = [
        "# The stylesheets",
        "",
        "<!-- Generated by `python -m pyxform.docs` from the stylesheets' own comments: edit those, not this page. -->",
        "",
        "pyxform's XSLT 3.0 stylesheets, one driver per stage, in pipeline order. Each can run as a step of a "
        "`pyxform.Pipeline` (`Step.stage(NAME)`), its parameters set with `params={NAME: {...}}` or "
        "`--param NAME.PARAM=VALUE`. The formats are in [formats.md](formats.md); the public URI of each file "
        "(`https://pyxform.invalid/stylesheets/PATH`, for `xsl:import` from your own stylesheets) resolves "
        "through pyxform's XML catalog.",
        "",
        "| stage | stylesheet | what it does |",
        "| --- | --- | --- |",
    ]
    for stage, modules in stages:
        summary = " ".join(modules[0].opening.split("\n\n")[0].split())
        summary = summary.split(": ", 1)[1] if summary.lower().startswith("stage") and ": " in summary else summary
        lines.append(f"| `{stage}` | `stylesheets/{modules[0].path}` | {_markdown(summary)} |")
    lines.append("")
    documented: set[str] = set()
    for stage, modules in stages:
        driver = modules[0]
        lines += [f"## `{stage}`: `stylesheets/{driver.path}`", "", *_quote(driver.opening)]
        params = [param for module in modules for param in module.params]
        lines += _declarations("Parameters", params)
        lines += _declarations("Modes", [mode for module in modules for mode in module.modes])
        if len(modules) > 1:
            lines += ["**Modules**: " + ", ".join(f"`{module.path}`" for module in modules[1:]), ""]
        lines += _declarations("Functions", driver.functions)
        documented.add(driver.path)
    library = sorted({module.path: module for _, modules in stages for module in modules[1:]}.items())
    lines += ["## Modules", "", "Every module the drivers include, with its public (`f:`) functions.", ""]
    for path, module in library:
        if path in documented:
            continue
        documented.add(path)
        lines += [f"### `stylesheets/{path}`", "", *_quote(module.opening)]
        lines += _declarations("Functions", module.functions)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pyxform.docs [--check] [-o PATH]``."""
    parser = argparse.ArgumentParser(prog="python -m pyxform.docs", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is not current")
    parser.add_argument("-o", "--output", type=Path, default=DOCS_PAGE, help=f"default: {DOCS_PAGE}")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
        if current != text:
            print(f"{args.output} is not current: run python -m pyxform.docs", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
