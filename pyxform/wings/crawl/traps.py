"""Crawler traps, detected without knowing the site: each costs a small, bounded number of fetches.

Two kinds of check (``docs/crawl.md``, "Traps"):

- On the URL alone, before it is queued (:func:`url_trap`): longer than the URL length cap; more path segments than
  :data:`MAX_SEGMENTS`; a path segment repeated (``/a/b/a/b/``, ``/x/x/``, any segment three times: relative links
  that resolve deeper and deeper); more query parameters than the cap (faceted listings combine parameters without
  end). Session ids in the query are dropped by canonicalization (:mod:`.urls`).
- On what the pages of a URL *group* hold (:class:`TrapDetector`): URLs whose path or query has numbers, dates or
  tokens in it, or a query (``/calendar/2031/05``, ``/list?color=red&size=3``, ``/s/8f3a2c9e.../page``), are grouped
  by their *pattern* (host, port, the path with each such segment generalized, whether there is a query: all the
  parameter combinations of a faceted listing are one group); other URLs by their site *section* (host, port, first
  path segment: ``/archive/**``). A group goes on while its pages bring something new. A pattern stops after
  :data:`NEAR_DUPLICATES` pages that were near-duplicates of an earlier page of the pattern (an endless calendar's
  months, a faceted listing's re-sorted and re-filtered views); any group stops once at least that many of its pages,
  and at least half of those compared, repeated an earlier one (near-duplicates, or exactly the text of a page
  fetched before: session-id copies, an archive's ever deeper empty sections), so a few duplicates among a site's
  articles never stop them. Near-duplicate: a word-bigram Jaccard similarity >= :data:`SIMILAR` once boilerplate is
  left out: the bigrams found in the pages of three groups or more (the site's menus and footers, after Bar-Yossef &
  Rajagopalan's template detection, 2002) and, in a site section, those in half of its pages (its own template: a
  wiki's sidebar; a section's pages are compared from its 10th page on, once that template is known). Pages of one
  template with their own content (``/article?id=123``, ``/wiki/Title``) are not similar; a pattern's own template
  stays in, so a crawl that starts inside a trap still stops it. A page with next to no text of its own besides the
  boilerplate (fewer than about 6 words) counts as a repeat too (an endless list of empty tag pages).
- A page whose visible text is exactly that of a page fetched before is a duplicate: its links are not followed, and
  if its URL differs from the earlier one's only in one query parameter's value, that parameter is dropped from the
  host's URLs from then on (a session id under a name no list knows).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import parse_qsl, unquote, urlsplit

import numpy as np

from .text import words

__all__ = ["url_trap", "pattern_of", "group_of", "section_of", "text_digest", "pack_print", "unpack_print",
           "fingerprint", "TrapDetector", "NEAR_DUPLICATES", "SIMILAR", "MAX_SEGMENTS"]

MAX_SEGMENTS: Final = 16
#: Near-duplicate pages a URL pattern may fetch before it is stopped.
NEAR_DUPLICATES: Final = 2
#: Word-bigram Jaccard similarity from which two pages are near-duplicates.
SIMILAR: Final = 0.5
_KEEP: Final = 12  # fingerprints kept per group
_BOILERPLATE_GROUPS: Final = 3  # a bigram in pages of this many groups is the site's boilerplate
_MAX_BIGRAMS: Final = 2_000_000  # bigrams followed for the boilerplate (memory stays bounded on big crawls)
_MAX_SECTION_BIGRAMS: Final = 200_000  # the same, per site section
_SECTION_KNOWN: Final = 10  # a section's pages after which its own template is known
_EMPTY: Final = 3  # sampled bigrams (about twice as many words) of its own below which a page brings nothing new
_SHINGLES: Final = 4000  # bigrams kept per fingerprint (the smallest hashes: a bottom-k sample)
_NUMBER: Final = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
_DATE: Final = re.compile(r"^(?:\d{4}[-_/.]?\d{1,2}(?:[-_/.]?\d{1,2})?|\d{1,2}[-_/.]\d{1,2}[-_/.]\d{2,4})$")
_MONTH: Final = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*$", re.IGNORECASE)
_TOKEN: Final = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{12,}$|^[0-9a-fA-F]{12,}$")
_SESSIONISH: Final = re.compile(r"^\(.*\)$")  # ASP.NET's cookieless session: /(S(lit3py55t21z5v55vlm25s55))/


def _segments(path: str) -> list[str]:
    return [unquote(s) for s in path.split("/") if s]


def url_trap(url: str, *, max_length: int, max_query_params: int) -> str | None:
    """Why ``url`` (canonical) is a trap by its form alone, or ``None`` (the module docstring, first point)."""
    if len(url) > max_length:
        return f"URL longer than {max_length} characters"
    parts = urlsplit(url)
    segments = _segments(parts.path)
    if len(segments) > MAX_SEGMENTS:
        return f"more than {MAX_SEGMENTS} path segments"
    # numbers and dates repeat in real paths (/2024/01/01/...): only words count as repeated segments
    named = [s if _general(s) is None else f"<{i}>" for i, s in enumerate(segments)]
    seen: dict[str, int] = {}
    for s in named:
        seen[s] = seen.get(s, 0) + 1
        if seen[s] >= 3:
            return f"path segment {s!r} repeated"
    n = len(named)
    for size in range(1, n // 2 + 1):
        for i in range(n - 2 * size + 1):
            if named[i:i + size] == named[i + size:i + 2 * size]:
                return "repeated path segments /" + "/".join(segments[i:i + 2 * size]) + "/"
    if parts.query and len(parse_qsl(parts.query, keep_blank_values=True)) > max_query_params:
        return f"more than {max_query_params} query parameters"
    return None


def _general(value: str) -> str | None:
    """The class of a URL component that varies without end (number, date, token), or ``None``."""
    if _NUMBER.match(value):
        return "<n>"
    if _DATE.match(value) or _MONTH.match(value):
        return "<d>"
    if _TOKEN.match(value) or _SESSIONISH.match(value):
        return "<t>"
    return None


def pattern_of(url: str) -> str | None:
    """The pattern of a canonical URL (host, port, the path with numbers, dates and tokens generalized, ``?`` if it
    has a query), or ``None`` for a URL with no such part and no query (a page of its own)."""
    parts = urlsplit(url)
    segments = _segments(parts.path)
    general = [_general(s) or s for s in segments]
    if general == segments and not parts.query:
        return None
    return f"{parts.hostname}:{parts.port or ''}/{'/'.join(general)}{'?' if parts.query else ''}"


def section_of(url: str) -> str | None:
    """The site section of a canonical URL (host, port, first path segment), ``None`` for a page at the top of the
    site (``/``, ``/about``, ``/list?page=2``)."""
    parts = urlsplit(url)
    segments = _segments(parts.path)
    return f"{parts.hostname}:{parts.port or ''}/{segments[0]}/**" if len(segments) > 1 else None


def group_of(url: str) -> str | None:
    """The group of a canonical URL: its :func:`pattern_of`, else its :func:`section_of`."""
    pattern = pattern_of(url)
    return pattern if pattern is not None else section_of(url)


def _jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    """Jaccard similarity of two sets of bigrams (two empty ones: 1)."""
    if not a or not b:
        return 1.0 if a == b else 0.0
    return len(a & b) / len(a | b)


def text_digest(text: str) -> str:
    """The SHA-1 of a page's visible text, white space collapsed (exact duplicates have the same)."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()


