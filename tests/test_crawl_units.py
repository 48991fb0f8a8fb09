"""The crawler's parts alone: each term of the ordering, the BM25F relevance, PageRank, the link classifier, URL
canonicalization and trap detection, the frontier; hypothesis for their invariants."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from warcio.archiveiterator import ArchiveIterator
from hypothesis import strategies as st

from pyxform.wings.crawl.config import CrawlConfig, Weights
from pyxform.wings.crawl.frontier import Frontier
from pyxform.wings.crawl.learning import MIN_EXAMPLES, LinkClassifier
from pyxform.wings.crawl.ordering import Candidate, Evidence, Ordering
from pyxform.wings.crawl.relevance import IDF_CAP, Topic
from pyxform.wings.crawl.store import SCHEMA
from pyxform.wings.crawl.structure import DAMPING, LinkGraph
from pyxform.wings.crawl.text import parse_page, terms
from pyxform.wings.crawl.traps import NEAR_DUPLICATES, TrapDetector, group_of, pattern_of, url_trap
from pyxform.wings.crawl.urls import canonical, host_of, in_scope, url_words

ONLY = {name: 0.0 for name in Weights.__dataclass_fields__}


def ordering(weights: dict[str, float], topic: str = "olympic medal table") -> Ordering:
    return Ordering("focused", Topic(topic), Weights(**{**ONLY, **weights}), LinkGraph(), LinkClassifier())


def candidate(url: str = "http://a.test/x", *, anchor: str = "", context: str = "", parent: float = 0.0) -> Candidate:
    c = Candidate(url, "a.test", 1, 0, url_terms=terms(url_words(url)))
    c.inlinks.append(Evidence(terms(anchor), terms(context), parent))
    return c


# -- relevance -----------------------------------------------------------------------------------------------------
def test_bm25_score_is_the_share_of_the_topic_held() -> None:
    topic = Topic("olympic medal table")
    assert topic.field_score("anchor", []) == 0.0
    one = topic.field_score("anchor", terms("Olympic"))
    two = topic.field_score("anchor", terms("Olympic medal"))
    three = topic.field_score("anchor", terms("Olympic medal table"))
    assert 0 < one < two < three < 1
    # all terms weigh the same before any page is seen (idf capped): at the same length, one term of three scores
    # a third of all three
    assert topic.field_score("anchor", terms("Olympic cooking recipes")) == pytest.approx(three / 3)
    many = topic.field_score("anchor", terms("olympic " * 50 + "medal " * 50 + "table " * 50))
    assert three < many < 1  # saturates below 1


def test_idf_from_the_pages_seen() -> None:
    topic = Topic("olympic table")
    assert topic.idf()["olymp"] == topic.idf()["tabl"] == IDF_CAP
    for _ in range(200):  # every page has a table, few are about the Olympics
        topic.add_page({"title": terms("a page"), "body": terms("a table of numbers")})
    for _ in range(5):
        topic.add_page({"title": terms("Olympic games"), "body": terms("a table")})
    idf = topic.idf()
    assert idf["olymp"] > 3 * idf["tabl"]
    assert topic.field_score("anchor", terms("Olympic")) > 3 * topic.field_score("anchor", terms("table")) > 0


def test_page_score_weights_the_title_and_normalizes_length() -> None:
    topic = Topic("olympic medal")
    topic.add_page({"title": terms("x"), "body": terms("word " * 100)})
    in_title = topic.page_score(terms("Olympic medal"), terms("word " * 100))
    in_body = topic.page_score(terms("Results"), terms("olympic medal " + "word " * 100))
    in_long_body = topic.page_score(terms("Results"), terms("olympic medal " + "word " * 2000))
    assert in_title > in_body > in_long_body > 0


def test_topic_without_words_is_refused() -> None:
    with pytest.raises(ValueError, match="no word"):
        Topic("the of and 2008")


# -- ordering terms ------------------------------------------------------------------------------------------------
def test_anchor_term() -> None:
    o = ordering({"anchor": 1.0})
    assert o.priority(candidate(anchor="Olympic medal table 2008")) > o.priority(candidate(anchor="Cooking")) == 0


def test_context_term() -> None:
    o = ordering({"context": 1.0})
    assert o.priority(candidate(anchor="more", context="the medal table of the Olympic games")) > \
        o.priority(candidate(anchor="more", context="recipes for pasta")) == 0


def test_url_term() -> None:
    o = ordering({"url": 1.0})
    assert o.priority(candidate("http://a.test/wiki/Olympic_medal_table")) > \
        o.priority(candidate("http://a.test/wiki/Pasta")) == 0


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=60))
@settings(max_examples=60, deadline=None)
def test_backlinks_term_reads_the_kept_maximum(edges: list[tuple[int, int]]) -> None:
    """B's denominator is the graph's most backlinks, kept as edges arrive (a priority costs no pass over the
    graph: a page of 100,000 new links cost 100,000 passes over 100,000 nodes)."""

    class Uniterable(list):  # type: ignore[type-arg]
        def __iter__(self):  # type: ignore[no-untyped-def]
            raise AssertionError("a pass over every node's backlinks")

    o = ordering({"backlinks": 1.0})
    for source, target in edges:
        o.graph.add_edge(f"http://a.test/{source}", f"http://a.test/{target}")
    counts = list(o.graph.backlinks)
    assert o.graph.max_backlinks == max(counts, default=0)
    o.graph.backlinks = Uniterable(counts)
    for url, node in o.graph.ids.items():
        expected = math.log1p(counts[node]) / math.log1p(max(counts)) if max(counts) else 0.0
        assert o.backlink_term(candidate(url)) == pytest.approx(expected)


def test_parent_term() -> None:
    o = ordering({"parent": 1.0})
    assert o.priority(candidate(parent=0.8)) == pytest.approx(0.8)
    assert o.priority(candidate(parent=0.1)) == pytest.approx(0.1)


def test_best_inlink_counts() -> None:
    o = ordering({"anchor": 1.0, "parent": 1.0})
    c = candidate(anchor="Cooking", parent=0.0)
    before = o.priority(c)
    o.add_evidence(c, Evidence(terms("Olympic medal table"), [], 0.9))
    assert o.priority(c) > before
    assert o.priority(c) == pytest.approx(o.link_score(c.inlinks[1]) / 2)


def test_backlinks_term() -> None:
    o = ordering({"backlinks": 1.0})
    for _ in range(10):  # pages of a.test seen: three links to one URL are no template
        o.observe_page("a.test")
    for source in ("p1", "p2", "p3"):
        o.graph.add_edge(source, "http://a.test/popular")
    o.graph.add_edge("p1", "http://a.test/rare")
    o.graph.add_edge("p1", "http://a.test/popular")  # the same link again does not count
    assert o.priority(candidate("http://a.test/popular")) == pytest.approx(1.0)
    assert o.priority(candidate("http://a.test/rare")) == pytest.approx(math.log(2) / math.log(4))
    assert o.priority(candidate("http://a.test/unknown")) == 0.0


def test_pagerank_term() -> None:
    o = ordering({"pagerank": 1.0})
    for _ in range(20):
        o.observe_page("a.test")
    for i in range(5):
        o.graph.add_edge(f"http://a.test/{i}", "http://a.test/hub")
        o.graph.add_edge("http://a.test/hub", f"http://a.test/{i}")
    o.graph.add_edge("http://a.test/0", "http://a.test/leaf")
    o.refresh_rank()
    assert o.priority(candidate("http://a.test/hub")) == pytest.approx(1.0)
    assert o.priority(candidate("http://a.test/leaf")) == 0.0


def test_template_links_get_neither_parent_nor_structure() -> None:
    o = ordering({"anchor": 1.0, "parent": 1.0, "backlinks": 1.0})
    menu, article = candidate("http://a.test/help", anchor="Help", parent=0.9), \
        candidate("http://a.test/story", anchor="Help", parent=0.9)
    for i in range(8):  # 8 pages of a.test, each with the menu link; two of them link the story
        o.observe_page("a.test")
        o.graph.add_edge(f"http://a.test/{i}", menu.url)
        if i < 2:
            o.graph.add_edge(f"http://a.test/{i}", article.url)
    assert o.is_template(menu) and not o.is_template(article)
    assert o.priority(menu) == 0.0  # its anchor is not about the topic; the page's relevance and links do not count
    assert o.priority(article) == pytest.approx((0.9 + math.log(3) / math.log(9)) / 3)
    for _ in range(10):  # more pages without the link: it is no template any more
        o.observe_page("a.test")
    assert not o.is_template(menu) and o.priority(menu) == pytest.approx((0.9 + 1.0) / 3)


def test_learned_term_gains_weight_with_evidence() -> None:
    o = ordering({"learned": 1.0})
    good, bad = candidate(anchor="Formula One Grand Prix"), candidate(anchor="Cooking pasta")
    assert o.priority(good) == o.priority(bad) == 0.0  # no confidence yet
    for _ in range(3 * MIN_EXAMPLES):
        o.classifier.learn(o.features(candidate(anchor="Grand Prix results")), True)
        o.classifier.learn(o.features(candidate(anchor="pasta recipes")), False)
    assert o.classifier.confidence == 1.0
    good.features = bad.features = None
    assert o.priority(good) > 0.7 > 0.3 > o.priority(bad)


def test_weights_combine_as_a_weighted_mean() -> None:
    o = ordering({"anchor": 2.0, "parent": 1.0, "url": 1.0})
    c = candidate("http://a.test/x", anchor="Olympic medal table", parent=0.5)
    a = o.topic.field_score("anchor", c.inlinks[0].anchor)  # type: ignore[union-attr]
    assert o.priority(c) == pytest.approx((2 * a + 0.5) / 4)
    with pytest.raises(ValueError):
        Weights(anchor=-1)


def test_baselines() -> None:
    graph = LinkGraph()
    graph.add_edge("p", "http://a.test/b")
    graph.add_edge("q", "http://a.test/b")
    backlinks = Ordering("backlinks", None, Weights(), graph, LinkClassifier())
    assert backlinks.priority(candidate("http://a.test/b")) == 2.0
    assert Ordering("bfs", None, Weights(), graph, LinkClassifier()).priority(candidate()) == 0.0
    r1, r2 = (Ordering("random", None, Weights(), graph, LinkClassifier(), seed=5) for _ in range(2))
    assert [r1.draw() for _ in range(3)] == [r2.draw() for _ in range(3)]


# -- PageRank --------------------------------------------------------------------------------------------------------
def test_pagerank_matches_the_dense_definition() -> None:
    rng = np.random.default_rng(3)
    graph = LinkGraph()
    n = 30
    edges = {(int(a), int(b)) for a, b in rng.integers(0, n, size=(90, 2)) if a != b}
    for i in range(n):
        graph.node(str(i))
    for a, b in sorted(edges):
        graph.add_edge(str(a), str(b))
    rank = graph.pagerank()
    matrix = np.zeros((n, n))
    for a, b in edges:
        matrix[b, a] = 1.0
    out = matrix.sum(axis=0)
    google = np.where(out > 0, matrix / np.where(out > 0, out, 1), 1.0 / n)  # dangling columns jump anywhere
    google = DAMPING * google + (1 - DAMPING) / n
    values, vectors = np.linalg.eig(google)
    expected = np.real(vectors[:, np.argmax(np.real(values))])
    expected /= expected.sum()
    assert np.allclose(rank, expected, atol=1e-6)
    graph.add_edge("0", "new")  # grows: recomputed, warm-started
    assert len(graph.pagerank()) == n + 1 and graph.pagerank().sum() == pytest.approx(1.0)


# -- URLs and traps ----------------------------------------------------------------------------------------------
def test_canonical() -> None:
    assert canonical("HTTP://Example.COM:80/a/../b?z=1&a=2#top") == "http://example.com/b?a=2&z=1"
    assert canonical("https://example.com:443") == "https://example.com/"
    assert canonical("http://example.com/p?PHPSESSID=abc&id=3&sid=9") == "http://example.com/p?id=3"
    assert canonical("http://example.com/p;jsessionid=A1B2?x=1") == "http://example.com/p?x=1"
    assert canonical("http://example.com/p?token=1&x=2", frozenset({"token"})) == "http://example.com/p?x=2"
    with pytest.raises(ValueError):
        canonical("ftp://example.com/")
    assert in_scope("http://sub.example.com/", frozenset(), ("example.com",))
    assert not in_scope("http://badexample.com/", frozenset(), ("example.com",))


URLS = st.builds(lambda host, path, query, fragment: f"http://{host}/{path}?{query}#{fragment}",
                 st.sampled_from(["a.test", "B.Test", "a.test:8080", "a.test:80"]),
                 st.text("abc/.%20_-~é", max_size=20), st.text("a=1&b=c;sid=%x", max_size=20),
                 st.text("xy", max_size=3))


@given(URLS)
@settings(max_examples=300, deadline=None)
def test_canonical_is_idempotent(url: str) -> None:
    once = canonical(url)
    assert canonical(once) == once


@pytest.mark.parametrize(("url", "reason"), [
    ("http://a.test/wiki/Article", None),
    ("http://a.test/2024/01/01/post", None),
    ("http://a.test/a/b/a/b/", "repeated path segments"),
    ("http://a.test/docs/docs/x", "repeated path segments"),
    ("http://a.test/x/y/x/z/x/", "repeated"),
    ("http://a.test/" + "s/" * 20, "path segments"),
    ("http://a.test/p?a=1&b=2&c=3&d=4&e=5", "query parameters"),
    ("http://a.test/" + "x" * 600, "longer than"),
])
def test_url_traps(url: str, reason: str | None) -> None:
    found = url_trap(url, max_length=512, max_query_params=4)
    assert (found is None) if reason is None else (reason in found)  # type: ignore[operator]


def test_patterns() -> None:
    assert pattern_of("http://a.test/wiki/Olympic_Games") is None
    assert pattern_of("http://a.test/cal/2024/05") == pattern_of("http://a.test/cal/1999/12") == "a.test:/cal/<n>/<n>"
    assert pattern_of("http://a.test/shop?color=red") == pattern_of("http://a.test/shop?size=s&sort=x")
    assert pattern_of("http://a.test/s/8f3a2c9e1b7d4f00/page") == "a.test:/s/<t>/page"


def test_near_duplicate_pages_stop_their_pattern() -> None:
    detector = TrapDetector()
    for i in range(10):  # near-duplicates count once the site's boilerplate is known
        detector.observe(f"http://a.test/wiki/{i}", f"Menu Home About. Article {i}: " + " ".join(
            f"w{i}x{j}" for j in range(40)) + " Footer: contact us.")
    days = " ".join(str(d) for d in range(1, 31))
    for month in range(1, 1 + NEAR_DUPLICATES + 1):
        assert detector.stopped(f"http://a.test/cal?m={month}") is None
        detector.observe(f"http://a.test/cal?m={month}", f"Calendar month {month} Mo Tu We {days} no events")
    assert "repeated an earlier one" in detector.stopped("http://a.test/cal?m=99")
    for i in range(10):  # pages of one template with their own text go on
        detector.observe(f"http://a.test/article?id={i}", " ".join(f"word{i}x{j}" for j in range(50)))
    assert detector.stopped("http://a.test/article?id=99") is None


def test_groups() -> None:
    assert group_of("http://a.test/cal?m=1") == pattern_of("http://a.test/cal?m=1")
    assert group_of("http://a.test/archive/section/older/") == group_of("http://a.test/archive/x") == \
        "a.test:/archive/**"
    assert group_of("http://a.test/about") is None and group_of("http://a.test/") is None


MENU = " ".join(f"menu{j} item{j}" for j in range(150))  # a site's navigation: far more text than a page's own


def test_boilerplate_does_not_make_pages_similar() -> None:
    detector = TrapDetector()
    for url in ("http://a.test/", "http://a.test/news/today", "http://a.test/help/faq"):  # the menu on every section
        detector.observe(url, f"{MENU} {url}")
    for i in range(12):
        detector.observe(f"http://a.test/product/{i}", f"{MENU} Product {i}: " + " ".join(f"p{i}w{j}"
                                                                                         for j in range(12)))
    assert detector.stopped("http://a.test/product/99") is None
    assert detector.groups["a.test:/product/<n>"].similar == 0
    # the same pages without a site around them: the menu is their own template, and they are near-duplicates
    alone = TrapDetector()
    for i in range(3):
        alone.observe(f"http://a.test/product/{i}", f"{MENU} Product {i}: " + " ".join(f"p{i}w{j}" for j in range(12)))
    assert alone.stopped("http://a.test/product/99") is not None


def test_a_few_duplicates_among_many_pages_do_not_stop_a_group() -> None:
    detector = TrapDetector()
    for i in range(12):
        detector.observe(f"http://a.test/wiki/A{i}", " ".join(f"a{i}w{j}" for j in range(40)))
    detector.observe("http://a.test/wiki/Alias_1", " ".join(f"a1w{j}" for j in range(40)))  # the same text
    detector.observe("http://a.test/wiki/Alias_2", " ".join(f"a2w{j}" for j in range(40)))
    assert detector.groups["a.test:/wiki/**"].same == 2
    assert detector.stopped("http://a.test/wiki/B") is None


def test_exact_duplicates_and_session_parameters_learned() -> None:
    detector = TrapDetector()
    assert detector.observe("http://a.test/p?id=1&visit=a81", "the same text") is None
    assert detector.observe("http://a.test/p?id=1&visit=77c", "the same text") == "http://a.test/p?id=1&visit=a81"
    assert detector.ignored_parameters("a.test") == {"visit"}
    assert canonical("http://a.test/p?visit=x&id=1", detector.ignored_parameters("a.test")) == "http://a.test/p?id=1"


# -- text --------------------------------------------------------------------------------------------------------------
def test_links_anchor_and_context() -> None:
    page = (b"<html><head><title>T</title><base href='http://b.test/dir/'></head><body>"
            b"<p>Before words here <a href='x' title='Olympic'>medal table</a> after words there.</p>"
            b"<a href='mailto:a@b'>mail</a><a href='javascript:x()'>js</a><script>var a='<a href=/s>'</script>"
            b"</body></html>")
    parsed = parse_page(page, "http://a.test/", "text/html; charset=utf-8")
    (link,) = parsed.links
    assert link.url == "http://b.test/dir/x"
    assert link.anchor == "medal table Olympic"
    assert link.context == "Before words here after words there."
    assert parsed.title == "T" and parsed.follow


def test_link_context_is_found_without_a_scan_per_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block of many links whose anchors share their first words (a long list: "olympic medal 1", ...): each
    link's context is found from its rarest word, not by trying every place of its first word (N * N token
    comparisons: a page of 100,000 such links held the crawl for an hour)."""
    from pyxform.wings.crawl import text as text_module

    slices = 0

    class Counting(list):  # type: ignore[type-arg]
        def __getitem__(self, index):  # type: ignore[no-untyped-def]
            nonlocal slices
            slices += isinstance(index, slice)
            return super().__getitem__(index)

    block_init = text_module._Block.__init__

    def counting_init(self, text: str) -> None:  # type: ignore[no-untyped-def]
        block_init(self, text)
        self.tokens = Counting(self.tokens)

    monkeypatch.setattr(text_module._Block, "__init__", counting_init)
    n = 3000
    page = ("<html><body><p>" + " ".join(f'<a href="/l{i}">olympic medal {i}</a>' for i in range(n))
            + "</p></body></html>").encode()
    parsed = parse_page(page, "http://a.test/", "text/html")
    tokens = " ".join(f"olympic medal {i}" for i in range(n)).split()
    assert len(parsed.links) == n
    for i in (0, 1500, n - 1):
        start = 3 * i
        assert parsed.links[i].context == " ".join(tokens[max(0, start - 10):start] + tokens[start + 3:start + 13])
    assert slices <= 5 * n


