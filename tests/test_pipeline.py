"""The public Pipeline API (pyxform.api.pipeline): steps, runtimes, parameters, Python steps, stage dumps, errors."""

from __future__ import annotations

import gc
import os
import shutil
import warnings
from pathlib import Path

import pytest
from lxml import etree

from pyxform import convert, convert_grid
from pyxform.base.errors import (BadXmlInput, InputNotFound, LimitExceeded, NoTableError, ParameterError,
                                 StylesheetError, TableError)
from pyxform.api.pipeline import CONVERSION, Pipeline, Step
from pyxform.runtime.registry import BUILTIN_STAGES
from pyxform.runtime.runner import MAX_RUNTIMES, runner
from pyxform.runtime.saxon import SaxonRuntime, UntypedAtomic

from .annotated_grids import T, grid_xml, td, th

CASES = Path(__file__).parent / "data" / "cases"
STYLESHEETS = Path(__file__).parent / "data" / "stylesheets"
PAPER = (CASES / "paper-example" / "input.html").read_bytes()
PAIRS_OF_PAPER = {("Males/Average/Height", "1.78"), ("Males/Average/Weight", "75"), ("Males/Ratio", "40.46%"),
                  ("Females/Average/Height", "Not available"), ("Females/Average/Weight", "Not available"),
                  ("Females/Ratio", "40.34%")}


def _values(xml: str | bytes) -> set[tuple[str, str]]:
    root = etree.fromstring(xml.encode() if isinstance(xml, str) else xml)
    return {(value.get("path"), value.text) for value in root.iter("value")}


@pytest.fixture
def rename(tmp_path: Path) -> Path:
    """A private copy of rename.xsl (so that a test may touch it without affecting the others)."""
    copy = tmp_path / "rename.xsl"
    shutil.copy(STYLESHEETS / "rename.xsl", copy)
    return copy


# -- the list ------------------------------------------------------------------------------------------------------
def test_conversion_is_clean_then_the_four_stages() -> None:
    assert CONVERSION.names == ("clean", "normalize", "headers", "map", "merge")
    assert CONVERSION.takes_page
    assert CONVERSION.user_stylesheets == ()
    assert set(BUILTIN_STAGES) >= {"normalize", "headers", "map", "merge", "pairs", "schema", "tabular", "json",
                                   "xhtml"}


def test_editing_gives_new_pipelines_and_leaves_the_original(rename: Path) -> None:
    post = Step.xslt(rename)
    assert post.name == "rename" and not post.builtin and post.stylesheet == str(rename.resolve())
    assert CONVERSION.append(post).names == ("clean", "normalize", "headers", "map", "merge", "rename")
    assert CONVERSION.insert("merge", post).names == ("clean", "normalize", "headers", "map", "rename", "merge")
    assert CONVERSION.insert_after("headers", post).names == ("clean", "normalize", "headers", "rename", "map",
                                                              "merge")
    assert CONVERSION.replace("merge", post).names == ("clean", "normalize", "headers", "map", "rename")
    assert CONVERSION.remove("merge").names == ("clean", "normalize", "headers", "map")
    assert CONVERSION.until("headers").names == ("clean", "normalize", "headers")
    assert CONVERSION.starting_at("map").names == ("map", "merge")
    assert CONVERSION.names == ("clean", "normalize", "headers", "map", "merge")
    assert CONVERSION["map"].stylesheet == "map" and CONVERSION["map"].builtin


def test_bad_lists_are_refused(tmp_path: Path, rename: Path) -> None:
    with pytest.raises(ValueError, match="unique; repeated: map"):
        CONVERSION.append(Step.stage("map"))
    with pytest.raises(ValueError, match="first step"):
        Pipeline([Step.stage("normalize"), Step.clean()])
    with pytest.raises(ValueError, match="allow_io"):
        Pipeline([Step.stage("merge")], allow_io=True)
    with pytest.raises(ValueError, match="no built-in stage 'post'"):
        Step.stage("post")
    with pytest.raises(InputNotFound):
        Step.xslt(tmp_path / "missing.xsl")
    with pytest.raises(KeyError, match="no step 'nope'"):
        CONVERSION.insert("nope", Step.xslt(rename))
    with pytest.raises(ParameterError, match="no step 'post'"):
        CONVERSION.run(PAPER, params={"post": {"x": 1}})


