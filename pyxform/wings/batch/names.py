"""Output names: where each page's output goes in the batch folder, stable from run to run.

A page's output is ``pages/SITE/SLUG-DIGEST.SUFFIX`` under the batch folder:

- ``SITE``: the host of the page's URL in lower case (``:PORT`` as ``_PORT``), ``_files`` for a local file;
- ``SLUG``: the URL's path (without a page suffix such as ``.html``) and query, or the file's name without its
  suffix, percent-decoded, folded to ASCII, every run of other characters than letters, digits, ``.``, ``_`` and
  ``-`` made one ``_``, at most 80 characters; for the reader only;
- ``DIGEST``: 16 hex digits of the SHA-256 of the page's key (its URL, the absolute path of its file, or its WARC
  file and byte offset): two pages have the same name only if they have the same key (or one 64-bit hash collision).

Every name is ASCII, has no leading dot, and stays under 120 characters (a path component of every common file
system takes 255). CSV files of several tables add ``-INDEX`` before the suffix (as ``pyxform convert`` does).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Final
from urllib.parse import unquote, urlsplit

__all__ = ["output_stem", "slug", "site", "digest", "FILES_SITE", "OUTPUT_FOLDER"]

#: The folder of the batch folder that holds the outputs.
OUTPUT_FOLDER: Final = "pages"
#: The site folder of local files.
FILES_SITE: Final = "_files"
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_SLUG: Final = 80
_PAGE_SUFFIXES: Final = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".jsp")


def digest(key: str) -> str:
    """16 hex digits of the SHA-256 of ``key`` (UTF-8)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def slug(text: str, *, default: str = "page") -> str:
    """``text`` as a safe, readable name part: percent-decoded, NFKD-folded to ASCII, runs of characters other than
    ``[A-Za-z0-9._-]`` made ``_``, no leading or trailing ``.``, ``_`` or ``-``, at most 80 characters; ``default``
    when nothing is left."""
    folded = unicodedata.normalize("NFKD", unquote(text)).encode("ascii", "ignore").decode("ascii")
    cleaned = _UNSAFE.sub("_", folded)[:_MAX_SLUG].strip("._-")
    return cleaned or default


def site(url: str) -> str:
    """The site folder of a URL: its host in lower case (a port as ``_PORT``), made safe by :func:`slug`;
    ``_unknown`` for a URL without a host."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return "_unknown"
    if not host:
        return "_unknown"
    name = slug(host.lower(), default="_unknown")
    return f"{name}_{port}" if port is not None else name


def output_stem(key: str, source: str, *, local_file: bool) -> str:
    """The output path of a page relative to the batch folder, without suffix: ``pages/SITE/SLUG-DIGEST`` (see the
    module docstring).

    :param key: the page's unique key (its URL, ``file:`` URI, or WARC record URI with ``#offset=N``).
    :param source: the page's URL (a listed URL, a WARC record's target URI) or, with ``local_file``, its path.
    """
    if local_file:
        stem = source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        stem = stem.rsplit(".", 1)[0] if "." in stem.lstrip(".") else stem
        return f"{OUTPUT_FOLDER}/{FILES_SITE}/{slug(stem)}-{digest(key)}"
    try:
        parts = urlsplit(source)
        path = parts.path.strip("/")
        lower = path.lower()
        for suffix in _PAGE_SUFFIXES:  # the output gets its own suffix
            if lower.endswith(suffix) and len(path) > len(suffix):
                path = path[:-len(suffix)]
                break
        rest = path + (f"?{parts.query}" if parts.query else "")
    except ValueError:
        rest = source
    return f"{OUTPUT_FOLDER}/{site(source)}/{slug(rest, default='index')}-{digest(key)}"
