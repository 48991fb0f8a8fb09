"""Decoding: WHATWG order (BOM, caller, <meta> prescan, detection, default), label mapping, lies, repairs, errors."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyxform.stages.clean.decode import decode_html, prescan_meta_charset, whatwg_encoding
from pyxform.base.errors import EmptyInput, UndecodableInput

WEB = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "web"
PAGE = "<html><head><title>Größe</title></head><body><table><tr><td>Straße €</td></tr></table></body></html>"


@pytest.mark.parametrize(("label", "name"), [
    ("gb2312", "gbk"), ("GBK", "gbk"), ("iso-8859-1", "windows-1252"), ("latin1", "windows-1252"),
    ("ascii", "windows-1252"), ("utf8", "utf-8"), (" UTF-8 ", "utf-8"), ("shift_jis", "shift_jis"),
    ("x-sjis", "shift_jis"), ("euc-kr", "euc-kr"), ("big5", "big5"), ("no-such-charset", None), ("", None),
])
def test_labels_follow_the_encoding_standard(label: str, name: str | None) -> None:
    assert whatwg_encoding(label) == name


def test_bom_wins_over_everything() -> None:
    data = codecs.BOM_UTF8 + b'<meta charset="windows-1252">' + "é".encode()
    decoded = decode_html(data, charset="gbk")
    assert (decoded.text, decoded.encoding, decoded.source) == ('<meta charset="windows-1252">é', "utf-8", "bom")
    for bom, codec, name in ((codecs.BOM_UTF16_LE, "utf-16-le", "utf-16le"),
                             (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16be")):
        decoded = decode_html(bom + PAGE.encode(codec))
        assert (decoded.text, decoded.encoding, decoded.source) == (PAGE, name, "bom")


def test_caller_charset_wins_over_meta() -> None:
    data = '<meta charset="utf-8"><p>café'.encode("windows-1252")
    decoded = decode_html(data, charset="ISO-8859-1")
    assert (decoded.encoding, decoded.source) == ("windows-1252", "caller")
    assert decoded.text.endswith("café")


def test_unknown_caller_charset_is_ignored_with_a_warning() -> None:
    decoded = decode_html('<meta charset="windows-1252"><p>café'.encode("windows-1252"), charset="bogus")
    assert (decoded.encoding, decoded.source) == ("windows-1252", "meta")
    assert any("bogus" in w for w in decoded.warnings)


@pytest.mark.parametrize(("head", "expected"), [
    (b'<meta charset="gb2312">', "gbk"),
    (b"<meta charset=ISO-8859-1>", "windows-1252"),
    (b'<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=gb2312">', "gbk"),
    (b'<meta content="text/html; charset=\'koi8-r\'" http-equiv="content-type">', "koi8-r"),
    (b'<meta content="text/html; charset=gbk">', None),  # content without http-equiv: need pragma
    (b'<meta http-equiv="refresh" content="5; charset=gbk">', None),
    (b'<!-- <meta charset="gbk"> --><meta charset="windows-1251">', "windows-1251"),
    (b'<meta charset="utf-16le">', "utf-8"),  # a declared UTF-16 means UTF-8 (the prescan read ASCII)
    (b'<meta charset="x-user-defined">', "windows-1252"),
    (b'<meta charset="bogus"><meta charset="gbk">', "gbk"),
    (b'<div title="<meta charset=gbk>"><meta charset="big5">', "big5"),
    (b"<meta/charset=euc-jp>", "euc-jp"),
    (b'<meta charset="gbk" charset="big5">', "gbk"),
    (b'<meta name="x" charset=\'shift_jis\'>', "shift_jis"),
    (b"<!--->" + b'<meta charset="gbk">', "gbk"),  # the prescan's "-->" may share dashes with "<!--"
    (b'<!-- x <meta charset="gbk">', None),  # an unclosed comment hides the rest
    (b" " * 1020 + b'<meta charset="gbk">', None),  # beyond the first 1024 bytes
    (b"<p>no declaration</p>", None),
])
def test_meta_prescan(head: bytes, expected: str | None) -> None:
    assert prescan_meta_charset(head + b"<p>x</p>") == expected


def test_meta_charset_decodes_gb2312_as_gbk() -> None:
    text = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>字符集 描述 使用范围</p>'
    decoded = decode_html(text.encode("gb2312"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gbk", "meta")


def test_gbk_uses_the_gb18030_decoder() -> None:
    """WHATWG: the gbk decoder is gb18030's, so four-byte sequences and 0x80 (euro) decode."""
    text = "<meta charset=gbk><p>€ 𠀀 中文</p>"
    decoded = decode_html(text.encode("gb18030"))
    assert decoded.text == text and not decoded.warnings


