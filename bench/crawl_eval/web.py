"""A test web server on 127.0.0.1 that logs every request it receives (the crawl tests' and the benchmark's
server; the scores and the politeness checks are read from its log, never from the crawler's own records).

A site is a function from a request (path with query, headers) to a :class:`Reply`; :class:`TestWeb` serves it on
a free port in a thread (HTTP/1.1, keep-alive) and appends one :class:`Hit` per request to ``log`` as the request
arrives.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Reply", "Hit", "TestWeb", "html_page", "static_site"]


@dataclass(frozen=True)
class Reply:
    """An answer: status, headers, body; ``delay`` seconds before the headers; ``drip`` seconds between 1 KiB
    chunks of the body (a slow server)."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)
    delay: float = 0.0
    drip: float = 0.0


@dataclass(frozen=True)
class Hit:
    """One request as the server saw it: arrival time (``time.monotonic()`` of this process), path, Host header,
    User-Agent."""

    time: float
    path: str
    host: str
    agent: str


Site = Callable[[str, Mapping[str, str]], Reply]


def html_page(title: str, body: str = "", links: Mapping[str, str] | list[tuple[str, str]] = ()) -> Reply:
    """An HTML page with a title, some text and links (``href -> anchor text``)."""
    items = links.items() if isinstance(links, Mapping) else links
    anchors = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in items)
    html = (f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1><p>{body}</p>"
            f"<ul>{anchors}</ul></body></html>")
    return Reply(body=html.encode("utf-8"))


def static_site(pages: Mapping[str, Reply]) -> Site:
    """A site of fixed pages (path with query -> reply); anything else is a 404."""
    def serve(path: str, headers: Mapping[str, str]) -> Reply:
        return pages.get(path, Reply(404, b"<html><body>not found</body></html>"))
    return serve


class TestWeb:
    """Serve ``site`` on 127.0.0.1 (a context manager; ``url`` is ``http://127.0.0.1:PORT``)."""

    __test__ = False  # not a pytest test class

    def __init__(self, site: Site) -> None:
        self.site = site
        self.log: list[Hit] = []
        self._lock = threading.Lock()
        web = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 (the http.server convention)
                with web._lock:
                    web.log.append(Hit(time.monotonic(), self.path, self.headers.get("Host", ""),
                                       self.headers.get("User-Agent", "")))
                reply = web.site(self.path, self.headers)
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers:
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    if reply.drip:
                        for i in range(0, len(reply.body), 1024):
                            self.wfile.write(reply.body[i:i + 1024])
                            self.wfile.flush()
                            time.sleep(reply.drip)
                    else:
                        self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                pass  # a client that hangs up (the crawler stopped, a cap reached) is no error of the site

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> TestWeb:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def paths(self) -> list[str]:
        """The paths requested, in order."""
        with self._lock:
            return [hit.path for hit in self.log]

    def shortest_gap(self) -> float | None:
        """The shortest time between two requests to one host (by Host header), seconds; ``None`` if fewer than
        two requests."""
        with self._lock:
            by_host: dict[str, list[float]] = {}
            for hit in self.log:
                by_host.setdefault(hit.host.split(":")[0], []).append(hit.time)
        gaps = [b - a for times in by_host.values() for a, b in zip(times, times[1:])]
        return min(gaps) if gaps else None
