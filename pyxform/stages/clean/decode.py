"""Decoding page bytes to text, in the order of the WHATWG HTML "encoding sniffing algorithm".

Order (HTML Living Standard, 13.2.3.2 "Determining the character encoding"):

1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE)                              -> source ``bom``;
2. the charset given by the caller (e.g. the HTTP ``Content-Type`` header)     -> source ``caller``;
3. the ``<meta>`` prescan of the first 1024 bytes ("prescan a byte stream to
   determine its encoding", implemented here step by step)                     -> source ``meta``;
4. detection: UTF-16 without a BOM (NUL-byte pattern), then bytes that are
   valid UTF-8, then bytes that are UTF-8 but for a few invalid sequences
   (below), then ``charset-normalizer`` (a guess: with a warning)               -> source ``detected``;
5. windows-1252, the spec's default for unknown locales                        -> source ``default``.

Labels are mapped to encodings by the WHATWG Encoding Standard's label table (the ``webencodings`` package): e.g.
``gb2312`` -> ``gbk``, ``iso-8859-1``/``ascii`` -> ``windows-1252``. As the Encoding Standard says, the ``gbk``
decoder is the gb18030 decoder, and windows-1252 maps its five unassigned bytes to the C1 code points.

**A declaration that lies.** A declared (caller or ``<meta>``) encoding other than UTF-8 is overruled when the bytes
are valid UTF-8 and hold at least one multi-byte sequence: text in a legacy encoding is practically never valid UTF-8
once it has non-ASCII characters, so such bytes are UTF-8 whatever the page says (the page is decoded as UTF-8, source
``detected``, with a warning). A declared UTF-8 is never overruled: invalid sequences (mixed encodings) become U+FFFD
with a warning, as a browser shows them.

**Mostly UTF-8.** Undeclared bytes whose non-ASCII characters are valid UTF-8 sequences but for a few invalid ones
(at least four valid multi-byte characters for each invalid sequence: a page saved with a stray legacy byte, or
cut in the middle of a character) are UTF-8 with the invalid sequences as U+FFFD and a warning: a legacy encoding's
text practically never forms that many valid UTF-8 sequences by chance, and a detector would read the whole page
in a legacy encoding for the sake of a few bad bytes.

**Never a crash.** Undecodable sequences become U+FFFD and add a warning. Input with no bytes, or only whitespace,
raises :class:`~pyxform.base.errors.EmptyInput`; binary data (many control bytes, or a known binary file signature)
raises :class:`~pyxform.base.errors.UndecodableInput`.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

import webencodings

from ...base.errors import EmptyInput, UndecodableInput

__all__ = ["Decoded", "decode_html", "prescan_meta_charset", "whatwg_encoding"]

_BOMS: Final = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16be"), (codecs.BOM_UTF16_LE, "utf-16le"))

# Python codec for each WHATWG encoding name where it differs from the one webencodings names.
_PYTHON_CODEC: Final = {"gbk": "gb18030", "utf-16be": "utf-16-be", "utf-16le": "utf-16-le"}

# Bytes of the first 64 KiB that are C0 controls never found in text (not TAB, LF, FF, CR, ESC).
_CONTROL_BYTES: Final = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
_BINARY_SAMPLE: Final = 65536
_BINARY_CONTROL_SHARE: Final = 0.03
# A few control bytes in a short page (a stray NUL) make it no binary file: at least this many are needed.
_BINARY_MIN_CONTROLS: Final = 8
_BINARY_SIGNATURES: Final = (
    b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"%PDF-", b"PK\x03\x04", b"\x1f\x8b",
    b"\x7fELF", b"BZh", b"\xfd7zXZ\x00", b"Rar!\x1a\x07", b"7z\xbc\xaf\x27\x1c", b"\x00\x00\x01\x00", b"OggS",
    b"RIFF", b"\xd0\xcf\x11\xe0",
)
_ASCII_WHITESPACE: Final = b"\t\n\x0c\r "
_HTML_WHITESPACE: Final = " \t\n\x0c\r"
_XML_CONTROLS: Final = re.compile("[\x01-\x08\x0b\x0e-\x1f]")
_XML_CONTROL_BYTES: Final = bytes([*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20)])


def _xml_control_count(text: str, utf8: bytes | None = None) -> tuple[int, bool]:
    """How many characters of ``text`` are C0 controls XML cannot hold (U+0001 to U+001F but tab, line feed, form
    feed and carriage return), counted on its UTF-8 bytes (those bytes are the characters themselves there: a
    multi-byte sequence has no byte below 0x80), several times faster than a regular expression over the text; and
    whether ``text`` holds no other character XML 1.0 cannot hold but U+0000 (no lone surrogate, U+FFFE or U+FFFF).

    :param utf8: the bytes ``text`` was decoded from as UTF-8 (after a byte order mark, invalid sequences as U+FFFD,
        U+0000 as U+FFFD), counted instead of encoding the text again: each of those controls is a byte of its own
        there too (the decoder never takes a byte below 0x80 into a sequence, valid or not), and such a decoding
        holds no lone surrogate.
    """
    if utf8 is not None:
        encoded = utf8
    else:
        try:
            encoded = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (text from a caller): the regular expression
            return len(_XML_CONTROLS.findall(text)), False
    # Most pages hold none: one memchr pass per control byte value (an int needle) finds that in a third of the
    # instructions of the deleting translate, which then counts only on the pages that hold some.
    if any(byte in encoded for byte in _XML_CONTROL_BYTES):
        controls = len(encoded) - len(encoded.translate(None, _XML_CONTROL_BYTES))
    else:
        controls = 0
    return controls, "\ufffe" not in text and "\uffff" not in text


def _c1_for_unassigned(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: an unassigned byte of a single-byte encoding becomes the code point of the same value.

    The Encoding Standard's windows-1252 index maps 0x81, 0x8D, 0x8F, 0x90, 0x9D to U+0081 ... U+009D, where Python's
    cp1252 codec has no mapping.
    """
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "".join(chr(b) for b in error.object[error.start:error.end]), error.end


