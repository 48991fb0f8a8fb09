"""The benchmark's test web: the 440 Wikipedia pages of ../shared/corpus/wikitables in whole-article form
(``make_articles.py``), linked with a fixed seed, plus hubs, traps, a robots.txt Disallow, redirect chains, 404s
and non-HTML files.

Links (everything drawn from ``random.Random(seed)`` / ``numpy.random.default_rng(seed)``):

- the pages' own Wikipedia links that name another page of the collection point to it (``/wiki/TITLE``);
- each article gets a "Related articles" list: 5 links drawn among its 20 nearest articles by content (TF-IDF
  cosine of title and text: topical pages cluster) and 2 drawn over all articles by a Pareto(1.2) "fitness" (link
  popularity is skewed, as on the Web); the anchor is the target's title;
- 10 % of those links go through a redirect chain (``/go/N`` -> 301 -> ``/moved/N`` -> 302 -> the article, or a
  single hop);
- the home page links 8 hubs, each listing 35 articles drawn by fitness, and the 10 fittest articles;
- 4 % of articles link a missing page (404), 6 % a CSV or PNG file, 5 % a ``/private/`` page (disallowed by
  robots.txt, with the title of a random article as anchor: tempting);
- the home page, the hubs and 15 % of articles link the four traps: an endless events calendar (``/events/calendar
  ?year=&month=`` with previous / next month and day views), a faceted catalog (``/catalog?category=&color=&size=
  &sort=&page=``: every facet link adds or changes a parameter), a forum whose links carry a new session id each
  time (``/community/forum...?sessionid=``), and an archive whose relative links nest deeper and deeper
  (``/archive/section/section/...``).

The topics (``TOPICS``): a short description each, and the relevant pages, chosen from the title and the lead
sentence of each page (the sentence that says what the page is: "X is an American actress ..."), known to the
harness only.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import parse_qs, quote, unquote, urlsplit

import numpy as np
import scipy.sparse as sparse

from .web import Reply, html_page

__all__ = ["TestSite", "Topic", "TOPICS", "build_site", "TRAP_PREFIXES"]

def _shared() -> Path:
    """../shared beside the checkout (a worktree's: the first ancestor that has one)."""
    for folder in Path(__file__).resolve().parents[2:]:
        if (folder / "shared" / "corpus" / "wikitables").is_dir():
            return folder / "shared" / "corpus" / "wikitables"
    raise FileNotFoundError("../shared/corpus/wikitables not found beside the checkout")


SHARED: Final = _shared()
TRAP_PREFIXES: Final = ("/events/", "/catalog", "/community/", "/archive/")
DISALLOWED: Final = "/private/"


@dataclass(frozen=True)
class Topic:
    name: str
    description: str
    pattern: str  # over the title and the lead sentence


TOPICS: Final = (
    Topic("music", "popular music: singers, bands and rappers, their albums, songs, singles and discographies",
          r"\b(albums?|band|singer|rapper|musician|songs?|discography|record label|songwriter|hip hop|"
          r"rock band|pop group)\b"),
    Topic("film", "film and television: actors and actresses, films, television series and their episodes",
          r"\b(actor|actress|films?|television series|sitcom|TV series|episodes|comedian)\b"),
    Topic("racing", "motor racing and cycling: Grand Prix races, Formula One, NASCAR and IndyCar seasons, "
          "drivers and riders", r"\b(Grand Prix|NASCAR|IndyCar|Formula One|motor racing|auto racing|racing driver|"
                                r"racing|motorcycle|Tour de France|cycling|Superbike|race)\b"),
    Topic("places", "cities, towns, counties and regions: their geography, population and local government",
          r"\b(city|town|county|village|municipality|prefecture|province|region|capital|borough|"
          r"census-designated)\b"),
)


@dataclass
class TestSite:
    """The site: pages by path, the article paths, the relevant paths of each topic."""

    __test__ = False

    pages: dict[str, Reply]
    articles: list[str]
    titles: dict[str, str]
    relevant: dict[str, set[str]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """Pages of the site proper: the home page, the hubs and the articles."""
        return 1 + sum(1 for p in self.pages if p.startswith("/hub/")) + len(self.articles)

    def serve(self, path: str, headers: Mapping[str, str]) -> Reply:
        if path in self.pages:
            return self.pages[path]
        decoded = unquote(path)
        if decoded in self.pages:
            return self.pages[decoded]
        parts = urlsplit(path)
        if parts.path.startswith("/events/"):
            return _calendar(parts.path, parse_qs(parts.query))
        if parts.path == "/catalog":
            return _catalog(parse_qs(parts.query))
        if parts.path.startswith("/community/"):
            return _forum(parts.path, parse_qs(parts.query))
        if parts.path.startswith("/archive/"):
            return _archive(parts.path)
        if parts.path.startswith(DISALLOWED):
            return html_page("Talk page", "a discussion page the crawler must not fetch")
        return Reply(404, b"<html><body><h1>Not found</h1></body></html>")

    @staticmethod
    def is_trap(path: str) -> bool:
        return path.startswith(TRAP_PREFIXES)

    @staticmethod
    def disallowed(path: str) -> bool:
        return path.startswith(DISALLOWED)


# -- traps ---------------------------------------------------------------------------------------------------------
_MONTHS: Final = ("January February March April May June July August September October November December").split()


def _calendar(path: str, query: dict[str, list[str]]) -> Reply:
    try:
        year, month = int(query.get("year", ["2014"])[0]), int(query.get("month", ["1"])[0])
    except ValueError:
        return Reply(404, b"bad date")
    month = min(12, max(1, month))
    day = query.get("day", [None])[0]
    nxt = (year + (month == 12), month % 12 + 1)
    prv = (year - (month == 1), (month - 2) % 12 + 1)
    links = [(f"/events/calendar?year={nxt[0]}&month={nxt[1]}", "Next month"),
             (f"/events/calendar?year={prv[0]}&month={prv[1]}", "Previous month"), ("/", "Home")]
    links += [(f"/events/calendar?year={year}&month={month}&day={d}", str(d)) for d in (1, 8, 15, 22)]
    grid = " ".join(str(d) for d in range(1, 31))
    title = f"Events calendar: {_MONTHS[month - 1]} {year}" + (f", day {day}" if day else "")
    return html_page(title, f"Mon Tue Wed Thu Fri Sat Sun {grid}. No events are scheduled. Submit an event to "
                            "the calendar editors.", links)


_FACETS: Final = {"category": ["books", "music", "films", "games", "tools"], "color": ["red", "blue", "green", "black"],
                  "size": ["small", "medium", "large"], "sort": ["price", "name", "newest"], "page": ["1", "2", "3"]}
_PRODUCTS: Final = [f"{a} {b}" for a in ("Classic", "Deluxe", "Compact", "Vintage", "Modern", "Travel")
                    for b in ("lamp", "chair", "desk", "shelf", "clock", "mirror", "rug", "vase")]


def _catalog(query: dict[str, list[str]]) -> Reply:
    current = {k: v[0] for k, v in query.items() if k in _FACETS}
    links = []
    for name, values in _FACETS.items():
        for value in values:
            q = {**current, name: value}
            links.append(("/catalog?" + "&".join(f"{k}={q[k]}" for k in sorted(q)), f"{name}: {value}"))
    seed = int(hashlib.md5(repr(sorted(current.items())).encode()).hexdigest()[:8], 16)
    items = random.Random(seed).sample(_PRODUCTS, 10)
    body = ("Browse our catalog. Filter by category, color and size; sort by price, name or newest. Items: "
            + ", ".join(items) + ". Free delivery on orders over 50.")
    return html_page("Catalog", body, links)


def _forum(path: str, query: dict[str, list[str]]) -> Reply:
    session = query.get("sessionid", ["0"])[0]
    new = hashlib.sha1((session + path).encode()).hexdigest()[:16]
    threads = [(f"/community/forum/thread/{n}?sessionid={new}", f"Thread {n}") for n in range(1, 4)]
    links = [(f"/community/forum?sessionid={new}", "Forum home"), *threads, ("/", "Home")]
    m = re.search(r"/thread/(\d+)", path)
    body = (f"Thread {m.group(1)}: members discuss the site. Please log in to reply." if m else
            "Welcome to the community forum. Read the threads below; log in to post.")
    return html_page("Community forum", body, links)


def _archive(path: str) -> Reply:
    return html_page("Archive", "The archive of older announcements. Choose a section.",
                     [("section/", "Section"), ("./section/older/", "Older"), ("../archive/", "Archive home")])


# -- building ------------------------------------------------------------------------------------------------------
def _articles_folder() -> Path:
    folder = Path(tempfile.gettempdir()) / "pyxform-crawl-eval-articles"
    if not (folder / "200-0.html").exists():
        subprocess.run([sys.executable, str(SHARED / "make_articles.py"), str(folder)], check=True,
                       capture_output=True)
    return folder


def _lead(page: str) -> str:
    match = re.search(r"<p>(.*?)</p>", page, re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", match.group(1))) if match else ""
    return re.split(r"(?<=[a-z])\.\s", text)[0][:400]


def _vectors(texts: list[str]) -> np.ndarray:
    """Cosine similarities of TF-IDF vectors (sublinear tf), dense (n x n)."""
    vocabulary: dict[str, int] = {}
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        counts: dict[int, int] = {}
        for word in re.findall(r"[a-z]{3,}", text.lower()):
            j = vocabulary.setdefault(word, len(vocabulary))
            counts[j] = counts.get(j, 0) + 1
        for j, c in counts.items():
            rows.append(i)
            cols.append(j)
            vals.append(1 + math.log(c))
    matrix = sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), len(vocabulary)))
    df = np.bincount(cols, minlength=len(vocabulary))
    matrix = matrix @ sparse.diags(np.log(len(texts) / df))
    norms = np.sqrt(matrix.multiply(matrix).sum(axis=1)).A.ravel()
    matrix = sparse.diags(1 / np.maximum(norms, 1e-12)) @ matrix
    return (matrix @ matrix.T).toarray()


