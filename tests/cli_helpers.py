"""Helpers of the command-line and fetch tests: a small page on disk, the usage error's last lines, a body that
drips for ten minutes."""

from __future__ import annotations

import http.server
import time
from pathlib import Path

import pytest

#: A table of one header row and one data row.
PAGE = b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"


@pytest.fixture()
def page(tmp_path: Path) -> Path:
    """:data:`PAGE` as ``p.html`` in the test's folder."""
    path = tmp_path / "p.html"
    path.write_bytes(PAGE)
    return path


def drip(handler: http.server.BaseHTTPRequestHandler) -> None:
    """Answer 200 with a body that drips for ten minutes: only a time cap ends its download sooner."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.end_headers()
    try:
        for _ in range(6000):
            handler.wfile.write(b"<p>drip</p>")
            handler.wfile.flush()
            time.sleep(0.1)
    except OSError:  # the client gave up
        return
