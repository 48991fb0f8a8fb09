"""Saxon-HE (saxonche) behind one small interface: compile stylesheets once, run them, lock the file system away.

A :class:`SaxonRuntime` owns one ``PySaxonProcessor``. Stylesheets are compiled into it once (and cached by name), then
the runtime is *locked*: Saxon's ``allowedProtocols`` feature is set to the empty list, so ``doc()``, ``document()``,
``collection()``, ``unparsed-text()``, ``xsl:include`` and ``xsl:import`` can no longer reach any URI (``file:``,
``http:`` or other). Saxon makes that setting permanent for the processor, so a locked runtime cannot compile more
stylesheets: every stylesheet a runtime needs is compiled before the lock (see :meth:`SaxonRuntime.compile_all`).
``allowedProtocols`` governs reading only: ``xsl:result-document`` would still write files, so the result documents of
every executable are captured in memory instead (``set_capture_result_documents``). Text given to :meth:`parse` may
not declare a document type (:func:`pyxform.base.safexml.check_prolog`), and the JDK parser's depth, attribute and name
limits are lifted for it (:data:`pyxform.base.safexml.SAXON_PARSER_LIMITS`).
Documents passed between the stylesheets of one runtime stay in memory as ``PyXdmNode`` objects (no serialization).

Built-in stylesheets are loaded with :mod:`importlib.resources` from the ``pyxform.stylesheets`` package data. Every
runtime knows pyxform's XML catalog (:mod:`pyxform.runtime.catalog`), so a user stylesheet can ``xsl:import`` a built-in module
by its public URI (``https://pyxform.invalid/stylesheets/lib/names.xsl``) while it is compiled, offline.

Saxon-HE (saxonche 13) raises a dynamic error with its bare message and prints the detail (error code, module, line,
column) to the process's standard error. :meth:`SaxonRuntime.transform` captures that report (file descriptor 2 is
redirected for the duration of the call, under one process-wide lock) and puts it in the
:class:`~pyxform.base.errors.StylesheetError`; anything else written there meanwhile is passed on unchanged.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any, TypeVar

from ..base.errors import BadXmlInput, StylesheetError
from ..base.safexml import SAXON_PARSER_LIMITS, check_prolog

__all__ = ["SaxonRuntime", "UntypedAtomic", "XsltMessage", "builtin_stylesheet", "builtin_schema", "to_xdm_value",
           "per_process", "ALLOWED_PROTOCOLS"]

#: Saxon's feature that lists the URI schemes a stylesheet or query may read (empty: none).
ALLOWED_PROTOCOLS = "http://saxon.sf.net/feature/allowedProtocols"
#: Saxon's feature that chooses the tree model of the documents it builds (parsed, results, temporary trees), and
#: its value for the condensed tiny tree: equal text and attribute values are stored once. A grid repeats most of its
#: attribute values (``rowspan="1"``, ``tag="td"``, ``bold="false"`` ...), so its documents and the stages' peaks
#: get smaller (10,000 x 20: the normalize stage's peak 755 -> 556 MB, the headers stage's 2,044 -> 1,826 MB).
TREE_MODEL = "http://saxon.sf.net/feature/treeModel"
TINY_TREE_CONDENSED = "2"
_ERROR_CODE = re.compile(r"\b([A-Z]{4}\d{4}|Q\{[^}]*\}[\w.-]+)\b")
_LINE = re.compile(r"on line (\d+)(?: column (\d+))? of ([^\s:]+(?::[^\s:]+)?)")
# Saxon's report of an error: "Error at char 12 in expression in xsl:sequence/@select on line 4 column 47 of a.xsl:"
# then "  FORG0001  Cannot convert string "abc" to an integer" (the code is the local part for a user's error code).
# Also "Error at char 28 (in expression on line 5) of file:/a.xsl" (no colon), and reports without a line. A message
# line without a code ("URI scheme 'file' has been disallowed", "net.sf.saxon.trans.XPathException: ...") has none.
_REPORT = re.compile(r"^(?:Static |Type |Dynamic )?[Ee]rror\b[^\n]*?on line (?P<line>\d+)(?: column (?P<column>\d+))?"
                     r"\)?(?: of (?P<module>[^\n]*?))?:? *\n\s+"
                     r"(?:(?P<code>[A-Z]{4}\d{4}|[A-Za-z][\w-]*:[\w-]+|[a-z][\w-]*)\s+)?(?P<message>[^\n]*)", re.MULTILINE)
_REPORTED_CODE = re.compile(r"^(?:Static |Type |Dynamic )?[Ee]rror\b[^\n]*\n\s+(?P<code>[A-Z]{4}\d{4}|\S+:\S+)\s",
                            re.MULTILINE)

T = TypeVar("T")


def per_process(factory: Callable[[], T]) -> Callable[[], T]:
    """``factory`` made once per process, on the first call, under a lock (compiling takes a second: never twice);
    every later call returns the same object. The one way pyxform keeps a runtime, a runner, a detector or a query
    processor per process."""
    lock = threading.Lock()
    made: list[T] = []

    @functools.wraps(factory)
    def get() -> T:
        if not made:
            with lock:
                if not made:
                    made.append(factory())
        return made[0]

    return get


def _package_file(package: str, name: str, what: str) -> Path:
    """The file system path of a file of pyxform's package data (installed as plain files, so a real path).

    :raises FileNotFoundError: no such file ships with pyxform.
    """
    with as_file(files(package).joinpath(name)) as path:
        if not path.is_file():
            raise FileNotFoundError(f"pyxform has no built-in {what} {name!r}")
        return path


def builtin_stylesheet(name: str) -> Path:
    """Return the file system path of a built-in stylesheet, e.g. ``builtin_stylesheet("normalize.xsl")``.

    :raises FileNotFoundError: if no such stylesheet ships with pyxform.
    """
    return _package_file("pyxform.stylesheets", name, "stylesheet")


def builtin_schema(name: str) -> Path:
    """Return the file system path of a built-in XSD, e.g. ``builtin_schema("grid.xsd")``.

    :raises FileNotFoundError: if no such schema ships with pyxform.
    """
    return _package_file("pyxform.schemas", name, "schema")


def _new_processor() -> Any:
    from .environment import processor_class  # Saxon is loaded lazily: the slowest part of start-up

    processor = processor_class()(license=False)  # the first in a process: with the environment hidden
    for name, value in SAXON_PARSER_LIMITS.items():
        processor.set_configuration_property(name, value)
    processor.set_configuration_property(TREE_MODEL, TINY_TREE_CONDENSED)
    return processor


class UntypedAtomic(str):
    """A stylesheet parameter value given as text (``--param name=value``): passed as ``xs:untypedAtomic``, so Saxon
    casts it to the parameter's declared type (``as="xs:integer"`` takes ``"3"``), as Saxon's own command line does.
    A plain ``str`` is passed as ``xs:string``, which an ``xs:integer`` parameter refuses (XSLT 3.0, 9.3)."""


_capture_lock = threading.RLock()


@per_process
def _capture_file() -> Any:
    """The file standard error goes to during a Saxon call: one per process (the calls take turns,
    :data:`_capture_lock`), closed when the process ends; no runtime has one of its own to leave open. It is empty
    between calls (a call that finds text in it empties it)."""
    file = tempfile.TemporaryFile(buffering=0)
    atexit.register(file.close)
    return file


@contextmanager
def _captured_stderr() -> Iterator[list[str]]:
    """Capture what native code writes to file descriptor 2 during a Saxon call (see the module docstring): yield a
    list that holds, after the block, the text written to standard error during it (Saxon's error reports). Text
    that is not a Saxon error report is written on to the real standard error.

    Most calls write nothing: the file's size tells (one ``fstat``), and only a call that wrote something reads and
    empties the file (a few system calls per Saxon run, which on a small page cost as much as the run's Python)."""
    report: list[str] = []
    with _capture_lock:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError, AttributeError):  # no usable standard error: nothing to capture
            yield report
            return
        file = _capture_file()
        descriptor = file.fileno()
        if os.fstat(descriptor).st_size:  # text left by a call that was interrupted before it emptied the file
            file.seek(0)
            file.truncate()
        os.dup2(descriptor, 2)
        try:
            yield report
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            if os.fstat(descriptor).st_size:
                file.seek(0)
                text = file.read().decode("utf-8", "replace")
                file.seek(0)
                file.truncate()
                if text:
                    report.append(text)
                    if not (_REPORT.search(text) or _REPORTED_CODE.search(text)):
                        sys.stderr.write(text)


@dataclass(frozen=True)
class XsltMessage:
    """One ``xsl:message`` emitted by a stylesheet run."""

    stylesheet: str
    text: str


def _stylesheet_error(exc: BaseException, *, stylesheet: str, action: str, report: str = "") -> StylesheetError:
    """A :class:`StylesheetError` from Saxon's exception and its report on standard error (``report``): the error
    code, and the location as ``module:line:column`` (the module where the error is; ``stylesheet`` if unknown)."""
    text = re.sub(r"\bnet\.sf\.saxon\.[\w.]*Exception: ", "", " ".join(str(exc).split()))  # Java class names
    reported = _REPORT.search(report)
    if reported:
        module = reported.group("module")
        if module and module.rsplit("/", 1)[-1] == Path(stylesheet).name:
            module = stylesheet  # Saxon names the file only; say which one
        location = f"{module or stylesheet}:{reported.group('line')}"
        if reported.group("column"):
            location += f":{reported.group('column')}"
        return StylesheetError(f"{action} failed: {text}", error_code=reported.group("code"), location=location)
    code_match = _ERROR_CODE.search(text) or _REPORTED_CODE.search(report)
    line_match = _LINE.search(text)
    location = stylesheet
    if line_match:
        location = f"{stylesheet}:{line_match.group(1)}" + (f":{line_match.group(2)}" if line_match.group(2) else "")
    return StylesheetError(f"{action} failed: {text}", error_code=code_match.group(1) if code_match else None,
                           location=location)


class SaxonRuntime:
    """One Saxon processor with a set of compiled stylesheets.

    :param allow_io: leave the processor unlocked after compiling, so stylesheets may read URIs with ``doc()`` etc.
        Only for user pipelines whose author asks for it; pyxform's own pipelines never set it.

    Use :meth:`compile_all` once, then :meth:`transform` many times. Not safe for concurrent use from several threads
    without external locking (saxonche needs ``attach_current_thread`` per thread): hold :attr:`lock`.
    """

    def __init__(self, *, allow_io: bool = False) -> None:
        from .catalog import catalog_path

        self.processor = _new_processor()
        self.processor.set_catalog_files([str(catalog_path())])
        self.allow_io = allow_io
        self.locked = False
        self.lock = threading.RLock()
        self._executables: dict[str, Any] = {}
        self.messages: list[XsltMessage] = []

    # -- compiling ------------------------------------------------------------------------------------------------
    def compile_all(self, stylesheets: Mapping[str, Path | str]) -> None:
        """Compile each stylesheet (``name -> path``) and then lock the runtime (unless ``allow_io``).

        :raises StylesheetError: with Saxon's error code, file and line, if a stylesheet does not compile.
        :raises RuntimeError: if the runtime is already locked and a stylesheet is new.
        """
        for name, path in stylesheets.items():
            if name in self._executables:
                continue
            if self.locked:
                raise RuntimeError(f"runtime is locked; cannot compile {name!r}")
            compiler = self.processor.new_xslt30_processor()
            with _captured_stderr() as report:
                try:
                    executable = compiler.compile_stylesheet(stylesheet_file=str(path))
                except Exception as exc:  # saxonche raises PySaxonApiError, which is not importable portably
                    failure: BaseException | None = exc
                else:
                    failure = None
            if failure is not None:
                raise _stylesheet_error(failure, stylesheet=str(path), action="compiling the stylesheet",
                                        report="".join(report)) from None
            if executable is None:
                raise StylesheetError("compiling the stylesheet failed", location=str(path))
            executable.set_save_xsl_message(True)
            if not self.allow_io:  # xsl:result-document writes into memory, never into a file
                executable.set_capture_result_documents(True)
            self._executables[name] = executable
        if not self.allow_io:
            self.lock_io()

    def lock_io(self) -> None:
        """Forbid every URI access (``allowedProtocols`` = none) from now on. Permanent for this processor."""
        self.processor.set_configuration_property(ALLOWED_PROTOCOLS, "")
        self.locked = True

    def has(self, name: str) -> bool:
        return name in self._executables

    # -- documents ------------------------------------------------------------------------------------------------
    def parse(self, xml: str | bytes, *, location: str | None = None) -> Any:
        """Parse well-formed XML text into a ``PyXdmNode`` owned by this runtime's processor.

        :raises BadXmlInput: if the text has a document type declaration (no DTD is ever read) or is not well-formed
            XML (message from Saxon's parser).
        """
        text = xml.decode("utf-8") if isinstance(xml, bytes) else xml
        check_prolog(text, location=location)
        with _captured_stderr():  # Saxon's report of a parse error is in the exception: not printed as well
            try:
                return self.processor.parse_xml(xml_text=text)
            except Exception as exc:
                failure = exc
        raise BadXmlInput(f"not well-formed XML: {' '.join(str(failure).split())}", location=location) from None

    # -- running --------------------------------------------------------------------------------------------------
    def transform(self, name: str, node: Any, params: Mapping[str, Any] | None = None) -> Any:
        """Run the compiled stylesheet ``name`` on ``node`` and return the result document node (``PyXdmNode``).

        :param params: stylesheet parameters by local name (or ``Q{uri}local``); values are Python
            ``str``/``int``/``float``/``bool``, :class:`UntypedAtomic`, or sequences of them, or Saxon ``PyXdmValue``
            objects. A parameter the stylesheet does not declare is ignored.
        :raises StylesheetError: with Saxon's error code and the module, line and column, if the transformation
            fails.
        """
        result = self._run(name, node, params, "transform_to_value")
        if result is None:
            raise StylesheetError("the stylesheet returned an empty result", location=name)
        return result.head

    def transform_to_string(self, name: str, node: Any, params: Mapping[str, Any] | None = None) -> str:
        """Like :meth:`transform`, but serialize the result with the stylesheet's ``xsl:output`` settings."""
        return self._run(name, node, params, "transform_to_string") or ""

    def _run(self, name: str, node: Any, params: Mapping[str, Any] | None, method: str) -> Any:
        executable = self._executables[name]
        executable.clear_parameters()
        for key, value in (params or {}).items():
            executable.set_parameter(key, to_xdm_value(self.processor, value))
        failure: BaseException | None = None
        with _captured_stderr() as report:
            try:
                result = getattr(executable, method)(xdm_node=node)
            except Exception as exc:
                failure = exc
            finally:
                self._collect_messages(name, executable)
                # saxonche's executable keeps the input document (and the parameter values) in its parameter dict
                # until the next run or clear: without this, each stage's input stays alive in Saxon's heap, under
                # the later stages' peak, and the last page's documents stay alive after the run
                executable.clear_parameters()
        if failure is not None:
            raise _stylesheet_error(failure, stylesheet=name, action="running the stylesheet",
                                    report="".join(report)) from None
        return result

    def _collect_messages(self, name: str, executable: Any) -> None:
        messages = executable.get_xsl_messages()
        if messages:
            for message in messages:
                text = str(message)  # serialized: markup kept, but text escaped (&lt;)
                if "<" not in text:  # text only: its string value, unescaped
                    text = getattr(message, "string_value", text)
                self.messages.append(XsltMessage(name, text))
            executable.clear_xsl_messages()


def to_xdm_value(processor: Any, value: Any) -> Any:
    """Convert a Python value to a Saxon ``PyXdmValue`` (str, :class:`UntypedAtomic`, bool, int, float, or an
    iterable of those)."""
    if isinstance(value, bool):
        return processor.make_boolean_value(value)
    if isinstance(value, int):
        return processor.make_integer_value(value)
    if isinstance(value, float):
        return processor.make_double_value(value)
    if isinstance(value, UntypedAtomic):
        return processor.make_atomic_value("untypedAtomic", str(value))
    if isinstance(value, str):
        return processor.make_string_value(value)
    if isinstance(value, Iterable):
        sequence = processor.empty_sequence()  # saxonche 13: PyXdmValue() has no public constructor
        for item in value:
            sequence.add_xdm_item(to_xdm_value(processor, item))
        return sequence
    return value  # already a PyXdmValue
