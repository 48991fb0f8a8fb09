"""pyxform batch (issue 16): pages of WARC files, folders and URL lists on a real Dask LocalCluster (worker processes),
against sequential pyxform.convert on the same bytes; the manifest holds every page once, also after a SIGKILL and
--resume; a page that hangs, explodes or kills its worker costs that page only."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import io
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pyxform
from pyxform.base.errors import NoTableError, PyxformError
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.wings.batch import PageOptions, run_batch
from pyxform.wings.batch.names import output_stem
from pyxform.wings.batch.run import LOCAL_CLUSTER_CONFIG

from .conftest import CORPUS, ROOT

distributed = pytest.importorskip("distributed")
warcio = pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

OK_PAGE = b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
GBK_PAGE = "<table><tr><th>名称</th><th>数量</th></tr><tr><td>苹果</td><td>3</td></tr></table>".encode("gbk")
CORPUS_PAGES = ("misc/banklist.html", "misc/spam.html", "misc/valid_markup.html", "misc/whitespace_table.html",
                "web/w3school_cn_charsets.html", "web/w3cschool_java_networking.html",
                "wikitables/pages/203-189.html", "wikitables/pages/203-65.html", "wikitables/pages/202-102.html")


def square_table(n: int) -> bytes:
    head = "<tr>" + "".join(f"<th>h{j}</th>" for j in range(n)) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{i * j}</td>" for j in range(n)) + "</tr>" for i in range(n))
    return f"<table>{head}{body}</table>".encode()


def needs_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS} (../shared from the repository root)")


# -- the cluster --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """One real local cluster for the module: 2 worker processes of 1 thread, a task tried twice before it counts as
    killing its workers, Dask's settings for the cluster's life (as the batch's own local cluster has them: a worker
    that died is waited for however long its restart takes; on a busy machine Dask's 15 s lost it for good)."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 1, **LOCAL_CLUSTER_CONFIG}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="2GiB",
                               dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
        connected = Client(cluster, set_as_default=False)
        try:
            yield connected
        finally:
            connected.close()
            cluster.close()


def manifest_of(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]


def expected(source: Source) -> tuple[str, bytes | str]:
    """What sequential pyxform.convert makes of a page: ``("ok", xml bytes)``, ``("no-tables", "")`` or
    ``("failed", code)``."""
    try:
        return "ok", pyxform.convert(source).to_bytes()
    except NoTableError:
        return "no-tables", ""
    except PyxformError as error:
        return "failed", error.code


def check_against_convert(folder: Path, records: list[dict[str, Any]], sources: dict[str, Source]) -> None:
    """Every record's page as sequential convert has it: the same status, the same output bytes, the same code."""
    for record in records:
        status, value = expected(sources[record["key"]])
        assert record["status"] == status, record
        if status == "ok":
            assert (folder / record["output"]).read_bytes() == value, record["source"]
            assert record["tables"] > 0
        elif status == "failed":
            assert record["reason"]["code"] == value, record


# -- WARC ---------------------------------------------------------------------------------------------------------
def write_record(writer: WARCWriter, uri: str, body: bytes, *, content_type: str | None = "text/html; charset=utf-8",
                 status: str = "200 OK", record_type: str = "response") -> None:
    headers = StatusAndHeaders(status, [("Content-Type", content_type)] if content_type else [],
                               protocol="HTTP/1.1")
    if record_type == "request":
        headers = StatusAndHeaders("GET / HTTP/1.1", [("Host", "example.test")], is_http_request=True)
    writer.write_record(writer.create_warc_record(uri, record_type, payload=io.BytesIO(body), http_headers=headers))


def build_warc(path: Path, entries: list[dict[str, Any]], *, truncate: str | None = None) -> dict[int, dict[str, Any]]:
    """Write a gzip WARC of ``entries`` (``uri``, ``body``, and write_record's keywords); the record of the entry
    whose uri is ``truncate`` is cut to half its gzip member. Returns the entries by their records' offsets."""
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    writer.write_record(writer.create_warcinfo_record(path.name, {"software": "pyxform tests"}))
    spans = []
    for entry in entries:
        start = out.tell()
        keywords = {name: value for name, value in entry.items() if name not in ("uri", "body")}
        write_record(writer, entry["uri"], entry["body"], **keywords)
        spans.append((start, out.tell(), entry))
    data = out.getvalue()
    by_offset = {}
    shift = 0
    for start, end, entry in spans:
        if entry["uri"] == truncate:
            cut = (end - start) // 2
            data = data[:start - shift] + data[start - shift:start - shift + cut] + data[end - shift:]
            by_offset[start - shift] = entry
            shift += (end - start) - cut
        else:
            by_offset[start - shift] = entry
    path.write_bytes(data)
    return by_offset


def test_a_warc_converts_as_sequential_convert_with_every_page_recorded_once(tmp_path: Path, client: Any) -> None:
    needs_corpus()
    entries: list[dict[str, Any]] = [
        {"uri": f"https://corpus.test/{name}", "body": (CORPUS / name).read_bytes(),
         "content_type": "text/html; charset=gb2312" if "w3school_cn" in name else "text/html"}
        for name in CORPUS_PAGES]
    entries += [
        {"uri": "http://broken.test/empty", "body": b""},
        {"uri": "http://broken.test/binary", "body": bytes(range(256)) * 8},
        {"uri": "http://broken.test/no-table", "body": b"<p>no table here</p>"},
        {"uri": "http://broken.test/logo.png", "body": b"\x89PNG\r\n\x1a\n" + bytes(200), "content_type": "image/png"},
        {"uri": "http://broken.test/missing", "body": OK_PAGE, "status": "404 Not Found"},
        {"uri": "http://broken.test/request", "body": b"", "record_type": "request"},
        {"uri": "http://broken.test/truncated", "body": OK_PAGE * 40},
        {"uri": "http://broken.test/gbk", "body": GBK_PAGE, "content_type": "text/html; charset=gbk"},
        {"uri": "http://broken.test/untyped", "body": b"<!DOCTYPE html>" + OK_PAGE, "content_type": None},
        {"uri": "http://broken.test/no-table", "body": OK_PAGE},  # the same URL captured again: another page
    ]
    archive = tmp_path / "crawl.warc.gz"
    by_offset = build_warc(archive, entries, truncate="http://broken.test/truncated")
    folder = tmp_path / "out"
    stats = run_batch([str(archive)], folder, client=client, chunk_pages=3)

    records = manifest_of(folder)
    keys = [record["key"] for record in records]
    assert len(keys) == len(set(keys))  # every page once
    file_key = archive.absolute().as_uri()
    pages = {offset: entry for offset, entry in by_offset.items()
             if entry.get("status", "200 OK") == "200 OK" and entry.get("record_type", "response") == "response"
             and (entry.get("content_type") or "text/html").startswith("text/html")}
    assert set(keys) == {f"{file_key}#offset={offset}" for offset in pages}  # and nothing else: no skipped record
    sources = {}
    for offset, entry in pages.items():
        charset = None
        if entry.get("content_type") and "charset=" in entry["content_type"]:
            charset = entry["content_type"].split("charset=")[1]
        sources[f"{file_key}#offset={offset}"] = Source(entry["body"], entry["uri"], charset)
    by_source = {record["source"]: record for record in records}
    truncated = by_source.pop("http://broken.test/truncated")
    assert truncated["status"] == "failed" and truncated["reason"]["code"] == "archive"
    check_against_convert(folder, [r for r in records if r is not truncated], sources)
    assert by_source["http://broken.test/empty"]["reason"]["code"] == "empty"
    assert by_source["http://broken.test/binary"]["reason"]["code"] == "undecodable"
    assert [r["status"] for r in records if r["source"] == "http://broken.test/no-table"].count("no-tables") == 1
    gbk = by_source["http://broken.test/gbk"]
    assert "名称" in (folder / gbk["output"]).read_text(encoding="utf-8")  # the charset of the HTTP header
    assert by_source["http://broken.test/untyped"]["status"] == "ok"  # sniffed as HTML (WHATWG MIME sniffing)
    assert gbk["output"] == output_stem(gbk["key"], gbk["source"], local_file=False) + ".xml"
    assert gbk["output"].startswith("pages/broken.test/gbk-")
    assert stats.done == len(pages) and stats.failed == 3 and stats.no_tables == 1
    assert stats.skipped == {"warcinfo record": 1, "request record": 1, "non-HTML response": 1,
                             "non-200/203 response": 1}
    assert stats.tables == sum(r["tables"] for r in records) > len(CORPUS_PAGES)


# -- folders and files ----------------------------------------------------------------------------------------------
def test_folders_are_walked_recursively_and_bad_files_cost_themselves_only(tmp_path: Path, client: Any) -> None:
    needs_corpus()
    tree = tmp_path / "site"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / ".hidden").mkdir()
    (tree / "a" / "banklist.html").write_bytes((CORPUS / "misc/banklist.html").read_bytes())
    (tree / "a" / "b" / "valid.htm").write_bytes((CORPUS / "misc/valid_markup.html").read_bytes())
    (tree / "a" / "b" / "Ünïcode name.xhtml").write_bytes(OK_PAGE)
    (tree / "binary.html").write_bytes(os.urandom(4096))
    (tree / "notes.txt").write_text("not a page")
    (tree / "image.png").write_bytes(b"\x89PNG")
    (tree / ".hidden" / "secret.html").write_bytes(OK_PAGE)
    (tree / "gone.html").symlink_to(tree / "nowhere.html")
    os.mkfifo(tree / "pipe.html")  # read, it would block for good
    page = tmp_path / "page.html"
    page.write_bytes(OK_PAGE)
    folder = tmp_path / "out"
    stats = run_batch([str(tree), str(page), str(tree / "a" / "banklist.html")], folder, client=client)

    records = manifest_of(folder)
    by_source = {record["source"]: record for record in records}
    assert sorted(by_source) == sorted([str(tree / "a" / "banklist.html"), str(tree / "a" / "b" / "valid.htm"),
                                        str(tree / "a" / "b" / "Ünïcode name.xhtml"), str(tree / "binary.html"),
                                        str(tree / "gone.html"), str(tree / "pipe.html"), str(page)])
    sources = {record["key"]: Source(Path(record["source"]).read_bytes(), record["source"])
               for record in records if Path(record["source"]).is_file()}
    check_against_convert(folder, [r for r in records if r["key"] in sources], sources)
    assert by_source[str(tree / "binary.html")]["reason"]["code"] == "undecodable"
    assert by_source[str(tree / "gone.html")]["reason"]["code"] == "not-found"
    assert by_source[str(tree / "pipe.html")]["reason"]["message"].startswith("not a regular file")
    assert by_source[str(tree / "a" / "b" / "Ünïcode name.xhtml")]["output"].startswith(
        "pages/_files/Unicode_name-")
    assert stats.skipped == {"file neither HTML nor WARC by its name": 2, "given twice": 1}
    assert stats.failed == 3 and stats.ok == 4