def test_charset_from_the_headers() -> None:
    body = "<html><body><a href='/c'>café</a></body></html>".encode("latin-1")
    assert parse_page(body, "http://a.test/", "text/html; charset=iso-8859-1").links[0].anchor == "café"


# -- frontier ---------------------------------------------------------------------------------------------------------
@given(st.lists(st.tuples(st.sampled_from(["a.test", "b.test", "c.test"]), st.integers(0, 30),
                          st.floats(0, 1)), max_size=80),
       st.lists(st.booleans(), max_size=40))
@settings(max_examples=80, deadline=None)
def test_frontier_never_yields_a_url_twice(additions: list[tuple[str, int, float]], eligible: list[bool]) -> None:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    o = ordering({"parent": 1.0})
    frontier = Frontier(db, o)
    yielded = []
    for i, (host, n, parent) in enumerate(additions):
        url = f"http://{host}/{n}"
        c = Candidate(url, host, 0, frontier.next_order())
        c.inlinks.append(Evidence([], [], parent))
        if not frontier.add(c) and url in frontier.queued:
            o.add_evidence(frontier.queued[url], Evidence([], [], parent))
            frontier.update(frontier.queued[url])
        if i < len(eligible):
            taken = frontier.pick(lambda h, ok=eligible[i]: ok or h == "a.test")
            if taken is not None:
                yielded.append(taken.url)
    while (taken := frontier.pick(lambda h: True)) is not None:
        yielded.append(taken.url)
    assert len(yielded) == len(set(yielded)) == len({f"http://{h}/{n}" for h, n, _ in additions})


