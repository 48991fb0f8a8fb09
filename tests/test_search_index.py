"""pyxform index and the index it builds: fields, links and PageRank, incremental updates, inputs of every kind and
bad ones, deterministic results (pages converted in this process: ``build_index(isolated=False)``)."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Final

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pyxform.base.errors import EmptyQuery, InputError
from pyxform import jobs
from pyxform.wings.search.query import EmptyIndex, Searcher
from pyxform.wings.search.sources import InputProblem, PageInput, read_inputs

from .search_helpers import DATA, build, copy_pages


@pytest.fixture(scope="module")
def linked(tmp_path_factory) -> tuple[Path, Path]:
    """Four pages linked to each other (one without a table), indexed: (pages folder, index folder)."""
    base = tmp_path_factory.mktemp("linked")
    pages = copy_pages(base / "pages")
    report = build(base / "index", [pages])
    assert (report.converted, report.no_tables, report.failures, report.tables_added) == (4, 1, [], 6)
    return pages, base / "index"


def _db(index: Path) -> sqlite3.Connection:
    return sqlite3.connect(index / "index.sqlite")


def test_every_table_is_indexed_with_its_index_on_the_page(linked) -> None:
    pages, index = linked
    rows = _db(index).execute("SELECT p.title, t.position, t.caption, t.heading, t.headers, t.depth FROM tables t "
                              "JOIN pages p ON p.id = t.page ORDER BY p.title, t.position").fetchall()
    assert [(title, position, caption, heading, json.loads(headers), depth)
            for title, position, caption, heading, headers, depth in rows] == [
        ("Fells of Lapland", 0, None, "Fells of Lapland", ["", ""], 0),  # the infobox (no header row)
        ("Fells of Lapland", 1, None, "Highest fells", ["Fell", "Height (m)", "Notes"], 0),
        ("Fells of Lapland", 2, None, "Highest fells", ["Municipality"], 1),  # nested in a cell of table 1
        ("Lakes of Finland", 0, "Largest lakes by area", "Largest lakes", ["Lake", "Area (km²)", "Region"], 0),
        ("Lakes of Finland", 1, None, "Deepest lakes", ["Lake", "Depth (m)"], 0),
        ("Rivers of Finland", 0, None, "Longest rivers", ["River", "Length (km)", "Outflow"], 0)]


def test_pagerank_follows_the_links_between_pages(linked) -> None:
    _, index = linked
    ranks = dict(_db(index).execute("SELECT path, pagerank FROM pages"))
    ranks = {Path(path).stem: rank for path, rank in ranks.items()}
    # rivers and fells link to lakes; lakes links to rivers and fells; the page without a table gives no links (its
    # conversion has no output) and gets none
    assert sum(ranks.values()) == pytest.approx(1.0)
    assert ranks["lakes"] > ranks["rivers"] > ranks["notables"]
    assert ranks["rivers"] == pytest.approx(ranks["fells"])
    urls = dict(_db(index).execute("SELECT title, url FROM pages"))
    assert urls["Lakes of Finland"] == "https://example.org/wiki/Lakes_of_Finland"  # the canonical link


def test_search_finds_the_right_table(linked) -> None:
    pages, index = linked
    with Searcher(index) as searcher:
        hits = searcher.search("largest lakes by area in Finland", n=3)
        assert (hits[0].title, hits[0].table, hits[0].caption) == ("Lakes of Finland", 0, "Largest lakes by area")
        assert hits[0].source == "https://example.org/wiki/Lakes_of_Finland"
        assert hits[0].path == str((pages / "lakes.html").resolve())
        assert hits[0].xpath == "/html/body[1]/table[1]"
        assert hits[0].as_json().keys() == {"rank", "score", "source", "path", "title", "table", "caption",
                                            "headers", "preview", "xpath"}
        assert [hit.rank for hit in hits] == [1, 2, 3] and hits[0].score >= hits[1].score >= hits[2].score
        fell = searcher.search("Halti height", n=1)[0]
        assert (fell.title, fell.table, fell.preview[0][:2]) == ("Fells of Lapland", 1, ["Halti", "1,324"])
        assert fell.marks[0] == [0]  # the cell "Halti" (the header "Height (m)" is not a record)
        nested = searcher.search("municipality Enontekiö", n=1)[0]
        assert (nested.title, nested.table) == ("Fells of Lapland", 2)
        assert searcher.search("Kymijoki outflow", n=1, ranking="bm25")[0].title == "Rivers of Finland"
        assert searcher.search("zzzzqqq") == []


def test_preview_marks_the_matching_cells(linked) -> None:
    _, index = linked
    with Searcher(index) as searcher:
        hit = searcher.search("Päijänne region", n=1)[0]
    assert hit.title == "Lakes of Finland" and hit.table == 0
    assert hit.preview[0] == ["Päijänne", "1,080", "Päijät-Häme"]
    assert hit.marks[0] == [0]


def test_results_are_deterministic(linked, tmp_path) -> None:
    pages, index = linked
    again = tmp_path / "again"
    build(again, [pages / name for name in ("notables.html", "fells.html", "rivers.html", "lakes.html")])
    for query in ("largest lakes", "Finland", "height", "Gulf of Bothnia river length"):
        for ranking in ("integrative", "bm25", "pagerank"):
            with Searcher(index) as first, Searcher(again) as second:
                one = [(h.title, h.table, h.score, h.preview) for h in first.search(query, ranking=ranking)]
                two = [(h.title, h.table, h.score, h.preview) for h in second.search(query, ranking=ranking)]
                assert one == two and one == [(h.title, h.table, h.score, h.preview)
                                              for h in first.search(query, ranking=ranking)]


def test_adding_pages_does_not_rebuild_and_re_adding_is_a_no_op(tmp_path, monkeypatch) -> None:
    conversions: list[str] = []
    real = jobs.run_page

    def counting(source, options):
        conversions.append(Path(source.uri).name)
        return real(source, options)

    monkeypatch.setattr(jobs, "run_page", counting)
    pages = copy_pages(tmp_path / "pages")
    index = tmp_path / "index"
    first = build(index, [pages / "lakes.html", pages / "rivers.html"])
    assert (first.converted, conversions) == (2, ["lakes.html", "rivers.html"])
    before = _db(index).execute("SELECT id, page, position FROM tables ORDER BY id").fetchall()

    second = build(index, [pages])  # the folder: two new pages, two known
    assert sorted(conversions[2:]) == ["fells.html", "notables.html"]
    assert (second.converted, second.unchanged, second.pages, second.tables) == (2, 2, 4, 6)
    after = _db(index).execute("SELECT id, page, position FROM tables ORDER BY id").fetchall()
    assert after[:len(before)] == before  # the rows of the first pages are untouched: nothing was rebuilt
    fts_rows = _db(index).execute("SELECT rowid FROM fts ORDER BY rowid").fetchall()
    assert [row[0] for row in fts_rows] == [row[0] for row in after]

    third = build(index, [pages])
    assert (third.converted, third.unchanged, third.tables_added, len(conversions)) == (0, 4, 0, 4)

    (pages / "rivers.html").write_text((DATA / "rivers.html").read_text(encoding="utf-8").replace(
        "Kymijoki", "Vuoksi"), encoding="utf-8")
    shutil.copyfile(pages / "lakes.html", pages / "lakes-copy.html")
    fourth = build(index, [pages])
    assert (fourth.converted, fourth.replaced, fourth.copied, fourth.unchanged) == (1, 1, 1, 3)
    assert conversions[4:] == ["rivers.html"]  # the copy of lakes.html was not converted
    with Searcher(index) as searcher:
        assert searcher.counts() == (5, 8)
        assert searcher.search("Vuoksi", n=1)[0].title == "Rivers of Finland"
        assert all(hit.title != "Rivers of Finland" for hit in searcher.search("Kymijoki"))
        assert {hit.path for hit in searcher.search("Saimaa", n=5)} == {
            str((pages / "lakes.html").resolve()), str((pages / "lakes-copy.html").resolve())}


def test_an_index_without_tables_and_an_empty_query_say_so(tmp_path) -> None:
    build(tmp_path / "index", [DATA / "notables.html"])
    with Searcher(tmp_path / "index") as searcher:
        with pytest.raises(EmptyIndex, match="the index holds no table"):
            searcher.search("lakes")
    copy_pages(tmp_path / "pages", ("lakes.html",))
    build(tmp_path / "index", [tmp_path / "pages"])
    with Searcher(tmp_path / "index") as searcher:
        for query in ("", "   ", "?!"):
            with pytest.raises(EmptyQuery, match="no word to search for"):
                searcher.search(query)
        with pytest.raises(EmptyQuery, match=r"'x{59}…' has no word .*longer than 40 characters are not indexed"):
            searcher.search("x" * 5000)  # one word too long to be a term, quoted short


def test_bad_inputs_are_recorded_and_the_rest_goes_on(tmp_path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no pages to index"):
        build(tmp_path / "none", [empty])
    assert not (tmp_path / "none").exists()
    (empty / "notes.txt").write_text("not a page")
    with pytest.raises(InputError, match="1 other file"):
        build(tmp_path / "none", [empty])

    folder = copy_pages(tmp_path / "mixed", ("lakes.html",))
    (folder / "broken.warc.gz").write_bytes(gzip.compress(b"WARC/1.0\r\nWARC-Type: response\r\n")[:-6])
    (folder / "zero.html").write_bytes(b"")
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    report = build(tmp_path / "index", [folder, binary, tmp_path / "missing.html"])
    codes = sorted((Path(failure.where).name, failure.code) for failure in report.failures)
    assert codes == [("broken.warc.gz#offset=0", "input"), ("image.png", "undecodable"), ("missing.html", "not-found"),
                     ("zero.html", "empty")]
    assert report.tables == 2
    statuses = dict(_db(tmp_path / "index").execute("SELECT source, status FROM pages"))
    assert statuses[str(binary.resolve())] == "failed"
    again = build(tmp_path / "index", [binary])  # a recorded failure with the same bytes is not converted again
    assert (again.converted, again.unchanged) == (0, 1)


def _warc(path: Path, pages: list[tuple[str, bytes, str]]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for url, body, content_type in pages:
            status = "404 Not Found" if url.endswith("/gone") else "200 OK"
            headers = StatusAndHeaders(status, [("Content-Type", content_type)], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          http_headers=headers))


def test_warc_files_and_a_crawl_folder(tmp_path) -> None:
    lakes = (DATA / "lakes.html").read_bytes().replace(b'<link rel="canonical" href="https://example.org/wiki/'
                                                       b'Lakes_of_Finland">', b"")
    rivers = (DATA / "rivers.html").read_bytes().replace(b"https://example.org/wiki/Lakes_of_Finland", b"#")
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    (crawl / "warc").mkdir()
    _warc(crawl / "warc" / "crawl-00000.warc.gz", [
        ("https://lakes.test/", lakes, "text/html; charset=utf-8"),
        ("https://rivers.test/r", rivers, "text/html"),
        ("https://lakes.test/logo.png", b"\x89PNG", "image/png"),
        ("https://lakes.test/gone", b"<table><tr><td>x</td></tr></table>", "text/html")])
    with sqlite3.connect(crawl / "crawl.sqlite") as db:  # as the crawler writes it: links.source is a page id
        db.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)")
        db.execute("CREATE TABLE links (source INTEGER NOT NULL, target TEXT NOT NULL, anchor TEXT, context TEXT)")
        db.executemany("INSERT INTO pages VALUES (?, ?)", [(1, "https://lakes.test/"), (2, "https://rivers.test/r")])
        db.executemany("INSERT INTO links VALUES (?, ?, '', '')", [(1, "https://rivers.test/r")])
    report = build(tmp_path / "index", [crawl])
    assert (report.converted, report.tables, report.failures) == (2, 3, [])
    ranks = dict(_db(tmp_path / "index").execute("SELECT source, pagerank FROM pages"))
    # the pages' own links name no page fetched (rivers.html is known by its canonical URL and the URL it was fetched
    # from); the crawl's links table links lakes.test to rivers.test/r
    assert ranks["https://rivers.test/r"] > ranks["https://lakes.test/"]
    with Searcher(tmp_path / "index") as searcher:
        hit = searcher.search("Kemijoki", n=1)[0]
    assert (hit.source, hit.path) == ("https://example.org/wiki/Rivers_of_Finland",  # its canonical link
                                      str(crawl / "warc" / "crawl-00000.warc.gz"))

    (crawl / "xml").mkdir()  # the crawl's own XML outputs are not read again: its pages come from its WARC files
    from pyxform import convert

    (crawl / "xml" / "1-lakes.xml").write_text(convert(DATA / "lakes.html").xml, encoding="utf-8")
    again = build(tmp_path / "index", [crawl])
    assert (again.converted, again.read_xml, again.unchanged) == (0, 0, 2)
    alone = build(tmp_path / "warc-index", [crawl / "warc" / "crawl-00000.warc.gz"])  # a WARC file alone
    assert (alone.converted, alone.tables) == (2, 3)


def test_pyxform_xml_outputs(tmp_path) -> None:
    from pyxform import convert

    outputs = tmp_path / "out"
    outputs.mkdir()
    (outputs / "lakes.xml").write_text(convert(DATA / "lakes.html").xml, encoding="utf-8")
    (outputs / "unrelated.xml").write_text("<catalog><book>x</book></catalog>", encoding="utf-8")
    report = build(tmp_path / "index", [outputs])
    assert (report.read_xml, report.converted, report.skipped, report.tables) == (1, 0, 1, 2)
    with Searcher(tmp_path / "index") as searcher:
        hit = searcher.search("largest lakes by area Saimaa", n=1)[0]
        xml = searcher.table_xml(hit.id)
    assert (hit.title, hit.table, hit.caption, hit.path) == ("Lakes of Finland", 0, "Largest lakes by area",
                                                             str(outputs / "lakes.xml"))
    assert hit.source == str(DATA / "lakes.html")  # the page it was converted from (px:source), not the XML file
    assert "Saimaa" in xml and 'px:table="0"' in xml


def test_a_folder_that_holds_something_else_is_refused_untouched(tmp_path) -> None:
    from pyxform.base.errors import SearchIndexError

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    with sqlite3.connect(foreign / "index.sqlite") as db:  # another program's database under the same name
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(SearchIndexError, match="a database with other tables: notes"):
        build(foreign, [DATA / "rivers.html"])
    with sqlite3.connect(foreign / "index.sqlite") as db:
        assert [row[0] for row in db.execute("SELECT name FROM sqlite_master")] == ["notes"]  # nothing added

    old = tmp_path / "old"
    build(old, [DATA / "rivers.html"])
    with sqlite3.connect(old / "index.sqlite") as db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
        db.execute("DROP TABLE links")  # an older schema, say
    with pytest.raises(SearchIndexError, match="another version"):
        build(old, [DATA / "lakes.html"])
    with sqlite3.connect(old / "index.sqlite") as db:
        assert "links" not in {row[0] for row in db.execute("SELECT name FROM sqlite_master")}  # not upgraded half-way
    with pytest.raises(SearchIndexError, match="another version"):
        Searcher(old)


def test_a_damaged_index_is_an_index_error_not_a_crash(tmp_path) -> None:
    from pyxform.base.errors import SearchIndexError

    build(tmp_path / "index", [DATA / "rivers.html", DATA / "lakes.html"])
    with sqlite3.connect(tmp_path / "index" / "index.sqlite") as db:
        db.execute("DELETE FROM fts_data WHERE id > 10")  # the full-text index's pages lost
    with Searcher(tmp_path / "index") as searcher, pytest.raises(SearchIndexError, match="damaged"):
        searcher.search("Kemijoki")
    (tmp_path / "garbage").mkdir()
    (tmp_path / "garbage" / "index.sqlite").write_bytes(b"not a database" * 400)
    with pytest.raises(SearchIndexError, match="not a pyxform search index"):
        Searcher(tmp_path / "garbage")
    with pytest.raises(SearchIndexError, match="not a pyxform search index"):
        build(tmp_path / "garbage", [DATA / "rivers.html"])


def test_one_writer_at_a_time(tmp_path) -> None:
    from pyxform.base.errors import SearchIndexError
    from pyxform.wings.search.store import Store

    build(tmp_path / "index", [DATA / "rivers.html"])
    with Store(tmp_path / "index", create=True):  # another `pyxform index` is running
        with pytest.raises(SearchIndexError, match="another pyxform index is updating this index"):
            build(tmp_path / "index", [DATA / "lakes.html"])
        with Searcher(tmp_path / "index") as searcher:  # readers go on
            assert searcher.search("Kemijoki", n=1)[0].title == "Rivers of Finland"
    assert build(tmp_path / "index", [DATA / "lakes.html"]).tables == 3  # the lock went with the writer


def test_paths_are_absolute_whatever_the_input_was(tmp_path, monkeypatch) -> None:
    copy_pages(tmp_path / "pages", ("rivers.html",))
    monkeypatch.chdir(tmp_path)
    build(Path("index"), [Path("pages")])
    with Searcher(tmp_path / "index") as searcher:
        assert searcher.search("Kemijoki", n=1)[0].path == str((tmp_path / "pages" / "rivers.html").resolve())


def test_inputs_that_are_all_missing_create_no_index(tmp_path) -> None:
    from pyxform.base.errors import InputNotFound

    with pytest.raises(InputNotFound, match="no such file or folder"):
        build(tmp_path / "index", [tmp_path / "missing.html", tmp_path / "gone"])
    assert not (tmp_path / "index").exists()


def _raw_record(url: str, body: bytes, length: str | None = None) -> bytes:
    payload = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
    return (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Record-ID: <urn:uuid:{url[-1] * 8}-0000"
            f"-0000-0000-000000000000>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: "
            f"{length or len(payload)}\r\n\r\n").encode() + payload + b"\r\n\r\n"


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_broken_warc_record_costs_only_itself(tmp_path, gzipped) -> None:
    lakes, rivers, fells = ((DATA / name).read_bytes() for name in ("lakes.html", "rivers.html", "fells.html"))
    records = [_raw_record("https://x.test/1", lakes), _raw_record("https://x.test/2", rivers, length="abc"),
               b"WARC/1.0\r\nWARC-Type: response\r\n\r\n",  # no headers at all
               _raw_record("https://x.test/3", fells)]
    warc = tmp_path / ("pages.warc.gz" if gzipped else "pages.warc")
    members = [gzip.compress(record) if gzipped else record for record in records]
    warc.write_bytes(b"".join(members))
    report = build(tmp_path / "index", [warc])
    assert report.converted == 2 and report.tables == 5  # lakes (2 tables) and fells (3), after the broken ones
    # each broken record said at its offset, with its URI when its headers name one
    assert [(failure.code, failure.where, failure.message.split(": ")[0]) for failure in report.failures] == [
        ("input", f"{warc}#offset={len(members[0])}", "https://x.test/2"),
        ("input", f"{warc}#offset={len(members[0]) + len(members[1])}", "the record cannot be read")]
    with Searcher(tmp_path / "index") as searcher:
        assert searcher.search("Halti", n=1)[0].source == "https://example.org/wiki/Fells_of_Lapland"


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_warc_cut_short_inside_a_record_is_a_failure_not_a_shorter_page(tmp_path, gzipped) -> None:
    # a WARC a crawl is still writing, or one copied in part: the record the file ends inside is not indexed from
    # the part of its body that is there
    lakes, fells = ((DATA / name).read_bytes() for name in ("lakes.html", "fells.html"))
    first, second = _raw_record("https://x.test/1", lakes), _raw_record("https://x.test/2", fells)
    if gzipped:  # one gzip member a record: the second one cut in half (its body inflates in part)
        first, second = gzip.compress(first), gzip.compress(second)
    second = second[: len(second) // 2]
    warc = tmp_path / ("pages.warc.gz" if gzipped else "pages.warc")
    warc.write_bytes(first + second)
    report = build(tmp_path / "index", [warc])
    assert report.converted == 1 and report.tables == 2  # lakes only
    assert len(report.failures) == 1 and report.failures[0].code == "input"
    assert "https://x.test/2: the record is truncated" in report.failures[0].message
    with Searcher(tmp_path / "index") as searcher:
        assert not searcher.search("Halti", n=1)


@pytest.mark.parametrize("named", [False, True])
def test_a_file_named_warc_that_holds_none_is_said_never_read_as_a_page(tmp_path, named) -> None:
    folder = copy_pages(tmp_path / "pages", ("lakes.html",))
    (folder / "random.warc").write_bytes(bytes(range(256)) * 8)
    (folder / "empty.warc.gz").write_bytes(gzip.compress(b""))
    (folder / "zero.warc").write_bytes(b"")
    inputs = [folder] if not named else [folder / name for name in ("lakes.html", "random.warc", "empty.warc.gz",
                                                                    "zero.warc")]
    report = build(tmp_path / "index", inputs)
    assert report.converted == 1 and report.pages == 1  # lakes only: no WARC-named file became a page
    assert [(Path(failure.where).name, failure.code) for failure in report.failures] == [("random.warc#offset=0",
                                                                                         "input")]
    assert report.failures[0].message.startswith("not a WARC file")
    assert report.skipped == 2  # the two empty archives


def test_a_warc_gives_the_pages_batch_reads_a_whole_page_each(tmp_path) -> None:
    """One rule for both wings (:mod:`pyxform.base.warc`): a response of status 200 or 203 or a resource record, of
    an HTML media type; a 206 (a part of a page), a 204 (none) or a page its crawler cut short is no page."""
    lakes = (DATA / "lakes.html").read_bytes()

    def record(url: str, kind: str, content_type: str, block: bytes, *extra: str) -> bytes:
        fields = [f"WARC-Type: {kind}", f"WARC-Target-URI: {url}", f"WARC-Record-ID: <urn:uuid:{url}>",
                  f"Content-Type: {content_type}", *extra, f"Content-Length: {len(block)}"]
        return ("WARC/1.0\r\n" + "".join(f"{field}\r\n" for field in fields) + "\r\n").encode() + block + b"\r\n\r\n"

    http = "application/http; msgtype=response"
    warc = tmp_path / "rule.warc"
    warc.write_bytes(b"".join([
        record("https://x.test/203", "response", http, b"HTTP/1.1 203 OK\r\nContent-Type: text/html\r\n\r\n" + lakes),
        record("https://x.test/206", "response", http, b"HTTP/1.1 206 Partial Content\r\nContent-Type: text/html\r\n"
               b"Content-Range: bytes 0-99/9999\r\n\r\n" + lakes[:100]),
        record("https://x.test/204", "response", http, b"HTTP/1.1 204 No Content\r\n\r\n"),
        record("https://x.test/cut", "response", http, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
               + lakes[:500], "WARC-Truncated: length"),
        record("file:///pages/lakes.html", "resource", "text/html; charset=utf-8", lakes)]))
    items = list(read_inputs([str(warc)], max_bytes=10**7))
    assert [(item.key, item.charset, item.data == lakes) for item in items] == [
        ("https://x.test/203", None, True), ("file:///pages/lakes.html", "utf-8", True)]


def _members(gzipped: bool) -> list[bytes]:
    """Three page records (lakes, rivers, fells at https://x.test/0, 1, 2), each a gzip member if ``gzipped``."""
    bodies = [(DATA / name).read_bytes() for name in ("lakes.html", "rivers.html", "fells.html")]
    members = [_raw_record(f"https://x.test/{i}", body) for i, body in enumerate(bodies)]
    return [gzip.compress(member, mtime=0) for member in members] if gzipped else members


#: The first digit of the second record's Content-Length in a plain WARC of :func:`_members`: made a 9, the record
#: runs into the third one (which the old reader lost without a word).
_SECOND_LENGTH: Final = (len(_members(False)[0]) + _members(False)[1].index(b"Content-Length: ")
                         + len(b"Content-Length: "))
#: The end of the first gzip member: its last deflate bytes and its CRC-32.
_FIRST_END: Final = len(_members(True)[0]) - 27


def _read_warc(path: Path) -> tuple[set[str], list[InputProblem]]:
    """The keys of the pages read from a WARC file, and the problems said."""
    items = list(read_inputs([str(path)], max_bytes=10**7))
    assert all(isinstance(item, (PageInput, InputProblem)) for item in items)
    return ({item.key for item in items if isinstance(item, PageInput)},
            [item for item in items if isinstance(item, InputProblem)])


@settings(max_examples=80, deadline=None)
@given(st.booleans(), st.integers(0, 10_000), st.binary(min_size=1, max_size=40))
@example(False, _SECOND_LENGTH, b"9")
@example(True, 0, b"\x00")  # not a gzip file by its first bytes: its later members are still found
@example(True, _FIRST_END + 18, b"\xaa\x07M\x9e")  # warcio loses count of its offsets
@example(True, _FIRST_END, b"\xc4\xcc\xe4\xdd\x9f\x0bA\x10\xd9\xf2\xfa\x00%\xc8\xef\xe5")  # inflates on into noise
def test_any_damage_to_a_warc_file_is_reported_never_raised(tmp_path_factory, gzipped, where, garbage) -> None:
    """Bytes overwritten anywhere, in a plain WARC or a gzipped one (one gzip member a record): reading ends, yields
    only the file's own pages and problems, and every record the damage did not touch is read."""
    members = _members(gzipped)
    data = b"".join(members)
    where %= len(data)
    damaged = data[:where] + garbage + data[where + len(garbage):]
    path = tmp_path_factory.mktemp("warc") / ("damaged.warc.gz" if gzipped else "damaged.warc")
    path.write_bytes(damaged)
    pages, problems = _read_warc(path)
    assert len(pages) <= 3  # a damaged WARC-Target-URI is still the record's
    starts = [sum(len(member) for member in members[:i]) for i in range(3)]
    untouched = {f"https://x.test/{i}" for i, start in enumerate(starts)
                 if start + len(members[i]) <= where or start >= where + len(garbage)}
    assert untouched <= pages


@pytest.mark.parametrize("change", [-100, 4, 50, 300, 5000, "abc"])
def test_a_damaged_content_length_in_a_plain_warc_costs_only_its_record(tmp_path, change) -> None:
    """A Content-Length that ends inside the record's block, or runs into the next record (or past the end of the
    file): the record is a problem that says its offset, its URI and what is wrong, and the records after it are
    read (the search wing's own reader lost the next record, without a word, from 4 bytes too many on)."""
    members = _members(False)
    payload = len(members[1]) - members[1].index(b"\r\n\r\n") - 4 - 4  # the block: after the headers, before CRLF CRLF
    length = str(payload + change) if isinstance(change, int) else change
    second = _raw_record("https://x.test/1", (DATA / "rivers.html").read_bytes(), length=length)
    assert len(second) == len(members[1]) + len(length) - len(str(payload))
    path = tmp_path / "pages.warc"
    path.write_bytes(members[0] + second + members[2])
    pages, problems = _read_warc(path)
    assert pages == {"https://x.test/0", "https://x.test/2"}
    assert len(problems) == 1 and problems[0].code == "input"
    assert problems[0].where == f"{path}#offset={len(members[0])}"
    assert problems[0].message.startswith("https://x.test/1: the record")


def test_a_gzip_member_that_does_not_inflate_costs_only_its_record(tmp_path) -> None:
    """warcio reads a member it cannot inflate as plain bytes, and the rest of the file with it as one record (a
    case hypothesis found above): the member is reported and the next member is still read."""
    members = _members(True)
    garbage = b"\xa2-\xf6\xad\xd4$\x86 \xa5\t\\\xa7s\xa0\x86\x81\x9c\xf9\xd4\x06"
    for where in range(110, 150):  # inside the member's deflate data
        damaged = members[1][:where] + garbage + members[1][where + len(garbage):]
        path = tmp_path / f"damaged-{where}.warc.gz"
        path.write_bytes(members[0] + damaged + members[2])
        pages, problems = _read_warc(path)
        assert {"https://x.test/0", "https://x.test/2"} <= pages, where
        assert len(problems) == (len(pages) < 3), where
        if len(pages) < 3:
            assert problems[0].where == f"{path}#offset={len(members[0])}", where


def test_a_search_sees_one_state_of_the_index_while_pages_are_replaced(tmp_path) -> None:
    """A search reads the index in several statements; ``pyxform index`` may commit between them (the search page
    stays up while the index grows). Every statement of one search sees the state it started with."""
    pages = copy_pages(tmp_path / "pages", ("lakes.html", "rivers.html"))
    build(tmp_path / "index", [pages])
    lakes = pages / "lakes.html"

    class CommitsBetweenStatements:
        """The searcher's connection; right after the text query, the page of lakes changes and is indexed again."""

        def __init__(self, db: sqlite3.Connection) -> None:
            self.db, self.replaced = db, False

        def execute(self, sql: str, parameters=()):
            rows = self.db.execute(sql, parameters).fetchall()
            if "MATCH" in sql and not self.replaced:
                self.replaced = True
                lakes.write_text(lakes.read_text(encoding="utf-8").replace("Saimaa", "Saimaa basin"), encoding="utf-8")
                assert build(tmp_path / "index", [pages]).tables_added == 2  # its two tables replaced: new ids
            return _Rows(rows)

    with Searcher(tmp_path / "index") as searcher:
        before = [(hit.source, hit.table) for hit in searcher.search("largest lakes area Saimaa")]
        searcher.db = CommitsBetweenStatements(searcher.db)  # type: ignore[assignment]
        during = searcher.search("largest lakes area Saimaa")
        assert searcher.db.replaced
        assert [(hit.source, hit.table) for hit in during] == before
        assert "Saimaa basin" not in json.dumps([hit.preview for hit in during])  # the page as it was
        searcher.db = searcher.db.db
        after = searcher.search("largest lakes area Saimaa basin")
        assert "Saimaa basin" in json.dumps(after[0].preview)


class _Rows(list):
    def fetchall(self) -> list:
        return list(self)

    def fetchone(self):
        return self[0] if self else None


def test_a_tables_note_rows_are_searched_not_shown_as_records(tmp_path) -> None:
    """A source line under a table is the table's text (found by its words) but no record (not in the preview),
    from the page and from its pyxform XML output alike."""
    from pyxform import convert

    from .test_tables_format import NOTED

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "rain.html").write_text(NOTED, encoding="utf-8")
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "rain.xml").write_bytes(convert(NOTED.encode("utf-8"), source="rain.html").to_bytes())
    for inputs in ("pages", "outputs"):
        build(tmp_path / f"index-{inputs}", [tmp_path / inputs])
        with Searcher(tmp_path / f"index-{inputs}") as searcher:
            hits = searcher.search("Meteorological Institute normals")
        assert [(hit.caption, hit.table) for hit in hits] == [("Monthly rainfall", 0)], inputs
        assert hits[0].preview == [["January", "41"], ["February", "30"], ["March", "28"]], inputs


