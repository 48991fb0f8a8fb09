"""CSS values, where pyxform reads them: colours, lengths, font sizes and weights, the shorthands that set the
properties pyxform keeps, declaration lists and media queries (CSS Values and Units 3, CSS Color 3, CSS Fonts 3,
Media Queries 4; HTML 2.3.6.4 for legacy colours), and the computed values pyxform keeps for an element (:class:`Style`,
:func:`apply_property`). :mod:`pyxform.stages.clean.style` runs the cascade with them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

import tinycss2
import tinycss2.color3

from .parse import xml_characters

__all__ = ["VIEWPORT_WIDTH_PX", "DEFAULT_FONT_SIZE_PX", "PROPERTIES", "FONT_SIZE_KEYWORDS", "ABSOLUTE_UNITS",
           "Declarations", "css_tokens", "css_color", "legacy_color", "parse_declarations", "inline_declarations",
           "may_hide", "media_applies", "length_px", "font_size_px", "font_weight", "first_family", "ALIGN_VALUES",
           "UA_RULES", "Style", "apply_property", "presentational_hints", "is_block"]

VIEWPORT_WIDTH_PX: Final = 1280.0
DEFAULT_FONT_SIZE_PX: Final = 16.0

#: The properties pyxform keeps.
PROPERTIES: Final = frozenset({
    "font-size", "font-weight", "font-style", "font-family", "color", "background-color", "text-align",
    "text-indent", "padding-left", "margin-left", "display", "visibility",
})
FONT_SIZE_KEYWORDS: Final = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0,
    "xx-large": 32.0, "xxx-large": 48.0,
}
ABSOLUTE_UNITS: Final = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
                          "q": 96 / 101.6}

Declarations = dict[str, tuple[str, bool]]  # property -> (value text, !important)


def css_tokens(value: str) -> list:
    return [t for t in tinycss2.parse_component_value_list(value, skip_comments=True)
            if t.type not in ("whitespace", "comment")]


@functools.lru_cache(maxsize=4096)  # pure, and pages repeat their values
def css_color(value: str) -> str | None:
    """A CSS colour value as ``#rrggbb`` (``None`` for transparent, ``currentcolor``, or not a colour)."""
    try:
        color = tinycss2.color3.parse_color(value.strip())
    except Exception:  # tinycss2 rejects odd tokens with assorted exceptions
        return None
    if color is None or color == "currentColor" or not hasattr(color, "alpha") or color.alpha == 0:
        return None
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in (color.red, color.green, color.blue))


@functools.lru_cache(maxsize=4096)  # pure, and pages repeat their values
def legacy_color(value: str) -> str | None:
    """HTML's "rules for parsing a legacy colour value" (HTML 2.3.6.4): ``bgcolor``/``color``/``text`` attributes.

    :returns: ``#rrggbb``, or ``None`` for an empty value or ``transparent``.
    """
    value = value.strip(" \t\n\x0c\r")
    if not value or value.lower() == "transparent":
        return None
    named = css_color(value) if re.fullmatch(r"[A-Za-z]+", value) else None
    if named is not None:
        return named
    if len(value) == 4 and value[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in value[1:]):
        return "#" + "".join(c * 2 for c in value[1:]).lower()
    value = "".join("00" if ord(c) > 0xFFFF else c for c in value)[:128]
    value = value.removeprefix("#")
    value = "".join(c if c in "0123456789abcdefABCDEF" else "0" for c in value)
    while not value or len(value) % 3:
        value += "0"
    length = len(value) // 3
    parts = [value[i * length:(i + 1) * length] for i in range(3)]
    if length > 8:
        parts = [p[length - 8:] for p in parts]
        length = 8
    while length > 2 and all(p[0] == "0" for p in parts):
        parts = [p[1:] for p in parts]
        length -= 1
    if length > 2:
        parts = [p[:2] for p in parts]
    return "#" + "".join(p.rjust(2, "0") if len(p) == 1 else p for p in parts).lower()