def test_other_formats_and_schemas_are_written_as_convert_writes_them(tmp_path: Path, client: Any) -> None:
    page = tmp_path / "two.html"
    second = b"<table><tr><th>X</th></tr><tr><td>9</td></tr></table>"
    page.write_bytes(OK_PAGE + second)
    run_batch([str(page)], tmp_path / "csv", client=client, options=PageOptions(format="csv", separator=" > "))
    [record] = manifest_of(tmp_path / "csv")
    tables = pyxform.convert(Source(OK_PAGE + second, str(page))).tables()
    assert [Path(name).name[-6:] for name in record["output"]] == ["-0.csv", "-1.csv"]
    assert [(tmp_path / "csv" / name).read_bytes() for name in record["output"]] == \
        [table.to_csv(" > ").encode("utf-8") for table in tables]
    run_batch([str(page)], tmp_path / "xml", client=client, options=PageOptions(schema=True))
    [record] = manifest_of(tmp_path / "xml")
    conversion = pyxform.convert(Source(OK_PAGE + second, str(page)))
    assert (tmp_path / "xml" / record["output"]).read_bytes() == conversion.to_bytes()
    assert (tmp_path / "xml" / record["output"]).with_suffix(".xsd").read_text(encoding="utf-8") == \
        conversion.schema()


