"""Saxon's node API from a thread other than the one that first used Saxon: a thread that is not attached to the
GraalVM isolate ends the whole process (exit 99, no Python exception), so each case runs in a child process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PAGE = ("<html><head><title>t</title></head><body><table><tr><th>Name</th><th>Age</th></tr>"
        "<tr><td>Ann</td><td>31</td></tr></table>"
        "<table>" + "<tr><td>x</td></tr>" * 30 + "</table></body></html>")


def _in_child(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent("""
        import threading
        import pyxform
        from pyxform.base.limits import Limits
        PAGE = {page!r}
        first = pyxform.convert(PAGE)  # Saxon used first in the main thread
        first.xml
        results = []
        def work():
        {body}
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        print(results)
    """).format(page=PAGE, body=textwrap.indent(textwrap.dedent(body), "    "))
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)


def test_table_indexes_and_failures_in_another_thread(tmp_path: Path) -> None:
    done = _in_child("""
        converted = pyxform.convert(PAGE, limits=Limits(max_slots=20))
        results.append(converted.table_indexes())
        results.append([(failure.index, failure.code) for failure in converted.table_failures()])
        results.append(first.table_indexes())
    """, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[[0], [(1, 'limit')], [0, 1]]"


def test_query_in_another_thread(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text("<r><v>1</v><v>2</v></r>", encoding="utf-8")
    done = _in_child("""
        from pyxform.stages.query import query
        results.append([item.text for item in query("a.xml", "//v").items])
    """, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[['1', '2']]"
