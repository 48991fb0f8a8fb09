"""pyxform crawl against test webs served on 127.0.0.1 by the tests themselves; every politeness and budget check
reads the server's own log (bench/crawl_eval/web.py), never the crawler's records."""

from __future__ import annotations

import calendar
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from bench.crawl_eval.web import Reply, TestWeb, html_page, static_site
from pyxform.base.errors import CrawlStateError
from pyxform.base.limits import DEFAULT_LIMITS
from pyxform.wings.crawl import CrawlConfig, crawl
from pyxform.wings.crawl import crawler as crawler_module

ROOT = Path(__file__).resolve().parent.parent
TEXT = (("Content-Type", "text/plain"),)
ROBOTS = Reply(body=b"User-agent: *\nDisallow: /private\n", headers=TEXT)


def run(web: TestWeb, out: Path, **options: object) -> object:
    settings = {"seeds": (web.url + "/",), "topic": "olympic medals", "out": str(out), "max_pages": 100,
                "delay": 0.0, "allow_private": True, "convert": False, **options}
    return crawl(CrawlConfig(**settings), handle_signals=False)  # type: ignore[arg-type]


def rows(out: Path, sql: str, *args: object) -> list[tuple]:
    db = sqlite3.connect(out / "crawl.sqlite")
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def page_requests(web: TestWeb) -> list[str]:
    return [p for p in web.paths() if p != "/robots.txt"]


def chain_site(n: int, extra: Mapping[str, Reply] | None = None) -> dict[str, Reply]:
    """A home page linking n pages, each linking the next two."""
    pages = {"/robots.txt": ROBOTS, "/": html_page("Home", "index", {f"/p{i}": f"page {i}" for i in range(0, n, 7)})}
    for i in range(n):
        pages[f"/p{i}"] = html_page(f"Page {i}", "olympic medal" if i % 2 else "cooking",
                                    {f"/p{(i + 1) % n}": "next", f"/p{(i + 2) % n}": "after next"})
    pages.update(extra or {})
    return pages


# -- politeness ------------------------------------------------------------------------------------------------------
def test_robots_txt_first_and_obeyed(tmp_path: Path) -> None:
    site = chain_site(10, {"/": html_page("Home", "", {"/private/a": "olympic medals", "/p1": "x",
                                                         "/private": "olympic"})})
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path)
    assert web.paths()[0] == "/robots.txt"
    assert web.paths().count("/robots.txt") == 1
    assert not [p for p in web.paths() if p.startswith("/private")]
    states = dict(rows(tmp_path, "SELECT url, state FROM frontier"))
    assert states[web.url + "/private/a"] == "robots"
    assert all(hit.agent.startswith("pyxform/") for hit in web.log)


def test_delay_obeyed(tmp_path: Path) -> None:
    with TestWeb(static_site(chain_site(8))) as web:
        run(web, tmp_path, delay=0.25, concurrency=4)
    assert len(web.log) >= 9
    assert web.shortest_gap() >= 0.25


def test_delay_obeyed_across_host_names_of_one_server(tmp_path: Path) -> None:
    """Two names of one server (127.0.0.1 and localhost) are two hosts but one address: the server never sees two
    requests closer than the delay, whatever name they were for."""
    if socket.getaddrinfo("localhost", 80, type=socket.SOCK_STREAM)[0][4][0] != "127.0.0.1":
        pytest.skip("localhost does not resolve to 127.0.0.1 first here")
    with TestWeb(static_site(chain_site(8))) as web:
        other = web.url.replace("127.0.0.1", "localhost")
        run(web, tmp_path, delay=0.2, concurrency=4, seeds=(web.url + "/", other + "/"))
    assert {hit.host.split(":")[0] for hit in web.log} == {"127.0.0.1", "localhost"}
    arrivals = sorted(hit.time for hit in web.log)
    assert len(arrivals) >= 10 and min(b - a for a, b in zip(arrivals, arrivals[1:])) >= 0.2


def test_crawl_delay_of_robots_txt_wins(tmp_path: Path) -> None:
    robots = Reply(body=b"User-agent: pyxform\nCrawl-delay: 0.4\n\nUser-agent: *\nDisallow: /\n", headers=TEXT)
    with TestWeb(static_site(chain_site(4, {"/robots.txt": robots}))) as web:
        run(web, tmp_path, delay=0.05, max_pages=4)
    assert len(page_requests(web)) == 4  # the group for pyxform allows everything
    assert web.shortest_gap() >= 0.4


def test_crawl_delay_longer_than_a_crawl_waits_sets_the_origin_aside(tmp_path: Path) -> None:
    """A Crawl-delay of a day would hold the crawl for days: the origin's URLs are set aside with the reason, and the
    crawl ends (the other hosts go on)."""
    robots = Reply(body=b"User-agent: *\nCrawl-delay: 86400\nDisallow: /private\n", headers=TEXT)
    with TestWeb(static_site(chain_site(4, {"/robots.txt": robots}))) as web:
        finished: list[object] = []
        worker = threading.Thread(target=lambda: finished.append(run(web, tmp_path)), daemon=True)
        worker.start()
        worker.join(600)  # a regression waits a day: the test fails instead of hanging
    assert finished, "the crawl waited for the Crawl-delay"
    assert web.paths() == ["/robots.txt"]
    ((state, reason),) = rows(tmp_path, "SELECT state, reason FROM frontier")
    assert state == "robots" and "Crawl-delay" in reason and "86400" in reason


def test_robots_txt_that_never_answers_disallows(tmp_path: Path) -> None:
    limits = replace(DEFAULT_LIMITS, fetch_timeout=0.5)
    with TestWeb(static_site(chain_site(3, {"/robots.txt": Reply(body=b"", delay=2.0)}))) as web:
        run(web, tmp_path, limits=limits, retries=0)
    assert web.paths() == ["/robots.txt"]
    (reason,) = rows(tmp_path, "SELECT reason FROM frontier")
    assert "robots.txt" in reason[0] and "within 0.5 s" in reason[0]


