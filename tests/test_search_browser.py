"""The search page in a real browser: headless Chromium (Debian's, /usr/bin/chromium) driven by Playwright, against
``pyxform serve`` started here on 127.0.0.1 with a free port. Type a query, see the right table first, open its XML.

Playwright downloads no browser here: it is given the distribution's Chromium. Without it the test is skipped, except
under CI (``CI`` set), where ``.ci/run`` installs it and its absence is a failure."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .search_helpers import build, copy_pages

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``pyxform serve INDEX --port 0`` (a free port, no race for it): its URL, read from the line it prints."""
    base = tmp_path_factory.mktemp("browser")
    pages = copy_pages(base / "pages", ("lakes.html", "rivers.html", "fells.html", "notables.html", "hostile.html"))
    build(base / "index", [pages])
    process = subprocess.Popen([sys.executable, "-m", "pyxform", "serve", str(base / "index"), "--host", "127.0.0.1",
                                "--port", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()  # "pyxform serve: searching INDEX at http://127.0.0.1:PORT/ (Ctrl-C to stop)"
    found = re.search(r"at (http://127\.0\.0\.1:\d+/) ", line)
    if found is None:
        process.kill()
        raise RuntimeError(f"pyxform serve did not start: {line}{process.stderr.read()}")
    url = found.group(1)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    deadline = time.monotonic() + 600  # a ceiling no busy machine reaches, not a timing
    while True:  # bound before the line is printed; listening once uvicorn has started
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"pyxform serve ended: {process.stderr.read()}") from None
            time.sleep(0.1)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_type_a_query_see_the_table_first_open_its_xml(server) -> None:
    assert CHROMIUM.exists(), "CI installs /usr/bin/chromium (.ci/run)"
    dialogs: list[str] = []
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.goto(server)
            page.fill("input[name=q]", "Halti fell height")
            page.press("input[name=q]", "Enter")
            page.wait_for_selector("li.hit")
            first = page.locator("li.hit").first
            assert first.locator(".title").inner_text() == "Fells of Lapland"
            assert first.get_attribute("data-table") == "1"
            assert first.locator("table.preview th").all_inner_texts() == ["Fell", "Height (m)", "Notes"]
            assert first.locator("td.match").all_inner_texts() == ["Halti"]  # the cell holding a query term
            with page.expect_navigation():
                first.locator("a.xml").click()
            xml = page.content()
            assert "Halti" in xml and "px:table" in xml
            # hostile text is shown as text and runs nothing
            page.goto(server + "?q=Moriarty+Blofeld+villain")
            page.wait_for_selector("li.hit")
            hostile = page.locator("li.hit").first
            assert "<script>alert('cell')</script> Moriarty" in hostile.locator("table.preview").inner_text()
            assert hostile.locator(".caption").inner_text().startswith('"onmouseover="alert(\'caption\')')
            assert page.locator("script").count() == 0 and page.locator("li.hit img").count() == 0
            hostile.locator(".caption").hover()
            page.wait_for_timeout(200)
        finally:
            browser.close()
    assert dialogs == []  # no alert() ran
