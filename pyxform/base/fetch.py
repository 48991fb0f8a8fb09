"""Fetching an http(s) page safely: scheme, address, redirect, size and time checks (httpx).

Rules (issue "hardening", URL input):

- only ``http`` and ``https`` URLs, on the first request and on every redirect;
- the host is resolved once per hop and *every* address it resolves to must be a global (public) address; private,
  loopback, link-local, shared (CGNAT), multicast, reserved and unspecified addresses (and IPv4-mapped IPv6 forms of
  them, and IPv6 forms that carry one: NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) are refused unless
  ``allow_private=True``. The connection then goes to the checked address (the ``Host``
  header and the TLS server name keep the URL's host name), so a second DNS answer cannot swap in another address;
- redirects are followed by hand (at most :data:`MAX_REDIRECTS`), each hop checked as above;
- the body is streamed and the download stops as soon as it passes ``limits.max_fetch_bytes`` (counted after content
  decoding, so a compressed bomb stops too); the whole fetch must finish within ``limits.fetch_timeout`` seconds;
- no proxy from the environment (it would bypass the address check), no cookies kept.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from typing import Final

import httpx

from .errors import FetchError, ForbiddenAddress, UnsupportedScheme
from .limits import DEFAULT_LIMITS, Limits

__all__ = ["fetch", "check_address", "resolve_checked", "pinned", "MAX_REDIRECTS", "USER_AGENT"]

MAX_REDIRECTS: Final = 10
USER_AGENT: Final = "pyxform/0.1"
_REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached; its local-use prefix
#: (RFC 8215) reaches a network's own IPv4 addresses.
_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL: Final = ipaddress.IPv6Network("64:ff9b:1::/48")


def check_address(address: IPAddress, *, allow_private: bool = False, location: str | None = None) -> None:
    """Refuse a non-public address.

    :param address: an address a host name resolved to (or a literal one).
    :param allow_private: allow private, loopback, link-local and other non-global addresses.
    :raises ForbiddenAddress: the address is not global and ``allow_private`` is false.
    """
    if allow_private:
        return
    effective: IPAddress = address
    refused = False
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
        effective = embedded or address
        # the local-use NAT64 prefix, IPv4-compatible and other reserved forms (not 2000::/3) reach no public host
        refused = embedded is None and (address in _NAT64_LOCAL or address.is_reserved)
    if refused or not effective.is_global or effective.is_multicast:
        raise ForbiddenAddress(
            f"refused: {address} is a private, loopback, link-local or reserved address "
            "(allow it with allow_private=True)",
            location=location,
        )


def _check_url(url: httpx.URL, location: str, redirected_from: str | None = None) -> None:
    """:raises UnsupportedScheme: a scheme other than http(s), the URL shown as given (``location``)."""
    if url.scheme not in ("http", "https"):
        scheme = f"scheme {url.scheme!r}" if url.scheme else "no scheme"
        via = f" (the redirect of {redirected_from})" if redirected_from else ""
        hint = "; for a local file give its path" if url.scheme == "file" and not redirected_from else ""
        raise UnsupportedScheme(f"unsupported URL: {scheme}{via}; pyxform fetches http and https URLs only{hint}",
                                location=location)
    if not url.host:
        raise FetchError("the URL has no host", location=location)


def resolve_checked(url: httpx.URL, *, allow_private: bool, location: str,
                    redirected_from: str | None = None) -> IPAddress:
    """Resolve ``url``'s host, check every address, and return the one to connect to.

    :param location: the URL as given (or as the redirect gave it), for the errors.
    :raises UnsupportedScheme: a scheme other than http(s).
    :raises ForbiddenAddress: any resolved address is not allowed.
    :raises FetchError: the host name does not resolve.
    """
    _check_url(url, location, redirected_from)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(url.host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchError(f"cannot resolve host {url.host!r}: {error}", location=location) from error
    addresses = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]
    if not addresses:
        raise FetchError(f"host {url.host!r} has no address", location=location)
    for address in addresses:
        check_address(address, allow_private=allow_private, location=location)
    return addresses[0]


def pinned(url: httpx.URL, address: IPAddress) -> tuple[httpx.URL, dict[str, str], dict[str, str]]:
    """The request URL aimed at ``address`` (from :func:`resolve_checked`), with the ``Host`` header and the TLS
    server name (an httpx request extension) of the original host, so that the connection goes to the checked
    address.

    :returns: ``(request URL, headers, extensions)`` for an httpx request.
    """
    literal = f"[{address}]" if address.version == 6 else str(address)
    host_header = url.host if url.port is None else f"{url.host}:{url.port}"
    extensions = {"sni_hostname": url.host} if url.scheme == "https" else {}
    return url.copy_with(host=literal.strip("[]")), {"Host": host_header}, extensions


def fetch(url: str, *, limits: Limits = DEFAULT_LIMITS, allow_private: bool = False,
          client: httpx.Client | None = None) -> tuple[bytes, str, str | None]:
    """GET ``url`` under the rules of the module docstring.

    :param url: an ``http://`` or ``https://`` URL.
    :param limits: ``fetch_timeout`` (seconds for the whole fetch) and ``max_fetch_bytes`` (body size cap).
    :param allow_private: allow non-public addresses (tests, intranets).
    :param client: an httpx client to use (default: a new one with ``trust_env=False``).
    :returns: ``(body bytes, final URL after redirects, charset of the Content-Type header or None)``.
    :raises UnsupportedScheme: a scheme other than http(s), on any hop (the URL shown as given).
    :raises ForbiddenAddress: a refused address, on any hop.
    :raises FetchError: network error, HTTP error status, too many redirects, size or time cap passed.
    """
    deadline = time.monotonic() + limits.fetch_timeout
    try:
        current = httpx.URL(url)
    except httpx.InvalidURL as error:
        raise FetchError(f"not a valid URL: {error}", location=url) from None
    given, redirected_from = url, None
    own_client = client is None
    if client is None:
        client = httpx.Client(trust_env=False, follow_redirects=False, timeout=httpx.Timeout(limits.fetch_timeout),
                              headers={"User-Agent": USER_AGENT, "Accept": "text/html,*/*;q=0.5"})
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            location = str(current)
            if current.scheme not in ("http", "https"):  # shown as given: httpx writes file:///x as file:/x
                location = given
            address = resolve_checked(current, allow_private=allow_private, location=location,
                                      redirected_from=redirected_from)
            request_url, headers, extensions = pinned(current, address)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FetchError(f"no answer within {limits.fetch_timeout} s (limit fetch_timeout)", location=location)
            try:
                with client.stream("GET", request_url, headers=headers, extensions=extensions,
                                   timeout=httpx.Timeout(remaining)) as response:
                    if response.status_code in _REDIRECTS and "location" in response.headers:
                        given, redirected_from = response.headers["location"], location
                        current = current.join(given)
                        continue
                    if response.status_code >= 400:
                        raise FetchError(f"HTTP status {response.status_code} {response.reason_phrase}",
                                         location=location)
                    body = bytearray()
                    for chunk in response.iter_bytes():
                        body += chunk
                        if len(body) > limits.max_fetch_bytes:
                            raise FetchError(f"response larger than {limits.max_fetch_bytes} bytes "
                                             "(limit max_fetch_bytes)", location=location)
                        if time.monotonic() > deadline:
                            raise FetchError(f"download took longer than {limits.fetch_timeout} s "
                                             "(limit fetch_timeout)", location=location)
                    return bytes(body), location, response.charset_encoding
            except httpx.TimeoutException as error:
                raise FetchError(f"no answer within {limits.fetch_timeout} s (limit fetch_timeout)",
                                 location=location) from error
            except httpx.HTTPError as error:
                raise FetchError(f"fetch failed: {error}", location=location) from error
        raise FetchError(f"more than {MAX_REDIRECTS} redirects", location=url)
    finally:
        if own_client:
            client.close()