def test_robots_txt_unavailable_disallows_and_missing_allows(tmp_path: Path) -> None:
    with TestWeb(static_site(chain_site(3, {"/robots.txt": Reply(503, b"busy")}))) as web:
        run(web, tmp_path / "a", backoff=0.05)
    assert web.paths() == ["/robots.txt"] * 3  # tried again twice (--retries), then everything is disallowed
    assert rows(tmp_path / "a", "SELECT state FROM frontier") == [("robots",)]
    with TestWeb(static_site(chain_site(3, {"/robots.txt": Reply(404, b"none")}))) as web:
        run(web, tmp_path / "b")
    assert len(page_requests(web)) == 4


@pytest.mark.parametrize(("robots", "private"), [
    # an HTML page as robots.txt has no rules: everything is allowed
    (Reply(body=b"<!DOCTYPE html><html><body><h1>Welcome</h1><p>Disallow: /private</p></body></html>"), True),
    # 2 MB of robots.txt: its first 500 KiB are read (the rule is there)
    (Reply(body=b"User-agent: *\nDisallow: /private\n" + b"# padding\n" * 200_000, headers=TEXT), False),
    # a byte order mark before the first line (as some editors save it): the rules still hold
    (Reply(body=b"\xef\xbb\xbfUser-agent: *\nDisallow: /private\n", headers=TEXT), False),
])
def test_hostile_robots_txt(tmp_path: Path, robots: Reply, private: bool) -> None:
    site = chain_site(5, {"/robots.txt": robots, "/": html_page("Home", "", {"/p0": "a", "/private/x": "b"})})
    with TestWeb(static_site(site)) as web:
        summary = run(web, tmp_path)
    assert summary.stats.pages == 6  # type: ignore[attr-defined]
    assert web.paths()[0] == "/robots.txt"
    assert ("/private/x" in web.paths()) == private


def test_private_addresses_refused_without_the_option(tmp_path: Path) -> None:
    with TestWeb(static_site(chain_site(3))) as web:
        summary = run(web, tmp_path, allow_private=False)
        summary_localhost = run(web, tmp_path / "b", allow_private=False,
                                seeds=(web.url.replace("127.0.0.1", "localhost") + "/",))
    assert web.log == []
    for folder, result in ((tmp_path, summary), (tmp_path / "b", summary_localhost)):
        (failure,) = rows(folder, "SELECT failure FROM pages")
        assert "forbidden-address" in failure[0] and "private" in failure[0]
        assert result.stats.fetches == 0  # type: ignore[attr-defined]


def test_retry_after_pauses_the_host(tmp_path: Path) -> None:
    """429 and 503 ask the crawler to slow down: the host gets no request before Retry-After (seconds or an HTTP
    date), then the URL is tried again; a Retry-After beyond what a crawl waits fails the URL at once."""
    calls = Counter[str]()

    def site(path: str, headers: Mapping[str, str]) -> Reply:
        calls[path] += 1
        if path == "/busy" and calls[path] == 1:
            return Reply(429, b"slow down", (("Retry-After", "1"),))
        if path == "/later" and calls[path] == 1:
            date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 2))
            return Reply(503, b"maintenance", (("Retry-After", date),))
        if path == "/never":
            return Reply(503, b"closed", (("Retry-After", "86400"),))
        return static_site(chain_site(3, {"/": html_page("Home", "", {"/busy": "a", "/later": "b", "/never": "c",
                                                                       "/p0": "d", "/p1": "e"})}))(path, headers)

    with TestWeb(site) as web:
        run(web, tmp_path, ordering="bfs", backoff=0.0)
    log = [(hit.path, hit.time) for hit in web.log]
    gap_after: dict[str, float] = {}  # from a path's first request to the host's next request
    for (path, a), (_, b) in zip(log, log[1:]):
        gap_after.setdefault(path, b - a)
    assert gap_after["/busy"] >= 1.0  # the whole host waited the second it asked for
    assert gap_after["/later"] >= 1.0  # the date said 2 s from then (whole seconds: at least 1 s)
    assert calls["/busy"] == 2 and calls["/later"] == 2 and calls["/never"] == 1
    failures = dict(rows(tmp_path, "SELECT url, failure FROM pages WHERE failure IS NOT NULL"))
    assert "Retry-After" in failures[web.url + "/never"] and "503" in failures[web.url + "/never"]


def test_robots_txt_unavailable_for_a_moment_is_tried_again(tmp_path: Path) -> None:
    calls = Counter[str]()

    def site(path: str, headers: Mapping[str, str]) -> Reply:
        calls[path] += 1
        if path == "/robots.txt" and calls[path] == 1:
            return Reply(503, b"busy")
        if path == "/robots.txt" and calls[path] == 2:
            return Reply(429, b"slow down")
        return static_site(chain_site(3))(path, headers)

    with TestWeb(site) as web:
        run(web, tmp_path, backoff=0.05)
    assert web.paths()[:3] == ["/robots.txt"] * 3
    assert "/private" not in " ".join(web.paths()) and len(page_requests(web)) == 4


