"""Web archives: the HTML pages of a WARC file, found and read with warcio.

A WARC file (ISO 28500: WARC/1.0, WARC/1.1; and the drafts WARC/0.17 and WARC/0.18 that Heritrix 1.x wrote, as
warcio reads them) is read uncompressed or as one gzip member per record (annex D, what Common Crawl, wget and warcio
write). A *page* is a ``response`` record of an http(s) URI with HTTP status 200 or 203, or a ``resource`` record,
whose media type is HTML (:func:`is_html`; the rule and its sources: :func:`_verdict`). :func:`scan` walks a file
once and says what each record is; :func:`read_page` reads one page at the byte offset :func:`scan` gave.

A broken record (truncated, a ``Content-Length`` that runs into the next record, headers that do not parse, a gzip
member that does not inflate) is reported with its offset, and the walk goes on at the next record start: the next
gzip member that inflates to a WARC record, or the next ``WARC/1.x`` (``WARC/0.1x``) line.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from email.message import Message
from typing import BinaryIO, Final

from warcio.exceptions import ArchiveLoadFailed
from warcio.limitreader import LimitReader
from warcio.statusandheaders import StatusAndHeadersParserException

from .errors import ArchiveError
from .warc_readers import HeadersTooLarge
from .warc_readers import Records as _Records
from .warc_readers import content_stream as _content_stream

__all__ = ["WarcPage", "WarcSkip", "WarcBroken", "scan", "read_page", "is_html", "sniffs_as_html", "looks_like_warc",
           "HTML_MEDIA_TYPES", "PAGE_STATUSES", "SNIFF_BYTES"]

#: The HTTP status codes of a response that carries a whole page (:func:`_verdict`).
PAGE_STATUSES: Final = frozenset({"200", "203"})
#: The media types of HTML documents (WHATWG HTML, "HTML MIME type"; XHTML's).
HTML_MEDIA_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
_GZIP_MAGIC: Final = b"\x1f\x8b\x08"
#: The version line that starts a WARC record: ISO 28500's WARC/1.0 and WARC/1.1, the drafts' WARC/0.17 and 0.18.
_WARC_LINE: Final = re.compile(rb"WARC/(?:1\.[01]|0\.1[78])\r?\n")
_TARGET_URI: Final = re.compile(rb"\r?\nWARC-Target-URI:[ \t]*<?([^\r\n>]*)>?", re.IGNORECASE)
_BLOCK: Final = 1 << 20
_HEADER_LOOK: Final = 65536  # bytes of a broken record's headers looked at for its target URI
#: WHATWG MIME sniffing reads at most 1445 bytes of the resource header.
SNIFF_BYTES: Final = 1445
#: What reading a broken record raises: warcio's errors, and its own failures on headers it does not expect (a response
#: record without a WARC-Target-URI: AttributeError), which must cost that record only.
_READ_ERRORS = (ArchiveLoadFailed, StatusAndHeadersParserException, zlib.error, EOFError, ValueError, IndexError,
                KeyError, UnicodeError, AttributeError, TypeError)


@dataclass(frozen=True)
class WarcPage:
    """An HTML page of the archive: the record's byte offset in the file, its target URI and its size in bytes."""

    offset: int
    uri: str
    length: int


@dataclass(frozen=True)
class WarcSkip:
    """A record that is not a page, and why (``request record``, ``non-HTML response``, ...)."""

    offset: int
    reason: str


@dataclass(frozen=True)
class WarcBroken:
    """A record that cannot be read (or a file that is no WARC): its offset, its target URI if that could be read,
    and what is wrong."""

    offset: int
    uri: str | None
    message: str


WarcItem = WarcPage | WarcSkip | WarcBroken


