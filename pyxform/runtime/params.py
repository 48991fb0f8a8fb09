"""Stylesheet parameters, checked before a pipeline runs: one set of checks for the Python API and the command line.

Saxon accepts a global parameter that a stylesheet does not declare without a word, and a value of the wrong type
fails only once the stage runs, with an error that points into a module. So pyxform checks the parameters of every
step before the first one runs (:meth:`pyxform.api.pipeline.Pipeline.run`, :func:`pyxform.convert`, ``pyxform convert
--param`` and ``pyxform transform --param`` all call :func:`check_params`; :func:`pyxform.detect_headers` calls
:func:`check_stage_params`):

- a parameter for a step the pipeline does not have: :class:`~pyxform.base.errors.ParameterError`;
- a step running one of pyxform's stylesheets (``Step.stage``): the parameter must be declared by the stage (its
  driver or a module it includes: :func:`pyxform.runtime.registry.stage_parameter_declarations`); the value must be of the
  declared type: a Python value of that kind (``int`` for ``xs:integer``, ``int`` or ``float`` for ``xs:double``
  and ``xs:decimal``, ``bool`` for ``xs:boolean``, ``str`` for ``xs:string``), or text in the type's lexical form
  (XSD 1.0), which Saxon then casts (passed as ``xs:untypedAtomic``, as ``--param`` values are); and a parameter
  that takes one of a fixed set of values (``px:values`` in its declaration, e.g. ``headers.method``: ``auto``,
  ``markup``, ``format``) must get one of them. Otherwise :class:`~pyxform.base.errors.ParameterError` naming the step,
  the parameter and what it takes;
- a step running a stylesheet of the user's (``Step.xslt``): Saxon ignores a parameter the stylesheet does not
  declare, so a :class:`ParameterWarning` (not an error) says so when the parameter is not a global ``xsl:param`` of
  the stylesheet or of a module it includes or imports. Modules are followed by their ``href``: relative to the
  including file, or one of pyxform's public URIs (:mod:`pyxform.runtime.catalog`); a module reached otherwise (another URL,
  ``xsl:use-package``), or a stylesheet that cannot be read, leaves the declared parameters unknown: no warning.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from lxml import etree

from ..base.errors import ParameterError
from ..base.safexml import parse_file
from .registry import OPTION_PARAMETERS, PIPELINE_STYLESHEETS, stage_parameter_declarations
from .saxon import UntypedAtomic

__all__ = ["ParameterWarning", "check_params", "check_option_params", "check_step_params", "check_stage_params",
           "check_value",
           "declared_parameters", "EXPECTED"]


class StepLike(Protocol):
    """What the checks read of a step (:class:`pyxform.runtime.steps.Step`)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def stylesheet(self) -> str | None: ...
    @property
    def builtin(self) -> bool: ...
    @property
    def params(self) -> Mapping[str, Any]: ...


class ParameterWarning(UserWarning):
    """A parameter given to a stylesheet of the user's that the stylesheet does not declare (Saxon ignores it).

    :ivar step: the step's name. :ivar parameter: the parameter's name. :ivar stylesheet: the stylesheet's path.
    """

    def __init__(self, message: str, *, step: str, parameter: str, stylesheet: str) -> None:
        super().__init__(message)
        self.message = message
        self.step = step
        self.parameter = parameter
        self.stylesheet = stylesheet


#: The lexical forms (XSD 1.0) of the atomic types pyxform's stage parameters are declared with.
_LEXICAL_FORMS: dict[str, re.Pattern[str]] = {
    "xs:integer": re.compile(r"\s*[+-]?\d+\s*"),
    "xs:decimal": re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*"),
    "xs:double": re.compile(r"\s*(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)\s*"),
    "xs:boolean": re.compile(r"\s*(?:true|false|1|0)\s*"),
}
#: What a value of each checked type looks like, for the error message.
EXPECTED: dict[str, str] = {
    "xs:integer": "a whole number (e.g. 3)",
    "xs:decimal": "a number (e.g. 2.5)",
    "xs:double": "a number (e.g. 2.5 or 1e3)",
    "xs:boolean": "true or false",
    "xs:string": "text",
}


def _show(value: Any) -> str:
    return repr(str(value)) if isinstance(value, str) else f"{value!r} ({type(value).__name__})"


def _one_of(values: Iterable[str]) -> str:
    values = list(values)
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