def test_an_overloaded_answer_during_a_graceful_stop_is_tried_on_resume(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A 503 that arrives while the crawl stops (SIGTERM) leaves its URL queued, its try counted: the resume tries it
    again (a graceful stop loses nothing) instead of finding it failed."""
    stopped = threading.Event()
    signal_handler = crawler_module._Crawler._signal

    def signal_and_tell(self: object) -> None:
        signal_handler(self)  # type: ignore[arg-type]
        stopped.set()

    monkeypatch.setattr(crawler_module._Crawler, "_signal", signal_and_tell)
    calls = Counter[str]()

    def site(path: str, headers: Mapping[str, str]) -> Reply:
        calls[path] += 1
        if path == "/flaky" and calls[path] == 1:
            os.kill(os.getpid(), signal.SIGTERM)
            stopped.wait(120)  # the crawl has seen the signal before this answer reaches it
            return Reply(503, b"busy")
        return static_site(chain_site(3, {"/": html_page("Home", "", {"/flaky": "olympic medals", "/p0": "a"}),
                                          "/flaky": html_page("Medals", "olympic medals")}))(path, headers)

    with TestWeb(site) as web:
        first = crawl(CrawlConfig(seeds=(web.url + "/",), topic="olympic medals", out=str(tmp_path), max_pages=100,
                                  delay=0.0, allow_private=True, convert=False, backoff=0.0), handle_signals=True)
        assert stopped.is_set() and first.ended == "interrupted"
        assert rows(tmp_path, "SELECT state, attempts FROM frontier WHERE url = ?", web.url + "/flaky") == \
            [("queued", 1)]
        second = run(web, tmp_path, backoff=0.0)
    assert second.resumed and second.ended == "done"  # type: ignore[attr-defined]
    assert calls["/flaky"] == 2
    assert rows(tmp_path, "SELECT status, failure FROM pages WHERE url = ?", web.url + "/flaky") == [(200, None)]


def test_a_warc_file_cut_by_hand_is_said_on_resume_and_the_crawl_goes_on(tmp_path: Path) -> None:
    site = static_site(chain_site(8, {"/": html_page("Home", "olympic medals", {"/p0": "olympic medals"})}))
    with TestWeb(site) as web:
        first = run(web, tmp_path, max_pages=5)
        assert first.notes == ()  # type: ignore[attr-defined]
        (name, middle), = rows(tmp_path, "SELECT warc_file, MAX(warc_offset) FROM pages WHERE warc_file IS NOT NULL "
                                         "GROUP BY warc_file")
        lost = rows(tmp_path, "SELECT COUNT(*) FROM pages WHERE warc_offset + warc_length > ?", middle)[0][0]
        with open(tmp_path / name, "r+b") as warc:
            warc.truncate(middle)  # the last recorded page's response and what follows are gone
        second = run(web, tmp_path, max_pages=8)
    assert second.resumed and second.notes == (  # type: ignore[attr-defined]
        f"{name} ends at byte {middle}: the response records of {lost} page(s) the crawl recorded are no longer in "
        "it (the file was cut or removed); their rows and XML stay, they are not fetched again",)
    assert lost >= 1
    assert rows(tmp_path, "SELECT COUNT(*), COUNT(DISTINCT url) FROM fetches WHERE kind = 'page'")[0] == (8, 8)


def test_nofollow_of_meta_tags_and_x_robots_tag(tmp_path: Path) -> None:
    """A page's links are not followed when its meta robots (or meta pyxform) says nofollow or none, or its
    X-Robots-Tag header does (for every crawler or for pyxform); a directive for another crawler does not count."""
    def page(title: str, target: str, meta: str = "", headers: tuple[tuple[str, str], ...] = ()) -> Reply:
        body = html_page(title, "olympic medals", {target: "olympic medals"}).body
        return Reply(body=body.replace(b"<head>", f"<head>{meta}".encode()),
                     headers=(("Content-Type", "text/html; charset=utf-8"), *headers))

    cases = {  # page -> (its reply, whether its link is followed)
        "/meta-robots": (page("a", "/t1", '<meta name="robots" content="noindex, nofollow">'), False),
        "/meta-none": (page("b", "/t2", '<meta name="ROBOTS" content="none">'), False),
        "/meta-ours": (page("c", "/t3", '<meta name="pyxform" content="nofollow">'), False),
        "/meta-other": (page("d", "/t4", '<meta name="googlebot" content="nofollow">'), True),
        "/header": (page("e", "/t5", headers=(("X-Robots-Tag", "noarchive, nofollow"),)), False),
        "/header-ours": (page("f", "/t6", headers=(("X-Robots-Tag", "PyXform: none"),)), False),
        "/header-other": (page("g", "/t7", headers=(("X-Robots-Tag", "googlebot: nofollow"),
                                                    ("X-Robots-Tag", "unavailable_after: 25 Jun 2030 15:00:00 GMT"))),
                          True),
    }
    site = {"/robots.txt": ROBOTS, "/": html_page("Home", "", {path: "olympic" for path in cases}),
            **{path: reply for path, (reply, _) in cases.items()},
            **{f"/t{i}": html_page(f"t{i}", "olympic medals") for i in range(1, 8)}}
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path)
    requests = set(web.paths())
    assert set(cases) <= requests
    assert {path: f"/t{i}" in requests for i, path in enumerate(cases, 1)} == {p: c[1] for p, c in cases.items()}


def test_meta_refresh_is_followed_as_a_link(tmp_path: Path) -> None:
    """A page that sends the browser on with ``<meta http-equiv="refresh">`` (a home page that only redirects, as
    many sites have) leads the crawl to its target, checked and queued like any link."""
    def refresh(content: str) -> Reply:
        return Reply(body=f'<html><head><meta http-equiv="Refresh" content="{content}"></head><body></body></html>'
                     .encode())

    site = chain_site(3, {"/": refresh("0; URL='/home'"), "/home": html_page("Home", "", {"/p0": "a", "/p2": "b"}),
                          "/p0": refresh("5;url=/p1"), "/p1": refresh("3"), "/p2": refresh("0; url=/private/x")})
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path)
    requests = page_requests(web)
    assert sorted(requests) == ["/", "/home", "/p0", "/p1", "/p2"]  # /private/x: robots.txt disallows it
    links = {(source.removeprefix(web.url), target.removeprefix(web.url)) for source, target in
             rows(tmp_path, "SELECT pages.url, target FROM links JOIN pages ON pages.id = links.source")}
    assert {("/", "/home"), ("/p0", "/p1"), ("/p2", "/private/x")} <= links
    assert not [target for source, target in links if source == "/p1"]  # a refresh without a URL leads nowhere


# -- budgets, redirects, errors --------------------------------------------------------------------------------------
def test_max_pages_counts_every_fetch(tmp_path: Path) -> None:
    calls = Counter[str]()

    def site(path: str, headers: Mapping[str, str]) -> Reply:
        calls[path] += 1
        if path == "/flaky":
            return Reply(503, b"try later")  # retried: each try counts
        return static_site(chain_site(40, {
            "/": html_page("Home", "", {"/p0": "a", "/gone": "b", "/doc.pdf": "c", "/old": "d", "/flaky": "e"}),
            "/old": Reply(301, b"", (("Location", "/older"),)),
            "/older": Reply(302, b"", (("Location", "/p5"),)),
            "/doc.pdf": Reply(body=b"%PDF-1.4", headers=(("Content-Type", "application/pdf"),)),
        }))(path, headers)

    with TestWeb(site) as web:
        summary = run(web, tmp_path, max_pages=25, ordering="bfs", backoff=0.0)
    requests = page_requests(web)
    assert len(requests) == 25 == summary.stats.fetches  # type: ignore[attr-defined]
    assert {"/gone", "/doc.pdf", "/old", "/older", "/flaky"} <= set(requests)
    assert calls["/flaky"] == 3  # one try and two retries
    assert max(n for path, n in Counter(requests).items() if path != "/flaky") == 1


def test_redirects(tmp_path: Path) -> None:
    site = chain_site(3, {
        "/": html_page("Home", "", {"/r1": "a", "/loop0": "b", "/known": "c", "/p0": "d", "/to-private": "e",
                                    "/ftp": "f", "/cred": "g", "/port": "h"}),
        "/r1": Reply(301, b"", (("Location", "/r2"),)),
        "/r2": Reply(307, b"", (("Location", web_url_placeholder := "/r3"),)),
        "/r3": Reply(308, b"", (("Location", "/p1"),)),
        "/known": Reply(302, b"", (("Location", "/p0"),)),
        "/to-private": Reply(302, b"", (("Location", "/private/secret"),)),
        "/ftp": Reply(302, b"", (("Location", "ftp://example.org/file"),)),
        "/cred": Reply(302, b"", (("Location", "http://user:secret@127.0.0.1/p2"),)),
        "/port": Reply(302, b"", (("Location", "http://127.0.0.1:99999/p2"),)),
        **{f"/loop{i}": Reply(302, b"", (("Location", f"/loop{i + 1}"),)) for i in range(40)},
    })
    assert web_url_placeholder
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path, ordering="bfs")
    requests = page_requests(web)
    assert max(Counter(requests).values()) == 1  # nothing fetched twice: /known leads to /p0, fetched once
    assert {"/r1", "/r2", "/r3", "/p1"} <= set(requests)
    assert len([p for p in requests if p.startswith("/loop")]) == 11  # the first and ten redirects
    assert "/private/secret" not in requests
    final = dict(rows(tmp_path, "SELECT url, final_url FROM pages"))
    assert final[web.url + "/r1"] == web.url + "/r2"
    failures = dict(rows(tmp_path, "SELECT url, failure FROM pages WHERE failure IS NOT NULL"))
    assert "more than 10 redirects" in failures[web.url + "/loop10"]
    assert "http and https URLs only" in failures[web.url + "/ftp"]
    assert "credentials" in failures[web.url + "/cred"] and "http and https" not in failures[web.url + "/cred"]
    assert "port" in failures[web.url + "/port"].lower() and "http and https" not in failures[web.url + "/port"]


def test_errors_non_html_and_broken_pages(tmp_path: Path) -> None:
    big = b"<html><body>" + b"<p>olympic medal</p>" * 60_000 + b"</body></html>"
    site = chain_site(3, {
        "/": html_page("Home", "", {"/gone": "a", "/img.png": "b", "/broken": "c", "/binary": "d", "/big": "e",
                                    "/slow": "f", "/p0": "g", "/nul": "h", "/json": "i", "/drip": "j"}),
        "/img.png": Reply(body=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64, headers=(("Content-Type", "image/png"),)),
        "/broken": Reply(body=b"<html><body><table><tr><td>olympic<td><a href='/p2'>medal</a></table><p><<<<</div>"),
        "/binary": Reply(body=bytes(range(256)) * 40),  # says text/html
        "/big": Reply(body=big),
        "/slow": Reply(body=b"<html><body>slow</body></html>", delay=3.0),
        "/drip": Reply(body=b"<html><body>" + b"x" * 8000, drip=0.4),  # headers at once, then 1 KiB per 0.4 s
        "/nul": Reply(body=b"", headers=()),
        "/json": Reply(body=b'{"a": 1}', headers=(("Content-Type", "application/json"),)),
    })
    limits = replace(DEFAULT_LIMITS, max_fetch_bytes=500_000, fetch_timeout=1.0)
    with TestWeb(static_site(site)) as web:
        summary = run(web, tmp_path, limits=limits, retries=1, backoff=0.0)
    requests = page_requests(web)
    assert requests.count("/slow") == 2  # a time-out is retried once
    pages = {url.rsplit("/", 1)[1]: (status, ctype, failure) for url, status, ctype, failure in
             rows(tmp_path, "SELECT url, status, content_type, failure FROM pages")}
    assert pages["gone"][0] == 404 and "404" in pages["gone"][2]
    assert pages["img.png"] == (200, "image/png", None)
    assert "larger than 500000 bytes" in pages["big"][2]
    assert "within 1 s" in pages["slow"][2]
    assert "within 1 s" in pages["drip"][2] and requests.count("/drip") == 2
    assert pages["broken"][0] == 200 and pages["broken"][2] is None
    assert "p2" in pages  # the broken page's link was followed
    assert summary.stats.pages >= 5  # type: ignore[attr-defined]



def test_only_whole_html_answers_are_read_as_pages(tmp_path: Path) -> None:
    """200 and 203 carry the page (RFC 9110 15.3); a 201 or 202 describes an action, so its links are not followed
    and its tables not converted; without a Content-Type the body is sniffed (WHATWG: ``<table`` starts HTML)."""
    table = "<table><tr><th>Year</th><th>Gold</th></tr><tr><td>2008</td><td>51</td></tr></table>"

    def page(status: int, link: str, headers: tuple[tuple[str, str], ...] = Reply.headers) -> Reply:
        words = " ".join(f"{link[6:]}{i}" for i in range(40))  # distinct texts: no near-duplicate pages
        body = f"{table}<p>{words}</p><a href='{link}'>olympic medal</a>".encode()
        return Reply(status, (b"" if headers != Reply.headers else b"<html><body>") + body, headers)

    site = chain_site(1, {
        "/": html_page("Home", "olympic medals", {"/created": "a", "/accepted": "b", "/copy": "c", "/bare": "d"}),
        "/created": page(201, "/from-created"), "/accepted": page(202, "/from-accepted"),
        "/copy": page(203, "/from-copy"), "/bare": page(200, "/from-bare", headers=()),
        **{f"/from-{name}": html_page(name, "olympic medal") for name in ("created", "accepted", "copy", "bare")},
    })
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path, convert=True)
    requested = set(page_requests(web))
    assert {"/from-copy", "/from-bare"} <= requested
    assert not {"/from-created", "/from-accepted"} & requested
    conversions = dict((url.rsplit("/", 1)[1], (status, tables)) for url, status, tables in
                       rows(tmp_path, "SELECT url, conversion, tables FROM pages WHERE conversion IS NOT NULL"))
    assert conversions["copy"] == ("ok", 1) and conversions["bare"] == ("ok", 1)
    assert "created" not in conversions and "accepted" not in conversions
    statuses = dict((url.rsplit("/", 1)[1], status) for url, status in rows(tmp_path, "SELECT url, status FROM pages"))
    assert statuses["created"] == 201 and statuses["accepted"] == 202 and statuses["copy"] == 203

# -- traps -------------------------------------------------------------------------------------------------------------
def trap_site(path: str, headers: Mapping[str, str]) -> Reply:
    """Articles with links into four endless traps."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(path)
    query = parse_qs(parts.query)
    articles = {f"/wiki/Article_{i}": f"Article {i}" for i in range(12)}
    traps = {"/calendar?year=2024&month=1": "events calendar", "/shop?color=red": "shop by colour",
             "/docs/": "documentation", "/forum?sid=a1": "forum"}
    if parts.path == "/robots.txt":
        return Reply(404, b"")
    if parts.path == "/" or parts.path.startswith("/wiki/"):
        n = int(parts.path.rsplit("_", 1)[1]) if "_" in parts.path else 0
        links = {f"/wiki/Article_{(n + k) % 12}": f"Article {(n + k) % 12}" for k in (1, 3)}
        return html_page(f"Article {n}", f"olympic medal table {n} " + "athletics " * n, {**links, **traps})
    if parts.path == "/calendar":
        y, m = int(query["year"][0]), int(query["month"][0])
        nxt, prv = (y + (m == 12), m % 12 + 1), (y - (m == 1), (m - 2) % 12 + 1)
        days = " ".join(str(d) for d in range(1, 31))
        return html_page(f"Calendar {y}-{m}", f"Mo Tu We Th Fr Sa Su {days} no events",
                         {f"/calendar?year={nxt[0]}&month={nxt[1]}": "next month",
                          f"/calendar?year={prv[0]}&month={prv[1]}": "previous month"})
    if parts.path == "/shop":
        links = {}
        for name, values in (("color", ["red", "blue", "green"]), ("size", ["s", "m", "l"]),
                             ("sort", ["price", "name"]), ("page", ["1", "2", "3"])):
            for value in values:
                q = dict(query)
                q[name] = [value]
                links["/shop?" + "&".join(f"{k}={v[0]}" for k, v in sorted(q.items()))] = f"{name} {value}"
        return html_page("Shop", "Products: lamp chair table sofa bed desk", links)
    if parts.path == "/forum":
        sid = query["sid"][0]
        return html_page("Forum", "Welcome to the forum. Topics: none yet.",
                         {f"/forum?sid={sid}x": "forum home", f"/forum/rules?sid={sid}y": "rules"})
    if parts.path == "/forum/rules":
        return html_page("Rules", "Be nice.", {f"/forum?sid={query['sid'][0]}z": "back"})
    if parts.path.startswith("/docs/"):
        return html_page("Docs", "Documentation home", {"intro/": "intro", "../docs/": "up"})
    return Reply(404, b"not found")


def test_traps_cost_a_bounded_number_of_fetches(tmp_path: Path) -> None:
    with TestWeb(trap_site) as web:
        summary = run(web, tmp_path, max_pages=150, ordering="bfs")
    requests = page_requests(web)
    articles = [p for p in requests if p == "/" or p.startswith("/wiki/")]
    assert len(set(articles)) == 13
    kinds = Counter(p.split("?")[0].split("/")[1] for p in requests if p not in articles)
    assert kinds["calendar"] <= 4
    assert kinds["shop"] <= 4
    assert kinds["forum"] <= 4
    assert kinds["docs"] <= 4
    assert summary.ended == "done"  # type: ignore[attr-defined]


# -- storage, state, resume ----------------------------------------------------------------------------------------
def test_warc_and_database(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    site = chain_site(6, {"/": html_page("Home", "index", {"/p0": "a", "/logo.png": "b", "/big.bin": "c",
                                                             "/gone": "d"}),
                          "/logo.png": Reply(body=png, headers=(("Content-Type", "image/png"),)),
                          "/big.bin": Reply(body=b"\0" * 300_000, headers=(("Content-Type", "application/x-data"),)),
                          "/gone": Reply(404, b"<html><body>" + b"gone " * 30_000 + b"</body></html>")})
    started = time.time()
    with TestWeb(static_site(site)) as web:
        run(web, tmp_path, limits=replace(DEFAULT_LIMITS, max_fetch_bytes=200_000))
    (warc,) = (tmp_path / "warc").iterdir()
    with open(warc, "rb") as stream:  # digests checked as they are read: a wrong one raises
        records = [(r.rec_type, r.rec_headers, r.http_headers, r.content_stream().read())
                   for r in ArchiveIterator(stream, check_digests="raise")]
    assert records[0][0] == "warcinfo"
    assert {headers.protocol for _, headers, _, _ in records} == {"WARC/1.1"}
    responses = {h.get_header("WARC-Target-URI"): (h, http, body) for kind, h, http, body in records
                 if kind == "response"}
    requests = [(h, http) for kind, h, http, _ in records if kind == "request"]
    assert len(requests) == len(responses) == len(web.log)  # one pair per request the server saw
    ids = {h.get_header("WARC-Record-ID"): h for h, _, _ in responses.values()}
    for request, http in requests:  # each request names its response, and has its date and target
        response = ids[request.get_header("WARC-Concurrent-To")]
        assert request.get_header("WARC-Target-URI") == response.get_header("WARC-Target-URI")
        assert request.get_header("WARC-Date") == response.get_header("WARC-Date")
        assert http.protocol == "GET" and http.get_header("User-Agent").startswith("pyxform/")
    arrivals = {web.url + hit.path: hit for hit in web.log}
    for uri, (headers, http, body) in responses.items():
        date = headers.get_header("WARC-Date")  # the capture's start, in microseconds (WARC 1.1)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", date)
        captured = calendar.timegm(time.strptime(date[:19], "%Y-%m-%dT%H:%M:%S")) + float(date[19:-1])
        assert started - 1 <= captured <= time.time() and uri in arrivals
        assert headers.get_header("WARC-IP-Address") == "127.0.0.1"
        assert int(http.get_header("Content-Length")) == len(body)  # the headers describe the stored body
        assert headers.get_header("WARC-Payload-Digest") and headers.get_header("WARC-Block-Digest")
    assert responses[web.url + "/robots.txt"][2] == ROBOTS.body
    assert responses[web.url + "/p3"][2] == site["/p3"].body
    assert responses[web.url + "/logo.png"][2] == png  # non-HTML bodies are stored too
    big_headers, _, big = responses[web.url + "/big.bin"]
    assert big == b"\0" * 200_000 and big_headers.get_header("WARC-Truncated") == "length"
    gone_headers, _, gone = responses[web.url + "/gone"]  # an error page's first 64 KiB
    assert len(gone) == 64 * 1024 and gone_headers.get_header("WARC-Truncated") == "length"
    assert responses[web.url + "/p3"][0].get_header("WARC-Truncated") is None
    pages = rows(tmp_path, "SELECT url, status, depth, relevance FROM pages WHERE url LIKE '%/p1'")
    assert pages[0][1:3] == (200, 2) and pages[0][3] > rows(
        tmp_path, "SELECT relevance FROM pages WHERE url LIKE '%/p2'")[0][0]
    links = rows(tmp_path, "SELECT anchor FROM links JOIN pages ON pages.id = links.source "
                           "WHERE pages.url LIKE '%/p1' ORDER BY anchor")
    assert links == [("after next",), ("next",)]
    assert rows(tmp_path, "SELECT bytes, failure FROM pages WHERE url LIKE '%/big.bin'") == [(200_000, None)]


def test_other_seeds_or_topic_refused_unless_restart(tmp_path: Path) -> None:
    with TestWeb(static_site(chain_site(4))) as web:
        run(web, tmp_path)
        with pytest.raises(CrawlStateError, match="other topic"):
            run(web, tmp_path, topic="cooking")
        with pytest.raises(CrawlStateError, match="other seeds"):
            run(web, tmp_path, seeds=(web.url + "/p1",))
        before = len(web.log)
        summary = run(web, tmp_path, topic="cooking", restart=True)
    assert summary.stats.pages == 5 and not summary.resumed  # type: ignore[attr-defined]
    assert len(web.log) - before == 6  # robots.txt and every page again


CHILD = textwrap.dedent("""
    import sys
    from pyxform.wings.crawl import CrawlConfig, crawl
    url, out, convert = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    summary = crawl(CrawlConfig(seeds=(url + "/",), topic="olympic medals", out=out, max_pages=200, delay=0.03,
                                allow_private=True, convert=convert))
    print(summary.ended)
""")


def _start(web: TestWeb, out: Path, convert: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, web.url, str(out), "1" if convert else "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True)  # a process group of its own, as a shell's job


def _wait_for(web: TestWeb, requests: int) -> None:
    for _ in range(3000):
        if len(web.log) >= requests:
            return
        time.sleep(0.01)
    raise AssertionError(f"the crawl made {len(web.log)} requests, not {requests}")


WAITING_CHILD = textwrap.dedent("""
    import json, sys
    from pyxform.wings.crawl import CrawlConfig, crawl
    seeds, out, options = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
    summary = crawl(CrawlConfig(seeds=tuple(seeds), topic="olympic medals", out=out, max_pages=50,
                                allow_private=True, convert=False, **options))
    print(summary.ended)
""")


@pytest.mark.parametrize("case", ["robots-backoff", "host-delay", "address-delay"])
def test_sigterm_while_the_crawl_waits_stops_it(tmp_path: Path, case: str) -> None:
    """A graceful stop (SIGTERM) ends a crawl that is waiting (a robots.txt retry's backoff, a host's --delay, another
    host name's turn on one address) without waiting the hour out, and sends no request after the stop."""
    hour = {"delay": 3600.0} if case != "robots-backoff" else {"backoff": 3600.0, "delay": 0.0}
    site = chain_site(3, {"/robots.txt": Reply(503, b"busy")} if case == "robots-backoff" else None)
    with TestWeb(static_site(site)) as web:
        seeds = [web.url + "/"]
        if case == "address-delay":
            if socket.getaddrinfo("localhost", 80, type=socket.SOCK_STREAM)[0][4][0] != "127.0.0.1":
                pytest.skip("localhost does not resolve to 127.0.0.1 first here")
            seeds.append(web.url.replace("127.0.0.1", "localhost") + "/")
        child = subprocess.Popen([sys.executable, "-c", WAITING_CHILD, json.dumps(seeds), str(tmp_path),
                                  json.dumps({**hour, "concurrency": 2})],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                 start_new_session=True)
        try:
            _wait_for(web, 1)
            time.sleep(0.5)  # any moment of the wait will do: the crawl is waiting from the first answer on
            child.send_signal(signal.SIGTERM)
            out, err = child.communicate(timeout=600)  # a regression waits the hour: it fails here
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
        requests = web.paths()
    assert (child.returncode, out.strip()) == (0, "interrupted"), err
    assert requests == ["/robots.txt"]  # nothing sent after the stop
    states = rows(tmp_path, "SELECT state FROM frontier")
    assert states and {state for (state,) in states} == {"queued"}  # the resume takes them up


def test_a_second_crawl_on_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    """Two crawls in one folder (the same command in two terminals) would fetch pages twice and interleave their
    records: the second is refused while the first runs (with --restart too: it would delete the first's
    database), and resumes once the first has stopped."""
    with TestWeb(static_site(chain_site(4))) as web:
        child = subprocess.Popen([sys.executable, "-c", WAITING_CHILD, json.dumps([web.url + "/"]), str(tmp_path),
                                  json.dumps({"delay": 3600.0})],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                 start_new_session=True)
        try:
            _wait_for(web, 1)  # robots.txt: the first crawl is in, and waits an hour for its next request
            for restart in (False, True):
                with pytest.raises(CrawlStateError, match="another crawl is running in this folder"):
                    run(web, tmp_path, restart=restart)
            assert (tmp_path / "crawl.sqlite").exists() and web.paths() == ["/robots.txt"]
            child.send_signal(signal.SIGTERM)
            out, err = child.communicate(timeout=600)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
        assert out.strip() == "interrupted", err
        summary = run(web, tmp_path)
    assert summary.resumed and summary.ended == "done"  # type: ignore[attr-defined]
    assert max(Counter(web.paths()).values()) == 1


@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM])
def test_resume_after_kill_loses_nothing_and_fetches_nothing_twice(tmp_path: Path, kill: signal.Signals) -> None:
    site = chain_site(60)
    with TestWeb(static_site(site)) as web:
        child = _start(web, tmp_path)
        _wait_for(web, 25)
        child.send_signal(kill)
        out, err = child.communicate(timeout=60)
        assert child.returncode == (-signal.SIGKILL if kill == signal.SIGKILL else 0), err
        if kill == signal.SIGTERM:
            assert out.strip() == "interrupted"
        stored = {url for (url,) in rows(tmp_path, "SELECT url FROM pages")}
        assert len(stored) >= 20
        summary = run(web, tmp_path, max_pages=200, delay=0.03)
    assert summary.resumed and summary.ended == "done"  # type: ignore[attr-defined]
    requests = web.paths()
    assert max(Counter(requests).values()) == 1, Counter(requests).most_common(3)
    pages = dict(rows(tmp_path, "SELECT url, failure FROM pages"))
    assert stored <= set(pages)  # nothing stored is lost
    fetched = {web.url + p for p in requests if p != "/robots.txt"}
    assert set(pages) == fetched
    # a request the kill caught before its answer was stored is recorded as interrupted (and not sent again)
    interrupted = {url for url, failure in pages.items() if failure and "interrupted" in failure}
    assert len(interrupted) <= 1
    warc_pages = set()
    for warc in (tmp_path / "warc").iterdir():
        with open(warc, "rb") as stream:
            warc_pages |= {r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(stream)
                           if r.rec_type == "response"}
    assert fetched - interrupted <= warc_pages


def test_an_answer_stored_before_a_kill_is_recovered_from_the_warc_file(tmp_path: Path) -> None:
    """A kill after a page's answer reached the WARC file but before its transaction: the resume takes the page from
    the WARC file (its text, relevance, links and tables), without a request."""
    table = "<table><tr><th>Year</th><th>Medals</th></tr><tr><td>2008</td><td>3</td></tr></table>"
    pages = {"/robots.txt": ROBOTS,
             "/": html_page("Home", "index", {f"/p{i}": f"olympic medal page {i}" for i in range(4)})}
    for i in range(4):
        pages[f"/p{i}"] = Reply(body=html_page(f"Olympic medals {i}", "olympic medal table", {"/": "home"}).body
                                .replace(b"</body>", table.encode() + b"</body>"))
    with TestWeb(static_site(pages)) as web:
        run(web, tmp_path, convert=True, ordering="bfs")
        (page_id, url, relevance, xml), = rows(tmp_path, "SELECT id, url, relevance, xml FROM pages "
                                                          "ORDER BY id DESC LIMIT 1")
        links = rows(tmp_path, "SELECT target, anchor FROM links WHERE source = ?", page_id)
        assert url == web.url + "/p3" and relevance > 0.3 and links
        db = sqlite3.connect(tmp_path / "crawl.sqlite")  # the state a kill leaves: the answer in the WARC file only
        with db:
            db.execute("DELETE FROM links WHERE source = ?", (page_id,))
            db.execute("DELETE FROM pages WHERE id = ?", (page_id,))
            db.execute("UPDATE frontier SET state = 'queued' WHERE url = ?", (url,))
            db.execute("UPDATE fetches SET ended = NULL, status = NULL WHERE url = ?", (url,))
        db.close()
        (tmp_path / xml).unlink()
        before = len(web.log)
        summary = run(web, tmp_path, convert=True, ordering="bfs")
        assert len(web.log) == before  # nothing fetched again
    assert summary.resumed and summary.stats.pages == 5  # type: ignore[attr-defined]
    (again,) = rows(tmp_path, "SELECT relevance, failure, conversion, tables, xml FROM pages WHERE url = ?", url)
    assert again[0] == pytest.approx(relevance) and again[1] is None and again[2:4] == ("ok", 1)
    assert "2008" in (tmp_path / again[4]).read_text(encoding="utf-8")
    assert rows(tmp_path, "SELECT target, anchor FROM links JOIN pages ON pages.id = links.source "
                          "WHERE pages.url = ?", url) == links


def test_ctrl_c_with_conversions_in_flight(tmp_path: Path) -> None:
    """Ctrl-C in a terminal reaches the whole process group, the conversion worker too: its page is not recorded as
    a failed conversion; the pages left waiting are converted on resume."""
    table = "<table><tr><th>Year</th><th>Medals</th></tr><tr><td>2008</td><td>3</td></tr></table>"
    site = chain_site(30)
    for path, reply in list(site.items()):
        if path.startswith("/p"):
            site[path] = Reply(body=reply.body.replace(b"</body>", table.encode() + b"</body>"))
    with TestWeb(static_site(site)) as web:
        child = _start(web, tmp_path, convert=True)
        for _ in range(6000):  # until some pages are converted
            if tmp_path.joinpath("xml").is_dir() and len(list(tmp_path.joinpath("xml").iterdir())) >= 2:
                break
            time.sleep(0.01)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=120)
        assert out.strip() == "interrupted", err
        assert not rows(tmp_path, "SELECT url FROM pages WHERE conversion = 'failed'")
        summary = run(web, tmp_path, convert=True, max_pages=200)
    assert summary.ended == "done"  # type: ignore[attr-defined]
    conversions = Counter(c for (c,) in rows(tmp_path, "SELECT conversion FROM pages WHERE conversion IS NOT NULL"))
    assert conversions == {"ok": 30, "no-tables": 1}
    assert max(Counter(web.paths()).values()) == 1


