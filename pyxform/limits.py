"""Resource limits: defaults that real pages never reach, each raisable by an option.

A limit that is hit raises :class:`pyxform.errors.LimitExceeded` naming the limit (for a page) or records a
``px:table-failure`` with code ``limit`` (for one table; the page's other tables go on).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits", "DEFAULT_LIMITS"]


@dataclass(frozen=True)
class Limits:
    """Resource limits for one page.

    :ivar max_page_bytes: largest page accepted, in bytes (the largest of the 440 Wikipedia pages of the corpus is
        under 2 MB).
    :ivar max_slots: most slots (rows x columns after span expansion) in one table.
    :ivar max_depth: deepest nesting of tables inside table cells.
    :ivar max_tables: most ``table`` elements in one page.
    :ivar fetch_timeout: seconds allowed for fetching a URL (connect + read).
    :ivar max_fetch_bytes: largest HTTP response body accepted, in bytes.
    """

    max_page_bytes: int = 64 * 1024 * 1024
    max_slots: int = 4_000_000
    max_depth: int = 64
    max_tables: int = 20_000
    fetch_timeout: float = 30.0
    max_fetch_bytes: int = 64 * 1024 * 1024


DEFAULT_LIMITS = Limits()
