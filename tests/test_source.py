"""Reading inputs: files, stdin, bytes, refusal of markup passed as a location, size limit."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from pyxform.stages.clean import clean
from pyxform.base.errors import InputNotFound, LimitExceeded, UnsupportedScheme
from pyxform.base.limits import Limits
from pyxform.base.source import Source, read_source

PAGE = "<table><tr><td>größe</td></tr></table>".encode()


def test_path_and_pathlike(tmp_path: Path) -> None:
    file = tmp_path / "page.html"
    file.write_bytes(PAGE)
    assert read_source(str(file)) == Source(PAGE, str(file), None)
    assert read_source(file) == Source(PAGE, str(file), None)


def test_bytes_and_source() -> None:
    assert read_source(PAGE) == Source(PAGE, "", None)
    assert read_source(bytearray(PAGE)) == Source(PAGE, "", None)
    source = Source(PAGE, "x.html", "utf-8")
    assert read_source(source) is source


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE)))
    assert read_source("-") == Source(PAGE, "-", None)


def test_missing_file_directory_and_markup(tmp_path: Path) -> None:
    with pytest.raises(InputNotFound) as caught:
        read_source(str(tmp_path / "nope.html"))
    assert caught.value.location == str(tmp_path / "nope.html")
    with pytest.raises(InputNotFound, match="directory"):
        read_source(tmp_path)
    with pytest.raises(InputNotFound, match="looks like HTML"):
        read_source("<table><tr><td>x</table>")


def test_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = Limits(max_page_bytes=10)
    file = tmp_path / "page.html"
    file.write_bytes(PAGE)
    for spec in (str(file), PAGE):
        with pytest.raises(LimitExceeded) as caught:
            read_source(spec, limits=small)
        assert caught.value.limit == "max_page_bytes"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE)))
    with pytest.raises(LimitExceeded):
        read_source("-", limits=small)
    with pytest.raises(LimitExceeded):
        clean(PAGE, limits=small)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "file:/etc/passwd", "ftp://h/x"])
def test_non_http_url_is_refused(url: str) -> None:
    with pytest.raises(UnsupportedScheme) as caught:
        read_source(url)
    assert caught.value.location == url and caught.value.code == "unsupported-scheme"


def test_source_charset_reaches_the_decoder() -> None:
    page = clean(Source("<p>café</p><table></table>".encode("windows-1252"), "http://h/p", "iso-8859-1"))
    assert (page.encoding, page.encoding_source, page.source) == ("windows-1252", "caller", "http://h/p")
    assert page.tree.getroot().get("{urn:pyxform}source") == "http://h/p"


def test_api_str_is_html_text() -> None:
    page = clean("<table><tr><td>größe</td></tr></table>")
    assert (page.encoding, page.encoding_source) == ("utf-8", "caller")
    assert "größe" in page.to_bytes().decode("utf-8")
