"""The benchmark's second test web, of another make than the first (``site.py``): a regional portal of synthetic
topical articles and the real pages of ``../shared/corpus/web`` and ``misc``, other topics, other URL shapes and
other traps. It exists to check that the crawler's ordering and trap detection follow principles, not the first
web's particulars.

Everything is drawn from ``random.Random(seed)``; the text is made of a topic's own words (only a few of them in the
topic's description), words shared by several topics (ambiguous: *interest*, *stars*, *plants*, *rates*), common
English words and made-up names, so that relevance must be learned from more than the description's words.

- **Articles** (6 topics of 44-56 articles each, 150 of other subjects): four URL shapes, chosen per article
  (``/news/YYYY/MM/DD/slug/``, ``/article.php?id=N``, ``/p/N``, ``/guides/slug.html``); paragraphs with links in
  their text (anchor: the target's title, a name, or "read more" / "this piece" with the context saying what it is),
  and a "more from the portal" list drawn by a Pareto popularity. Two thirds of an article's links stay in its topic.
  A third of the topical articles' titles hold none of the topic's words.
- **Hubs**: the home page, one index per topic with a finite pagination (``/topics/SLUG/?page=N``; a third of the
  topic's articles are not listed there), tag pages (``/tag/WORD``) and a library index of the real pages
  (``/library/NAME.html``, served with their own charset; a few are topical: a recipe, ski jumping standings, credit
  rates, fishing tackle).
- **Politeness**: robots.txt disallows ``/members/`` and print views (``/*?print=``, a wildcard); both are linked
  with tempting anchors.
- **Errors**: old article URLs redirect (``/story/N`` -> 301 -> the article), and the site answers **200** for every
  path it does not have (a soft 404: "Sorry, we could not find ..."; the page echoes the path and carries the site's
  relative navigation links).
- **Traps** (every request into one counts as a trap fetch): a calendar in the path (``/events/YYYY/MM/`` and day
  pages), a day agenda with unusual parameter names (``/agenda?d=YYYYMMDD&v=day|week``), an endless "older posts"
  pagination whose pages each list new made-up posts (``/archive?page=N``), a shop whose facets are path segments
  added in any order (``/shop/color-red/size-m/``) with a sort parameter, a forum with a ``;jsessionid=`` in every
  link, a club whose links carry a visitor id under an unknown name (``?vid=``), a members' area with the session in
  a path segment (``/u/HEX/...``), help pages whose relative links resolve deeper and deeper, and per topic a
  calendar whose pages are full of the topic's own words (``/topics/SLUG/calendar/YYYY-MM``).
"""

from __future__ import annotations

import hashlib
import html
import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import parse_qs, unquote, urlsplit

from .site import Topic
from .web import Reply

__all__ = ["PortalSite", "TOPICS", "build_site", "TRAP_PREFIXES"]

CORPUS: Final = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

TOPICS: Final = (
    Topic("baking", "baking: cakes, bread, pastry and dessert recipes", ""),
    Topic("finance", "personal finance: loans, credit cards, mortgages and interest rates", ""),
    Topic("astronomy", "astronomy: planets, stars, galaxies, telescopes and eclipses", ""),
    Topic("gardening", "gardening: growing vegetables, flowers and fruit trees", ""),
    Topic("winter", "winter sports: skiing, ski jumping, biathlon and snowboarding results", ""),
    Topic("angling", "fishing: rods, reels, bait and tackle for anglers", ""),
)

