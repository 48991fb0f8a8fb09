"""The page's style sheets, compiled once per CSS text: each rule's declarations (what pyxform reads of them) and its
selectors as XPath over the XHTML tree (cssselect), with their specificity (Selectors 4, 17) and the key of their
subject for the cascade's index (:class:`pyxform.stages.clean.style.Cascade`). A selector made only of type, id and
class selectors joined by descendant or child combinators also gets a test of one element in Python, which gives
what its XPath gives (the cascade asks about a few elements; the XPath is a query over the whole page). ``@media``
blocks that hold for a 1280 px screen and ``@supports`` blocks are flattened in source order; selectors with states
(``:hover`` ...) and pseudo-elements never match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

import cssselect
import tinycss2
from cssselect.parser import Class, CombinedSelector, Element, Hash
from lxml import etree

from .parse import XHTML_NS
from .values import Declarations, media_applies, parse_declarations

__all__ = ["CompiledSelector", "SheetRule", "compiled_sheet"]


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
# A selector whose match depends on an element's siblings or children (Selectors 4, 14 and 15.2: sibling combinators,
# child-indexed pseudo-classes, :empty): removing elements (noscript, hidden ones) can change it. Wider than needed
# ("~=" in an attribute selector), which only costs a query run early.
_STRUCTURAL: Final = re.compile(r"[+~]|:(?:first-|last-|only-|nth-|empty)", re.I)
_X: Final = "{" + XHTML_NS + "}"
# What cssselect's translation needs of a name and a class name to use them as they are (cssselect.xpath's
# is_safe_name and is_non_whitespace), and the white space of XPath's normalize-space, which splits @class there.
_SAFE_NAME: Final = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.-]*")
_CLASS_NAME: Final = re.compile(r"[^ \t\r\n\f]+")
_XPATH_SPACE: Final = re.compile("[ \t\r\n]+")


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


def _compound_test(node: object) -> Callable[[etree._Element], bool] | None:
    """A test of one element for a compound selector of a type or universal selector (no namespace) with id and class
    selectors, as cssselect's HTML translation reads them (a lower-cased XHTML name, ``@id = 'id'``, ``class`` holding
    the name between XPath white space); ``None`` for any other selector."""
    ids: list[str] = []
    classes: list[str] = []
    while not isinstance(node, Element):
        if isinstance(node, Hash):
            ids.append(node.id)
        elif isinstance(node, Class) and _CLASS_NAME.fullmatch(node.class_name):
            classes.append(node.class_name)
        else:
            return None
        node = node.selector
    if node.namespace is not None or node.element and not _SAFE_NAME.fullmatch(node.element):
        return None
    tag = _X + node.element.lower() if node.element else None

    def test(element: etree._Element) -> bool:
        if tag is not None and element.tag != tag:
            return False
        for name in ids:
            if element.get("id") != name:
                return False
        if classes:
            value = element.get("class")
            if value is None:
                return False
            tokens = _XPATH_SPACE.split(value)
            return all(name in tokens for name in classes)
        return True

    return test


def _element_test(tree: object) -> Callable[[etree._Element], bool] | None:
    """A test of one element that gives what the selector's XPath (from the root, ``descendant-or-self::``) gives,
    for compound selectors (:func:`_compound_test`) joined by descendant and child combinators; else ``None``.

    Right to left, as browsers match: a descendant combinator takes the nearest ancestor that matches its left
    compound when that compound's own context is again a descendant combinator (or none), since an ancestor nearer
    the element has every ancestor a farther one has; after a child combinator every such ancestor is tried."""
    parts: list[tuple[str, Callable[[etree._Element], bool]]] = []  # (combinator to the left, compound), right first
    node = tree
    while isinstance(node, CombinedSelector):
        compound = _compound_test(node.subselector)
        if node.combinator not in (" ", ">") or compound is None:
            return None
        parts.append((node.combinator, compound))
        node = node.selector
    compound = _compound_test(node)
    if compound is None:
        return None
    parts.append(("", compound))
    if len(parts) == 1:
        return compound

    def context(index: int, element: etree._Element, failed: set[tuple[int, etree._Element]]) -> bool:
        """Whether parts[index + 1:] match around ``element``, which matches parts[index]. ``failed`` holds the
        (index, element) pairs already answered false in this test: after a child combinator each ancestor is tried,
        and without it a selector with k such combinators costs depth ** k tests (XPath's node sets cost depth * k)."""
        combinator = parts[index][0]
        if not combinator:
            return True
        if (index, element) in failed:
            return False
        left_combinator, left = parts[index + 1]
        if combinator == ">":
            parent = element.getparent()
            found = parent is not None and left(parent) and context(index + 1, parent, failed)
        else:
            found = False
            for ancestor in element.iterancestors():
                if left(ancestor):
                    if left_combinator != ">":
                        found = context(index + 1, ancestor, failed)
                        break
                    if context(index + 1, ancestor, failed):
                        found = True
                        break
        if not found:
            failed.add((index, element))
        return found

    subject = parts[0][1]
    return lambda element: subject(element) and context(0, element, set())


@dataclass(frozen=True, eq=False)
class CompiledSelector:
    xpath: etree.XPath
    specificity: tuple[int, int, int]
    key: tuple[str, str]  # see _subject_key
    test: Callable[[etree._Element], bool] | None = None  # see _element_test
    structural: bool = False  # see _STRUCTURAL


@dataclass(frozen=True, eq=False)
class SheetRule:
    """A style rule of a sheet, compiled: its position among the sheet's qualified rules (1-based; the cascade's
    source order), its declarations (shared: read only) and its selectors."""

    position: int
    normal: Declarations
    important: Declarations
    hides: bool
    selectors: tuple[CompiledSelector, ...]


#: Compiled style sheets by CSS text (pages of a site share their sheets): at most _SHEET_CACHE_SIZE, then emptied.
_SHEET_CACHE: dict[str, tuple[int, tuple[SheetRule, ...]]] = {}
_SHEET_CACHE_SIZE: Final = 256


def compiled_sheet(css: str) -> tuple[int, tuple[SheetRule, ...]]:
    """``(number of qualified rules, the rules that declare something pyxform reads)`` of one style sheet, with
    ``@media`` (for a 1280 px screen) and ``@supports`` blocks flattened in source order."""
    cached = _SHEET_CACHE.get(css)
    if cached is not None:
        return cached
    rules: list[SheetRule] = []
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
            if rule.lower_at_keyword == "media" and not media_applies(tinycss2.serialize(rule.prelude)):
                continue
            yield from _qualified_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                                 skip_whitespace=True))


def _compile_rule(rule: object, position: int) -> SheetRule | None:
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
        compiled.append(CompiledSelector(xpath, selector.specificity(), _subject_key(selector.parsed_tree),
                                         _element_test(selector.parsed_tree),
                                         bool(_STRUCTURAL.search(selector.canonical()))))
    return SheetRule(position, normal, important, hides, tuple(compiled))