def _expand(name: str, value: str, important: bool, into: Declarations) -> None:
    """Store a declaration, expanding the shorthands that set properties pyxform reads."""
    if name in PROPERTIES:
        into[name] = (value, important)
    elif name in ("padding", "margin"):
        parts = css_tokens(value)
        if parts:
            left = parts[{1: 0, 2: 1, 3: 1}.get(len(parts), 3)] if len(parts) <= 4 else parts[0]
            into[name + "-left"] = (tinycss2.serialize([left]), important)
    elif name == "background":
        color = "transparent"
        for token in css_tokens(value):
            text = tinycss2.serialize([token])
            if css_color(text) is not None or text.lower() in ("transparent", "inherit", "initial", "unset"):
                color = text
        into["background-color"] = (color, important)
    elif name == "font":
        _expand_font(value, important, into)


def _expand_font(value: str, important: bool, into: Declarations) -> None:
    """The ``font`` shorthand: ``[style] [variant] [weight] size[/line-height] family``."""
    tokens = css_tokens(value)
    if len(tokens) == 1 and tokens[0].type == "ident" and tokens[0].lower_value in (
        "inherit", "initial", "unset"
    ):
        for name in ("font-style", "font-weight", "font-size", "font-family"):
            into[name] = (tokens[0].lower_value, important)
        return
    style, weight = "normal", "normal"
    for index, token in enumerate(tokens):
        text = tinycss2.serialize([token]).lower()
        if token.type == "ident" and text in ("italic", "oblique"):
            style = text
        elif token.type == "ident" and text in ("bold", "bolder", "lighter"):
            weight = text
        elif token.type == "number" and index + 1 < len(tokens):
            weight = text
        elif token.type in ("dimension", "percentage") or (token.type == "ident" and (
                text in FONT_SIZE_KEYWORDS or text in ("smaller", "larger"))):
            into["font-style"] = (style, important)
            into["font-weight"] = (weight, important)
            into["font-size"] = (text, important)
            rest = tokens[index + 1:]
            if rest and rest[0].type == "literal" and rest[0].value == "/":
                rest = rest[2:]
            family = tinycss2.serialize(rest).strip()
            if family:
                into["font-family"] = (family, important)
            return


def parse_declarations(css: str, into: Declarations | None = None) -> tuple[Declarations, Declarations]:
    """The normal and ``!important`` declarations of a declaration list (a ``style`` attribute's value)."""
    normal: Declarations = {} if into is None else into
    important: Declarations = {}
    for declaration in tinycss2.parse_declaration_list(css, skip_comments=True, skip_whitespace=True):
        if declaration.type != "declaration":
            continue
        value = tinycss2.serialize(declaration.value).strip()
        _expand(declaration.lower_name, value, declaration.important, important if declaration.important else normal)
    return normal, important


@functools.lru_cache(maxsize=4096)
def inline_declarations(css: str) -> tuple[Declarations, Declarations]:
    """:func:`parse_declarations` of a ``style`` attribute, cached across pages (the result is shared: read only)."""
    return parse_declarations(css)


def may_hide(css: str) -> bool:
    """False when a declaration list cannot set ``display`` or ``visibility``: neither name appears in it, in any
    letter case, and it has no escape (through which a property name could be spelled otherwise)."""
    lower = css.lower()
    return "display" in lower or "visibility" in lower or "\\" in css