def test_frontier_takes_the_best_first() -> None:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    frontier = Frontier(db, ordering({"parent": 1.0}))
    for i, parent in enumerate([0.2, 0.9, 0.5]):
        c = Candidate(f"http://a.test/{i}", "a.test", 0, frontier.next_order())
        c.inlinks.append(Evidence([], [], parent))
        frontier.add(c)
    assert [frontier.pick(lambda h: True).url for _ in range(3)] == [  # type: ignore[union-attr]
        "http://a.test/1", "http://a.test/2", "http://a.test/0"]


def test_config_checks() -> None:
    base = CrawlConfig(seeds=("http://a.test/",), topic="olympic medals", out="o", max_pages=1)
    with pytest.raises(ValueError, match="needs a topic"):
        replace(base, topic=" ")
    with pytest.raises(ValueError, match="ordering"):
        replace(base, ordering="best")  # type: ignore[arg-type]
    assert replace(base, ordering="bfs", topic="").ordering == "bfs"
    for name in ("delay", "backoff"):
        with pytest.raises(ValueError, match=f"{name} must be a finite number"):
            replace(base, **{name: float("inf")})


# -- store: the WARC file read back after a kill ---------------------------------------------------------------------
def _store_with_exchanges(tmp_path, n: int):  # type: ignore[no-untyped-def]
    from pyxform.wings.crawl.store import Store

    store = Store(tmp_path)
    store.open_warc(1, {"software": "test"})
    bodies = [(f"<html><body>page {i} " + "word " * (300 + 40 * i) + "</body></html>").encode() for i in range(n)]
    places = [store.write_exchange(i + 1, f"http://a.test/{i}", f"GET /{i} HTTP/1.1", [("Host", "a.test")],
                                   "200 OK", [("Content-Type", "text/html")], body) for i, body in enumerate(bodies)]
    return store, bodies, places


