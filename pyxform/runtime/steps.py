"""One step of a pipeline: a built-in stylesheet, a stylesheet of the user's, a Python callable, or clean.

:class:`pyxform.api.pipeline.Pipeline` runs an ordered list of them on one compiled runtime.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from ..base.errors import InputError, InputNotFound
from .params import check_step_params
from .registry import BUILTIN_STAGES

__all__ = ["Step", "StepKind", "Params"]

StepKind = Literal["clean", "xslt", "python"]
Params = Mapping[str, Any]


@dataclass(frozen=True)
class Step:
    """One step of a :class:`Pipeline`. Make steps with :meth:`stage`, :meth:`xslt`, :meth:`python`, :meth:`clean`.

    :ivar name: unique within a pipeline: the key of ``params`` in :meth:`Pipeline.run`, the file name of
        ``keep_stages``, the argument of ``replace``/``insert``/``remove``.
    :ivar kind: ``xslt`` (a stylesheet), ``python`` (a callable) or ``clean`` (HTML page -> annotated XHTML).
    :ivar stylesheet: for ``xslt``: the built-in stage name (``map``) or the absolute path of the user's stylesheet.
    :ivar builtin: whether the stylesheet is one of pyxform's (:data:`BUILTIN_STAGES`).
    :ivar params: stylesheet parameters by name (``Q{uri}local`` for a parameter in a namespace).
    :ivar function: for ``python``: the callable.
    :ivar tree: for ``python``: ``lxml`` (the callable gets and returns an ``lxml.etree._ElementTree``; it may
        return ``None`` after changing the tree in place) or ``xdm`` (a Saxon ``PyXdmNode`` of the pipeline's
        runtime, returned as one).
    """

    name: str
    kind: StepKind
    stylesheet: str | None = None
    builtin: bool = False
    params: Params = field(default_factory=dict)
    function: Callable[[Any], Any] | None = None
    tree: Literal["lxml", "xdm"] = "lxml"

    @classmethod
    def stage(cls, stage: str, params: Params | None = None, *, name: str | None = None) -> Step:
        """A built-in stylesheet: ``Step.stage("xhtml")``. Stage names: :data:`BUILTIN_STAGES`.

        :param params: the stage's parameters (``docs/stylesheets.md``), checked now (:mod:`pyxform.runtime.params`).
        :raises ValueError: if pyxform has no stage of that name.
        :raises ParameterError: a parameter the stage does not declare, or a value it cannot take.
        """
        if stage not in BUILTIN_STAGES:
            raise ValueError(f"pyxform has no built-in stage {stage!r} (stages: {', '.join(BUILTIN_STAGES)})")
        step = cls(name or stage, "xslt", stage, True, dict(params or {}))
        if params:
            check_step_params(step, step.params)
        return step

    @classmethod
    def xslt(cls, path: str | os.PathLike[str], params: Params | None = None, *, name: str | None = None) -> Step:
        """The user's XSLT 3.0 stylesheet (a file): ``Step.xslt("post.xsl", {"prefix": "x"})``.

        :param name: the step's name (default: the file name without suffix, ``post``).
        :raises InputError: ``path`` is a URL (stylesheets are read from files).
        :raises InputNotFound: if the file does not exist.
        """
        from ..base.source import looks_like_url

        if isinstance(path, str) and looks_like_url(path):
            raise InputError("a stylesheet is read from a file, not a URL: download it (or xsl:import pyxform's "
                             "modules by their public URIs from a local stylesheet)", location=path)
        file = Path(path).resolve()
        if not file.is_file():
            raise InputNotFound("no such stylesheet", location=str(path))
        return cls(name or file.stem, "xslt", str(file), False, dict(params or {}))

    @classmethod
    def python(cls, name: str, function: Callable[[Any], Any], *, tree: Literal["lxml", "xdm"] = "lxml") -> Step:
        """A Python callable on the document: ``function(tree) -> tree | None`` (see :attr:`tree`). When it raises,
        the run stops with a :class:`~pyxform.base.errors.StepError` naming the step, its exception as ``__cause__``."""
        if tree not in ("lxml", "xdm"):
            raise ValueError(f"tree must be 'lxml' or 'xdm', not {tree!r}")
        return cls(name, "python", function=function, tree=tree)

    @classmethod
    def clean(cls) -> Step:
        """Stage 1 (:func:`pyxform.stages.clean.clean`): the HTML page (bytes, text or :class:`~pyxform.base.source.Source`) ->
        annotated XHTML. Only as a pipeline's first step."""
        return cls("clean", "clean")

    def with_params(self, **params: Any) -> Step:
        """This step with more (or other) parameters."""
        return replace(self, params={**self.params, **params})