def media_applies(query_text: str) -> bool:
    """Whether a media query list holds for a 1280 px wide colour screen (widths and types only; others fail)."""
    query_text = query_text.strip().lower()
    if not query_text:
        return True
    for query in query_text.split(","):
        query = query.strip()
        if query.startswith("not ") or query.startswith("only "):
            query = query.split(None, 1)[1] if " " in query else ""
            if query_text.strip().startswith("not "):
                continue
        words = re.sub(r"\(.*?\)", "", query).replace(" and ", " ").split()
        if any(word not in ("all", "screen") for word in words):
            continue
        holds = True
        for feature, number, unit in re.findall(r"\(\s*([a-z-]+)\s*:\s*([\d.]+)\s*([a-z]*)\s*\)", query):
            px = float(number) * (ABSOLUTE_UNITS.get(unit, 16.0 if unit in ("em", "rem") else 1.0))
            if feature == "min-width":
                holds = holds and VIEWPORT_WIDTH_PX >= px
            elif feature == "max-width":
                holds = holds and VIEWPORT_WIDTH_PX <= px
            else:
                holds = False
        if re.search(r"\((?![a-z-]+\s*:\s*[\d.]+)", query):
            holds = False
        if holds:
            return True
    return False


@functools.lru_cache(maxsize=4096)  # pure, and pages repeat their values
def length_px(value: str, font_size: float, root_font_size: float = DEFAULT_FONT_SIZE_PX) -> float | None:
    """A CSS length in px (``em`` against ``font_size``); ``None`` for percentages of widths and other values."""
    tokens = css_tokens(value)
    if len(tokens) != 1:
        return None
    token = tokens[0]
    if token.type == "number" and token.value == 0:
        return 0.0
    if token.type != "dimension":
        return None
    unit = token.lower_unit
    if unit in ABSOLUTE_UNITS:
        return token.value * ABSOLUTE_UNITS[unit]
    if unit == "em":
        return token.value * font_size
    if unit == "rem":
        return token.value * root_font_size
    if unit in ("ex", "ch"):
        return token.value * font_size / 2
    if unit in ("vw", "vmin"):
        return token.value * VIEWPORT_WIDTH_PX / 100
    return None


@functools.lru_cache(maxsize=4096)  # pure, and pages repeat their values
def font_size_px(value: str, parent: float) -> float | None:
    value = value.strip().lower()
    if value in FONT_SIZE_KEYWORDS:
        return FONT_SIZE_KEYWORDS[value]
    if value == "larger":
        return parent * 1.2
    if value == "smaller":
        return parent / 1.2
    tokens = css_tokens(value)
    if len(tokens) == 1 and tokens[0].type == "percentage":
        return parent * tokens[0].value / 100
    size = length_px(value, parent)
    return size if size is not None and size >= 0 else None


def font_weight(value: str, parent: int) -> int | None:
    value = value.strip().lower()
    if value == "normal":
        return 400
    if value == "bold":
        return 700
    if value == "bolder":
        return 400 if parent < 350 else 700 if parent < 550 else 900
    if value == "lighter":
        return 100 if parent < 550 else 400 if parent < 750 else 700
    try:
        number = float(value)
    except ValueError:
        return None
    return int(number) if 1 <= number <= 1000 else None


@functools.lru_cache(maxsize=4096)  # pure, and pages repeat their values
def first_family(value: str) -> str | None:
    """The first family name of a ``font-family`` value, lower-cased (CSS Fonts 4, 2.1): a string token's value, or a
    run of identifiers joined by single spaces, with CSS escapes decoded (CSS Syntax 3, 4.3.7). The characters that
    XML cannot hold, which an escape can write (``\\1``, ``\\D800``), are replaced as in the page's text
    (:func:`.parse.xml_characters`), since the name becomes an attribute value (``px:face``).

    :returns: the name (``""`` for an empty string, which names no font); ``None`` when the first entry is not a
        family name (nothing, a number, a function, a string followed by more tokens): a value pyxform cannot read.
    """
    parts: list[str] = []
    quoted = False
    for token in tinycss2.parse_component_value_list(value, skip_comments=True):
        if token.type in ("whitespace", "comment") or (token.type == "error" and token.kind == "eof-in-string"):
            continue  # a string the value's end closes is a string (CSS Syntax 3, 4.3.5: a parse error, not invalid)
        if token.type == "literal" and token.value == ",":
            break
        if quoted or token.type not in ("string", "ident") or (token.type == "string" and parts):
            return None
        quoted = token.type == "string"
        parts.append(token.value)
    return xml_characters(" ".join(parts).lower()) if parts else None


