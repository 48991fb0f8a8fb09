"""Span bombs, deep nesting, huge pages, slow and memory-hungry pages (issue 7): every one stops at a named limit,
with a clear error (exit code 7) or a table failure, never an unbounded allocation or a hang; options raise each
limit. ``bench/hostile.py`` runs the full-size bombs (a million cells, 50 MB) with the default limits.

No test here races the clock: a page that must be stopped at a timeout is one that never ends (a stylesheet of the
test's that loops) or is thousands of times slower than the timeout; what must finish has a ceiling no busy machine
reaches; "before any slot exists" is shown by a memory cap the slots would need many times over, not by a time."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pyxform.stages.clean import clean
from pyxform.cli import main
from pyxform.api.convert import convert
from pyxform.base.errors import LimitExceeded, WorkerCrash
from pyxform.jobs import PageOptions, Worker
from pyxform.base.limits import DEFAULT_LIMITS, Limits
from pyxform.stages.normalize import Normalizer
from pyxform.base.source import Source, read_source

OK_PAGE = b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


#: A page far slower than the 0.5 s timeouts below on any machine: clean alone takes tens of seconds (it is stopped
#: long before: its size costs nothing).
def slow_page() -> bytes:
    return square_table(450)


#: A page on which :data:`FOREVER_IF_SLOW` never ends: a table headed "slow".
NEVER_ENDS = b"<table><tr><th>slow</th></tr><tr><td>1</td></tr></table>"


#: Run after merge, it never ends when the output holds an element named ``slow`` (a table headed "slow"), and copies
#: the output otherwise: a page that is stopped at any timeout, beside pages that are not.
FOREVER_IF_SLOW = b"""<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xsl:template match="/">
    <xsl:if test="exists(//slow)">
      <xsl:call-template name="again"><xsl:with-param name="n" select="1"/></xsl:call-template>
    </xsl:if>
    <xsl:copy-of select="."/>
  </xsl:template>
  <xsl:template name="again">
    <xsl:param name="n" as="xs:integer"/>
    <xsl:call-template name="again"><xsl:with-param name="n" select="($n + 1) mod 1000"/></xsl:call-template>
  </xsl:template>