LEXICON: Final = {
    "baking": "oven dough yeast flour butter sugar knead frosting sponge loaf crust icing whisk batter vanilla "
              "cinnamon muffin croissant sourdough rye glaze almond custard meringue tart pie cookie biscuit "
              "caramel chocolate cream bake baked baker bakery cake cakes bread pastry dessert recipe recipes "
              "rolling pin tin tray rise proof crumb gluten eggs",
    "finance": "loan loans credit card cards mortgage mortgages interest rate rates bank lender borrower debt "
               "repayment installment apr savings deposit account budget overdraft refinance equity collateral "
               "principal fixed variable term score lending fees broker leasing insurance pension tax income "
               "payment payments finance financial",
    "astronomy": "planet planets star stars galaxy galaxies telescope telescopes eclipse eclipses orbit moon lunar "
                 "solar comet asteroid nebula constellation observatory astronomer astronomers light year "
                 "supernova jupiter saturn mars venus mercury meteor shower sky night magnitude lens mirror "
                 "aperture astronomy cosmic spectrum",
    "gardening": "garden gardens gardening gardener soil compost seeds seedlings vegetables vegetable flowers flower "
                 "fruit trees tree pruning prune mulch weeds harvest tomato tomatoes potato beans lettuce roses "
                 "tulips bulbs greenhouse watering fertilizer orchard apple pear shrubs hedge lawn beds plants "
                 "planting grow growing",
    "winter": "ski skiing skier skiers slalom downhill jump jumping hill biathlon snowboard snowboarding "
              "snowboarder world cup podium race races season standings points snow slope piste lift alpine "
              "nordic cross country rifle shooting sprint relay medal medals results winter champion "
              "championship",
    "angling": "fishing fish angler anglers angling rod rods reel reels bait tackle hook hooks line lure lures "
               "carp trout pike salmon perch catch river lake float sinker net boat fly casting spinning "
               "leader knot pond bank bite",
}
OTHER_SUBJECTS: Final = {
    "council": "council mayor budget vote meeting road roads traffic school schools parking planning "
               "residents district committee permit street library police",
    "health": "health heart rates exercise fitness doctor clinic patients diet sleep running stress blood "
              "pressure vitamins training muscles weight",
    "tech": "software phone phones app apps update updates battery screen laptop network data cloud security "
            "device devices version users",
    "music": "concert band festival stage tickets choir orchestra album songs singer guitar jazz audience",
}
#: Words of several subjects (the first topic's sense is not the only one).
SHARED_WORDS: Final = ("interest stars plants rates bank scale record season points net line cup tips bar "
                       "crown spring fall light field course rings club pitch").split()
COMMON: Final = """time year people way day man thing woman life child world school state family student group
country problem hand part place case week company system program question work government number night point home
water room mother area money story fact month lot right study book eye job word business issue side kind head house
service friend father power hour game line end member law car city community name president team minute idea kid
body information back parent face others level office door health person art war history party result change
morning reason research girl guy moment air teacher force education say make go know take see come think look want
give use find tell ask work seem feel try leave call good new first last long great little own other old right big
high different small large next early young important few public bad same able local sure free better best true
whole clear recent special certain open private plan visit weekend report event season share rest view update note
guide list week today tomorrow yesterday morning evening start finish simple easy quick careful often always never
sometimes perhaps rather quite really almost already still again around about between during after before""".split()

_SYLLABLES: Final = "ka ren mo lin dar vel to sa mir an ho bel ta ri gus fen wil cor ad el om ber is na".split()
TRAP_PREFIXES: Final = ("/events/", "/agenda", "/archive", "/shop/", "/forum", "/club", "/u/", "/help/")


@dataclass
class PortalSite:
    """The portal: pages by path, the article paths, titles, the relevant paths of each topic."""

    __test__ = False

    pages: dict[str, Reply]
    articles: list[str]
    titles: dict[str, str]
    relevant: dict[str, set[str]] = field(default_factory=dict)
    hubs: int = 0

    @property
    def size(self) -> int:
        """Pages of the site proper: home, hubs (topic index pages, tag pages, the library index), articles and the
        real pages."""
        return 1 + self.hubs + len(self.articles)

    def serve(self, path: str, headers: Mapping[str, str]) -> Reply:
        if path in self.pages:
            return self.pages[path]
        parts = urlsplit(path)
        query = parse_qs(parts.query)
        if parts.path in self.pages and not parts.query:
            return self.pages[parts.path]
        for prefix, trap in _TRAPS:
            if parts.path.startswith(prefix):
                reply = trap(parts.path, query)
                if reply is not None:
                    return reply
        match = re.match(r"^/topics/([a-z]+)/calendar/(\d{4})-(\d{2})$", parts.path)
        if match and match.group(1) in LEXICON:
            return _topic_calendar(match.group(1), int(match.group(2)), int(match.group(3)))
        return _soft_404(parts.path)

    def is_trap(self, path: str) -> bool:
        parts = urlsplit(path)
        return parts.path.startswith(TRAP_PREFIXES) or "/calendar/" in parts.path

    def is_soft_404(self, path: str) -> bool:
        """A request for a path the site does not have (answered 200 all the same), traps aside."""
        parts = urlsplit(path)
        known = path in self.pages or (parts.path in self.pages and not parts.query)
        return not known and not self.is_trap(path) and not parts.path.startswith("/story/")

    @staticmethod
    def disallowed(path: str) -> bool:
        return path.startswith("/members/") or "?print=" in path or "&print=" in path


