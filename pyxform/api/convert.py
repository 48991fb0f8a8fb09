"""Convert one page's tables into XML: clean -> normalize -> headers -> map -> merge (Zhang & Li 2007).

:func:`convert` is a pure function of one page's bytes and its options, cheap to call many times in one process:
it runs :data:`pyxform.api.pipeline.CONVERSION` (or a pipeline of the caller's built from it), every stylesheet compiled
once per process, the documents passing between the stages in memory.
:func:`convert_grid` starts from a header-annotated grid (``docs/formats.md`` sections 2 and 3) instead of a page.
The result, a :class:`Conversion`, gives the output XML, the attribute-value pairs and an XSD for the output.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from lxml import etree

from ..base.errors import NoTableError
from ..base.limits import DEFAULT_LIMITS, Limits
from ..base.safexml import parse_xml, serialize_root
from ..base.source import Source
from ..runtime.params import check_option_params, check_params, check_stage_params
from ..stages.grid_input import read_grid_input
from ..stages.headers import METHODS, Method
from ..stages.normalize import TableFailure
from ..stages.tabular import TabularTable, read_tabular
from .pipeline import CONVERSION, Pipeline, PipelineResult, Step

if TYPE_CHECKING:  # pragma: no cover
    from ..stages.clean import PageLinks

__all__ = ["Conversion", "Pair", "convert", "convert_grid", "NAME_STYLES", "NameStyle", "HEADER_METHODS"]

#: Values of ``names``: element names from the header text (the paper's) or ``<field name="...">``.
NameStyle = Literal["paper", "generic"]
NAME_STYLES: tuple[str, ...] = get_args(NameStyle)
#: Values of ``method``: how the headers stage finds the header rows and columns (``pyxform.stages.headers``).
HEADER_METHODS = METHODS

Pair = dict[str, Any]

_PX = "{urn:pyxform}"


class Conversion:
    """The result of converting one page (or one annotated grid).

    :ivar source: the page's file name or URL as given (empty for bytes without a name).
    :ivar table: the index of the one table converted, or ``None`` for all tables.
    :ivar names: ``"paper"`` or ``"generic"``.
    :ivar messages: the warnings of clean (bytes replaced in decoding, an overruled charset, ...) and the
        ``xsl:message`` texts the stages emitted (data problems repaired on the way).
    :ivar result: the :class:`~pyxform.api.pipeline.PipelineResult` of the conversion pipeline.
    """

    def __init__(self, result: PipelineResult, *, grid: Any, table: int | None, names: str,
                 unannotated: tuple[Any, dict[str, Any]] | None = None) -> None:
        self.result = result
        self._grid = grid
        # the grid before the headers stage and that stage's parameters, when the conversion ran headers and map as
        # one stage (headers-map.xsl): the annotated grid is made from them when first asked for
        self._unannotated = unannotated
        self._runner = result.runner
        self.source = result.source
        self.table = table
        self.names = names
        self.messages = [message.text for message in result.messages]

    @property
    def xml(self) -> str:
        """The output XML, indented, with an XML declaration: a ``<pyxform>`` document element holding each table's
        element, or (with ``table``) that table's element alone. See ``docs/mapping.md``. (With a
        pipeline whose last step is a stylesheet of yours, its output as that stylesheet serializes it.)"""
        return self.result.text

    def to_bytes(self) -> bytes:
        """The output XML encoded as UTF-8."""
        return self.xml.encode("utf-8")

    def tree(self) -> etree._ElementTree:
        """The output as an lxml tree (e.g. for :func:`pyxform.stages.query.xpath`)."""
        return self.result.tree()

    @property
    def grid(self) -> Any:
        """The header-annotated grid (``docs/formats.md`` sections 2 and 3) as a document node of the pipeline's
        runtime. :raises ValueError: if the conversion pipeline has no ``headers`` step."""
        if self._grid is None and self._unannotated is not None:
            node, params = self._unannotated
            self._grid = self._runner.run("headers", node, params, location=self.source or None)
        if self._grid is None:
            raise ValueError("the conversion pipeline has no headers step, so there is no annotated grid")
        return self._grid

    @property
    def _tables(self) -> Any:
        """A grid with the tables and table failures of :attr:`grid` (the headers stage copies both as they are): the
        grid before that stage when the annotated one has not been made."""
        return self._unannotated[0] if self._grid is None and self._unannotated is not None else self.grid

    def table_indexes(self) -> list[int]:
        """The indexes (``px:index``) of the tables converted, in document order (with ``table``: that one, if it was
        converted)."""
        indexes = self._runner.table_indexes(self._tables)
        return [index for index in indexes if index == self.table] if self.table is not None else indexes

    def table_failures(self) -> list[TableFailure]:
        """The tables of the page that could not be converted (``px:table-failure``: a limit, a table the table
        model could not build), in document order (with ``table``: that one's failure, if it failed)."""
        failures = [TableFailure(**row) for row in self._runner.table_failures(self._tables)]
        return [failure for failure in failures if failure.index == self.table] if self.table is not None else failures

    def _from_grid(self, stage: str, params: Mapping[str, Any] | None = None) -> str:
        return self._runner.run_to_string(stage, self.grid, {"table": -1 if self.table is None else self.table,
                                                            **(params or {})}, location=self.source or None)

    def pairs(self) -> list[Pair]:
        """The attribute-value pairs of the data cells (Zhang & Li 2007, section 5), one dict per data slot::

            {"table": 0, "row": 2, "col": 1, "row_headers": ["Males"], "col_headers": ["Average", "Height"],
             "value": "1.78"}

        ``row``/``col`` are the slot's 0-based grid coordinates; header texts are as written, outermost / top first,
        without empty headers and with a header spanning several header rows or columns once; a data cell spanning
        several slots gives one pair per slot whose headers differ (``stylesheets/lib/slots.xsl``). A data cell
        holding tables has ``"nested": [index, ...]`` as well. With ``table``, only that table's pairs.
        """
        return list(self.iter_pairs())

    def iter_pairs(self) -> Iterator[Pair]:
        """Like :meth:`pairs`, one pair at a time."""
        root = parse_xml(self._from_grid("pairs"))
        for element in root.iterchildren(_PX + "pair"):
            pair: Pair = {
                "table": int(element.get("table", "0")),
                "row": int(element.get("row", "0")),
                "col": int(element.get("col", "0")),
                "row_headers": [child.text or "" for child in element.iterchildren(_PX + "row-header")],
                "col_headers": [child.text or "" for child in element.iterchildren(_PX + "column-header")],
                "value": element.findtext(_PX + "value") or "",
            }
            nested = [int(child.get("index", "0")) for child in element.iterchildren(_PX + "nested")]
            if nested:
                pair["nested"] = nested
            yield pair

    def pairs_jsonl(self) -> str:
        """The pairs as JSON Lines (one object a line, UTF-8 text, keys in the order shown by :meth:`pairs`)."""
        return "".join(json.dumps(pair, ensure_ascii=False) + "\n" for pair in self.iter_pairs())

    def schema(self) -> str:
        """An XSD 1.0 schema generated for this output (``stylesheets/schema.xsl``): the output validates against
        it. See :func:`pyxform.stages.schema.generate_schema`."""
        return self._runner.run_to_string("schema", self.result.node, location=self.source or None)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The output as JSON nested like the XML (``stylesheets/json.xsl``; ``docs/formats.md`` section 5): an
        object per element with children, arrays for elements that repeat, values as written.

        :param indent: spaces per level (``None``: one line)."""
        text = self._runner.run_to_string("json", self.result.node, location=self.source or None)
        if indent is None:
            return text
        return json.dumps(json.loads(text), ensure_ascii=False, indent=indent) + "\n"

    def to_xhtml(self) -> str:
        """Each converted table rendered back as a clean, accessible XHTML table (``stylesheets/xhtml.xsl``:
        caption, ``thead``, ``th`` with ``scope`` and ``id``, ``td`` with ``headers``), one XHTML page."""
        return self._from_grid("xhtml")

    def tables(self) -> list[TabularTable]:
        """Each table as columns and records (``stylesheets/tabular.xsl``; see :mod:`pyxform.stages.tabular`): header
        paths, row header columns and one record per data row, for CSV files and DataFrames."""
        return read_tabular(self._from_grid("tabular"))

    @property
    def links(self) -> PageLinks:
        """The page's canonical URL, base URL and link targets (``a``/``area`` ``href``), as written in it
        (:class:`pyxform.stages.clean.PageLinks`; empty for a conversion from a grid document, which has no page)."""
        if self.result.links is None:
            from ..stages.clean import PageLinks

            return PageLinks()
        return self.result.links

    def to_tables_json(self, *, indent: int | None = None) -> str:
        """Every table of the page as one JSON document of columns, records and their context: what a search index
        or a table catalogue needs, with no further pass over the page (``docs/formats.md`` section 5, "Tables")::

            {"source": "page.html", "title": "…", "canonical": "https://…" | null, "base": null,
             "links": ["//en.wikipedia.org/wiki/X", …],
             "tables": [{"index": 0, "parent": null, "depth": 0, "locator": "/html/body/table[1]",
                         "heading": "…" | null, "caption": "…" | null, "hidden": false,
                         "header_rows": 1, "header_cols": 0, "header_method": "markup",
                         "columns": [{"kind": "data", "col": 0, "levels": ["Year"]}, …],
                         "records": [["1999", …], …], "rows": [1, …], "notes": ["Source: …", …],
                         "xml": "<table-name px:table=\"0\" …>…"}, …],
             "failures": [{"index": 7, "code": "limit", "message": "…"}]}

        ``tables`` are in index order (nested tables included, ``parent`` the index of the table they sit in);
        ``columns``/``records``/``rows``/``notes`` are :meth:`tables`' (:class:`~pyxform.tabular.TabularTable`:
        ``notes`` the texts of the note rows, a source line or a footnote after the data, which are not records);
        ``xml`` is the table's element in the output XML (:attr:`xml`; a nested table's element as it sits in its
        cell), with its namespace declarations; ``links`` are :attr:`links`' ``hrefs``, unresolved.

        :param indent: spaces per level (``None``: one line).
        """
        tabular = self._from_grid("tabular")
        root = parse_xml(tabular)
        elements = {element.get(_PX + "table"): element for element in self.tree().iter()
                    if isinstance(element.tag, str) and element.get(_PX + "table") is not None}
        tables = []
        for table in read_tabular(tabular):
            element = elements.get(str(table.index))
            tables.append({
                "index": table.index, "parent": table.parent_table, "depth": table.depth, "locator": table.locator,
                "heading": table.heading, "caption": table.caption, "hidden": table.hidden,
                "header_rows": table.header_rows, "header_cols": table.header_cols,
                "header_method": table.header_method,
                "columns": [{"kind": column.kind, "col": column.col, "levels": list(column.levels)}
                            for column in table.columns],
                "records": [list(record) for record in table.records], "rows": list(table.rows),
                "notes": list(table.notes),
                "xml": None if element is None else etree.tostring(element, encoding="unicode", with_tail=False)})
        links = self.links
        document = {
            "source": root.get("source", self.source), "title": root.get("title", ""),
            "canonical": links.canonical, "base": links.base, "links": list(links.hrefs), "tables": tables,
            "failures": [{"index": int(failure.get("index", "0")), "code": failure.get("code", ""),
                          "message": failure.get("message", "")}
                         for failure in root.iterchildren(_PX + "table-failure")]}
        return json.dumps(document, ensure_ascii=False, indent=indent) + "\n"


def _check_options(table: int | None, names: str, method: str) -> None:
    if table is not None and (not isinstance(table, int) or table < 0):
        raise ValueError(f"table must be a table index >= 0 or None, not {table!r}")
    if names not in NAME_STYLES:
        raise ValueError(f"names must be one of {', '.join(NAME_STYLES)}, not {names!r}")
    if method not in HEADER_METHODS:
        raise ValueError(f"method must be one of {', '.join(HEADER_METHODS)}, not {method!r}")


def _check_user_params(chosen: Pipeline, params: Mapping[str, Mapping[str, Any]] | None) -> None:
    """:raises ParameterError: ``params`` sets a stage parameter one of the options sets (``map.names``: ``names``),
    or one the pipeline does not take (:func:`pyxform.runtime.params.check_params`)."""
    check_option_params(params, steps={step.name: step.stylesheet or "" for step in chosen.steps if step.builtin})
    check_params(chosen.steps, params)


def convert(data: bytes | str | os.PathLike[str] | Source, *, table: int | None = None,
            names: NameStyle = "paper", method: Method = "auto", source: str | None = None,
            limits: Limits = DEFAULT_LIMITS, pipeline: Pipeline | None = None,
            params: Mapping[str, Mapping[str, Any]] | None = None,
            keep_stages: str | os.PathLike[str] | None = None, keep_grid: bool = False) -> Conversion:
    """Convert the tables of one HTML page into XML.

    :param data: the page: bytes (any encoding; decoded by clean), its decoded HTML text (``str``: always markup,
        never a file name), the path of an HTML file (``os.PathLike``, e.g. ``pathlib.Path``: read with
        :func:`pyxform.base.source.read_source`, as :func:`pyxform.grid` and :func:`pyxform.headers` read it), or a
        :class:`~pyxform.base.source.Source` (bytes, URI and transport charset, as :func:`pyxform.base.source.read_source`
        reads files, standard input and URLs).
    :param table: the index of one table (``px:index``: 0-based, document order, nested tables counted) to convert
        alone, or ``None`` for every table.
    :param names: ``"paper"``: elements named after the header text (Zhang & Li's ``population-statistics``);
        ``"generic"``: ``<table name="...">``, ``<field name="...">`` for headers that make poor names.
    :param method: header detection: ``"auto"`` (markup where the table has it, else formatting), ``"markup"`` or
        ``"format"`` (see :mod:`pyxform.stages.headers`).
    :param source: the page's file name or URL, recorded as provenance and used to resolve links (default: the
        ``Source``'s URI or the path, else empty).
    :param limits: resource limits (:class:`pyxform.base.limits.Limits`).
    :param pipeline: the conversion pipeline (default :data:`~pyxform.api.pipeline.CONVERSION`: clean, normalize,
        headers, map, merge), e.g. ``CONVERSION.append(Step.xslt("post.xsl"))``; it must start with ``clean``.
    :param params: stylesheet parameters by step name, over those the options above set
        (``{"headers": {"threshold": 4}, "post": {"prefix": "x"}}``), checked before anything runs
        (:func:`pyxform.runtime.params.check_params`, as ``pyxform convert --param`` checks them).
    :param keep_stages: a folder to write every step's result into (:meth:`~pyxform.api.pipeline.Pipeline.run`).
    :param keep_grid: keep the header-annotated grid that :meth:`Conversion.pairs`, :meth:`~Conversion.tables`,
        :meth:`~Conversion.to_xhtml` and :attr:`~Conversion.grid` read. Without it the default pipeline runs headers
        and map as one stage (``headers-map.xsl``: the same XML, ~13% less time) and the grid is made when first
        asked for, which runs header detection again; pass ``True`` when you will read those outputs.
    :returns: a :class:`Conversion`.
    :raises NoTableError: the page has no table, or ``table`` names none (a ``str`` of one line without markup, such
        as a file name, is said to be one).
    :raises LimitExceeded: ``table`` names a table over ``max_slots`` or ``max_depth``.
    :raises TableError: ``table`` names a table that normalize could not build for another reason.
    :raises InputNotFound: ``data`` is a path that does not exist or cannot be read.
    :raises LimitExceeded, InputError: from clean and normalize (page too large, undecodable, ...).
    :raises StylesheetError: a stylesheet failed (for pyxform's own, a bug: please report it with the page).
    :raises ParameterError: ``params`` names a step the pipeline does not have, a parameter a built-in step does not
        declare, or a value it cannot take (a :class:`ValueError`, naming step, parameter and what it takes), or a
        parameter one of the options above sets (``map.names`` is ``names``, ``headers.table`` is ``table``:
        :data:`pyxform.runtime.registry.OPTION_PARAMETERS`).
    :raises ValueError: for an option outside the values above.
    :raises TypeError: ``data`` is not bytes, str, a path or a Source.
    """
    _check_options(table, names, method)
    chosen = CONVERSION if pipeline is None else pipeline
    if not chosen.takes_page:
        raise ValueError(f"a conversion pipeline starts with clean; this one starts with {chosen.names[0]!r}")
    _check_user_params(chosen, params)
    if isinstance(data, os.PathLike):
        from ..base.source import read_source

        data = read_source(data, limits=limits)
    if isinstance(data, Source):
        page_source = data if source is None else replace(data, uri=source)
    elif isinstance(data, str):
        if "<" not in data and data.strip() and "\n" not in data.strip():  # no markup: no table; a file name?
            raise NoTableError(f"the page has no table: a str is the page's HTML text, and {_shown(data)} holds no "
                               "markup; for a file, give its path as pathlib.Path(...)", location=source)
        page_source = Source(data.encode("utf-8", "surrogatepass"), source or "", "utf-8")
    elif isinstance(data, (bytes, bytearray, memoryview)):
        page_source = Source(bytes(data), source or "", None)
    else:  # bytes(123) would be 123 zero bytes, read as a binary page
        raise TypeError(f"convert() takes the page as bytes, str, a path (os.PathLike) or a Source, not "
                        f"{type(data).__name__}")
    stage_params = {"normalize": {"max-slots": limits.max_slots, "max-depth": limits.max_depth},
                    "headers": {"method": method}}
    return _run(chosen, page_source, stage_params, table=table, names=names, params=params,
                keep_stages=keep_stages, limits=limits, source=page_source.uri, fuse=not keep_grid)


def convert_grid(grid: bytes | str, *, table: int | None = None,
                 names: NameStyle = "paper", method: Method = "auto", source: str = "",
                 pipeline: Pipeline | None = None, params: Mapping[str, Mapping[str, Any]] | None = None,
                 keep_stages: str | os.PathLike[str] | None = None, limits: Limits = DEFAULT_LIMITS) -> Conversion:
    """Convert a grid document (``docs/formats.md`` section 2, as ``pyxform grid`` writes it) or a header-annotated
    grid (section 3, as ``pyxform headers`` writes it) into XML: the headers stage when the grid has no header
    annotations yet, then map and merge (and the steps after them in ``pipeline``). Options as for
    :func:`convert`.

    :param limits: the grid is checked against them before any work (the slots its tables declare and have,
        :func:`pyxform.stages.grid_input.read_grid_input`).
    :raises BadXmlInput: if ``grid`` is not well-formed XML, uses entities (none is expanded, no DTD is read), is not
        a grid document (``schemas/grid.xsd``), or has a table whose rows and slots are not the size it declares.
    :raises LimitExceeded: a table of ``grid`` declares more slots than ``limits.max_slots`` (or all of them more
        than ``limits.max_page_slots``).
    :raises NoTableError: if the grid has no table, or ``table`` names none of its tables.
    :raises ParameterError: as for :func:`convert` (``params`` may name any step of ``pipeline``, also the ones
        before the grid, which do not run).
    :raises TypeError: ``grid`` is not bytes or str (a path is not read: pass the file's bytes).
    """
    if not isinstance(grid, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"a grid is the document's bytes or text, not {type(grid).__name__}"
                        + (" (read the file first: Path.read_bytes())" if isinstance(grid, os.PathLike) else ""))
    _check_options(table, names, method)
    chosen = CONVERSION if pipeline is None else pipeline
    _check_user_params(chosen, params)
    run_on = chosen.runner()
    node = run_on.parse(serialize_root(read_grid_input(grid, limits=limits, location=source or None)),
                        location=source or None)
    annotated = not run_on.has_tables_without_headers(node)
    rest = chosen.starting_at("map" if annotated else "headers")
    return _run(rest, node, {"headers": {"method": method}}, table=table, names=names, params=params,
                keep_stages=keep_stages, limits=limits, source=source, grid=node if annotated else None)


def _run(chosen: Pipeline, document: Any, stage_params: dict[str, dict[str, Any]], *, table: int | None,
         names: str, params: Mapping[str, Mapping[str, Any]] | None, keep_stages: str | os.PathLike[str] | None,
         limits: Limits, source: str, grid: Any = None, fuse: bool = False) -> Conversion:
    """Run a conversion pipeline with the stage parameters of :func:`convert`'s options (and ``params`` over them);
    ``grid``: the annotated grid when it is the input (the pipeline then has no headers step); ``fuse``: run the
    headers and map steps of convert's default steps as headers-map (:func:`_fused`)."""
    stage_params["map"] = {"table": -1 if table is None else table, "names": names}
    for step, values in (params or {}).items():
        stage_params[step] = {**stage_params.get(step, {}), **values}
    fused = _fused(chosen) if fuse and keep_stages is None else None
    if fused is not None:
        stage_params[_HEADERS_MAP.name] = {**stage_params.get("headers", {}), **stage_params["map"]}
    running = chosen if fused is None else fused
    keep = ("headers",) if fused is None else ("normalize",)
    present = {name: values for name, values in stage_params.items() if name in running.names}
    result = running.run(document, params=present, keep=[name for name in keep if name in running.names],
                         keep_stages=keep_stages, serialize=bool(running.steps) and running.steps[-1].kind == "xslt"
                         and not running.steps[-1].builtin, source=source, limits=limits)
    if fused is not None:
        return Conversion(result, grid=None, table=table, names=names,
                          unannotated=(result.stage("normalize"),
                                       check_stage_params("headers", stage_params.get("headers", {}))))
    if "headers" in chosen.names:
        grid = result.stage("headers")
    return Conversion(result, grid=grid, table=table, names=names)


#: The headers and map stages as one stylesheet (stylesheets/headers-map.xsl): map's output without the annotated grid.
_HEADERS_MAP = Step.stage("headers-map")


def _fused(chosen: Pipeline) -> Pipeline | None:
    """``chosen`` with its headers and map steps replaced by :data:`_HEADERS_MAP` (the same output), when it starts
    with :data:`~pyxform.api.pipeline.CONVERSION`'s steps as they are (steps of the user's may follow), else
    ``None``."""
    if chosen.steps[:len(CONVERSION)] != CONVERSION.steps or _HEADERS_MAP.name in chosen.names:
        return None
    at = chosen.names.index("headers")
    return Pipeline(chosen.steps[:at] + (_HEADERS_MAP,) + chosen.steps[at + 2:], allow_io=chosen.allow_io)


def _shown(text: str) -> str:
    """A text for a message: quoted, at most 60 characters."""
    return repr(text if len(text) <= 60 else text[:57] + "...")
