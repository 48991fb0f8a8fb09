"""The parts of pyxform batch that need no cluster: WARC walking and recovery, input kinds, output names, the
manifest (issue 16)."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyxform.base import warc
from pyxform.base.errors import ArchiveError, OutputError
from pyxform.base.limits import Limits
from pyxform.wings.batch import inputs
from pyxform.wings.batch.manifest import Manifest
from pyxform.wings.batch.names import digest, output_stem, slug

warcio = pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

PAGE = b"<table><tr><th>A</th></tr><tr><td>1</td></tr></table>"
MAX_BYTES = Limits().max_page_bytes


def records_bytes(specs: list[tuple[str, bytes, str, str]], *, compressed: bool) -> tuple[bytes, list[int]]:
    """WARC bytes of response records ``(uri, body, content type, status)`` and their offsets."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=compressed)
    offsets = []
    for uri, body, content_type, status in specs:
        offsets.append(out.tell())
        headers = StatusAndHeaders(status, [("Content-Type", content_type)], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body),
                                                      http_headers=headers))
    return out.getvalue(), offsets


SPECS = [("http://a.test/1", PAGE, "text/html; charset=ISO-8859-1", "200 OK"),
         ("http://a.test/2", b"<p>two</p>", "text/html", "200 OK"),
         ("http://a.test/3.png", b"\x89PNG", "image/png", "200 OK"),
         ("http://a.test/4", PAGE, "application/xhtml+xml", "200 OK"),
         ("http://a.test/5", PAGE, "text/html", "301 Moved Permanently")]


@pytest.mark.parametrize("compressed", [True, False])
def test_scan_tells_pages_and_skips_and_read_page_reads_them(tmp_path: Path, compressed: bool) -> None:
    data, offsets = records_bytes(SPECS, compressed=compressed)
    path = tmp_path / ("a.warc.gz" if compressed else "a.warc")
    path.write_bytes(data)
    found = list(warc.scan(str(path)))
    assert [type(item).__name__ for item in found] == ["WarcPage", "WarcPage", "WarcSkip", "WarcPage", "WarcSkip"]
    assert [item.offset for item in found] == offsets
    assert [item.reason for item in found if isinstance(item, warc.WarcSkip)] == ["non-HTML response",
                                                                                 "non-200/203 response"]
    assert warc.read_page(str(path), offsets[0], MAX_BYTES) == (PAGE, "http://a.test/1", "ISO-8859-1")
    assert warc.read_page(str(path), offsets[3], MAX_BYTES) == (PAGE, "http://a.test/4", None)
    assert warc.read_page(str(path), offsets[0], 10)[0] == PAGE[:11]  # enough to tell it is over the limit
    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import work

    page = inputs.PageRef("k", "http://a.test/1", "warc", str(path), offsets[0])
    with pytest.raises(Exception) as caught:
        work.read_page(page, work.TaskSettings(str(tmp_path), PageOptions(limits=Limits(max_page_bytes=10))))
    assert getattr(caught.value, "limit", None) == "max_page_bytes"


def test_a_truncated_gzip_member_is_reported_and_the_walk_goes_on(tmp_path: Path) -> None:
    data, offsets = records_bytes(SPECS, compressed=True)
    cut = offsets[1] + (offsets[2] - offsets[1]) // 2
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(data[:cut] + data[offsets[2]:])
    found = list(warc.scan(str(path)))
    broken = found[1]
    assert isinstance(broken, warc.WarcBroken)
    assert (broken.offset, broken.uri) == (offsets[1], "http://a.test/2")  # the URI read from what inflates
    shift = offsets[2] - cut
    assert [item.offset for item in found[2:]] == [offset - shift for offset in offsets[2:]]
    assert isinstance(found[3], warc.WarcPage) and found[3].uri == "http://a.test/4"


def test_an_uncompressed_record_cut_short_is_reported_and_the_next_records_are_kept(tmp_path: Path) -> None:
    data, offsets = records_bytes(SPECS, compressed=False)
    path = tmp_path / "cut.warc"
    for cut in (offsets[1] + 60, offsets[1] + (offsets[2] - offsets[1]) - 20):  # in the headers; in the body
        path.write_bytes(data[:cut] + data[offsets[2]:])
        found = list(warc.scan(str(path)))
        assert isinstance(found[1], warc.WarcBroken) and found[1].offset == offsets[1], found
        assert [item.uri for item in found if isinstance(item, warc.WarcPage)] == ["http://a.test/1",
                                                                                  "http://a.test/4"]
        assert len(found) == 5  # the record after the cut one is found again


def test_a_warc_ending_in_a_truncated_record_reports_it(tmp_path: Path) -> None:
    for compressed in (True, False):
        data, offsets = records_bytes(SPECS[:2], compressed=compressed)
        path = tmp_path / f"end{compressed}.warc"
        path.write_bytes(data[:-30])
        found = list(warc.scan(str(path)))
        assert isinstance(found[0], warc.WarcPage)
        assert isinstance(found[1], warc.WarcBroken) and found[1].offset == offsets[1]


