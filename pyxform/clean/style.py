"""The CSS cascade, where pyxform needs it: hidden elements, and the computed style of table cells' text.

Sources of declarations, in cascade order (CSS Cascading 4, section 6): the user-agent defaults of the HTML
Living Standard's rendering section (:data:`UA_RULES`: ``th``/``b``/``strong``/``h1``-``h6`` bold, ``i``/``em``
italic, ``big``/``small``/``h1``-``h6`` sizes, list and blockquote indents ...), the presentational hints of HTML
attributes (``font size/face/color``, ``bgcolor``, ``align``, ``hidden``, ``text``; HTML 15.3), the page's ``<style>``
rules (parsed with tinycss2; selectors matched with cssselect, ordered by specificity then source order), and
``style`` attributes; ``!important`` declarations win in the reverse order. ``@media`` blocks apply when they hold
for a 1280 px wide screen; ``@import``-ed and linked style sheets are not fetched.

Only the properties pyxform uses are kept: font size, weight, style and family, colour, background colour,
text-align, text-indent, padding-left, margin-left, display, visibility (and the shorthands ``font``, ``background``,
``padding``, ``margin`` that set them).

Work is limited to what is needed: rules that can hide an element are matched against the whole page; all other
rules only against the elements of tables and their ancestors, found through an index of each selector's subject
(id, class, element name), as browsers do.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

import cssselect
import tinycss2
import tinycss2.color3
from cssselect.parser import Class, CombinedSelector, Element, Hash
from lxml import etree

from .parse import XHTML_NS

__all__ = ["Style", "Cascade", "UA_RULES", "legacy_color", "css_color"]

_X: Final = "{" + XHTML_NS + "}"
VIEWPORT_WIDTH_PX: Final = 1280.0
DEFAULT_FONT_SIZE_PX: Final = 16.0

_PROPERTIES: Final = frozenset({
    "font-size", "font-weight", "font-style", "font-family", "color", "background-color", "text-align",
    "text-indent", "padding-left", "margin-left", "display", "visibility",
})
_INHERITED: Final = frozenset({
    "font-size", "font-weight", "font-style", "font-family", "color", "text-align", "text-indent", "visibility",
})
_FONT_SIZE_KEYWORDS: Final = {
    "xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0,
    "xx-large": 32.0, "xxx-large": 48.0,
}
# HTML 15.3.4 "Phrasing content": <font size=N> (1..7) -> CSS keyword size.
_LEGACY_FONT_SIZES: Final = ("x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large")
_ABSOLUTE_UNITS: Final = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4,
                          "q": 96 / 101.6}
_ALIGN_VALUES: Final = {"left": "left", "right": "right", "center": "center", "middle": "center",
                        "justify": "justify", "start": "left", "end": "right", "-webkit-center": "center",
                        "-moz-center": "center", "-webkit-left": "left", "-webkit-right": "right"}
_HEADINGS: Final = ("h1", "h2", "h3", "h4", "h5", "h6")
_X_LENGTH: Final = len(_X)
_TH: Final = _X + "th"
_ANY_KEY: Final = ("*", "")
# Elements whose attributes give presentational hints (see Cascade._hints).
_HINTED: Final = frozenset({"font", "body", "td", "th", "tr", "thead", "tbody", "tfoot", "table", "caption", "div",
                            "p", *_HEADINGS})

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
# In quirks mode, tables do not inherit font properties or alignment (HTML 15.3.7 "Tables", quirks rules).
_QUIRKS_TABLE: Final = {"font-size": "initial", "font-weight": "initial", "font-style": "initial",
                        "text-align": "initial"}

_BLOCK_DISPLAYS: Final = frozenset({"block", "list-item", "flex", "grid", "table", "table-cell", "flow-root",
                                    "table-caption"})

# (level, specificity, order): UA 0, presentational hints 1, author rules 2, style attribute 3;
# !important: UA 6, author 5, style attribute 5 with a higher specificity-free rank (CSS Cascade 4, 6.2).
_LEVEL_UA, _LEVEL_HINT, _LEVEL_AUTHOR, _LEVEL_INLINE = 0, 1, 2, 3
_LEVEL_AUTHOR_IMPORTANT, _LEVEL_INLINE_IMPORTANT = 4, 5

Declarations = dict[str, tuple[str, bool]]  # property -> (value text, !important)


def _tokens(value: str) -> list:
    return [t for t in tinycss2.parse_component_value_list(value, skip_comments=True)
            if t.type not in ("whitespace", "comment")]


def css_color(value: str) -> str | None:
    """A CSS colour value as ``#rrggbb`` (``None`` for transparent, ``currentcolor``, or not a colour)."""
    try:
        color = tinycss2.color3.parse_color(value.strip())
    except Exception:  # tinycss2 rejects odd tokens with assorted exceptions
        return None
    if color is None or color == "currentColor" or not hasattr(color, "alpha") or color.alpha == 0:
        return None
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in (color.red, color.green, color.blue))


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
    if name in _PROPERTIES:
        into[name] = (value, important)
    elif name in ("padding", "margin"):
        parts = _tokens(value)
        if parts:
            left = parts[{1: 0, 2: 1, 3: 1}.get(len(parts), 3)] if len(parts) <= 4 else parts[0]
            into[name + "-left"] = (tinycss2.serialize([left]), important)
    elif name == "background":
        color = "transparent"
        for token in _tokens(value):
            text = tinycss2.serialize([token])
            if css_color(text) is not None or text.lower() in ("transparent", "inherit", "initial", "unset"):
                color = text
        into["background-color"] = (color, important)
    elif name == "font":
        _expand_font(value, important, into)


