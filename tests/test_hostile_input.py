"""Bad and hostile pages (issue 7): each gets a clear message, a distinct exit code, a per-page status in a batch, and
the right behaviour, through the CLI (``pyxform convert``) and the API (``pyxform.convert``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from pyxform.cli import main
from pyxform.api.convert import convert
from pyxform.base.errors import EXIT_PARTIAL_FAILURE, EmptyInput, NoTableError, UndecodableInput
from pyxform.stages.schema import validate

TABLE = b"<table><tr><th>Name</th><th>Size</th></tr><tr><td>a</td><td>1</td></tr></table>"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def pairs(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


BAD_PAGES = [
    ("empty", b"", 4, "empty", "the page is empty"),
    ("whitespace", b" \r\n\t\x0c ", 4, "empty", "only white space"),
    ("binary", bytes(range(256)) * 8, 5, "undecodable", "binary data"),
    ("png", b"\x89PNG\r\n\x1a\n" + b"<table><tr><td>x</td></tr></table>", 5, "undecodable", "file signature"),
    ("no-table", b"<html><body><p>Nothing tabular here.</p></body></html>", 6, "no-table", "the page has no table"),
]


@pytest.mark.parametrize(("name", "data", "exit_code", "code", "message"), BAD_PAGES,
                         ids=[case[0] for case in BAD_PAGES])
def test_bad_page_has_a_clear_message_and_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                    data: bytes, exit_code: int, code: str, message: str) -> None:
    page = tmp_path / f"{name}.html"
    page.write_bytes(data)
    status, out, err = run(capsys, "convert", str(page))
    assert (status, out) == (exit_code, "")
    assert err.startswith(f"pyxform: error [{code}]: {page}: ") and message in err


@pytest.mark.parametrize(("data", "error"), [
    (b"", EmptyInput), (b"  \n ", EmptyInput), (bytes(range(256)) * 8, UndecodableInput),
    (b"<p>no table</p>", NoTableError),
])
def test_bad_page_raises_the_matching_error_from_the_api(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error):
        convert(data)


def test_a_truncated_page_converts_what_it_holds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "cut.html"
    page.write_bytes(b"<html><body><table><tr><th>City</th><th>Pop</th></tr><tr><td>Oslo</td><td>7")
    status, out, _ = run(capsys, "convert", str(page), "--format", "pairs")
    assert status == 0
    assert pairs(out) == [{"table": 0, "row": 1, "col": 0, "row_headers": [], "col_headers": ["City"],
                           "value": "Oslo"},
                          {"table": 0, "row": 1, "col": 1, "row_headers": [], "col_headers": ["Pop"], "value": "7"}]


def test_a_batch_of_bad_pages_records_a_status_per_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = []
    for name, data, *_ in BAD_PAGES:
        (tmp_path / f"{name}.html").write_bytes(data)
        names.append(str(tmp_path / f"{name}.html"))
    good = tmp_path / "good.html"
    good.write_bytes(TABLE)
    report = tmp_path / "report.jsonl"
    status, out, err = run(capsys, "convert", *names, str(good), "-o", str(tmp_path / "out"), "--report",
                           str(report))
    assert (status, out) == (EXIT_PARTIAL_FAILURE, "")
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [(r["input"], r["status"], r.get("code"), r.get("exit_code")) for r in records] == [
        (names[0], "failed", "empty", 4), (names[1], "failed", "empty", 4), (names[2], "failed", "undecodable", 5),
        (names[3], "failed", "undecodable", 5), (names[4], "failed", "no-table", 6), (str(good), "ok", None, None)]
    assert records[-1]["output"] == str(tmp_path / "out" / "good.xml") and records[-1]["tables"] == 1
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["good.xml"]
    assert err.splitlines()[-1] == (
        "pyxform: 5 of 6 inputs failed (empty: 2, no-table: 1, undecodable: 2): " + ", ".join(names) + "; 1 converted")


# -- encodings: replacement characters and a warning, never a crash ------------------------------------------------
def page_with(cell: bytes, head: bytes = b"") -> bytes:
    """The TABLE page with its data cell "a" replaced by ``cell`` (raw bytes) and ``head`` before it."""
    return head + TABLE.replace(b">a<", b">" + cell + b"<")


ENCODINGS = [
    ("invalid-utf8", page_with(b"caf\xe9 \xff", b'<meta charset="utf-8">'), "caf\ufffd \ufffd",
     "bytes not valid in utf-8"),
    ("mixed", page_with("größe ".encode() + "größe".encode("latin-1"), b'<meta charset="utf-8">'),
     "größe gr\ufffd\ufffde", "replaced by U+FFFD"),
    ("lying-meta", page_with("日本".encode(), b'<meta charset="windows-1252">'), "日本",
     "the <meta> charset declares windows-1252, but the bytes are valid UTF-8"),
    ("utf16-no-bom", page_with("xé".encode()).decode().encode("utf-16-le"), "xé",
     "no byte order mark, but the NUL bytes show utf-16le"),
    ("nul-bytes", page_with(b"a\x00b"), "a\ufffdb", "1 NUL character(s) replaced by U+FFFD"),
    ("control-bytes", page_with(b"a\x01b\x1f"), "a\ufffdb\ufffd", "2 control character(s)"),
]


@pytest.mark.parametrize(("name", "data", "value", "warning"), ENCODINGS, ids=[case[0] for case in ENCODINGS])
def test_broken_encodings_decode_with_replacement_and_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 name: str, data: bytes, value: str,
                                                                 warning: str) -> None:
    page = tmp_path / f"{name}.html"
    page.write_bytes(data)
    status, out, err = run(capsys, "convert", str(page), "--format", "pairs")
    assert status == 0
    texts = {text for pair in pairs(out) for text in [pair["value"], *pair["row_headers"]]}  # type: ignore[misc]
    assert value in texts
    assert f"pyxform: warning: {page}: " in err and warning in err
    conversion = convert(data)
    assert any(warning in message for message in conversion.messages)
    validate(conversion.to_bytes(), conversion.schema())


# -- markup that is XML-hostile, given as a page: the HTML parser expands and fetches nothing -----------------------
def test_xhtml_with_a_dtd_entities_and_xinclude_is_read_as_html(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENT")
    laughs = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    page = (f'<?xml version="1.0"?>\n<!DOCTYPE html [<!ENTITY lol0 "lol">{laughs}'
            f'<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:xi="http://www.w3.org/2001/XInclude"><body>'
            '<table><tr><th>Laughs</th><th>File</th><th>Include</th></tr>'
            f'<tr><td>&lol9;</td><td>&xxe;</td><td><xi:include href="{secret.as_uri()}" parse="text"/>x</td></tr>'
            '</table></body></html>').encode()
    conversion = convert(page)
    assert [p["value"] for p in conversion.pairs()] == ["&lol9;", "&xxe;", "x"]
    assert b"SECRET" not in conversion.to_bytes() and b"lollol" not in conversion.to_bytes()
    validate(conversion.to_bytes(), conversion.schema())


# -- untrusted text in element names ---------------------------------------------------------------------------------
HOSTILE_HEADERS = ["<script>alert(1)</script>", "xml-stylesheet", "XMLfoo", "a:b", 'say "hi"', "it's", "tab\tand",
                   "]]>", "<!-- c -->", "&amp;", "\u0007bell", "123", "", "px:table", "xmlns", "  ", "\u200b"]


@pytest.mark.parametrize("names", ["paper", "generic"])
def test_untrusted_header_text_never_makes_ill_formed_or_misleading_names(names: str) -> None:
    from html import escape

    row = "".join(f"<th>{escape(text)}</th>" for text in HOSTILE_HEADERS)
    data = f"<table><tr>{row}</tr><tr>{''.join(f'<td>v{i}</td>' for i in range(len(HOSTILE_HEADERS)))}</tr></table>"
    conversion = convert(data.encode(), names=names)  # type: ignore[arg-type]
    validate(conversion.to_bytes(), conversion.schema())
    (record,) = etree.fromstring(conversion.to_bytes()).iter("row")
    elements = list(record)
    assert [e.text for e in elements] == [f"v{i}" for i in range(len(HOSTILE_HEADERS))]
    for element in elements:
        name = etree.QName(element)
        assert name.namespace is None  # never a prefix taken from the text ("a:b", "px:table", "xmlns")
        assert not name.localname.lower().startswith("xml")
        assert all(c.isalnum() or c in "-_." for c in name.localname), name
    if names == "paper":
        assert [e.tag for e in elements] == [
            "script-alert-1-script", "_xml-stylesheet", "_xmlfoo", "a-b", "say-hi", "its", "tab-and", "field", "c",
            "and-amp", "bell", "_123", "column-13", "px-table", "_xmlns", "column-16", "column-17"]
        labels = [e.get("{urn:pyxform}label") for e in elements]
        assert labels[:11] == ["<script>alert(1)</script>", "xml-stylesheet", "XMLfoo", "a:b", 'say "hi"', "it's",
                               "tab and", "]]>", "<!-- c -->", "&amp;", "\ufffdbell"]
    else:
        assert {e.tag for e in elements} == {"field"}
        assert [e.get("name") for e in elements][:5] == ["<script>alert(1)</script>", "xml-stylesheet", "XMLfoo",
                                                         "a:b", 'say "hi"']
        assert elements[12].get("column") == "13"