# -- URL lists ------------------------------------------------------------------------------------------------------
class _Web(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pages: dict[str, tuple[int, str, bytes]]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.pages = pages
        self.requested: list[str] = []
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.open = 0  # requests being answered now
        self.most_open = 0
        self.three_open = threading.Event()  # three requests were open at once

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Web

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        web = self.server
        web.requested.append(self.path)
        with web.lock:
            web.open += 1
            web.most_open = max(web.most_open, web.open)
            if web.open >= 3:
                web.three_open.set()
        try:
            self.answer()
        finally:
            with web.lock:
                web.open -= 1

    def answer(self) -> None:
        if self.path.startswith("/block"):
            self.server.release.wait(120)
        if self.path.startswith("/together/"):  # answered once three requests are open at once
            self.server.three_open.wait(60)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(OK_PAGE.replace(b"1", self.path.rsplit("/", 1)[1].encode()))
            return
        status, content_type, body = self.server.pages.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def web() -> Iterator[_Web]:
    server = _Web({
        "/ok": (200, "text/html; charset=utf-8", OK_PAGE),
        "/gbk": (200, "text/html; charset=gbk", GBK_PAGE),
        "/plain": (200, "text/html", b"<p>nothing tabular</p>"),
        "/block": (200, "text/html", OK_PAGE.replace(b"1", b"7")),
    })
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


def test_a_url_list_is_fetched_safely_and_garbage_lines_are_recorded(tmp_path: Path, client: Any, web: _Web) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join([
        "# pages of the test web", f"{web.base}/ok", "", f"{web.base}/gbk", f"{web.base}/plain",
        f"{web.base}/missing", "not a url at all", "file:///etc/passwd", f"{web.base}/ok", "   ",
        "<html><body>garbage</body></html>"]) + "\n")
    folder = tmp_path / "out"
    stats = run_batch([str(listing)], folder, client=client, allow_private=True)
    records = manifest_of(folder)
    by_source = {record["source"]: record for record in records}
    assert set(by_source) == {f"{web.base}/ok", f"{web.base}/gbk", f"{web.base}/plain", f"{web.base}/missing",
                              "not a url at all", "file:///etc/passwd", "<html><body>garbage</body></html>"}
    assert by_source[f"{web.base}/ok"]["status"] == "ok"
    assert (folder / by_source[f"{web.base}/ok"]["output"]).read_bytes() == \
        pyxform.convert(Source(OK_PAGE, f"{web.base}/ok", "utf-8")).to_bytes()
    assert "苹果" in (folder / by_source[f"{web.base}/gbk"]["output"]).read_text(encoding="utf-8")
    assert by_source[f"{web.base}/plain"]["status"] == "no-tables"
    assert by_source[f"{web.base}/missing"]["reason"]["code"] == "fetch"
    assert by_source["file:///etc/passwd"]["reason"]["code"] == "unsupported-scheme"
    garbage = by_source["not a url at all"]
    assert garbage["key"] == f"{listing.absolute().as_uri()}#line=7"
    assert garbage["reason"] == {"code": "input", "message": "line 7 is not a URL: 'not a url at all'"}
    assert stats.skipped == {"given twice": 1}
    assert web.requested.count("/ok") == 1

    # without --allow-private, 127.0.0.1 is refused before any request
    refused = tmp_path / "refused"
    web.requested.clear()
    run_batch([f"{web.base}/ok"], refused, client=client)
    assert [r["reason"]["code"] for r in manifest_of(refused)] == ["forbidden-address"]
    assert web.requested == []