@dataclass
class Style:
    """The computed values pyxform reads, for one element.

    Lengths are CSS px; ``weight`` is the numeric font-weight; ``align`` is ``None`` when text-align is the initial
    value (no rule, attribute or UA default set it).
    """

    font_size: float = DEFAULT_FONT_SIZE_PX
    weight: int = 400
    italic: bool = False
    face: str | None = None
    color: str | None = None
    align: str | None = None
    text_indent: float = 0.0
    padding_left: float = 0.0
    margin_left: float = 0.0
    background: str | None = None
    display: str = "inline"
    visibility: str = "visible"
    specified: dict[str, str] = field(default_factory=dict)


#: User-agent style sheet (HTML Living Standard, 15 "Rendering"), only the properties pyxform reads.
UA_RULES: Final[dict[str, dict[str, str]]] = {
    "b": {"font-weight": "bolder"}, "strong": {"font-weight": "bolder"},
    "i": {"font-style": "italic"}, "em": {"font-style": "italic"}, "cite": {"font-style": "italic"},
    "var": {"font-style": "italic"}, "dfn": {"font-style": "italic"}, "address": {"font-style": "italic",
                                                                                  "display": "block"},
    "big": {"font-size": "larger"}, "small": {"font-size": "smaller"},
    "sub": {"font-size": "smaller"}, "sup": {"font-size": "smaller"},
    "h1": {"font-size": "2em", "font-weight": "bold", "display": "block"},
    "h2": {"font-size": "1.5em", "font-weight": "bold", "display": "block"},
    "h3": {"font-size": "1.17em", "font-weight": "bold", "display": "block"},
    "h4": {"font-size": "1em", "font-weight": "bold", "display": "block"},
    "h5": {"font-size": "0.83em", "font-weight": "bold", "display": "block"},
    "h6": {"font-size": "0.67em", "font-weight": "bold", "display": "block"},
    "th": {"font-weight": "bold", "display": "table-cell"}, "td": {"display": "table-cell"},
    "caption": {"text-align": "center", "display": "table-caption"},
    "center": {"text-align": "center", "display": "block"},
    "blockquote": {"margin-left": "40px", "display": "block"}, "dd": {"margin-left": "40px", "display": "block"},
    "ul": {"padding-left": "40px", "display": "block"}, "ol": {"padding-left": "40px", "display": "block"},
    "menu": {"padding-left": "40px", "display": "block"}, "dir": {"padding-left": "40px", "display": "block"},
    "li": {"display": "list-item"},
    "pre": {"font-family": "monospace", "display": "block"}, "code": {"font-family": "monospace"},
    "kbd": {"font-family": "monospace"}, "samp": {"font-family": "monospace"}, "tt": {"font-family": "monospace"},
    "listing": {"font-family": "monospace", "display": "block"},
    "xmp": {"font-family": "monospace", "display": "block"},
    "plaintext": {"font-family": "monospace", "display": "block"},
    **{name: {"display": "block"} for name in (
        "p", "div", "dl", "dt", "figure", "figcaption", "footer", "header", "hgroup", "main", "nav", "section",
        "article", "aside", "form", "fieldset", "legend", "hr", "details", "summary", "dialog", "search", "body",
        "html")},
}
# text-align and the align attribute's values -> CSS text-align.
ALIGN_VALUES: Final = {"left": "left", "right": "right", "center": "center", "middle": "center",
                        "justify": "justify", "start": "left", "end": "right", "-webkit-center": "center",
                        "-moz-center": "center", "-webkit-left": "left", "-webkit-right": "right"}