def check_value(step: str, name: str, declared_type: str, values: tuple[str, ...], value: Any) -> Any:
    """Check one value of a parameter of a built-in step (rules: the module docstring) and return it as it is to
    be passed to Saxon: text for a typed parameter as :class:`~pyxform.runtime.saxon.UntypedAtomic` (Saxon casts it), a
    whole ``float`` for ``xs:integer`` as ``int``, anything else unchanged.

    :param declared_type: the parameter's ``as`` (``xs:double``, ``xs:integer?``, ...); a type not listed in
        :data:`EXPECTED` is not checked.
    :param values: the fixed set of values the parameter takes (``px:values``), or ``()``.
    :raises ParameterError: naming ``step.name``, its type or values, and the value given.
    """
    base = declared_type.rstrip("?")
    if value is None and declared_type.endswith(("?", "*")):
        return value
    if values:
        if not isinstance(value, str) or str(value) not in values:
            raise ParameterError(f"{step}.{name} takes {_one_of(values)}; {_show(value)} is none of them",
                                 step=step, parameter=name)
        return value
    expected = EXPECTED.get(base)
    if expected is None:
        return value
    if isinstance(value, str):
        if base == "xs:string":
            return value
        if _LEXICAL_FORMS[base].fullmatch(value):
            return UntypedAtomic(value)
    elif base == "xs:integer" and isinstance(value, int) and not isinstance(value, bool):
        return value
    elif base == "xs:integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    elif base == "xs:double" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    elif base == "xs:decimal" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value if isinstance(value, int) else UntypedAtomic(repr(value))
    elif base == "xs:boolean" and isinstance(value, bool):
        return value
    raise ParameterError(f"{step}.{name} is {declared_type}, {expected}; {_show(value)} is not a value of that type",
                         step=step, parameter=name)


def check_stage_params(stage: str | None, params: Mapping[str, Any], *, step: str | None = None) -> dict[str, Any]:
    """Check the parameters of one of pyxform's stages (rules: the module docstring).

    :param stage: the built-in stage (:data:`pyxform.runtime.registry.BUILTIN_STAGES`), or ``None`` for a step that takes
        no parameter (clean).
    :param step: the step's name in the messages (default: ``stage``).
    :returns: the parameters as they are to be passed to Saxon (:func:`check_value`).
    :raises ParameterError: a parameter the stage does not declare, or a value it cannot take.
    """
    name_of_step = step or stage or "clean"
    declared = stage_parameter_declarations(stage) if stage is not None else {}
    checked = {}
    for name, value in params.items():
        declaration = declared.get(name)
        if declaration is None:
            known = ", ".join(sorted(declared)) if declared else "none"
            raise ParameterError(f"the {name_of_step} step has no parameter {name!r} (its parameters: {known})",
                                 step=name_of_step, parameter=name)
        checked[name] = check_value(name_of_step, name, declaration.type, declaration.values, value)
    return checked


def check_option_params(params: Mapping[str, Mapping[str, Any]] | None, *, steps: Mapping[str, str] | None = None
                        ) -> None:
    """Refuse, among parameters of the user's by step name, one that an option of pyxform's sets
    (:data:`pyxform.runtime.registry.OPTION_PARAMETERS`: ``map.names`` is ``names=``, ``headers.table`` is ``table=``).

    :param steps: the built-in stage each step runs, by step name; the other steps (stylesheets of the user's) are not
        checked. Default: each step is the stage of its name.
    :raises ParameterError: naming the step, the parameter and the option that sets it; or, for a parameter the stage
        does not declare, listing the parameters that are the user's (those no option sets).
    """
    for step, values in (params or {}).items():
        stage = step if steps is None else steps.get(step)
        if stage is None:
            continue
        owned = OPTION_PARAMETERS.get(stage, {})
        for name in values:
            option = owned.get(name)
            if option is not None:
                raise ParameterError(f"{step}.{name} is not a parameter of yours: pyxform's option {option} sets it",
                                     step=step, parameter=name)
            builtin = stage in dict(PIPELINE_STYLESHEETS)
            if not (builtin or stage in ("", "clean")):  # no stage of pyxform's: its own check says more
                continue
            declared = stage_parameter_declarations(stage) if builtin else {}
            if name not in declared:  # listing the parameters that are the user's, not those the options set
                known = ", ".join(sorted(set(declared) - set(owned))) or "none"
                raise ParameterError(f"the {step} step has no parameter {name!r} (its parameters: {known})",
                                     step=step, parameter=name)