# -- text ----------------------------------------------------------------------------------------------------------
def _words(spec: str) -> list[str]:
    return spec.split()


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _sentence(rng: random.Random, own: list[str], share: float) -> str:
    """A sentence of 8-16 words: the subject's own words at ``share``, some shared and common words, a name."""
    out = []
    for _ in range(rng.randint(8, 16)):
        r = rng.random()
        if r < share:
            out.append(rng.choice(own))
        elif r < share + 0.04:
            out.append(rng.choice(SHARED_WORDS))
        elif r < share + 0.08:
            out.append(_name(rng))
        else:
            out.append(rng.choice(COMMON))
    return " ".join(out).capitalize() + "."


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]


def _layout(title: str, main: str, *, base_links: bool = True) -> bytes:
    """The portal's template: a header menu, the main text, a sidebar and a footer of links (boilerplate)."""
    menu = ("<nav><a href='/'>Home</a> | <a href='/topics/'>Topics</a> | <a href='/library/'>Library</a> | "
            "<a href='/events/2024/05/'>What's on</a> | <a href='/shop/'>Shop</a> | <a href='/forum;jsessionid="
            f"{hashlib.md5(title.encode()).hexdigest()[:20].upper()}'>Forum</a> | <a href='/members/login'>Log in"
            "</a></nav>") if base_links else ""
    footer = ("<footer><p>The Valley Portal: local news, guides and stories from around the region since 1998. "
              "Contact the newsroom, advertise with us, privacy policy, terms of use, accessibility. All rights "
              "reserved.</p><a href='/help/'>Help</a> <a href='/archive?page=1'>Older posts</a> "
              "<a href='/agenda?d=20240514&amp;v=day'>Agenda</a></footer>")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)} - The Valley Portal"
            f"</title></head><body><header><h1>{html.escape(title)}</h1>{menu}</header><main>{main}</main>"
            f"{footer}</body></html>").encode("utf-8")


def _page(title: str, main: str, status: int = 200) -> Reply:
    return Reply(status, _layout(title, main))


# -- traps -------------------------------------------------------------------------------------------------------
_MONTHS: Final = "January February March April May June July August September October November December".split()


def _events(path: str, query: dict[str, list[str]]) -> Reply | None:
    match = re.match(r"^/events/(\d{4})/(\d{2})/(?:(\d{2})/)?$", path)
    if not match:
        return None
    year, month = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12:
        return None
    nxt = (year + (month == 12), month % 12 + 1)
    prv = (year - (month == 1), (month - 2) % 12 + 1)
    days = " ".join(f"<a href='/events/{year}/{month:02d}/{d:02d}/'>{d}</a>" for d in range(1, 29))
    return _page(f"What's on: {_MONTHS[month - 1]} {year}",
                 f"<p>Mon Tue Wed Thu Fri Sat Sun</p><p>{days}</p><p>No events listed for this day yet. Send "
                 f"your event to the editors.</p><a href='/events/{nxt[0]}/{nxt[1]:02d}/'>Next month</a> "
                 f"<a href='/events/{prv[0]}/{prv[1]:02d}/'>Previous month</a>")


def _agenda(path: str, query: dict[str, list[str]]) -> Reply | None:
    day = query.get("d", ["20240514"])[0]
    try:
        y, m, d = int(day[:4]), int(day[4:6]), int(day[6:8])
    except ValueError:
        return None
    n = y * 372 + (m - 1) * 31 + (d - 1)
    def at(k: int) -> str:
        return f"{k // 372:04d}{k % 372 // 31 + 1:02d}{k % 31 + 1:02d}"
    view = query.get("v", ["day"])[0]
    return _page("Agenda", f"<p>Agenda for {day} ({view} view). Nothing is planned yet.</p>"
                           f"<a href='/agenda?v={view}&amp;d={at(n + 1)}'>Next day</a> "
                           f"<a href='/agenda?d={at(n - 1)}&amp;v={view}'>Previous day</a> "
                           f"<a href='/agenda?d={day}&amp;v={'week' if view == 'day' else 'day'}'>Switch view</a>")