# -- limits: a page that hangs or explodes, a worker that dies -------------------------------------------------------
def test_a_page_that_hangs_and_one_that_explodes_cost_only_that_page(tmp_path: Path, client: Any) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "slow.html").write_bytes(square_table(250))  # half a minute of work without a limit
    (pages / "big.html").write_bytes(square_table(300))  # more than 250 MiB
    for n in range(3):
        (pages / f"ok{n}.html").write_bytes(OK_PAGE)
    hang = run_batch([str(pages / "slow.html"), str(pages / "ok0.html")], tmp_path / "hang", client=client,
                     options=PageOptions(limits=Limits(timeout=3)), chunk_pages=2)
    explode = run_batch([str(pages / "big.html"), str(pages / "ok1.html"), str(pages / "ok2.html")],
                        tmp_path / "explode", client=client, chunk_pages=3,
                        options=PageOptions(limits=Limits(max_memory=250 * 2**20)))
    hung = {Path(r["source"]).stem: r for r in manifest_of(tmp_path / "hang")}  # in the order they finished
    assert hung["slow"]["status"] == "failed" and hung["slow"]["reason"]["limit"] == "timeout"
    assert hung["slow"]["reason"]["message"].startswith("the page took longer than 3 s")
    assert hung["ok0"]["status"] == "ok" and hung["ok0"]["tables"] == 1
    assert hang.failures == {"limit timeout": 1}
    exploded = {Path(r["source"]).stem: r for r in manifest_of(tmp_path / "explode")}
    assert exploded["big"]["status"] == "failed" and exploded["big"]["reason"]["limit"] == "max_memory"
    assert [exploded[name]["status"] for name in ("ok1", "ok2")] == ["ok", "ok"]
    assert explode.retried_tasks == 0  # the page's child died, not the task's worker


