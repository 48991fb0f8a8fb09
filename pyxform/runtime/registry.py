"""The stage registry: pyxform's built-in stylesheets by stage name, and what each declares about itself.

Each stylesheet documents itself (the DocBook xslTNG / XSpec manner): the file opens with a comment saying what it
does (for a stage driver: ``Stage NAME: input -> output``, its rules and parameters), and each global parameter,
named mode and public (``f:``) function is preceded by a comment. A parameter that takes one of a fixed set of
values lists them in the extension attribute ``px:values`` (space-separated; ``px`` is ``urn:pyxform``), e.g.
``<xsl:param name="method" as="xs:string" select="'auto'" px:values="auto markup format"/>``. This module reads
those comments and declarations (names, ``as`` types, defaults, values, ``on-no-match``): the parameter checks
(:mod:`pyxform.runtime.params`) use the declarations, the reference page (:mod:`pyxform.runtime.docs`) the comments.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from lxml import etree

from ..base.safexml import parse_file
from .saxon import builtin_stylesheet

__all__ = ["PIPELINE_STYLESHEETS", "BUILTIN_STAGES", "OPTION_PARAMETERS", "StylesheetDoc", "Declaration", "read_stylesheet",
           "stylesheet_modules", "stage_parameters", "stage_parameter_declarations", "VALUES_ATTRIBUTE"]

#: Stylesheets of the pipeline, by runtime name; the ones that ship with this build are compiled into the shared
#: runtime before it is locked (a locked Saxon processor cannot compile more).
PIPELINE_STYLESHEETS: tuple[tuple[str, str], ...] = (
    ("normalize", "normalize.xsl"),
    ("headers", "headers.xsl"),
    ("map", "map.xsl"),
    ("headers-map", "headers-map.xsl"),
    ("merge", "merge.xsl"),
    ("pairs", "pairs.xsl"),
    ("schema", "schema.xsl"),
    ("tabular", "tabular.xsl"),
    ("json", "json.xsl"),
    ("xhtml", "xhtml.xsl"),
)
#: Built-in stylesheets by stage name (``stylesheets/``): the conversion stages and the output stages.
BUILTIN_STAGES: Mapping[str, str] = MappingProxyType(dict(PIPELINE_STYLESHEETS))

#: The stage parameters that pyxform's own options set, by stage, with the option (in the Python API's words:
#: ``table=...``, ``limits=Limits(max_slots=...)``; the command line shows ``--table``, ``--max-slots``): a conversion
#: (:func:`pyxform.convert`, ``--param``) and the headers stage (:func:`pyxform.detect_headers`) refuse them as
#: parameters of the user's, so that an option and a parameter never disagree
#: (:func:`pyxform.runtime.params.check_option_params`).
OPTION_PARAMETERS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "normalize": {"max-slots": "limits=Limits(max_slots=...)", "max-depth": "limits=Limits(max_depth=...)",
                  "only-table": "table=..."},
    "headers": {"method": "method=...", "table": "table=..."},
    "map": {"names": "names=...", "table": "table=..."},
    "headers-map": {"method": "method=...", "names": "names=...", "table": "table=..."},
    "pairs": {"table": "table=..."},
    "tabular": {"table": "table=..."},
    "xhtml": {"table": "table=..."},
})

XSL = "http://www.w3.org/1999/XSL/Transform"
_X = "{" + XSL + "}"
#: The extension attribute of an ``xsl:param`` that lists the values it takes (space-separated).
VALUES_ATTRIBUTE = "{urn:pyxform}values"


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


def read_stylesheet(root_folder: Path, relative: str) -> StylesheetDoc:
    """Read the documentation of one stylesheet module (``relative`` to the stylesheets folder)."""
    root = parse_file(root_folder / relative)
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


def stylesheet_modules(root_folder: Path, relative: str, seen: set[str] | None = None
                       ) -> Iterator[StylesheetDoc]:
    """A stylesheet and every module it includes, depth first, each once."""
    seen = set() if seen is None else seen
    if relative in seen:
        return
    seen.add(relative)
    doc = read_stylesheet(root_folder, relative)
    yield doc
    for include in doc.includes:
        yield from stylesheet_modules(root_folder, include, seen)


@functools.lru_cache(maxsize=None)
def stage_parameter_declarations(stage: str) -> dict[str, Declaration]:
    """The global parameters of a built-in stage (its driver and every module it includes) by name, with their
    declared types and fixed sets of values.

    :raises KeyError: ``stage`` is not one of :data:`PIPELINE_STYLESHEETS`.
    """
    file_name = dict(PIPELINE_STYLESHEETS)[stage]
    root_folder = builtin_stylesheet(file_name).parent
    return {param.name: param for module in stylesheet_modules(root_folder, file_name) for param in module.params}


def stage_parameters(stage: str) -> dict[str, str]:
    """The global parameters of a built-in stage and their declared types (``as``, ``item()*`` if none), e.g.
    ``{"threshold": "xs:double", ...}`` for ``headers``.

    :raises KeyError: ``stage`` is not one of :data:`PIPELINE_STYLESHEETS`.
    """
    return {name: param.type for name, param in stage_parameter_declarations(stage).items()}