# -- running -------------------------------------------------------------------------------------------------------
def test_convert_is_the_conversion_pipeline() -> None:
    result = CONVERSION.run(PAPER, params={"map": {"table": 0, "names": "paper"}})
    assert result.text == convert(PAPER, table=0).xml
    assert result.tree().getroot().tag == "population-statistics"


def test_a_user_step_after_merge_with_parameters(rename: Path) -> None:
    pipeline = CONVERSION.append(Step.xslt(rename, {"root": "stats"}))
    result = pipeline.run(PAPER, serialize=True)
    root = result.tree().getroot()
    assert root.tag == "stats"
    assert _values(result.text) == PAIRS_OF_PAPER
    assert [m.text for m in result.messages if m.stylesheet == str(rename.resolve())] == ["rename: 6 values"]
    # per-run parameters override the step's; text values are cast to the declared type
    again = pipeline.run(PAPER, params={"rename": {"root": "other", "limit": UntypedAtomic("2")}}, serialize=True)
    assert again.tree().getroot().tag == "other" and len(_values(again.text)) == 2


def test_convert_with_a_pipeline_keeps_pairs_and_schema(rename: Path) -> None:
    conversion = convert(PAPER, pipeline=CONVERSION.append(Step.xslt(rename)), params={"rename": {"root": "r"}})
    assert etree.fromstring(conversion.to_bytes()).tag == "r"
    assert len(conversion.pairs()) == 6  # from the annotated grid, as without the step
    assert "rename: 6 values" in conversion.messages
    assert '<xs:element name="r">' in conversion.schema()


def test_a_string_for_an_integer_parameter_is_a_type_error(rename: Path) -> None:
    pipeline = CONVERSION.append(Step.xslt(rename))
    with pytest.raises(StylesheetError) as raised:
        pipeline.run(PAPER, params={"rename": {"limit": "2"}})
    assert raised.value.error_code == "XPTY0004"


def test_user_runtimes_are_compiled_once_per_set_of_files(rename: Path, tmp_path: Path) -> None:
    pipeline = CONVERSION.append(Step.xslt(rename))
    first = pipeline.runner()
    assert pipeline.runner() is first
    assert CONVERSION.append(Step.xslt(rename, name="other")).runner() is first  # same files, same runtime
    assert CONVERSION.runner() is runner() and first is not runner()  # built-in only: the shared runtime
    assert first.runtime.locked and runner().runtime.locked
    rename.write_text(rename.read_text().replace("'dataset'", "'edited'"))  # an edited stylesheet is compiled anew
    os.utime(rename, ns=(rename.stat().st_atime_ns, rename.stat().st_mtime_ns + 10**9))
    edited = pipeline.runner()
    assert edited is not first
    assert edited.runtime.locked
    assert pipeline.run(PAPER, serialize=True).tree().getroot().tag == "edited"
    assert MAX_RUNTIMES >= 2


def test_a_runtime_that_is_dropped_leaves_no_file_open() -> None:
    # A user runtime dropped from the cache (or any runtime let go) kept its own temporary file for Saxon's error
    # reports, never closed: a ResourceWarning at some later point, caught by whatever test was running then.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runtime = SaxonRuntime()
        runtime.compile_all({"rename": STYLESHEETS / "rename.xsl"})  # Saxon's standard error captured meanwhile
        del runtime
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_python_steps_on_lxml_and_xdm_trees() -> None:
    def drop_females(tree: etree._ElementTree) -> None:
        for element in tree.getroot().iter("females"):
            element.getparent().remove(element)

    def upper_root(tree: etree._ElementTree) -> etree._Element:
        root = tree.getroot()
        root.tag = root.tag.upper()
        return root

    seen = []

    def look(node):  # a PyXdmNode of the pipeline's runtime, returned as it is
        seen.append(node.to_string())
        return node

    pipeline = CONVERSION.append(Step.python("drop", drop_females), Step.python("upper", upper_root),
                                 Step.python("look", look, tree="xdm"))
    root = pipeline.run(PAPER).tree().getroot()
    assert root.tag == "PYXFORM"
    assert [e.tag for e in root.iter("males", "females")] == ["males"]
    assert "<PYXFORM" in seen[0]


