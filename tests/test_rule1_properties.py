"""Rule 1 output a user can trust (issue 13), as properties over generated tables and texts (hypothesis).

Classes: names escape reversibly (escape then unescape gives the word back, so distinct words give distinct names);
sibling names are unique per distinct header and the same header keeps one name (the merge rule still joins what
the paper joins); labels, names and pair headers are free of reference marks; rows with missing values never become
section rows.
"""

from __future__ import annotations

import re
import unicodedata

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lxml import etree

import pyxform

from .test_map_names import is_ncname, names

PX = "{urn:pyxform}"
ESCAPE = re.compile(r"_x([0-9A-F]{4}|[0-9A-F]{8})_")


def unescape(name: str) -> str:
    """The word a name made of one word stands for: the leading "_" (added before a digit, a mark or "xml") dropped
    unless it starts an escape, every _xHHHH_ replaced by its character, canonical composition (NFC)."""
    if name.startswith("_") and not ESCAPE.match(name):
        name = name[1:]
    return unicodedata.normalize("NFC", ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), name))


# Words as the name rule sees them: letters, marks and decimal digits of every script (BMP and beyond), already in
# the form the rule brings them to (NFKC, lower case), short enough not to be cut; without the apostrophes the rule
# drops on purpose ("Women's" gives womens).
WORD = (st.text(st.characters(categories=("Ll", "Lo", "Lm", "Mn", "Nd"), max_codepoint=0x2FFFF), min_size=1,
                max_size=12)
        .map(lambda w: unicodedata.normalize("NFKC", w))
        .filter(lambda w: w and w.lower() == w and unicodedata.normalize("NFKC", w) == w
                and all(unicodedata.category(c) in ("Ll", "Lo", "Lm", "Mn", "Nd") for c in w)
                and not set(w) & set("'’‘ʼ`´")))


@settings(max_examples=80, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=25, unique=True))
def test_escape_then_unescape_gives_the_word_back(words: list[str]) -> None:
    made = names(*words)
    whole = [(word, name) for word, name in zip(words, made, strict=True) if len(name) <= 53]   # not cut (an
    assume(whole)                                                 # escape is at most 11 characters)
    for word, name in whole:
        assert is_ncname(name), (word, name)
        assert unescape(name) == word, (word, name)
    assert len({name for _, name in whole}) == len(whole)        # distinct words, distinct names


# -- sibling names ---------------------------------------------------------------------------------------------------

# Header texts that collide under the name rule in every way the rule allows: case, reference marks, punctuation,
# pyxform's own names, empty headers, long texts that agree in their first 64 characters.
HEADER = st.sampled_from(["Name", "name", "NAME", "Name[1]", "Name [a]", "Row", "row", "Note", "Column 1",
                          "column-2", "", " ", "—", "*", "Total", "total!", "Score (%)", "Score %",
                          "word " * 13 + "alpha", "word " * 13 + "beta", "Ann's", "Anns"])


def _table(headers: list[str], rows: int) -> str:
    head = "".join(f"<th>{h}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>v{r}.{c}</td>" for c in range(len(headers))) + "</tr>"
                   for r in range(rows))
    return f"<table><tr>{head}</tr>{body}</table>"


@settings(max_examples=40, deadline=None)
@given(st.lists(HEADER, min_size=1, max_size=8), st.integers(1, 3))
def test_names_are_unique_per_distinct_header_among_siblings(headers: list[str], rows: int) -> None:
    root = etree.fromstring(pyxform.convert(_table(headers, rows).encode()).to_bytes())
    records = root.findall("table/row")
    assert len(records) == rows
    seen: dict[str, str] = {}                                     # label (or position) -> name, over all records
    for record in records:
        names_here = [etree.QName(child).localname for child in record]
        keys = [child.get(PX + "label", "#" + etree.QName(child).localname) for child in record]
        assert len(names_here) == len(headers)                    # every value kept, none merged into another
        for name, key in zip(names_here, keys, strict=True):
            assert seen.setdefault(key, name) == name            # one header, one name in every record
        by_name: dict[str, set[str]] = {}
        for name, key in zip(names_here, keys, strict=True):
            by_name.setdefault(name, set()).add(key)
        assert all(len(keys_) == 1 for keys_ in by_name.values())   # one name, one header
        assert not any(re.fullmatch(r"row|note", name) for name in names_here)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["A", "B", "a", "Average", "Total"]), min_size=1, max_size=3),
       st.lists(st.sampled_from(["x", "X", "Height", "Weight"]), min_size=2, max_size=2),
       st.integers(1, 3))
