"""One page's options, frozen and picklable, and the conversion pipeline they choose.

:class:`PageOptions` is what a forked worker, a Dask worker and the crawler ship with each page: the options of
``pyxform convert`` (``grid``, ``headers``) for one page, with its limits. :func:`conversion_pipeline` turns them
into the :class:`~pyxform.api.pipeline.Pipeline` to run and the stylesheet parameters, checked before any page
(:class:`~pyxform.base.errors.UsageError` for options that do not go together or a bad ``[STEP.]NAME=VALUE``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..api.convert import NameStyle
from ..api.pipeline import CONVERSION, Pipeline, Step
from ..base.errors import ParameterError, UsageError
from ..base.limits import DEFAULT_LIMITS, Limits
from ..runtime.params import check_option_params, check_params
from ..runtime.saxon import UntypedAtomic
from ..stages.headers import Method
from ..stages.tabular import DEFAULT_SEPARATOR

__all__ = ["PageOptions", "COMMANDS", "CONVERT_FORMATS", "WING_FORMATS", "PAGE_FORMATS", "DEFAULT_SEPARATOR",
           "conversion_pipeline", "parse_params", "check_bindings"]

#: What a page job runs: the whole conversion, or ``pyxform grid`` / ``pyxform headers`` on the page.
COMMANDS: Final = ("convert", "grid", "headers")
#: Output formats of ``convert`` (one output per page; ``csv``: one per table).
CONVERT_FORMATS: Final = ("xml", "pairs", "json", "csv", "xhtml")
#: Output formats of ``convert`` that the wings read and the command line does not offer: ``tables``, every table's
#: columns, records and context as one JSON document (``Conversion.to_tables_json``; search indexes it).
WING_FORMATS: Final = ("tables",)
#: Output formats of ``grid`` and ``headers``.
PAGE_FORMATS: Final = ("xml", "json")


@dataclass(frozen=True)
class PageOptions:
    """The options of one page job (frozen, picklable: every field is an immutable value).

    :ivar command: ``convert`` (the default), ``grid`` or ``headers``: what runs on the page.
    :ivar table: the one table wanted (``px:index``: 0-based, document order, nested tables counted), or ``None``.
    :ivar names: ``paper`` (elements named after the headers) or ``generic`` (``<field name="...">``).
    :ivar method: header detection: ``auto``, ``markup`` or ``format``.
    :ivar format: ``convert``: ``xml``, ``pairs``, ``json``, ``csv`` or ``xhtml``; ``grid``/``headers``: ``xml`` or
        ``json``.
    :ivar separator: ``csv``: joins the levels of a header path.
    :ivar xslt: stylesheets of the user's run after merge, as absolute paths (``convert``, ``xml`` or ``json``).
    :ivar params: stylesheet parameters as ``[STEP.]NAME=VALUE`` (``--param``); an unqualified ``NAME`` goes to every
        stylesheet of ``xslt``.
    :ivar allow_io: let the ``xslt`` stylesheets read URIs.
    :ivar schema: also generate the XSD of the output (``convert``, ``xml``).
    :ivar keep_stages: a folder to write every step's result into (``NN-STEP.xml``), or ``None``.
    :ivar limits: the page's resource limits (:class:`~pyxform.base.limits.Limits`); ``timeout`` and ``max_memory``
        are enforced by :class:`pyxform.jobs.Worker` (its own ``limits``), not in this process.
    """

    command: Literal["convert", "grid", "headers"] = "convert"
    table: int | None = None
    names: NameStyle = "paper"
    method: Method = "auto"
    format: str = "xml"
    separator: str = DEFAULT_SEPARATOR
    xslt: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    allow_io: bool = False
    schema: bool = False
    keep_stages: str | None = None
    limits: Limits = DEFAULT_LIMITS


def parse_params(bindings: Sequence[str], step_names: Sequence[str], user_steps: Sequence[str]
                 ) -> dict[str, dict[str, Any]]:
    """``[STEP.]NAME=VALUE`` bindings -> parameters by step name (values as
    :class:`~pyxform.runtime.saxon.UntypedAtomic`, which Saxon casts to the declared type). An unqualified ``NAME``
    goes to every user stylesheet (``user_steps``). The values are checked by :func:`check_bindings`.

    :raises UsageError: a binding that is not NAME=VALUE, or that names no stylesheet.
    """
    params: dict[str, dict[str, Any]] = {}
    for binding in bindings:
        name, sep, value = binding.partition("=")
        if not sep or not name:
            raise UsageError(f"--param takes NAME=VALUE, not {binding!r}")
        step, dot, local = name.partition(".")
        if dot and step in step_names and local:
            params.setdefault(step, {})[local] = UntypedAtomic(value)
        elif user_steps:
            for user_step in user_steps:
                params.setdefault(user_step, {})[name] = UntypedAtomic(value)
        else:
            raise UsageError(f"--param {name}=...: no stylesheet of yours takes it; for a step of the pipeline "
                             f"write STEP.NAME=VALUE (steps: {', '.join(step_names)})")
    return params


def check_bindings(pipeline: Pipeline, params: Mapping[str, Mapping[str, Any]], bindings: Sequence[str]) -> list[str]:
    """Check parameter values as the Python API does (:func:`pyxform.runtime.params.check_params`: declared
    parameters, declared types, fixed sets of values of pyxform's steps; none that an option of pyxform's sets,
    :func:`pyxform.runtime.params.check_option_params`).

    :returns: a warning for each parameter your stylesheets do not declare (Saxon ignores it), naming the binding:
        ``--param NAME=VALUE: the stylesheet ... declares no parameter ...``.
    :raises UsageError: naming the binding and what the parameter takes.
    """
    try:
        check_option_params(params, steps={step.name: step.stylesheet or "" for step in pipeline.steps if step.builtin})
        _, found = check_params(pipeline.steps, params)
    except ParameterError as error:
        wanted = f"{error.step}.{error.parameter}"
        binding = next((b for b in reversed(bindings) if b.partition("=")[0] == wanted), f"{wanted}=...")
        raise UsageError(f"--param {binding}: {error.message}") from None
    lines = []
    for warning in found:
        qualified = f"{warning.step}.{warning.parameter}"
        binding = next((b for b in bindings if b.partition("=")[0] in (warning.parameter, qualified)),
                       f"{warning.parameter}=...")
        lines.append(f"--param {binding}: {warning.message}")
    return lines


def conversion_pipeline(options: PageOptions, param_warnings: list[str] | None = None
                        ) -> tuple[Pipeline, dict[str, dict[str, Any]]]:
    """The pipeline ``convert`` runs for ``options`` (:data:`~pyxform.api.pipeline.CONVERSION`, then the ``xslt``
    stylesheets in order, each a step named after its file, ``-2``, ``-3`` ... when names repeat) and the ``params``
    values by step.

    :param param_warnings: receives a warning for each parameter your stylesheets do not declare
        (:func:`check_bindings`).
    :raises UsageError: options that do not go together (``xslt`` with another format than ``xml`` or ``json``,
        ``allow_io`` without ``xslt``), or a bad parameter.
    :raises InputNotFound: an ``xslt`` stylesheet that does not exist.
    """
    xslt, allow_io = list(options.xslt), options.allow_io
    if xslt and options.format not in ("xml", "json"):
        raise UsageError("--xslt post-processes the XML output: it goes with --format xml or json")
    if allow_io and not xslt:
        raise UsageError("--allow-io is for your own stylesheets (--xslt); pyxform's always run without I/O")
    user_steps: list[Step] = []
    for path in xslt:
        step = Step.xslt(path)
        taken = set(CONVERSION.names) | {s.name for s in user_steps}
        if step.name in taken:
            n = 2
            while f"{step.name}-{n}" in taken:
                n += 1
            step = Step.xslt(path, name=f"{step.name}-{n}")
        user_steps.append(step)
    chosen = CONVERSION.append(*user_steps)
    if allow_io:
        chosen = chosen.allowing_io()
    params = parse_params(options.params, chosen.names, [step.name for step in user_steps])
    if params:
        found = check_bindings(chosen, params, options.params)
        if param_warnings is not None:
            param_warnings.extend(found)
    return chosen, params