def test_keep_stages_writes_every_result(tmp_path: Path, rename: Path) -> None:
    folder = tmp_path / "stages"
    convert(PAPER, pipeline=CONVERSION.append(Step.xslt(rename)), keep_stages=folder)
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["00-clean.xhtml", "01-normalize.xml", "02-headers.xml", "03-map.xml", "04-merge.xml",
                     "05-rename.xml"]
    assert etree.parse(str(folder / "00-clean.xhtml")).getroot().tag == "{http://www.w3.org/1999/xhtml}html"
    grid = etree.parse(str(folder / "02-headers.xml")).getroot()
    assert grid.find("{urn:pyxform}table").get("header-rows") == "2"
    assert etree.parse(str(folder / "03-map.xml")).getroot().find(".//*[@{urn:pyxform}key]") is not None
    assert _values((folder / "05-rename.xml").read_bytes()) == PAIRS_OF_PAPER


def test_keep_stages_from_a_grid(tmp_path: Path) -> None:
    grid = grid_xml(T([[th("A"), th("B")], [td("1"), td("2")]], k=1))
    convert_grid(grid, keep_stages=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00-map.xml", "01-merge.xml"]


def test_an_xml_pipeline_on_a_file_and_on_a_tree(tmp_path: Path) -> None:
    document = tmp_path / "doc.xml"
    document.write_text("<doc><label>Average height</label><label>2010</label></doc>")
    pipeline = Pipeline([Step.xslt(STYLESHEETS / "uses-names.xsl")])
    assert not pipeline.takes_page
    expected = ["average-height", "_2010"]
    assert [e.text for e in pipeline.run(document).tree().iter("name")] == expected
    tree = etree.ElementTree(etree.fromstring(document.read_bytes()))
    assert [e.text for e in pipeline.run(tree).tree().iter("name")] == expected


# -- errors --------------------------------------------------------------------------------------------------------
def test_a_dynamic_error_has_saxons_code_and_the_stylesheet_line() -> None:
    pipeline = Pipeline([Step.xslt(STYLESHEETS / "failing.xsl")])
    messages: list = []
    with pytest.raises(StylesheetError) as raised:
        pipeline.run(b"<a/>", messages=messages)
    assert raised.value.error_code == "FORG0001"
    assert raised.value.location.startswith(f"{(STYLESHEETS / 'failing.xsl').resolve()}:7:")
    assert "Cannot convert string" in raised.value.message
    assert [m.text for m in messages] == ["starting cast"]  # messages of the failed step reach the caller


def test_a_terminating_message_gives_its_code_and_text() -> None:
    pipeline = Pipeline([Step.xslt(STYLESHEETS / "failing.xsl", {"kind": "stop"})])
    with pytest.raises(StylesheetError) as raised:
        pipeline.run(b"<a/>")
    assert raised.value.error_code == "stop"
    assert raised.value.message.endswith("stopped on purpose")
    assert raised.value.location == f"{(STYLESHEETS / 'failing.xsl').resolve()}:9:57"


def test_a_compile_error_names_the_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xsl"
    broken.write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n'
                      '<xsl:template match="/">\n<xsl:value-of select="1 +"/>\n</xsl:template>\n</xsl:stylesheet>\n')
    with pytest.raises(StylesheetError) as raised:
        Pipeline([Step.xslt(broken)]).run(b"<a/>")
    assert raised.value.error_code == "XPST0003"
    assert raised.value.location == f"{broken.resolve()}:3:29"