# -- media types --------------------------------------------------------------------------------------------------
def _content_type(value: str | None) -> tuple[str, str | None]:
    """``(media type in lower case, charset or None)`` of a ``Content-Type`` header value (``("", None)`` if none)."""
    if not value or not value.strip():
        return "", None
    message = Message()
    message["content-type"] = value
    media_type = value.split(";", 1)[0].strip().lower()
    charset = message.get_param("charset")
    if isinstance(charset, tuple):  # RFC 2231 form
        charset = charset[2]
    return media_type, (str(charset).strip().strip('"') or None) if charset else None


_HTML_PATTERNS: Final = tuple(pattern.encode("ascii") for pattern in (
    "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE",
    "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--"))


def sniffs_as_html(head: bytes) -> bool:
    """Whether a resource without a media type is HTML by the WHATWG MIME Sniffing Standard, section 7.1
    ("identifying a resource with an unknown MIME type"): after leading white space (``HT LF FF CR SP``), one of
    ``<!DOCTYPE HTML``, ``<HTML``, ``<HEAD``, ... ``<P``, ``<!--`` (ASCII case-insensitive) followed by a space or
    ``>``.

    :param head: the first bytes of the resource (1445 suffice).
    """
    start = head[:SNIFF_BYTES].lstrip(b"\t\n\x0c\r ")
    upper = start.upper()
    return any(upper.startswith(pattern) and upper[len(pattern):len(pattern) + 1] in (b" ", b">")
               for pattern in _HTML_PATTERNS)


def is_html(content_type: str | None, identified: str | None = None, head: bytes = b"") -> bool:
    """Whether a response is an HTML page: its media type (HTTP ``Content-Type``) is one of
    :data:`HTML_MEDIA_TYPES`; without a media type, the type Common Crawl identified
    (``WARC-Identified-Payload-Type``), else :func:`sniffs_as_html` on the body's first bytes ``head``."""
    media_type, _ = _content_type(content_type)
    if media_type:
        return media_type in HTML_MEDIA_TYPES
    identified_type, _ = _content_type(identified)
    if identified_type:
        return identified_type in HTML_MEDIA_TYPES
    return sniffs_as_html(head)


# -- walking a file -----------------------------------------------------------------------------------------------
def looks_like_warc(head: bytes) -> bool:
    """Whether a file that starts with ``head`` (64 bytes or more) is a WARC: ``WARC/1.0``, ``WARC/1.1`` (or a
    draft's ``WARC/0.17``, ``WARC/0.18``) as its first line, uncompressed or in a first gzip member."""
    if head.startswith(_GZIP_MAGIC):
        try:
            head = zlib.decompressobj(31).decompress(head, 16)
        except zlib.error:
            return False
    return _WARC_LINE.match(head) is not None


def _record_starts_at(stream: BinaryIO, offset: int, compressed: bool) -> bool:
    """Whether a WARC record starts at ``offset``: in a compressed file a gzip member that inflates to one, else a
    WARC version line (:data:`_WARC_LINE`; not necessarily at the start of a line: a record cut short runs into the next
    one mid-line)."""
    if offset < 0:
        return False
    stream.seek(offset)
    if compressed:
        head = stream.read(65536)
        return head.startswith(_GZIP_MAGIC) and looks_like_warc(head)
    return _WARC_LINE.match(stream.read(16)) is not None


def _first_member_holds_one_record(stream: BinaryIO) -> bool:
    """Whether the first gzip member of a compressed file ends with its first record (one member per record), rather
    than going on with the next record (a file gzipped as one stream; a damaged member that inflates to noise past
    its record is one record's problem). Inflates the first member only as far as needed."""
    stream.seek(0)
    inflater = zlib.decompressobj(31)
    head, record_size = bytearray(), None
    while not inflater.eof:
        block = stream.read(65536)
        if not block:
            return True  # a truncated first member: reported as a broken record by the walk
        try:
            data = inflater.decompress(block)
        except zlib.error:
            return True
        if record_size is None:
            head += data
            end = head.find(b"\r\n\r\n")
            if end != -1:
                length = re.search(rb"\r\nContent-Length:[ \t]*([0-9]+)", head[:end], re.IGNORECASE)
                if length is None:
                    return True
                record_size = end + 4 + int(length.group(1)) + 4  # headers, block, CRLF CRLF
            elif len(head) > 1 << 20:
                return True
        else:
            head += data[:max(0, record_size + 64 - len(head))]
        if record_size is not None and len(head) >= record_size + 64:
            return _WARC_LINE.match(bytes(head[record_size:]).lstrip(b"\r\n")) is None
    return True