def test_scan_responses_gives_each_response_at_its_place(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store, bodies, places = _store_with_exchanges(tmp_path, 4)
    found = store.scan_responses(store.warc_name, places[1][0])
    assert [(r.fetch_id, r.offset, r.body) for r in found] == [(i + 1, places[i][0], bodies[i]) for i in (1, 2, 3)]
    for response in found:  # what the converter reads back from the same place
        assert store.read_response(store.warc_name, response.offset).body == response.body  # type: ignore[union-attr]


@pytest.mark.parametrize("keep", [0.02, 0.5, 0.98])
def test_scan_responses_cuts_a_partial_record_off(tmp_path, keep: float) -> None:  # type: ignore[no-untyped-def]
    store, bodies, places = _store_with_exchanges(tmp_path, 4)
    store.close()
    path = tmp_path / store.warc_name
    data = path.read_bytes()
    offset, length = places[3]
    path.write_bytes(data[:offset + int(keep * length)])  # a kill while the last response was written
    found = store.scan_responses(store.warc_name, places[2][0])
    assert [r.fetch_id for r in found] == [3]  # the cut response is not taken for a whole one
    assert path.stat().st_size == offset  # the partial record is gone, the exchange before it is whole
    with open(path, "rb") as stream:
        kinds = [record.rec_type for record in ArchiveIterator(stream)]
    assert kinds == ["warcinfo"] + ["response", "request"] * 3


def test_scan_responses_keeps_a_whole_response_whose_request_was_cut(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store, bodies, places = _store_with_exchanges(tmp_path, 2)
    store.close()
    path = tmp_path / store.warc_name
    offset, length = places[1]
    path.write_bytes(path.read_bytes()[:offset + length + 40])
    found = store.scan_responses(store.warc_name, places[1][0])
    assert [(r.fetch_id, r.body, r.offset, r.length) for r in found] == [(2, bodies[1], offset, length)]
    assert path.stat().st_size == offset + length


# -- the crawl folder -------------------------------------------------------------------------------------------------
def _config(out, **options):  # type: ignore[no-untyped-def]
    return CrawlConfig(**{"seeds": ("http://a.test/",), "topic": "olympic medals", "out": str(out), "max_pages": 5,
                          **options})


def test_a_folder_of_another_format_or_another_program_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pyxform.base.errors import CrawlStateError
    from pyxform.wings.crawl import crawl

    old = tmp_path / "old"
    old.mkdir()
    db = sqlite3.connect(old / "crawl.sqlite")
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("format", "0"), ("seeds", '["http://a.test/"]'),
                                                      ("topic", '"olympic medals"')])
    db.commit()
    db.close()
    with pytest.raises(CrawlStateError, match="format 0.*--restart"):
        crawl(_config(old), handle_signals=False)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    db = sqlite3.connect(foreign / "crawl.sqlite")
    db.execute("CREATE TABLE accounts (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(CrawlStateError, match="not a crawl database"):
        crawl(_config(foreign), handle_signals=False)
    db = sqlite3.connect(foreign / "crawl.sqlite")
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("accounts",)]  # left as it was
    db.close()