def test_a_single_gzip_stream_not_a_warc_and_an_empty_file(tmp_path: Path) -> None:
    data, _ = records_bytes(SPECS, compressed=False)
    single = tmp_path / "single.warc.gz"
    single.write_bytes(gzip.compress(data))
    [item] = warc.scan(str(single))
    assert isinstance(item, warc.WarcBroken) and "warcio recompress" in item.message
    other = tmp_path / "other.warc"
    other.write_bytes(b"%PDF-1.4 not an archive")
    [item] = warc.scan(str(other))
    assert isinstance(item, warc.WarcBroken) and item.message.startswith("not a WARC file")
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    assert list(warc.scan(str(empty))) == []
    with pytest.raises(ArchiveError):
        warc.read_page(str(other), 0, MAX_BYTES)


@pytest.mark.parametrize(("head", "html"), [
    (b"<!DOCTYPE html><table>", True), (b"\n\t <HTML lang=en>", True), (b"<table>", True), (b"<p>x", True),
    (b"<!-- c --><b>", True), (b"<b>", True), (b"<br/>", False), (b"<?xml version='1.0'?>", False),
    (b"{\"json\": 1}", False), (b"<tablex>", False), (b"\xef\xbb\xbf<html>", False), (b"", False)])
def test_html_is_sniffed_by_the_whatwg_rule(head: bytes, html: bool) -> None:
    assert warc.sniffs_as_html(head) is html


def test_media_types_decide_before_sniffing() -> None:
    assert warc.is_html("TEXT/HTML ; charset=utf-8") and warc.is_html("application/xhtml+xml")
    assert not warc.is_html("text/plain", head=b"<html>")
    assert warc.is_html(None, "text/html") and not warc.is_html("", "application/pdf", b"<html>")
    assert warc.is_html(None, None, b"<html>")


# -- input kinds ------------------------------------------------------------------------------------------------------
def test_input_kinds_from_content_then_name(tmp_path: Path) -> None:
    data, _ = records_bytes(SPECS[:1], compressed=True)
    cases = {"crawl.bin": data, "crawl.warc.gz": b"garbage", "urls.txt": b"<html>",
             "list": b"\n# urls\nhttps://x.test/\n", "page": b"<table>", "page.html": b"https://x.test/ in a page"}
    kinds = {}
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        kinds[name] = inputs.input_kind(str(tmp_path / name))
    assert kinds == {"crawl.bin": "warc", "crawl.warc.gz": "warc", "urls.txt": "urls", "list": "urls", "page": "html",
                     "page.html": "html"}


def test_a_binary_url_list_is_one_failure_not_a_failure_a_line(tmp_path: Path) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_bytes(b"\0\1\2\n" * 1000)
    items = list(inputs.pages([str(listing)]))
    assert len(items) == 1 and isinstance(items[0], inputs.Failure) and "binary" in items[0].error.message


# -- names ------------------------------------------------------------------------------------------------------------
SAFE_NAME = re.compile(r"pages/[A-Za-z0-9._-]+/[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{16}")


@given(st.text(max_size=300), st.booleans())
def test_every_output_name_is_safe_short_and_a_function_of_its_key(source: str, local: bool) -> None:
    key = f"file:///x#{source}"
    stem = output_stem(key, source, local_file=local)
    assert SAFE_NAME.fullmatch(stem), stem
    assert all(len(part) <= 120 for part in stem.split("/"))
    assert stem == output_stem(key, source, local_file=local)
    assert stem.endswith(digest(key))


@given(st.text(min_size=1, max_size=50), st.text(min_size=1, max_size=50))
def test_different_keys_give_different_names(first: str, second: str) -> None:
    if first != second:
        url = "https://same.test/page"
        assert output_stem(first, url, local_file=False) != output_stem(second, url, local_file=False)


def test_names_read_like_their_url_or_file() -> None:
    assert output_stem("k", "https://Example.ORG:8080/wiki/Z%C3%BCrich?x=1", local_file=False).startswith(
        "pages/example.org_8080/wiki_Zurich_x_1-")
    assert output_stem("k", "http://host.test/", local_file=False).startswith("pages/host.test/index-")
    assert output_stem("k", "http://host.test/a/b.HTML", local_file=False).startswith("pages/host.test/a_b-")
    assert output_stem("k", "dir/.hidden.page.html", local_file=True).startswith("pages/_files/hidden.page-")
    assert output_stem("k", "not a url", local_file=False).startswith("pages/_unknown/not_a_url-")
    assert slug("...") == "page" and slug("中文") == "page"


