"""URL input through the command line (issue 7): only http(s); no redirect to another scheme or to a refused address
(checked after DNS resolution and after every redirect); size and time capped; private, loopback and link-local
addresses refused unless --allow-private. A local server on 127.0.0.1 only: the tests need no network."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import pyxform.base.fetch
from pyxform.cli import main
from pyxform.base.errors import ForbiddenAddress
from pyxform.base.source import read_source

from .cli_helpers import drip

PAGE = "<title>t</title><table><tr><th>Maß</th></tr><tr><td>größe</td></tr></table>".encode("iso-8859-1")


class Handler(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        Handler.requests.append(self.path)
        port = self.server.server_address[1]
        redirects = {"/to-file": "file:///etc/passwd", "/to-private": f"http://127.0.0.2:{port}/page",
                     "/to-page": "/page"}
        if self.path == "/page":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=ISO-8859-1")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)
        elif self.path in redirects:
            self.send_response(302)
            self.send_header("Location", redirects[self.path])
            self.end_headers()
        elif self.path == "/huge":
            self.send_response(200)
            self.end_headers()
            for _ in range(100):
                self.wfile.write(b"<p>" + b"x" * 1021)
        elif self.path == "/slow":
            drip(self)
        else:
            self.send_response(404)
            self.end_headers()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def loopback_is_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let 127.0.0.1 (the test server) pass as a public address; every other address is checked as usual."""
    check = pyxform.base.fetch.check_address

    def patched(address: object, *, allow_private: bool = False, location: str | None = None) -> None:
        if str(address) != "127.0.0.1":
            check(address, allow_private=allow_private, location=location)  # type: ignore[arg-type]

    monkeypatch.setattr(pyxform.base.fetch, "check_address", patched)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_loopback_is_refused_before_any_request(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    Handler.requests.clear()
    status, out, err = run(capsys, "convert", server + "/page")
    assert (status, out) == (8, "")
    assert err == (f"pyxform: error [forbidden-address]: {server}/page: refused: 127.0.0.1 is a private, loopback, "
                   "link-local or reserved address (allow it with --allow-private)\n")  # the option, not the keyword
    assert Handler.requests == []
    with pytest.raises(ForbiddenAddress) as caught:  # the Python API says its keyword argument
        read_source(server + "/page")
    assert caught.value.message.endswith("(allow it with allow_private=True)")


def test_allow_private_fetches_and_decodes_with_the_http_charset(server: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "convert", server + "/to-page", "--allow-private", "--format", "pairs")
    assert status == 0
    assert json.loads(out) == {"table": 0, "row": 1, "col": 0, "row_headers": [], "col_headers": ["Maß"],
                               "value": "größe"}


@pytest.mark.parametrize(("url", "scheme"), [("file:///etc/passwd", "file"), ("file:/etc/passwd", "file"),
                                             ("FILE:///etc/passwd", "file"), ("ftp://127.0.0.1/x", "ftp"),
                                             ("gopher://h/", "gopher")])
def test_other_schemes_are_refused_showing_the_url_as_given(url: str, scheme: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "convert", url, "--allow-private")
    assert (status, out) == (8, "")
    hint = "; for a local file give its path" if scheme == "file" else ""
    assert err == (f"pyxform: error [unsupported-scheme]: {url}: unsupported URL: scheme {scheme!r}; pyxform "
                   f"fetches http and https URLs only{hint}\n")


def test_a_redirect_to_another_scheme_is_refused(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "convert", server + "/to-file", "--allow-private")
    assert status == 8
    assert err == (f"pyxform: error [unsupported-scheme]: file:///etc/passwd: unsupported URL: scheme 'file' (the "
                   f"redirect of {server}/to-file); pyxform fetches http and https URLs only\n")


def test_a_redirect_to_a_private_address_is_refused(server: str, loopback_is_public: None,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    Handler.requests.clear()
    status, _, err = run(capsys, "convert", server + "/to-private")
    assert status == 8
    assert "refused: 127.0.0.2 is a private, loopback" in err and "/page" in err
    assert Handler.requests == ["/to-private"]  # the second hop was checked before any connection
    assert run(capsys, "convert", server + "/to-page")[0] == 0  # a redirect to an allowed address is followed


def test_size_and_time_caps(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "convert", server + "/slow", "--allow-private", "--fetch-timeout", "0.5")
    assert status == 8 and "(limit fetch_timeout)" in err
    status, _, err = run(capsys, "convert", server + "/huge", "--allow-private", "--max-page-bytes", "50000")
    assert status == 7 and "max_page_bytes = 50000" in err


def test_a_batch_of_urls_records_each_status(server: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.jsonl"
    urls = [server + "/page", server + "/missing", "file:///etc/passwd"]
    status, _, err = run(capsys, "convert", *urls, "-o", str(tmp_path / "out"), "--allow-private", "--report",
                         str(report))
    assert status == 13
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(r["input"], r["status"], r.get("code")) for r in records] == [
        (urls[0], "ok", None), (urls[1], "failed", "fetch"), (urls[2], "failed", "unsupported-scheme")]
    assert records[1]["message"] == "HTTP status 404 Not Found"
    assert (tmp_path / "out" / "page.xml").is_file()
    assert err.splitlines()[-1].startswith("pyxform: 2 of 3 inputs failed (fetch: 1, unsupported-scheme: 1): ")


def test_grid_reads_a_url_as_readme_says(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "grid", server + "/page", "--allow-private", "--format", "json")
    assert status == 0
    grid = json.loads(out)["tables"][0]["grid"]
    assert [[slot["text"] for slot in row] for row in grid] == [["Maß"], ["größe"]]
