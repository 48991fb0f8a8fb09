"""HTML5 parsing: decoded page text -> lxml tree whose HTML elements are in the XHTML namespace.

The tree is built by turbohtml, a C implementation of the WHATWG HTML tree construction algorithm (implied ``tbody``,
unclosed ``tr``/``td``, the adoption agency algorithm for misnested formatting elements, foster parenting), run with
scripting disabled, as the browser that made the corpus's ``browser-grids.jsonl`` parsed (its cell texts leave out
the markup inside ``noscript``, which a scripting-enabled parse would keep as text), so ``noscript`` content is
markup and the tables in it count in ``px:index``. ``bench/parsers.py``
measures it against Lexbor (selectolax), html5ever (markupever), html5lib and lxml's own HTML parser on HTML5
tree-construction cases and on the browser's table grids of the corpus.

The tree reaches lxml by the fast route: turbohtml serializes it as XML in C and libxml2 parses that in C, so no
Python code runs per node. What XML cannot hold is repaired in the turbohtml tree first, on the few nodes concerned
(found with one XPath query each): an attribute is kept only under the name :func:`_attribute_name` gives it, the
one rule both routes follow (``xmlns``/``xmlns:*`` attributes and other names with a colon are dropped except the
``xlink:``/``xml:`` names HTML puts in a namespace on SVG and MathML elements), a character of an element name
that XML names cannot hold (``fb:like``, ``b<table``) becomes ``_``. The elements of :data:`DROPPED_ELEMENTS`
are removed before serializing, comments and processing instructions
while libxml2 parses. If libxml2 still
refuses the text, the slow route (a walk over the turbohtml tree feeding an lxml ``TreeBuilder``) builds the same tree;
``tests/test_clean_parse.py`` checks that both routes give identical trees on the whole corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import turbohtml
from lxml import etree
from turbohtml import Html

from ...base.safexml import xml_parser

__all__ = ["XHTML_NS", "SVG_NS", "MATHML_NS", "Parsed", "parse_html", "parse_html_slow", "xml_characters",
           "DROPPED_ELEMENTS"]

XHTML_NS: Final = "http://www.w3.org/1999/xhtml"
SVG_NS: Final = "http://www.w3.org/2000/svg"
MATHML_NS: Final = "http://www.w3.org/1998/Math/MathML"
_XLINK_NS: Final = "http://www.w3.org/1999/xlink"
#: pyxform's namespace, declared (prefix ``px``) on the root for the annotations of the clean stage.
PX_NS: Final = "urn:pyxform"

#: Elements removed with their content while parsing: they hold no DOM tables (``script``/``style`` hold raw text,
#: a ``template``'s content is not part of the document). ``noscript`` is parsed as markup (scripting disabled, as
#: the corpus browser parsed it), so its tables are counted; the clean stage removes it after numbering the tables.
DROPPED_ELEMENTS: Final = ("script", "style", "template")

_XML_SERIALIZATION: Final = Html(xml=True)
_NOT_XML_CHAR: Final = re.compile("[\x00-\x08\x0b\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_XML_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")
# What turbohtml writes before the root element (UTF-8): doctype, comments, whitespace.
_PROLOG: Final = re.compile(rb"(?:<!DOCTYPE[^>]*>|<!--.*?-->|<\?.*?\?>|\s)*(?=<html\b)", re.S)
# turbohtml writes xmlns="" on an HTML element inside SVG/MathML; "<" only starts markup in its XML output.
_EMPTY_DEFAULT_NS: Final = re.compile(rb'(<[A-Za-z][^\s/>]*) xmlns=""')
# The root's start tag up to its attributes, with the namespaces (turbohtml writes "<html" without them).
_ROOT_START: Final = f'<html xmlns="{XHTML_NS}" xmlns:px="{PX_NS}"'.encode()
_XML_NAMESPACE: Final = "http://www.w3.org/XML/1998/namespace"
# The attributes that get a namespace on SVG and MathML elements ("adjust foreign attributes", HTML 13.2.6.5; xmlns
# and xmlns:xlink are left out: in XML they are namespace declarations). Elsewhere a name with a colon is a plain name
# XML cannot hold.
_FOREIGN_ATTRIBUTES: Final = {
    **{f"xlink:{local}": "{" + _XLINK_NS + "}" + local
       for local in ("actuate", "arcrole", "href", "role", "show", "title", "type")},
    "xml:lang": "{" + _XML_NAMESPACE + "}lang", "xml:space": "{" + _XML_NAMESPACE + "}space",
}
_NAME_CHARACTERS: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
# Attributes XML cannot hold as they are: xmlns and prefixed names, and names with other characters than ASCII
# letters, digits, "._-" or starting with a digit, "." or "-" (HTML allows "1a", "c\ufffdharset", "x\U00010000"; the
# JDK's XML parser that Saxon uses refuses some non-ASCII name characters that libxml2 accepts).
_PROBLEM_ATTRIBUTES: Final = (
    '//*[@*[starts-with(name(), "xmlns") or contains(name(), ":") '
    f'or translate(name(), "{_NAME_CHARACTERS}", "") != "" '
    'or contains("0123456789.-", substring(name(), 1, 1))]]')
# Element names that are not XML names without a colon (HTML allows "fb:like", "b<table", "x=y" ...).
_PROBLEM_ELEMENTS: Final = f'//*[translate(name(), "{_NAME_CHARACTERS}", "") != ""]'
_NOT_NAME_CHARACTER: Final = re.compile(r"[^A-Za-z0-9._-]")
# A start tag in the source whose name (HTML 13.2.5.8: from an ASCII letter up to white space, "/" or ">") holds a
# character that is not an ASCII XML name character. Every element name comes from such a start tag (the tokenizer
# starts a tag name only at an ASCII letter; the names the tree builder makes itself are ASCII), so this finds every
# element the repair renames: those the serializer leaves out ("a<b" from "<a<b>") and those it writes ("fb:like",
# "a\u00b7b"). (The name characters here are possessive: what follows them cannot be one, so giving some back could
# never match; it only cost time at every tag.)
_BAD_SOURCE_TAG: Final = re.compile(r"<[A-Za-z][A-Za-z0-9._-]*+[^A-Za-z0-9._\-\t\n\f\r />]")
# Attribute names as turbohtml's XML serialization writes them (UTF-8): ` NAME="` (a '"' in an attribute value is
# written "&quot;"); see _has_bad_source_tag. Attributes are searched in the reversed text (`"=EMAN `):
# there the search starts at each '"=' (found by a fast literal search), not at every space of the text; occurrences
# cannot overlap (each holds one space and one '="'), so it finds the names a forward search would.
_SERIALIZED_ATTRIBUTE_REVERSED: Final = re.compile(rb'"=([^ =<>"]+) ')
# Whether some name found by _SERIALIZED_ATTRIBUTE_REVERSED may be one _bad_attribute_names keeps, without collecting
# the names: after a '"=', the ASCII name characters (possessive: no backtracking), then a character that no such name
# holds, or the space before a name that starts with a digit, "." or "-", or with "xmlns" (reversed: "snlmx").
_MAYBE_BAD_ATTRIBUTE_REVERSED: Final = re.compile(rb'"=[A-Za-z0-9._-]*+(?:[^A-Za-z0-9._\- =<>"]| (?<=[0-9.\-] )'
                                                  rb'|(?<=snlmx) )')

# Public identifiers that put a document in quirks mode (HTML 13.2.6.4.1, the "initial" insertion mode; abridged to
# the prefixes real pages use), and the two that do so only without a system identifier.
_QUIRKS_PUBLIC_PREFIXES: Final = (
    "-//w3c//dtd html 3", "-//w3c//dtd html 4.0 transitional//", "-//w3c//dtd html 4.0 frameset//", "-//ietf//",
    "-//w3o//", "-//webtechs//", "-//netscape comm. corp.//", "-//microsoft//", "-//softquad", "-//spyglass//",
    "-//sun microsystems corp.//", "-//o'reilly and associates//", "-//as//", "-//advasoft ltd//", "-//metrius//",
    "-//w3c//dtd w3 html//", "-//w3c//dtd html experimental", "+//silmaril//", "-//sq//", "-//w3c//dtd html 2",
)
_QUIRKS_WITHOUT_SYSTEM_ID: Final = ("-//w3c//dtd html 4.01 frameset//", "-//w3c//dtd html 4.01 transitional//")


@dataclass(frozen=True)
class Parsed:
    """A parsed page.

    :ivar tree: the lxml tree (see :func:`parse_html`).
    :ivar style_sheets: ``(css text, media attribute or "")`` of each ``style`` element, in document order (read
        before the ``style`` elements are dropped).
    :ivar quirks: the document is in quirks mode (no or an old doctype), which changes some CSS defaults.
    :ivar hidden_attributes: whether an element of the tree may have a ``hidden`` attribute (``False`` only when the
        serialization the tree was parsed from holds no `` hidden="``: most pages; the cascade then looks for
        ``style`` attributes alone).
    """

    tree: etree._ElementTree
    style_sheets: tuple[tuple[str, str], ...] = ()
    quirks: bool = False
    hidden_attributes: bool = True


def _quirks(document: turbohtml.Document) -> bool:
    """Quirks mode as the "initial" insertion mode decides it from the doctype (HTML 13.2.6.4.1)."""
    doctype = next((node for node in document.children if isinstance(node, turbohtml.Doctype)), None)
    if doctype is None or (doctype.name or "").lower() != "html":
        return True
    public = (doctype.public_id or "").lower()
    system = doctype.system_id
    if public.startswith(_QUIRKS_PUBLIC_PREFIXES) or (system or "").lower() == (
        "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"
    ):
        return True
    return system is None and public.startswith(_QUIRKS_WITHOUT_SYSTEM_ID)


def _style_sheets(document: turbohtml.Document) -> tuple[tuple[str, str], ...]:
    sheets = []
    for element in document.select("style"):
        if str(element.namespace) == "Namespace.HTML":
            media = element.attrs.get("media") or ""
            sheets.append((element.text or "", media if isinstance(media, str) else " ".join(media)))
    return tuple(sheets)


def _attribute_name(name: str, foreign: bool) -> str | None:
    """The lxml (Clark) name of an attribute of the turbohtml tree, or None where XML cannot hold it and it is dropped.

    Both routes keep exactly these attributes, so they build the same tree: an ASCII name (``[A-Za-z_][A-Za-z0-9._-]*``
    but not ``xmlns``; Saxon's XML parser refuses some non-ASCII name characters libxml2 takes), or on an SVG/MathML element
    (``foreign``) one of the names HTML puts in the XLink or XML namespace (HTML 13.2.6.5). Every other name (``中``,
    ``1a``, ``xmlns``, ``a:b``, ``xml:lang`` on an HTML element, where it is a plain name with a colon) is dropped.
    """
    if _XML_NAME.match(name) and name != "xmlns":
        return name
    return _FOREIGN_ATTRIBUTES.get(name) if foreign else None


def _prepare(document: turbohtml.Document, drop: tuple[str, ...]) -> None:
    """Remove the ``drop`` elements and repair what XML cannot hold, on the few nodes concerned."""
    if drop:
        document.remove(", ".join(drop))
    _repair_names(document)


def _has_bad_source_tag(text: str) -> bool:
    """Whether a start tag of the source ``text`` has a name that is not an ASCII XML name (:data:`_BAD_SOURCE_TAG`),
    which :func:`_repair_names` renames: without one, no element of the tree has a name to change (each comes from
    such a start tag).

    A page needs the repair when this is true or some attribute name of turbohtml's XML serialization is not an ASCII
    XML name or is ``xmlns...`` (:func:`_bad_attribute_names`). Text can look like markup (`` a:b="`` in a paragraph,
    ``<a:b`` in a script), which only costs the repair; an attribute the serializer leaves out is one XML cannot
    hold, which the repair would drop too. So when neither holds, repairing would not change the tree, and the XPath
    queries of the repair (several times the cost of the parse) are skipped."""
    return _BAD_SOURCE_TAG.search(text) is not None


def _bad_attribute_names(markup: bytes) -> set[str]:
    """The attribute names (as `` NAME="`` in turbohtml's XML serialization ``markup``, UTF-8) that are not ASCII XML
    names or are ``xmlns...``: those :func:`_repair_names` may drop (and text that looks like them). The delimiters
    searched for are ASCII, so a name found is whole UTF-8 characters (bytes that are not would give a name no
    selector finds: :func:`_repair_names` then looks at every element).

    A name is read only where :data:`_MAYBE_BAD_ATTRIBUTE_REVERSED` matches (at its ``"=``): every such name starts
    a match there, and no other name is one (a page with one ``xml:lang`` need not collect its thousands of names)."""
    reversed_markup = markup[::-1]
    names = set()
    for maybe in _MAYBE_BAD_ATTRIBUTE_REVERSED.finditer(reversed_markup):  # most pages: none
        found = _SERIALIZED_ATTRIBUTE_REVERSED.match(reversed_markup, maybe.start())
        if found is not None:
            names.add(found.group(1))
    decoded = (reversed_name[::-1].decode("utf-8", "surrogateescape") for reversed_name in names)
    return {name for name in decoded if not _XML_NAME.match(name) or name.startswith("xmlns")}


def _css_attribute_selector(name: str) -> str:
    """A CSS selector of the elements with an attribute named ``name`` (every character escaped as ``\\HEX ``)."""
    return "[" + "".join(f"\\{ord(character):x} " for character in name) + "]"


def _repair_names(document: turbohtml.Document, attribute_names: set[str] | None = None, *,
                  renames: bool = True) -> None:
    """Drop the attributes and rename the elements whose names XML cannot hold (:func:`_attribute_name`).

    :param attribute_names: the attribute names that need it as far as the serialization shows
        (:func:`_bad_attribute_names`): only the elements with one of them are looked at (found by CSS selectors, in
        microseconds, where the XPath query over every attribute takes milliseconds). The elements left alone then
        only hold such names that the serializer leaves out, so the serialization is that of the full repair.
        ``None``: every element (the XPath query), as the route that builds the tree without serializing needs, and
        as a page with an element to rename needs (the serialization leaves such an element out with its subtree, so
        their attribute names are not in ``attribute_names``: ``<a<b xlink:href=...>``).
    :param renames: whether an element may have a name to change; ``False`` when no start tag of the source has one
        (:func:`_has_bad_source_tag`): the query over every element's name is skipped.
    """
    elements: list = []
    renamed = document.xpath(_PROBLEM_ELEMENTS) if renames else []
    if renamed:  # the serialization leaves out an element XML cannot name, with its subtree: its attributes are unseen
        attribute_names = None
    if attribute_names is not None:
        try:
            for name in attribute_names:
                found = document.select(_css_attribute_selector(name))
                if not found:  # a name no selector finds (one holding U+FFFD) or text that looks like one
                    raise LookupError(name)
                elements += found
        except Exception:  # a selector turbohtml cannot read or that finds nothing: the query over every attribute
            attribute_names = None
    if attribute_names is None:
        elements = document.xpath(_PROBLEM_ATTRIBUTES)
    for element in elements:
        foreign = str(element.namespace) != "Namespace.HTML"
        attributes = element.attrs
        for name in list(attributes):
            if _attribute_name(name, foreign) is None:
                del attributes[name]
    for element in renamed:
        element.tag = _NOT_NAME_CHARACTER.sub("_", element.tag)


def parse_html(text: str, *, drop: tuple[str, ...] = DROPPED_ELEMENTS, xml_safe: bool = False) -> Parsed:
    """Parse ``text`` as an HTML5 document (scripting disabled) into an lxml tree rooted at ``{XHTML}html``.

    HTML elements are in the XHTML namespace, SVG and MathML elements in theirs. Comments, processing instructions,
    the doctype and the ``drop`` elements (with their content) are not in the tree. Characters XML 1.0 does not allow
    become U+FFFD, except form feed, HTML white space that browsers show as a space, which becomes a space;
    attributes whose names XML cannot hold are dropped. Never raises on bad markup (HTML5 tree
    construction has no fatal errors).

    :param text: the decoded page.
    :param drop: names of elements removed with their content (default :data:`DROPPED_ELEMENTS`).
    :param xml_safe: ``text`` is known to hold no character XML cannot hold but form feed
        (:attr:`.decode.Decoded.xml_safe`): it is not searched for them again.
    :returns: the tree (its root is always ``{http://www.w3.org/1999/xhtml}html``), the page's ``style`` sheets and
        whether the document is in quirks mode.
    """
    text = xml_characters(text, xml_safe)
    document = turbohtml.parse(text, scripting=False, positions=False)
    sheets, quirks = _style_sheets(document), _quirks(document)
    if drop:
        document.remove(", ".join(drop))
    # UTF-8 from turbohtml's serializer, as libxml2 reads it (no str made and encoded again)
    markup = document.encode("utf-8", _XML_SERIALIZATION)
    bad_attributes = _bad_attribute_names(markup)
    renames = _has_bad_source_tag(text)
    repaired = bool(bad_attributes) or renames
    if repaired:
        _repair_names(document, bad_attributes, renames=renames)
        markup = document.encode("utf-8", _XML_SERIALIZATION)
    prolog = _PROLOG.match(markup)
    if prolog is None:
        return Parsed(_build_repaired(document, repaired), sheets, quirks)
    markup = _ROOT_START + markup[prolog.end() + 5:]
    if b' xmlns=""' in markup:
        markup = _EMPTY_DEFAULT_NS.sub(rb'\1 xmlns="' + XHTML_NS.encode() + b'"', markup)
    try:
        root = etree.fromstring(markup, xml_parser(remove_comments=True, remove_pis=True, collect_ids=False))
    except etree.XMLSyntaxError:
        return Parsed(_build_repaired(document, repaired), sheets, quirks)
    return Parsed(etree.ElementTree(root), sheets, quirks, b' hidden="' in markup)


def _build_repaired(document: turbohtml.Document, repaired: bool) -> etree._ElementTree:
    """:func:`_build` after a repair by attribute names (if ``repaired``) is completed over every element: the tree is
    built from the nodes, not from the serialization, so it is the tree of the full repair."""
    if repaired:
        _repair_names(document)
    return _build(document)


def xml_characters(text: str, xml_safe: bool = False) -> str:
    """``text`` with the characters XML 1.0 cannot hold replaced: form feed (U+000C, white space in HTML, shown as a
    space) by a space, the others (C0 controls but tab, line feed and carriage return; lone surrogates; U+FFFE,
    U+FFFF) by U+FFFD. ``xml_safe``: the text is known to hold none of the others."""
    if "\x0c" in text:
        text = text.replace("\x0c", " ")
    return text if xml_safe or not _has_non_xml_characters(text) else _NOT_XML_CHAR.sub("\ufffd", text)


_NOT_XML_BYTES: Final = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20)])


def _has_non_xml_characters(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`_NOT_XML_CHAR`, C0 controls found on its UTF-8 bytes (faster than
    the regular expression over the text): a lone surrogate cannot be encoded, a C0 control is its own byte; U+FFFE
    and U+FFFF found in the text (faster than their three bytes in the encoding)."""
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return len(encoded.translate(None, _NOT_XML_BYTES)) != len(encoded) or "\ufffe" in text or "\uffff" in text


def parse_html_slow(text: str, *, drop: tuple[str, ...] = DROPPED_ELEMENTS) -> Parsed:
    """The same tree as :func:`parse_html`, built by walking the turbohtml tree in Python (the fallback route)."""
    text = xml_characters(text)
    document = turbohtml.parse(text, scripting=False, positions=False)
    sheets, quirks = _style_sheets(document), _quirks(document)
    _prepare(document, drop)
    return Parsed(_build(document), sheets, quirks)


_NAMESPACES: Final = {"Namespace.HTML": XHTML_NS, "Namespace.SVG": SVG_NS, "Namespace.MATHML": MATHML_NS}


def _build(document: turbohtml.Document) -> etree._ElementTree:
    """Copy the turbohtml tree into lxml with a ``TreeBuilder`` (one Python step per node, no recursion)."""
    builder = etree.TreeBuilder()
    element_type, text_type = turbohtml.Element, turbohtml.Text
    stack: list[tuple[object, str | None, str]] = [(document.root, None, "")]
    while stack:
        node, closing, parent_namespace = stack.pop()
        if closing is not None:
            builder.end(closing)
        elif isinstance(node, text_type):
            builder.data(node.data)
        elif isinstance(node, element_type):
            namespace = _NAMESPACES.get(str(node.namespace), XHTML_NS)
            tag = "{" + namespace + "}" + node.tag
            attributes = {}
            foreign = namespace != XHTML_NS
            for name in node.attrs:
                clark_name = _attribute_name(name, foreign)
                if clark_name is not None:
                    attributes[clark_name] = node.attr(name) or ""
            nsmap = None
            if namespace != parent_namespace:
                nsmap = {None: namespace, "xlink": _XLINK_NS} if namespace == SVG_NS else {None: namespace}
                if not parent_namespace:
                    nsmap["px"] = PX_NS
            builder.start(tag, attributes, nsmap)
            stack.append((node, tag, namespace))
            stack.extend((child, None, namespace) for child in reversed(list(node.children)))
    return etree.ElementTree(builder.close())