</xsl:stylesheet>"""


def square_table(n: int) -> bytes:
    head = "<tr>" + "".join(f"<th>h{j}</th>" for j in range(n)) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{i * j}</td>" for j in range(n)) + "</tr>" for i in range(n))
    return f"<table>{head}{body}</table>".encode()


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# -- span bombs: the slot limit is checked before any slot exists ----------------------------------------------------
SPAN_BOMBS = {
    # one cell of 1000 x 65534 slots over 3,000 rows: 3,000,000 slots
    "one-cell": "<table><tr><td colspan=1000 rowspan=65534>x</td></tr>" + "<tr><td>y</td></tr>" * 2999 + "</table>",
    # a thousand such cells in one row, four rows: 4,000,000 slots
    "many-cells": "<table><tr>" + "<td colspan=1000 rowspan=65534>x</td>" * 1000 + "</tr>" + "<tr></tr>" * 3
                  + "</table>",
}


@pytest.mark.parametrize("name", sorted(SPAN_BOMBS))
def test_a_span_bomb_fails_alone_at_the_slot_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   name: str) -> None:
    page = tmp_path / f"{name}.html"
    page.write_text(SPAN_BOMBS[name] + OK_PAGE.decode())
    report = tmp_path / "report.jsonl"
    # 500 MiB: the worker's start and the check need about 300; the bomb's slots (3,000,000 or 4,000,000) would need
    # many times more
    status, out, err = run(capsys, "convert", str(page), "--report", str(report), "--max-memory", "500")
    assert status == 0  # the page's other table is converted
    assert "<a>1</a>" in out.replace(" ", "").replace("\n", "") or "<a px:label" in out
    (record,) = records(report)
    assert record["status"] == "partial" and record["tables"] == 1
    (failure,) = record["table_failures"]  # type: ignore[misc]
    assert failure["index"] == 0 and failure["code"] == "limit"
    assert f"more than max_slots = {DEFAULT_LIMITS.max_slots}" in failure["message"]
    assert "pyxform: warning" in err and "max_slots" in err


def test_a_table_over_the_slot_limit_stops_before_its_slots_exist() -> None:
    # 2,600 rows of one cell spanning 1,000 columns: 2,600,000 slots, over the default max_slots of 2,500,000
    rows = "".join("<tr><td colspan='1000'>1</td></tr>" for _ in range(2600))
    xhtml = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:px="urn:pyxform"><body>'
             f"<table px:index='0' px:locator='/html/body/table[1]' px:depth='0'>{rows}</table></body></html>")
    document = Normalizer().normalize(xhtml)
    assert document.tables == ()
    (failure,) = document.failures
    assert failure.code == "limit" and "max_slots = 2500000" in failure.message


def test_many_tables_of_span_bombs_stop_at_the_page_slot_limit(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # 2,000 tables of 4 x 1000 slots each: every table is under max_slots, the page has 8,000,000 slots in all.
    one = "<table><tr><td colspan=1000 rowspan=65534>x</td></tr>" + "<tr><td>y</td></tr>" * 3 + "</table>"
    page = tmp_path / "bombs.html"
    page.write_text(one * 2000)
    # (max_page_slots = 5,000,000: the 1,251st table takes the page over it; clean counts them before any slot)
    status, out, err = run(capsys, "convert", str(page), "--max-memory", "300")
    assert (status, out) == (7, "")
    assert err == (f"pyxform: error [limit]: {page}: the tables of the page have more than 5000000 slots in all "
                   "(at least 5004000 up to table 1250) (limit max_page_slots = 5000000; raise it with "
                   "--max-page-slots)\n")
    small = one.replace("1000", "10") * 3  # 3 tables of 4 x 10 slots: 120
    assert table_indexes(small, Limits(max_page_slots=120)) == [0, 1, 2]
    with pytest.raises(LimitExceeded) as caught:
        clean(small.encode(), limits=Limits(max_page_slots=119))
    assert caught.value.limit == "max_page_slots"
    # a table over max_slots is not counted: it fails alone, before its slots exist
    assert table_indexes(small + SPAN_BOMBS["one-cell"], Limits(max_page_slots=120)) == [0, 1, 2, 3]


def table_indexes(page: str, limits: Limits) -> list[int]:
    """The px:index of every table clean numbered."""
    root = clean(page.encode(), limits=limits).tree.getroot()
    return [int(t.get("{urn:pyxform}index", "-1")) for t in root.iter("{http://www.w3.org/1999/xhtml}table")]


def test_max_slots_option_raises_and_lowers_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "t.html"
    page.write_bytes(square_table(10))  # 11 x 10 = 110 slots
    status, out, err = run(capsys, "convert", str(page), "--max-slots", "100", "--table", "0")
    assert status == 7 and "max_slots = 100" in err
    status, out, err = run(capsys, "convert", str(page), "--max-slots", "110", "--table", "0", "--format", "pairs")
    assert status == 0 and len(out.splitlines()) == 100


# -- nesting ---------------------------------------------------------------------------------------------------------
def nested(depth: int) -> bytes:
    return ("<table><tr><th>k</th></tr><tr><td>" * depth + "x" + "</td></tr></table>" * depth).encode()


def test_thousands_of_nested_tables_stop_at_the_depth_limit(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "deep.html"
    page.write_bytes(nested(5000))
    status, out, err = run(capsys, "convert", str(page))
    assert (status, out) == (7, "")
    assert err == (f"pyxform: error [limit]: {page}: table 65 is nested 65 tables deep "
                   "(limit max_depth = 64; raise it with --max-depth)\n")
    with pytest.raises(LimitExceeded) as caught:
        convert(nested(5000))
    assert caught.value.limit == "max_depth"


def test_max_depth_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "deep.html"
    page.write_bytes(nested(70))
    assert run(capsys, "convert", str(page))[0] == 7
    status, out, _ = run(capsys, "convert", str(page), "--max-depth", "70", "--format", "pairs")
    assert status == 0
    innermost = [json.loads(line) for line in out.splitlines() if json.loads(line)["table"] == 69]
    assert innermost == [{"table": 69, "row": 1, "col": 0, "row_headers": [], "col_headers": ["k"], "value": "x"}]


def test_deep_element_nesting_is_no_error() -> None:
    # JDK 24's XML parser refuses elements deeper than 100 by default; pyxform lifts that limit for its own XHTML.
    deep = b"<table><tr><th>h</th></tr><tr><td>" + b"<span>" * 3000 + b"deep</td></tr></table>"
    assert [p["value"] for p in convert(deep).pairs()] == ["deep"]
    many = b"<table><tr><th>h</th></tr><tr><td " + b" ".join(b"a%d=1" % i for i in range(300)) + b">v</td></tr></table>"
    assert [p["value"] for p in convert(many).pairs()] == ["v"]


# -- page bytes --------------------------------------------------------------------------------------------------------
def test_a_100_mb_page_is_refused_before_it_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "big.html"
    with page.open("wb") as stream:
        stream.write(OK_PAGE)
        stream.truncate(100 * 1024 * 1024)  # a sparse file: 100 MB without writing them
    status, out, err = run(capsys, "convert", str(page))
    assert (status, out) == (7, "")
    assert err == (f"pyxform: error [limit]: {page}: the page has more than 67108864 bytes "
                   "(limit max_page_bytes = 67108864; raise it with --max-page-bytes)\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b" " * (65 * 1024 * 1024))))
    assert run(capsys, "convert", "-")[0] == 7
    with pytest.raises(LimitExceeded) as caught:
        convert(b" " * (65 * 1024 * 1024))
    assert caught.value.limit == "max_page_bytes"


def test_max_page_bytes_and_max_tables_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(OK_PAGE * 3)
    status, _, err = run(capsys, "convert", str(page), "--max-page-bytes", "100")
    assert status == 7 and "max_page_bytes = 100" in err
    status, _, err = run(capsys, "convert", str(page), "--max-tables", "2")
    assert status == 7 and "the page has more than 2 tables (limit max_tables = 2; raise it with --max-tables)" in err
    assert run(capsys, "convert", str(page), "--max-tables", "3")[0] == 0
    with pytest.raises(LimitExceeded):
        clean(OK_PAGE * 3, limits=Limits(max_tables=2))


# -- time and memory: the worker process is stopped -------------------------------------------------------------------
def test_a_slow_page_is_stopped_at_the_timeout_and_the_batch_goes_on(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # The slow page never ends (the stylesheet loops on it), so it is stopped at any timeout; the fine page needs a
    # fraction of the 20 s (its stylesheets compiled, on an idle machine about 1 s): a loaded machine does not change
    # the outcome, as it did with a timeout of 0.5 s (the fine page timed out too).
    slow, fine, forever = tmp_path / "slow.html", tmp_path / "fine.html", tmp_path / "forever.xsl"
    slow.write_bytes(b"<table><tr><th>slow</th></tr><tr><td>1</td></tr></table>")
    fine.write_bytes(OK_PAGE)
    forever.write_bytes(FOREVER_IF_SLOW)
    report = tmp_path / "report.jsonl"
    status, _, err = run(capsys, "convert", str(slow), str(fine), "-o", str(tmp_path / "out"), "--timeout", "20",
                         "--report", str(report), "--xslt", str(forever))
    assert status == 13
    slow_record, fine_record = records(report)
    assert slow_record == {"input": str(slow), "status": "failed", "output": None, "code": "limit", "exit_code": 7,
                           "message": "the page took longer than 20 s (limit timeout = 20; raise it with --timeout)",
                           "location": str(slow), "limit": "timeout"}
    assert fine_record["status"] == "ok" and (tmp_path / "out" / "fine.xml").is_file()
    assert "(limit timeout: 1): " in err


def test_a_page_over_the_memory_limit_fails_and_the_next_page_gets_a_new_worker(tmp_path: Path) -> None:
    limits = Limits(max_memory=250 * 2**20)
    with Worker(limits) as worker:
        failed = worker.run(Source(square_table(300), "big.html"), PageOptions())
        assert failed.status == "failed" and failed.source == "big.html" and not failed.outputs
        error = failed.error
        assert isinstance(error, LimitExceeded)
        assert error.limit == "max_memory" and error.location == "big.html"
        assert error.message == ("the page needed more than 250 MiB of memory (limit max_memory = 250 MiB; "
                                 "raise it with limits=Limits(max_memory=...))")  # the API's words
        result = worker.run(Source(OK_PAGE, "ok.html"), PageOptions())
    assert result.status == "ok" and result.tables == 1 and b"<a px:label" in result.payload


def test_a_worker_that_dies_costs_one_page(tmp_path: Path) -> None:
    forever = tmp_path / "forever.xsl"
    forever.write_bytes(FOREVER_IF_SLOW)
    with Worker(Limits(timeout=600)) as worker:
        worker.run(Source(OK_PAGE), PageOptions())  # started
        pid = worker.pid
        assert pid is not None
        killer = threading.Timer(0.5, lambda: __import__("os").kill(pid, 9))
        killer.start()
        crashed = worker.run(Source(NEVER_ENDS, "slow.html"), PageOptions(xslt=(str(forever),)))  # killed, never done
        killer.join()
        assert crashed.status == "failed" and isinstance(crashed.error, WorkerCrash)
        assert "killed by signal SIGKILL" in crashed.error.message and crashed.error.location == "slow.html"
        assert worker.run(read_source(OK_PAGE), PageOptions()).tables == 1
        assert worker.pid != pid


#: A sitecustomize for the worker's new interpreter: importing clean (what a process's first page does) takes 3 s,
#: as a worker's start can on a busy machine.
_SLOW_FIRST_PAGE = """
import sys, time

