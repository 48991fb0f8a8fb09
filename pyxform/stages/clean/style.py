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
(id, class, element name), as browsers do. CSS values are read by :mod:`pyxform.stages.clean.values`, style
sheets compiled by :mod:`pyxform.stages.clean.sheets`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, TypeVar

from lxml import etree

from .parse import XHTML_NS
from .sheets import compiled_sheet
from .values import (DEFAULT_FONT_SIZE_PX, UA_RULES, Declarations, Style, apply_property, css_color, font_size_px,
                     inline_declarations, may_hide, media_applies, presentational_hints)

__all__ = ["Style", "Cascade", "UA_RULES", "STYLED_TAGS", "STYLE_ATTRIBUTES"]

_X: Final = "{" + XHTML_NS + "}"

_INHERITED: Final = frozenset({
    "font-size", "font-weight", "font-style", "font-family", "color", "text-align", "text-indent", "visibility",
})
_HEADINGS: Final = ("h1", "h2", "h3", "h4", "h5", "h6")
_X_LENGTH: Final = len(_X)
_TH: Final = _X + "th"
_ANY_KEY: Final = ("*", "")
# Elements whose attributes give presentational hints (see values.presentational_hints).
_HINTED: Final = frozenset({"font", "body", "td", "th", "tr", "thead", "tbody", "tfoot", "table", "caption", "div",
                            "p", *_HEADINGS})
#: The attributes the specified values of an element read on a page without author rules (see Cascade.child_style).
STYLE_ATTRIBUTES: Final = frozenset({"style", "hidden", "size", "face", "color", "text", "bgcolor", "align"})

#: The XHTML elements (Clark names) that the user-agent rules or presentational hints give declarations. Without author
#: rules, any other element with neither a ``style`` nor a ``hidden`` attribute has no specified value: it inherits
#: its parent's font, colour and text properties and is displayed inline.
STYLED_TAGS: Final = frozenset(_X + name for name in (*UA_RULES, *_HINTED))
# In quirks mode, tables do not inherit font properties or alignment (HTML 15.3.7 "Tables", quirks rules).
_QUIRKS_TABLE: Final = {"font-size": "initial", "font-weight": "initial", "font-style": "initial",
                        "text-align": "initial"}

# (level, specificity, order): UA 0, presentational hints 1, author rules 2, style attribute 3;
# !important: UA 6, author 5, style attribute 5 with a higher specificity-free rank (CSS Cascade 4, 6.2).
_LEVEL_UA, _LEVEL_HINT, _LEVEL_AUTHOR, _LEVEL_INLINE = 0, 1, 2, 3
_LEVEL_AUTHOR_IMPORTANT, _LEVEL_INLINE_IMPORTANT = 4, 5

# The hidden and style attributes of the elements below the root, in document order (one query: the elements with a
# hidden attribute and those whose style attribute may hide them are told apart in Python); the style attributes
# alone, for a page known to have no hidden attribute (one scan of the page, where the union makes two: some 30%
# less on the corpus pages).
_HIDDEN_OR_STYLE: Final = etree.XPath("descendant::*/@hidden | descendant::*/@style")
_STYLE: Final = etree.XPath("descendant::*/@style")
# Every id and class attribute value of the page (for the subjects a selector may have on it).
_IDS: Final = etree.XPath("descendant-or-self::*/@id", smart_strings=False)
_CLASSED: Final = etree.XPath("descendant-or-self::*[@class]")
# XPath's white space (normalize-space), which separates the class names cssselect's queries compare.
_XPATH_SPACE: Final = re.compile("[ \t\r\n]+")


# Specified values that no author rule takes part in, and computed styles, are the same on every page: they are kept
# across pages (the pages of a site share their markup and styles), at most _SHARED_SIZE of each, then emptied. Both
# are shared: read only, as the per-page memos of Cascade.
_SHARED_SPECIFIED: dict[tuple, dict[str, str]] = {}
_SHARED_COMPUTED: dict[tuple, "Style"] = {}
_SHARED_SIZE: Final = 20_000
_T = TypeVar("_T")


def _share(memo: dict, key: object, value: _T) -> _T:
    """Store ``value`` under ``key`` in the cross-page ``memo`` (emptied first when it holds _SHARED_SIZE entries)."""
    if len(memo) >= _SHARED_SIZE:
        memo.clear()
    memo[key] = value
    return value