def _expand_font(value: str, important: bool, into: Declarations) -> None:
    """The ``font`` shorthand: ``[style] [variant] [weight] size[/line-height] family``."""
    tokens = _tokens(value)
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
                text in _FONT_SIZE_KEYWORDS or text in ("smaller", "larger"))):
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
def _inline_declarations(css: str) -> tuple[Declarations, Declarations]:
    """:func:`parse_declarations` of a ``style`` attribute, cached across pages (the result is shared: read only)."""
    return parse_declarations(css)


# Elements with a hidden attribute; elements whose style attribute may set display or visibility (a superset of
# those _may_hide accepts: the words in ASCII letters of any case, or an escape), in document order, below the root.
_HIDDEN_ATTRIBUTE: Final = etree.XPath("descendant::*[@hidden]")
_MAY_HIDE_STYLE: Final = etree.XPath(
    "descendant::*[@style][contains(translate(@style, 'ABDEILPSTVY', 'abdeilpstvy'), 'display') "
    "or contains(translate(@style, 'ABDEILPSTVY', 'abdeilpstvy'), 'visibility') or contains(@style, '\\')]")


def _may_hide(css: str) -> bool:
    """False when a declaration list cannot set ``display`` or ``visibility``: neither name appears in it, in any
    letter case, and it has no escape (through which a property name could be spelled otherwise)."""
    lower = css.lower()
    return "display" in lower or "visibility" in lower or "\\" in css


def _media_applies(query_text: str) -> bool:
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
            px = float(number) * (_ABSOLUTE_UNITS.get(unit, 16.0 if unit in ("em", "rem") else 1.0))
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


class _Translator(cssselect.HTMLTranslator):
    """cssselect's HTML translator with element names in the XHTML namespace (prefix ``h``)."""

    def xpath_element(self, selector: Element) -> cssselect.xpath.XPathExpr:
        xpath = super().xpath_element(selector)
        if xpath.element != "*" and ":" not in xpath.element:
            xpath.element = "h:" + xpath.element
        return xpath


