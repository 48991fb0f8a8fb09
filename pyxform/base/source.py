"""Reading a page's bytes: a file, standard input (``-``), an http(s) URL, or bytes from the Python API.

What a ``str`` means here: :func:`read_source` takes a *location* (``-``, a URL, or a file path), as the command line
does. HTML *text* is given to :func:`pyxform.stages.clean.clean` directly (there a ``str`` is the page's markup) or as
bytes. A ``str`` here that looks like markup (starts with ``<``) is refused with a hint, never taken as a file name.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import BinaryIO, Final

from .errors import InputNotFound
from .limits import DEFAULT_LIMITS, Limits, check_page_bytes

__all__ = ["Source", "read_source", "looks_like_url"]

_URL: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def looks_like_url(text: str) -> bool:
    """Whether ``text`` is a URL (``scheme://...``, or ``file:...``) rather than a file path."""
    return bool(_URL.match(text)) or text[:5].lower() == "file:"


@dataclass(frozen=True)
class Source:
    """A page's bytes and where they come from.

    :ivar data: the page's bytes, undecoded.
    :ivar uri: the file path, the final URL after redirects, ``-`` for standard input, ``""`` for API bytes.
    :ivar charset: the charset the transport declared (HTTP ``Content-Type``), or ``None``.
    """

    data: bytes
    uri: str = ""
    charset: str | None = None


def _read_stream(stream: BinaryIO, limits: Limits, location: str) -> bytes:
    data = stream.read(limits.max_page_bytes + 1)
    check_page_bytes(len(data), limits, location)
    return data


def read_source(spec: str | bytes | os.PathLike[str] | Source, *, limits: Limits = DEFAULT_LIMITS,
                allow_private: bool = False) -> Source:
    """Read one page's bytes.

    :param spec: ``-`` (standard input), a URL (``scheme://...`` or ``file:...``; only http(s) ones are fetched, by
        :func:`pyxform.base.fetch.fetch`), a file path
        (``str`` or ``os.PathLike``), ``bytes`` (taken as they are), or a :class:`Source` (returned after the size
        check).
    :param limits: ``max_page_bytes`` for every kind of input; ``fetch_timeout`` and ``max_fetch_bytes`` for URLs.
    :param allow_private: let URLs reach private, loopback and link-local addresses.
    :returns: the :class:`Source`.
    :raises InputNotFound: the file does not exist or cannot be read, or ``spec`` is markup rather than a location.
    :raises LimitExceeded: the page is larger than ``limits.max_page_bytes``.
    :raises UnsupportedScheme: a URL with another scheme than http(s) (``file:``, ``ftp:``, ...).
    :raises ForbiddenAddress: a URL whose host is a refused address.
    :raises FetchError: a URL could not be fetched.
    """
    if isinstance(spec, Source):
        check_page_bytes(len(spec.data), limits, spec.uri)
        return spec
    if isinstance(spec, (bytes, bytearray, memoryview)):
        data = bytes(spec)
        check_page_bytes(len(data), limits, "<bytes>")
        return Source(data, "", None)
    if isinstance(spec, str):
        if spec == "-":
            return Source(_read_stream(sys.stdin.buffer, limits, "-"), "-", None)
        if looks_like_url(spec):
            from .fetch import fetch  # httpx is imported only when a URL is read (it costs 40 ms of start-up)

            body, final_url, charset = fetch(spec, limits=limits, allow_private=allow_private)
            check_page_bytes(len(body), limits, final_url)
            return Source(body, final_url, charset)
        if spec.lstrip().startswith("<"):
            raise InputNotFound("this looks like HTML text, not a file name: pass it to clean() or as bytes",
                                location=spec[:40])
    path = os.fspath(spec)
    try:
        with open(path, "rb") as stream:
            check_page_bytes(os.fstat(stream.fileno()).st_size, limits, path)
            return Source(_read_stream(stream, limits, path), path, None)
    except IsADirectoryError as error:
        raise InputNotFound("is a directory, not a file", location=path) from error
    except FileNotFoundError as error:
        raise InputNotFound("no such file", location=path) from error
    except OSError as error:
        raise InputNotFound(f"cannot read the file: {error.strerror or error}", location=path) from error