# The memo of Cascade.child_style for pages without author rules, one per mode (quirks or not): an element's computed
# style by (its parent's style object, name, style-bearing attributes). Parent styles are shared across pages too
# (_SHARED_COMPUTED), so a page finds the styles of the elements an earlier page had.
_SHARED_FAST: Final[dict[bool, dict[tuple, tuple["Style | None", "Style"]]]] = {False: {}, True: {}}
# A rule with a test of one element (sheets.py) is tested on at most this many elements of a page; the next one runs
# its query over the page instead, whose matches then answer for every element (a query costs about as much as a few
# tests that walk the ancestors; measured on the corpus pages with author rules: 8 is fewest instructions).
_TESTS_BEFORE_QUERY: Final = 8
# A hiding rule whose subject has a class, or only an element name, is matched by testing the page's elements with
# that class or name when there are at most this many (measured for names on the same pages: 64 is fewest
# instructions of 4, 16, 64 and 256); else by its query (each test walks ancestors: 20,000 nested elements cost 1.3 s).
_TESTED_BY_NAME: Final = 64


@dataclass(eq=False)
class _Rule:
    xpath: etree.XPath  # descendant-or-self:: from the root: every element the selector matches
    specificity: tuple[int, int, int]
    order: int
    normal: Declarations
    important: Declarations
    key: tuple[str, str] = ("*", "")  # the selector's subject: what an element needs to match it (see sheets.py)
    test: Callable[[etree._Element], bool] | None = None  # whether one element matches, without the XPath (sheets.py)