_TRANSLATOR: Final = _Translator()
_NAMESPACES: Final = {"h": XHTML_NS}
_STATEFUL_PSEUDO: Final = re.compile(r":(hover|focus|active|visited|focus-within|focus-visible|target)\b", re.I)


def _subject_key(tree: object) -> tuple[str, str]:
    """The index key of a selector's subject: its id, else a class, else its element name, else ``*``."""
    node = tree.subselector if isinstance(tree, CombinedSelector) else tree
    key: tuple[str, str] | None = None
    while node is not None:
        if isinstance(node, Hash):
            return ("id", node.id)
        if isinstance(node, Class) and key is None:
            key = ("class", node.class_name)
        if isinstance(node, Element):
            if key is None and node.element:
                key = ("tag", node.element.lower())
            break
        node = getattr(node, "selector", None)
    return key or ("*", "")


@dataclass(eq=False)
class _Rule:
    xpath: etree.XPath  # descendant-or-self:: from the root: every element the selector matches
    specificity: tuple[int, int, int]
    order: int
    normal: Declarations
    important: Declarations


@dataclass(frozen=True, eq=False)
class _CompiledSelector:
    xpath: etree.XPath
    specificity: tuple[int, int, int]
    key: tuple[str, str]  # see _subject_key


@dataclass(frozen=True, eq=False)
class _SheetRule:
    """A style rule of a sheet, compiled: its position among the sheet's qualified rules (1-based; the cascade's
    source order), its declarations (shared: read only) and its selectors."""

    position: int
    normal: Declarations
    important: Declarations
    hides: bool
    selectors: tuple[_CompiledSelector, ...]


#: Compiled style sheets by CSS text (pages of a site share their sheets): at most _SHEET_CACHE_SIZE, then emptied.
_SHEET_CACHE: dict[str, tuple[int, tuple[_SheetRule, ...]]] = {}
_SHEET_CACHE_SIZE: Final = 256


def _compiled_sheet(css: str) -> tuple[int, tuple[_SheetRule, ...]]:
    """``(number of qualified rules, the rules that declare something pyxform reads)`` of one style sheet, with
    ``@media`` (for a 1280 px screen) and ``@supports`` blocks flattened in source order."""
    cached = _SHEET_CACHE.get(css)
    if cached is not None:
        return cached
    rules: list[_SheetRule] = []
    position = 0
    for rule in _qualified_rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)):
        position += 1
        compiled = _compile_rule(rule, position)
        if compiled is not None:
            rules.append(compiled)
    result = (position, tuple(rules))
    if len(_SHEET_CACHE) >= _SHEET_CACHE_SIZE:
        _SHEET_CACHE.clear()
    _SHEET_CACHE[css] = result
    return result


def _qualified_rules(rules: list) -> Iterator:
    for rule in rules:
        if rule.type == "qualified-rule":
            yield rule
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") and rule.content:
            if rule.lower_at_keyword == "media" and not _media_applies(tinycss2.serialize(rule.prelude)):
                continue
            yield from _qualified_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                                 skip_whitespace=True))


def _compile_rule(rule: object, position: int) -> _SheetRule | None:
    normal, important = parse_declarations(tinycss2.serialize(rule.content))  # type: ignore[attr-defined]
    if not normal and not important:
        return None
    selector_text = tinycss2.serialize(rule.prelude).strip()  # type: ignore[attr-defined]
    if _STATEFUL_PSEUDO.search(selector_text):
        parts = [part for part in selector_text.split(",") if not _STATEFUL_PSEUDO.search(part)]
        selector_text = ",".join(parts)
        if not selector_text.strip():
            return None
    try:
        selectors = cssselect.parse(selector_text)
    except Exception:  # cssselect.SelectorError and friends: a selector it cannot read never matches
        return None
    hides = any(name in ("display", "visibility") for name in (*normal, *important))
    compiled = []
    for selector in selectors:
        if selector.pseudo_element:
            continue
        try:
            xpath = etree.XPath(_TRANSLATOR.selector_to_xpath(selector), namespaces=_NAMESPACES)
        except Exception:  # an unsupported pseudo-class (cssselect.ExpressionError) or an XPath it cannot build
            continue
        compiled.append(_CompiledSelector(xpath, selector.specificity(), _subject_key(selector.parsed_tree)))
    return _SheetRule(position, normal, important, hides, tuple(compiled))


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