def _inflates_to_nothing(stream: BinaryIO) -> bool:
    """Whether a gzip file inflates to no byte at all: an empty WARC file, compressed."""
    stream.seek(0)
    try:
        with gzip.GzipFile(fileobj=stream) as inflated:
            return inflated.read(1) == b""
    except (OSError, EOFError, zlib.error):
        return False


def _next_record_start(stream: BinaryIO, after: int, compressed: bool) -> int | None:
    """The offset of the first record start after ``after`` (:func:`_record_starts_at`), or ``None``."""
    pattern = _GZIP_MAGIC if compressed else b"WARC/"
    position = after + 1
    while True:
        stream.seek(position)
        block = stream.read(_BLOCK + len(pattern))
        index = block.find(pattern)
        while index != -1:
            if _record_starts_at(stream, position + index, compressed):
                return position + index
            index = block.find(pattern, index + 1)
        if len(block) < _BLOCK + len(pattern):
            return None
        position += _BLOCK


def _target_uri_at(stream: BinaryIO, offset: int, compressed: bool) -> str | None:
    """The ``WARC-Target-URI`` of the record at ``offset``, read from as much of its headers as can be read."""
    stream.seek(offset)
    data = stream.read(65536)
    if compressed:  # piece by piece: keep what inflates before a broken part; the first 64 KiB of headers at most
        inflater, pieces, size = zlib.decompressobj(31), bytearray(), 0
        for start in range(0, len(data), 16):
            try:
                pieces += inflater.decompress(data[start:start + 16], _HEADER_LOOK - len(pieces))
            except zlib.error:
                break
            if inflater.eof or len(pieces) >= _HEADER_LOOK or pieces.find(b"\r\n\r\n", max(0, size - 3)) != -1:
                break
            size = len(pieces)
        data = bytes(pieces)
    found = _TARGET_URI.search(data.split(b"\r\n\r\n", 1)[0])
    if found is None:
        return None
    return found.group(1).decode("utf-8", "replace").strip() or None


def _http_response(record: object) -> bool:
    """Whether a record's block starts with an HTTP status line (warcio takes any first line of a ``response`` record
    of an http(s) URI as one: a record that holds the page's bytes alone has none)."""
    http = record.http_headers  # type: ignore[attr-defined]
    return http is not None and (http.protocol or "").upper().startswith("HTTP/")


def _media_types(record: object) -> tuple[str | None, str | None]:
    """``(Content-Type, WARC-Identified-Payload-Type)`` of a record's page: the HTTP ``Content-Type`` of a response,
    the record's own of a resource (ISO 28500: its block is the resource)."""
    rec_headers = record.rec_headers  # type: ignore[attr-defined]
    http = record.http_headers  # type: ignore[attr-defined]
    declared = http.get_header("Content-Type") if http is not None else rec_headers.get_header("Content-Type")
    return declared, rec_headers.get_header("WARC-Identified-Payload-Type")


def _needs_sniffing(record: object) -> bool:
    """Whether a response would be a page but for its media type, and has none to tell (neither an HTTP
    ``Content-Type`` nor a ``WARC-Identified-Payload-Type``): its body's first bytes decide (:func:`sniffs_as_html`)
    after content decoding. (A resource's block is sniffed as it is: it has no content coding.)"""
    if (record.rec_type or "").lower() != "response" or not _http_response(record):  # type: ignore[attr-defined]
        return False
    declared, identified = _media_types(record)
    return (record.http_headers.get_statuscode() in PAGE_STATUSES  # type: ignore[attr-defined]
            and not _content_type(declared)[0] and not _content_type(identified)[0])


