"""The search page (Starlette, in this process): results, the JSON endpoint equal to ``search --format json``, the
table's XML, and hostile page text that must stay text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .search_helpers import build, copy_pages, pyxform

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def hostile_text_page() -> str:
    """A page whose every field is hostile in another way than markup: bidi overrides and control characters, data:
    and javascript: URLs (canonical, base, a cell's link), a 240,000-character cell, a 6,900-character header and a
    16,000-character caption."""
    long_cell = "Zanzibar " + "x" * 200 + " " + "lorem ipsum " * 20000
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>\u202eRTL override title\u202c &amp; \u0007bell\u0001 page</title>
<link rel="canonical" href="data:text/html,&lt;script&gt;alert('data')&lt;/script&gt;">
<base href="javascript:alert('base')//"></head>
<body><h2>Control \u0000 and \u200f marks</h2>
<table>
<caption>{'Caption ' * 2000}</caption>
<tr><th>Header {'very long header words ' * 300}</th><th>Link</th></tr>
<tr><td>{long_cell}</td><td><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a> Quagga</td></tr>
<tr><td>\u05e9\u05dc\u05d5\u05dd Zanzibar</td><td>\u202e)1(trela</td></tr>
</table></body></html>
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("serve")
    pages = copy_pages(base / "pages", ("lakes.html", "rivers.html", "fells.html", "hostile.html"))
    (pages / "hostile-text.html").write_text(hostile_text_page(), encoding="utf-8")
    build(base / "index", [pages])
    return base / "index"


@pytest.fixture(scope="module")
def client(index):
    from starlette.testclient import TestClient

    from pyxform.wings.search.serve import create_app

    with TestClient(create_app(index)) as client:
        yield client


def test_the_page_lists_ranked_tables(client) -> None:
    page = client.get("/", params={"q": "largest lakes by area"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src" not in page.headers["content-security-policy"]  # no script may run on the page
    first = re.search(r'<li class="hit" data-rank="1" data-table="(\d+)">(.*?)</li>', page.text, re.S)
    assert first is not None and first.group(1) == "0"
    assert "Lakes of Finland" in first.group(2) and "Largest lakes by area" in first.group(2)
    assert '<a class="page" href="https://example.org/wiki/Lakes_of_Finland"' in first.group(2)
    assert re.search(r'<a class="xml" href="/table/\d+\.xml">', first.group(2))
    assert '<td class="match">Saimaa</td>' not in first.group(2)  # "Saimaa" is not in the query
    marked = client.get("/", params={"q": "Saimaa"}).text
    assert '<td class="match">Saimaa</td>' in marked
    assert 'value="Saimaa"' in marked  # the query box keeps the query


def test_the_json_endpoint_gives_what_search_gives(client, index) -> None:
    api = client.get("/api/search", params={"q": "Gulf of Bothnia rivers", "n": 3}).json()
    command = pyxform("search", str(index), "Gulf of Bothnia rivers", "--format", "json", "-n", "3")
    assert command.returncode == 0, command.stderr
    assert api == json.loads(command.stdout)
    assert api["results"][0]["title"] == "Rivers of Finland"
    bad = client.get("/api/search", params={"q": "  "})
    assert bad.status_code == 400 and "no word" in bad.json()["error"]


def test_the_table_xml_and_messages(client) -> None:
    page = client.get("/", params={"q": "Kemijoki"}).text
    table = re.search(r'href="(/table/\d+\.xml)"', page).group(1)
    xml = client.get(table)
    assert xml.status_code == 200 and xml.headers["content-type"].startswith("application/xml")
    assert xml.headers["content-security-policy"].startswith("sandbox")
    assert xml.text.startswith('<?xml version="1.0"') and "<river" in xml.text and "Kemijoki" in xml.text
    assert client.get("/table/999999.xml").status_code == 404
    assert "no word to search for" in client.get("/", params={"q": "?!"}).text
    assert "No table matches the query." in client.get("/", params={"q": "zzqqxx"}).text


def test_hostile_page_text_stays_text(client, index) -> None:
    for query in ("Moriarty villain weapon", "Blofeld", "hostile", "caption onmouseover"):
        page = client.get("/", params={"q": query})
        body = page.text
        assert "Hostile" in body, query
        assert "<script>" not in body.lower() and "<img" not in body.lower()
        assert "javascript:" not in body.lower()
        # every quote from the page is escaped: no attribute can be opened or closed by page text
        assert 'onmouseover="' not in body and 'onclick="' not in body
        assert "&lt;script&gt;alert(&#39;cell&#39;)&lt;/script&gt;" in body or query != "Moriarty villain weapon"
    # the hostile page has a javascript: canonical link: its result links to the indexed file instead
    hit = client.get("/api/search", params={"q": "Moriarty"}).json()["results"][0]
    assert hit["source"].endswith("hostile.html") and hit["caption"].startswith('"onmouseover="alert')
    page = client.get("/", params={"q": "Moriarty"}).text
    local = re.search(r'<a class="page" href="(/page/\d+)"', page).group(1)
    served = client.get(local)
    assert served.headers["content-security-policy"].startswith("sandbox")  # its scripts cannot run
    assert served.headers["x-content-type-options"] == "nosniff"
    # the query itself is page-like text too
    echoed = client.get("/", params={"q": '"><script>alert(1)</script>'}).text
    assert "<script>alert(1)" not in echoed and "&#34;&gt;&lt;script&gt;" in echoed


def test_long_text_is_cut_and_page_text_is_isolated(client) -> None:
    page = client.get("/", params={"q": "Zanzibar Quagga"})
    assert page.status_code == 200
    first = re.search(r'<li class="hit" data-rank="1".*?</li>', page.text, re.S).group(0)
    assert "RTL override title" in first
    assert len(first) < 8000  # a 240,000-character cell, a 6,900-character header, a 16,000-character caption: cut
    header = re.search(r"<th>(.*?)</th>", first, re.S).group(1)
    assert header.startswith("Header very long header words") and header.endswith("…") and len(header) <= 120
    assert "data:" not in page.text and "javascript:" not in page.text  # no such URL becomes a link
    assert "unicode-bidi: plaintext" in page.text  # an RTL override in page text cannot reorder the page around it
    hit = client.get("/api/search", params={"q": "Zanzibar Quagga"}).json()["results"][0]
    assert hit["source"].endswith("hostile-text.html") and hit["title"].startswith("\u202eRTL override title")
    assert all(len(value) <= 200 for row in hit["preview"] for value in row)


def test_serve_refuses_an_address_in_use(index) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = pyxform("serve", str(index), "--port", str(port))
    assert done.returncode == 2 and "Address already in use" in done.stderr and "choose another --port" in done.stderr
    assert "searching" not in done.stderr  # nothing announced that does not listen
    bad = pyxform("serve", str(index), "--port", "70000")
    assert bad.returncode == 2 and "a port is 0 to 65535" in bad.stderr


def test_a_local_page_is_served_only_when_it_was_indexed_itself(tmp_path) -> None:
    """An XML output names its page (``px:source``): any path could be named there, so it is shown, never served."""
    from starlette.testclient import TestClient

    from pyxform.wings.search.serve import create_app

    secret = tmp_path / "secret.html"
    secret.write_text("<p>private</p>", encoding="utf-8")
    outputs = tmp_path / "out"
    outputs.mkdir()
    (outputs / "named.xml").write_text(
        f'<pyxform xmlns:px="urn:pyxform" px:source="{secret}" px:title="Named">'
        '<t px:table="0" px:label="Quokka census" px:name-from="caption"><row px:row="1">'
        '<island px:label="Island">Rottnest</island></row></t></pyxform>', encoding="utf-8")
    copy_pages(tmp_path / "pages", ("rivers.html",))
    build(tmp_path / "index", [outputs, tmp_path / "pages"])
    with TestClient(create_app(tmp_path / "index")) as client:
        page = client.get("/", params={"q": "Quokka Rottnest"}).text
        hit = client.get("/api/search", params={"q": "Quokka Rottnest"}).json()["results"][0]
        assert (hit["source"], hit["path"]) == (str(secret), str(outputs / "named.xml"))
        assert f'<span class="page">{secret}</span>' in page and 'href="/page/' not in page
        table = re.search(r'href="/table/(\d+)\.xml"', page).group(1)
        assert client.get(f"/page/{table}").status_code == 404


def test_a_damaged_index_is_said_to_be_one_on_the_page_and_in_json(tmp_path) -> None:
    """The page and the JSON endpoint both answer with the index error (JSON: status 500, ``{"error": ...}``), not
    the server's bare "Internal Server Error"."""
    import sqlite3

    from starlette.testclient import TestClient

    from pyxform.wings.search.serve import create_app

    build(tmp_path / "index", [copy_pages(tmp_path / "pages", ("rivers.html", "lakes.html"))])
    with sqlite3.connect(tmp_path / "index" / "index.sqlite") as db:
        db.execute("DELETE FROM fts_data WHERE id > 10")  # the full-text index's pages lost
    with TestClient(create_app(tmp_path / "index")) as client:
        answer = client.get("/api/search", params={"q": "Kemijoki"})
        assert answer.status_code == 500 and answer.headers["content-type"] == "application/json"
        assert answer.json()["error"].startswith("the index is damaged (")
        page = client.get("/", params={"q": "Kemijoki"})
        assert page.status_code == 200 and "the index is damaged (" in page.text