class SlowClean:
    def find_spec(self, name, path=None, target=None):
        if name == "pyxform.stages.clean":
            sys.meta_path.remove(self)
            time.sleep(3)
        return None

sys.meta_path.insert(0, SlowClean())
"""


def test_a_workers_start_is_not_counted_in_its_first_pages_time(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # What a process does once, before its first page (imports, the stages' first runs), is the worker's start: the
    # child does it before it says it is ready (STARTUP_TIMEOUT), so a page's timeout counts the page's work only. A
    # batch's workers failed to start on a busy machine when their first small page took longer than --timeout 3.
    (tmp_path / "sitecustomize.py").write_text(_SLOW_FIRST_PAGE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("PYXFORM_WORKER_FORK", "0")  # a new interpreter, which reads the sitecustomize
    with Worker(Limits(timeout=2)) as worker:
        result = worker.run(Source(OK_PAGE, "ok.html"), PageOptions())
    assert result.status == "ok" and result.tables == 1, result.error


def test_without_time_and_memory_limits_pages_convert_in_process(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(OK_PAGE)
    status, out, _ = run(capsys, "convert", str(page), "--timeout", "0", "--max-memory", "0", "--format", "pairs")
    assert status == 0 and [json.loads(line)["value"] for line in out.splitlines()] == ["1", "2"]


@pytest.mark.parametrize("command", ["grid", "headers"])
def test_grid_and_headers_stop_a_slow_page_at_the_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          command: str) -> None:
    slow = tmp_path / "slow.html"
    slow.write_bytes(slow_page())
    status, out, err = run(capsys, command, str(slow), "--timeout", "0.5")
    assert status == 7 and out == ""
    assert f"pyxform: error [limit]: {slow}: the page took longer than 0.5 s" in err


@pytest.mark.parametrize("command", ["grid", "headers"])
def test_grid_and_headers_stop_a_page_at_the_memory_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          command: str) -> None:
    big = tmp_path / "big.html"
    big.write_bytes(square_table(300))
    status, out, err = run(capsys, command, str(big), "--max-memory", "250")
    assert status == 7 and out == ""
    assert err.endswith(": the page needed more than 250 MiB of memory (limit max_memory = 250 MiB; raise it with "
                        "--max-memory)\n")  # in MiB, as --max-memory takes it


@pytest.mark.parametrize("command", ["grid", "headers"])
@pytest.mark.parametrize("output_format", ["xml", "json"])
def test_grid_and_headers_write_the_same_in_the_worker_and_in_process(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      command: str, output_format: str) -> None:
    page = tmp_path / "p.html"
    # table 1 is over --max-slots 4: a warning on standard error, in both ways
    page.write_bytes(OK_PAGE + b"<table><tr><td colspan=3>x</td></tr><tr><td>y</td></tr></table>")
    argv = [command, str(page), "--format", output_format, "--max-slots", "4"]
    in_worker = run(capsys, *argv)
    in_process = run(capsys, *argv, "--timeout", "0", "--max-memory", "0")
    assert in_worker == in_process
    status, out, err = in_worker
    assert status == 0 and out.endswith("\n")
    assert f"pyxform: warning [limit]: {page}: table 1 " in err
    if output_format == "json":
        assert [table["index"] for table in json.loads(out)["tables"]] == [0]


_FORKED_WORKER_SCRIPT = """
import json, os, sys, threading
sys.path.insert(0, {tests!r})
from test_limits import OK_PAGE, NEVER_ENDS, square_table
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.jobs import PageOptions, Worker
from pyxform.jobs.worker import _ForkedChild, _can_fork

