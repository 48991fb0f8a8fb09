"""One HTTP request at a time, the downloader's job (asyncio and httpx): pyxform's address checks
(:mod:`pyxform.base.fetch`: http(s) only, every address the host resolves to checked, the connection pinned to the
checked address), a time limit for the whole request, a body size cap counted after content decoding, and the
answer as it came: redirects are not followed here (the crawl loop queues their targets, so that each hop is checked,
counted and polite).

Every body is read (up to the cap; an error page's up to :data:`ERROR_BODY_BYTES`) for the WARC file; only HTML
answers (``text/html``, ``application/xhtml+xml``, or no ``Content-Type`` and a body that starts like HTML) are
parsed.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timezone
from email.utils import parsedate_to_datetime
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Final

import httpx

from ...base.errors import FetchError
from ...base import warc
from ...base.warc import SNIFF_BYTES
from ...base.fetch import pinned, resolve_checked

__all__ = ["Answer", "Fetcher", "USER_AGENT", "ROBOTS_TOKEN", "is_html", "is_page", "retry_after", "REDIRECTS", "OVERLOADED",
           "ERROR_BODY_BYTES"]

try:
    _VERSION = version("pyxform")
except PackageNotFoundError:  # pragma: no cover - a checkout that was not installed
    _VERSION = "0"
#: The product token robots.txt rules are matched against.
ROBOTS_TOKEN: Final = "pyxform"
USER_AGENT: Final = f"{ROBOTS_TOKEN}/{_VERSION} (focused crawler; +https://pypi.org/project/pyxform/)"
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})
#: The most of an error page's body (4xx, 5xx, redirects) that is read and stored.
ERROR_BODY_BYTES: Final = 64 * 1024
#: Answers that say the server is overloaded: its host is paused (Retry-After, else the backoff).
OVERLOADED: Final = frozenset({429, 503})


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks to wait (RFC 9110, section 10.2.3: a number of seconds or an HTTP
    date), ``None`` if absent or unreadable; never negative.

    :param now: the current Unix time (for a date; default the clock's).
    """
    if not value or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def is_html(content_type: str | None, body_start: bytes = b"") -> bool:
    """Whether an answer is an HTML page: its media type, else (no ``Content-Type``) WHATWG sniffing of its first
    bytes (:func:`pyxform.base.warc.is_html`, the rule the WARC readers apply)."""
    return warc.is_html(content_type, None, body_start)


def is_page(status: int | None, content_type: str | None, body_start: bytes = b"") -> bool:
    """Whether an answer is a page to read (links, relevance, tables): status 200 or 203, the 2xx codes whose content
    is the whole representation (RFC 9110 section 15.3; :data:`pyxform.base.warc.PAGE_STATUSES`), and HTML."""
    return str(status) in warc.PAGE_STATUSES and is_html(content_type, body_start)


@dataclass
class Answer:
    """What one request gave.

    :ivar url: the URL requested.
    :ivar status: the HTTP status, or ``None`` when no answer came (see ``error``).
    :ivar headers: the response headers, in order.
    :ivar body: the body (decoded of its content coding; empty when not downloaded).
    :ivar error: why the request failed (no answer, a cap passed), else ``None``.
    :ivar retryable: the failure may pass on a later try (5xx, 429, a time-out, a dropped connection).
    :ivar sent: a request went out (it counts as a fetch); false when the address check refused the host or it
        did not resolve.
    :ivar html: the answer is a whole HTML page (2xx, an HTML media type or no type and a body that starts like
        HTML).
    :ivar truncated: why the body is not whole (``length``, ``time``, ``disconnect``, ``unspecified``: the values of
        the WARC-Truncated field), else ``None``.
    :ivar address: the IP address the request went to.
    :ivar started, ended: Unix times of the request's start and of the answer's end.
    """

    url: str
    status: int | None = None
    reason: str = ""
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    error: str | None = None
    retryable: bool = False
    sent: bool = False
    html: bool = False
    truncated: str | None = None
    address: str | None = None
    request_line: str = ""
    request_headers: list[tuple[str, str]] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)

    @property
    def retry_after(self) -> float | None:
        """Seconds the server asks to wait before the next request (``Retry-After`` of a 429 or 503), or ``None``."""
        return retry_after(self.header("retry-after"), self.ended or None) if self.status in OVERLOADED else None

    @property
    def content_type(self) -> str | None:
        return self.header("content-type")

    @property
    def location(self) -> str | None:
        """The absolute target of a redirect, or ``None``."""
        if self.status in REDIRECTS:
            target = self.header("location")
            if target:
                try:
                    return str(httpx.URL(self.url).join(target.strip()))
                except (httpx.InvalidURL, ValueError):
                    return None
        return None