def test_windows_1252_unassigned_bytes_become_c1_controls() -> None:
    decoded = decode_html(b"<meta charset=windows-1252><p>\x80\x81\x8d\x9d\x9f</p>")
    assert decoded.text.endswith("<p>€\x81\x8d\x9dŸ</p>") and not decoded.warnings


def test_a_lying_meta_charset_is_overruled_by_valid_utf8() -> None:
    text = '<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>正在加载</p>'
    decoded = decode_html(text.encode("utf-8"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "utf-8", "detected")
    assert any("declares gbk" in w for w in decoded.warnings)


def test_a_lying_caller_charset_is_overruled_too() -> None:
    decoded = decode_html("<p>Größe</p>".encode(), charset="iso-8859-1")
    assert (decoded.text, decoded.encoding, decoded.source) == ("<p>Größe</p>", "utf-8", "detected")


def test_ascii_page_keeps_its_declared_legacy_encoding() -> None:
    decoded = decode_html(b"<meta charset=windows-1252><p>plain</p>")
    assert (decoded.encoding, decoded.source) == ("windows-1252", "meta")


def test_invalid_utf8_is_replaced_with_a_warning() -> None:
    data = '<meta charset="utf-8"><p>ok é</p><p>'.encode() + b"caf\xe9 \xff\xfe" + b"</p>"
    decoded = decode_html(data)
    assert decoded.encoding == "utf-8" and decoded.source == "meta"
    assert "caf\ufffd \ufffd\ufffd" in decoded.text and "ok é" in decoded.text
    assert any("replaced by U+FFFD" in w for w in decoded.warnings)


def test_utf16_without_bom_is_detected() -> None:
    for codec, name in (("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")):
        decoded = decode_html(PAGE.encode(codec))
        assert (decoded.text, decoded.encoding, decoded.source) == (PAGE, name, "detected")
        assert decoded.warnings


def test_undeclared_utf8_is_detected() -> None:
    decoded = decode_html(PAGE.encode("utf-8"))
    assert (decoded.text, decoded.encoding, decoded.source) == (PAGE, "utf-8", "detected")


def test_undeclared_legacy_text_is_detected_by_charset_normalizer() -> None:
    text = "<html><body><p>" + "Привет, как дела? Это длинный русский текст для определения кодировки. " * 20
    decoded = decode_html(text.encode("windows-1251"))
    assert decoded.source == "detected"
    assert "Привет, как дела?" in decoded.text
    assert any("charset-normalizer's guess" in w for w in decoded.warnings)


def test_undeclared_utf8_with_a_few_invalid_bytes_stays_utf8_with_a_warning() -> None:
    """A stray legacy byte, or a page cut inside a character, in undeclared UTF-8 text: UTF-8 with U+FFFD."""
    data = "<p>Zürich, Genève, São Paulo, Kraków, Malmö, Brontë, Dvořák, Łódź</p><p>".encode() + b"caf\xe9</p><p>" + "naïve".encode()[:3]
    decoded = decode_html(data)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert "São Paulo, Kraków, Malmö, Brontë, Dvořák, Łódź" in decoded.text and "caf\ufffd" in decoded.text
    assert decoded.text.endswith("na\ufffd")
    assert any("2 invalid sequence(s)" in w for w in decoded.warnings)


def test_legacy_bytes_that_form_a_few_utf8_sequences_by_chance_are_not_read_as_utf8() -> None:
    """Four valid multi-byte characters per invalid sequence are needed: windows-1252 "Ã©" pairs alone are not."""
    text = "<p>" + "Ã© déjà vu, à côté, pâté, crème brûlée. " * 10 + "</p>"
    decoded = decode_html(text.encode("windows-1252"))
    assert decoded.encoding != "utf-8"
    assert "déjà vu, à côté" in decoded.text


def test_nul_bytes_are_replaced_with_a_warning() -> None:
    decoded = decode_html(b"<p>a\x00b</p>" + b"<p>filler text</p>" * 10)
    assert decoded.text.startswith("<p>a\ufffdb</p>")
    assert any("NUL" in w for w in decoded.warnings)


@pytest.mark.parametrize("data", [b"", b"   \n\t  ", codecs.BOM_UTF8, codecs.BOM_UTF8 + b"  \n", b"\x0c\r\n"])
def test_empty_and_whitespace_pages_raise_empty_input(data: bytes) -> None:
    with pytest.raises(EmptyInput):
        decode_html(data)


@pytest.mark.parametrize(("data", "xml_safe"), [
    (b"<p>plain \x0c text</p>", True),  # a form feed: the parse makes it a space
    (b"<p>a\x00b</p>", True),  # NUL: replaced while decoding
    (b"<p>a\x01b</p>", False),
    (b"<p>a\x1fb</p>", False),
    ("<p>a\ufffeb</p>".encode(), False),
    ("<p>a\uffffb</p>".encode(), False),
    ("<p>a\ufffdb \u4e2d</p>".encode(), True),
])
def test_xml_safe_tells_whether_the_text_holds_characters_xml_cannot(data: bytes, xml_safe: bool) -> None:
    from pyxform.stages.clean.parse import _has_non_xml_characters

    decoded = decode_html(data + b"<p>filler text</p>" * 10)
    assert decoded.xml_safe is xml_safe
    assert decoded.xml_safe is not _has_non_xml_characters(decoded.text)


def test_vertical_tab_is_not_ascii_whitespace_for_the_empty_check() -> None:
    with pytest.raises(EmptyInput, match="once decoded|white space"):  # \v is white space in the decoded text
        decode_html(b" \x0b ")
    assert decode_html(b" \x0b <p>x</p>").text == " \x0b <p>x</p>"


@pytest.mark.parametrize("data", [
    b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
    b"%PDF-1.7\n" + bytes(range(256)) * 4,
    b"\x1f\x8b\x08\x00" + bytes(200),
    bytes(range(256)) * 16,
    b"\x00\x01\x02\x03\x04\x05" * 100,
])
def test_binary_data_raises_undecodable_input(data: bytes) -> None:
    with pytest.raises(UndecodableInput):
        decode_html(data)


# --- the corpus pages ------------------------------------------------------------------------------------------------

GBK_PAGES = sorted(WEB.glob("w3school_cn_*.html"))


def _browser_texts(name: str) -> list[str]:
    texts = []
    for line in (WEB / "browser-grids.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["file"] == name:
            texts += [cell["text"] for cell in record["cells"] if not cell["text"].isascii()]
    return texts


@pytest.mark.skipif(not WEB.exists(), reason="../shared/corpus/web is absent")
@pytest.mark.parametrize("path", GBK_PAGES, ids=lambda p: p.name)
def test_gbk_pages_declared_in_meta_decode_to_the_browsers_text(path: Path) -> None:
    decoded = decode_html(path.read_bytes())
    assert (decoded.encoding, decoded.source, decoded.warnings) == ("gbk", "meta", ())
    collapsed = " ".join(decoded.text.split())
    texts = _browser_texts(path.name)
    assert texts, "the browser found Chinese cell text on every one of these pages"
    for text in texts:
        for word in text.split():
            if not word.isascii() and "&" not in word and "<" not in word:
                assert word in collapsed, word


@pytest.mark.skipif(not WEB.exists(), reason="../shared/corpus/web is absent")
def test_qq_page_with_lying_charset_decodes_as_utf8() -> None:
    decoded = decode_html((WEB / "qq_news_charset_mismatch.html").read_bytes())
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网" in decoded.text
    assert "正在加载..." in decoded.text
    assert "\ufffd" not in decoded.text


@pytest.mark.skipif(not WEB.exists(), reason="../shared/corpus/web is absent")
@pytest.mark.parametrize(("name", "encoding", "phrase"), [
    ("w3school_cn_charsets.html", "gbk", "HTML 字符集"),
    ("w3school_cn_css_reference.html", "gbk", "CSS 参考手册"),
    ("w3cschool_java_networking.html", "utf-8", "Java 网络编程"),
    ("debian_guide_dselect_keys.html", "windows-1252", "Package Installation with dselect"),
    ("mueritzurlauber_blockhaus_calendar.html", "utf-8", "Günstige"),
])
def test_corpus_titles(name: str, encoding: str, phrase: str) -> None:
    decoded = decode_html((WEB / name).read_bytes())
    assert decoded.encoding == encoding
    assert phrase in decoded.text


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\x01", b"\x0b", b"\x1f", b"\t", b"\x00", b"\xc3\xa9", b"\xc3", b"\xe2\x82",
                                 b"\xef\xbf\xbe", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\xff", b"\x80", b"\xf0\x9f\x98"]),
                max_size=30).map(b"".join))