def test_a_folder_that_is_a_file_is_an_output_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pyxform.base.errors import OutputError
    from pyxform.wings.crawl import crawl

    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub"):
        with pytest.raises(OutputError, match="cannot use the crawl folder"):
            crawl(_config(out), handle_signals=False)


def _site_pages(detector: TrapDetector) -> None:
    """Pages of three sections and the home page, with the site's menu and footer: its boilerplate."""
    for url in ("http://a.test/", "http://a.test/news/a", "http://a.test/help/b", "http://a.test/shop/c"):
        detector.observe(url, f"Menu Home News Shop Help. {url} " + " ".join(f"{url[-1]}w{j}" for j in range(30))
                         + " Footer contact us privacy terms all rights reserved.")


def test_pages_under_a_stopped_pattern_are_stopped() -> None:
    detector = TrapDetector()
    days = " ".join(str(d) for d in range(1, 29))
    for month in (1, 2, 3):
        detector.observe(f"http://a.test/events/2024/{month:02d}/", f"What's on in month {month}: {days} no events")
    assert detector.stopped("http://a.test/events/2024/04/") is not None
    assert detector.stopped("http://a.test/events/2024/04/15/") is not None  # a day view of the stopped months
    assert detector.stopped("http://a.test/events/highlights") is None  # the section's other pages go on