class Fetcher:
    """An httpx ``AsyncClient`` with pyxform's checks (the module docstring); an async context manager.

    :param allow_private: let requests reach non-public addresses.
    :param timeout: seconds one request may take, connection to last byte.
    :param max_bytes: the largest body downloaded (after content decoding).
    :param connections: the connection pool's size.
    """

    def __init__(self, *, allow_private: bool, timeout: float, max_bytes: int, connections: int = 8) -> None:
        self.allow_private = allow_private
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.client = httpx.AsyncClient(trust_env=False, follow_redirects=False, timeout=httpx.Timeout(timeout),
                                        limits=httpx.Limits(max_connections=connections),
                                        headers={"User-Agent": USER_AGENT,
                                                 "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"})

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()

    async def check(self, url: str) -> tuple[httpx.URL, dict[str, str], dict[str, str]]:
        """Resolve and check ``url``'s host (in a thread: DNS blocks) and aim the request at the checked address.

        :raises ForbiddenAddress, UnsupportedScheme, FetchError: as :func:`pyxform.base.fetch.resolve_checked`.
        """
        try:
            target = httpx.URL(url)
        except httpx.InvalidURL as error:
            raise FetchError(f"not a valid URL: {error}", location=url) from None
        address = await asyncio.to_thread(resolve_checked, target, allow_private=self.allow_private, location=url)
        return pinned(target, address)

    async def get(self, url: str, aimed: tuple[httpx.URL, dict[str, str], dict[str, str]], *,
                  max_bytes: int | None = None) -> Answer:
        """Send one GET for ``url`` (already :meth:`check`-ed) and read the answer under the caps.

        Every body is read (it goes to the WARC file), an error page's up to :data:`ERROR_BODY_BYTES`. A body cut
        short keeps what was read, with why in ``truncated`` (``length``: over the cap; ``time``: the time limit;
        ``disconnect``: the connection dropped); an HTML page over the cap is a failure (``error``), any other body
        is stored in part.

        :param max_bytes: a smaller body cap for this request (robots.txt).
        """
        request_url, headers, extensions = aimed
        answer = Answer(url, started=time.time(), sent=True, address=request_url.host)
        cap = self.max_bytes if max_bytes is None else max_bytes
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout):
                async with self.client.stream("GET", request_url, headers=headers,
                                              extensions=extensions) as response:
                    answer.status, answer.reason = response.status_code, response.reason_phrase
                    answer.headers = list(response.headers.multi_items())
                    answer.request_line = f"GET {httpx.URL(url).raw_path.decode('ascii')} HTTP/1.1"
                    answer.request_headers = list(response.request.headers.multi_items())
                    if response.status_code >= 500 or response.status_code == 429:
                        answer.retryable = True
                        answer.error = f"HTTP status {response.status_code} {response.reason_phrase}"
                    ok = 200 <= response.status_code < 300
                    limit = cap if ok else min(cap, ERROR_BODY_BYTES)
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > limit:
                            del body[limit:]
                            answer.truncated = "length"
                            break
                    answer.html = is_page(response.status_code, answer.content_type, bytes(body[:SNIFF_BYTES]))
                    if answer.html and answer.truncated and max_bytes is None:
                        answer.error = f"response larger than {cap} bytes (limit max_fetch_bytes)"
        except TimeoutError:
            answer.error, answer.retryable = f"no complete answer within {self.timeout:g} s (limit fetch_timeout)", True
            answer.truncated = "time" if answer.status is not None else None
        except httpx.DecodingError as error:
            answer.error = f"the body cannot be decoded: {error}"
            answer.truncated = "unspecified" if answer.status is not None else None
        except httpx.TransportError as error:
            answer.error, answer.retryable = f"connection failed: {error or type(error).__name__}", True
            answer.truncated = "disconnect" if answer.status is not None else None
        if answer.error is not None and answer.status is not None and answer.truncated:
            answer.html = False
        answer.body = bytes(body)
        answer.ended = time.time()
        return answer
