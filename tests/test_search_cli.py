"""``pyxform index``, ``pyxform search`` as a user runs them: pages converted in worker processes, messages and exit
codes, JSON as the issue gives it, a readable text list."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .search_helpers import DATA, copy_pages, pyxform


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("cli")
    pages = copy_pages(base / "pages")
    (pages / "notes.json").write_text("{}")
    done = pyxform("index", str(pages), "--out", str(base / "index"), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "6 tables added from 4 pages" in done.stderr and "1 without tables" in done.stderr
    assert "1 other files skipped" in done.stderr
    again = pyxform("index", str(pages), "--out", str(base / "index"), "--quiet")
    assert again.returncode == 0 and "0 tables added from 4 pages" in again.stderr
    assert "0 converted" in again.stderr and "4 unchanged" in again.stderr
    return base / "index"


def test_search_json(index) -> None:
    done = pyxform("search", str(index), "Gulf of Bothnia", "--format", "json", "-n", "2")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [list(result) for result in results] == [["rank", "score", "source", "path", "title", "table", "caption",
                                                     "headers", "preview", "xpath"]] * len(results)
    first = results[0]
    assert (first["rank"], first["title"], first["table"], first["source"]) == (
        1, "Rivers of Finland", 0, "https://example.org/wiki/Rivers_of_Finland")
    assert first["headers"] == ["River", "Length (km)", "Outflow"]
    assert first["preview"][0] == ["Kemijoki", "550", "Gulf of Bothnia"] and first["xpath"] == "/html/body[1]/table[1]"
    assert Path(first["path"]).name == "rivers.html" and isinstance(first["score"], float)


def test_search_text_and_rankings(index) -> None:
    done = pyxform("search", str(index), "largest lakes by area", "-n", "1")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"1\. Lakes of Finland  \(table 0, score \d+\.\d{3}\)", lines[0]), lines[0]
    assert lines[1] == "   Largest lakes by area" and lines[2] == "   columns: Lake | Area (km²) | Region"
    for ranking in ("bm25", "pagerank"):
        other = pyxform("search", str(index), "lakes", "--ranking", ranking, "--format", "json")
        assert other.returncode == 0 and json.loads(other.stdout)["results"]
    tuned = pyxform("search", str(index), "lakes", "--set", "weight_title=0", "--set", "depth=5", "--format", "json")
    assert tuned.returncode == 0
    bad = pyxform("search", str(index), "lakes", "--set", "colour=3")
    assert bad.returncode == 2 and "unknown ranking parameter 'colour'" in bad.stderr


def test_messages_and_exit_codes(index, tmp_path) -> None:
    empty_query = pyxform("search", str(index), "  ?! ")
    assert empty_query.returncode == 2 and "[empty-query]" in empty_query.stderr
    assert "no word to search for" in empty_query.stderr
    missing = pyxform("search", str(tmp_path / "nowhere"), "lakes")
    assert missing.returncode == 17 and "no search index there" in missing.stderr
    (tmp_path / "folder").mkdir()
    not_index = pyxform("search", str(tmp_path / "folder"), "lakes")
    assert not_index.returncode == 17 and "not a search index" in not_index.stderr
    no_server = pyxform("serve", str(tmp_path / "nowhere"), "--port", "1")  # refused before listening
    assert no_server.returncode == 17 and "no search index there" in no_server.stderr
    nothing = pyxform("search", str(index), "zzqqxx")
    assert nothing.returncode == 0 and nothing.stdout.strip() == "no table matches the query"

    no_tables = pyxform("index", str(DATA / "notables.html"), "--out", str(tmp_path / "ix"))
    assert no_tables.returncode == 0
    empty = pyxform("search", str(tmp_path / "ix"), "lakes", "--format", "json")
    assert empty.returncode == 0 and json.loads(empty.stdout) == {"results": []}
    assert "the index holds no table" in empty.stderr

    (tmp_path / "bad.html").write_bytes(b"\x00\x01\x02" * 100)
    failed = pyxform("index", str(tmp_path / "bad.html"), str(DATA / "rivers.html"), "--out", str(tmp_path / "ix"))
    assert failed.returncode == 13
    assert "failed [undecodable]" in failed.stderr and "bad.html" in failed.stderr
    empty_folder = tmp_path / "empty"
    empty_folder.mkdir()
    nothing_to_index = pyxform("index", str(empty_folder), "--out", str(tmp_path / "none"))
    assert nothing_to_index.returncode == 3 and "no pages to index" in nothing_to_index.stderr
    assert not (tmp_path / "none").exists()
    (tmp_path / "a-file").write_text("not a folder")
    in_the_way = pyxform("index", str(DATA / "rivers.html"), "--out", str(tmp_path / "a-file"))
    assert in_the_way.returncode == 15 and "[output]" in in_the_way.stderr
    assert "choose another --out" in in_the_way.stderr


def test_a_search_process_loads_neither_the_jobs_layer_nor_lxml_nor_saxon(index) -> None:
    """The query path starts fast: ``pyxform search`` imports its own verb module, SQLite and the analyzer only."""
    import subprocess
    import sys

    code = ("import json, sys\nfrom pyxform.cli import main\nstatus = main(sys.argv[1:])\n"
            "print(json.dumps(sorted({'.'.join(name.split('.')[:2 if name.startswith('pyxform.') else 1])"
            " for name in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code, "search", str(index), "Gulf of Bothnia", "--format", "json"],
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    results, loaded = done.stdout.strip().splitlines()
    assert json.loads(results)["results"][0]["title"] == "Rivers of Finland"  # it did search
    loaded_names = set(json.loads(loaded))  # the top packages loaded (pyxform's by layer)
    assert "pyxform.wings" in loaded_names and "sqlite3" in loaded_names and "Stemmer" in loaded_names
    assert not loaded_names & {"pyxform.jobs", "pyxform.api", "pyxform.stages", "pyxform.runtime", "lxml", "saxonche",
                               "numpy", "scipy", "starlette", "jinja2", "warcio", "httpx"}


def test_ctrl_c_keeps_the_pages_indexed_and_the_same_command_goes_on(tmp_path, monkeypatch, capsys) -> None:
    from pyxform import jobs
    from pyxform.cli import main
    from pyxform.wings.search import index as index_module

    pages = copy_pages(tmp_path / "pages")
    seen: list[str] = []

    def in_process(self, page):  # the third page is where Ctrl-C lands
        seen.append(page.path or page.key)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return jobs.run_page(index_module.Source(page.data, page.url or page.path or page.key, page.charset),
                             self.options)

    monkeypatch.setattr(index_module._Converter, "run", in_process)
    command = ["index", str(pages), "--out", str(tmp_path / "index"), "--jobs", "1", "--quiet"]
    assert main(command) == 130
    said = capsys.readouterr().err.splitlines()
    assert said == ["pyxform index: interrupted: the pages indexed so far are kept; the same command again goes on"]
    assert main(command) == 0
    summary = capsys.readouterr().err
    assert "4 pages" in summary and "2 converted, 2 unchanged" in summary
    assert len(seen) == 5  # the two kept pages were not converted again
