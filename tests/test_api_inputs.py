"""What the API functions accept: a page that is not bytes, str, a path or a Source is a TypeError (never read as
binary data); a path is read as a file by every page function; an empty page is reported in the same words by every
command; a query target str is XML text when it starts with markup, else a path (never a raw OSError); URLs are
refused by name where only files are read; a Python step that raises is a StepError naming the step."""

from __future__ import annotations

from pathlib import Path

import pytest

import pyxform
from pyxform.cli import main
from pyxform.base.errors import EmptyInput, InputError, InputNotFound, NoTableError, QueryError, StepError
from pyxform.api.pipeline import CONVERSION, Step


@pytest.mark.parametrize("function", [pyxform.convert, pyxform.grid, pyxform.headers])
@pytest.mark.parametrize("page", [None, 123, 1.5, [b"<table>"]])
def test_a_page_of_another_type_is_a_type_error(function: object, page: object) -> None:
    with pytest.raises(TypeError, match=type(page).__name__):
        function(page)  # type: ignore[operator]


@pytest.mark.parametrize("function", [pyxform.convert, pyxform.grid, pyxform.headers])
@pytest.mark.parametrize(("page", "message"), [(b"", "the page is empty"), (bytearray(b" \n"),
                                                "the page holds only white space"),
                                               (" \t", "the page holds only white space")])
def test_empty_pages_in_the_same_words(function: object, page: object, message: str) -> None:
    with pytest.raises(EmptyInput) as caught:
        function(page)  # type: ignore[operator]
    assert caught.value.message == message


@pytest.mark.parametrize("command", ["convert", "grid", "headers"])
@pytest.mark.parametrize(("data", "message"), [(b"", "the page is empty"),
                                               (b"  \n", "the page holds only white space")])
def test_commands_say_the_same_of_an_empty_page(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                                data: bytes, message: str) -> None:
    page = tmp_path / "empty.html"
    page.write_bytes(data)
    assert main([command, str(page), "--timeout", "0", "--max-memory", "0"]) == 4
    assert capsys.readouterr().err == f"pyxform: error [empty]: {page}: {message}\n"


PAGE = b"<table><tr><th>Name</th><th>Age</th></tr><tr><td>x</td><td>2</td></tr></table>"


@pytest.mark.parametrize("function", [pyxform.convert, pyxform.grid, pyxform.headers])
def test_a_path_is_read_as_a_file_by_every_page_function(tmp_path: Path, function: object) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(PAGE)
    from_path, from_bytes = function(page), function(PAGE)  # type: ignore[operator]
    if function is pyxform.convert:
        assert from_path.pairs() == from_bytes.pairs() and from_path.source == str(page)
        assert from_path.pairs()[0]["col_headers"] == ["Name"]
    else:
        assert len(from_path.tables) == len(from_bytes.tables) == 1
    with pytest.raises(InputNotFound) as caught:
        function(tmp_path / "missing.html")  # type: ignore[operator]
    assert (caught.value.message, caught.value.location) == ("no such file", str(tmp_path / "missing.html"))



