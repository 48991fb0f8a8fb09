"""The search wing's parts alone: analyzer, URLs and PageRank, key column and fields, each ranking term."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyxform.wings.search.extract import key_column, page_from_output, table_documents, url_words
from pyxform.wings.search.links import page_url, pagerank, resolve_links, url_key
from pyxform.wings.search.rank import (DEFAULT, Candidate, Parameters, Query, authority_prior, idf, rank,
                                       shape_prior, term_share)
from pyxform.wings.search.text import analyze


# -- analyzer ----------------------------------------------------------------------------------------------------
def test_analyze_folds_stems_and_keeps_numbers() -> None:
    assert analyze("Which albums were Released by Beyoncé in 2010?") == [
        "which", "album", "were", "releas", "by", "beyonc", "in", "2010"]
    assert analyze("Päijänne, Oulujärvi") == ["paijann", "oulujarvi"]
    assert analyze("snake_case x" + "y" * 50) == ["snake", "case"]  # "_" splits; a 51-letter run is dropped
    assert analyze("") == [] and analyze(None) == [] and analyze("?!…") == []


# -- URLs, links, PageRank ----------------------------------------------------------------------------------------
def test_page_url_prefers_the_canonical_link(tmp_path) -> None:
    page = tmp_path / "a b.html"
    assert page_url(canonical="https://x.org/A", fetched=None, path=str(page)) == "https://x.org/A"
    assert page_url(canonical="/wiki/B", fetched="http://x.org/wiki/A", path=None) == "http://x.org/wiki/B"
    assert page_url(canonical="javascript:alert(1)", fetched=None, path=str(page)) == page.resolve().as_uri()
    assert page_url(canonical=None, fetched=None, path=None) is None


def test_resolve_links_drops_scripts_fragments_and_repeats() -> None:
    hrefs = ["//x.org/wiki/B#s", "javascript:alert(1)", "mailto:a@b.c", "/wiki/C", "http://[::1", "/wiki/C#t", "D"]
    assert resolve_links(hrefs, url="https://x.org/wiki/A") == [
        "https://x.org/wiki/B", "https://x.org/wiki/C", "https://x.org/wiki/D"]
    assert resolve_links(["c.html"], url="https://x.org/a/b.html", base="/base/") == ["https://x.org/base/c.html"]


def test_url_key_identifies_the_same_page() -> None:
    same = ["HTTPS://X.org:443/wiki/A_(b)#f", "http://x.org/wiki/A_%28b%29", "https://x.org/wiki/A_(b)"]
    assert len({url_key(url) for url in same}) == 1
    assert url_key("https://x.org/wiki/A") != url_key("https://x.org/wiki/B")
    assert url_key("https://x.org?b=2&a=1") == url_key("https://x.org/?a=1&b=2")
    assert url_key(None) is None


def test_pagerank_of_a_small_graph() -> None:
    # 0 -> 1 -> 2 -> 0 and 3 -> 0; 4 is dangling and unlinked
    ranks = pagerank([(0, 1), (1, 2), (2, 0), (3, 0), (3, 0), (2, 2)], 5)
    assert math.isclose(sum(ranks), 1.0)
    assert ranks[0] > ranks[1] > ranks[2] > ranks[3] == pytest.approx(ranks[4])
    assert pagerank([], 0) == [] and pagerank([], 3) == pytest.approx([1 / 3] * 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20))))
def test_pagerank_is_the_stationary_distribution(graph: tuple[int, list[tuple[int, int]]]) -> None:
    """Against the dense Google matrix (Langville & Meyer 2004): r = r G, sum 1, dangling rows uniform."""
    n, edges = graph
    links = {(a, b) for a, b in edges if a != b}
    matrix = np.zeros((n, n))
    for a, b in links:
        matrix[a, b] = 1.0
    for row in matrix:
        row[:] = row / row.sum() if row.sum() else 1.0 / n
    google = 0.85 * matrix + 0.15 / n
    values, vectors = np.linalg.eig(google.T)
    stationary = np.real(vectors[:, np.argmax(np.real(values))])
    stationary /= stationary.sum()
    assert pagerank(edges, n) == pytest.approx(stationary.tolist(), abs=1e-8)


# -- extract ------------------------------------------------------------------------------------------------------
def test_key_column_rule() -> None:
    records = [["1", "Saimaa", "4,400"], ["2", "Inari", "1,040"], ["3", "Oulujärvi", "928"]]
    assert key_column([["#"], ["Lake"], ["Area"]], ["data"] * 3, records) == 1  # numbers are not keys
    assert key_column([[], ["Lake"]], ["row-header", "data"], [["a", "b"]]) == 0  # a header column is
    repeated = [["Gulf", "x"], ["Gulf", "y"], ["Gulf", "z"]]
    assert key_column([["Outflow"], ["River"]], ["data", "data"], repeated) == 1  # not distinct enough
    assert key_column([["A"]], ["data"], []) is None


def _page() -> dict:
    column = {"kind": "data", "col": 0, "levels": ["Lake", ""]}
    return {"source": "lakes.html", "title": "Lakes", "canonical": None, "base": None, "links": [], "failures": [],
            "tables": [{"index": 0, "parent": None, "depth": 0, "locator": "/html/body/table[1]",
                        "heading": "Largest", "caption": "By area", "hidden": False, "header_rows": 2,
                        "header_cols": 1, "header_method": "markup",
                        "columns": [{"kind": "row-header", "col": 0, "levels": ["", ""]}, column,
                                    {"kind": "data", "col": 2, "levels": ["column-3", ""]}],
                        "records": [["South", "Saimaa", "x"], ["North", "Inari", "y"]], "rows": [2, 3],
                        "xml": "<t/>"},
                       {"index": 1, "parent": 0, "depth": 1, "locator": None, "heading": None, "caption": None,
                        "hidden": True, "header_rows": 0, "header_cols": 0, "header_method": "none",
                        "columns": [{"kind": "data", "col": 0, "levels": ["column-1"]}], "records": [["v"]],
                        "rows": [0], "xml": None}]}


def test_table_documents_fields() -> None:
    first, nested = table_documents(_page(), url="https://x.org/wiki/Lakes_(Finland)")
    assert first.text == {"title": "Lakes", "url": "x org wiki Lakes Finland", "heading": "Largest",
                          "caption": "By area", "headers": "Lake", "rowheaders": "South\nNorth",
                          "cells": "Saimaa\nx\nInari\ny"}
    assert first.headers == ["", "Lake", ""]  # generated column names are not headers
    assert first.key_column == 0 and first.key_terms == ["south", "north"] and first.header_terms == ["lake"]
    assert (nested.index, nested.parent, nested.depth, nested.hidden, nested.headers) == (1, 0, 1, True, [""])
    assert nested.text["headers"] == "" and nested.text["cells"] == "v"


def test_url_words() -> None:
    assert url_words("https://www.example.org/a/B%C3%A4r_(x)?q=lake&n=2") == "example org a Bär x q lake n 2"
    assert url_words(None) == ""


def test_page_from_output_reads_pyxform_xml() -> None:
    xml = b"""<?xml version="1.0"?>
