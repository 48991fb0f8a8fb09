"""The page link graph and its PageRank: each page's URL, its links resolved against it, and the stationary
distribution of the random surfer over the indexed pages (scipy sparse matrices, power iteration).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final
from urllib.parse import urljoin, urlsplit, urlunsplit

__all__ = ["page_url", "resolve_links", "url_key", "pagerank", "DAMPING"]

#: The PageRank damping factor (Brin & Page 1998: the surfer follows a link with probability 0.85).
DAMPING: Final = 0.85
_SCHEMES: Final = ("http", "https", "file")


def page_url(*, canonical: str | None, fetched: str | None, path: str | None) -> str | None:
    """The URL that names a page in the link graph and in the ``url`` field.

    Order: its canonical link (RFC 6596), resolved against the URL it was fetched from; else that URL (a WARC
    record's ``WARC-Target-URI``, a crawl's page URL); else its file as a ``file:`` URI; else ``None``. A canonical
    link that does not resolve to an ``http(s)``/``file`` URL is ignored.
    """
    base = fetched or (Path(path).resolve().as_uri() if path else None)
    if canonical:
        resolved = _resolve(base, canonical)
        if resolved is not None:
            return resolved
    return base


def _resolve(base: str | None, href: str) -> str | None:
    try:
        url = urljoin(base or "", href)
        parts = urlsplit(url)
    except ValueError:  # a malformed URL (bad IPv6 literal, port out of range ...)
        return None
    if parts.scheme.lower() not in _SCHEMES or (parts.scheme.lower() != "file" and not parts.hostname):
        return None
    return urlunsplit(parts._replace(fragment=""))


def resolve_links(hrefs: Iterable[str], *, url: str | None, base: str | None = None) -> list[str]:
    """The ``http(s)``/``file`` URLs the ``hrefs`` of a page name, resolved (HTML's "document base URL": the
    ``base href`` resolved against the page's URL, else the page's URL), fragments dropped, each once, in order.
    ``javascript:``, ``mailto:`` and unparsable hrefs are dropped."""
    document_base = url
    if base:
        document_base = _resolve(url, base) or url
    seen: dict[str, None] = {}
    for href in hrefs:
        resolved = _resolve(document_base, href)
        if resolved is not None:
            seen.setdefault(resolved, None)
    return list(seen)


def url_key(url: str | None) -> str | None:
    """A URL as a node of the link graph: two URLs with the same key are one page. Scheme ``http``/``https``
    ignored, host lower-cased, default port and fragment dropped, percent-encoding and query order normalized
    (``w3lib.url.canonicalize_url``), an empty path as ``/``."""
    if not url:
        return None
    from w3lib.url import canonicalize_url

    try:
        canonical = canonicalize_url(url, keep_fragments=False)
        parts = urlsplit(canonical)
    except (ValueError, UnicodeError):
        return None
    scheme = "http" if parts.scheme in ("http", "https") else parts.scheme
    host = (parts.hostname or "").lower()
    port = parts.port
    if port is not None and not ((parts.scheme == "http" and port == 80) or (parts.scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    return urlunsplit((scheme, host, parts.path or "/", parts.query, ""))


def pagerank(edges: Sequence[tuple[int, int]], nodes: int, *, damping: float = DAMPING, tolerance: float = 1e-10,
             max_iterations: int = 200) -> list[float]:
    """PageRank of ``nodes`` pages (Brin & Page 1998; Langville & Meyer, "Deeper inside PageRank", 2004, eq. 1).

    The random surfer follows an out-link chosen uniformly with probability ``damping`` and jumps to a page chosen
    uniformly otherwise; a page without out-links (dangling) jumps uniformly. Power iteration on the transposed
    row-stochastic link matrix (``scipy.sparse`` CSR), until the L1 change is below ``tolerance``.

    :param edges: ``(source, target)`` node numbers in ``range(nodes)``; repeats count once, self-links are dropped.
    :returns: one score per node, summing to 1 (empty for no nodes).
    """
    if nodes == 0:
        return []
    import numpy as np
    from scipy import sparse

    pairs = {(a, b) for a, b in edges if a != b and 0 <= a < nodes and 0 <= b < nodes}
    if pairs:
        rows, cols = (np.fromiter(values, dtype=np.int64, count=len(pairs)) for values in zip(*sorted(pairs)))
    else:
        rows = cols = np.zeros(0, dtype=np.int64)
    out_degree = np.bincount(rows, minlength=nodes).astype(float)
    weights = 1.0 / out_degree[rows] if len(rows) else np.zeros(0)
    # M[target, source] = 1 / outdegree(source): rank flows along links
    matrix = sparse.csr_matrix((weights, (cols, rows)), shape=(nodes, nodes))
    dangling = out_degree == 0
    rank = np.full(nodes, 1.0 / nodes)
    for _ in range(max_iterations):
        new = damping * (matrix @ rank) + (damping * rank[dangling].sum() + 1.0 - damping) / nodes
        change = np.abs(new - rank).sum()
        rank = new
        if change < tolerance:
            break
    rank /= rank.sum()
    return rank.tolist()
