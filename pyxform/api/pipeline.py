"""Pipelines of XSLT 3.0 steps (and Python steps) run by one Saxon processor, stylesheets compiled once.

    Step            one step (:mod:`pyxform.runtime.steps`): a built-in stylesheet (``Step.stage("map")``), the
                    user's stylesheet (``Step.xslt("post.xsl", params={...})``), a Python callable on an lxml or XDM
                    tree (``Step.python("fix", function)``), or clean (``Step.clean()``: HTML page -> annotated XHTML)
    Pipeline        an ordered, immutable list of steps with unique names; ``append``, ``insert``, ``replace``,
                    ``remove``, ``until``, ``starting_at`` give new pipelines; ``run`` runs it
    CONVERSION      pyxform's own conversion: clean -> normalize -> headers -> map -> merge
    PipelineResult  the output of a run: the last step's result (``.text``, ``.node``, ``.tree()``), the results of
                    the steps asked for (``.stage(name)``), the ``xsl:message`` texts

**Runtimes and security.** The built-in stylesheets are compiled into one process-wide runtime
(:func:`pyxform.runtime.runner.shared_runtime`), which is then locked: Saxon's ``allowedProtocols`` is empty, so no
stylesheet can read a URI (``doc()``, ``document()``, ``unparsed-text()``, ``collection()``). A pipeline with
stylesheets of the user's gets a runtime of its own, compiled once per process (:func:`pyxform.runtime.runner.
user_runner`). ``Pipeline(..., allow_io=True)`` leaves that runtime unlocked, so the user's stylesheets may read URIs;
it is an explicit opt-in, refused for a pipeline without user stylesheets (pyxform's built-in stylesheets read no URI
and never run unlocked in the shared runtime). How stylesheet failures become pyxform's errors:
:mod:`pyxform.runtime.runner`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..base.errors import BadXmlInput, PyxformError, StepError, StylesheetError
from ..base.limits import DEFAULT_LIMITS, Limits
from ..base.memory import RELEASE_AFTER_BYTES, release_free_memory
from ..base.safexml import is_xml_text, parse_untrusted, parse_xml, read_xml_input, serialize_root
from ..base.source import Source
from ..runtime.params import check_params
from ..runtime.runner import Runner, runner, user_runner
from ..runtime.saxon import XsltMessage
from ..runtime.steps import Params, Step

if TYPE_CHECKING:  # pragma: no cover
    from ..stages.clean import PageLinks

__all__ = ["Step", "Pipeline", "PipelineResult", "CONVERSION"]


def _builtin(*stages: str) -> tuple[Step, ...]:
    return tuple(Step.stage(stage) for stage in stages)


# -- pipelines -----------------------------------------------------------------------------------------------------
class Pipeline:
    """An ordered list of steps, run on one compiled runtime (see the module docstring).

    :param steps: the steps, names unique; a ``clean`` step only first.
    :param allow_io: let the user's stylesheets read URIs (``doc()``, ``unparsed-text()``...): an explicit opt-in,
        only for a pipeline with stylesheets of the user's.
    :raises ValueError: for repeated names, a misplaced ``clean`` step, or ``allow_io`` without user stylesheets.
    """

    def __init__(self, steps: Iterable[Step], *, allow_io: bool = False) -> None:
        self.steps: tuple[Step, ...] = tuple(steps)
        self.allow_io = allow_io
        names = [step.name for step in self.steps]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"step names must be unique; repeated: {', '.join(repeated)}")
        if any(step.kind == "clean" for step in self.steps[1:]):
            raise ValueError("a clean step can only be a pipeline's first step")
        if allow_io and not self.user_stylesheets:
            raise ValueError("allow_io is for pipelines with stylesheets of your own; pyxform's run locked")

    # -- the list ---------------------------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """The step names, in order."""
        return tuple(step.name for step in self.steps)

    @property
    def user_stylesheets(self) -> tuple[Path, ...]:
        """The user's stylesheet files used by the steps, each once, in order."""
        paths = [Path(step.stylesheet) for step in self.steps if step.kind == "xslt" and not step.builtin
                 and step.stylesheet]
        return tuple(dict.fromkeys(paths))

    @property
    def takes_page(self) -> bool:
        """Whether the input is an HTML page (the first step is ``clean``) rather than an XML document."""
        return bool(self.steps) and self.steps[0].kind == "clean"

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, name: str) -> Step:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(f"the pipeline has no step {name!r} (steps: {', '.join(self.names)})")

    def __repr__(self) -> str:
        return f"Pipeline([{', '.join(self.names)}]{', allow_io=True' if self.allow_io else ''})"

    def _position(self, name: str) -> int:
        self[name]  # raises KeyError naming the steps
        return self.names.index(name)

    def _with(self, steps: Iterable[Step]) -> Pipeline:
        return Pipeline(steps, allow_io=self.allow_io)

    def append(self, *steps: Step) -> Pipeline:
        """A new pipeline with ``steps`` after the last step."""
        return self._with(self.steps + steps)

    def insert(self, before: str, *steps: Step) -> Pipeline:
        """A new pipeline with ``steps`` before the step named ``before``. :raises KeyError: no such step."""
        at = self._position(before)
        return self._with(self.steps[:at] + steps + self.steps[at:])

    def insert_after(self, after: str, *steps: Step) -> Pipeline:
        """A new pipeline with ``steps`` after the step named ``after``. :raises KeyError: no such step."""
        at = self._position(after) + 1
        return self._with(self.steps[:at] + steps + self.steps[at:])

    def replace(self, name: str, step: Step) -> Pipeline:
        """A new pipeline with ``step`` in place of the step named ``name``. :raises KeyError: no such step."""
        at = self._position(name)
        return self._with(self.steps[:at] + (step,) + self.steps[at + 1:])

    def remove(self, name: str) -> Pipeline:
        """A new pipeline without the step named ``name``. :raises KeyError: no such step."""
        at = self._position(name)
        return self._with(self.steps[:at] + self.steps[at + 1:])

    def until(self, name: str) -> Pipeline:
        """A new pipeline of the steps up to and including ``name``. :raises KeyError: no such step."""
        return self._with(self.steps[:self._position(name) + 1])

    def starting_at(self, name: str) -> Pipeline:
        """A new pipeline of the steps from ``name`` on. :raises KeyError: no such step."""
        return self._with(self.steps[self._position(name):])

    def allowing_io(self) -> Pipeline:
        """This pipeline with ``allow_io`` (see the class docstring)."""
        return Pipeline(self.steps, allow_io=True)

    # -- running ----------------------------------------------------------------------------------------------------
    def runner(self) -> Runner:
        """The compiled runtime this pipeline runs on: the shared one, or one of its own (compiled on first use and
        cached per process, see the module docstring).

        :raises StylesheetError: if a user stylesheet does not compile (Saxon's code, file and line).
        """
        if not self.user_stylesheets:
            return runner()
        return user_runner(self.user_stylesheets, self.allow_io)

    def run(self, document: Any, *, params: Mapping[str, Params] | None = None, keep: Iterable[str] = (),
            keep_stages: str | os.PathLike[str] | None = None, serialize: bool = False, source: str | None = None,
            limits: Limits = DEFAULT_LIMITS, messages: list[XsltMessage] | None = None) -> PipelineResult:
        """Run the steps in order on ``document``.

        :param document: for a pipeline starting with ``clean``, the HTML page: bytes, text (``str``), a path
            (``os.PathLike``) or a :class:`~pyxform.base.source.Source`. Otherwise an XML document: bytes, XML text
            or a path (``os.PathLike``, or a ``str`` that does not start with ``<``: the rule of ``validate`` and
            ``query``, :func:`pyxform.base.safexml.is_xml_text`), an lxml tree or element, or a ``PyXdmNode`` of
            :meth:`runner`'s runtime.
        :param params: per-run stylesheet parameters by step name, over the steps' own:
            ``{"headers": {"method": "format"}, "post": {"prefix": "x"}}``. Checked before the first step runs
            (:func:`pyxform.runtime.params.check_params`): a parameter a stylesheet of yours does not declare gives a
            :class:`~pyxform.runtime.params.ParameterWarning` (Saxon ignores it).
        :param keep: names of the steps whose result :meth:`PipelineResult.stage` should return.
        :param keep_stages: a folder to write every step's result into, as ``NN-NAME.xml`` (``00-clean.xhtml`` for
            clean; the last step's as serialized), for debugging a pipeline. Created if missing.
        :param serialize: serialize the last step's result with its stylesheet's ``xsl:output`` (method ``json``,
            ``text``, ``html`` ...): :attr:`PipelineResult.text`. Otherwise the result stays a document node and is
            serialized as XML when asked.
        :param source: the input's name, for error locations (default: the ``Source``'s URI or the path).
        :param limits: resource limits for clean (:class:`~pyxform.base.limits.Limits`).
        :param messages: a list that receives each step's ``xsl:message`` texts when the step ends, also when it
            fails (the result's :attr:`~PipelineResult.messages` has them too).
        :returns: a :class:`PipelineResult`.
        :raises KeyError: if ``keep`` names a step the pipeline does not have.
        :raises ParameterError: ``params`` names a step the pipeline does not have, or a built-in step gets a
            parameter it does not declare or a value it cannot take (a :class:`ValueError`).
        :raises StylesheetError: a stylesheet failed (Saxon's code, module and line) or the input is not XML.
        :raises StepError: a Python step raised an exception (its ``__cause__``) or returned no tree.
        :raises NoTableError, TableError: a built-in stylesheet stopped on the input (``px:no-table`` ...).
        :raises InputError, LimitExceeded: from clean.
        :raises OutputError: a ``keep_stages`` file could not be written.
        """
        if not self.steps:
            raise ValueError("the pipeline has no step")
        keep = frozenset(keep)
        for name in keep:
            self[name]
        checked, parameter_warnings = check_params(self.steps, params)
        for warning in parameter_warnings:
            warnings.warn(warning, stacklevel=2)
        run_on = self.runner()
        location = source or None
        if location is None and isinstance(document, Source):
            location = document.uri or None
        elif location is None and (isinstance(document, os.PathLike)
                                   or (isinstance(document, str) and not self.takes_page and not is_xml_text(document))):
            location = os.fspath(document)
        dump = _StageDump(Path(keep_stages)) if keep_stages is not None else None
        messages = [] if messages is None else messages
        first_message = len(messages)
        kept: dict[str, Any] = {}
        links = None
        node: Any = None
        text: str | None = None
        last = len(self.steps) - 1
        for position, step in enumerate(self.steps):
            step_params = checked[step.name]
            if step.kind == "clean":
                # The built-in normalize reads only the tables: when it comes next (and no stage is written out),
                # Saxon gets the tables alone, which give the same grid at half the parsing cost.
                following = self.steps[position + 1] if position < last else None
                tables_only = (dump is None and step.name not in keep and following is not None
                               and following.builtin and following.stylesheet == "normalize")
                cleaned, clean_warnings, links = _clean(document, limits, tables_only=tables_only)
                messages.extend(XsltMessage("clean", warning) for warning in clean_warnings)
                node = run_on.parse(cleaned)
                del cleaned  # the XHTML text is not needed once parsed: free it before the stages run
            else:
                if node is None:
                    node = _xml_input(run_on, document, location)
                if step.kind == "xslt":
                    assert step.stylesheet is not None
                    result = run_on.run(step.stylesheet, node, step_params, location=location, messages=messages,
                                        to_string=serialize and position == last)
                    if isinstance(result, str):
                        text = result
                    else:
                        node = result
                else:
                    node = _run_python(run_on, step, node, location)
            if step.name in keep:
                kept[step.name] = node
            if dump is not None:
                dump.write(position, step, run_on, node if text is None else text)
        return PipelineResult(run_on, node=None if text is not None else node, text=text, kept=kept,
                              messages=messages[first_message:], source=location or "", links=links,
                              last=self.steps[-1])