def test_the_counts_are_of_one_state_of_the_index(tmp_path) -> None:
    """The page's header line (pages, tables) while ``pyxform index`` adds a page between the two counts."""
    pages = copy_pages(tmp_path / "pages", ("lakes.html",))
    build(tmp_path / "index", [pages])
    rivers = copy_pages(tmp_path / "more", ("rivers.html",))

    class CommitsBetweenStatements:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db, self.added = db, False

        def execute(self, sql: str, parameters=()):
            rows = self.db.execute(sql, parameters).fetchall()
            if "FROM pages" in sql and not self.added:
                self.added = True
                assert build(tmp_path / "index", [rivers]).tables_added >= 1
            return _Rows(rows)

    with Searcher(tmp_path / "index") as searcher:
        before = searcher.counts()
        searcher.db = CommitsBetweenStatements(searcher.db)  # type: ignore[assignment]
        assert searcher.counts() == before == (1, 2) and searcher.db.added
        searcher.db = searcher.db.db
        assert searcher.counts()[0] == 2


ENTITY = """<!DOCTYPE html><html><head><title>Saimaa</title></head><body>
<table class="infobox"><tr><th colspan="2">Saimaa</th></tr><tr><th>Location</th><td>South Karelia</td></tr>
<tr><th>Type</th><td>Glacial lake</td></tr><tr><th>Surface area</th><td>4,400 km2</td></tr>
<tr><th>Max depth</th><td>85 m</td></tr><tr><td colspan="2">Source: Finnish Environment Institute</td></tr>
</table></body></html>"""


def test_an_entity_tables_xml_output_is_one_record(tmp_path) -> None:
    """An entity table (key-value pairs, ``px:table-kind="entity"``) is written by map as one record: its keys are
    its columns, its values one record, its note row a note."""
    from pyxform import convert

    from pyxform.wings.search.extract import page_from_output

    xml = convert(ENTITY.encode("utf-8"), source="saimaa.html").to_bytes()
    assert b'px:table-kind="entity"' in xml
    table = page_from_output(xml, location="saimaa.xml")["tables"][0]
    assert [column["levels"] for column in table["columns"]] == [["Location"], ["Type"], ["Surface area"],
                                                                  ["Max depth"]]
    assert table["records"] == [["South Karelia", "Glacial lake", "4,400 km2", "85 m"]]
    assert table["notes"] == ["Source: Finnish Environment Institute"]
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "saimaa.xml").write_bytes(xml)
    build(tmp_path / "index", [tmp_path / "outputs"])
    with Searcher(tmp_path / "index") as searcher:
        hit = searcher.search("glacial lake South Karelia")[0]
    assert hit.preview == [["South Karelia", "Glacial lake", "4,400 km2", "85 m"]]