def test_a_few_similar_stubs_do_not_stop_a_pattern_of_articles() -> None:
    detector = TrapDetector()
    for i in range(30):
        detector.observe(f"http://a.test/article?id={i}", " ".join(f"a{i}w{j}" for j in range(60)))
        if i in (10, 20):  # two stubs of one template among them
            for k in (0, 1):
                detector.observe(f"http://a.test/article?id={i}{k}", f"Village {i}{k}: this article is a stub "
                                 "about a village; you can help by expanding it with sources and more text")
    assert detector.groups["a.test:/article?"].similar == 3
    assert detector.stopped("http://a.test/article?id=99") is None


def test_a_page_with_no_text_of_its_own_repeats_even_in_a_young_section() -> None:
    detector = TrapDetector()
    _site_pages(detector)
    outcomes = []
    for path in ("/gone/x", "/lost/y", "/missing/z", "/gone/x/about/", "/gone/x/contact/"):  # a soft 404
        detector.observe(f"http://a.test{path}", f"Menu Home News Shop Help. Sorry, the page {path} was not "
                         "found. Footer contact us privacy terms all rights reserved.")
        outcomes.append(detector.last_near_duplicate)
    assert outcomes[3:] == ["similar", "similar"]  # once its own words are known as the site's (three groups)
    assert detector.stopped("http://a.test/gone/x/about/contact/") is not None