def _archive(path: str, query: dict[str, list[str]]) -> Reply | None:
    try:
        page = int(query.get("page", ["1"])[0])
    except ValueError:
        return None
    rng = random.Random(page)
    posts = []
    for _ in range(10):
        subject = rng.choice(list(OTHER_SUBJECTS.values()) + list(LEXICON.values()))
        title = _sentence(rng, _words(subject), 0.3)[:70].rstrip(".")
        posts.append(f"<li><a href='/archive/post/{rng.getrandbits(40):010x}'>{html.escape(title)}</a></li>")
    return _page(f"Older posts, page {page}", f"<ul>{''.join(posts)}</ul><a href='/archive?page={page + 1}'>Older "
                                             f"posts</a> <a href='/archive?page={max(1, page - 1)}'>Newer posts</a>")


_FACETS: Final = {"color": ["red", "blue", "green", "black"], "size": ["s", "m", "l", "xl"],
                  "brand": ["norden", "alpina", "riverside"], "price": ["under-20", "20-50", "over-50"]}
_PRODUCTS: Final = [f"{a} {b}" for a in ("Classic", "Trail", "Compact", "Heritage", "Urban")
                    for b in ("jacket", "backpack", "mug", "scarf", "lamp", "thermos", "blanket")]


def _shop(path: str, query: dict[str, list[str]]) -> Reply | None:
    segments = [s for s in path.split("/")[2:] if s]
    chosen = dict(s.split("-", 1) for s in segments if "-" in s and s.split("-", 1)[0] in _FACETS)
    links = []
    for name, values in _FACETS.items():
        for value in values:
            if name not in chosen:
                links.append((path.rstrip("/") + f"/{name}-{value}/", f"{name}: {value}"))
    for sort in ("price", "name", "newest"):
        links.append((f"{path}?sort={sort}", f"sort by {sort}"))
    rng = random.Random(repr(sorted(chosen.items())) + repr(query.get("sort")))
    items = rng.sample(_PRODUCTS, 8)
    return _page("Shop", "<p>Filter the shop by colour, size, brand and price. " + ", ".join(items)
                 + ". Free delivery across the valley.</p>" + " ".join(f"<a href='{h}'>{t}</a>" for h, t in links))


def _forum(path: str, query: dict[str, list[str]]) -> Reply | None:
    session = hashlib.sha1(path.encode()).hexdigest()[:24].upper()
    match = re.search(r"/thread/(\d+)", path)
    body = (f"<p>Thread {match.group(1)}: members talk about the portal. Log in to reply.</p>" if match else
            "<p>Welcome to the forum. Read the threads below; log in to post.</p>")
    links = " ".join(f"<a href='/forum/thread/{n};jsessionid={session}'>Thread {n}</a>" for n in range(1, 4))
    return _page("Forum", body + links + f" <a href='/forum;jsessionid={session}'>Forum home</a>")


def _club(path: str, query: dict[str, list[str]]) -> Reply | None:
    visitor = hashlib.sha1((path + repr(query)).encode()).hexdigest()[:12]
    section = path.rstrip("/").rsplit("/", 1)[-1]
    links = " ".join(f"<a href='/club/{s}?vid={visitor}'>{s.title()}</a>" for s in ("news", "photos", "join"))
    return _page("Supporters' club", f"<p>The supporters' club pages: {section}. Members meet every month.</p>"
                                     + links)


def _members(path: str, query: dict[str, list[str]]) -> Reply | None:
    match = re.match(r"^/u/([0-9a-f]{16})/(.*)$", path)
    if not match:
        return None
    token = hashlib.sha1(path.encode()).hexdigest()[:16]
    section = match.group(2).strip("/") or "start"
    links = " ".join(f"<a href='/u/{token}/{s}'>{s.title()}</a>" for s in ("start", "profile", "messages"))
    return _page("Your page", f"<p>Your personal page: {section}. Nothing new since your last visit.</p>" + links)


