"""The jobs layer's contract (PLAN.md): one page with its options -> a PageResult that never raises for what the page
causes, the same in process (run_page) and in the isolated worker (Worker), everything picklable, and the worker
usable where other threads run (a Dask worker process, an asyncio program)."""

from __future__ import annotations

import inspect
import json
import os
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pyxform.base import errors
from pyxform.base.errors import (EmptyInput, InternalError, LimitExceeded, NoTableError, PyxformError, UsageError,
                                 ValidationError)
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.jobs import Output, PageOptions, PageResult, TableFailureInfo, Worker, run_page

PAPER = Path(__file__).resolve().parent / "data" / "cases" / "paper-example" / "input.html"
ONE = b"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
TWO = ONE + b"<table><tr><th>c</th></tr><tr><td>3</td></tr></table>"
WIDE = b"<table><tr>" + b"<th>h</th>" * 20 + b"</tr><tr>" + b"<td>1</td>" * 20 + b"</tr></table>"  # 40 slots


def _error_classes() -> list[type[PyxformError]]:
    found, todo = [], [PyxformError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [cls for cls in found if cls.__module__ == errors.__name__]


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda cls: cls.__name__)
def test_every_error_pickles_as_itself(cls: type[PyxformError]) -> None:
    keywords = {name: f"{name}-value" for name, parameter in inspect.signature(cls).parameters.items()
                if parameter.kind is parameter.KEYWORD_ONLY and parameter.default is parameter.empty}
    if cls is ValidationError:
        keywords["errors"] = [(3, "bad"), (None, "worse")]
    error = cls("what went wrong", location="page.html", **keywords)
    error.location = "page.html: table 2"  # changed after the constructor, as callers do
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is cls and back.args == error.args and vars(back) == vars(error)
    assert (back.code, back.exit_code, str(back)) == (error.code, error.exit_code, str(error))


def test_options_and_results_pickle_as_themselves() -> None:
    options = PageOptions(command="convert", table=2, names="generic", method="format", format="csv", separator="|",
                          xslt=("/a.xsl",), params=("post.x=1",), allow_io=True, keep_stages="/tmp/k",
                          limits=Limits(max_slots=10, timeout=5))
    assert pickle.loads(pickle.dumps(options)) == options
    error = LimitExceeded("too big", limit="max_slots", location="p.html")
    result = PageResult("p.html", "failed", (Output(0, b"a"), Output(3, b"b")), b"<xs:schema/>", ("warn",), 0,
                        (TableFailureInfo(0, "limit", "over", "/html/body[1]/table[1]"),), error, 1.5)
    back = pickle.loads(pickle.dumps(result))
    assert replace(back, error=None) == replace(result, error=None)
    assert type(back.error) is LimitExceeded and vars(back.error) == vars(error)


def test_a_page_gives_its_outputs_and_status() -> None:
    page = Source(PAPER.read_bytes(), str(PAPER))
    result = run_page(page, PageOptions())
    assert (result.source, result.status, result.tables, result.error, result.table_failures) == (
        str(PAPER), "ok", 1, None, ())
    assert len(result.outputs) == 1 and result.outputs[0].table is None
    assert result.payload.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<pyxform ')
    pairs = run_page(page, PageOptions(format="pairs")).payload.decode().splitlines()
    assert json.loads(pairs[0])["value"] == "1.78"
    csv = run_page(Source(TWO, "two.html"), PageOptions(format="csv", separator=" | "))
    assert [(output.table, output.data) for output in csv.outputs] == [(0, b"a,b\r\n1,2\r\n"), (1, b"c\r\n3\r\n")]
    schema = run_page(page, PageOptions(schema=True)).schema
    assert schema is not None and b"<xs:schema" in schema


@pytest.mark.parametrize("command", ["convert", "grid", "headers"])
def test_some_tables_failed_is_partial_and_every_table_failed_is_failed(command: str) -> None:
    options = PageOptions(command=command, limits=Limits(max_slots=30))  # type: ignore[arg-type]
    partial = run_page(Source(WIDE + TWO, "mixed.html"), options)
    assert partial.status == "partial" and partial.error is None and partial.tables == 2 and partial.outputs
    assert [(f.index, f.code, f.locator) for f in partial.table_failures] == [(0, "limit", "/html/body[1]/table[1]")]
    failed = run_page(Source(WIDE, "wide.html"), options)
    assert failed.status == "failed" and not failed.outputs and failed.tables == 0
    assert isinstance(failed.error, LimitExceeded) and failed.error.limit == "max_slots"
    assert failed.error.message.startswith("no table of the page could be converted (1 table failed): table 0: ")
    assert failed.error.location == "wide.html" and [f.index for f in failed.table_failures] == [0]