codecs.register_error("pyxform-c1", _c1_for_unassigned)


@dataclass(frozen=True)
class Decoded:
    """A page's text and how it was decoded.

    :ivar text: the decoded text (BOM removed).
    :ivar encoding: WHATWG encoding name used (``utf-8``, ``gbk``, ``windows-1252``, ``utf-16le`` ...).
    :ivar source: what decided it: ``bom``, ``caller``, ``meta``, ``detected`` or ``default``.
    :ivar warnings: problems met and repaired (replaced bytes, an overruled declaration ...).
    :ivar xml_safe: the text holds no character XML 1.0 cannot hold but form feed (checked by :func:`decode_html`,
        so that the parse need not check again; ``False``: not known).
    """

    text: str
    encoding: str
    source: str
    warnings: tuple[str, ...] = ()
    xml_safe: bool = False


def whatwg_encoding(label: str | None) -> str | None:
    """The WHATWG encoding name for a label (``"GB2312"`` -> ``"gbk"``, ``"latin1"`` -> ``"windows-1252"``).

    :returns: the name, or ``None`` for an unknown label (Encoding Standard, "get an encoding").
    """
    if not label:
        return None
    encoding = webencodings.lookup(label)
    return encoding.name if encoding is not None else None


def _python_codec(name: str) -> str:
    if name in _PYTHON_CODEC:
        return _PYTHON_CODEC[name]
    encoding = webencodings.lookup(name)
    assert encoding is not None and encoding.codec_info is not None
    return encoding.codec_info.name


def _decode_with(data: bytes, name: str, warnings: list[str]) -> str:
    """Decode ``data`` as WHATWG encoding ``name``; undecodable sequences become U+FFFD (with a warning)."""
    codec = _python_codec(name)
    try:
        return data.decode(codec, "pyxform-c1" if name == "windows-1252" else "strict")
    except UnicodeDecodeError as error:
        text = data.decode(codec, "replace")
        replaced = text.count("\ufffd") - data.count("\xef\xbf\xbd".encode("latin-1"))
        warnings.append(
            f"bytes not valid in {name} (first at byte {error.start}): {max(replaced, 1)} sequence(s) replaced by U+FFFD"
        )
        return text


def _is_multibyte_utf8(data: bytes) -> bool:
    """True when ``data`` is valid UTF-8 holding at least one non-ASCII character."""
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _invalid_utf8_sequences(data: bytes) -> int | None:
    """How many invalid UTF-8 sequences ``data`` holds, when its valid multi-byte characters outnumber them at
    least four to one (see "Mostly UTF-8" in the module docstring); else ``None``."""
    text = data.decode("utf-8", errors="replace")
    invalid = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    valid = sum(1 for char in text if char > "\x7f") - text.count("\ufffd")
    return invalid if 0 < invalid and valid >= 4 * invalid else None