def _help(path: str, query: dict[str, list[str]]) -> Reply | None:
    return _page("Help", "<p>Answers to common questions about the portal, your account and newsletters.</p>"
                         "<a href='faq/'>Questions</a> <a href='contact/'>Contact</a> <a href='../help/'>Help home</a>")


_TRAPS: Final = (("/events/", _events), ("/agenda", _agenda), ("/archive", _archive), ("/shop/", _shop),
                 ("/forum", _forum), ("/club/", _club), ("/u/", _members), ("/help/", _help))


def _topic_calendar(topic: str, year: int, month: int) -> Reply:
    own = _words(LEXICON[topic])
    nxt = f"{year + (month == 12)}-{month % 12 + 1:02d}"
    prv = f"{year - (month == 1)}-{(month - 2) % 12 + 1:02d}"
    words = " ".join(own[:12])
    return _page(f"{topic.title()} calendar: {_MONTHS[month - 1]} {year}",
                 f"<p>The {topic} calendar: {words}. No {own[0]} events yet this month; the {own[1]} and "
                 f"{own[2]} meetings are announced here.</p>"
                 f"<a href='/topics/{topic}/calendar/{nxt}'>Next month of {topic} events: {own[3]} {own[4]}</a> "
                 f"<a href='/topics/{topic}/calendar/{prv}'>Previous month of {topic} events</a>")


def _soft_404(path: str) -> Reply:
    return Reply(200, _layout("Page not found", f"<p>Sorry, we could not find {html.escape(path[:80])}. Try the "
                                                "search or one of these pages.</p><a href='about/'>About us</a> "
                                                "<a href='contact/'>Contact</a>"))


# -- building ------------------------------------------------------------------------------------------------------
def _real_pages() -> list[tuple[str, bytes, str | None, str]]:
    """The real pages: (name, bytes, charset, title)."""
    out = []
    for folder in ("web", "misc"):
        for page in sorted((CORPUS / folder).glob("*.html")):
            meta = page.with_suffix(".json")
            charset = None
            if meta.exists():
                charset = json.loads(meta.read_text(encoding="utf-8")).get("charset")
            data = page.read_bytes()
            match = re.search(rb"<title[^>]*>(.*?)</title>", data, re.S | re.I)
            title = match.group(1).decode("utf-8", "replace").strip() if match else page.stem
            out.append((page.stem, data, charset, html.unescape(" ".join(title.split()))[:90] or page.stem))
    return out


#: The real pages that are about a topic (read by us; the harness counts them as relevant).
REAL_RELEVANT: Final = {"oetker_bienenstich_recipe": "baking", "giromatch_kredit_rates": "finance",
                        "fincompare_leasing_pros_cons": "finance", "thebalance_coinbase_comparison": "finance",
                        "berkutschi_skijumping_standings": "winter", "fischhitparade_tackle_specs": "angling"}