def apply_property(style: Style, prop: str, raw: str, inherited: Style) -> None:
    """Set on ``style`` the computed value of ``prop`` from its specified value ``raw`` (not a CSS-wide keyword),
    ``inherited`` being the parent's style (CSS Cascade 4, 4.4 "Computed values"; lengths in px, em against
    ``style.font_size``, which is computed first). A value pyxform cannot read leaves the property as it is."""
    value = raw.strip()
    lower = value.lower()
    if prop == "font-size":
        size = font_size_px(lower, inherited.font_size)
        if size is not None:
            style.font_size = size
    elif prop == "font-weight":
        weight = font_weight(lower, inherited.weight)
        if weight is not None:
            style.weight = weight
    elif prop == "font-style":
        if lower in ("italic", "oblique", "normal") or lower.startswith("oblique"):
            style.italic = lower != "normal"
    elif prop == "font-family":
        face = first_family(value)
        if face is not None:
            style.face = face or None
    elif prop == "color":
        color = css_color(value)
        if color is not None or lower == "transparent":
            style.color = color
        elif lower == "currentcolor":
            style.color = inherited.color
    elif prop == "background-color":
        style.background = css_color(value)
    elif prop == "text-align":
        if lower in ALIGN_VALUES:
            style.align = ALIGN_VALUES[lower]
    elif prop in ("text-indent", "padding-left", "margin-left"):
        length = length_px(lower, style.font_size if prop != "text-indent" else style.font_size)
        if length is not None:
            setattr(style, prop.replace("-", "_"), length)
    elif prop == "display":
        style.display = lower.split()[0] if lower else "inline"
    elif prop == "visibility":
        if lower in ("visible", "hidden", "collapse"):
            style.visibility = lower


# HTML 15.3.4 "Phrasing content": <font size=N> (1..7) -> CSS keyword size.
_LEGACY_FONT_SIZES: Final = ("x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large")
_HEADINGS: Final = ("h1", "h2", "h3", "h4", "h5", "h6")


def presentational_hints(attribute: Callable[[str], str | None], name: str) -> Declarations:
    """Presentational hints of HTML attributes (HTML 15.3), as declarations, for an element named ``name`` (local
    name of an HTML element, else ``""``) whose attribute values ``attribute`` gives (``element.get``)."""
    hints: Declarations = {}
    if attribute("hidden") is not None:
        hints["display"] = ("none", False)
    if name == "font":
        size = (attribute("size") or "").strip()
        match = re.match(r"([+-]?)(\d+)", size)
        if match:
            number = int(match.group(2))
            number = 3 + number if match.group(1) == "+" else 3 - number if match.group(1) == "-" else number
            hints["font-size"] = (_LEGACY_FONT_SIZES[min(max(number, 1), 7) - 1], False)
        if attribute("face"):
            hints["font-family"] = (attribute("face") or "", False)
        color = legacy_color(attribute("color") or "")
        if color:
            hints["color"] = (color, False)
    elif name == "body":
        color = legacy_color(attribute("text") or "")
        if color:
            hints["color"] = (color, False)
    if name in ("td", "th", "tr", "thead", "tbody", "tfoot", "table", "body"):
        background = legacy_color(attribute("bgcolor") or "")
        if background:
            hints["background-color"] = (background, False)
    if name in ("td", "th", "tr", "thead", "tbody", "tfoot", "caption", "div", "p", *_HEADINGS):
        align = (attribute("align") or "").strip().lower()
        if align in ALIGN_VALUES:
            hints["text-align"] = (ALIGN_VALUES[align], False)
    return hints


_BLOCK_DISPLAYS: Final = frozenset({"block", "list-item", "flex", "grid", "table", "table-cell", "flow-root",
                                    "table-caption"})


def is_block(style: Style) -> bool:
    """Whether an element's computed ``display`` makes it a block container (for indentation)."""
    return style.display in _BLOCK_DISPLAYS