def _length(value: str, font_size: float, root_font_size: float = DEFAULT_FONT_SIZE_PX) -> float | None:
    """A CSS length in px (``em`` against ``font_size``); ``None`` for percentages of widths and other values."""
    tokens = _tokens(value)
    if len(tokens) != 1:
        return None
    token = tokens[0]
    if token.type == "number" and token.value == 0:
        return 0.0
    if token.type != "dimension":
        return None
    unit = token.lower_unit
    if unit in _ABSOLUTE_UNITS:
        return token.value * _ABSOLUTE_UNITS[unit]
    if unit == "em":
        return token.value * font_size
    if unit == "rem":
        return token.value * root_font_size
    if unit in ("ex", "ch"):
        return token.value * font_size / 2
    if unit in ("vw", "vmin"):
        return token.value * VIEWPORT_WIDTH_PX / 100
    return None


def _font_size(value: str, parent: float) -> float | None:
    value = value.strip().lower()
    if value in _FONT_SIZE_KEYWORDS:
        return _FONT_SIZE_KEYWORDS[value]
    if value == "larger":
        return parent * 1.2
    if value == "smaller":
        return parent / 1.2
    tokens = _tokens(value)
    if len(tokens) == 1 and tokens[0].type == "percentage":
        return parent * tokens[0].value / 100
    size = _length(value, parent)
    return size if size is not None and size >= 0 else None


def _font_weight(value: str, parent: int) -> int | None:
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


def _first_family(value: str) -> str | None:
    first = value.split(",")[0].strip().strip("\"'").strip().lower()
    return first or None