<pyxform xmlns:px="urn:pyxform" px:source="https://x.org/p" px:title="Page">
  <by-area px:label="By area" px:name-from="caption" px:table="0" px:locator="/html/body/table[1]"
           px:header-rows="1" px:header-cols="0" px:header-method="markup">
    <row px:row="1"><lake px:label="Lake" href="/wiki/Saimaa">Saimaa</lake><area px:label="Area">4,400</area></row>
    <row px:row="2"><lake px:label="Lake">Inari</lake><area px:label="Area">1,040</area></row>
  </by-area>
</pyxform>"""
    page = page_from_output(xml, location="out.xml")
    table = page["tables"][0]
    assert (page["source"], page["title"], page["links"]) == ("https://x.org/p", "Page", ["/wiki/Saimaa"])
    assert (table["caption"], table["heading"], table["locator"]) == ("By area", None, "/html/body/table[1]")
    assert [c["levels"] for c in table["columns"]] == [["Lake"], ["Area"]]
    assert table["records"] == [["Saimaa", "4,400"], ["Inari", "1,040"]]
    from pyxform.base.errors import BadXmlInput, InputError

    with pytest.raises(InputError, match="not a pyxform output"):
        page_from_output(b"<html/>", location="x.xml")
    with pytest.raises(BadXmlInput):
        page_from_output(b"<pyxform>", location="x.xml")


# -- ranking terms ------------------------------------------------------------------------------------------------
def _candidate(i: int, text: float = 1.0, *, header=(), key=(), phrases=(), records=10, header_rows=1, depth=0,
               pagerank=0.25, pages=4) -> Candidate:
    return Candidate(id=i, order=(f"p{i}", 0), text=text, header_terms=frozenset(header), key_terms=frozenset(key),
                     phrases=frozenset(phrases), records=records, header_rows=header_rows, depth=depth,
                     pagerank=pagerank, pages=pages)


QUERY = Query.of(["lake", "area", "saimaa"], {"lake": 1.0, "area": 1.0, "saimaa": 2.0})
ZERO = Parameters(header=0, key=0, shape=0, phrase=0, authority=0)


def _order(candidates, parameters, ranking="integrative") -> list[int]:
    return [c.id for _, c in rank(candidates, QUERY, parameters, ranking)]


def test_query_pairs_and_shares() -> None:
    assert dict(QUERY.pairs) == {("lake", "area"): 1.0, ("area", "saimaa"): 1.0}
    assert term_share(QUERY.terms, frozenset({"saimaa"})) == pytest.approx(0.5)
    assert term_share({}, frozenset({"x"})) == 0.0
    assert idf(100, 1) > idf(100, 50) > idf(100, 100) > 0


def test_text_alone_orders_by_text_score() -> None:
    candidates = [_candidate(1, 2.0), _candidate(2, 3.0), _candidate(3, 1.0)]
    assert _order(candidates, ZERO) == [2, 1, 3] == _order(candidates, DEFAULT, "bm25")


def test_header_term_promotes_a_table_whose_columns_the_query_names() -> None:
    candidates = [_candidate(1, 1.0), _candidate(2, 0.9, header={"lake", "area"})]
    assert _order(candidates, ZERO) == [1, 2]
    assert _order(candidates, replace_(ZERO, header=0.3)) == [2, 1]  # 0.9 + 0.3 * (2 / 4) > 1.0


def test_key_term_promotes_a_table_whose_key_column_holds_the_query() -> None:
    candidates = [_candidate(1, 1.0), _candidate(2, 0.9, key={"saimaa"})]
    assert _order(candidates, replace_(ZERO, key=0.3)) == [2, 1]


def test_phrase_term_promotes_adjacent_query_terms() -> None:
    candidates = [_candidate(1, 1.0), _candidate(2, 0.95, phrases={("lake", "area")})]
    assert _order(candidates, replace_(ZERO, phrase=0.2)) == [2, 1]


def test_shape_prior() -> None:
    parameters = Parameters(shape_rows=10, no_header=0.5, nested=0.25)
    assert shape_prior(_candidate(1, records=10), parameters) == pytest.approx(0.5)
    assert shape_prior(_candidate(1, records=30, header_rows=0), parameters) == pytest.approx(0.375)
    assert shape_prior(_candidate(1, records=10, depth=2), parameters) == pytest.approx(0.125)
    candidates = [_candidate(1, 1.0, records=1, header_rows=0), _candidate(2, 0.9, records=40)]
    assert _order(candidates, replace_(ZERO, shape=0.5)) == [2, 1]


def test_authority_prior() -> None:
    parameters = Parameters(authority_k=1.0)
    assert authority_prior(_candidate(1, pagerank=0.25, pages=4), parameters) == pytest.approx(0.5)
    assert authority_prior(_candidate(1, pagerank=0.75, pages=4), parameters) == pytest.approx(0.75)
    candidates = [_candidate(1, 1.0, pagerank=0.05), _candidate(2, 0.95, pagerank=0.6)]
    assert _order(candidates, replace_(ZERO, authority=0.2)) == [2, 1]
    assert _order(candidates, ZERO, "pagerank") == [2, 1]


def test_ties_are_broken_by_page_and_table() -> None:
    candidates = [_candidate(3), _candidate(1), _candidate(2)]
    assert _order(candidates, ZERO) == [1, 2, 3]
    with pytest.raises(ValueError, match="unknown ranking"):
        rank(candidates, QUERY, ZERO, "random")


def test_parameters_are_checked() -> None:
    assert DEFAULT.with_values(weight_title=2.5, depth=50).weights["title"] == 2.5
    for bad in ({"weight_colour": 1.0}, {"depth": 0}, {"nested": 2.0}, {"header": -1.0}, {"authority_k": 0.0},
                {"bogus": 1.0}):
        with pytest.raises(ValueError):
            DEFAULT.with_values(**bad)
    with pytest.raises(ValueError, match="at least one"):
        Parameters(weights={name: 0.0 for name in DEFAULT.weights})


def replace_(parameters: Parameters, **values: float) -> Parameters:
    return parameters.with_values(**values)