def test_the_merge_rule_still_joins_what_the_paper_joins(groups: list[str], leaves: list[str], rows: int) -> None:
    """Two header rows, each group header spanning two leaf headers, one row header column: each row gives one
    element per group header cell holding one element per leaf (Zhang & Li's merge rule, as in their Example 1)."""
    top = "<th rowspan=2></th>" + "".join(f"<th colspan=2>{g}</th>" for g in groups)
    second = "".join(f"<th>{leaf}</th>" for _ in groups for leaf in leaves)
    body = "".join(f"<tr><th>r{r}</th>" + "".join(f"<td>{r}.{i}</td>" for i in range(2 * len(groups))) + "</tr>"
                   for r in range(rows))
    root = etree.fromstring(pyxform.convert(f"<table><tr>{top}</tr><tr>{second}</tr>{body}</table>".encode())
                            .to_bytes())
    table = root[0]
    assert len(table) == rows
    for r, row in enumerate(table):
        assert row.get(PX + "label") == f"r{r}"
        assert [g.get(PX + "label") for g in row] == groups       # one element per group cell, merged over its span
        for i, group in enumerate(row):
            assert [leaf.text for leaf in group] == [f"{r}.{2 * i}", f"{r}.{2 * i + 1}"]
            labels = [leaf.get(PX + "label") for leaf in group]
            assert labels == leaves
            names_here = [etree.QName(leaf).localname for leaf in group]
            assert (names_here[0] == names_here[1]) == (labels[0] == labels[1])


# -- labels ----------------------------------------------------------------------------------------------------------

MARK = st.sampled_from(["[1]", "[12]", "[a]", "[B]", "[iv]", "[note 3]", "[nb 1]", "[citation needed]", " [7]",
                        "<br>[18]", "<sup>[2]</sup>", "[1][2]"])
LABEL = st.text(st.sampled_from("abcdefghij XYZ"), min_size=1, max_size=10).filter(lambda t: t.strip())


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(LABEL, st.lists(MARK, max_size=2)), min_size=1, max_size=5, unique_by=lambda t: t[0]))
def test_labels_names_and_pair_headers_are_free_of_reference_marks(headers: list[tuple[str, list[str]]]) -> None:
    html = _table([label + "".join(marks) for label, marks in headers], 1)
    conversion = pyxform.convert(html.encode())
    expected = [" ".join(label.split()) for label, _ in headers]
    record = etree.fromstring(conversion.to_bytes()).find("table/row")
    assert [child.get(PX + "label") for child in record] == expected
    bare = [etree.QName(e).localname for e in etree.fromstring(pyxform.convert(_table(expected, 1).encode())
                                                                .to_bytes()).find("table/row")]
    assert [etree.QName(child).localname for child in record] == bare     # the name of the label without marks
    assert [pair["col_headers"] for pair in conversion.pairs()] == [[label] for label in expected]
    assert conversion.tables()[0].header() == expected


# -- rows with missing values ----------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.booleans(),
       st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=2, max_size=7))
def test_rows_with_missing_values_never_become_sections(columns: int, row_headers: bool,
                                                         filled: list[list[bool]]) -> None:
    """A table whose rows all have one shape (a th row header, or a td, in the first column; td values after it),
    with any values missing (at least one given: a table of th cells alone tells nothing by its markup): every row
    is a data row, its values under its own headers."""
    assume(any(row[c] for row in filled for c in range(1, columns)))
    head = "".join(f"<th>H{c}</th>" for c in range(columns))
    body = ""
    for r, row in enumerate(filled):
        first = f"<th>R{r}</th>" if row_headers else f"<td>R{r}</td>"
        body += "<tr>" + first + "".join(f"<td>{f'v{r}.{c}' if row[c] else ''}</td>"
                                         for c in range(1, columns)) + "</tr>"
    conversion = pyxform.convert(f"<table><tr>{head}</tr>{body}</table>".encode())
    headers = pyxform.headers(f"<table><tr>{head}</tr>{body}</table>".encode())
    evidence = headers.document.getroot().find(PX + "table/" + PX + "header-evidence")
    assert [e.get("kind") for e in evidence.iter(PX + "row-kind") if e.get("kind") == "section"] == []
    expected = {(r + 1, c): f"v{r}.{c}" for r, row in enumerate(filled) for c in range(1, columns) if row[c]}
    pairs = conversion.pairs()
    assert {(p["row"], p["col"]): p["value"] for p in pairs if p["col"] > 0} == expected
    for pair in pairs:
        if pair["col"] > 0:
            assert pair["col_headers"] == [f"H{pair['col']}"]
            assert pair["row_headers"] == ([f"R{pair['row'] - 1}"] if row_headers else [])
    table = conversion.tables()[0]
    assert [record[0] for record in table.records] == [f"R{r}" for r in range(len(filled))]