# -- the manifest -----------------------------------------------------------------------------------------------------
def test_the_manifest_drops_a_line_cut_short_and_refuses_what_is_not_its_own(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    Manifest(folder, {"format": "json"}, resume=False).close()  # no page recorded: the options may change
    assert json.loads((folder / "batch.json").read_text())["options"] == {"format": "json"}
    with Manifest(folder, {"format": "xml"}, resume=False) as manifest:
        manifest.write([{"key": "a", "status": "ok", "tables": 2}, {"key": "b", "status": "failed", "tables": 0}])
    with open(folder / "manifest.jsonl", "a", encoding="utf-8") as stream:
        stream.write('{"key": "c", "sta')  # a kill in the middle of a line
    with Manifest(folder, {"format": "xml"}, resume=True) as manifest:
        assert manifest.done == {"a", "b"} and manifest.previous == {"ok": 1, "failed": 1}
        assert manifest.previous_tables == 2
        manifest.write([{"key": "c", "status": "ok", "tables": 1}])
    lines = (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["a", "b", "c"]
    with pytest.raises(OutputError, match="--resume"):
        Manifest(folder, {"format": "xml"}, resume=False)
    with pytest.raises(OutputError, match="'xml' then, 'csv' now"):
        Manifest(folder, {"format": "csv"}, resume=True)
    (folder / "manifest.jsonl").write_text("not json\n")
    with pytest.raises(OutputError, match="line 1 is not a page record"):
        Manifest(folder, {"format": "xml"}, resume=True)


# -- WARC edge cases (review of issue 16) -------------------------------------------------------------------------
def raw_record(uri: str, block: bytes, *, version: str = "1.0", record_type: str = "response",
               content_type: str = "application/http; msgtype=response", extra: tuple[str, ...] = ()) -> bytes:
    """One WARC record written byte by byte (warcio writes WARC/1.0 and 1.1 only); no ``Content-Type`` if
    ``content_type`` is empty."""
    headers = [f"WARC/{version}", f"WARC-Type: {record_type}", f"WARC-Target-URI: {uri}",
               "WARC-Date: 2024-01-01T00:00:00Z", "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>",
               *([f"Content-Type: {content_type}"] if content_type else []), *extra, f"Content-Length: {len(block)}"]
    return ("\r\n".join(headers) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def http_response(body: bytes, *headers: str, status: str = "200 OK") -> bytes:
    return ("\r\n".join([f"HTTP/1.1 {status}", *headers]) + "\r\n\r\n").encode() + body


@pytest.mark.parametrize("compressed", [True, False])
@pytest.mark.parametrize("version", ["0.17", "0.18"])
def test_a_warc_of_the_drafts_before_iso_28500_is_read(tmp_path: Path, compressed: bool, version: str) -> None:
    # Heritrix 1.x and the Internet Archive's older archives write WARC/0.17 and WARC/0.18; warcio reads them
    records = [raw_record(f"http://old.test/{n}", http_response(PAGE, "Content-Type: text/html"), version=version)
               for n in range(2)]
    data = b"".join(gzip.compress(record) if compressed else record for record in records)
    path = tmp_path / ("old.warc.gz" if compressed else "old.warc")
    path.write_bytes(data)
    assert inputs.input_kind(str(path)) == "warc"
    (tmp_path / "old.bin").write_bytes(data)
    assert inputs.input_kind(str(tmp_path / "old.bin")) == "warc"  # by its content, not its name
    found = list(warc.scan(str(path)))
    assert [(type(item).__name__, item.uri) for item in found] == [("WarcPage", "http://old.test/0"),
                                                                   ("WarcPage", "http://old.test/1")]
    assert warc.read_page(str(path), found[1].offset, MAX_BYTES)[:2] == (PAGE, "http://old.test/1")


def test_a_response_without_a_media_type_is_sniffed_after_content_decoding(tmp_path: Path) -> None:
    records = [raw_record("http://z.test/gzip", http_response(gzip.compress(b"<!DOCTYPE html>" + PAGE),
                                                              "Content-Encoding: gzip")),
               raw_record("http://z.test/plain", http_response(b"<!DOCTYPE html>" + PAGE)),
               raw_record("http://z.test/binary", http_response(gzip.compress(bytes(range(256))),
                                                                "Content-Encoding: gzip"))]
    path = tmp_path / "sniff.warc.gz"
    path.write_bytes(b"".join(gzip.compress(record) for record in records))
    found = list(warc.scan(str(path)))
    assert [type(item).__name__ for item in found] == ["WarcPage", "WarcPage", "WarcSkip"]
    assert warc.read_page(str(path), found[0].offset, MAX_BYTES)[0] == b"<!DOCTYPE html>" + PAGE


@pytest.mark.parametrize("compressed", [True, False])
def test_a_page_is_a_whole_html_response_of_status_200_or_203_or_an_html_resource(tmp_path: Path,
                                                                                   compressed: bool) -> None:
    # ISO 28500 record types, RFC 9110 section 15.3: which records hold a whole page
    html = "Content-Type: text/html"
    records = [raw_record("http://s.test/200", http_response(PAGE, html)),
               raw_record("http://s.test/203", http_response(PAGE, html, status="203 Non-Authoritative Information")),
               raw_record("http://s.test/201", http_response(PAGE, html, status="201 Created")),
               raw_record("http://s.test/204", http_response(b"", html, status="204 No Content")),
               raw_record("http://s.test/206", http_response(PAGE[:9], html, "Content-Range: bytes 0-8/52",
                                                             status="206 Partial Content")),
               raw_record("file:///site/page.html", PAGE, record_type="resource",
                          content_type="text/html; charset=windows-1252"),
               raw_record("urn:x-sniffed", b"<!DOCTYPE html>" + PAGE, record_type="resource", content_type=""),
               raw_record("http://s.test/log", b"<html>", record_type="resource", content_type="text/plain"),
               raw_record("http://s.test/cut", http_response(PAGE, html), extra=("WARC-Truncated: length",)),
               raw_record("http://s.test/old", http_response(PAGE, html), record_type="revisit"),
               raw_record("http://s.test/new", PAGE, record_type="conversion", content_type="text/html")]
    path = tmp_path / ("rule.warc.gz" if compressed else "rule.warc")
    path.write_bytes(b"".join(gzip.compress(record) if compressed else record for record in records))
    found = list(warc.scan(str(path)))
    assert [item.uri if isinstance(item, warc.WarcPage) else item.reason for item in found] == [
        "http://s.test/200", "http://s.test/203", "non-200/203 response", "non-200/203 response",
        "non-200/203 response", "file:///site/page.html", "urn:x-sniffed", "non-HTML resource",
        "truncated response (WARC-Truncated)", "revisit record", "conversion record"]
    assert warc.read_page(str(path), found[5].offset, MAX_BYTES) == (PAGE, "file:///site/page.html", "windows-1252")
    assert warc.read_page(str(path), found[1].offset, MAX_BYTES) == (PAGE, "http://s.test/203", None)


def test_a_response_record_without_http_headers_is_no_page_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "raw.warc.gz"
    path.write_bytes(gzip.compress(raw_record("http://r.test/", PAGE, content_type="text/html"))
                     + gzip.compress(raw_record("http://r.test/ok", http_response(PAGE, "Content-Type: text/html"))))
    found = list(warc.scan(str(path)))
    assert [getattr(item, "reason", None) for item in found] == ["response without HTTP headers", None]


def test_an_empty_warc_file_is_counted_as_skipped(tmp_path: Path) -> None:
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    assert [item for item in inputs.pages([str(empty)])] == [inputs.Skip("empty WARC file")]
    empty.write_bytes(gzip.compress(b""))  # compressed, it is still empty
    assert [item for item in inputs.pages([str(empty)])] == [inputs.Skip("empty WARC file")]


def test_a_gzipped_warc_whose_first_member_is_damaged_at_its_start_is_read_from_its_next_member(tmp_path: Path) -> None:
    data, offsets = records_bytes(SPECS, compressed=True)
    path = tmp_path / "damaged.warc.gz"
    path.write_bytes(b"\0\0" + data[2:])  # no gzip magic: the file does not look gzipped from its first bytes
    found = list(warc.scan(str(path)))
    assert isinstance(found[0], warc.WarcBroken) and found[0].offset == 0
    assert found[0].message.endswith(f"the archive goes on at byte {offsets[1]}")
    assert [item.offset for item in found[1:]] == offsets[1:]


def test_a_file_reached_by_two_paths_is_one_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "a" / "p.html").write_bytes(PAGE)
    (tmp_path / "link").symlink_to(site)
    given = [str(site), str(site / "a" / ".." / "a" / "p.html"), str(tmp_path / "link" / "a" / "p.html"),
             str(tmp_path / "link")]
    items = list(inputs.pages(given))
    assert [type(item).__name__ for item in items] == ["PageRef", "Skip", "Skip", "Skip"]
    assert items[0].source == str(site / "a" / "p.html")  # the path as found first
    assert items[0].location == str(site / "a" / "p.html")  # read where it was found (a cluster's shared path)


def test_a_folder_is_one_batch_at_a_time(tmp_path: Path) -> None:
    folder = tmp_path / "batch"
    with Manifest(folder, {"format": "xml"}, resume=False) as running:
        running.write([{"key": "a", "status": "ok", "tables": 1}])
        with pytest.raises(OutputError, match="another pyxform batch is running on this folder"):
            Manifest(folder, {"format": "xml"}, resume=True)
    with Manifest(folder, {"format": "xml"}, resume=True) as resumed:  # the lock ends with the run
        assert resumed.done == {"a"}


def test_the_batch_folder_must_be_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="cannot create the batch folder"):
        Manifest(tmp_path / "file", {}, resume=False)
    with pytest.raises(OutputError, match="cannot create the batch folder"):
        Manifest(tmp_path / "file" / "below", {}, resume=False)


@pytest.mark.parametrize("address", ["nonsense", "tcp://host-without-port", "inproc://x", "gopher://host:1"])
def test_a_scheduler_address_that_cannot_be_one_is_refused_before_anything(tmp_path: Path, address: str) -> None:
    from pyxform.base.errors import ClusterError
    from pyxform.wings.batch import run_batch

    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    with pytest.raises(ClusterError, match="not a Dask scheduler address") as caught:
        run_batch([str(page)], tmp_path / "out", scheduler=address)
    assert caught.value.location == address
    assert not (tmp_path / "out").exists()  # refused before the batch folder is made


def test_a_task_writes_each_page_while_the_next_converts_and_a_write_that_fails_costs_its_page(tmp_path: Path) -> None:
    from pyxform import convert
    from pyxform.base.source import Source
    from pyxform.jobs import PageOptions
    from pyxform.wings.batch.work import TaskSettings, convert_chunk

    specs = [("http://blocked.test/1", PAGE, "text/html", "200 OK"),
             ("http://fine.test/2", PAGE, "text/html", "200 OK"),
             ("http://fine.test/3", b"<p>none</p>", "text/html", "200 OK")]
    data, _ = records_bytes(specs, compressed=True)
    archive = tmp_path / "a.warc.gz"
    archive.write_bytes(data)
    refs = [item for item in inputs.pages([str(archive)]) if isinstance(item, inputs.PageRef)]
    folder = tmp_path / "out"
    (folder / "pages").mkdir(parents=True)
    (folder / "pages" / "blocked.test").write_text("a file where the site's folder goes")
    result = convert_chunk(refs, TaskSettings(str(folder), PageOptions(limits=Limits(timeout=0, max_memory=0))))
    blocked, fine, none = result.records
    assert (blocked["status"], blocked["reason"]["code"]) == ("failed", "output")
    assert blocked["reason"]["message"].startswith("cannot write the output")
    assert (fine["status"], fine["tables"]) == ("ok", 1)
    assert (folder / fine["output"]).read_bytes() == convert(Source(PAGE, "http://fine.test/2")).to_bytes()
    assert (none["status"], none["output"]) == ("no-tables", None)
    assert all(record["seconds"] >= 0 for record in result.records) and result.convert_seconds > 0


def _chunk_of(tmp_path: Path, specs: list[tuple[str, bytes, str, str]]) -> list[inputs.PageRef]:
    data, _ = records_bytes(specs, compressed=True)
    archive = tmp_path / "chunk.warc.gz"
    archive.write_bytes(data)
    return [item for item in inputs.pages([str(archive)]) if isinstance(item, inputs.PageRef)]


def test_an_unexpected_error_on_the_write_thread_costs_its_page_with_its_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import work

    refs = _chunk_of(tmp_path, [("http://bad.test/1", PAGE, "text/html", "200 OK"),
                                ("http://fine.test/2", PAGE, "text/html", "200 OK")])
    real = work.atomic_write

    def failing_write(path: Path, data: bytes) -> None:
        if "bad.test" in str(path):
            raise MemoryError("no room for the output")
        real(path, data)

    monkeypatch.setattr(work, "atomic_write", failing_write)
    folder = tmp_path / "out"
    result = work.convert_chunk(refs, work.TaskSettings(str(folder), PageOptions(limits=Limits(timeout=0,
                                                                                               max_memory=0))))
    bad, fine = result.records  # the task did not fail: each page has its record
    assert (bad["status"], bad["output"], bad["reason"]["code"]) == ("failed", None, "internal")
    assert "MemoryError: no room for the output" in bad["reason"]["message"]
    assert fine["status"] == "ok" and (folder / fine["output"]).is_file()


def test_a_page_whose_write_fails_part_way_leaves_none_of_its_outputs(tmp_path: Path) -> None:
    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import work

    two_tables = PAGE + b"<p>and</p>" + PAGE.replace(b"A", b"B")
    refs = _chunk_of(tmp_path, [("http://csv.test/1", two_tables, "text/html", "200 OK")])
    folder = tmp_path / "out"
    (folder / (refs[0].output + "-1.csv")).mkdir(parents=True)  # the second table's file cannot be written
    settings = work.TaskSettings(str(folder), PageOptions(format="csv", limits=Limits(timeout=0, max_memory=0)))
    (record,) = work.convert_chunk(refs, settings).records
    assert (record["status"], record["reason"]["code"]) == ("failed", "output")
    assert not (folder / (refs[0].output + "-0.csv")).exists()  # no output of a page recorded as failed
    (folder / (refs[0].output + "-1.csv")).rmdir()
    (record,) = work.convert_chunk(refs, settings).records
    assert record["status"] == "ok" and sorted(record["output"]) == [refs[0].output + "-0.csv",
                                                                     refs[0].output + "-1.csv"]


def test_a_task_holds_at_most_one_page_of_outputs_waiting_for_the_disk(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Page 1's write is held back: the task converts page 2 meanwhile, but not page 3 (its outputs would pile up
    in memory behind a slow disk). No clock is raced: a task without the bound converts page 3 while page 1's write
    waits (up to 2 s for it); with the bound the order is the same however slow the machine."""
    import threading

    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import work

    refs = _chunk_of(tmp_path, [(f"http://slow.test/{n}", PAGE, "text/html", "200 OK") for n in (1, 2, 3)])
    events: list[str] = []
    third_started = threading.Event()
    real_write, real_run = work.atomic_write, work.run_page

    def slow_write(path: Path, data: bytes) -> None:
        if refs[0].output in str(path):
            third_started.wait(timeout=2)
            events.append("written 1")
        real_write(path, data)

    def logged_run(source: object, options: PageOptions) -> object:
        uri = getattr(source, "uri")
        events.append("convert " + uri[-1])
        if uri.endswith("/3"):
            third_started.set()
        return real_run(source, options)  # type: ignore[arg-type]

    monkeypatch.setattr(work, "atomic_write", slow_write)
    monkeypatch.setattr(work, "run_page", logged_run)
    result = work.convert_chunk(refs, work.TaskSettings(str(tmp_path / "out"),
                                                        PageOptions(limits=Limits(timeout=0, max_memory=0))))
    assert [record["status"] for record in result.records] == ["ok", "ok", "ok"]
    assert events == ["convert 1", "convert 2", "written 1", "convert 3"]


def test_a_worker_killed_while_it_writes_leaves_no_part_of_an_output_and_the_page_is_done_again(tmp_path: Path) -> None:
    """A worker process killed (``os._exit``, as SIGKILL) between writing an output's temporary file and renaming
    it: no output under its name, only the temporary; the task returned nothing, so the driver recorded nothing and
    the page is done again (``--resume``), which leaves the whole output and removes the dead writer's file."""
    import pickle
    import subprocess
    import sys

    from pyxform import convert
    from pyxform.base.files import TEMPORARY_PATTERN
    from pyxform.base.source import Source
    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import work

    refs = _chunk_of(tmp_path, [("http://killed.test/1", PAGE, "text/html", "200 OK")])
    folder = tmp_path / "out"
    settings = work.TaskSettings(str(folder), PageOptions(limits=Limits(timeout=0, max_memory=0)))
    script = ("import os, pickle, sys\n"
              "from pyxform.wings.batch import work\n"
              "refs, settings = pickle.loads(sys.stdin.buffer.read())\n"
              "os.replace = lambda *args: os._exit(9)  # killed after the temporary file, before its rename\n"
              "work.convert_chunk(refs, settings)\n"
              "sys.exit(0)\n")
    child = subprocess.run([sys.executable, "-c", script], input=pickle.dumps((refs, settings)), timeout=600,
                           capture_output=True)
    assert child.returncode == 9, child.stderr.decode()
    site = folder / refs[0].output
    left = sorted(path.name for path in site.parent.iterdir())
    assert len(left) == 1 and TEMPORARY_PATTERN.match(left[0]) and left[0].startswith("." + site.name + ".xml.pyxform-")
    (record,) = work.convert_chunk(refs, settings).records  # the run that resumes
    assert record["status"] == "ok"
    assert sorted(path.name for path in site.parent.iterdir()) == [site.name + ".xml"]
    assert (folder / record["output"]).read_bytes() == convert(Source(PAGE, "http://killed.test/1")).to_bytes()


def _big_page(seed: int) -> bytes:
    """A page of about 120 KB that gzip cannot shrink much (its cells are random words): its gzip member spans
    several of warcio's 16 KiB reads."""
    import random

    rng = random.Random(seed)
    rows = "".join("<tr>" + "".join(f"<td>{rng.getrandbits(64):x}</td>" for _ in range(8)) + "</tr>"
                   for _ in range(700))
    return f"<table><tr><th>h</th></tr>{rows}</table>".encode()


def test_a_gzip_member_corrupt_in_its_middle_is_a_broken_record_and_nothing_is_printed(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    specs = [("http://a.test/1", PAGE, "text/html", "200 OK"), ("http://a.test/2", _big_page(1), "text/html", "200 OK"),
             ("http://a.test/3", PAGE, "text/html", "200 OK")]
    data, offsets = records_bytes(specs, compressed=True)
    broken = bytearray(data)
    middle = (offsets[1] + offsets[2]) // 2
    broken[middle] ^= 0xFF
    path = tmp_path / "flipped.warc.gz"
    path.write_bytes(bytes(broken))
    found = list(warc.scan(str(path)))
    assert [(type(item).__name__, item.offset) for item in found] == [
        ("WarcPage", offsets[0]), ("WarcBroken", offsets[1]), ("WarcPage", offsets[2])]
    assert found[1].uri == "http://a.test/2"
    assert "DecodingError" in found[1].message  # what went wrong, not "the file ends before its Content-Length"
    assert capfd.readouterr().err == ""  # warcio's own error lines (one per 16 KiB read) kept off standard error


def test_a_page_whose_content_encoding_is_corrupt_is_an_archive_error_not_a_shorter_page(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    body = bytearray(gzip.compress(_big_page(2)))
    body[len(body) // 2] ^= 0xFF
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
                               protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record("http://a.test/z", "response", payload=io.BytesIO(bytes(body)),
                                                  http_headers=headers))
    path = tmp_path / "encoded.warc.gz"
    path.write_bytes(out.getvalue())
    (item,) = warc.scan(str(path))
    assert isinstance(item, warc.WarcPage)  # the record is whole: its body's content coding is the page's problem
    with pytest.raises(ArchiveError) as caught:
        warc.read_page(str(path), 0, MAX_BYTES)
    assert "DecodingError" in caught.value.message and caught.value.location == f"{path}#offset=0"
    assert capfd.readouterr().err == ""


def _raw_record(headers: list[str], body: bytes) -> bytes:
    """An uncompressed WARC record with these WARC headers (``Content-Length`` added) and block."""
    return ("WARC/1.0\r\n" + "".join(line + "\r\n" for line in headers)
            + f"Content-Length: {len(body)}\r\n\r\n").encode() + body + b"\r\n\r\n"


HTTP_PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + PAGE


@pytest.mark.parametrize("compressed", [False, True])
def test_a_response_record_without_a_target_uri_is_a_broken_record_not_the_end_of_the_batch(
        tmp_path: Path, compressed: bool) -> None:
    no_uri = _raw_record(["WARC-Type: response", "WARC-Record-ID: <urn:uuid:1>",
                          "Content-Type: application/http; msgtype=response"], HTTP_PAGE)
    good = _raw_record(["WARC-Type: response", "WARC-Record-ID: <urn:uuid:2>", "WARC-Target-URI: http://a.test/2",
                        "Content-Type: application/http; msgtype=response"], HTTP_PAGE)
    path = tmp_path / ("a.warc.gz" if compressed else "a.warc")
    path.write_bytes(gzip.compress(no_uri) + gzip.compress(good) if compressed else no_uri + good)
    found = list(warc.scan(str(path)))  # warcio's own AttributeError was the batch's internal error
    assert [type(item).__name__ for item in found] == ["WarcBroken", "WarcPage"]
    assert (found[0].offset, found[0].uri) == (0, None)
    assert found[0].message.startswith("the record cannot be read: warcio fails on its headers")
    assert found[1].uri == "http://a.test/2"
    assert warc.read_page(str(path), found[1].offset, MAX_BYTES)[:2] == (PAGE, "http://a.test/2")


def test_a_target_uri_with_spaces_is_read_without_a_line_on_standard_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    record = _raw_record(["WARC-Type: response", "WARC-Target-URI: http://a.test/a page",
                          "Content-Type: application/http; msgtype=response"], HTTP_PAGE)
    path = tmp_path / "spaces.warc"
    path.write_bytes(record)
    (page,) = warc.scan(str(path))
    assert isinstance(page, warc.WarcPage) and page.uri == "http://a.test/a%20page"  # as warcio mends it
    # in a process of its own: pytest's log capture would hide what Python's last-resort handler prints
    script = "import sys\nfrom pyxform.base import warc\nprint(len(list(warc.scan(sys.argv[1]))))\n"
    run = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=600)
    assert (run.stdout, run.stderr) == ("1\n", "")  # warcio's logged warning was a line per record on the terminal


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"), RuntimeError("a bug in the WARC reader")])
def test_an_archive_that_fails_part_way_is_recorded_once_and_the_next_input_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def failing_scan(path: str) -> object:
        yield warc.WarcPage(0, "http://a.test/1", 100)
        raise error

    monkeypatch.setattr(inputs.warc, "scan", failing_scan)
    archive = tmp_path / "a.warc"
    archive.write_bytes(b"WARC/1.0\r\n")
    page = tmp_path / "b.html"
    page.write_bytes(PAGE)
    items = list(inputs.pages([str(archive), str(page)]))
    assert [type(item).__name__ for item in items] == ["PageRef", "Failure", "PageRef"]  # none "given twice"
    first, failure, last = items
    assert first.key.endswith("a.warc#offset=0") and failure.key.endswith("a.warc#after=0")
    expected = ("archive", "cannot read the file: Input/output error") if isinstance(error, OSError) else \
        ("internal", "RuntimeError: a bug in the WARC reader (please report this)")
    assert (failure.error.code, failure.error.message) == expected
    assert last.source == str(page)


@pytest.mark.parametrize("headers", [
    ["X-Long: " + "A" * (2 << 20)],  # one line of 2 MiB
    [f"X-Many-{number}: " + "B" * 1000 for number in range(17_000)],  # 17 MB of lines of 1 KB
], ids=["a long line", "many lines"])
def test_a_record_whose_headers_inflate_beyond_reason_is_broken_and_its_neighbours_read(
        tmp_path: Path, headers: list[str]) -> None:
    """A gzip member of a few kilobytes may inflate to gigabytes of header lines (a gzip bomb): warcio would hold
    them all in the driver's memory. Past a 1 MiB line or 16 MiB of one record's header lines the record is broken."""
    bomb = _raw_record(["WARC-Type: response", "WARC-Target-URI: http://a.test/1", *headers,
                        "Content-Type: application/http; msgtype=response"], HTTP_PAGE)
    good = _raw_record(["WARC-Type: response", "WARC-Target-URI: http://a.test/2",
                        "Content-Type: application/http; msgtype=response"], HTTP_PAGE)
    path = tmp_path / "bomb.warc.gz"
    path.write_bytes(gzip.compress(good) + gzip.compress(bomb) + gzip.compress(good.replace(b"/2", b"/3")))
    found = list(warc.scan(str(path)))
    assert [type(item).__name__ for item in found] == ["WarcPage", "WarcBroken", "WarcPage"]
    assert found[1].message.startswith("the record cannot be read: its headers go on beyond reason")
    assert "HeadersTooLarge" in found[1].message and found[1].uri == "http://a.test/1"
    assert found[2].uri == "http://a.test/3"


def test_a_folder_that_cannot_be_listed_is_a_failure_not_pages_silently_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A subfolder without read permission (root reads every folder, so the refusal is made here: ``os.walk``
    lists folders with ``os.scandir``)."""
    import os

    (tmp_path / "in" / "a").mkdir(parents=True)
    (tmp_path / "in" / "locked").mkdir()
    (tmp_path / "in" / "a" / "p.html").write_bytes(PAGE)
    (tmp_path / "in" / "locked" / "q.html").write_bytes(PAGE)
    (tmp_path / "in" / "z.html").write_bytes(PAGE)
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    items = list(inputs.pages([str(tmp_path / "in")]))
    assert [(type(item).__name__, Path(item.source).name) for item in items] == [
        ("PageRef", "z.html"), ("PageRef", "p.html"), ("Failure", "locked")]  # a folder's files, then its folders
    failure = items[2]
    assert failure.key == (tmp_path / "in" / "locked").as_uri()
    assert (failure.error.code, failure.error.message) == ("not-found", "cannot read the folder: Permission denied")


def test_a_scheduler_address_where_another_server_answers_ends_the_run_instead_of_waiting_for_ever(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The likeliest mistake: the dashboard's port (an HTTP server) for the scheduler's. distributed's own connect
    ignores its time limit there (dask/distributed#8071): the run waited for ever. The wait is shortened here; no
    clock is raced, since an HTTP server never answers Dask's handshake however long it is given."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from pyxform.base.errors import ClusterError
    from pyxform.wings.batch import run as run_module

    class Quiet(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setattr(run_module, "CONNECT_WAIT", 2.0)
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    address = f"tcp://127.0.0.1:{server.server_address[1]}"
    outcome: list[BaseException | None] = []

    def batch() -> None:
        try:
            run_module.run_batch([str(page)], tmp_path / "out", scheduler=address)
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001
            outcome.append(error)

    runner = threading.Thread(target=batch, daemon=True)
    runner.start()
    runner.join(timeout=300)  # a guard against the old hang only: the run ends after CONNECT_WAIT
    server.shutdown()
    assert outcome, "the batch still waits for the scheduler"
    assert isinstance(outcome[0], ClusterError) and outcome[0].location == address
    assert "no Dask scheduler answered" in outcome[0].message


def test_a_full_disk_stops_the_batch_without_recording_pages_that_resume_then_converts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills up is not the pages' fault: they are not recorded as failed (--resume would never do them
    again); the run ends with an OutputError and --resume, once there is room, converts them. On an in-process Dask
    cluster (threads), so that the write can be made to fail."""
    import errno

    from distributed import Client

    from pyxform.jobs import PageOptions
    from pyxform.wings.batch import run_batch, work

    refs_specs = [(f"http://full.test/{number}", PAGE, "text/html", "200 OK") for number in range(1, 6)]
    data, _ = records_bytes(refs_specs, compressed=True)
    archive = tmp_path / "a.warc.gz"
    archive.write_bytes(data)
    real = work.atomic_write

    def full_disk(path: Path, payload: bytes) -> None:
        if "full.test/3" in str(path) or "/3-" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, payload)

    options = PageOptions(limits=Limits(timeout=0, max_memory=0))
    out = tmp_path / "out"
    with Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address="127.0.0.1:0") as client:
        monkeypatch.setattr(work, "atomic_write", full_disk)
        with pytest.raises(OutputError, match="No space left on device") as caught:
            run_batch([str(archive)], out, options=options, client=client)
        assert "--resume" in caught.value.message
        records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
        assert [record["status"] for record in records] == ["ok", "ok"]  # the pages before; none recorded failed
        monkeypatch.setattr(work, "atomic_write", real)
        stats = run_batch([str(archive)], out, options=options, client=client, resume=True)
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert sorted(record["source"] for record in records) == [source for source, *_ in refs_specs]
    assert {record["status"] for record in records} == {"ok"} and stats.done == 3


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--workers", "abc", "takes a number of worker processes, 1 or more, not 'abc'"),
    ("--workers", "0", "takes a number of worker processes, 1 or more, not '0'"),
    ("--chunk-pages", "x", "takes a number of pages, 1 or more, not 'x'"),
    ("--worker-memory", "abc", "takes a memory size in MiB, 1 or more (e.g. 4096), not 'abc'"),
])
def test_a_bad_number_for_a_batch_option_is_said_in_the_readers_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str) -> None:
    from pyxform.cli import main

    with pytest.raises(SystemExit) as caught:
        main(["batch", str(tmp_path), "--out", str(tmp_path / "out"), option, value])
    assert caught.value.code == 2
    assert f"argument {option}: {said}" in capsys.readouterr().err  # not "invalid _mebibytes value"


def test_another_batchs_folder_inside_an_input_folder_is_left_out(tmp_path: Path) -> None:
    """A batch of --format xhtml writes .xhtml files, which a later batch over the folder around it would take for
    pages: a folder that holds a batch (batch.json and manifest.jsonl) is left out, as the batch's own folder is."""
    (tmp_path / "in" / "old" / "pages" / "_files").mkdir(parents=True)
    (tmp_path / "in" / "old" / "batch.json").write_text("{}")
    (tmp_path / "in" / "old" / "manifest.jsonl").write_text("")
    (tmp_path / "in" / "old" / "pages" / "_files" / "p-0123456789abcdef.xhtml").write_bytes(PAGE)
    (tmp_path / "in" / "p.html").write_bytes(PAGE)
    items = list(inputs.pages([str(tmp_path / "in")]))
    assert [(type(item).__name__, getattr(item, "reason", Path(getattr(item, "source", "")).name))
            for item in items] == [("Skip", "another batch's folder"), ("PageRef", "p.html")]
