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

from pyxform.base.errors import ArchiveError, OutputError
from pyxform.base.limits import Limits
from pyxform.wings.batch import inputs, warc
from pyxform.wings.batch.manifest import Manifest
from pyxform.wings.batch.names import digest, output_stem, slug

warcio = pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

PAGE = b"<table><tr><th>A</th></tr><tr><td>1</td></tr></table>"


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
                                                                                 "non-200 response"]
    assert warc.read_page(str(path), offsets[0], Limits()) == (PAGE, "http://a.test/1", "ISO-8859-1")
    assert warc.read_page(str(path), offsets[3], Limits()) == (PAGE, "http://a.test/4", None)
    with pytest.raises(Exception) as caught:
        warc.read_page(str(path), offsets[0], Limits(max_page_bytes=10))
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
        warc.read_page(str(other), 0, Limits())


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