def test_a_worker_that_dies_is_retried_then_its_page_recorded(tmp_path: Path, client: Any) -> None:
    from .batch_faults import DieOnPage

    pages = tmp_path / "pages"
    pages.mkdir()
    names = ["a-die-always", "a-die-once"] + [f"a{n:02d}" for n in range(14)]  # the first task: these two pages
    for name in names:
        (pages / f"{name}.html").write_bytes(OK_PAGE)
    plugin = DieOnPage(str(tmp_path))
    client.register_plugin(plugin)
    try:
        stats = run_batch([str(pages)], tmp_path / "out", client=client,
                          options=PageOptions(limits=Limits(timeout=0, max_memory=0)))
    finally:
        client.unregister_worker_plugin(plugin.name)
    records = {Path(r["source"]).stem: r for r in manifest_of(tmp_path / "out")}
    assert sorted(records) == names
    died = records.pop("a-die-always")
    assert died["status"] == "failed" and died["reason"]["code"] == "crash"
    assert "died" in died["reason"]["message"]
    assert {name: r["status"] for name, r in records.items()} == dict.fromkeys(names[1:], "ok"), \
        {name: r.get("reason") for name, r in records.items() if r["status"] != "ok"}
    assert (tmp_path / "died-once").exists()  # it did die once, and was converted when tried again
    assert stats.retried_tasks >= 1 and stats.failures == {"crash": 1}


