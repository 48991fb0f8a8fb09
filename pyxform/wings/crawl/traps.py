"""Crawler traps, detected without knowing the site: each costs a small, bounded number of fetches.

Two kinds of check (``docs/crawl.md``, "Traps"):

- On the URL alone, before it is queued (:func:`url_trap`): longer than the URL length cap; more path segments than
  :data:`MAX_SEGMENTS`; a path segment repeated (``/a/b/a/b/``, ``/x/x/``, any segment three times: relative links
  that resolve deeper and deeper); more query parameters than the cap (faceted listings combine parameters without
  end). Session ids in the query are dropped by canonicalization (:mod:`.urls`).
- On what the pages of a URL *group* hold (:class:`TrapDetector`): URLs whose path or query has numbers, dates or
  tokens in it, or a query (``/calendar/2031/05``, ``/list?color=red&size=3``, ``/s/8f3a2c9e.../page``), are grouped
  by their pattern (host, port, the path with each such segment generalized, whether there is a query: all the
  parameter combinations of a faceted listing are one group); other URLs by their site section (host, port, first
  path segment: ``/archive/**``). A group goes on while its pages bring something new: it is stopped once at least
  :data:`NEAR_DUPLICATES` of its fetched pages, and at least half of them, were near-duplicates of an earlier page
  of the group (counted from the 10th page of the crawl on), as an endless calendar's months, a faceted listing's re-sorted views, a session-id copy of a page
  and an archive's ever deeper empty sections are. Near-duplicate: a word-bigram Jaccard similarity >=
  :data:`SIMILAR` once the site's boilerplate is left out (the bigrams found in at least half of the pages fetched,
  menus and footers: Bar-Yossef & Rajagopalan's template detection, 2002), so that pages of one template with their
  own content (``/article?id=123``, ``/wiki/Title``) are never similar, and a few duplicates among many pages never
  stop their group.
- A page whose visible text is exactly that of a page fetched before is a duplicate: its links are not followed, and
  if its URL differs from the earlier one's only in one query parameter's value, that parameter is dropped from the
  host's URLs from then on (a session id under a name no list knows).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import parse_qsl, unquote, urlsplit

from .text import words

__all__ = ["url_trap", "pattern_of", "group_of", "fingerprint", "TrapDetector", "NEAR_DUPLICATES", "SIMILAR", "MAX_SEGMENTS"]

MAX_SEGMENTS: Final = 16
#: Near-duplicate pages a URL pattern may fetch before it is stopped.
NEAR_DUPLICATES: Final = 2
#: Word-bigram Jaccard similarity from which two pages are near-duplicates.
SIMILAR: Final = 0.5
_KEEP: Final = 12  # fingerprints kept per group
_KNOWN: Final = 10  # pages after which the site's boilerplate is known
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


def group_of(url: str) -> str | None:
    """The group of a canonical URL: its :func:`pattern_of`, else its site section (host, port, first path segment),
    ``None`` for a page at the top of the site (``/``, ``/about``)."""
    pattern = pattern_of(url)
    if pattern is not None:
        return pattern
    parts = urlsplit(url)
    segments = _segments(parts.path)
    return f"{parts.hostname}:{parts.port or ''}/{segments[0]}/**" if len(segments) > 1 else None


def fingerprint(text: str) -> frozenset[int]:
    """A page's visible text as a sample of its hashed word bigrams (those whose hash is even: the same bigram is
    kept or left on every page; at most :data:`_SHINGLES`)."""
    tokens = words(text)
    hashes = {h for h in (hash((a, b)) for a, b in zip(tokens, tokens[1:])) if not h & 1}
    if not hashes and tokens:
        hashes = {hash(tuple(tokens)) & ~1}
    if len(hashes) > _SHINGLES:
        hashes = set(sorted(hashes)[:_SHINGLES])
    return frozenset(hashes)


@dataclass
class _Group:
    fetched: int = 0
    near_duplicates: int = 0
    prints: list[frozenset[int]] = field(default_factory=list)

    @property
    def stopped(self) -> bool:
        return self.near_duplicates >= NEAR_DUPLICATES and 2 * self.near_duplicates >= self.fetched


class TrapDetector:
    """The pattern budgets and the duplicate filter on page text (the module docstring)."""

    def __init__(self) -> None:
        self.groups: dict[str, _Group] = {}
        self.texts: dict[str, str] = {}  # sha1 of visible text -> the first URL that had it
        self.ignored: dict[str, set[str]] = {}  # host -> query parameter names found to be session ids
        self.last_digest = ""  # of the page :meth:`observe` saw last (the crawl stores it, for :meth:`restore`)
        self.last_near_duplicate = False
        self.pages = 0
        self.bigrams: dict[int, int] = {}  # sampled bigram -> pages that have it (boilerplate when in half of them)

    def _content(self, mark: frozenset[int]) -> frozenset[int]:
        """A fingerprint without the site's boilerplate (once :data:`_KNOWN` pages are known)."""
        if self.pages < _KNOWN:
            return mark
        half = self.pages / 2
        return frozenset(h for h in mark if self.bigrams.get(h, 0) < half)

    def similarity(self, a: frozenset[int], b: frozenset[int]) -> float:
        """Jaccard similarity of two fingerprints without boilerplate (two pages of boilerplate only: 1)."""
        a, b = self._content(a), self._content(b)
        if not a or not b:
            return 1.0 if a == b else 0.0
        return len(a & b) / len(a | b)

    def restore(self, url: str, digest: str | None, near_duplicate: bool, duplicate_of: str | None) -> None:
        """Count a page fetched by an earlier run (resume): its text digest, whether it was a near-duplicate in its
        pattern, the page it duplicates. (Fingerprints are not kept: a resumed crawl compares its new pages of a
        pattern with each other only.)"""
        if digest:
            self.texts.setdefault(digest, url)
        key = group_of(url)
        if key is not None:
            group = self.groups.setdefault(key, _Group())
            group.fetched += 1
            group.near_duplicates += near_duplicate
        if duplicate_of:
            self._learn_session_parameter(duplicate_of, url)

    def stopped(self, url: str) -> str | None:
        """Why the group of ``url`` is stopped, or ``None`` if it may be fetched."""
        key = group_of(url)
        group = self.groups.get(key) if key is not None else None
        if group is not None and group.stopped:
            return f"trap: {group.near_duplicates} of {group.fetched} pages of {key} were near-duplicates"
        return None

    def observe(self, url: str, text: str) -> str | None:
        """Record a fetched HTML page of canonical URL ``url`` with visible text ``text``.

        :returns: the URL of an earlier page with exactly this text (the page is a duplicate: do not follow its
            links), else ``None``.
        """
        digest = hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()
        earlier = self.texts.setdefault(digest, url)
        self.last_digest, self.last_near_duplicate = digest, False
        mark = fingerprint(text)
        self.pages += 1
        for h in mark:
            self.bigrams[h] = self.bigrams.get(h, 0) + 1
        key = group_of(url)
        if key is not None:
            group = self.groups.setdefault(key, _Group())
            group.fetched += 1
            # similar pages count once the site's boilerplate is known (10 pages); the same text always counts
            if earlier != url or (self.pages >= _KNOWN and any(self.similarity(mark, other) >= SIMILAR
                                                               for other in group.prints)):
                group.near_duplicates += 1
                self.last_near_duplicate = True
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