def _decoded_head(record: object) -> bytes:
    """The first bytes of a record's body after transfer and content decoding (chunked, gzip, deflate, br: what
    sniffing reads, as a browser would), or ``b""`` when they cannot be decoded."""
    try:
        return _content_stream(record).read(SNIFF_BYTES)  # type: ignore[no-any-return]
    except (*_READ_ERRORS, OSError):
        return b""


def _verdict(record: object, head: bytes) -> WarcPage | WarcSkip:
    """What a record is, from its headers (and the first bytes of its body ``head``, for sniffing): a page or a skip
    (their offset and length are filled in by the caller).

    A page is a whole HTML document as it was served:

    - a ``response`` record of an http(s) URI whose block is an HTTP response (ISO 28500 section 6.3: the complete
      response, headers included) with status 200 or 203. Of the 2xx codes only these carry a whole representation
      of the target resource (RFC 9110 section 15.3; 203 as a transforming proxy changed it): 201 and 202 describe
      what the request did, 204 and 205 have no content, 206 a part of the representation, and 207, 208 (WebDAV) and
      226 (delta encoding) something else than the representation;
    - a ``resource`` record of any target URI (section 6.4: the resource itself, without protocol information, e.g.
      a file or a fetch whose headers were discarded);

    whose media type is HTML (:func:`is_html` on the HTTP ``Content-Type`` of a response, the record's own
    ``Content-Type`` of a resource), and which its writer did not cut short (no ``WARC-Truncated`` field).
    The other types hold no page (``warcinfo``, ``request``, ``metadata``), only a reference to one or a part
    (``revisit``, ``continuation``) or an archive's transformation of one (``conversion``).
    """
    rec_type = (record.rec_type or "").lower()  # type: ignore[attr-defined]
    uri = record.rec_headers.get_header("WARC-Target-URI") or ""  # type: ignore[attr-defined]
    if rec_type not in ("response", "resource"):
        return WarcSkip(-1, f"{rec_type or 'untyped'} record")
    if rec_type == "response":
        http = record.http_headers  # type: ignore[attr-defined]
        if http is None or not uri.lower().startswith(("http:", "https:")):
            return WarcSkip(-1, "non-HTTP response")
        if not _http_response(record):
            return WarcSkip(-1, "response without HTTP headers")
        if http.get_statuscode() not in PAGE_STATUSES:
            return WarcSkip(-1, "non-200/203 response")
    elif not uri:
        return WarcSkip(-1, "resource without a target URI")
    if not is_html(*_media_types(record), head):
        return WarcSkip(-1, f"non-HTML {rec_type}")
    if record.rec_headers.get_header("WARC-Truncated") is not None:  # type: ignore[attr-defined]
        return WarcSkip(-1, f"truncated {rec_type} (WARC-Truncated)")
    return WarcPage(-1, uri, 0)


_MANDATORY: Final = ("warc-record-id", "warc-type", "warc-date", "content-length")


def _repeated_mandatory_header(record: object) -> str | None:
    """The name of a mandatory WARC header (ISO 28500 section 5) that the record's header block holds twice (the
    headers of a record cut short run into those of the next record), or ``None``."""
    seen: set[str] = set()
    for name, _ in record.rec_headers.headers:  # type: ignore[attr-defined]
        key = name.strip().lower()
        if key in _MANDATORY:
            if key in seen:
                return name.strip()
            seen.add(key)
    return None


_NO_PAGES: Final = frozenset({"warcinfo", "request", "metadata", "revisit", "conversion", "continuation"})
_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _malformed(record: object) -> str | None:
    """What is wrong with a record's WARC header block, or ``None``: every line must be ``NAME: VALUE`` with a
    token as its name, and ``Content-Length`` must be there, a number (ISO 28500 sections 4 and 5.8). A gzip member
    cut short inflates into noise that warcio may still read as a header block."""
    for name, _ in record.rec_headers.headers:  # type: ignore[attr-defined]
        if not _TOKEN.fullmatch(name.strip()):
            return "a header line is not NAME: VALUE"
    length = record.rec_headers.get_header("Content-Length")  # type: ignore[attr-defined]
    if length is None:
        return "no Content-Length"
    if not length.strip().isdigit():
        return "its Content-Length is no number"
    return None