def test_replay_restores_the_same_state() -> None:
    from pyxform.wings.crawl.traps import fingerprint, pack_print, text_digest, unpack_print

    pages = [(f"http://a.test/cal?m={m}", f"Calendar month {m} " + " ".join(str(d) for d in range(1, 29)))
             for m in range(1, 3)] + [(f"http://a.test/wiki/{i}", " ".join(f"w{i}x{j}" for j in range(40)))
                                     for i in range(12)] + [("http://a.test/p?id=1&visit=9", "the same text"),
                                                           ("http://a.test/p?id=1&visit=7", "the same text")]
    live, replayed = TrapDetector(), TrapDetector()
    for url, text in pages:
        live.observe(url, text)
        mark = unpack_print(pack_print(fingerprint(text)))
        assert mark == fingerprint(text)
        replayed.replay(url, text_digest(text), mark)
    assert replayed.groups == live.groups and replayed.ignored == live.ignored == {"a.test": {"visit"}}
    text = "Calendar month 3 " + " ".join(str(d) for d in range(1, 29))
    live.observe("http://a.test/cal?m=3", text)
    replayed.observe("http://a.test/cal?m=3", text)
    assert live.stopped("http://a.test/cal?m=4") is not None and replayed.stopped("http://a.test/cal?m=4") is not None