def test_a_page_that_crashes_its_isolated_child_costs_only_that_page(tmp_path: Path, client: Any) -> None:
    from .batch_faults import DieOnPage

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a-kill-child.html").write_bytes(square_table(250))  # half a minute of work: killed after a second
    (pages / "b-after.html").write_bytes(OK_PAGE)
    plugin = DieOnPage(str(tmp_path))
    client.register_plugin(plugin)
    try:
        stats = run_batch([str(pages)], tmp_path / "out", client=client, chunk_pages=2,
                          options=PageOptions(limits=Limits(timeout=300)))
    finally:
        client.unregister_worker_plugin(plugin.name)
    records = {Path(r["source"]).stem: r for r in manifest_of(tmp_path / "out")}
    assert records["a-kill-child"]["status"] == "failed" and records["a-kill-child"]["reason"]["code"] == "crash"
    assert "killed by signal SIGKILL" in records["a-kill-child"]["reason"]["message"]
    assert records["b-after"]["status"] == "ok" and records["b-after"]["tables"] == 1  # a new child, same task
    assert stats.retried_tasks == 0 and stats.failures == {"crash": 1}


# -- kill and resume --------------------------------------------------------------------------------------------------
def test_a_run_killed_part_way_resumes_without_losing_or_repeating_a_page(tmp_path: Path, web: _Web) -> None:
    needs_corpus()
    import psutil

    entries = [{"uri": f"https://corpus.test/{name}", "body": (CORPUS / name).read_bytes(), "content_type": "text/html"}
               for name in CORPUS_PAGES]
    archive = tmp_path / "a.warc.gz"
    build_warc(archive, entries)
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{web.base}/ok\n{web.base}/block\n{web.base}/gbk\n")
    folder = tmp_path / "out"
    command = [sys.executable, "-m", "pyxform", "batch", str(archive), str(listing), "--out", str(folder),
               "--workers", "2", "--chunk-pages", "2", "--allow-private"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    manifest = folder / "manifest.jsonl"
    try:
        deadline = time.monotonic() + 300  # a guard against a hung run, not a speed check
        while not ("/block" in web.requested and manifest.exists()
                   and manifest.read_text(encoding="utf-8").count("\n") >= 3):
            assert killed.poll() is None, killed.communicate()
            assert time.monotonic() < deadline, "the batch did not get going"
            time.sleep(0.05)
        family = psutil.Process(killed.pid).children(recursive=True)
        killed.send_signal(signal.SIGKILL)
        killed.wait()
    finally:
        if killed.poll() is None:
            killed.kill()
        web.release.set()
    gone, alive = psutil.wait_procs(family, timeout=120)
    assert alive == []  # the local cluster's workers (and their children) end with the killed driver
    before = manifest_of(folder)
    total = len(CORPUS_PAGES) + 3
    assert 3 <= len(before) < total  # part-way: the blocked page's task cannot have finished
    inodes = {r["key"]: (folder / r["output"]).stat().st_ino for r in before if r["output"]}

    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, env=env, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    after = manifest_of(folder)
    assert after[:len(before)] == before  # the earlier lines stay as they were
    keys = [r["key"] for r in after]
    assert len(keys) == len(set(keys)) == total  # nothing lost, nothing twice
    assert all((folder / r["output"]).stat().st_ino == inode for r in before
               for key, inode in inodes.items() if r["key"] == key)  # done pages were not done again
    sources = {f"{archive.absolute().as_uri()}#offset={offset}": Source(entry["body"], entry["uri"])
               for offset, entry in _offsets(archive, entries).items()}
    sources.update({f"{web.base}/{name}": Source(body, f"{web.base}/{name}", charset)
                    for name, body, charset in (("ok", OK_PAGE, "utf-8"), ("gbk", GBK_PAGE, "gbk"),
                                                ("block", OK_PAGE.replace(b"1", b"7"), None))})
    check_against_convert(folder, after, sources)
    assert f"done by earlier runs: {len(before)} pages" in resumed.stderr


def test_ctrl_c_ends_the_run_quietly_and_resume_goes_on(tmp_path: Path, web: _Web) -> None:
    """Ctrl-C at the terminal reaches the whole process group: the driver ends the run (exit 130), and the local
    cluster's worker processes, which the driver closes, print no KeyboardInterrupt tracebacks of their own."""
    import psutil

    listing = tmp_path / "urls.txt"
    listing.write_text(f"{web.base}/ok\n{web.base}/gbk\n{web.base}/block\n")
    folder = tmp_path / "out"
    # Ctrl-C as a terminal's foreground job gets it: SIGINT raising KeyboardInterrupt, even when this test runs
    # where SIGINT is ignored (a job started with & in a shell without job control passes SIG_IGN on to its children)
    as_a_terminal_job = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                         "from pyxform.cli import main; sys.exit(main(sys.argv[1:]))")
    command = [sys.executable, "-c", as_a_terminal_job, "batch", str(listing), "--out", str(folder), "--workers",
               "2", "--chunk-pages", "1", "--allow-private"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    interrupted = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                   start_new_session=True)  # its own process group, as a terminal's job
    manifest = folder / "manifest.jsonl"
    try:
        _wait_for(lambda: "/block" in web.requested and manifest.exists()
                  and manifest.read_text(encoding="utf-8").count("\n") >= 2, "the batch did not get going",
                  interrupted)
        family = psutil.Process(interrupted.pid).children(recursive=True)
        os.killpg(interrupted.pid, signal.SIGINT)
        _, err = interrupted.communicate(timeout=300)  # a guard against a hung run, not a speed check
    finally:
        if interrupted.poll() is None:
            interrupted.kill()
        web.release.set()
    assert interrupted.returncode == 130, err
    assert "Traceback" not in err.decode()
    assert err.decode().splitlines()[-1] == ("pyxform batch: interrupted: the manifest keeps every page done; the "
                                             "same command with --resume goes on")
    _, alive = psutil.wait_procs(family, timeout=120)
    assert alive == []
    before = manifest_of(folder)
    assert {record["source"] for record in before} == {f"{web.base}/ok", f"{web.base}/gbk"}
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, env=env, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert [record["source"] for record in manifest_of(folder)][2:] == [f"{web.base}/block"]


