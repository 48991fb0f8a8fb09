"""Stylesheet parameters from the Python API (pyxform.runtime.params): checked before anything runs, with the checks of
``--param``: an unknown step or parameter and a value its declared type or fixed set cannot take are a
ParameterError (a ValueError) naming step, parameter and what it takes; a parameter a stylesheet of yours does not
declare is a ParameterWarning (Saxon would ignore it)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import pyxform
from pyxform.base.errors import ParameterError
from pyxform.runtime.params import ParameterWarning, check_value, declared_parameters
from pyxform.api.pipeline import CONVERSION, Step
from pyxform.runtime.saxon import UntypedAtomic

PAGE = b"<table><tr><td><b>Name</b></td><td><b>Age</b></td></tr><tr><td>x</td><td>2</td></tr></table>"
XSL = '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" {ns}>{body}</xsl:stylesheet>'


def refused(**params: dict[str, object]) -> ParameterError:
    with pytest.raises(ParameterError) as caught:
        pyxform.convert(PAGE, params=params)
    assert isinstance(caught.value, ValueError) and caught.value.exit_code == 2
    return caught.value


def test_a_step_the_pipeline_does_not_have_is_refused() -> None:
    error = refused(nostep={"x": 1})
    assert (error.step, error.parameter) == ("nostep", None)
    assert error.message == "the pipeline has no step 'nostep' (its steps: clean, normalize, headers, map, merge)"


def test_a_parameter_the_stage_does_not_declare_is_refused_listing_its_parameters() -> None:
    error = refused(headers={"nosuch": 1})
    assert (error.step, error.parameter) == ("headers", "nosuch")
    assert error.message.startswith("the headers step has no parameter 'nosuch' (its parameters: length-ratio, ")
    assert "threshold" in error.message and "method" not in error.message  # convert's method= sets it
    with pytest.raises(ParameterError) as caught:  # a pipeline of one's own: method is one of its parameters
        CONVERSION.run(PAGE, params={"headers": {"nosuch": 1}})
    assert "threshold" in caught.value.message and "method" in caught.value.message


@pytest.mark.parametrize(("params", "message"), [
    ({"headers": {"threshold": "abc"}},
     "headers.threshold is xs:double, a number (e.g. 2.5 or 1e3); 'abc' is not a value of that type"),
    ({"headers": {"threshold": True}},
     "headers.threshold is xs:double, a number (e.g. 2.5 or 1e3); True (bool) is not a value of that type"),
    ({"headers": {"max-header-rows": 1.5}},
     "headers.max-header-rows is xs:integer, a whole number (e.g. 3); 1.5 (float) is not a value of that type"),
    ({"headers": {"size-difference": "both"}},
     "headers.size-difference takes signed or absolute; 'both' is none of them"),
])
def test_a_value_the_parameter_cannot_take_is_refused_naming_step_parameter_and_expectation(
        params: dict[str, dict[str, object]], message: str) -> None:
    assert refused(**params).message == message


@pytest.mark.parametrize(("params", "message"), [
    ({"headers": {"method": "bogus"}}, "headers.method takes auto, markup or format; 'bogus' is none of them"),
    ({"headers": {"method": 1}}, "headers.method takes auto, markup or format; 1 (int) is none of them"),
    ({"map": {"names": "Generic"}}, "map.names takes paper or generic; 'Generic' is none of them"),
])
def test_a_pipelines_parameter_outside_its_fixed_set_is_refused(params: dict[str, dict[str, object]],
                                                                message: str) -> None:
    with pytest.raises(ParameterError) as caught:  # a pipeline of one's own: these are its parameters
        CONVERSION.run(PAGE, params=params)
    assert caught.value.message == message


@pytest.mark.parametrize(("params", "option"), [
    ({"headers": {"method": "format"}}, "method=..."), ({"headers": {"table": 0}}, "table=..."),
    ({"map": {"names": "generic"}}, "names=..."), ({"map": {"table": 0}}, "table=..."),
    ({"normalize": {"only-table": 0}}, "table=..."), ({"normalize": {"max-slots": 9}}, "limits=Limits(max_slots=...)"),
])
def test_convert_refuses_a_parameter_one_of_its_options_sets(params: dict[str, dict[str, object]], option: str) -> None:
    error = refused(**params)
    ((step, values),) = params.items()
    assert (error.step, error.parameter) == (step, next(iter(values)))
    assert error.message == f"{step}.{error.parameter} is not a parameter of yours: pyxform's option {option} sets it"
    with pytest.raises(ParameterError, match="headers.table is not a parameter of yours"):
        pyxform.detect_headers(pyxform.grid(PAGE).xml, params={"table": 0})


def test_the_same_checks_hold_for_a_pipeline_and_a_step() -> None:
    with pytest.raises(ParameterError, match="headers.method takes auto, markup or format"):
        CONVERSION.run(PAGE, params={"headers": {"method": "x"}})
    with pytest.raises(ParameterError, match="headers.method takes auto, markup or format"):
        Step.stage("headers", {"method": "x"})
    step = Step.stage("headers").with_params(threshold="x")  # with_params is checked when the pipeline runs
    with pytest.raises(ParameterError, match="headers.threshold is xs:double"):
        CONVERSION.replace("headers", step).run(PAGE)
    with pytest.raises(ParameterError, match="no step 'post'"):  # convert_grid: the steps of the whole pipeline
        pyxform.convert_grid(pyxform.grid(PAGE).xml, params={"post": {"a": 1}})


def test_values_of_the_declared_type_are_accepted_as_python_values_or_text() -> None:
    pairs = [pyxform.convert(PAGE, params={"headers": {"threshold": threshold}}).pairs()[0]["col_headers"]
             for threshold in (5, 5.0, "5", " 1e9 ", 1e9, UntypedAtomic("1e9"))]
    assert pairs == [["Name"]] * 3 + [[]] * 3  # text is cast as Saxon casts --param values: "1e9" is used
    assert pyxform.convert(PAGE, params={"headers": {"max-header-rows": 2.0}}, method="format",
                           names="generic").xml.count("<field") == 2


def test_check_value_passes_text_on_for_saxon_to_cast() -> None:
    assert check_value("s", "p", "xs:double", (), "4") == UntypedAtomic("4")
    assert type(check_value("s", "p", "xs:double", (), "4")) is UntypedAtomic
    whole = check_value("s", "p", "xs:integer", (), 3.0)
    assert type(whole) is int and whole == 3
    assert check_value("s", "p", "xs:boolean", (), "true") == "true"
    assert check_value("s", "p", "xs:integer?", (), None) is None
    assert check_value("s", "p", "element()*", (), object) is object  # a type pyxform does not check
    with pytest.raises(ParameterError, match="s.p is xs:boolean, true or false; 1 \\(int\\)"):
        check_value("s", "p", "xs:boolean", (), 1)


def test_a_parameter_your_stylesheet_does_not_declare_is_a_warning(tmp_path: Path) -> None:
    post = tmp_path / "post.xsl"
    post.write_text(XSL.format(ns="", body='<xsl:param name="prefix" select="1"/>'
                                           '<xsl:template match="/"><out p="{$prefix}"/></xsl:template>'))
    pipeline = CONVERSION.append(Step.xslt(post))
    with pytest.warns(ParameterWarning) as caught:
        result = pyxform.convert(PAGE, pipeline=pipeline, params={"post": {"prefix": "y", "nosuch": 1}})
    assert 'p="y"' in result.xml
    assert [str(w.message) for w in caught] == [
        "the stylesheet post.xsl (step post) declares no parameter 'nosuch' (its parameters: prefix): it is ignored"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a declared parameter: no warning
        pyxform.convert(PAGE, pipeline=pipeline, params={"post": {"prefix": "z"}})


def test_the_declared_parameters_follow_includes_and_imports(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "a.xsl").write_text(XSL.format(ns='xmlns:q="urn:q"', body='<xsl:param name="q:qualified"/>'
                                                       '<xsl:include href="../b.xsl"/>'))
    (tmp_path / "b.xsl").write_text(XSL.format(ns="", body='<xsl:param name="from-b"/>'))
    main = tmp_path / "main.xsl"
    main.write_text(XSL.format(ns="", body='<xsl:import href="lib/a.xsl"/><xsl:param name="own"/>'
                                           '<xsl:import href="https://pyxform.invalid/stylesheets/map.xsl"/>'))
    declared = declared_parameters(main)
    assert declared is not None and {"own", "Q{urn:q}qualified", "from-b", "names", "table"} <= declared
    remote = tmp_path / "remote.xsl"
    remote.write_text(XSL.format(ns="", body='<xsl:import href="https://example.org/x.xsl"/>'))
    assert declared_parameters(remote) is None  # a module that cannot be read: unknown, no warning
    missing = tmp_path / "missing.xsl"
    missing.write_text(XSL.format(ns="", body='<xsl:include href="nowhere.xsl"/>'))
    assert declared_parameters(missing) is None
    main.write_text(XSL.format(ns="", body='<xsl:param name="changed"/>'))  # a new version of the file is read
    assert declared_parameters(main) == {"changed"}


def test_detect_headers_checks_its_parameters_as_convert_does() -> None:
    grid = pyxform.grid(PAGE).xml
    with pytest.raises(ParameterError, match="the headers step has no parameter 'nosuch'"):
        pyxform.detect_headers(grid, params={"nosuch": 1})
    with pytest.raises(ParameterError, match="headers.threshold is xs:double"):
        pyxform.detect_headers(grid, params={"threshold": "high"})
    found = [pyxform.detect_headers(grid, method="format", params={"threshold": threshold}).tables[0].header_rows
             for threshold in ("5", 1e9)]
    assert found == [1, 0]
