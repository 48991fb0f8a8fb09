"""The toolkit's jobs (``pyxform transform``, ``pyxform query``), and the one entry point of every job.

A user's stylesheet can loop forever and a recursive XQuery function can run until the machine gives out, and Saxon
cannot be stopped from a Python thread (:mod:`pyxform.jobs.worker`). So ``transform`` and ``query`` run as jobs, as
pages do: :class:`TransformOptions` and :class:`QueryOptions` (frozen, picklable) go to :func:`run_job` in this process
or to :meth:`pyxform.jobs.Worker.run` in a child stopped after ``limits.timeout`` or ``limits.max_memory``. Their
result is a :class:`~pyxform.jobs.page.PageResult`: the transformation's output, or the query's lines, as the one
``Output``; the stylesheet's ``xsl:message`` texts, or the files of a folder that were skipped, as ``messages``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from ..api.pipeline import Pipeline, Step
from ..base.errors import PyxformError, UsageError
from ..base.source import Source
from ..runtime.environment import environment_allowed
from ..stages.query import query
from .options import PageOptions, parse_params
from .page import Output, PageResult, bug_result, page_result, prepare

__all__ = ["TransformOptions", "QueryOptions", "JobOptions", "run_job", "job_result", "prepare_job", "job_noun"]


@dataclass(frozen=True)
class TransformOptions:
    """``pyxform transform``: one stylesheet of the user's on one XML document (the job's source).

    :ivar stylesheet: the stylesheet's absolute path.
    :ivar params: its parameters as ``NAME=VALUE`` (``--param``), cast by Saxon to their declared types.
    :ivar allow_io: let the stylesheet read URIs (and the environment).
    """

    stylesheet: str
    params: tuple[str, ...] = ()
    allow_io: bool = False
    command: Literal["transform"] = "transform"


@dataclass(frozen=True)
class QueryOptions:
    """``pyxform query``: an XPath 3.1 or XQuery 3.1 expression over the files the job's source names (its ``uri``: a
    file or a folder, read by the job; its ``data`` is not used).

    :ivar expression: the expression. :ivar xquery: it is XQuery. :ivar namespaces: ``(prefix, uri)`` bindings.
    :ivar text: string values only (else nodes as XML).
    """

    expression: str
    xquery: bool = False
    namespaces: tuple[tuple[str, str], ...] = ()
    text: bool = False
    command: Literal["query"] = "query"


#: What a job is: a page's (convert, grid, headers), a transformation or a query.
JobOptions = PageOptions | TransformOptions | QueryOptions


def job_noun(options: JobOptions) -> str:
    """What the job works on, for messages: ``page``, ``transformation`` or ``query``."""
    return {"transform": "transformation", "query": "query"}.get(options.command, "page")


def prepare_job(options: JobOptions) -> Any:
    """Check a job's options before any input: :func:`pyxform.jobs.page.prepare` for a page, the parameters for a
    transformation (``None`` for a query).

    :raises UsageError: options that cannot be served (a parameter that is not ``NAME=VALUE``).
    :raises InputError, InputNotFound: the stylesheet is a URL or does not exist.
    """
    if isinstance(options, PageOptions):
        return prepare(options)
    if isinstance(options, TransformOptions):
        step = Step.xslt(options.stylesheet)
        return Pipeline([step], allow_io=options.allow_io), parse_params(options.params, [], [step.name])
    if isinstance(options, QueryOptions):
        return None
    raise UsageError(f"a job's options are PageOptions, TransformOptions or QueryOptions, not {type(options).__name__}")


def job_result(source: Source, options: JobOptions, prepared: Any = None, *, started: float | None = None
               ) -> PageResult:
    """One job in this process, its errors as the result (:func:`pyxform.jobs.page.page_result` for a page); any
    exception that is not pyxform's (a bug, ``MemoryError``) is raised.

    :param prepared: what :func:`prepare_job` gave for ``options``, if known.
    """
    started = time.monotonic() if started is None else started
    if isinstance(options, PageOptions):
        return page_result(source, options, pipeline=prepared, started=started)
    if prepared is None and isinstance(options, TransformOptions):
        prepared = prepare_job(options)
    messages: list[Any] = []
    try:
        if isinstance(options, TransformOptions):
            pipeline, params = prepared
            with environment_allowed(options.allow_io):  # environment-variable() too, as Saxon's own command line
                result = pipeline.run(source.data, params=params, serialize=True, source=source.uri or None,
                                      messages=messages)
            output = result.to_bytes()
            status = "ok"
        else:
            found = query(source.uri, options.expression, xquery=options.xquery, namespaces=dict(options.namespaces))
            output = "".join(line if line.endswith("\n") else line + "\n"
                             for line in found.lines(text=options.text)).encode("utf-8")
            messages = [f"{skipped.path}: skipped: {skipped.message}" for skipped in found.skipped]
            status = "partial" if found.skipped else "ok"
    except PyxformError as error:
        return PageResult(source.uri, "failed", messages=_texts(messages), error=error,
                          seconds=time.monotonic() - started)
    return PageResult(source.uri, status, (Output(None, output),), messages=_texts(messages),  # type: ignore[arg-type]
                      seconds=time.monotonic() - started)


def _texts(messages: list[Any]) -> tuple[str, ...]:
    return tuple(getattr(message, "text", message) for message in messages)


def run_job(source: Source, options: JobOptions) -> PageResult:
    """Run one job in this process, as :func:`pyxform.jobs.run_page` runs a page (which it does for a
    :class:`~pyxform.jobs.PageOptions`): never raises for what the input causes (a bug is ``failed`` with
    :class:`~pyxform.base.errors.InternalError`).

    :raises UsageError, PyxformError: the options cannot be served (:func:`prepare_job`), before the input is read.
    """
    started = time.monotonic()
    prepared = prepare_job(options)
    try:
        return job_result(source, options, prepared, started=started)
    except Exception as error:  # a bug: recorded with the input, never raised into a batch
        return bug_result(source.uri, error, started)