@pytest.mark.parametrize("kind", ["read", "doc"])
def test_user_stylesheets_read_no_uri_unless_allowed(tmp_path: Path, kind: str) -> None:
    secret = tmp_path / "secret.xml"
    secret.write_text("<secret>s3cr3t</secret>")
    step = Step.xslt(STYLESHEETS / "failing.xsl", {"kind": kind, "uri": secret.as_uri()})
    with pytest.raises(StylesheetError) as raised:
        Pipeline([step]).run(b"<a/>")
    assert raised.value.error_code == {"read": "FOUT1170", "doc": "FODC0005"}[kind]
    assert "has been prohibited" in raised.value.message
    assert "s3cr3t" not in str(raised.value)
    allowed = Pipeline([step], allow_io=True).run(b"<a/>", serialize=True)
    assert "s3cr3t" in allowed.text


def test_input_errors_of_builtin_stages_are_pyxform_errors() -> None:
    grid = grid_xml(T([[th("A")], [td("1")]], k=1))
    with pytest.raises(NoTableError, match="no table 4"):
        convert_grid(grid, table=4)
    failed = grid.replace("</px:grids>", '<px:table-failure index="1" locator="/x" code="limit" message="too big"/>'
                                         "</px:grids>")
    with pytest.raises(TableError, match=r"table 1 \(/x\) could not be normalized: too big"):
        convert_grid(failed, table=1)  # a limit without its name (an older grid): the table's error
    named = failed.replace('code="limit"', 'code="limit" limit="max_slots"')
    with pytest.raises(LimitExceeded) as caught:  # the limit as data: no message text is read for it
        convert_grid(named, table=1)
    assert (caught.value.limit, caught.value.location) == ("max_slots", None)
    assert caught.value.message == ("table 1 (/x) could not be normalized: too big (raise it with "
                                    "limits=Limits(max_slots=...))")
    with pytest.raises(BadXmlInput, match="not well-formed"):
        Pipeline([Step.stage("merge")]).run(b"<a>")


def test_an_error_inside_a_text_value_template_names_its_line(tmp_path: Path) -> None:
    """Saxon words this report differently ("Error at char 28 (in expression on line 5) of file:...")."""
    total = tmp_path / "total.xsl"
    total.write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"\n'
                     '    xmlns:xs="http://www.w3.org/2001/XMLSchema" expand-text="yes">\n'
                     '  <xsl:template match="/">\n'
                     '    <xsl:message>ratios: {count(//ratio)}</xsl:message>\n'
                     '    <total>{sum(//ratio ! xs:decimal(.))}</total>\n'
                     '  </xsl:template>\n'
                     '</xsl:stylesheet>\n')
    messages: list = []
    with pytest.raises(StylesheetError) as raised:
        CONVERSION.append(Step.xslt(total)).run(PAPER, messages=messages)
    assert raised.value.error_code == "FORG0001"
    assert raised.value.location == f"{total.resolve()}:5"
    assert 'Cannot convert string "40.46%" to xs:decimal' in raised.value.message
    assert [m.text for m in messages if m.stylesheet == str(total.resolve())] == ["ratios: 2"]


def test_no_builtin_stylesheet_reads_a_uri() -> None:
    """What makes running them in a user's unlocked runtime (allow_io) safe: none of them calls a function that reads
    a URI or writes a result document."""
    folder = Path(__file__).parent.parent / "stylesheets"
    readers = ("doc(", "document(", "unparsed-text", "collection(", "json-doc(", "doc-available(", "result-document",
               "uri-collection(", "transform(", "load-xquery-module(")
    found = [(path.name, reader) for path in folder.rglob("*.xsl") for reader in readers
             if reader in path.read_text(encoding="utf-8")]
    assert found == []


def test_a_page_pipeline_reads_a_path(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(PAPER)
    result = CONVERSION.until("headers").append(Step.stage("tabular")).run(page)
    assert result.source == str(page)
    assert result.tree().getroot().get("source") == str(page)
    with pytest.raises(TypeError, match="takes a page"):
        CONVERSION.run(12)


def test_convert_grid_takes_the_documents_text_not_a_path(tmp_path: Path) -> None:
    grid = tmp_path / "page.grid.xml"
    grid.write_text(grid_xml(T([[th("A"), th("B")], [td("1"), td("2")]], k=1)), encoding="utf-8")
    with pytest.raises(TypeError, match=r"not PosixPath \(read the file first"):
        convert_grid(grid)  # type: ignore[arg-type]
    assert convert_grid(grid.read_bytes()).table_indexes() == [0]