class Cascade:
    """The style rules of one page, and the computed :class:`Style` of its elements on demand.

    :param root: the page's tree root (``{XHTML}html``).
    :param style_sheets: ``(css text, media)`` of the page's ``style`` elements in document order.
    :param quirks: the document is in quirks mode (tables then do not inherit font properties).
    """

    def __init__(self, root: etree._Element, style_sheets: Iterable[tuple[str, str]] = (), *,
                 quirks: bool = False) -> None:
        self.root = root
        self.quirks = quirks
        self._index: dict[tuple[str, str], list[_Rule]] = defaultdict(list)
        self._hiding_rules: list[_Rule] = []
        self._computed: dict[etree._Element, Style] = {}
        # Memos: elements with the same name, matched rules and style-bearing attributes have the same specified
        # values, and with the same parent style the same computed style (most cells and their content do).
        self._specified_memo: dict[tuple, dict[str, str]] = {}
        self._computed_memo: dict[tuple[int, int, bool], tuple[Style | None, Style]] = {}
        self._fast_memo: dict[tuple, tuple[Style | None, Style]] = {}
        self._match_sets: dict[_Rule, set[etree._Element]] = {}
        self.warnings: list[str] = []
        order = 0
        for css, media in style_sheets:
            if not _media_applies(media):
                continue
            rule_count, sheet_rules = _compiled_sheet(css)
            for sheet_rule in sheet_rules:
                for selector in sheet_rule.selectors:
                    compiled = _Rule(selector.xpath, selector.specificity, order + sheet_rule.position,
                                     sheet_rule.normal, sheet_rule.important)
                    self._index[selector.key].append(compiled)
                    if sheet_rule.hides:
                        self._hiding_rules.append(compiled)
            order += rule_count

    # --- matching ---------------------------------------------------------------------------------------------

    def _matching_rules(self, element: etree._Element) -> list[_Rule]:
        """The author rules that match ``element``, among those indexed under its name, id, classes and ``*``."""
        index = self._index
        if not index:
            return []
        get = index.get
        tag = element.tag
        groups = [group for group in (get(_ANY_KEY), get(("tag", tag[tag.rfind("}") + 1:]))) if group]
        element_id = element.get("id")
        if element_id:
            group = get(("id", element_id))
            if group:
                groups.append(group)
        classes = element.get("class")
        if classes:
            for name in classes.split():
                group = get(("class", name))
                if group:
                    groups.append(group)
        matched: list[_Rule] = []
        for group in groups:
            for rule in group:
                if element in self._matches(rule) and rule not in matched:
                    matched.append(rule)
        return matched

    def _matches(self, rule: _Rule) -> set[etree._Element]:
        """Every element ``rule`` matches, found with one XPath query over the page the first time it is asked."""
        found = self._match_sets.get(rule)
        if found is None:
            try:
                found = set(rule.xpath(self.root))
            except etree.XPathError:
                found = set()
            self._match_sets[rule] = found
        return found

    def _inline(self, element: etree._Element) -> tuple[Declarations, Declarations]:
        css = element.get("style")
        if not css:
            return {}, {}
        return _inline_declarations(css)

    def _hints(self, element: etree._Element, name: str) -> Declarations:
        """Presentational hints of HTML attributes (HTML 15.3), as declarations."""
        hints: Declarations = {}
        if element.get("hidden") is not None:
            hints["display"] = ("none", False)
        if name == "font":
            size = (element.get("size") or "").strip()
            match = re.match(r"([+-]?)(\d+)", size)
            if match:
                number = int(match.group(2))
                number = 3 + number if match.group(1) == "+" else 3 - number if match.group(1) == "-" else number
                hints["font-size"] = (_LEGACY_FONT_SIZES[min(max(number, 1), 7) - 1], False)
            if element.get("face"):
                hints["font-family"] = (element.get("face") or "", False)
            color = legacy_color(element.get("color") or "")
            if color:
                hints["color"] = (color, False)
        elif name == "body":
            color = legacy_color(element.get("text") or "")
            if color:
                hints["color"] = (color, False)
        if name in ("td", "th", "tr", "thead", "tbody", "tfoot", "table", "body"):
            background = legacy_color(element.get("bgcolor") or "")
            if background:
                hints["background-color"] = (background, False)
        if name in ("td", "th", "tr", "thead", "tbody", "tfoot", "caption", "div", "p", *_HEADINGS):
            align = (element.get("align") or "").strip().lower()
            if align in _ALIGN_VALUES:
                hints["text-align"] = (_ALIGN_VALUES[align], False)
        return hints

    def specified(self, element: etree._Element) -> dict[str, str]:
        """The cascaded (specified) value of each property pyxform reads, for ``element`` alone.

        The dict is shared by every element with the same name, matched rules and style-bearing attributes: read it,
        never change it.
        """
        tag = element.tag
        name = tag[_X_LENGTH:] if tag.startswith(_X) else ""
        rules = self._matching_rules(element)
        get = element.get
        key = (name, tuple(rules), get("style"), get("hidden"),
               (get("size"), get("face"), get("color"), get("text"), get("bgcolor"), get("align"))
               if name in _HINTED else None)
        values = self._specified_memo.get(key)
        if values is None:
            values = self._specified(element, name, rules)
            self._specified_memo[key] = values
        return values

    def _specified(self, element: etree._Element, name: str, rules: list[_Rule]) -> dict[str, str]:
        layers: list[tuple[tuple, Declarations]] = []
        if name in UA_RULES:
            layers.append(((_LEVEL_UA, (0, 0, 0), 0), {k: (v, False) for k, v in UA_RULES[name].items()}))
        if name == "table" and self.quirks:
            layers.append(((_LEVEL_UA, (0, 0, 1), 0), {k: (v, False) for k, v in _QUIRKS_TABLE.items()}))
        hints = self._hints(element, name)
        if hints:
            layers.append(((_LEVEL_HINT, (0, 0, 0), 0), hints))
        for rule in rules:
            layers.append(((_LEVEL_AUTHOR, rule.specificity, rule.order), rule.normal))
            if rule.important:
                layers.append(((_LEVEL_AUTHOR_IMPORTANT, rule.specificity, rule.order), rule.important))
        normal, important = self._inline(element)
        if normal:
            layers.append(((_LEVEL_INLINE, (0, 0, 0), 0), normal))
        if important:
            layers.append(((_LEVEL_INLINE_IMPORTANT, (0, 0, 0), 0), important))
        layers.sort(key=lambda layer: layer[0])
        values: dict[str, str] = {}
        for _rank, declarations in layers:
            for prop, (value, _important) in declarations.items():
                values[prop] = value
        return values

    # --- computed values --------------------------------------------------------------------------------------

    def style(self, element: etree._Element) -> Style:
        """The computed :class:`Style` of ``element`` (its ancestors are computed first and kept)."""
        computed = self._computed
        cached = computed.get(element)
        if cached is not None:
            return cached
        chain = [element]
        parent_style: Style | None = None
        node = element.getparent()
        while node is not None:
            parent_style = computed.get(node)
            if parent_style is not None:
                break
            chain.append(node)
            node = node.getparent()
        for current in reversed(chain):
            parent_style = self._compute(current, parent_style)
            computed[current] = parent_style
        assert parent_style is not None
        return parent_style

    def _compute(self, element: etree._Element, parent: Style | None) -> Style:
        tag = element.tag
        if not self._index:
            # No author rule on the page (most pages): the specified values depend on the name and the
            # style-bearing attributes alone, so the computed style is found without matching.
            get = element.get
            name = tag[_X_LENGTH:] if tag.startswith(_X) else ""
            fast_key = (id(parent), tag, get("style"), get("hidden"),
                        (get("size"), get("face"), get("color"), get("text"), get("bgcolor"), get("align"))
                        if name in _HINTED else None)
            memo = self._fast_memo.get(fast_key)
            if memo is not None and memo[0] is parent:
                return memo[1]
            style = self._compute_specified(element, tag, parent)
            self._fast_memo[fast_key] = (parent, style)  # parent kept alive, so its id is never reused
            return style
        return self._compute_specified(element, tag, parent)

    def _compute_specified(self, element: etree._Element, tag: str, parent: Style | None) -> Style:
        specified = self.specified(element)
        is_th = tag == _TH or tag == "th" or tag.endswith("}th")  # the local name, as the UA rule reads it
        key = (id(parent), id(specified), is_th)
        memo = self._computed_memo.get(key)
        if memo is not None and memo[0] is parent:
            return memo[1]
        style = self._compute_new(specified, is_th, parent)
        self._computed_memo[key] = (parent, style)  # parent kept alive, so its id is never reused
        return style

    def _compute_new(self, specified: dict[str, str], is_th: bool, parent: Style | None) -> Style:
        inherited = parent or Style()
        style = Style(
            font_size=inherited.font_size, weight=inherited.weight, italic=inherited.italic, face=inherited.face,
            color=inherited.color, align=inherited.align, text_indent=inherited.text_indent,
            visibility=inherited.visibility, specified=specified,
        )
        if parent is None:
            style = Style(specified=specified)
        if not specified:
            return style
        ordered = sorted(specified.items(), key=lambda item: item[0] != "font-size")  # em lengths need it first
        for prop, raw in ordered:
            value = raw.strip().lower()
            if value in ("inherit", "unset") and prop in _INHERITED or value == "inherit":
                if prop == "background-color":
                    style.background = parent.background if parent else None
                continue
            if value in ("initial", "unset"):
                self._initial(style, prop)
                continue
            self._apply(style, prop, raw, inherited, parent)
        if "text-align" not in specified and is_th and (
                parent is None or parent.align is None):
            style.align = "center"
        return style

    @staticmethod
    def _initial(style: Style, prop: str) -> None:
        defaults = Style()
        attribute = {"font-size": "font_size", "font-weight": "weight", "font-style": "italic",
                     "font-family": "face", "color": "color", "text-align": "align", "text-indent": "text_indent",
                     "padding-left": "padding_left", "margin-left": "margin_left", "background-color": "background",
                     "display": "display", "visibility": "visibility"}[prop]
        setattr(style, attribute, getattr(defaults, attribute))

    def _apply(self, style: Style, prop: str, raw: str, inherited: Style, parent: Style | None) -> None:
        value = raw.strip()
        lower = value.lower()
        if prop == "font-size":
            size = _font_size(lower, inherited.font_size)
            if size is not None:
                style.font_size = size
        elif prop == "font-weight":
            weight = _font_weight(lower, inherited.weight)
            if weight is not None:
                style.weight = weight
        elif prop == "font-style":
            if lower in ("italic", "oblique", "normal") or lower.startswith("oblique"):
                style.italic = lower != "normal"
        elif prop == "font-family":
            style.face = _first_family(value)
        elif prop == "color":
            color = css_color(value)
            if color is not None or lower == "transparent":
                style.color = color
            elif lower == "currentcolor":
                style.color = inherited.color
        elif prop == "background-color":
            style.background = css_color(value)
        elif prop == "text-align":
            if lower in _ALIGN_VALUES:
                style.align = _ALIGN_VALUES[lower]
        elif prop in ("text-indent", "padding-left", "margin-left"):
            length = _length(lower, style.font_size if prop != "text-indent" else style.font_size)
            if length is not None:
                setattr(style, prop.replace("-", "_"), length)
        elif prop == "display":
            style.display = lower.split()[0] if lower else "inline"
        elif prop == "visibility":
            if lower in ("visible", "hidden", "collapse"):
                style.visibility = lower

    # --- hidden elements --------------------------------------------------------------------------------------

    def hidden_elements(self, *, outermost: bool = True) -> list[etree._Element]:
        """The elements hidden by ``display: none``, ``visibility: hidden|collapse`` or ``hidden``: only the
        outermost ones, or (``outermost=False``) every element that its own style hides.

        An element made hidden by ``visibility`` is kept when one of its descendants sets ``visibility: visible``
        (CSS lets such a descendant show).
        """
        candidates: list[etree._Element] = _HIDDEN_ATTRIBUTE(self.root)
        candidates += [e for e in _MAY_HIDE_STYLE(self.root) if _may_hide(e.get("style") or "")
                       and any(p in ("display", "visibility") for d in self._inline(e) for p in d)]
        for rule in self._hiding_rules:
            candidates += self._matches(rule)
        hidden: list[etree._Element] = []
        for element in dict.fromkeys(candidates):
            values = self.specified(element)
            display = values.get("display", "").strip().lower()
            visibility = values.get("visibility", "").strip().lower()
            if display == "none":
                hidden.append(element)
            elif visibility in ("hidden", "collapse") and not self._shows_descendant(element):
                hidden.append(element)
        if not outermost:
            return hidden
        hidden_set = set(hidden)
        return [e for e in hidden if not any(a in hidden_set for a in e.iterancestors())]

    def _shows_descendant(self, element: etree._Element) -> bool:
        for descendant in element.iterdescendants():
            if isinstance(descendant.tag, str) and self.specified(descendant).get(
                    "visibility", "").strip().lower() == "visible":
                return True
        return False


def is_block(style: Style) -> bool:
    """Whether an element's computed ``display`` makes it a block container (for indentation)."""
    return style.display in _BLOCK_DISPLAYS
