"""A page's text and links, and the words of any text (lower case, stop words out, Snowball-stemmed).

HTML is parsed with lxml's HTML parser (no network, no entities loaded); the text is decoded by w3lib's
``html_to_unicode`` (the HTTP ``Content-Type`` charset first, then a BOM, a ``meta`` charset, then detection).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urljoin

import Stemmer
from lxml import etree, html
from w3lib.encoding import html_to_unicode

from .fetcher import ROBOTS_TOKEN

__all__ = ["Link", "ParsedPage", "parse_page", "words", "terms", "charset_of", "nofollow", "CONTEXT_WORDS"]

#: Words of text on each side of a link's anchor that make its context (Pant & Srinivasan, "Link contexts in
#: classifier-guided topical crawlers", 2006, found 5 to 20 best).
CONTEXT_WORDS: Final = 10
#: The most places of an anchor's rarest word where the anchor is looked for in its block.
_MAX_TRIES: Final = 32
_WORD: Final = re.compile(r"[^\W_]+", re.UNICODE)
_HAS_LETTER: Final = re.compile(r"[^\W\d_]", re.UNICODE)
#: The blocks whose text is a link's context (the nearest one that holds the link).
_BLOCKS: Final = frozenset({"p", "li", "td", "th", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "caption",
                            "blockquote", "figcaption", "div", "section", "article", "nav", "header", "footer",
                            "body", "tr", "table", "ul", "ol", "dl", "form"})
_SKIP: Final = frozenset({"script", "style", "noscript", "template", "svg", "math"})
#: A ``meta http-equiv=refresh`` content: a time, then (after ``;`` or ``,``, an optional ``url=``) the URL, quoted
#: or not (HTML, "shared declarative refresh steps").
_REFRESH: Final = re.compile(r"""^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(["']?)(.*?)\1?\s*$""", re.IGNORECASE | re.DOTALL)
#: The robots meta tags that speak to pyxform, and the directives that say: do not follow this page's links.
_META_NAMES: Final = frozenset({"robots", ROBOTS_TOKEN})
_NOFOLLOW: Final = frozenset({"nofollow", "none"})
#: Directives of X-Robots-Tag that take a value after a colon (so "NAME:" is no crawler's name).
_SCOPED_DIRECTIVES: Final = frozenset({"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"})
# Snowball's English stop words (the list the Snowball project ships with its English stemmer), minus negations.
_STOP: Final = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves also www http https html htm php asp aspx index com org net""".split())
_stemmer = Stemmer.Stemmer("english")


def words(text: str) -> list[str]:
    """The words of ``text``: runs of letters and digits, lower-cased (``casefold``)."""
    return _WORD.findall(text.casefold())


def terms(text: str | list[str]) -> list[str]:
    """The index terms of a text (or of its :func:`words`): stop words and words without a letter or of one
    character out, the rest stemmed with the Snowball English stemmer (PyStemmer), in order, repeats kept."""
    tokens = words(text) if isinstance(text, str) else [w.casefold() for w in text]
    kept = [w for w in tokens if len(w) > 1 and w not in _STOP and _HAS_LETTER.search(w)]
    return _stemmer.stemWords(kept)


@dataclass(frozen=True)
class Link:
    """A link of a page.

    :ivar url: the absolute URL (resolved against the page's base), not yet canonical.
    :ivar anchor: the anchor text (with an image's ``alt`` and the link's ``title``), white space collapsed.
    :ivar context: up to :data:`CONTEXT_WORDS` words on each side of the anchor in the nearest enclosing block.
    """

    url: str
    anchor: str
    context: str


@dataclass(frozen=True)
class ParsedPage:
    """What the crawler reads from an HTML page.

    :ivar title: the ``title`` element's text and the first ``h1``'s, joined.
    :ivar text: the visible text of the body (scripts, styles and templates left out), white space collapsed.
    :ivar links: every ``a`` / ``area`` link with an http(s) URL, in document order.
    :ivar follow: false when the page's ``meta name=robots`` (or ``name=pyxform``) says ``nofollow`` or ``none``.
    :ivar encoding: the encoding the text was decoded with.
    :ivar refresh: the URL a ``meta http-equiv=refresh`` sends the browser on to (a link with no anchor or context;
        a page that only does that is a redirect), or ``None``.
    """

    title: str
    text: str
    links: tuple[Link, ...]
    follow: bool
    encoding: str
    refresh: Link | None = None


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _text(element: etree._Element, cache: dict[etree._Element, str]) -> str:
    """The element's text (scripts and styles were removed from the tree), white space collapsed."""
    if element not in cache:
        cache[element] = _collapse(" ".join(element.itertext()))
    return cache[element]


class _Block:
    """A block's words, with where each word occurs (to find an anchor in it without a scan per link)."""

    __slots__ = ("tokens", "positions")

    def __init__(self, text: str) -> None:
        self.tokens = text.split()
        self.positions: dict[str, list[int]] = {}
        for i, token in enumerate(self.tokens):
            self.positions.setdefault(token, []).append(i)

    def context(self, anchor: str) -> str:
        """The words around ``anchor``'s first place in the block (the anchor's words left out); the block's first
        words if it is not found.

        The anchor is looked for at the places of its rarest word (at most :data:`_MAX_TRIES` of them): a long list
        of like anchors ("medal 1", "medal 2", ...) costs a try or two per link, not one per place of its first word.
        """
        anchor_tokens = anchor.split()
        n = len(anchor_tokens)
        if n:
            k = min(range(n), key=lambda j: len(self.positions.get(anchor_tokens[j], ())))
            for place in self.positions.get(anchor_tokens[k], ())[:_MAX_TRIES]:
                i = place - k
                if i >= 0 and self.tokens[i:i + n] == anchor_tokens:
                    return " ".join(self.tokens[max(0, i - CONTEXT_WORDS):i]
                                    + self.tokens[i + n:i + n + CONTEXT_WORDS])
        return " ".join(self.tokens[: 2 * CONTEXT_WORDS])


def parse_page(body: bytes, url: str, content_type: str | None,
               keep: Callable[[str], bool] | None = None) -> ParsedPage:
    """Decode and parse an HTML page; its title, text and links.

    :param body: the response body (decoded of its content coding).
    :param url: the page's URL (the base of relative links, unless the page has a ``base href``).
    :param content_type: the ``Content-Type`` header (its ``charset`` is the first choice of encoding), or ``None``.
    :param keep: which absolute link URLs to return (default: every http(s) one); the others cost no anchor and
        context.
    :returns: the :class:`ParsedPage`; a page that does not parse gives an empty one (no text, no links).
    """
    encoding, text = html_to_unicode(content_type, body)
    parser = html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, default_doctype=False)
    try:
        root = html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError):
        return ParsedPage("", "", (), True, encoding)
    if root is None:
        return ParsedPage("", "", (), True, encoding)
    etree.strip_elements(root, *_SKIP, with_tail=False)
    cache: dict[etree._Element, str] = {}
    titles = list(dict.fromkeys(_text(e, cache) for e in root.iter("title", "h1")))[:2]
    follow = True
    base = url
    for meta in root.iter("meta"):
        if (meta.get("name") or "").strip().lower() in _META_NAMES and _NOFOLLOW & _directives(meta.get("content")):
            follow = False
    for element in root.iter("base"):
        if element.get("href"):
            base = urljoin(url, element.get("href").strip())
            break
    base_scheme = base.split(":", 1)[0]
    body_element = root.find("body")
    page_text = _text(body_element if body_element is not None else root, cache)
    links = []

    def resolve(href: str) -> str | None:
        """The absolute http(s) URL of a link to follow (``keep``), else ``None``."""
        href = href.strip()
        try:
            if href[:8].lower().startswith(("http://", "https://")):
                target = href  # absolute: no join needed (most links of a page)
            elif href.startswith("//"):
                target = base_scheme + ":" + href
            else:
                target = urljoin(base, href)
        except ValueError:
            return None
        if not target.lower().startswith(("http://", "https://")) or (keep is not None and not keep(target)):
            return None
        return target

    refresh = None
    for meta in root.iter("meta"):  # the first refresh with a URL (HTML, 4.2.5.3: the pragma directive "refresh")
        if (meta.get("http-equiv") or "").strip().lower() == "refresh":
            found = _REFRESH.match(meta.get("content") or "")
            target = resolve(found.group(2)) if found and found.group(2).strip() else None
            if target is not None:
                refresh = Link(target, "", "")
                break
    blocks: dict[etree._Element, _Block] = {}
    for element in root.iter("a", "area"):
        href = element.get("href")
        if not href:
            continue
        target = resolve(href)
        if target is None:
            continue
        anchor = _text(element, cache)
        extra = [element.get("title") or ""] + [img.get("alt") or "" for img in element.iter("img")]
        for more in extra:
            if more.strip() and more.casefold() not in anchor.casefold():
                anchor = _collapse(anchor + " " + more)
        block = element.getparent()
        while block is not None and block.tag not in _BLOCKS:
            block = block.getparent()
        context = ""
        if block is not None:
            if block not in blocks:
                blocks[block] = _Block(_text(block, cache))
            context = blocks[block].context(_text(element, cache))
        links.append(Link(target, anchor[:500], context))
    return ParsedPage(_collapse(" ".join(titles)), page_text, tuple(links), follow, encoding, refresh)


def _directives(text: str | None) -> set[str]:
    return {d.strip().lower() for d in (text or "").split(",")}


def nofollow(x_robots_tags: list[str]) -> bool:
    """Whether the ``X-Robots-Tag`` header values of an answer say its links are not to be followed: ``nofollow`` or
    ``none``, for every crawler or for ``pyxform`` (``pyxform: nofollow``); a directive for another crawler
    (``googlebot: nofollow``) does not count (Google's reading of the header; robots meta tags: :func:`parse_page`)."""
    for value in x_robots_tags:
        scope, colon, rest = value.partition(":")
        if colon and "," not in scope and scope.strip().lower() not in _SCOPED_DIRECTIVES:  # "agent: directives"
            if scope.strip().lower() != ROBOTS_TOKEN:
                continue
            value = rest
        if _NOFOLLOW & _directives(value):
            return True
    return False


def charset_of(content_type: str | None) -> str | None:
    """The ``charset`` parameter of a ``Content-Type`` header, or ``None``."""
    if not content_type:
        return None
    for part in content_type.split(";")[1:]:
        name, _, value = part.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None