def test_tables_converted_as_pages_arrive(tmp_path: Path) -> None:
    table = ("<table><tr><th>Year</th><th>Gold</th></tr><tr><td>2008</td><td>51</td></tr>"
             "<tr><td>2012</td><td>46</td></tr></table>")
    site = chain_site(2, {
        "/p0": Reply(body=f"<html><head><title>Olympic medals</title></head><body>{table}"
                          f"<a href='/p1'>more</a><a href='/bad'>bad</a></body></html>".encode()),
        "/bad": Reply(body=b"<html><body><table>" + b"<tr><td colspan=1000>x</td></tr>" * 30
                      + b"</table></body></html>"),  # 30,000 slots: over max_slots
    })
    limits = replace(DEFAULT_LIMITS, max_slots=10_000)
    with TestWeb(static_site(site)) as web:
        summary = run(web, tmp_path, convert=True, limits=limits)
    conversions = {url.rsplit("/", 1)[1]: (c, t, x, e) for url, c, t, x, e in
                   rows(tmp_path, "SELECT url, conversion, tables, xml, conversion_error FROM pages "
                                  "WHERE conversion IS NOT NULL")}
    status, tables, xml, _ = conversions["p0"]
    assert (status, tables) == ("ok", 1)
    text = (tmp_path / xml).read_text(encoding="utf-8")
    assert "2008" in text and "51" in text
    assert conversions["bad"][0] == "failed" and "[limit]" in conversions["bad"][3]
    assert conversions["p1"][0] == "no-tables"
    assert summary.stats.converted == 3 and summary.stats.conversion_failed == 1  # type: ignore[attr-defined]


def test_command_line(tmp_path: Path) -> None:
    with TestWeb(static_site(chain_site(5))) as web:
        args = [sys.executable, "-m", "pyxform", "crawl", web.url + "/", "--topic", "olympic", "--max-pages",
                "4", "--out", str(tmp_path), "--delay", "0", "--no-convert"]
        refused = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
        done = subprocess.run(args + ["--allow-private"], capture_output=True, text=True, cwd=ROOT)
        other = subprocess.run(args + ["--allow-private", "--topic", "cooking"], capture_output=True, text=True,
                               cwd=ROOT)
    assert refused.returncode == 0 and "--allow-private" in refused.stdout
    assert done.returncode == 0 and "fetch budget (--max-pages) is spent" in done.stdout
    assert "fetches       4" in done.stdout
    assert "failed        0; set aside 0" in done.stdout  # the seed refused at first counts no more
    assert other.returncode == 16 and "[crawl-state]" in other.stderr and "--restart" in other.stderr
    assert os.path.exists(tmp_path / "crawl.sqlite")
