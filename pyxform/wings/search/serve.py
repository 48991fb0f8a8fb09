"""The search page: ``pyxform serve INDEX`` (Starlette on uvicorn, Jinja2 templates with autoescaping).

Routes: ``/`` (the page: a query box and the ranked tables, each with its page title, caption, a preview with the
matching cells marked, a link to its page and one to its XML), ``/api/search?q=&n=&ranking=`` (the JSON of
``pyxform search --format json``), ``/table/ID.xml`` (the table's XML), ``/page/ID`` (an indexed local file, for pages
without an http(s) URL).

Everything from pages is untrusted: it reaches HTML only through Jinja2's autoescaping; links to pages are only
``http(s)`` URLs; the page itself runs no script (``Content-Security-Policy`` without ``script-src``); a served page or
XML is sandboxed (``Content-Security-Policy: sandbox``: no script, an opaque origin) and never sniffed.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from ...base.errors import UsageError

from .query import EmptyIndex, Hit, Searcher
from .rank import RANKINGS

__all__ = ["create_app", "serve", "listen"]

_PAGE_POLICY: Final = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; "
                       "frame-ancestors 'none'")
_SANDBOX: Final = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_HEADERS: Final = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
MAX_RESULTS: Final = 100


def _link(url: str | None) -> str | None:
    """``url`` if it is an ``http(s)`` URL (safe as an ``href``), else ``None``."""
    if not url:
        return None
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    return url if scheme in ("http", "https") and url[len(scheme):].startswith("://") else None


def create_app(index: str | Path) -> Any:
    """The ASGI application over the index in ``index``.

    :raises SearchIndexError: no index there, or not one of this version.
    """
    import jinja2
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from ...base.errors import EmptyQuery, PyxformError

    searcher = Searcher(index)
    lock = threading.Lock()
    templates = jinja2.Environment(loader=jinja2.PackageLoader("pyxform.wings.search", "templates"),
                                   autoescape=True, undefined=jinja2.StrictUndefined)
    template = templates.get_template("search.html")

    def options(request: Request) -> tuple[str, int, str]:
        query = request.query_params.get("q", "")
        ranking = request.query_params.get("ranking", "integrative")
        try:
            n = int(request.query_params.get("n", "10"))
        except ValueError:
            n = 10
        return query, max(1, min(MAX_RESULTS, n)), ranking if ranking in RANKINGS else "integrative"

    def run(query: str, n: int, ranking: str) -> tuple[list[Hit], str | None]:
        with lock:
            try:
                return searcher.search(query, n=n, ranking=ranking), None
            except EmptyIndex as error:
                return [], f"{error}: add pages with pyxform index."
            except (EmptyQuery, PyxformError) as error:
                return [], error.message

    def page(request: Request) -> Response:
        query, n, ranking = options(request)
        hits: list[Hit] = []
        message = None
        if query:
            hits, message = run(query, n, ranking)
            if not hits and message is None:
                message = "No table matches the query."
        with lock:
            pages, tables = searcher.counts()
        shown = [{**hit.__dict__, "source_href": _link(hit.source),
                  "local_href": f"/page/{hit.id}" if hit.path and hit.source == hit.path else None} for hit in hits]
        body = template.render(query=query, ranking=ranking, rankings=RANKINGS, hits=shown, message=message,
                               pages=pages, tables=tables)
        return HTMLResponse(body, headers={**_HEADERS, "Content-Security-Policy": _PAGE_POLICY})

    def api(request: Request) -> Response:
        query, n, ranking = options(request)
        with lock:
            try:
                hits = searcher.search(query, n=n, ranking=ranking)
            except EmptyIndex:
                hits = []
            except EmptyQuery as error:
                return JSONResponse({"error": error.message}, status_code=400, headers=_HEADERS)
            except PyxformError as error:  # a damaged index
                return JSONResponse({"error": error.message}, status_code=500, headers=_HEADERS)
        return JSONResponse({"results": [hit.as_json() for hit in hits]}, headers=_HEADERS)

    def table_xml(request: Request) -> Response:
        with lock:
            xml = searcher.table_xml(int(request.path_params["id"]))
        if xml is None:
            return Response("no such table", status_code=404, media_type="text/plain", headers=_HEADERS)
        return Response('<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n", media_type="application/xml",
                        headers={**_HEADERS, "Content-Security-Policy": _SANDBOX})

    def local_page(request: Request) -> Response:
        with lock:
            row = searcher.db.execute("SELECT p.path, p.url FROM tables t JOIN pages p ON p.id = t.page "
                                      "WHERE t.id = ?", (int(request.path_params["id"]),)).fetchone()
        # only a page that was indexed from its own file (not the page an XML output names: any path could be named)
        path = Path(row[0]) if row and row[0] and row[1] == Path(row[0]).as_uri() else None
        if path is None or not path.is_file():
            return Response("no such page", status_code=404, media_type="text/plain", headers=_HEADERS)
        return Response(path.read_bytes(), media_type="text/html",
                        headers={**_HEADERS, "Content-Security-Policy": _SANDBOX})

    app = Starlette(routes=[
        Route("/", page),
        Route("/api/search", api),
        Route("/table/{id:int}.xml", table_xml),
        Route("/page/{id:int}", local_page),
    ])
    app.state.searcher = searcher
    return app


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (``port`` 0: a free one), not yet listening; IPv4 or IPv6 as the host
    resolves.

    :raises UsageError: the address cannot be used (in use, not this machine's, a name that does not resolve).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, OverflowError) as error:
        raise UsageError(f"cannot listen on {host} port {port}: {getattr(error, 'strerror', None) or error}"
                         ) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except (OSError, OverflowError) as error:
        sock.close()
        raise UsageError(f"cannot listen on {host} port {port}: {getattr(error, 'strerror', None) or error} "
                         "(choose another --port or --host)") from None
    return sock


def serve(index: str | Path, *, host: str = "127.0.0.1", port: int = 8000,
          on_listening: Callable[[str], None] | None = None) -> None:
    """Serve the search page until interrupted (uvicorn).

    :param port: 0 for any free port.
    :param on_listening: called with the page's URL once the address is bound (the CLI prints it).
    :raises SearchIndexError: no index there, or not one of this version.
    :raises UsageError: the address cannot be used (:func:`listen`).
    """
    import uvicorn

    app = create_app(index)
    sock = listen(host, port)
    bound = sock.getsockname()
    shown = f"[{bound[0]}]" if sock.family == socket.AF_INET6 else bound[0]
    if on_listening is not None:
        on_listening(f"http://{shown}:{bound[1]}/")
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    finally:
        sock.close()
