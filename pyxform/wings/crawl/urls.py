"""URLs: canonical form (w3lib), the crawl's scope, and the words of a URL.

The canonical form is the frontier's duplicate key: w3lib's ``canonicalize_url`` (scheme and host lower-cased, query
arguments sorted, percent-escapes normalized, fragment dropped), then the default port dropped, an empty path made
``/``, and session-id parameters removed (in the query, and ``;jsessionid=...`` path parameters): a session id names
the visitor, not the page, so two URLs that differ only in one name the same page (the session-id trap).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

__all__ = ["canonical", "host_of", "link_host", "in_scope", "host_in_scope", "url_words", "robots_url",
           "SESSION_PARAMETER", "origin"]

#: Query parameter names that carry a session id (case-insensitive): J2EE, PHP, ASP, ColdFusion, osCommerce, Zen Cart
#: and the generic ``sid``/``session``/``sessionid`` forms.
SESSION_PARAMETER: Final = re.compile(
    r"^(?:[a-z0-9]+[_-])?(?:sid|sessid|session|sessionid|session[_-]id|jsessionid|phpsessid|aspsessionid[a-z]*|"
    r"cfid|cftoken|zenid|oscsid)$", re.IGNORECASE)
_PATH_SESSION: Final = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*", re.IGNORECASE)
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_WORD: Final = re.compile(r"[^\W_]+", re.UNICODE)


def canonical(url: str, ignored: frozenset[str] = frozenset()) -> str:
    """The canonical form of an absolute http(s) URL (the module docstring).

    :param url: an absolute URL (``http://`` or ``https://``).
    :param ignored: more query parameter names (lower case) to drop, e.g. those a crawl found to be session ids.
    :returns: the canonical URL.
    :raises ValueError: the URL is not an absolute http(s) URL with a host, or cannot be parsed.
    """
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an absolute http(s) URL: {url!r}")
    path = _PATH_SESSION.sub("", parts.path)
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if not SESSION_PARAMETER.match(k) and k.lower() not in ignored]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    url = canonicalize_url(urlunsplit((parts.scheme, parts.netloc, path, query, "")), keep_blank_values=True)
    parts = urlsplit(url)
    netloc = (parts.hostname or "").rstrip(".")  # example.com. is example.com
    if not netloc:
        raise ValueError(f"not an absolute http(s) URL with a host: {url!r}")
    if ":" in netloc:  # an IPv6 literal
        netloc = f"[{netloc}]"
    if parts.port is not None and parts.port != _DEFAULT_PORTS[parts.scheme]:
        netloc += f":{parts.port}"
    if parts.username or parts.password:
        raise ValueError(f"URLs with credentials are not crawled: {url!r}")
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))


def host_of(url: str) -> str:
    """The host name of a URL, lower case (the politeness slot: one host, whatever its scheme or port)."""
    return (urlsplit(url).hostname or "").lower()


def origin(url: str) -> str:
    """``scheme://host[:port]``: the origin a robots.txt applies to (RFC 9309, section 2.3)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def robots_url(url: str) -> str:
    """The robots.txt URL of a URL's origin."""
    return origin(url) + "/robots.txt"


def link_host(url: str) -> str:
    """The host of an absolute http(s) URL as :func:`canonical` writes it (lower case, IDNA for a name that is not
    ASCII, no final dot), cheaply: a page's links are many and most are out of scope (``""`` if none)."""
    netloc = url.split("/", 3)[2].rsplit("@", 1)[-1] if url.count("/") >= 2 else ""
    host = netloc[1:netloc.find("]")] if netloc.startswith("[") else netloc.split(":", 1)[0]
    if not host.isascii():
        try:
            return host_of(canonical(url))
        except ValueError:
            return ""
    return host.lower().rstrip(".")


def in_scope(url: str, hosts: frozenset[str], domains: tuple[str, ...]) -> bool:
    """Whether a canonical URL may be crawled: its host is a seed's host, or a domain in ``domains`` or a subdomain
    of one."""
    return host_in_scope(host_of(url), hosts, domains)


def host_in_scope(host: str, hosts: frozenset[str], domains: tuple[str, ...]) -> bool:
    """:func:`in_scope` for a host name (lower case)."""
    return host in hosts or any(host == d or host.endswith("." + d) for d in domains)


def url_words(url: str) -> list[str]:
    """The words of a URL's path and query (``/wiki/Summer_Olympics?id=2`` -> ``wiki Summer Olympics id 2``), percent
    escapes decoded; the host is left out (it is the same for a whole site)."""
    from urllib.parse import unquote_plus

    parts = urlsplit(url)
    return _WORD.findall(unquote_plus(parts.path + " " + parts.query))