def build_site(seed: int = 14) -> PortalSite:
    """The portal (the module docstring), the same for the same seed."""
    rng = random.Random(seed)
    subjects = [(t.name, True) for t in TOPICS for _ in range(rng.randint(44, 56))]
    subjects += [(rng.choice(list(OTHER_SUBJECTS)), False) for _ in range(150)]
    rng.shuffle(subjects)
    vocab = {**LEXICON, **OTHER_SUBJECTS}
    articles: list[dict[str, object]] = []
    used: set[str] = set()
    for i, (subject, topical) in enumerate(subjects):
        own = _words(vocab[subject])
        if topical and rng.random() < 0.33:  # a name for a title: no topic word in it
            first, second = _name(rng), _name(rng)  # drawn in this order: the test web stays the same
            kind = rng.choice(["a portrait", "the interview", "ten years on", "notes from the valley",
                               "a season diary"])
            title = f"{first} {second}: {kind}"
        else:
            title = " ".join([rng.choice(own).capitalize(), rng.choice(own), rng.choice(["and", "for", "in", "with"]),
                              rng.choice(own), rng.choice(COMMON)])
        while title in used:
            title += f" {rng.randint(2, 99)}"
        used.add(title)
        shape = rng.random()
        if shape < 0.3:
            path = f"/news/{rng.randint(2015, 2024)}/{rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/{_slug(title)}/"
        elif shape < 0.55:
            path = f"/article.php?id={1000 + i}"
        elif shape < 0.8:
            path = f"/p/{20000 + 7 * i}"
        else:
            path = f"/guides/{_slug(title)}.html"
        articles.append({"subject": subject, "topical": topical, "title": title, "path": path, "own": own})
    real = _real_pages()
    fitness = [rng.paretovariate(1.2) for _ in articles]
    by_subject: dict[str, list[int]] = {}
    for k, a in enumerate(articles):
        by_subject.setdefault(str(a["subject"]), []).append(k)
    pages: dict[str, Reply] = {}
    titles: dict[str, str] = {}
    redirects = 0

    def href(k: int) -> str:
        nonlocal redirects
        target = str(articles[k]["path"])
        if rng.random() < 0.08:
            redirects += 1
            pages[f"/story/{redirects}"] = Reply(301, b"", (("Location", target),))
            return f"/story/{redirects}"
        return target

    def popular(n: int) -> list[int]:
        return rng.choices(range(len(articles)), weights=fitness, k=n)

    for k, a in enumerate(articles):
        own = list(a["own"])  # type: ignore[call-overload]
        share = 0.22 if a["topical"] else 0.18
        paragraphs = []
        same = by_subject[str(a["subject"])]
        for _ in range(rng.randint(3, 6)):
            sentences = [_sentence(rng, own, share) for _ in range(rng.randint(2, 5))]
            if rng.random() < 0.7:
                j = rng.choice(same) if rng.random() < 0.67 else rng.randrange(len(articles))
                target = articles[j]
                style = rng.random()
                if style < 0.5:
                    anchor = str(target["title"])
                elif style < 0.75:
                    anchor = rng.choice(["read more", "this piece", "here", "our earlier story"])
                else:
                    anchor = _name(rng)
                about = " ".join(rng.choice(list(target["own"])) for _ in range(4))  # type: ignore[call-overload]
                sentences.insert(rng.randrange(len(sentences) + 1),
                                 f"On {about}, see <a href='{href(j)}'>{html.escape(anchor)}</a>.")
            paragraphs.append("<p>" + " ".join(sentences) + "</p>")
        extra = []
        if rng.random() < 0.12:
            extra.append(f"<a href='{a['path']}{'&' if '?' in str(a['path']) else '?'}print=1'>Print this "
                         f"{html.escape(str(a['title']))}</a>")
        if rng.random() < 0.06:
            extra.append(f"<a href='/members/{k}'>{html.escape(str(articles[rng.randrange(len(articles))]['title']))}"
                         "</a>")
        if rng.random() < 0.05:
            extra.append(f"<a href='/{_slug(_name(rng))}/{_slug(_name(rng))}'>{_name(rng)}</a>")  # a dead link
        if rng.random() < 0.12:
            extra.append(f"<a href='/club/news?vid={rng.getrandbits(48):012x}'>Supporters' club</a>")
        if rng.random() < 0.08:
            extra.append(f"<a href='/u/{rng.getrandbits(64):016x}/start'>Your page</a>")
        if a["topical"] and rng.random() < 0.25:
            extra.append(f"<a href='/topics/{a['subject']}/calendar/2024-0{rng.randint(1, 9)}'>{a['subject']} "
                         f"events calendar: {' '.join(own[:3])}</a>")
        if rng.random() < 0.15:
            extra.append(f"<a href='/events/{rng.randint(2016, 2024)}/{rng.randint(1, 12):02d}/'>What's on</a>")
        if rng.random() < 0.1:
            extra.append(f"<a href='/shop/{rng.choice(['color-red', 'size-m', 'brand-alpina'])}/'>Shop</a>")
        if rng.random() < 0.1 and real:
            name, _, _, rtitle = real[rng.randrange(len(real))]
            extra.append(f"<a href='/library/{name}.html'>{html.escape(rtitle)}</a>")
        more = "".join(f"<li><a href='{href(j)}'>{html.escape(str(articles[j]['title']))}</a></li>"
                       for j in dict.fromkeys(popular(3)) if j != k)
        main = "".join(paragraphs) + f"<p>{' '.join(extra)}</p><aside><h2>More from the portal</h2><ul>{more}</ul>" \
                                     "</aside>"
        pages[str(a["path"])] = _page(str(a["title"]), main)
        titles[str(a["path"])] = str(a["title"])
    hubs = 0
    topic_links = []
    for topic in TOPICS:
        listed = [k for k in by_subject[topic.name] if rng.random() < 0.67]
        per_page = 12
        count = (len(listed) + per_page - 1) // per_page
        for n in range(count):
            chunk = listed[n * per_page:(n + 1) * per_page]
            items = "".join(f"<li><a href='{articles[k]['path']}'>{html.escape(str(articles[k]['title']))}</a></li>"
                            for k in chunk)
            nav = f"<a href='/topics/{topic.name}/?page={n + 2}'>Next page</a>" if n + 1 < count else ""
            path = f"/topics/{topic.name}/" + (f"?page={n + 1}" if n else "")
            pages[path] = _page(f"{topic.name.title()}", f"<p>Stories and guides about {topic.description}.</p>"
                                                         f"<ul>{items}</ul>{nav} <a href='/topics/{topic.name}/"
                                                         f"calendar/2024-05'>{topic.name} calendar</a>")
            hubs += 1
        topic_links.append(f"<li><a href='/topics/{topic.name}/'>{topic.name.title()}</a></li>")
    for subject in OTHER_SUBJECTS:
        topic_links.append(f"<li><a href='/tag/{subject}'>{subject.title()}</a></li>")
    pages["/topics/"] = _page("Topics", f"<ul>{''.join(topic_links)}</ul>")
    hubs += 1
    tags: dict[str, list[int]] = {}
    for k, a in enumerate(articles):
        for word in rng.sample(list(a["own"]), 2) + list(OTHER_SUBJECTS if a["subject"] in OTHER_SUBJECTS else []):
            if word in OTHER_SUBJECTS and word != a["subject"]:
                continue
            tags.setdefault(word, []).append(k)
    kept = sorted(sorted(tags, key=lambda w: (-len(tags[w]), w))[:36] + list(OTHER_SUBJECTS))
    for word in kept:
        members = tags.get(word, [])
        if members:
            items = "".join(f"<li><a href='{href(k)}'>{html.escape(str(articles[k]['title']))}</a></li>"
                            for k in members[:30])
            pages[f"/tag/{word}"] = _page(f"Tagged: {word}", f"<ul>{items}</ul>")
            hubs += 1
    library = []
    real_paths = []
    for name, data, charset, rtitle in real:
        path = f"/library/{name}.html"
        ctype = f"text/html; charset={charset}" if charset else "text/html"
        pages[path] = Reply(body=data, headers=(("Content-Type", ctype),))
        titles[path] = rtitle
        real_paths.append(path)
        library.append(f"<li><a href='{path}'>{html.escape(rtitle)}</a></li>")
    pages["/library/"] = _page("Library", f"<p>Pages from around the web, kept for reference.</p><ul>"
                                          f"{''.join(library)}</ul>")
    hubs += 1
    latest = "".join(f"<li><a href='{href(k)}'>{html.escape(str(articles[k]['title']))}</a></li>"
                     for k in dict.fromkeys(popular(15)))
    pages["/"] = _page("The Valley Portal", f"<p>News, guides and stories.</p><ul>{latest}</ul>"
                                            "<a href='/topics/'>All topics</a> <a href='/library/'>Library</a> "
                                            "<a href='/club/news?vid=0a1b2c3d4e5f'>Supporters' club</a> "
                                            "<a href='/u/00112233445566ff/start'>Your page</a>")
    pages["/robots.txt"] = Reply(body=b"User-agent: *\nDisallow: /members/\nDisallow: /*?print=\n"
                                      b"Disallow: /*&print=\n", headers=(("Content-Type", "text/plain"),))
    paths = [str(a["path"]) for a in articles] + real_paths
    site = PortalSite(pages, paths, titles, hubs=hubs)
    for topic in TOPICS:
        site.relevant[topic.name] = {str(a["path"]) for a in articles if a["subject"] == topic.name}
        site.relevant[topic.name] |= {f"/library/{n}.html" for n, t in REAL_RELEVANT.items() if t == topic.name}
    return site