def test_a_file_name_given_as_a_str_page_is_told_to_be_markup(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``str`` page is HTML text (docs/api.md); a file name given so gets no table, and the message says why."""
    monkeypatch.chdir(tmp_path)
    page = Path("tables.html")
    page.write_text("<table><tr><th>A<tr><td>1</table>")
    for function in (pyxform.convert, pyxform.to_dataframes):
        with pytest.raises(NoTableError) as caught:
            function("tables.html")  # type: ignore[operator]
        assert caught.value.exit_code == 6
        assert caught.value.message == ("the page has no table: a str is the page's HTML text, and 'tables.html' "
                                        "holds no markup; for a file, give its path as pathlib.Path(...)")
    with pytest.raises(NoTableError) as caught:
        pyxform.convert("<p>a page without a table</p>")
    assert caught.value.message == "the page has no table"
    assert pyxform.convert(page).tables()[0].to_csv().splitlines() == ["A", "1"]

def test_a_query_target_str_starting_with_markup_is_xml_text_else_a_path(tmp_path: Path) -> None:
    long_text = "<r>" + "x" * 300 + "</r>"
    assert pyxform.query(long_text, "string-length(/r)").values() == ["300"]
    assert pyxform.query("\n  <r><a>1</a><a>2</a></r>", "count(collection()//a), count($collection)").values() == [
        "2", "1"]
    with pytest.raises(QueryError) as caught:
        pyxform.query("<r>", "1")
    assert caught.value.location == "<XML text>" and "not well-formed" in caught.value.message
    document = tmp_path / "d.xml"
    document.write_text("<r>file</r>", encoding="utf-8")
    assert pyxform.query(str(document), "string(/r)").values() == ["file"]


@pytest.mark.parametrize(("target", "message"), [("x" * 300, "cannot read this path: File name too long"),
                                                 ("a/\0b", "no such file or folder")])
def test_a_path_the_system_cannot_look_up_is_input_not_found_not_os_error(target: str, message: str) -> None:
    with pytest.raises(InputNotFound) as caught:
        pyxform.query(target, "1")
    assert caught.value.message == message
    assert len(caught.value.location or "") <= 80


def test_urls_are_refused_by_name_where_only_files_are_read() -> None:
    with pytest.raises(InputError, match="a query reads XML files and folders, not URLs"):
        pyxform.query("https://example.org/a.xml", "1")
    with pytest.raises(InputError, match="a stylesheet is read from a file, not a URL"):
        Step.xslt("http://example.org/post.xsl")


def test_a_python_step_that_raises_is_a_step_error_naming_the_step() -> None:
    def broken(tree: object) -> None:
        1 / 0

    with pytest.raises(StepError) as caught:
        pyxform.convert(PAGE, pipeline=CONVERSION.append(Step.python("fix-names", broken)))
    error = caught.value
    assert error.step == "fix-names" and error.exit_code == 10
    assert error.message == "the Python step 'fix-names' failed: ZeroDivisionError: division by zero"
    assert isinstance(error.__cause__, ZeroDivisionError)
    with pytest.raises(StepError, match="returned int, not an lxml tree"):
        CONVERSION.append(Step.python("bad", lambda tree: 3)).run(PAGE)
    with pytest.raises(StepError, match="returned str, not a document node"):
        CONVERSION.append(Step.python("bad", lambda node: "x", tree="xdm")).run(PAGE)
    with pytest.raises(NoTableError):  # pyxform's own errors pass as they are
        CONVERSION.append(Step.python("mine", lambda tree: (_ for _ in ()).throw(NoTableError("none")))).run(PAGE)


@pytest.mark.parametrize(("argv", "message"), [
    (["query", "-", "1"], "-: `pyxform query` does not read XML documents from standard input: give a file"),
    (["query", "http://example.org/a.xml", "1"],
     "http://example.org/a.xml: `pyxform query` does not read XML documents from a URL: download it and give the "
     "file"),
    (["validate", "-"], "-: `pyxform validate` does not read the document from standard input: give a file"),
    (["validate", "{xml}", "--schema", "https://example.org/s.xsd"],
     "https://example.org/s.xsd: `pyxform validate` does not read the schema from a URL: download it and give the "
     "file"),
    (["schema", "-"], "-: `pyxform schema` does not read the document from standard input: give a file"),
    (["transform", "-", "{xml}"], "-: `pyxform transform` does not read the stylesheet from standard input: give a "
                                  "file"),
    (["convert", "{xml}", "--xslt", "http://example.org/post.xsl"],
     "http://example.org/post.xsl: `pyxform convert --xslt` does not read a stylesheet from a URL: download it and "
     "give the file"),
])
def test_commands_that_read_local_files_refuse_urls_and_standard_input_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    document = tmp_path / "d.xml"
    document.write_text("<r/>", encoding="utf-8")
    assert main([arg.format(xml=document) for arg in argv]) == 3
    assert capsys.readouterr().err == f"pyxform: error [input]: {message}\n"


def test_an_empty_list_of_documents_to_query_is_a_clear_error() -> None:
    with pytest.raises(InputError) as caught:  # was a bare IndexError
        pyxform.query([], "1")
    assert caught.value.message == "no document to query: the list of files is empty (give a file, a folder, or files)"


@pytest.mark.parametrize("expression", ['map:keys(map{"a":1})', "fn:count((1, 2))", "math:pi() gt 3",
                                        "array:size([1, 2])", 'xs:integer("2")'])
def test_the_standard_prefixes_are_bound_in_xpath_as_in_xquery(tmp_path: Path, expression: str) -> None:
    document = tmp_path / "d.xml"
    document.write_text("<r/>", encoding="utf-8")
    xpath, xquery = (pyxform.query(document, expression, xquery=mode).values() for mode in (False, True))
    assert xpath == xquery and xpath[0] in ("a", "2", "true")


def test_one_rule_for_a_path_or_xml_text_in_validate_generate_schema_query_and_pipelines(tmp_path: Path) -> None:
    out = tmp_path / "out.xml"
    out.write_text("<stats><ratio>1.5</ratio></stats>", encoding="utf-8")
    xsd = tmp_path / "out.xsd"
    xsd.write_text(pyxform.generate_schema(str(out)), encoding="utf-8")  # a str that is no markup: a path
    assert pyxform.generate_schema(str(out)) == pyxform.generate_schema(out) == pyxform.generate_schema(
        out.read_text(encoding="utf-8"))
    pyxform.validate(str(out), str(xsd))  # was parsed as XML text: "not well-formed"
    pyxform.validate(out.read_bytes(), xsd)
    assert pyxform.query(str(out), "string(//ratio)").values() == ["1.5"]
    merged = pyxform.Pipeline([Step.stage("merge")]).run(str(out))
    assert (merged.source, merged.tree().getroot().tag) == (str(out), "stats")
    for function in (pyxform.generate_schema, pyxform.validate):
        with pytest.raises(InputNotFound) as caught:
            function(str(tmp_path / "missing.xml"))  # type: ignore[operator]
        assert caught.value.location == str(tmp_path / "missing.xml")


TEXT_XSL = ('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:output method="text"/>'
            '<xsl:template match="/">rows: <xsl:value-of select="count(//row)"/></xsl:template></xsl:stylesheet>')


def test_after_a_step_that_writes_text_tree_schema_and_json_say_so_naming_the_stylesheet(tmp_path: Path,
                                                                                          capsys) -> None:
    stylesheet = tmp_path / "count.xsl"
    stylesheet.write_text(TEXT_XSL, encoding="utf-8")
    conversion = pyxform.convert(PAGE, pipeline=CONVERSION.append(Step.xslt(stylesheet)))
    assert conversion.xml == "rows: 1"
    expected = ("the output of the stylesheet count.xsl (step count) is not XML (its xsl:output writes text, JSON or "
                "HTML), so it has no tree, schema or JSON: Start tag expected, '<' not found (line 1)")
    for asked in (conversion.tree, conversion.schema, conversion.to_json, conversion.result.tree):
        with pytest.raises(pyxform.StylesheetError) as caught:  # lxml's own error, Saxon's raw report before
            asked()
        assert (caught.value.message, caught.value.location) == (expected, str(stylesheet))
    assert capsys.readouterr().err == ""  # Saxon's report of the parse is not printed on its own
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    for extra in (["--schema", "-o", str(tmp_path / "o.xml")], ["--format", "json"]):
        assert main(["convert", str(page), "--xslt", str(stylesheet), *extra, "--timeout", "0",
                     "--max-memory", "0"]) == 10
        assert capsys.readouterr().err == f"pyxform: error [xslt]: {stylesheet}: {expected}\n"  # was [bad-xml]