class Cascade:
    """The style rules of one page, and the computed :class:`Style` of its elements on demand.

    :param root: the page's tree root (``{XHTML}html``).
    :param style_sheets: ``(css text, media)`` of the page's ``style`` elements in document order.
    :param quirks: the document is in quirks mode (tables then do not inherit font properties).
    :param hidden_attributes: whether an element may have a ``hidden`` attribute
        (:attr:`.parse.Parsed.hidden_attributes`); without, only ``style`` attributes are looked for.
    """

    def __init__(self, root: etree._Element, style_sheets: Iterable[tuple[str, str]] = (), *,
                 quirks: bool = False, hidden_attributes: bool = True) -> None:
        self.root = root
        self.quirks = quirks
        self._own_style_query = _HIDDEN_OR_STYLE if hidden_attributes else _STYLE
        self._index: dict[tuple[str, str], list[_Rule]] = defaultdict(list)
        self._hiding_rules: list[_Rule] = []
        self._hiding_set: set[_Rule] = set()  # the same, for _matching_rules
        self._structural_rules: list[_Rule] = []
        self._computed: dict[etree._Element, Style] = {}
        # Memos: elements with the same name, matched rules and style-bearing attributes have the same specified
        # values, and with the same parent style the same computed style (most cells and their content do).
        self._specified_memo: dict[tuple, dict[str, str]] = {}
        self._computed_memo: dict[tuple[int, int, bool], tuple[Style | None, Style]] = {}
        self._fast_memo = _SHARED_FAST[bool(quirks)]
        self._match_sets: dict[_Rule, set[etree._Element]] = {}
        self._tests: dict[_Rule, int] = {}  # elements tested with a rule's test (see _matching_rules)
        self._ids: set[str] | None = None
        self._classes: dict[str, list[etree._Element]] | None = None  # class name -> the elements with it
        self._own_style: set[etree._Element] | None = None  # see own_style_elements
        self.warnings: list[str] = []
        order = 0
        for css, media in style_sheets:
            if not media_applies(media):
                continue
            rule_count, sheet_rules = compiled_sheet(css)
            for sheet_rule in sheet_rules:
                for selector in sheet_rule.selectors:
                    compiled = _Rule(selector.xpath, selector.specificity, order + sheet_rule.position,
                                     sheet_rule.normal, sheet_rule.important, selector.key, selector.test)
                    self._index[selector.key].append(compiled)
                    if sheet_rule.hides:
                        self._hiding_rules.append(compiled)
                        self._hiding_set.add(compiled)
                    elif selector.structural:  # matched before elements go (match_before_removal)
                        self._structural_rules.append(compiled)
            order += rule_count

    @property
    def author_rules(self) -> bool:
        """Whether the page's style sheets have a rule that declares something pyxform reads."""
        return bool(self._index)

    # --- matching ---------------------------------------------------------------------------------------------

    def _matching_rules(self, element: etree._Element, hiding_only: bool = False) -> list[_Rule]:
        """The author rules that match ``element``, among those indexed under its name, id, classes and ``*``: from
        the rule's matches on the page when its query has run, else from its test of one element when it has one (a
        query over the page costs more than the test of the few elements the cascade asks about), else from its
        query. With ``hiding_only``, only the rules that declare ``display`` or ``visibility`` (all hidden_elements
        reads; the others' queries run all the same, before hidden elements go: a ``+`` or ``:first-child`` may match
        otherwise after. A rule with a test needs no such care: it reads names, ids, classes and ancestors, which
        stay)."""
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
        match_sets, tests = self._match_sets, self._tests
        hiding = self._hiding_set if hiding_only else None
        for group in groups:
            for rule in group:
                if hiding is not None and rule not in hiding:
                    if rule.test is None:
                        self._matches(rule)
                    continue
                found = match_sets.get(rule)
                if found is not None:
                    hit = element in found
                elif rule.test is not None and tests.get(rule, 0) < _TESTS_BEFORE_QUERY:
                    tests[rule] = tests.get(rule, 0) + 1
                    hit = rule.test(element)
                else:
                    hit = element in self._matches(rule)
                if hit and rule not in matched:
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

    def match_before_removal(self) -> None:
        """Run the queries of the rules whose match can change when elements are removed (sheets._STRUCTURAL), while
        the page is whole: their matches are kept for the page, as a browser matches the whole DOM."""
        for rule in self._structural_rules:
            if self._subject_on_page(rule.key):
                self._matches(rule)

    def _subject_on_page(self, key: tuple[str, str]) -> bool:
        """False when no element of the page can be the subject of a selector with index key ``key``: no element
        has that id, class name (between XPath white space, as cssselect's query compares it) or local name. Such a
        rule matches nothing, and its query over the page (the costly part of matching) is not run."""
        kind, name = key
        if kind == "id":
            if self._ids is None:
                self._ids = set(_IDS(self.root))
            return name in self._ids
        if kind == "class":
            if _XPATH_SPACE.search(name):
                return True
            return name in self._class_index()
        if kind == "tag":
            try:
                return next(self.root.iter("{*}" + name), None) is not None
            except ValueError:  # a name lxml cannot look for: the query decides
                return True
        return True

    def _class_index(self) -> dict[str, list[etree._Element]]:
        """The elements of the page by each class name in their ``class`` (between XPath white space, as cssselect's
        queries compare it), in document order."""
        if self._classes is None:
            self._classes = {}
            for element in _CLASSED(self.root):
                for name in dict.fromkeys(_XPATH_SPACE.split(element.get("class"))):
                    self._classes.setdefault(name, []).append(element)
        return self._classes

    def _hiding_matches(self, rule: _Rule) -> set[etree._Element]:
        """The elements a hiding rule matches: for a rule with a test of one element whose subject has a class or only
        a name that at most _TESTED_BY_NAME elements of the page have, those of the elements with that class or name
        that pass the test (usually few, against a query over the page); else its query's."""
        if rule.test is None or rule.key[0] not in ("class", "tag") or rule in self._match_sets:
            return self._matches(rule)
        if rule.key[0] == "tag":
            elements = list(self.root.iter(_X + rule.key[1]))
        else:
            elements = self._class_index().get(rule.key[1], [])
        if len(elements) > _TESTED_BY_NAME:  # a test walks ancestors: many tests cost more than the query (review)
            return self._matches(rule)
        found = {element for element in elements if rule.test(element)}
        self._match_sets[rule] = found
        return found

    def _inline(self, element: etree._Element) -> tuple[Declarations, Declarations]:
        css = element.get("style")
        return inline_declarations(css) if css else ({}, {})

    def specified(self, element: etree._Element) -> dict[str, str]:
        """The cascaded (specified) value of each property pyxform reads, for ``element`` alone.

        The dict is shared by every element with the same name, matched rules and style-bearing attributes: read it,
        never change it.
        """
        return self._specified_with(element, self._matching_rules(element))

    def _specified_with(self, element: etree._Element, rules: list[_Rule]) -> dict[str, str]:
        """The specified values of ``element`` as if ``rules`` were the author rules matching it (memoized by them)."""
        tag = element.tag
        name = tag[_X_LENGTH:] if tag.startswith(_X) else ""
        get = element.get
        key = (name, tuple(rules), get("style"), get("hidden"),
               (get("size"), get("face"), get("color"), get("text"), get("bgcolor"), get("align"))
               if name in _HINTED else None)
        values = self._specified_memo.get(key)
        if values is None:
            if rules:
                values = self._specified(element, name, rules)
            else:  # the same on every page in the same mode
                shared_key = (self.quirks, key)
                values = _SHARED_SPECIFIED.get(shared_key)
                if values is None:
                    values = _share(_SHARED_SPECIFIED, shared_key, self._specified(element, name, rules))
            self._specified_memo[key] = values
        return values

    def _specified(self, element: etree._Element, name: str, rules: list[_Rule]) -> dict[str, str]:
        layers: list[tuple[tuple, Declarations]] = []
        if name in UA_RULES:
            layers.append(((_LEVEL_UA, (0, 0, 0), 0), {k: (v, False) for k, v in UA_RULES[name].items()}))
        if name == "table" and self.quirks:
            layers.append(((_LEVEL_UA, (0, 0, 1), 0), {k: (v, False) for k, v in _QUIRKS_TABLE.items()}))
        hints = presentational_hints(element.get, name)
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
            parent_style = self.child_style(current, parent_style)
            computed[current] = parent_style
        assert parent_style is not None
        return parent_style

    def child_style(self, element: etree._Element, parent: Style | None) -> Style:
        """The computed :class:`Style` of ``element`` whose parent's style is ``parent``, without keeping it (for an
        element whose descendants' styles are never asked for). One call per element of a cell's content: the memo
        look-up of pages without author rules is done here, not in a further call."""
        computed = self._computed
        if computed:
            cached = computed.get(element)
            if cached is not None:
                return cached
        tag = element.tag
        if self._index:
            return self._compute_specified(element, tag, parent)
        # No author rule on the page (most pages): the specified values depend on the name and the style-bearing
        # attributes alone, so the computed style is found without matching.
        if STYLE_ATTRIBUTES.isdisjoint(element.keys()):
            # most elements (a cell's row, a cell, its inline markup): no attribute to read (one call for the names,
            # against a look-up of each value: cells often have a class or colspan, and none of these)
            fast_key: tuple = (id(parent), tag)
        else:  # those it has (names and values, in its order: finer than needed where the name takes no hints), from
            # one call for its attributes, against eight look-ups of a value
            fast_key = (id(parent), tag, *[item for item in element.items() if item[0] in STYLE_ATTRIBUTES])
        memo = self._fast_memo.get(fast_key)
        if memo is not None and memo[0] is parent:
            return memo[1]
        style = self._compute_specified(element, tag, parent)
        _share(self._fast_memo, fast_key, (parent, style))  # parent kept alive, so its id is never reused
        return style

    def _compute_specified(self, element: etree._Element, tag: str, parent: Style | None) -> Style:
        specified = self.specified(element)
        is_th = tag == _TH or tag == "th" or tag.endswith("}th")  # the local name, as the UA rule reads it
        key = (id(parent), id(specified), is_th)
        memo = self._computed_memo.get(key)
        if memo is not None and memo[0] is parent:
            return memo[1]
        # _compute_new reads these of the parent, and nothing of the page
        shared_key = (None if parent is None else (
            parent.font_size, parent.weight, parent.italic, parent.face, parent.color, parent.align,
            parent.text_indent, parent.visibility, parent.background), tuple(specified.items()), is_th)
        style = _SHARED_COMPUTED.get(shared_key)
        if style is None:
            style = _share(_SHARED_COMPUTED, shared_key, self._compute_new(specified, is_th, parent))
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
            apply_property(style, prop, raw, inherited)
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

    def own_style_elements(self) -> set[etree._Element]:
        """The elements below the root with a ``style`` or ``hidden`` attribute, found by one query over the page
        (:meth:`hidden_elements` keeps the result of its own). The set holds their proxies, so the walks over cells
        meet the same objects: ``element in`` it costs a hash, against two attribute look-ups in lxml."""
        if self._own_style is None:
            self._own_style = {value.getparent() for value in self._own_style_query(self.root)}
        return self._own_style

    # --- hidden elements --------------------------------------------------------------------------------------

    def hidden_elements(self, *, outermost: bool = True) -> list[etree._Element]:
        """The elements hidden by ``display: none``, ``visibility: hidden|collapse`` or ``hidden``: only the
        outermost ones, or (``outermost=False``) every element that its own style hides.

        An element made hidden by ``visibility`` is kept when one of its descendants sets ``visibility: visible``
        (CSS lets such a descendant show).
        """
        candidates: list[etree._Element] = []
        own_style: set[etree._Element] = set()
        for value in self._own_style_query(self.root):  # in document order: the warnings about kept html/head/body too
            element = value.getparent()
            own_style.add(element)
            if value.attrname == "hidden" or (may_hide(value) and any(
                    p in ("display", "visibility") for d in self._inline(element) for p in d)):
                candidates.append(element)
        self._own_style = own_style
        matched = [e for r in self._hiding_rules if self._subject_on_page(r.key) for e in self._hiding_matches(r)]
        if matched:  # rule matches are sets
            at = {e: i for i, e in enumerate(self.root.iter())}
            candidates = sorted({*candidates, *matched}, key=at.__getitem__)
        hidden: list[etree._Element] = []
        for element in dict.fromkeys(candidates):
            # display and visibility: the rules that declare neither change neither, and are not matched
            values = self._specified_with(element, self._matching_rules(element, hiding_only=True))
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
            if isinstance(descendant.tag, str) and self._specified_with(descendant, self._matching_rules(
                    descendant, hiding_only=True)).get("visibility", "").strip().lower() == "visible":
                return True
        return False
