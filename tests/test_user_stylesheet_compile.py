"""A stylesheet of the user's reaches no file and no URI while Saxon compiles it, unless I/O is allowed: its document
type declaration, its includes and imports and its static expressions are read before the runtime is locked
(pyxform/runtime/compile_check.py; docs/security.md: "your own stylesheets get file and network access only with
--allow-io")."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyxform.api.pipeline import Pipeline, Step
from pyxform.base.errors import StylesheetError
from pyxform.cli import main

XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"'
SECRET = "s3cr3t-file-content"
STYLESHEETS = Path(__file__).parent / "data" / "stylesheets"


@pytest.fixture()
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


# The server runs in a process of its own: Saxon holds the GIL while it fetches, so a thread of this one never answers.
SERVER = r"""
import http.server, sys
from pathlib import Path
log = Path(sys.argv[1])
body = (b'<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
        b'<xsl:template name="t"/></xsl:stylesheet>')
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with log.open("a") as file:
            file.write(self.path + "\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(httpd.server_address[1], flush=True)
httpd.serve_forever()
"""


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A web server on 127.0.0.1 that writes each path asked for into a file (returned) and answers with a small
    stylesheet module."""
    log = tmp_path / "asked.txt"
    log.write_text("")
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(log)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}", log
    finally:
        process.kill()
        process.wait()


def stylesheet(tmp_path: Path, name: str, prolog: str = "", top: str = "", body: str = "<out/>") -> Path:
    path = tmp_path / name
    path.write_text(f'<?xml version="1.0"?>\n{prolog}<xsl:stylesheet version="3.0" {XSL} expand-text="yes">\n{top}\n'
                    f'<xsl:template match="/">{body}</xsl:template>\n</xsl:stylesheet>\n')
    return path


def refused(path: Path) -> StylesheetError:
    with pytest.raises(StylesheetError) as caught:
        Pipeline([Step.xslt(path)]).run(b"<a/>", serialize=True)
    assert SECRET not in str(caught.value)
    return caught.value


def test_an_external_entity_of_the_stylesheets_dtd_reads_no_file(tmp_path: Path, secret: Path) -> None:
    path = stylesheet(tmp_path, "dtd.xsl", f'<!DOCTYPE xsl:stylesheet [<!ENTITY s SYSTEM "{secret.as_uri()}">]>\n',
                      body="<out>&s;</out>")
    error = refused(path)
    assert error.location == f"{path.resolve()}:1"
    assert error.message.startswith("the stylesheet has a document type declaration (DTD)")
    assert "allow_io=True" in error.message
    assert SECRET in Pipeline([Step.xslt(path)], allow_io=True).run(b"<a/>", serialize=True).text


@pytest.mark.parametrize("instruction", ["include", "import"])
def test_a_module_over_the_network_is_not_fetched(tmp_path: Path, server: tuple[str, Path],
                                                  instruction: str) -> None:
    base, log = server
    path = stylesheet(tmp_path, "remote.xsl", top=f'<xsl:{instruction} href="{base}/module.xsl"/>')
    error = refused(path)
    assert log.read_text() == ""
    assert error.location == f"{path.resolve()}:3"
    assert error.message.startswith(f"{instruction} of '{base}/module.xsl': a module is read from a local file")
    Pipeline([Step.xslt(path)], allow_io=True).run(b"<a/>")
    assert log.read_text().split() == ["/module.xsl"]


def test_a_module_of_a_local_module_is_checked_too(tmp_path: Path, secret: Path) -> None:
    inner = stylesheet(tmp_path, "inner.xsl", f'<!DOCTYPE x [<!ENTITY s SYSTEM "{secret.as_uri()}">]>\n')
    inner.write_text(inner.read_text().replace('<xsl:template match="/"><out/></xsl:template>',
                                               '<xsl:template name="t">&s;</xsl:template>'))
    outer = stylesheet(tmp_path, "outer.xsl", top='<xsl:import href="inner.xsl"/>')
    assert refused(outer).location == f"{inner.resolve()}:1"


@pytest.mark.parametrize(("top", "body", "function"), [
    ('<xsl:param name="p" static="yes" select="unparsed-text(\'{uri}\')"/>', "<out>{$p}</out>", "unparsed-text"),
    ('<xsl:variable name="v" static="yes" select="fn:unparsed-text-lines#1(\'{uri}\')" '
     'xmlns:fn="http://www.w3.org/2005/xpath-functions"/>', "<out>{$v}</out>", "unparsed-text-lines"),
    ('<xsl:param name="p" static="yes" select="function-lookup(xs:QName(\'fn:unparsed-text\'), 1)(\'{uri}\')" '
     'xmlns:xs="http://www.w3.org/2001/XMLSchema"/>', "<out>{$p}</out>", "function-lookup"),
    ('<xsl:variable name="v" select="1" use-when="doc-available(\'{uri}\')"/>', "<out/>", "doc-available"),
    ('', '<out xsl:use-when="unparsed-text-available(\'{uri}\')"/>', "unparsed-text-available"),
])
def test_a_static_expression_reads_no_uri(tmp_path: Path, secret: Path, top: str, body: str, function: str) -> None:
    path = stylesheet(tmp_path, "static.xsl", top=top.replace("{uri}", secret.as_uri()),
                      body=body.replace("{uri}", secret.as_uri()))
    error = refused(path)
    assert f"calls {function}(), evaluated while the stylesheet is compiled" in error.message


def test_local_modules_catalog_modules_and_harmless_static_expressions_still_compile(tmp_path: Path) -> None:
    stylesheet(tmp_path, "module.xsl", body="<from-module/>")
    path = stylesheet(tmp_path, "main.xsl", top='<xsl:import href="module.xsl"/>\n'
                      '<xsl:param name="debug" static="yes" select="false()"/>\n'
                      '<xsl:variable name="v" select="2" use-when="system-property(\'xsl:version\') = \'3.0\'"/>',
                      body="<out>{$v}</out>")
    assert Pipeline([Step.xslt(path)]).run(b"<a/>", serialize=True).text.endswith("<out>2</out>")
    catalog = Pipeline([Step.xslt(STYLESHEETS / "uses-names.xsl")]).run(b"<r><label>Total (USD)</label></r>",
                                                                        serialize=True)
    assert "<name>total-usd</name>" in catalog.text


def test_the_command_line_says_where_and_names_allow_io(tmp_path: Path, secret: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = stylesheet(tmp_path, "dtd.xsl", f'<!DOCTYPE xsl:stylesheet [<!ENTITY s SYSTEM "{secret.as_uri()}">]>\n',
                      body="<out>&s;</out>")
    document = tmp_path / "a.xml"
    document.write_text("<a/>")
    assert main(["transform", str(path), str(document)]) == 10
    captured = capsys.readouterr()
    assert captured.out == "" and SECRET not in captured.err
    assert captured.err.startswith(f"pyxform: error [xslt]: {path.resolve()}:1: the stylesheet has a document type "
                                   "declaration (DTD)")
    assert captured.err.rstrip().endswith("unless --allow-io") and captured.err.count("\n") == 1
    assert main(["transform", str(path), str(document), "--allow-io"]) == 0
    assert SECRET in capsys.readouterr().out