def test_retry_after_values() -> None:
    from pyxform.wings.crawl.fetcher import retry_after

    now = 1_700_000_000.0  # 2023-11-14T22:13:20Z
    assert retry_after("120", now) == 120.0
    assert retry_after("Tue, 14 Nov 2023 22:14:20 GMT", now) == pytest.approx(60.0)
    assert retry_after("Tue, 14 Nov 2023 22:00:00 GMT", now) == 0.0  # in the past: no wait
    assert retry_after("soon", now) is None and retry_after("", now) is None and retry_after(None, now) is None
    assert retry_after("-5", now) is None


@pytest.mark.parametrize("url", ["http://Bücher.test/a", "HTTP://BÜCHER.test:80/b", "http://xn--bcher-kva.test./c",
                                 "http://[::1]:8080/e"])
def test_link_host_is_the_canonical_host(url: str) -> None:
    from pyxform.wings.crawl.urls import link_host

    expected = "::1" if "[" in url else "xn--bcher-kva.test"
    assert link_host(url) == host_of(canonical(url)) == expected


@pytest.mark.parametrize(("args", "code", "message"), [
    (["notaurl", "--topic", "olympic"], 2, "seed 'notaurl': not an absolute http(s) URL"),
    (["ftp://a.test/", "--topic", "olympic"], 2, "not an absolute http(s) URL"),
    (["http://a.test/", "--topic", "the of and"], 2, "has no word to look for"),
    (["http://a.test/"], 2, "the focused ordering needs a topic"),
    (["http://a.test/", "--topic", "olympic", "--delay", "-1"], 2, "--delay: must be 0 or more"),
    # an endless delay would hold the crawl after its first answer
    (["http://a.test/", "--topic", "olympic", "--delay", "inf"], 2, "--delay: must be a finite number"),
    (["http://a.test/", "--topic", "olympic", "--delay", "nan"], 2, "--delay: must be"),
])
def test_command_line_usage_errors(tmp_path, capsys, args: list[str], code: int,  # type: ignore[no-untyped-def]
                                   message: str) -> None:
    from pyxform.cli.main import main

    with pytest.raises(SystemExit) as stop:  # argparse's way: usage and message on standard error
        main(["crawl", *args, "--max-pages", "3", "--out", str(tmp_path / "c")])
    assert stop.value.code == code
    assert message in capsys.readouterr().err
    assert not (tmp_path / "c").exists()  # nothing was made
