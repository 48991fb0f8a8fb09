"""What passes between :class:`pyxform.jobs.Worker` and its child process, over two pipes
(``multiprocessing.connection`` framing).

To the child, per page: the page's URI, transport charset and :class:`~pyxform.jobs.options.PageOptions` (pickled:
the parent is trusted), then the page's bytes. Back to the parent: a JSON header, then each output's bytes, the
schema's, and the error pickled. The parent reads what a child that handled hostile input sends, so it unpickles
errors only, with an unpickler that finds no class but pyxform's exceptions (:func:`loads_error`): a child that
misbehaves cannot make the parent run code.
"""

from __future__ import annotations

import io
import json
import pickle
from multiprocessing.connection import Connection
from typing import Any

from ..base import errors
from ..base.errors import PyxformError
from .page import Output, PageResult, TableFailureInfo

__all__ = ["send_result", "receive_result", "send_error", "dumps_error", "loads_error"]


class _ErrorUnpickler(pickle.Unpickler):
    """Finds only the exception classes of :mod:`pyxform.base.errors` (and the function that rebuilds them)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == errors.__name__:
            found = getattr(errors, name, None)
            if found is errors._restore or (isinstance(found, type) and issubclass(found, BaseException)):
                return found
        raise pickle.UnpicklingError(f"the worker sent {module}.{name}, which is not one of pyxform's errors")


def dumps_error(error: BaseException) -> bytes:
    """A pyxform error (or :class:`~pyxform.base.errors.UsageError`) pickled."""
    return pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL)


def loads_error(data: bytes) -> BaseException:
    """:raises pickle.UnpicklingError: the bytes name anything but one of pyxform's errors."""
    return _ErrorUnpickler(io.BytesIO(data)).load()


def send_result(outbox: Connection, result: PageResult) -> None:
    """Send a page's result: the header, then each output's bytes, the schema's and the pickled error."""
    header = {"status": result.status, "messages": list(result.messages), "tables": result.tables,
              "table_failures": [[f.index, f.code, f.message, f.locator, f.limit] for f in result.table_failures],
              "seconds": result.seconds, "outputs": [output.table for output in result.outputs],
              "schema": result.schema is not None, "error": result.error is not None}
    outbox.send_bytes(json.dumps(header).encode("utf-8"))
    for output in result.outputs:
        outbox.send_bytes(output.data)
    if result.schema is not None:
        outbox.send_bytes(result.schema)
    if result.error is not None:
        outbox.send_bytes(dumps_error(result.error))


def send_error(outbox: Connection, kind: str, error: BaseException | None = None) -> None:
    """Send an answer that is not a page's result: ``raise`` (the options' error, raised in the parent) or
    ``memory`` (the child ran out of memory)."""
    outbox.send_bytes(json.dumps({kind: True}).encode("utf-8"))
    if error is not None:
        outbox.send_bytes(dumps_error(error))


def receive_result(inbox: Connection, header: dict[str, Any], source: str) -> PageResult:
    """The rest of a page's result after its ``header`` (:func:`send_result`).

    :raises EOFError, OSError: the child died while sending.
    :raises pickle.UnpicklingError: the error it sent is not one of pyxform's.
    """
    outputs = tuple(Output(table, inbox.recv_bytes()) for table in header.get("outputs", []))
    schema = inbox.recv_bytes() if header.get("schema") else None
    error = loads_error(inbox.recv_bytes()) if header.get("error") else None
    if error is not None and not isinstance(error, PyxformError):
        raise pickle.UnpicklingError(f"the worker sent {type(error).__name__} as a page's error")
    failures = tuple(TableFailureInfo(int(index), str(code), str(message), str(locator),
                                      str(limit) if limit is not None else None)
                     for index, code, message, locator, limit in header.get("table_failures", []))
    return PageResult(source, header["status"], outputs, schema, tuple(header.get("messages", [])),
                      int(header.get("tables", 0)), failures, error, float(header.get("seconds", 0.0)))