def pack_print(mark: frozenset[int]) -> bytes:
    """A fingerprint as bytes to store (sorted, delta-coded, zlib): about 2 bytes a bigram."""
    values = np.fromiter(sorted(mark), dtype=np.uint32, count=len(mark))
    return zlib.compress(np.diff(values, prepend=np.uint32(0)).astype(np.uint32).tobytes(), 6)


def unpack_print(data: bytes) -> frozenset[int]:
    """The inverse of :func:`pack_print`."""
    deltas = np.frombuffer(zlib.decompress(data), dtype=np.uint32)
    return frozenset(int(v) for v in np.cumsum(deltas, dtype=np.uint64))


def fingerprint(text: str) -> frozenset[int]:
    """A page's visible text as a sample of its hashed word bigrams (CRC-32; those whose hash is even: the same
    bigram is kept or left on every page, in every run; at most :data:`_SHINGLES`)."""
    tokens = words(text)
    hashes = {h for h in (zlib.crc32(f"{a} {b}".encode("utf-8")) for a, b in zip(tokens, tokens[1:])) if not h & 1}
    if not hashes and tokens:
        hashes = {zlib.crc32(" ".join(tokens).encode("utf-8")) & ~1}
    if len(hashes) > _SHINGLES:
        hashes = set(sorted(hashes)[:_SHINGLES])
    return frozenset(hashes)


