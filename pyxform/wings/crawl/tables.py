"""Converting the tables of each fetched HTML page to XML under ``DIR/xml/`` as pages arrive: the jobs layer's
isolated worker (one child process, reused page after page), run in one thread beside the event loop so that the
crawl never waits for Saxon. A page whose conversion fails is recorded with its reason; the crawl goes on.

The pages are read back from the WARC file (not kept in memory while they wait), so a conversion left pending by an
interrupted crawl is done on resume the same way.
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from ...base.files import atomic_write
from ...base.limits import Limits
from ...base.source import Source
from ...jobs import PageOptions, Worker
from .store import Store

__all__ = ["TableConverter", "ConversionOutcome", "xml_name"]

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")


def xml_name(page_id: int, url: str) -> str:
    """The XML file of a page: ``xml/PAGEID-NAME.xml``, NAME from the URL's last path segment (safe characters)."""
    tail = url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    name = _UNSAFE.sub("_", tail).strip("._")[:60] or "page"
    return f"xml/{page_id:06d}-{name}.xml"


@dataclass(frozen=True)
class ConversionOutcome:
    """What converting one page gave: ``status`` ``ok`` / ``partial`` / ``no-tables`` / ``failed``, the tables
    converted, the XML's path (relative to the crawl folder) and the reason of a failure."""

    page_id: int
    status: str
    tables: int = 0
    xml: str | None = None
    error: str | None = None


class TableConverter:
    """One worker thread that converts pages one after another.

    :param store: the crawl's store (its folder and WARC files; the database is not touched from the thread).
    :param limits: the conversion's limits (``timeout``, ``max_memory``, ...).
    """

    def __init__(self, store: Store, limits: Limits) -> None:
        self.folder = store.folder
        self.store = store
        self.options = PageOptions(limits=limits)  # convert, xml
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyxform-crawl-tables")
        self._worker = Worker(limits)
        self._closing = threading.Event()

    def submit(self, page_id: int, url: str, charset: str | None, warc_file: str, offset: int
               ) -> Future[ConversionOutcome | None]:
        """Queue a page; the future gives its outcome (``None`` if the converter was closed first)."""
        return self._executor.submit(self._convert, page_id, url, charset, warc_file, offset)

    def _convert(self, page_id: int, url: str, charset: str | None, warc_file: str, offset: int
                 ) -> ConversionOutcome | None:
        if self._closing.is_set():
            return None
        response = self.store.read_response(warc_file, offset)
        if response is None:
            return ConversionOutcome(page_id, "failed", error=f"no response record at {warc_file}:{offset}")
        result = self._worker.run(Source(response.body, url, charset), self.options)
        if self._closing.is_set():
            return None
        if result.status in ("ok", "partial") and result.outputs:
            name = xml_name(page_id, url)
            atomic_write(self.folder / name, result.outputs[0].data)
            reason = "; ".join(f"table {f.index}: [{f.code}] {f.message}" for f in result.table_failures) or None
            return ConversionOutcome(page_id, result.status, result.tables, name, reason)
        error = result.error
        reason = f"[{error.code}] {error.message}" if error is not None else "no output"
        return ConversionOutcome(page_id, result.status if result.status != "ok" else "failed", error=reason)

    def close(self, wait: bool) -> None:
        """Stop: finish the queued pages (``wait``), or drop them (they stay pending) and end the worker process."""
        if not wait:
            self._closing.set()
            self._worker.close()  # a page in progress ends at once (its outcome is dropped)
        self._executor.shutdown(wait=True, cancel_futures=not wait)
        self._worker.close()