def _own_headers(record: object) -> dict[str, str]:
    """The record's WARC headers (names in lower case) up to the first mandatory header met twice: those of a
    record cut short, without the next record's that its header block ran into."""
    own: dict[str, str] = {}
    for name, value in record.rec_headers.headers:  # type: ignore[attr-defined]
        key = name.strip().lower()
        if key in own and key in _MANDATORY:
            break
        own.setdefault(key, value.strip())
    return own


def scan(path: str) -> Iterator[WarcItem]:
    """Walk the WARC file ``path`` and tell each record, in file order: a :class:`WarcPage`, a :class:`WarcSkip`
    or a :class:`WarcBroken`. A file that is no WARC gives one :class:`WarcBroken` at offset 0; an empty file
    (or a gzip file of nothing) gives nothing.

    :raises OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as stream:
        head = stream.read(65536)
        if not head:
            return
        compressed = head.startswith(_GZIP_MAGIC)
        if compressed and not _first_member_holds_one_record(stream):
            yield WarcBroken(0, None, "the file is one gzip stream, not one gzip member per record (ISO 28500 annex "
                                      "D), so its records cannot be read one by one: recompress it with `warcio "
                                      "recompress IN.warc.gz OUT.warc.gz` (warcio comes with pyxform)")
            return
        position: int | None = 0
        if not _record_starts_at(stream, 0, compressed):
            if compressed and _inflates_to_nothing(stream):
                return
            what = "a gzip file that holds no WARC record at its start" if compressed else "no WARC record at its start"
            position = _next_record_start(stream, 0, compressed)
            if position is None and not compressed:  # a gzipped WARC whose first member's header is damaged
                position = _next_record_start(stream, 0, True)
                compressed = position is not None
            if position is None:
                yield WarcBroken(0, None, f"not a WARC file ({what}: it starts with {head[:16]!r})")
                return
            yield WarcBroken(0, None, f"{what}; the archive goes on at byte {position}")
        while position is not None:
            position = yield from _scan_from(stream, position, compressed)


def _scan_from(stream: BinaryIO, position: int, compressed: bool) -> Generator[WarcItem, None, int | None]:
    """Walk from ``position`` until the end of the file (returns ``None``) or a broken record (reported; returns
    the offset of the next record start to walk from, or ``None``)."""
    stream.seek(position)
    records = _Records(stream)
    current: object = None
    try:
        for record in records:
            current = record
            offset, errors = records.offset, records.err_count
            body = record.raw_stream
            head = _decoded_head(record) if _needs_sniffing(record) else body.read(SNIFF_BYTES)
            verdict = _verdict(record, head)
            while body.read(_BLOCK):
                pass
            short = isinstance(body, LimitReader) and body.limit > 0
            length = records.get_record_length()  # reads the blank lines after the record
            merged = _repeated_mandatory_header(record)
            malformed = None if merged else _malformed(record)
            lost = length <= 0  # warcio lost count of where it is (a gzip member whose end is corrupt)
            if short or merged or malformed or lost or records.err_count > errors:
                problem = ("the record is truncated: the file ends before its Content-Length" if short else
                           f"the record is cut short: its headers run into the next record's ({merged} twice)"
                           if merged else f"the record's headers are broken: {malformed}" if malformed else
                           "the record's gzip member is corrupt at its end" if lost else
                           "the record's Content-Length does not end where the next record starts")
                next_start = _next_record_start(stream, offset, compressed)
                # it is recorded (it may have been a page) unless its own WARC-Type says it is another kind of
                # record, or it is cut at the end of the file after its HTTP headers, which say it is no page
                # (elsewhere its headers may run into the next record's)
                own = _own_headers(record)
                other_kind = (own.get("warc-type") or "").lower() in _NO_PAGES
                headers_whole = short and bool(head)
                if isinstance(verdict, WarcPage) or not (other_kind or headers_whole):
                    yield WarcBroken(offset, own.get("warc-target-uri") or None, problem)
                else:
                    yield WarcSkip(offset, "broken non-page record")
                return next_start
            if isinstance(verdict, WarcPage):
                yield WarcPage(offset, verdict.uri, length)
            else:
                yield WarcSkip(offset, verdict.reason)
            current = None
    except _READ_ERRORS as error:
        offset = records.offset
        uri = None
        if current is not None:
            uri = current.rec_headers.get_header("WARC-Target-URI")  # type: ignore[attr-defined]
        uri = uri or _target_uri_at(stream, offset, compressed)
        what = ("warcio fails on its headers (a mandatory one, such as WARC-Target-URI, may be missing)"
                if isinstance(error, (AttributeError, TypeError)) else
                "its headers go on beyond reason (a gzip bomb, or a wrong Content-Length before them)"
                if isinstance(error, HeadersTooLarge) else
                "its gzip member is cut short or corrupt" if compressed else "it is no WARC record")
        yield WarcBroken(offset, uri, f"the record cannot be read: {what} ({_describe(error)})")
        return _next_record_start(stream, offset, compressed)
    # warcio stops without an error where a broken gzip member inflates to nothing it can read: bytes left after
    # the last record read are a broken record (or trailing noise), and the walk goes on after them
    end = records.offset
    stream.seek(end)
    rest = stream.read(4096)
    if rest.strip(b"\r\n\t \0"):
        yield WarcBroken(end, _target_uri_at(stream, end, compressed),
                         "the record cannot be read: the bytes after the last record read are no WARC record")
        return _next_record_start(stream, end, compressed)
    return None


def _describe(error: BaseException) -> str:
    """A read error in a line of printable text (warcio quotes the bytes it could not read: binary noise)."""
    text = " ".join(str(error).split(" first line:", 1)[0].split()).rstrip(",")  # warcio quotes the line it read
    text = "".join(character if character.isprintable() and ord(character) < 0x7F else "?" for character in text)
    if len(text) > 120:
        text = text[:120] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


# -- reading one page ---------------------------------------------------------------------------------------------
def read_page(path: str, offset: int, max_bytes: int) -> tuple[bytes, str, str | None]:
    """Read the page at byte ``offset`` of the WARC file ``path`` (an offset :func:`scan` gave as a
    :class:`WarcPage`).

    :param max_bytes: read at most ``max_bytes + 1`` bytes of the body: a page longer than ``max_bytes`` is seen as
        such (by :func:`~pyxform.base.limits.check_page_bytes`, or the conversion's) without reading all of it.
    :returns: ``(body bytes after transfer and content decoding, target URI, charset of the page's Content-Type or
        None)`` (the HTTP ``Content-Type`` of a response, the record's own of a resource).
    :raises ArchiveError: no readable page record there (a response with HTTP headers, a resource), or a body that
        cannot be decoded.
    :raises OSError: the file cannot be opened or read.
    """
    location = f"{path}#offset={offset}"
    with open(path, "rb") as stream:
        stream.seek(offset)
        try:
            record = next(iter(_Records(stream)))
            uri = record.rec_headers.get_header("WARC-Target-URI") or location
            if not (record.rec_type == "resource" or record.rec_type == "response" and record.http_headers):
                raise ArchiveError(f"no HTTP response or resource record at byte {offset}", location=location)
            _, charset = _content_type(_media_types(record)[0])
            data = _content_stream(record).read(max_bytes + 1)
        except StopIteration:
            raise ArchiveError(f"no record at byte {offset} (the file ends)", location=location) from None
        except _READ_ERRORS as error:
            raise ArchiveError(f"the record cannot be read: {_describe(error)}", location=location) from None
    return data, uri, charset