@dataclass
class _StageDump:
    """Writes each step's result into a folder (``--keep-stages``)."""

    folder: Path

    def write(self, position: int, step: Step, run_on: Runner, result: Any) -> None:
        """:raises OutputError: the folder or the file cannot be written (no permission, disk full, ...)."""
        from ..base.errors import OutputError
        from ..base.files import atomic_write

        text = result if isinstance(result, str) else run_on.serialize(result)
        suffix = ".xhtml" if step.kind == "clean" else ".xml" if text.lstrip().startswith("<") else ".txt"
        path = self.folder / f"{position:02d}-{step.name}{suffix}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write(path, text.encode("utf-8"))
        except OSError as error:
            raise OutputError(f"cannot write the stage {step.name} (--keep-stages): {error.strerror or error}",
                              location=str(path)) from None


def _clean(document: Any, limits: Limits, *, tables_only: bool = False) -> tuple[bytes, list[str], PageLinks]:
    """The annotated XHTML of a page (its tables alone with ``tables_only``), clean's warnings and the page's
    links."""
    from ..stages.clean import clean_tables_to_bytes, clean_for_bytes

    if isinstance(document, os.PathLike):
        from ..base.source import read_source

        document = read_source(document, limits=limits)
    elif isinstance(document, str):
        document = Source(document.encode("utf-8", "surrogatepass"), "", "utf-8")
    elif isinstance(document, (bytes, bytearray, memoryview)):
        document = Source(bytes(document), "", None)
    elif not isinstance(document, Source):
        raise TypeError(f"a pipeline starting with clean takes a page (bytes, str, a path or a Source), not "
                        f"{type(document).__name__}")
    if tables_only:  # the tree never comes here: the cells' features go in as bytes, in document order
        xhtml, warnings, links, _indexes = clean_tables_to_bytes(document, limits)
    else:
        page = clean_for_bytes(document, limits=limits)  # only serialized here: the cells' features go in as bytes
        xhtml = page.to_bytes()  # the page is dropped below
        warnings, links = page.warnings, page.links
        del page  # the page's lxml tree: freed here, released below for a large page before Saxon's heap grows
    if len(xhtml) >= RELEASE_AFTER_BYTES:
        release_free_memory()
    return xhtml, warnings, links