@dataclass
class _Group:
    pattern: bool  # a URL pattern (numbers, dates, tokens, a query), else a site section
    fetched: int = 0
    judged: int = 0  # pages compared with the group's earlier ones (a section's, from its 10th page on)
    similar: int = 0  # pages near-duplicates of an earlier page of the group (or next to empty)
    same: int = 0  # pages with exactly the text of a page fetched before
    prints: list[frozenset[int]] = field(default_factory=list)
    bigrams: dict[int, int] = field(default_factory=dict)  # a section's: sampled bigram -> its pages that have it

    @property
    def stopped(self) -> bool:
        """A pattern stops after :data:`NEAR_DUPLICATES` similar pages (while they are a tenth of its judged pages
        or more: a few similar stubs among many articles of one pattern do not stop it); any group once at least
        that many of its pages, and half of them, repeated an earlier one (a section: half of all the pages fetched
        in it)."""
        repeats = self.similar + self.same
        if self.pattern:
            return (self.similar >= NEAR_DUPLICATES and 10 * self.similar >= self.judged) or (
                repeats >= NEAR_DUPLICATES and 2 * repeats >= max(self.judged, self.same))
        return repeats >= NEAR_DUPLICATES and 2 * repeats >= self.fetched


class TrapDetector:
    """The groups' budgets and the duplicate filter on page text (the module docstring)."""

    def __init__(self) -> None:
        self.groups: dict[str, _Group] = {}
        self.texts: dict[str, str] = {}  # sha1 of visible text -> the first URL that had it
        self.ignored: dict[str, set[str]] = {}  # host -> query parameter names found to be session ids
        self.last_digest = ""  # of the page :meth:`observe` saw last (the crawl stores it, for :meth:`restore`)
        self.last_near_duplicate = ""  # "similar", "same" or ""
        self.last_print: frozenset[int] = frozenset()  # the fingerprint of that page (the crawl stores it)
        self.pages = 0
        self.bigrams: dict[int, tuple[str, ...]] = {}  # sampled bigram -> the groups (up to 3) whose pages have it
        self.boilerplate: set[int] = set()  # the bigrams of 3 groups

    def _content(self, mark: frozenset[int], group: _Group | None = None) -> frozenset[int]:
        """A fingerprint without the site's boilerplate: the bigrams found in pages of :data:`_BOILERPLATE_GROUPS`
        groups or more (menus, footers: the same on the site's articles, lists and home page), and for a site
        section the bigrams in half of its pages (its own template: a wiki's sidebar)."""
        content = mark - self.boilerplate
        if group is not None and not group.pattern:
            half = group.fetched / 2
            content = frozenset(h for h in content if group.bigrams.get(h, 0) < half)
        return content

    def similarity(self, a: frozenset[int], b: frozenset[int], group: _Group | None = None) -> float:
        """Jaccard similarity of two fingerprints without boilerplate (two pages of boilerplate only: 1)."""
        return _jaccard(self._content(a, group), self._content(b, group))

    def _count(self, mark: frozenset[int], key: str) -> None:
        for h in mark:
            groups = self.bigrams.get(h)
            if groups is None:
                if len(self.bigrams) < _MAX_BIGRAMS:
                    self.bigrams[h] = (key,)
            elif len(groups) < _BOILERPLATE_GROUPS and key not in groups:
                self.bigrams[h] = (*groups, key)
                if len(groups) + 1 == _BOILERPLATE_GROUPS:
                    self.boilerplate.add(h)

    def restore(self, url: str, digest: str | None, near_duplicate: bool | str, duplicate_of: str | None) -> None:
        """Count a page fetched by an earlier run whose fingerprint was not stored (a folder of an earlier pyxform):
        its text digest, whether it repeated an earlier page of its group (``similar``, ``same``), the page it
        duplicates; pages with a stored fingerprint are :meth:`replay`-ed instead."""
        if digest:
            self.texts.setdefault(digest, url)
        key = group_of(url)
        if key is not None:
            group = self.groups.setdefault(key, _Group(pattern_of(url) is not None))
            group.fetched += 1
            group.judged += group.pattern or group.fetched >= _SECTION_KNOWN
            group.same += near_duplicate == "same"
            group.similar += near_duplicate in ("similar", True)
        if duplicate_of:
            self._learn_session_parameter(duplicate_of, url)

    def stopped(self, url: str) -> str | None:
        """Why ``url`` may not be fetched (its group is stopped, or it lies under a stopped pattern:
        ``/events/<n>/<n>/<n>/`` under ``/events/<n>/<n>/``), or ``None``."""
        key = group_of(url)
        group = self.groups.get(key) if key is not None else None
        if group is not None and group.stopped:
            return self._why(key, group)  # type: ignore[arg-type]
        parts = urlsplit(url)
        general = [_general(s) or s for s in _segments(parts.path)]
        for k in range(len(general) - 1, 0, -1):
            if _general(_segments(parts.path)[k - 1]) is None:
                continue  # a pattern's path ends with a generalized segment
            prefix = f"{parts.hostname}:{parts.port or ''}/{'/'.join(general[:k])}"
            for above in (prefix, prefix + "?"):
                group = self.groups.get(above)
                if group is not None and group.pattern and group.stopped:
                    return self._why(above, group)
        return None

    @staticmethod
    def _why(key: str, group: _Group) -> str:
        total = group.judged if group.pattern else group.fetched
        return f"trap: {group.similar + group.same} of the {total} pages of {key} repeated an earlier one"

    def observe(self, url: str, text: str) -> str | None:
        """Record a fetched HTML page of canonical URL ``url`` with visible text ``text``; afterwards
        :attr:`last_near_duplicate` says whether it repeated an earlier page (``same``: the text of a page fetched
        before; ``similar``: a near-duplicate of an earlier page of its group, or next to no text of its own), and
        then its links bring nothing new.

        :returns: the URL of an earlier page with exactly this text (the page is a duplicate: do not follow its
            links), else ``None``.
        """
        return self.replay(url, text_digest(text), fingerprint(text))

    def replay(self, url: str, digest: str, mark: frozenset[int]) -> str | None:
        """:meth:`observe` from what is stored of a page: its :func:`text_digest` and :func:`fingerprint` (a
        resumed crawl replays its earlier pages in fetch order, and so comes to the same state)."""
        earlier = self.texts.setdefault(digest, url)
        self.last_digest = digest
        self.last_print = mark
        self.pages += 1
        key = group_of(url)
        self._count(mark, key or "/")
        self.last_near_duplicate = ""
        if key is not None:
            group = self.groups.setdefault(key, _Group(pattern_of(url) is not None))
            group.fetched += 1
            if not group.pattern and len(group.bigrams) < _MAX_SECTION_BIGRAMS:
                for h in mark:
                    group.bigrams[h] = group.bigrams.get(h, 0) + 1
            # a pattern's pages are compared at once; a section's once its own template is known (10 pages); a page
            # with next to no text besides the site's boilerplate repeats the template in any group
            known = group.pattern or group.fetched >= _SECTION_KNOWN
            content = self._content(mark, group if known else None)
            empty = len(content) < _EMPTY
            judge = known or empty
            group.judged += judge
            if earlier != url:
                group.same += 1
                self.last_near_duplicate = "same"
            elif empty or (judge and any(_jaccard(content, self._content(other, group)) >= SIMILAR
                                         for other in group.prints)):
                group.similar += 1
                self.last_near_duplicate = "similar"
            group.prints.append(mark)
            del group.prints[:-_KEEP]
        if earlier == url:
            return None
        self._learn_session_parameter(earlier, url)
        return earlier

    def _learn_session_parameter(self, a: str, b: str) -> None:
        pa, pb = urlsplit(a), urlsplit(b)
        if (pa.scheme, pa.netloc, pa.path) != (pb.scheme, pb.netloc, pb.path):
            return
        qa, qb = dict(parse_qsl(pa.query, keep_blank_values=True)), dict(parse_qsl(pb.query, keep_blank_values=True))
        if qa.keys() != qb.keys():
            return
        differing = [k for k in qa if qa[k] != qb[k]]
        if len(differing) == 1:
            self.ignored.setdefault((pa.hostname or "").lower(), set()).add(differing[0].lower())

    def ignored_parameters(self, host: str) -> frozenset[str]:
        """Query parameter names learned to be session ids on ``host``."""
        return frozenset(self.ignored.get(host, ()))