def test_control_count_on_the_utf8_bytes_equals_the_count_on_the_text(data: bytes) -> None:
    """decode_html counts the C0 controls of a page decoded as UTF-8 on its bytes, not on the text encoded again."""
    from pyxform.stages.clean.decode import _xml_control_count

    text = data.decode("utf-8", "replace").replace("\x00", "\ufffd")
    assert _xml_control_count(text, data) == _xml_control_count(text)


@pytest.mark.parametrize("encoding, data", [
    ("utf-16le", "\ufeff<p>\u0101\u011f\u1f00 x</p>".encode("utf-16-le")),  # code units with bytes 0x01 to 0x1f
    ("utf-16be", "\ufeff<p>\u0101\u011f\u1f00 x</p>".encode("utf-16-be")),
    ("iso-2022-jp", "<meta charset=iso-2022-jp><p>\u65e5\u672c x</p>".encode("iso-2022-jp")),  # ESC sequences
])
def test_control_characters_of_a_page_not_in_utf8_are_counted_on_its_text(encoding: str, data: bytes) -> None:
    """Only a page decoded as UTF-8 has its C0 controls counted on its bytes: in UTF-16 and ISO-2022-JP, bytes 0x01
    to 0x1F are parts of other characters, and the text holds no control."""
    decoded = decode_html(data)
    assert decoded.encoding == encoding
    assert decoded.xml_safe
    assert not any("control character" in warning for warning in decoded.warnings)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1f", "\t", "\n", "\r", " ",
                                         "\x7f", "\u00e9", "\u4e2d", "\ufffe", "\U0001f600"]), max_size=40))
def test_control_count_equals_the_regular_expressions_count(text: str) -> None:
    """The count of C0 controls XML cannot hold (found first by a search per byte value, counted only when one is
    there) is the count of the regular expression over the text."""
    from pyxform.stages.clean.decode import _XML_CONTROLS, _xml_control_count

    count, others_safe = _xml_control_count(text)
    assert count == len(_XML_CONTROLS.findall(text))
    assert others_safe == ("\ufffe" not in text)