def attempt(worker, page, name, xslt=()):
    result = worker.run(Source(page, name), PageOptions(xslt=xslt))
    if result.error is None:
        return {{"tables": result.tables}}
    error = result.error
    return {{"code": error.code, "limit": getattr(error, "limit", None), "message": error.message}}

out = {{"can_fork": _can_fork()}}
with Worker(Limits(timeout=0.5, max_memory=250 * 2**20)) as worker:
    out["slow"] = attempt(worker, NEVER_ENDS, "slow.html", ({forever!r},))  # never ends, in little memory
    worker.limits = Limits(timeout=600, max_memory=250 * 2**20)  # the next pages: no race with the clock
    out["ok_after_timeout"] = attempt(worker, OK_PAGE, "ok.html")
with Worker(Limits(timeout=600, max_memory=250 * 2**20)) as worker:
    out["ok"] = attempt(worker, OK_PAGE, "ok.html")
    out["forked"] = isinstance(worker._process, _ForkedChild)
    out["big"] = attempt(worker, square_table(300), "big.html")
    out["ok_after_memory"] = attempt(worker, OK_PAGE, "ok.html")
    pid = worker.pid
    threading.Timer(0.5, lambda: os.kill(pid, 9)).start()
    out["killed"] = attempt(worker, NEVER_ENDS, "slow.html", ({forever!r},))
    out["ok_after_crash"] = attempt(worker, OK_PAGE, "ok.html")
