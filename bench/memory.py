"""Peak memory of a block of code, as the operating system sees the process (native heaps included: libxml2,
Saxon's, Python's): Linux's ``VmHWM`` (peak resident set size), reset through ``/proc/self/clear_refs`` before the
block, minus the resident set size before it. Elsewhere the peak is ``None`` (not measured).

Blocks nest (``bench.growth`` measures a whole run whose stages ``bench.stage_profile`` measures one by one): the
reset of an inner block would make the kernel forget the outer block's peak so far (and ``ru_maxrss`` with it), so
each block reads ``VmHWM`` before it resets it and hands that peak to the blocks it is inside."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

__all__ = ["PeakMemory", "resident_bytes"]

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def _status_kilobytes(field: str) -> int | None:
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def resident_bytes() -> int | None:
    """The process's resident set size now, in bytes (``None`` where ``/proc`` is missing)."""
    kilobytes = _status_kilobytes("VmRSS")
    return None if kilobytes is None else kilobytes * 1024


#: The blocks being measured, outermost first.
_open: list[PeakMemory] = []


def _note_peak() -> None:
    """Give the kernel's peak since the last reset (``VmHWM``) to every open block."""
    kilobytes = _status_kilobytes("VmHWM")
    if kilobytes is not None:
        for block in _open:
            block.peak_resident = max(block.peak_resident or 0, kilobytes * 1024)


class PeakMemory:
    """``with PeakMemory() as m: ...`` then ``m.peak_bytes``: the most resident memory the process held during the
    block above what it held when the block started, and ``m.peak_resident``: that most, in all (``None`` where it
    cannot be measured). Blocks may nest (see the module docstring)."""

    def __init__(self) -> None:
        self.start: int | None = None
        self.peak_bytes: int | None = None
        self.peak_resident: int | None = None

    @property
    def peak_mb(self) -> float | None:
        return None if self.peak_bytes is None else self.peak_bytes / 1e6

    def __enter__(self) -> PeakMemory:
        _note_peak()  # the enclosing blocks' peak so far, before the reset forgets it
        try:
            _CLEAR_REFS.write_text("5")  # resets VmHWM to the current resident set size
        except OSError:
            return self
        self.start = resident_bytes()
        self.peak_resident = self.start
        _open.append(self)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self not in _open:
            return
        _note_peak()
        _open.remove(self)
        if self.start is not None and self.peak_resident is not None:
            self.peak_bytes = max(0, self.peak_resident - self.start)