def build_site(seed: int = 14) -> TestSite:
    """The test web (the module docstring), the same for the same seed."""
    folder = _articles_folder()
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    names = sorted(p.stem for p in folder.glob("*.html"))
    titles, paths, raw, leads = {}, [], {}, {}
    for name in names:
        meta = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        title = html.unescape(meta["title"])
        path = "/wiki/" + title.replace(" ", "_")
        while path in titles:
            path += "_(2)"
        titles[path] = title
        paths.append(path)
        raw[path] = (folder / f"{name}.html").read_text(encoding="utf-8", errors="replace")
        leads[path] = _lead(raw[path])
    by_title = {t.replace(" ", "_"): p for p, t in titles.items()}
    texts = [(titles[p] + " ") * 3 + re.sub(r"<[^>]+>", " ", raw[p])[:20000] for p in paths]
    similar = _vectors(texts)
    np.fill_diagonal(similar, -1)
    fitness = nprng.pareto(1.2, len(paths)) + 1
    popular = fitness / fitness.sum()
    n = len(paths)
    chains: list[str] = []
    pages: dict[str, Reply] = {}

    def link_to(target: str) -> str:
        if rng.random() < 0.10:
            number = len(chains)
            chains.append(target)
            return f"/go/{number}"
        return quote(target)

    def pick_popular(k: int, exclude: int) -> list[int]:
        chosen = set()
        while len(chosen) < k:
            j = int(nprng.choice(n, p=popular))
            if j != exclude:
                chosen.add(j)
        return sorted(chosen)

    href = re.compile(r'href="//en\.wikipedia\.org/wiki/([^"#?]+)')
    for i, path in enumerate(paths):
        page = href.sub(lambda m: f'href="{quote(by_title[unquote(m.group(1))])}' if unquote(m.group(1)) in by_title
                        else m.group(0), raw[path])
        neighbours = np.argsort(-similar[i])[:20]
        weights = np.maximum(similar[i][neighbours], 1e-6)
        topical = nprng.choice(neighbours, size=5, replace=False, p=weights / weights.sum())
        targets = list(dict.fromkeys([int(j) for j in topical] + pick_popular(2, i)))
        items = [f'<li><a href="{link_to(paths[j])}">{html.escape(titles[paths[j]])}</a></li>' for j in targets]
        extra = []
        if rng.random() < 0.04:
            extra.append(f'<li><a href="/wiki/Missing_page_{i}">Missing page {i}</a></li>')
        if rng.random() < 0.06:
            extra.append(rng.choice([f'<li><a href="/files/table_{i}.csv">Data (CSV)</a></li>',
                                     f'<li><a href="/media/figure_{i}.png">Figure</a></li>']))
        if rng.random() < 0.05:
            other = titles[paths[rng.randrange(n)]]
            extra.append(f'<li><a href="{DISALLOWED}talk/{i}">{html.escape(other)}: talk</a></li>')
        footer = ""
        if rng.random() < 0.15:
            footer = _trap_links(rng)
        block = (f'<div class="related"><h2>Related articles</h2><ul>{"".join(items)}</ul>'
                 f'<ul>{"".join(extra)}</ul>{footer}</div>')
        page = page.replace("\n</body>", block + "\n</body>", 1)
        pages[path] = Reply(body=page.encode("utf-8"))
        pages[f"/files/table_{i}.csv"] = Reply(body=b"year,value\n2000,1\n2001,2\n", headers=(("Content-Type",
                                                                                              "text/csv"),))
        pages[f"/media/figure_{i}.png"] = Reply(body=b"\x89PNG\r\n\x1a\n" + bytes(200), headers=(("Content-Type",
                                                                                                 "image/png"),))
    for number, target in enumerate(chains):
        if number % 2:
            pages[f"/go/{number}"] = Reply(301, b"", (("Location", f"/moved/{number}"),))
            pages[f"/moved/{number}"] = Reply(302, b"", (("Location", quote(target)),))
        else:
            pages[f"/go/{number}"] = Reply(301, b"", (("Location", quote(target)),))
    hubs = []
    for h in range(8):
        listed = pick_popular(35, -1)
        hubs.append((f"/hub/{h + 1}", f"Article index {h + 1}"))
        pages[f"/hub/{h + 1}"] = html_page(
            f"Article index {h + 1}", "A selection of articles. " + _trap_links(rng, all_traps=True),
            [(quote(paths[j]), titles[paths[j]]) for j in listed])
    featured = [(quote(paths[j]), titles[paths[j]]) for j in np.argsort(-fitness)[:10]]
    pages["/"] = html_page("Encyclopedia home", "Welcome. " + _trap_links(rng, all_traps=True), hubs + featured)
    pages["/robots.txt"] = Reply(body=f"User-agent: *\nDisallow: {DISALLOWED}\n".encode(),
                                 headers=(("Content-Type", "text/plain"),))
    site = TestSite(pages, paths, titles)
    for topic in TOPICS:
        site.relevant[topic.name] = {p for p in paths if re.search(topic.pattern, titles[p] + " " + leads[p])}
    return site


def _trap_links(rng: random.Random, all_traps: bool = False) -> str:
    traps = [(f"/events/calendar?year={rng.randint(2000, 2020)}&month={rng.randint(1, 12)}", "Events calendar"),
             ("/catalog?category=books", "Browse the catalog"),
             (f"/community/forum?sessionid={rng.getrandbits(64):016x}", "Community forum"),
             ("/archive/", "Archive")]
    chosen = traps if all_traps else rng.sample(traps, rng.randint(1, 2))
    return "<p>" + " | ".join(f'<a href="{h}">{t}</a>' for h, t in chosen) + "</p>"
