"""warcio's record iterator and body readers, made strict for :mod:`~pyxform.base.warc`: compressed data that
stops inflating part way raises :class:`DecodingError` (warcio writes the error on standard error and reads on as if
the data ended there), a record not followed by its blank lines is counted, not printed, and warcio's logged
warnings are not printed unless the program configures logging."""

from __future__ import annotations

import logging
from typing import Any, BinaryIO, Final

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader, ChunkedDataReader, DecompressingBufferedReader

__all__ = ["DecodingError", "HeadersTooLarge", "Records", "content_stream", "LINE_BYTES", "HEADER_BYTES"]

#: Most bytes of one line where headers are read, and of the lines read for one record (its WARC and HTTP headers):
#: a gzip member of a few kilobytes may inflate to gigabytes of header lines, which warcio would hold in memory.
LINE_BYTES: Final = 1 << 20
HEADER_BYTES: Final = 16 << 20

# warcio logs a warning for each target URI it mends (spaces made %20): without a handler of the program's, Python's
# last-resort handler printed each on standard error (the batch's terminal, a line per record). A program that
# configures logging still gets them.
logging.getLogger("warcio").addHandler(logging.NullHandler())


class DecodingError(ValueError):
    """Compressed data (a gzip member of the file, or a body's ``Content-Encoding``) that does not inflate."""


class HeadersTooLarge(ValueError):
    """A record whose header lines are longer than :data:`LINE_BYTES` or :data:`HEADER_BYTES` (a gzip bomb, or a
    record whose ``Content-Length`` is wrong, so that its body is read as lines)."""


class _Strict:
    """A warcio reader that raises :class:`DecodingError` where data stops inflating part way. warcio writes the
    error on standard error and reads on as if the data ended there: a record's gzip member was read to the end of
    the file (a line on standard error per 16 KiB) and reported as truncated, and a body whose content coding is
    corrupt became a shorter page. Data that does not inflate from its first bytes on is left to warcio (it reads
    it as not compressed)."""

    decompressor: Any
    num_block_read: int

    def _decompress(self, data: bytes) -> bytes:
        if self.decompressor is not None and data and self.num_block_read > 0:
            try:
                return self.decompressor.decompress(data)  # type: ignore[no-any-return]
            except Exception as error:  # zlib.error, brotli.error
                raise DecodingError(str(error)) from None
        return super()._decompress(data)  # type: ignore[misc, no-any-return]


class _StrictGzip(_Strict, DecompressingBufferedReader):  # type: ignore[misc]
    """The reader of a WARC file: strict decoding, and lines (headers) no longer than :data:`LINE_BYTES`, nor than
    :data:`HEADER_BYTES` for one record (:attr:`line_bytes` is set to 0 as each record starts)."""

    line_bytes = 0

    def readline(self, length: int | None = None) -> bytes:
        cap = LINE_BYTES if length is None or length < 0 else min(length, LINE_BYTES)
        line: bytes = super().readline(cap)
        self.line_bytes += len(line)
        if len(line) >= LINE_BYTES and not line.endswith(b"\n"):
            raise HeadersTooLarge(f"a line of more than {LINE_BYTES} bytes where headers are read")
        if self.line_bytes > HEADER_BYTES:
            raise HeadersTooLarge(f"more than {HEADER_BYTES} bytes of header lines")
        return line


class _StrictChunked(_Strict, ChunkedDataReader):  # type: ignore[misc]
    pass


class _StrictBuffered(_Strict, BufferedReader):  # type: ignore[misc]
    pass


def content_stream(record: Any) -> Any:
    """A record's body after transfer and content decoding, as warcio's ``record.content_stream()`` reads it, with
    strict decoding (:class:`_Strict`)."""
    if not record.http_headers:
        return record.raw_stream
    encoding = (record.http_headers.get_header("content-encoding") or "").lower() or None
    if encoding not in BufferedReader.get_supported_decompressors():
        encoding = None
    if record.http_headers.get_header("transfer-encoding") == "chunked":
        return _StrictChunked(record.raw_stream, decomp_type=encoding)
    if encoding:
        return _StrictBuffered(record.raw_stream, decomp_type=encoding)
    return record.raw_stream


class Records(ArchiveIterator):  # type: ignore[misc]
    """warcio's iterator with strict decoding of its gzip members (:class:`_Strict`), and without its warning on
    standard error for a record not followed by blank lines (counted in ``err_count``, which :func:`scan` reads as
    a broken record)."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__(stream)
        self.reader = _StrictGzip(self.fh)

    def _consume_blanklines(self) -> tuple[bytes | None, int]:
        self.reader.line_bytes = 0  # the lines of the next record
        empty_size, first_line = 0, True
        while True:
            line = self.reader.readline()
            if len(line) == 0:
                return None, empty_size
            if len(line.rstrip()) == 0 or first_line:
                empty_size += len(line)
                if len(line.rstrip()) != 0:
                    self.err_count += 1
                first_line = False
                continue
            return line, empty_size
