"""Fetching URLs: scheme, address, redirect, size and time checks, against a local server on 127.0.0.1 only."""

from __future__ import annotations

import http.server
import ipaddress
import sys
import threading
from collections.abc import Iterator

import httpx
import pytest

from pyxform.base.errors import FetchError, ForbiddenAddress, UnsupportedScheme
from pyxform.base.fetch import check_address, fetch, resolve_checked
from pyxform.base.limits import Limits

from .cli_helpers import drip

PAGE = "<html><head><title>t</title></head><body><table><tr><td>größe</td></tr></table></body></html>"


class Handler(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802
        Handler.requests.append(self.path)
        port = self.server.server_address[1]
        if self.path == "/page":
            body = PAGE.encode("iso-8859-1")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=ISO-8859-1")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{port}/page")
            self.end_headers()
        elif self.path == "/relative-redirect":
            self.send_response(301)
            self.send_header("Location", "/page")
            self.end_headers()
        elif self.path == "/to-file":
            self.send_response(302)
            self.send_header("Location", "file:///etc/passwd")
            self.end_headers()
        elif self.path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.end_headers()
        elif self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(64):
                self.wfile.write(b"<p>" + b"x" * 1021)
        elif self.path == "/slow":
            drip(self)
        else:
            self.send_response(404)
            self.end_headers()


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """The tests close connections early on purpose (size limit, timeout): the server's broken pipe is expected
        and not printed; any other error is."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = Server(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_loopback_is_refused_by_default_before_any_request(server: str) -> None:
    Handler.requests.clear()
    with pytest.raises(ForbiddenAddress) as caught:
        fetch(server + "/page")
    assert "127.0.0.1" in str(caught.value)
    assert Handler.requests == []


def test_allowed_fetch_returns_body_url_and_charset(server: str) -> None:
    body, url, charset = fetch(server + "/page", allow_private=True)
    assert body == PAGE.encode("iso-8859-1")
    assert url == server + "/page"
    assert charset is not None and charset.lower() == "iso-8859-1"


def test_redirect_is_followed_and_final_url_reported(server: str) -> None:
    body, url, _ = fetch(server + "/redirect", allow_private=True)
    assert body == PAGE.encode("iso-8859-1")
    assert url.startswith("http://localhost:") and url.endswith("/page")
    _, url, _ = fetch(server + "/relative-redirect", allow_private=True)
    assert url == server + "/page"


def test_redirect_to_another_scheme_is_refused(server: str) -> None:
    with pytest.raises(UnsupportedScheme, match="only") as caught:
        fetch(server + "/to-file", allow_private=True)
    assert caught.value.location == "file:///etc/passwd" and caught.value.exit_code == 8


def test_redirect_loop_stops(server: str) -> None:
    with pytest.raises(FetchError, match="more than 10 redirects"):
        fetch(server + "/loop", allow_private=True)


def test_size_cap_stops_the_download(server: str) -> None:
    with pytest.raises(FetchError, match="max_fetch_bytes"):
        fetch(server + "/big", allow_private=True, limits=Limits(max_fetch_bytes=10_000))


def test_time_cap_stops_a_slow_download(server: str) -> None:
    with pytest.raises(FetchError, match="fetch_timeout"):  # nothing else could end it (a test of the cap, not of
        fetch(server + "/slow", allow_private=True, limits=Limits(fetch_timeout=0.5))  # the machine's speed)


def test_http_error_status(server: str) -> None:
    with pytest.raises(FetchError, match="HTTP status 404"):
        fetch(server + "/missing", allow_private=True)


@pytest.mark.parametrize("url", ["ftp://example.org/x", "file:///etc/passwd", "gopher://h/", "javascript:alert(1)"])
def test_other_schemes_are_refused(url: str) -> None:
    with pytest.raises(UnsupportedScheme) as caught:
        fetch(url)
    assert caught.value.location == url  # as given, not as httpx writes it (file:/etc/passwd)
    assert not isinstance(caught.value, ForbiddenAddress)


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "255.255.255.255", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::",
    # IPv6 forms that carry a private IPv4 address: NAT64 (RFC 6052, 8215), 6to4 (RFC 3056), IPv4-compatible
    "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a00:1", "2002:7f00:1::", "2002:a00:1::1",
    "::7f00:1", "::a00:1",
])
def test_non_public_addresses_are_refused(address: str) -> None:
    with pytest.raises(ForbiddenAddress):
        check_address(ipaddress.ip_address(address))
    check_address(ipaddress.ip_address(address), allow_private=True)


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111",
                                     "64:ff9b::808:808", "2002:808:808::1"])  # public IPv4 by NAT64 / 6to4
def test_public_addresses_pass(address: str) -> None:
    check_address(ipaddress.ip_address(address))


def test_every_resolved_address_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host resolving to a public and a private address is refused (the connection could use either)."""
    import socket

    def fake_getaddrinfo(host: str, port: int, **_: object) -> list[tuple]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("8.8.8.8", port)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    with pytest.raises(ForbiddenAddress, match="10.0.0.5"):
        resolve_checked(httpx.URL("http://mixed.test/"), allow_private=False, location="http://mixed.test/")


def test_unresolvable_host(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def failing_getaddrinfo(*_: object, **__: object) -> list[tuple]:
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", failing_getaddrinfo)
    with pytest.raises(FetchError, match="cannot resolve"):
        fetch("http://no-such-host.invalid/")