def _offsets(archive: Path, entries: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The offsets of the response records of ``archive``, by walking it with warcio."""
    from warcio.archiveiterator import ArchiveIterator

    by_uri = {entry["uri"]: entry for entry in entries}
    found = {}
    with open(archive, "rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            if record.rec_type == "response":
                found[records.get_record_offset()] = by_uri[record.rec_headers.get_header("WARC-Target-URI")]
    return found


# -- a Dask cluster started by hand (docs/batch.md's commands) -------------------------------------------------------
def _start(command: list[str], env: dict[str, str], started: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)  # its worker processes and their children in its group
    started.append(process)
    return process


def _wait_for(condition: Any, what: str, process: subprocess.Popen[Any] | None = None) -> None:
    deadline = time.monotonic() + 300  # a guard against a hung run, not a speed check
    while not condition():
        assert process is None or process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_cluster_started_by_hand_gives_work_to_workers_that_join_and_a_lost_scheduler_ends_the_run(
        tmp_path: Path, web: _Web) -> None:
    import socket

    env = {**os.environ, "PYTHONPATH": str(ROOT), "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1"}
    started: list[subprocess.Popen[bytes]] = []
    scheduler_file = tmp_path / "scheduler.json"
    try:
        scheduler = _start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                            "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)], env, started)
        _wait_for(lambda: scheduler_file.exists() and scheduler_file.stat().st_size, "no scheduler", scheduler)
        address = json.loads(scheduler_file.read_text())["address"]
        worker = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--memory-limit",
                  "1GiB", "--no-dashboard", "--nworkers"]
        _start(worker + ["1"], env, started)
        batch = [sys.executable, "-m", "pyxform", "batch", "--scheduler", address, "--chunk-pages", "1",
                 "--allow-private", "--fetch-timeout", "90"]

        # one worker when the batch starts, two more join: the pages of /together/ are answered only once three are
        # fetched at once, which needs more work in flight than the first worker's share
        together = tmp_path / "together.txt"
        together.write_text("".join(f"{web.base}/together/{n}\n" for n in range(8)))
        growing = subprocess.Popen(batch + [str(together), "--out", str(tmp_path / "grow")], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: any(path.startswith("/together/") for path in web.requested), "no page fetched", growing)
        _start(worker + ["2"], env, started)
        out, err = growing.communicate(timeout=600)
        assert growing.returncode == 0, err
        assert web.most_open >= 3  # the workers that joined converted pages alongside the first
        records = manifest_of(tmp_path / "grow")
        assert sorted(r["source"] for r in records) == sorted(f"{web.base}/together/{n}" for n in range(8))
        assert {r["status"] for r in records} == {"ok"}

        # the scheduler killed while a page is in flight: the run ends with exit 18 and its own message
        listing = tmp_path / "urls.txt"
        listing.write_text(f"{web.base}/ok\n{web.base}/block\n{web.base}/gbk\n")
        folder = tmp_path / "lost"
        losing = subprocess.Popen(batch + [str(listing), "--out", str(folder)], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        manifest = folder / "manifest.jsonl"
        _wait_for(lambda: "/block" in web.requested and manifest.exists()
                  and manifest.read_text(encoding="utf-8").count("\n") == 2, "the batch did not get going", losing)
        scheduler.kill()
        out, err = losing.communicate(timeout=300)
        assert losing.returncode == 18, err
        assert "pyxform: error [cluster]: " in err and "--resume" in err
        assert "Traceback" not in err and "distributed" not in err, err  # Dask's own log lines stay quiet
        before = manifest_of(folder)
        web.release.set()

        # resumed on the local cluster, with Dask's usual dashboard port taken (here, if no one else holds it)
        holder = socket.socket()
        try:
            with contextlib.suppress(OSError):
                holder.bind(("127.0.0.1", 8787))
                holder.listen()
            resumed = subprocess.run([sys.executable, "-m", "pyxform", "batch", str(listing), "--out", str(folder),
                                      "--allow-private", "--workers", "1", "--resume"], env=env, capture_output=True,
                                     text=True, timeout=600)
        finally:
            holder.close()
        assert resumed.returncode == 0, resumed.stderr
        assert "8787" not in resumed.stderr and "Warning" not in resumed.stderr, resumed.stderr
        after = manifest_of(folder)
        assert after[:2] == before
        assert sorted(r["source"] for r in after) == sorted(f"{web.base}/{name}" for name in ("ok", "block", "gbk"))
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# -- the command line -------------------------------------------------------------------------------------------------
def test_the_command_refuses_bad_starts_before_any_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pyxform.cli import main

    assert main(["batch", str(tmp_path / "missing.warc"), "--out", str(tmp_path / "out")]) == 3
    assert "missing.warc: no such file or folder" in capsys.readouterr().err
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    not_warc = tmp_path / "fake.warc"
    not_warc.write_bytes(b"GIF89a" + bytes(100))
    binary_gz = tmp_path / "data.warc.gz"
    binary_gz.write_bytes(gzip.compress(os.urandom(500)))
    status = main(["batch", str(empty), str(not_warc), str(binary_gz), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 13
    records = manifest_of(tmp_path / "out")
    assert [(r["source"], r["reason"]["code"]) for r in records] == [
        (f"{not_warc}#offset=0", "archive"), (f"{binary_gz}#offset=0", "archive")]
    assert records[0]["reason"]["message"].startswith("not a WARC file")
    assert err.startswith("pyxform batch: no page to convert, 2 inputs failed\n  failed: archive: 2\n")
    # the folder holds a batch: refused without --resume; --resume with other options is refused too
    assert main(["batch", str(empty), "--out", str(tmp_path / "out")]) == 15
    assert "continue it with --resume" in capsys.readouterr().err
    assert main(["batch", str(empty), "--out", str(tmp_path / "out"), "--resume", "--format", "json"]) == 15
    assert "'xml' then, 'json' now" in capsys.readouterr().err
