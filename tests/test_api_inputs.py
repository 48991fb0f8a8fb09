"""What the page functions accept: a page that is not bytes, str or a Source is a TypeError (never read as binary
data); an empty page is reported in the same words by every command."""

from __future__ import annotations

from pathlib import Path

import pytest

import pyxform
from pyxform.cli import main
from pyxform.errors import EmptyInput


@pytest.mark.parametrize("function", [pyxform.convert, pyxform.grid, pyxform.headers])
@pytest.mark.parametrize("page", [None, 123, 1.5, [b"<table>"]])
def test_a_page_of_another_type_is_a_type_error(function: object, page: object) -> None:
    with pytest.raises(TypeError, match=type(page).__name__):
        function(page)  # type: ignore[operator]


@pytest.mark.parametrize("function", [pyxform.convert, pyxform.grid, pyxform.headers])
@pytest.mark.parametrize(("page", "message"), [(b"", "the page is empty"), (bytearray(b" \n"),
                                                "the page holds only white space"),
                                               (" \t", "the page holds only white space")])
def test_empty_pages_in_the_same_words(function: object, page: object, message: str) -> None:
    with pytest.raises(EmptyInput) as caught:
        function(page)  # type: ignore[operator]
    assert caught.value.message == message


@pytest.mark.parametrize("command", ["convert", "grid", "headers"])
@pytest.mark.parametrize(("data", "message"), [(b"", "the page is empty"),
                                               (b"  \n", "the page holds only white space")])
def test_commands_say_the_same_of_an_empty_page(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                                data: bytes, message: str) -> None:
    page = tmp_path / "empty.html"
    page.write_bytes(data)
    assert main([command, str(page), "--timeout", "0", "--max-memory", "0"]) == 4
    assert capsys.readouterr().err == f"pyxform: error [empty]: {page}: {message}\n"