print(json.dumps(out))
"""


def test_a_worker_forked_from_the_command_keeps_every_limit(tmp_path: Path) -> None:
    # The command's process has not loaded Saxon, so its worker is forked (no new interpreter); this test's process
    # has, so the script runs in a fresh one. The page stopped at the timeout and the page killed never end (the
    # stylesheet loops on them) and need little memory: the memory limit is never reached first, however fast the
    # machine (a slow page of 200,000 cells reached it within 0.5 s on CI's).
    forever = tmp_path / "forever.xsl"
    forever.write_bytes(FOREVER_IF_SLOW)
    script = _FORKED_WORKER_SCRIPT.format(tests=str(Path(__file__).resolve().parent), forever=str(forever))
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["can_fork"] is True and out["forked"] is True
    assert out["ok"] == out["ok_after_timeout"] == out["ok_after_memory"] == out["ok_after_crash"] == {"tables": 1}
    assert out["slow"]["limit"] == "timeout" and out["slow"]["message"].startswith("the page took longer than 0.5 s")
    assert out["big"]["limit"] == "max_memory"
    assert out["killed"]["code"] == "crash" and "killed by signal SIGKILL" in out["killed"]["message"]


def tall_table(rows: int, cols: int) -> bytes:
    """A table of ``rows`` data rows, each with a row header cell, under one header row of ``cols`` columns."""
    head = "<tr><th></th>" + "".join(f"<th>C{j}</th>" for j in range(cols)) + "</tr>"
    body = "".join(f"<tr><th>R{i}</th>" + "".join(f"<td>{i * j}</td>" for j in range(cols)) + "</tr>"
                   for i in range(rows))
    return f"<table>{head}{body}</table>".encode()


def test_a_page_that_runs_saxon_out_of_memory_is_the_memory_limit_not_a_crash(tmp_path: Path) -> None:
    # Saxon's native image exits with status 99 and prints nothing when its heap cannot grow: under --max-memory
    # that is the limit (exit 7), not a crash (exit 1). Run as the command runs (a forked worker).
    tall = tmp_path / "tall.html"
    tall.write_bytes(tall_table(3000, 20))
    done = subprocess.run([sys.executable, "-m", "pyxform", "convert", str(tall), "--max-memory", "300"],
                          check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 7, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"pyxform: error [limit]: {tall}: the page needed more than 300 MiB of memory "
                                  "(limit max_memory = 300 MiB; raise it with --max-memory)\n")
    assert "crash" not in done.stderr


@pytest.mark.parametrize("megabytes", ["1", "50", "199"])
def test_a_memory_limit_too_small_for_the_worker_to_start_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                                                           megabytes: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["convert", "page.html", "--max-memory", megabytes])
    assert exited.value.code == 2
    assert "--max-memory: must be 0 (no limit) or at least 200 MiB" in capsys.readouterr().err


@pytest.mark.parametrize("fork", ["1", "0"])
def test_a_worker_that_cannot_start_within_its_memory_is_the_memory_limit(fork: str) -> None:
    # From Python (no --max-memory check): the start failure (saxonche's libraries cannot be mapped, or the native
    # image cannot create its heap) is classified, forked or in a new interpreter.
    script = ("import json\nfrom pyxform.jobs import PageOptions, Worker\n"
              "from pyxform.base.limits import Limits\nfrom pyxform.base.source import Source\n"
              "for mib in (1, 120):\n"
              "    page = Source(b'<table><tr><td>1</table>', 'p.html')\n"
              "    error = Worker(Limits(max_memory=mib * 2**20)).run(page, PageOptions()).error\n"
              "    if error is None:\n"
              "        print(json.dumps({'ok': mib}))\n"
              "    else:\n"
              "        print(json.dumps({'code': error.code, 'limit': getattr(error, 'limit', None),"
              " 'message': error.message, 'location': error.location}))\n")
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYXFORM_WORKER_FORK": fork})
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    for mib, answer in zip((1, 120), answers, strict=True):
        assert answer == {"code": "limit", "limit": "max_memory", "location": "p.html",
                          "message": f"the worker process could not start within {mib} MiB of memory (it needs about "
                                     f"200 MiB before any page) (limit max_memory = {mib} MiB; raise it with "
                                     "limits=Limits(max_memory=...))"}


def test_the_python_api_names_the_keyword_argument_and_the_command_line_the_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(LimitExceeded) as caught:
        read_source(OK_PAGE, limits=Limits(max_page_bytes=10))
    assert caught.value.message == ("the page has more than 10 bytes (limit max_page_bytes = 10; raise it with "
                                    "limits=Limits(max_page_bytes=...))")
    with pytest.raises(LimitExceeded) as caught:  # one table over max_slots, asked for alone
        convert(square_table(10), table=0, limits=Limits(max_slots=50))
    assert caught.value.limit == "max_slots"
    assert caught.value.message.endswith("(raise it with limits=Limits(max_slots=...))")
    page = tmp_path / "p.html"
    page.write_bytes(square_table(10))
    assert main(["convert", str(page), "--table", "0", "--max-slots", "50", "--timeout", "0",
                 "--max-memory", "0"]) == 7
    err = capsys.readouterr().err
    assert err.endswith("(raise it with --max-slots)\n") and "Limits(" not in err
