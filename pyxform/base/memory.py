"""Freed memory given back to the operating system between stages, so that a large page's peak is not the sum of
its stages' peaks."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Any, Final

__all__ = ["RELEASE_AFTER_BYTES", "release_free_memory"]

#: Annotated XHTML of at least this many bytes (about 50,000 cells) makes the pipeline release clean's freed memory
#: before Saxon parses it (below it the memory is small and reused by the next page).
RELEASE_AFTER_BYTES: Final = 4 * 2**20

_trim: list[Any] = []


def release_free_memory() -> bool:
    """Return the C heap's free memory to the operating system (glibc's ``malloc_trim(0)``).

    After clean, a large page's lxml tree and its cascade are freed, but glibc keeps the freed pages resident
    (measured: 1.6 kB a cell of a 200,000-cell table stays resident, 0.1 kB after this), and the Saxon stages' heap
    would come on top of them.

    :returns: whether it was done (``False`` where the C library has no ``malloc_trim``: not glibc).
    """
    if not _trim:
        function = None
        if sys.platform.startswith("linux"):
            try:
                function = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), "malloc_trim", None)
            except OSError:
                function = None
        _trim.append(function)
    function = _trim[0]
    if function is None:
        return False
    function(0)
    return True