def test_what_the_page_causes_is_recorded_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    none = run_page(Source(b"<p>no table here</p>", "none.html"), PageOptions())
    assert none.status == "no-tables" and isinstance(none.error, NoTableError) and none.error.location == "none.html"
    empty = run_page(Source(b"", "empty.html"), PageOptions())
    assert empty.status == "failed" and isinstance(empty.error, EmptyInput)
    asked = run_page(Source(TWO, "two.html"), PageOptions(table=5))
    assert asked.status == "no-tables" and asked.error.message == ("the page has no table 5 (it has 2 table(s), indexes "
                                                                   "0 to 1)")

    import pyxform.jobs.page

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(pyxform.jobs.page, "convert", broken)
    bug = run_page(Source(TWO, "two.html"), PageOptions())
    assert bug.status == "failed" and isinstance(bug.error, InternalError)
    assert bug.error.message == "KeyError: 'a bug'" and isinstance(bug.error.__cause__, KeyError)


def _stages_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The stylesheets run from now on, in order (through the runner every stage goes through)."""
    from pyxform.runtime.runner import Runner

    stages: list[str] = []
    run = Runner.run

    def counted(self: Runner, stage: str, *args: object, **kwargs: object) -> object:
        stages.append(stage)
        return run(self, stage, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Runner, "run", counted)
    return stages


@pytest.mark.parametrize("format, stages", [
    ("xml", ["normalize", "headers-map", "merge"]),  # no annotated grid
    ("json", ["normalize", "headers-map", "merge", "json"]),
    ("tables", ["normalize", "headers", "map", "merge", "tabular"]),  # the XML and the grid, headers once
    ("pairs", ["normalize", "headers", "pairs"]),  # the grid alone: no map, no merge
    ("csv", ["normalize", "headers", "tabular"]),
    ("xhtml", ["normalize", "headers", "xhtml"]),
])
def test_each_format_runs_header_detection_once_and_only_the_stages_it_reads(
        monkeypatch: pytest.MonkeyPatch, format: str, stages: list[str]) -> None:
    run = _stages_run(monkeypatch)
    result = run_page(Source(TWO, "two.html"), PageOptions(format=format))
    assert result.status == "ok" and result.tables == 2 and run == stages
    run.clear()  # one table: the whole pipeline (map says what a missing or failed table is)
    assert run_page(Source(TWO, "two.html"), PageOptions(format=format, table=1)).tables == 1
    assert "headers-map" in run or ("headers" in run and "map" in run)


@pytest.mark.parametrize("format", ["pairs", "csv", "xhtml"])
def test_the_formats_read_from_the_grid_fail_as_the_xml_does(format: str) -> None:
    # map and merge do not run for them: a page without tables is said to have none as map says it
    for page, options in ((b"<p>no table here</p>", PageOptions()), (WIDE, PageOptions(limits=Limits(max_slots=30))),
                          (WIDE + TWO, PageOptions(limits=Limits(max_slots=30)))):
        xml = run_page(Source(page, "p.html"), options)
        read = run_page(Source(page, "p.html"), replace(options, format=format))
        assert (read.status, read.tables, read.table_failures, read.messages) == (
            xml.status, xml.tables, xml.table_failures, xml.messages)
        assert type(read.error) is type(xml.error) and vars(read.error or Exception()) == vars(xml.error or Exception())


@pytest.mark.parametrize("options, message", [
    (PageOptions(format="yaml"), "`convert` writes xml, pairs, json, csv, xhtml, tables, not 'yaml'"),
    (PageOptions(command="grid", format="csv"), "`grid` writes xml, json, not 'csv'"),
    (PageOptions(command="headers", schema=True), "`headers` takes none of schema (only convert does)"),
    (PageOptions(format="csv", xslt=(str(PAPER),)), "--xslt post-processes the XML output"),
    (PageOptions(params=("headers.nosuch=1",)), "--param headers.nosuch=1: the headers step has no parameter"),
    (PageOptions(table=-1), "table must be a table index"),
])
def test_options_that_cannot_be_served_raise_before_the_page(options: PageOptions, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        run_page(Source(b"not even read"), options)
    assert str(caught.value).startswith(message)


def _same(first: PageResult, second: PageResult) -> None:
    assert replace(first, seconds=0.0, error=None) == replace(second, seconds=0.0, error=None)
    assert type(first.error) is type(second.error) and vars(first.error or Exception()) == vars(second.error or Exception())


def test_the_worker_gives_what_run_page_gives() -> None:
    cases = [(Source(PAPER.read_bytes(), str(PAPER)), PageOptions(format="json")),
             (Source(TWO, "two.html"), PageOptions(format="csv")),
             (Source(WIDE + TWO, "mixed.html"), PageOptions(command="headers", limits=Limits(max_slots=30))),
             (Source(WIDE, "wide.html"), PageOptions(command="grid", format="json", limits=Limits(max_slots=30))),
             (Source(b"<p>none</p>", "none.html"), PageOptions()),
             (Source(b"  ", "blank.html"), PageOptions())]
    with Worker(Limits(timeout=600)) as worker:
        for source, options in cases:
            _same(worker.run(source, options), run_page(source, options))
        with pytest.raises(UsageError):  # raised here, before the page is sent
            worker.run(Source(TWO), PageOptions(params=("nosuch=1",)))


_THREADED = """
import asyncio, json, subprocess, sys, threading
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.jobs import PageOptions, Worker, run_page

stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()  # another thread runs, as in a Dask worker process
page = Source(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>", "p.html")

async def main():
    with Worker(Limits(timeout=600)) as worker:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(None, worker.run, page, PageOptions(format="pairs"))
        second = await loop.run_in_executor(None, worker.run, Source(b"<p>x</p>", "x.html"), PageOptions())
        return first, second, isinstance(worker._process, subprocess.Popen)

first, second, started_by_python_m = asyncio.run(main())
stop.set()
print(json.dumps({"status": first.status, "payload": first.payload.decode(), "started_by_python_m": started_by_python_m,
                  "same": first.payload == run_page(page, PageOptions(format="pairs")).payload,
                  "second": [second.status, type(second.error).__name__, second.error.location]}))
"""


def test_the_worker_runs_from_an_asyncio_program_while_other_threads_run() -> None:
    # A fresh interpreter: Saxon is not loaded there, so only the running thread forbids the fork.
    done = subprocess.run([sys.executable, "-c", _THREADED], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == "ok" and out["same"] is True and out["started_by_python_m"] is True
    assert json.loads(out["payload"])["value"] == "1"
    assert out["second"] == ["no-tables", "NoTableError", "x.html"]


def _in_a_dask_worker(data: bytes) -> tuple[str, int, bytes, bool]:
    from pyxform.jobs.worker import _can_fork

    with Worker(Limits(timeout=600)) as worker:
        result = worker.run(Source(data, "dask.html"), PageOptions(format="csv"))
    return result.status, result.tables, result.payload, _can_fork()


def test_the_worker_runs_inside_a_dask_worker_process() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            status, tables, payload, could_fork = client.submit(_in_a_dask_worker, ONE).result(timeout=300)
    assert (status, tables, payload, could_fork) == ("ok", 1, b"a,b\r\n1,2\r\n", False)


_PROCESS_GROUP_SCRIPT = """
import json, os, signal, sys, time
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.jobs import PageOptions, Worker
page = Source(b'<table><tr><th>a<tr><td>1</table>', 'p.html')
with Worker(Limits(timeout=600)) as worker:
    first = worker.run(page, PageOptions())
    pid = worker.pid
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # this process stands for a command that stops gracefully
    os.killpg(os.getpgid(0), signal.SIGINT)  # Ctrl-C at the terminal: the whole foreground process group
    second = worker.run(page, PageOptions())
    print(json.dumps({"own_group": os.getpgid(pid) != os.getpgid(0), "same_worker": worker.pid == pid,
                      "first": first.tables, "second": second.tables,
                      "second_error": None if second.error is None else second.error.code}))
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups (POSIX)")
@pytest.mark.parametrize("fork", ["1", "0"])
def test_ctrl_c_at_the_terminal_reaches_the_command_not_its_worker(fork: str) -> None:
    # The crawler and batch stop gracefully on Ctrl-C: the page in the worker must finish, not die as a crash.
    done = subprocess.run([sys.executable, "-c", _PROCESS_GROUP_SCRIPT], check=False, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYXFORM_WORKER_FORK": fork}, start_new_session=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"own_group": True, "same_worker": True, "first": 1, "second": 1,
                                       "second_error": None}