def _xml_input(run_on: Runner, document: Any, location: str | None) -> Any:
    """A document node of ``run_on``'s runtime for an XML input of :meth:`Pipeline.run` (bytes, XML text or a path:
    :func:`pyxform.base.safexml.read_xml_input`, the rule ``validate`` and ``query`` follow)."""
    if isinstance(document, etree._ElementTree | etree._Element):
        document = etree.tostring(document, encoding="utf-8")
    elif isinstance(document, Source):
        document = document.data
    if isinstance(document, bytes | bytearray | str | os.PathLike):  # from outside: lxml (no DTD, entities, network)
        data, name = read_xml_input(document)
        where = location or name
        return run_on.parse(serialize_root(parse_untrusted(data, location=where)), location=where)
    return document  # a PyXdmNode


def _run_python(run_on: Runner, step: Step, node: Any, location: str | None) -> Any:
    """Run a Python step on ``node``; its result as a document node of ``run_on``'s runtime.

    :raises StepError: the callable raised an exception (kept as ``__cause__``; pyxform's own errors pass as they
        are) or returned something other than a tree (``None`` for the lxml tree changed in place).
    """
    assert step.function is not None
    tree: Any = node
    if step.tree == "lxml":
        tree = etree.ElementTree(parse_xml(run_on.serialize(node)))
    try:
        returned = step.function(tree)
    except PyxformError:
        raise
    except Exception as error:
        raise StepError(f"the Python step {step.name!r} failed: {type(error).__name__}: {error}", step=step.name,
                        location=location) from error
    if step.tree == "xdm":
        if returned is None or not hasattr(returned, "node_kind"):
            raise StepError(f"the Python step {step.name!r} returned {type(returned).__name__}, not a document node "
                            "(PyXdmNode) of the pipeline's runtime", step=step.name, location=location)
        return returned
    result = tree if returned is None else returned
    if not isinstance(result, etree._ElementTree | etree._Element):
        raise StepError(f"the Python step {step.name!r} returned {type(result).__name__}, not an lxml tree or element "
                        "(or None after changing the tree in place)", step=step.name, location=location)
    return run_on.parse(etree.tostring(result, encoding="utf-8"))