def _sniff_utf16(data: bytes) -> str | None:
    """``utf-16le``/``utf-16be`` when the NUL bytes sit on one byte parity, as in UTF-16 text without a BOM."""
    sample = data[:4096]
    if len(sample) < 4 or sample.count(0) < len(sample) // 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_zero, odd_zero = even.count(0) / len(even), odd.count(0) / len(odd)
    if odd_zero > 0.3 and even_zero < 0.05:
        name = "utf-16le"
    elif even_zero > 0.3 and odd_zero < 0.05:
        name = "utf-16be"
    else:
        return None
    text = sample[:len(sample) // 2 * 2].decode(_PYTHON_CODEC[name], "replace")
    controls = sum(1 for c in text if c < " " and c not in "\t\n\r\x0c")
    return name if controls <= _BINARY_CONTROL_SHARE * len(text) else None


def _looks_binary(data: bytes) -> str | None:
    """A reason why ``data`` is not text (a file signature, or too many control bytes), or ``None``."""
    for signature in _BINARY_SIGNATURES:
        if data.startswith(signature):
            return f"binary data (file signature {signature[:4]!r})"
    sample = data[:_BINARY_SAMPLE]
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    if controls > max(_BINARY_MIN_CONTROLS, _BINARY_CONTROL_SHARE * len(sample)):
        return f"binary data ({controls} control bytes in the first {len(sample)} bytes)"
    return None


# --- the <meta> prescan (HTML Living Standard, 13.2.3.2, "prescan a byte stream to determine its encoding") -------


class _EndOfInput(Exception):
    pass


class _Prescan:
    """One run of the prescan over at most 1024 bytes; every step follows the spec's numbered steps."""

    def __init__(self, data: bytes) -> None:
        self.data = data[:1024]
        self.position = 0

    def byte(self) -> int:
        if self.position >= len(self.data):
            raise _EndOfInput
        return self.data[self.position]

    def skip_to(self, needle: bytes, start: int) -> None:
        """Move to the last byte of the next ``needle`` found from ``start``."""
        found = self.data.find(needle, start)
        if found < 0:
            raise _EndOfInput
        self.position = found + len(needle) - 1

    def get_attribute(self) -> tuple[str, str] | None:
        """The spec's "get an attribute": ``(name, value)`` lower-cased, or ``None`` at ``>``."""
        while self.byte() in b"\t\n\x0c\r /":
            self.position += 1
        if self.byte() == 0x3E:
            return None
        name = bytearray()
        value = bytearray()
        while True:  # attribute name
            b = self.byte()
            if b == 0x3D and name:
                self.position += 1
                break
            if b in _ASCII_WHITESPACE:
                while self.byte() in _ASCII_WHITESPACE:  # spaces
                    self.position += 1
                if self.byte() != 0x3D:
                    return name.decode("latin-1"), ""
                self.position += 1
                break
            if b in b"/>":
                return name.decode("latin-1"), ""
            name.append(b + 0x20 if 0x41 <= b <= 0x5A else b)
            self.position += 1
        while self.byte() in _ASCII_WHITESPACE:  # value
            self.position += 1
        b = self.byte()
        if b in b"\"'":
            quote = b
            while True:
                self.position += 1
                c = self.byte()
                if c == quote:
                    self.position += 1
                    return name.decode("latin-1"), value.decode("latin-1")
                value.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
        if b == 0x3E:
            return name.decode("latin-1"), ""
        value.append(b + 0x20 if 0x41 <= b <= 0x5A else b)
        self.position += 1
        while True:
            c = self.byte()
            if c in _ASCII_WHITESPACE or c == 0x3E:
                return name.decode("latin-1"), value.decode("latin-1")
            value.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
            self.position += 1

    def meta(self) -> str | None:
        """Handle a ``<meta`` whose attributes start at ``position``: the encoding it declares, or ``None``."""
        seen: set[str] = set()
        got_pragma = False
        need_pragma: bool | None = None
        charset: str | None = None
        while (attribute := self.get_attribute()) is not None:
            name, value = attribute
            if name in seen:
                continue
            seen.add(name)
            if name == "http-equiv":
                got_pragma = got_pragma or value == "content-type"
            elif name == "content" and charset is None:
                extracted = extract_charset_from_content(value)
                if extracted is not None:
                    charset, need_pragma = extracted, True
            elif name == "charset":
                charset, need_pragma = value, False
        if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
            return None
        encoding = whatwg_encoding(charset)
        if encoding in ("utf-16be", "utf-16le"):
            return "utf-8"
        if encoding == "x-user-defined":
            return "windows-1252"
        return encoding

    def run(self) -> str | None:
        data = self.data
        try:
            while self.position < len(data):
                if data.startswith(b"<!--", self.position):
                    self.skip_to(b"-->", self.position + 2)
                elif data[self.position:self.position + 5].lower() == b"<meta" and (
                    self.position + 5 < len(data) and data[self.position + 5] in b"\t\n\x0c\r /"
                ):
                    self.position += 6
                    encoding = self.meta()
                    if encoding is not None:
                        return encoding
                    continue  # the position already points after the tag's last attribute
                elif data[self.position] == 0x3C and self.position + 1 < len(data) and (
                    chr(data[self.position + 1]).isascii() and chr(data[self.position + 1]).isalpha()
                    or data[self.position + 1] == 0x2F and self.position + 2 < len(data)
                    and chr(data[self.position + 2]).isascii() and chr(data[self.position + 2]).isalpha()
                ):
                    while self.byte() not in b"\t\n\x0c\r >":
                        self.position += 1
                    while self.get_attribute() is not None:
                        pass
                elif data.startswith((b"<!", b"</", b"<?"), self.position):
                    self.skip_to(b">", self.position + 1)
                self.position += 1
        except _EndOfInput:
            return None
        return None


def extract_charset_from_content(content: str) -> str | None:
    """The spec's "extract a character encoding from a meta element" for a ``content`` value (already lower-case)."""
    position = 0
    while True:
        found = content.find("charset", position)
        if found < 0:
            return None
        position = found + 7
        while position < len(content) and content[position] in _HTML_WHITESPACE:
            position += 1
        if position >= len(content) or content[position] != "=":
            continue
        position += 1
        while position < len(content) and content[position] in _HTML_WHITESPACE:
            position += 1
        if position >= len(content):
            return None
        if content[position] in "\"'":
            end = content.find(content[position], position + 1)
            return content[position + 1:end] if end >= 0 else None
        end = position
        while end < len(content) and content[end] not in _HTML_WHITESPACE + ";":
            end += 1
        return content[position:end]


def prescan_meta_charset(data: bytes) -> str | None:
    """The encoding a ``<meta charset>`` or ``<meta http-equiv content>`` declares in the first 1024 bytes.

    Implements the WHATWG "prescan a byte stream to determine its encoding" (HTML 13.2.3.2): comments and other tags
    are skipped as the spec says; a declared UTF-16 becomes UTF-8 and ``x-user-defined`` becomes windows-1252.

    :returns: a WHATWG encoding name, or ``None`` when nothing (known) is declared.
    """
    if b"<meta" not in data[:1024].lower():  # only a <meta> declares: without one the prescan finds nothing
        return None
    return _Prescan(data).run()


# --- detection ----------------------------------------------------------------------------------------------------


def _detect_with_charset_normalizer(data: bytes) -> str | None:
    """The WHATWG name of the encoding charset-normalizer finds most likely, or ``None``."""
    from charset_normalizer import from_bytes

    best = from_bytes(data[:262144]).best()
    if best is None:
        return None
    for candidate in (best.encoding, *best.could_be_from_charset):
        name = whatwg_encoding(candidate) or whatwg_encoding(candidate.replace("_", "-"))
        if name is not None and name not in ("replacement", "utf-16le", "utf-16be"):
            return name
    return None


def _declared(data: bytes, name: str, source: str, how: str, warnings: list[str]) -> Decoded:
    """Decode by a declared encoding, unless the declaration lies (see the module docstring)."""
    if name != "utf-8" and name not in ("utf-16le", "utf-16be") and _is_multibyte_utf8(data):
        warnings.append(f"{how} declares {name}, but the bytes are valid UTF-8: decoded as UTF-8")
        return Decoded(data.decode("utf-8"), "utf-8", "detected", tuple(warnings))
    return Decoded(_decode_with(data, name, warnings), name, source, tuple(warnings))


def _sniff(data: bytes, charset: str | None, location: str | None) -> Decoded:
    warnings: list[str] = []
    for bom, name in _BOMS:
        if data.startswith(bom):
            return Decoded(_decode_with(data[len(bom):], name, warnings), name, "bom", tuple(warnings))
    utf16 = _sniff_utf16(data)
    if utf16 is None and (reason := _looks_binary(data)) is not None:
        raise UndecodableInput(f"not a text page: {reason}", location=location)
    if charset is not None:
        name = whatwg_encoding(charset)
        if name is None or name == "replacement":
            warnings.append(f"the caller's charset {charset!r} is not a usable WHATWG encoding label: ignored")
        else:
            return _declared(data, name, "caller", "the caller's charset", warnings)
    if utf16 is not None:
        warnings.append(f"no byte order mark, but the NUL bytes show {utf16}: decoded as {utf16}")
        return Decoded(_decode_with(data, utf16, warnings), utf16, "detected", tuple(warnings))
    declared = prescan_meta_charset(data)
    if declared == "replacement":
        warnings.append("the <meta> charset names an encoding browsers refuse (WHATWG 'replacement'): ignored")
    elif declared is not None:
        return _declared(data, declared, "meta", "the <meta> charset", warnings)
    try:
        return Decoded(data.decode("utf-8"), "utf-8", "detected", tuple(warnings))
    except UnicodeDecodeError:
        pass
    invalid = _invalid_utf8_sequences(data)
    if invalid is not None:
        warnings.append(f"no encoding declared; the bytes are UTF-8 but for {invalid} invalid sequence(s): decoded as "
                        "UTF-8, the invalid sequences replaced by U+FFFD")
        return Decoded(data.decode("utf-8", errors="replace"), "utf-8", "detected", tuple(warnings))
    detected = _detect_with_charset_normalizer(data)
    if detected is not None:
        warnings.append(f"no encoding declared: {detected} is charset-normalizer's guess from the bytes")
        return Decoded(_decode_with(data, detected, warnings), detected, "detected", tuple(warnings))
    warnings.append("no encoding declared or detected: decoded as windows-1252 (the WHATWG default)")
    return Decoded(_decode_with(data, "windows-1252", warnings), "windows-1252", "default", tuple(warnings))


def _only_ascii_whitespace(data: bytes) -> bool:
    """Whether ``data`` is empty or holds only ASCII whitespace (tab, line feed, form feed, carriage return, space):
    ``not data.strip(...)`` without copying the page (``bytes.isspace`` also takes vertical tab, which is not)."""
    return not data or (data.isspace() and b"\x0b" not in data)


def decode_html(data: bytes, *, charset: str | None = None, location: str | None = None) -> Decoded:
    """Decode an HTML page's bytes following the WHATWG encoding sniffing order (see the module docstring).

    :param data: the page's bytes.
    :param charset: an encoding label from the caller (HTTP ``Content-Type`` charset), or ``None``.
    :param location: where the bytes come from, for error messages.
    :returns: the text, the WHATWG encoding name, what decided it and the warnings.
    :raises EmptyInput: no bytes, or only whitespace once decoded.
    :raises UndecodableInput: binary data.
    """
    if _only_ascii_whitespace(data):
        raise EmptyInput("the page is empty" if not data else "the page holds only white space", location=location)
    decoded = _sniff(data, charset, location)
    text = decoded.text
    if not text or text.isspace():  # not text.strip(), without copying the text
        raise EmptyInput("the page holds only white space", location=location)
    nuls = text.count("\x00")
    if nuls:
        text = text.replace("\x00", "\ufffd")
        decoded = Decoded(text, decoded.encoding, decoded.source,
                          (*decoded.warnings, f"{nuls} NUL character(s) replaced by U+FFFD"))
    controls, others_safe = _xml_control_count(text, data if decoded.encoding == "utf-8" else None)
    if not controls and others_safe:
        decoded = Decoded(text, decoded.encoding, decoded.source, decoded.warnings, xml_safe=True)
    if controls:  # replaced by U+FFFD when parsed (pyxform.stages.clean.parse): XML 1.0 cannot hold them
        decoded = Decoded(text, decoded.encoding, decoded.source,
                          (*decoded.warnings, f"{controls} control character(s) that XML cannot hold "
                                              "(U+0001 to U+001F but tab, line feed, form feed and carriage return) "
                                              "replaced by U+FFFD"))
    return decoded