def check_step_params(step: StepLike, params: Mapping[str, Any]) -> tuple[dict[str, Any], list[ParameterWarning]]:
    """Check the parameters of one step (rules: the module docstring).

    :returns: the parameters as they are to be passed to Saxon (:func:`check_value`), and a warning for each
        parameter a user stylesheet does not declare.
    :raises ParameterError: a parameter a built-in step does not declare, or a value it cannot take.
    """
    if step.kind == "python" or (step.kind == "xslt" and not step.builtin and not params):
        return dict(params), []
    if step.kind == "clean" or step.builtin:
        return check_stage_params(step.stylesheet if step.kind == "xslt" else None, params, step=step.name), []
    assert step.stylesheet is not None
    found = declared_parameters(Path(step.stylesheet))
    if found is None:
        return dict(params), []
    warnings = []
    for name in params:
        if name not in found:
            known = ", ".join(sorted(found)) if found else "none"
            warnings.append(ParameterWarning(
                f"the stylesheet {Path(step.stylesheet).name} (step {step.name}) declares no parameter {name!r} "
                f"(its parameters: {known}): it is ignored", step=step.name, parameter=name,
                stylesheet=step.stylesheet))
    return dict(params), warnings


def check_params(steps: Iterable[StepLike], params: Mapping[str, Mapping[str, Any]] | None
                 ) -> tuple[dict[str, dict[str, Any]], list[ParameterWarning]]:
    """Check the parameters of a pipeline's steps: each step's own (``Step.params``) with ``params`` (by step name)
    over them.

    :returns: every step's parameters as they are to be passed to Saxon, by step name, and the warnings.
    :raises ParameterError: ``params`` names a step the pipeline does not have, or :func:`check_step_params` refuses
        a parameter.
    """
    steps = list(steps)
    names = [step.name for step in steps]
    for name in params or {}:
        if name not in names:
            raise ParameterError(f"the pipeline has no step {name!r} (its steps: {', '.join(names)})", step=name)
    checked: dict[str, dict[str, Any]] = {}
    warnings: list[ParameterWarning] = []
    for step in steps:
        step_params, step_warnings = check_step_params(step, {**step.params, **(params or {}).get(step.name, {})})
        checked[step.name] = step_params
        warnings += step_warnings
    return checked, warnings


# -- the parameters a user's stylesheet declares -------------------------------------------------------------------
_XSL = "{http://www.w3.org/1999/XSL/Transform}"
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def declared_parameters(path: Path) -> frozenset[str] | None:
    """The global parameters (``xsl:param`` children of ``xsl:stylesheet``/``xsl:transform``) of a stylesheet file
    and of the modules it includes or imports, as names (``local`` without namespace, ``Q{uri}local`` with one), or
    ``None`` when they cannot be known (see the module docstring). Read once per file version (path, modification
    time, size)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return _declared_parameters(str(path.resolve()), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=64)
def _declared_parameters(path: str, mtime_ns: int, size: int) -> frozenset[str] | None:
    names: set[str] = set()
    return frozenset(names) if _collect(Path(path), names, set()) else None


def _collect(path: Path, names: set[str], seen: set[Path]) -> bool:
    """Add the global parameters of ``path`` and its modules to ``names``; ``False`` if some module is unknown."""
    if path in seen:
        return True
    seen.add(path)
    try:
        root = parse_file(path)
    except (OSError, etree.XMLSyntaxError):
        return False
    if root.tag not in (_XSL + "stylesheet", _XSL + "transform", _XSL + "package"):
        return root.tag is not None and not str(root.tag).startswith(_XSL)  # a simplified stylesheet: no params
    known = True
    for element in root:
        if element.tag == _XSL + "param":
            names.add(_expanded_name(element, element.get("name", "")))
        elif element.tag in (_XSL + "include", _XSL + "import"):
            href = element.get("href", "")
            if _URI.match(href):
                from .catalog import resolve_uri

                module = resolve_uri(href)
                if module is None:
                    known = False
                    continue
            else:
                module = path.parent / href
            known = _collect(module.resolve(), names, seen) and known
        elif element.tag == _XSL + "use-package":
            known = False
    return known


def _expanded_name(element: etree._Element, name: str) -> str:
    """``local`` for a name without prefix, ``Q{uri}local`` for ``prefix:local`` (or an EQName as written)."""
    if name.startswith("Q{"):
        return name if not name.startswith("Q{}") else name[3:]
    prefix, colon, local = name.partition(":")
    if not colon:
        return name
    uri = element.nsmap.get(prefix)
    return f"Q{{{uri}}}{local}" if uri else name
