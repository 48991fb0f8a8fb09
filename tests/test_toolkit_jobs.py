"""``transform`` and ``query`` run where they can be stopped: a stylesheet that never ends, or a query that recurses
forever, is stopped at ``--timeout`` (exit 7), by Ctrl-C (130) or SIGTERM (143), its worker process ended; a
recursion that overflows Saxon's stack is the query's (or stylesheet's) error, not a crash of pyxform. Each never-ending
job here never ends, so no outcome depends on how fast the machine is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyxform.base.errors import LimitExceeded, QueryError
from pyxform.base.limits import Limits
from pyxform.base.source import Source
from pyxform.cli import main
from pyxform.jobs import QueryOptions, TransformOptions, Worker, run_job

FOREVER_XSL = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xsl:template match="/">
    <xsl:call-template name="again"><xsl:with-param name="n" select="1"/></xsl:call-template>
  </xsl:template>
  <xsl:template name="again">  <!-- a tail call: it loops without end, at 100% CPU -->
    <xsl:param name="n" as="xs:integer"/>
    <xsl:call-template name="again"><xsl:with-param name="n" select="($n + 1) mod 1000"/></xsl:call-template>
  </xsl:template>
</xsl:stylesheet>"""
FOREVER_XQUERY = ("declare function local:f($n as xs:integer) as xs:integer { if ($n lt 0) then 0 else "
                  "local:f(($n + 1) mod 1000) }; local:f(1)")
TOO_DEEP_XPATH = "let $f := function($f, $n) { if ($n lt 0) then 0 else $f($f, $n + 1) } return $f($f, 1)"
IDENTITY_XSL = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:mode on-no-match="shallow-copy"/>
  <xsl:template match="/"><xsl:message>copied</xsl:message><xsl:next-match/></xsl:template>
</xsl:stylesheet>"""


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"forever": tmp_path / "forever.xsl", "identity": tmp_path / "identity.xsl", "doc": tmp_path / "doc.xml"}
    paths["forever"].write_text(FOREVER_XSL, encoding="utf-8")
    paths["identity"].write_text(IDENTITY_XSL, encoding="utf-8")
    paths["doc"].write_text("<r><a>1</a><a>2</a></r>", encoding="utf-8")
    return paths


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_stylesheet_that_never_ends_is_stopped_at_the_timeout(files: dict[str, Path],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "transform", str(files["forever"]), str(files["doc"]), "--timeout", "1")
    assert (status, out) == (7, "")
    assert err == (f"pyxform: error [limit]: {files['doc']}: the transformation took longer than 1 s (limit timeout "
                   "= 1; raise it with --timeout)\n")


@pytest.mark.parametrize("xquery", [False, True])
def test_a_query_that_never_ends_is_stopped_at_the_timeout(files: dict[str, Path], capsys: pytest.CaptureFixture[str],
                                                           xquery: bool) -> None:
    # XPath has no recursion but through a function given itself (which overflows): 4 x 10^18 steps instead
    expression = FOREVER_XQUERY if xquery else ("sum(for $a in 1 to 2000000000, $b in 1 to 2000000000 "
                                                "return ($a * $b) mod 7)")
    argv = ["query", str(files["doc"]), expression, "--timeout", "1", *(["--xquery"] if xquery else [])]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (7, "")
    assert err.endswith(": the query took longer than 1 s (limit timeout = 1; raise it with --timeout)\n")


def test_a_recursion_that_overflows_the_stack_is_the_querys_error(files: dict[str, Path],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # in this process it took the whole command down with Saxon's heap dump (exit 99)
    status, out, err = run(capsys, "query", str(files["doc"]), TOO_DEEP_XPATH)
    assert (status, out) == (12, "")
    assert err.startswith(f"pyxform: error [query]: {files['doc']}: the query recursed too deeply: Saxon's stack "
                          "overflowed (java.lang.StackOverflowError")


def test_in_the_worker_and_in_process_the_same_output(files: dict[str, Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["transform", str(files["identity"]), str(files["doc"])],
                    ["query", str(files["doc"]), "//a", "--text"], ["query", str(files["doc"]), "//nothing"]):
        in_worker = run(capsys, *command)
        assert run(capsys, *command, "--timeout", "0", "--max-memory", "0") == in_worker
        assert in_worker[0] == 0
    assert run(capsys, "query", str(files["doc"]), "//a", "--text")[1] == "1\n2\n"
    assert run(capsys, "transform", str(files["identity"]), str(files["doc"])) == (
        0, '<?xml version="1.0" encoding="UTF-8"?><r><a>1</a><a>2</a></r>\n', "copied\n")


def test_the_jobs_from_python(files: dict[str, Path]) -> None:
    document = Source(files["doc"].read_bytes(), str(files["doc"]))
    with Worker(Limits(timeout=1), warm_up=False) as worker:
        stopped = worker.run(document, TransformOptions(str(files["forever"])))
    with Worker(Limits(timeout=600), warm_up=False) as worker:  # a ceiling a busy machine never reaches
        copied = worker.run(document, TransformOptions(str(files["identity"])))
        too_deep = worker.run(Source(b"", str(files["doc"])), QueryOptions(TOO_DEEP_XPATH))
    assert stopped.status == "failed" and isinstance(stopped.error, LimitExceeded)
    assert stopped.error.limit == "timeout" and stopped.error.location == str(files["doc"])
    in_process = run_job(document, TransformOptions(str(files["identity"])))
    assert ((copied.status, copied.payload, copied.messages) == (in_process.status, in_process.payload,
                                                                 in_process.messages)
            == ("ok", b'<?xml version="1.0" encoding="UTF-8"?><r><a>1</a><a>2</a></r>', ("copied",)))
    assert isinstance(too_deep.error, QueryError)
    found = run_job(Source(b"", str(files["doc"])), QueryOptions("count(//a)"))
    assert (found.status, found.payload) == ("ok", b"2\n")


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a process's children from /proc (Linux)")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_ctrl_c_end_a_transformation_and_its_worker(files: dict[str, Path], signum: int,
                                                                status: int) -> None:
    # Saxon ran in the command's own process, where Python handles no signal until Saxon returns: both were ignored
    process = subprocess.Popen([sys.executable, "-m", "pyxform", "transform", str(files["forever"]),
                                str(files["doc"])], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300  # only a ceiling for a machine that is very busy: never reached otherwise
        while not _children(process.pid):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the worker process never started"
            time.sleep(0.05)
        (worker,) = _children(process.pid)
        process.send_signal(signum)
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == status, err
    assert out == b"" and b"Traceback" not in err
    with pytest.raises(ProcessLookupError):  # the worker was ended (and reaped) before the command exited
        os.kill(worker, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a forked worker ends with its parent on Linux")
def test_a_forked_worker_never_outlives_its_command(files: dict[str, Path]) -> None:
    # killed outright (SIGKILL: no handler runs), the command cannot end its worker; the worker ends with it
    process = subprocess.Popen([sys.executable, "-m", "pyxform", "transform", str(files["forever"]),
                                str(files["doc"])], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300
        while not _children(process.pid):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the worker process never started"
            time.sleep(0.05)
        (worker,) = _children(process.pid)
        process.kill()
        process.communicate(timeout=300)
        while _alive(worker):  # reaped by init once it has ended
            assert time.monotonic() < deadline + 300, "the worker runs on without its command"
            time.sleep(0.05)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False