class PipelineResult:
    """The result of :meth:`Pipeline.run`.

    :ivar source: the input's name (empty if unknown).
    :ivar messages: the ``xsl:message`` texts the steps emitted, as :class:`~pyxform.runtime.saxon.XsltMessage` (``stylesheet``
        is the built-in stage name or the user stylesheet's path).
    :ivar links: for a pipeline that starts with clean, the page's canonical URL, base URL and link targets as
        written (:class:`pyxform.stages.clean.PageLinks`); ``None`` for an XML input.
    """

    def __init__(self, run_on: Runner, *, node: Any, text: str | None, kept: dict[str, Any],
                 messages: list[XsltMessage], source: str, links: PageLinks | None = None,
                 last: Step | None = None) -> None:
        self.runner = run_on
        self._node = node
        self._text = text
        self._kept = kept
        self._last = last
        self.messages = messages
        self.source = source
        self.links = links

    @cached_property
    def text(self) -> str:
        """The last step's result as text: as its stylesheet serialized it (``serialize=True``), else indented XML
        with an XML declaration."""
        return self._text if self._text is not None else self.runner.serialize(self._node)

    @cached_property
    def node(self) -> Any:
        """The last step's result as a document node of the pipeline's runtime (``PyXdmNode``).

        :raises StylesheetError: the result is not XML (a stylesheet with ``method="text"`` or ``"json"``), naming
            that stylesheet.
        """
        if self._node is not None:
            return self._node
        try:
            return self.runner.parse(self.text)
        except BadXmlInput:
            self.tree()  # says why in lxml's words
            raise

    def to_bytes(self) -> bytes:
        """:attr:`text` encoded as UTF-8."""
        return self.text.encode("utf-8")

    def tree(self) -> etree._ElementTree:
        """The last step's result as an lxml tree.

        :raises StylesheetError: the result is not XML (as :attr:`node`).
        """
        if self._text is None:
            return etree.ElementTree(parse_xml(self.runner.serialize(self._node)))
        try:
            return etree.ElementTree(parse_xml(self._text))
        except etree.XMLSyntaxError as error:
            raise self._not_xml(error) from None

    def _not_xml(self, error: etree.XMLSyntaxError) -> StylesheetError:
        """The error of asking for a tree of a result that is text: it names the stylesheet that wrote it."""
        detail = f"{error.msg.rsplit(', line ', 1)[0]} (line {error.lineno})"
        step = self._last
        if step is None or step.stylesheet is None:
            return StylesheetError(f"the result is not XML, so it has no tree: {detail}")
        name = Path(step.stylesheet).name if not step.builtin else f"{step.stylesheet}.xsl"
        return StylesheetError(f"the output of the stylesheet {name} (step {step.name}) is not XML (its xsl:output "
                               f"writes text, JSON or HTML), so it has no tree, schema or JSON: {detail}",
                               location=step.stylesheet)

    def stage(self, name: str) -> Any:
        """The result of the step ``name`` (``PyXdmNode``), if it was named in ``keep``. :raises KeyError:."""
        try:
            return self._kept[name]
        except KeyError:
            raise KeyError(f"the result of step {name!r} was not kept (run(..., keep=[{name!r}]))") from None


#: pyxform's own conversion (:func:`pyxform.convert`): clean -> normalize -> headers -> map -> merge.
CONVERSION = Pipeline((Step.clean(), *_builtin("normalize", "headers", "map", "merge")))

