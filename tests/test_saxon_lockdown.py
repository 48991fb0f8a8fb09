"""No page can steer a stylesheet to a URI (issue 7): pyxform's stylesheets call no function that reads a URI,
evaluates a dynamic expression or writes a file, and the locked Saxon runtime refuses every such access anyway:
``doc()``, ``document()``, ``collection()``, ``unparsed-text()``, ``json-doc()``, ``xsl:source-document``,
``fn:transform`` and ``xsl:evaluate`` (which Saxon-HE 12/13 supports) fail; ``xsl:result-document`` writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyxform.base.errors import StylesheetError
from pyxform.runtime.saxon import SaxonRuntime, builtin_stylesheet

HOSTILE = Path(__file__).parent / "data" / "stylesheets" / "hostile.xsl"
STYLESHEETS = Path(builtin_stylesheet("normalize.xsl")).parent

# Everything in XSLT 3.0 / XPath 3.1 that reads a URI, evaluates text as code, or writes or reveals the environment.
FORBIDDEN = re.compile(
    r"(?<![\w:-])(?:fn:)?(doc|document|doc-available|collection|uri-collection|unparsed-text|unparsed-text-lines"
    r"|unparsed-text-available|json-doc|transform|load-xquery-module|environment-variable"
    r"|available-environment-variables)\(|<xsl:(evaluate|result-document|source-document|merge-source)\b|\bsaxon:")


def test_no_pipeline_stylesheet_reads_a_uri_or_evaluates_text() -> None:
    sources = sorted(STYLESHEETS.rglob("*.xsl"))
    assert len(sources) >= 20
    for path in sources:
        text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        assert not FORBIDDEN.search(text), f"{path.relative_to(STYLESHEETS)}: {FORBIDDEN.search(text)}"
    # the check finds each access of the hostile stylesheet, and the fn: forms
    found = {match.group(0) for match in FORBIDDEN.finditer(HOSTILE.read_text(encoding="utf-8"))}
    assert len(found) == 13, found
    assert FORBIDDEN.search("select='fn:doc($x)'") and not FORBIDDEN.search("select='f:document-order($x)'")


@pytest.fixture(scope="module")
def hostile() -> SaxonRuntime:
    runtime = SaxonRuntime()
    runtime.compile_all({"hostile": HOSTILE})
    assert runtime.locked
    return runtime


def page(secret: Path, out: Path) -> str:
    return (f"<page><uri>{secret.as_uri()}</uri><out>{out.as_uri()}</out>"
            f"<xpath>unparsed-text('{secret.as_uri()}')</xpath>"
            f"<xml>&lt;!DOCTYPE x [&lt;!ENTITY e SYSTEM '{secret.as_uri()}'>]>&lt;x>&amp;e;&lt;/x></xml></page>")


@pytest.mark.parametrize("probe", ["doc", "document", "collection", "uri-collection", "unparsed-text",
                                   "unparsed-text-lines", "json-doc", "evaluate", "evaluate-doc", "transform",
                                   "source-document", "parse-xml"])
def test_every_uri_access_steered_by_the_input_fails(hostile: SaxonRuntime, tmp_path: Path, probe: str) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"k": "SECRET-CONTENT"}')
    node = hostile.parse(page(secret, tmp_path / "out.txt"))
    with pytest.raises(StylesheetError) as caught:
        hostile.transform_to_string("hostile", node, {"probe": probe})
    assert "SECRET-CONTENT" not in str(caught.value)
    assert re.search(r"prohibited|disallowed|xsl:evaluate|not well-formed", str(caught.value)), caught.value


@pytest.mark.parametrize("probe", ["doc-available", "unparsed-text-available"])
def test_availability_checks_say_false(hostile: SaxonRuntime, tmp_path: Path, probe: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT")
    node = hostile.parse(page(secret, tmp_path / "out.txt"))
    assert hostile.transform_to_string("hostile", node, {"probe": probe}).endswith("<out>false</out>")


def test_result_documents_are_kept_in_memory_not_written(hostile: SaxonRuntime, tmp_path: Path) -> None:
    target = tmp_path / "written.txt"
    node = hostile.parse(page(tmp_path / "secret.txt", target))
    hostile.transform_to_string("hostile", node, {"probe": "result-document"})
    relative = hostile.parse("<page><out>written-relative.txt</out></page>")
    hostile.transform_to_string("hostile", relative, {"probe": "result-document"})
    assert not target.exists()
    assert not (Path.cwd() / "written-relative.txt").exists()


def test_an_unlocked_runtime_would_read_the_file(tmp_path: Path) -> None:
    # The control: the same probe on a runtime left open (allow_io) reads the file, so the tests above can fail.
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT")
    runtime = SaxonRuntime(allow_io=True)
    runtime.compile_all({"hostile": HOSTILE})
    node = runtime.parse(page(secret, tmp_path / "out.txt"))
    assert "SECRET-CONTENT" in runtime.transform_to_string("hostile", node, {"probe": "unparsed-text"})
    assert "SECRET-CONTENT" in runtime.transform_to_string("hostile", node, {"probe": "evaluate"})


_ENVIRONMENT_PROBE = ("string-join((environment-variable('PYXFORM_PROBE'), "
                      "string(count(available-environment-variables()))), ' ')")


def _pyxform(tmp_path: Path, *argv: str, **env: str) -> str:
    import os
    import subprocess
    import sys

    from pyxform.runtime.environment import ENVIRONMENT_SWITCH

    base = {name: value for name, value in os.environ.items() if name != ENVIRONMENT_SWITCH}
    done = subprocess.run([sys.executable, "-m", "pyxform", *argv], check=False, capture_output=True, text=True,
                          timeout=600, cwd=tmp_path, env={**base, "PYXFORM_PROBE": "secret", **env})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("worker", ["forked", "new-python", "in-process"])
def test_stylesheets_and_queries_see_no_environment_variable_unless_io_is_allowed(tmp_path: Path,
                                                                                  worker: str) -> None:
    # Each run is a new process: Saxon keeps the environment it first read for the life of the process.
    (tmp_path / "a.xml").write_text("<a/>")
    (tmp_path / "env.xsl").write_text(
        '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
        f'<xsl:template match="/"><r>{{{_ENVIRONMENT_PROBE}}}</r></xsl:template></xsl:stylesheet>'
        .replace("<r>", '<r xsl:expand-text="yes">'))
    (tmp_path / "p.html").write_text("<table><tr><th>A</th></tr><tr><td>1</td></tr></table>")
    options = {"forked": [], "new-python": [], "in-process": ["--timeout", "0", "--max-memory", "0"]}[worker]
    env = {"PYXFORM_WORKER_FORK": "0"} if worker == "new-python" else {}
    hidden = '<?xml version="1.0" encoding="UTF-8"?><r>0</r>'
    assert _pyxform(tmp_path, "convert", "p.html", "--xslt", "env.xsl", *options, **env) == hidden
    shown = _pyxform(tmp_path, "convert", "p.html", "--xslt", "env.xsl", "--allow-io", *options, **env)
    assert re.fullmatch(r'<\?xml version="1.0" encoding="UTF-8"\?><r>secret \d+</r>', shown), shown
    if worker == "forked":
        assert _pyxform(tmp_path, "transform", "env.xsl", "a.xml").strip() == hidden
        assert "<r>secret " in _pyxform(tmp_path, "transform", "env.xsl", "a.xml", "--allow-io")
        assert _pyxform(tmp_path, "query", "a.xml", _ENVIRONMENT_PROBE) == "0\n"


def test_allow_io_leaves_no_switch_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from pyxform.cli import main
    from pyxform.runtime.environment import ENVIRONMENT_SWITCH

    (tmp_path / "a.xml").write_text("<a/>")
    (tmp_path / "id.xsl").write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"'
                                     '><xsl:template match="/"><b/></xsl:template></xsl:stylesheet>')
    assert main(["transform", str(tmp_path / "id.xsl"), str(tmp_path / "a.xml"), "--allow-io"]) == 0
    assert "<b/>" in capsys.readouterr().out
    assert ENVIRONMENT_SWITCH not in os.environ


@pytest.mark.parametrize(("call", "code"), [
    ("collection('file:///etc')", None),               # Saxon reports no code: no Java class or word as one
    ("transform(map{'stylesheet-location':'id.xsl', 'source-node':.})?output", None),
    ("unparsed-text('secret.txt')", "FOUT1170"),
])
def test_a_refused_uri_access_reports_its_place_and_only_a_real_error_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], call: str, code: str | None) -> None:
    from pyxform.cli import main

    (tmp_path / "a.xml").write_text("<a/>")
    (tmp_path / "probe.xsl").write_text(
        '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n'
        f'<xsl:template match="/"><r><xsl:sequence select="{call}"/></r></xsl:template></xsl:stylesheet>')
    assert main(["transform", str(tmp_path / "probe.xsl"), str(tmp_path / "a.xml")]) == 10
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"pyxform: error [xslt{' ' + code if code else ''}]: {tmp_path / 'probe.xsl'}:2:"), err
    assert "net.sf.saxon" not in err and "\n" not in err
