"""The formatting method (Zhang & Li 2007 step 2, extended): each feature's contribution and the boundary rule.

Small grids, method=format, scores read from px:header-evidence. Weights: docs/headers.md and headers/params.xsl.
"""

from __future__ import annotations

import pytest

from .grid_builder import cell
from .headers_helpers import cell_roles, col_scores, detect, kp, row_parts, row_scores, slot_headers

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


def body(rows: int, cols: int = 3, start: int = 0) -> list[list[object]]:
    """Plain text data rows with lower-case words (no content contrast with a lower-case header)."""
    return [[f"td:{WORDS[(r + c) % len(WORDS)]} {r}{c}x" for c in range(cols)] for r in range(start, start + rows)]


def plain_header(cols: int = 3, **features: object) -> list[object]:
    return [cell("td", f"col{c}x", **features) for c in range(cols)]


# --- per-cell features --------------------------------------------------------------------------------------------

def test_bold_header_row_scores_10() -> None:
    result = detect([plain_header(bold=True), *body(4)], method="format")
    assert row_scores(result) == {0: 10.0, 1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}
    assert kp(result) == (1, 0, "format")


@pytest.mark.parametrize(("size", "score"), [(18, 10.0), (24, 20.0), (32, 30.0), (13, -10.0), (20, 13.33)])
def test_font_size_scores_10_per_html_size_level(size: float, score: float) -> None:
    """(n - k0) * 10 with n, k0 on the <font size> scale 10/13/16/18/24/32/48 px = 1..7 (linear in between)."""
    result = detect([plain_header(font_size=size), *body(4)], method="format")
    assert row_scores(result)[0] == score
    assert kp(result)[0] == (1 if score >= 5 else 0)


def test_base_size_is_the_tables_usual_size_not_16px() -> None:
    """k0 is the size most cells have: a table set in 13px with a 16px header row scores +10 for that row."""
    rows = [[cell("td", text[3:], font_size=13) for text in row] for row in body(4)]
    result = detect([plain_header(font_size=16), *rows], method="format")
    assert row_parts(result)[0] == (10.0, 0.0)
    assert kp(result)[:2] == (1, 0)


def test_italic_scores_1_and_alone_marks_no_header() -> None:
    result = detect([plain_header(italic=True), *body(4)], method="format")
    assert row_scores(result)[0] == 1.0
    assert kp(result) == (0, 0, "none")


def test_trailing_colon_scores_6_and_makes_a_key_column() -> None:
    rows = [[f"td:Key{r}x:", f"td:value {r}"] for r in range(4)]
    result = detect(rows, method="format")
    assert col_scores(result) == {0: 6.0, 1: 0.0}
    assert kp(result) == (0, 1, "format")


def test_full_width_colon_counts_too() -> None:
    result = detect([[f"td:键{r}：", f"td:值{r}"] for r in range(4)], method="format")
    assert col_scores(result)[0] == 6.0


def test_outdented_cells_score_4() -> None:
    rows = [[cell("td", f"Group {r}x", indent=0), cell("td", f"v{r}", indent=12)] for r in range(4)]
    rows += [[cell("td", f"item {r}", indent=12), cell("td", f"w{r}", indent=12)] for r in range(4)]
    result = detect(rows, method="format")
    assert row_scores(result)[0] == 2.0  # one of the two cells is outdented
    assert col_scores(result)[0] == 2.0  # four of eight cells of column 0


def test_face_alone_is_too_weak() -> None:
    result = detect([plain_header(face="georgia"), *body(4)], method="format")
    assert row_scores(result)[0] == 3.0
    assert kp(result) == (0, 0, "none")


def test_text_and_background_colour_together_mark_a_header_band() -> None:
    result = detect([plain_header(color="#ffffff", background="#008000"), *body(4)], method="format")
    assert row_scores(result)[0] == 9.0                           # colours 3 + 3, a band of its own 3
    assert kp(result) == (1, 0, "format")


def test_a_row_of_its_own_background_colour_is_a_header_band() -> None:
    """Issue 13: a header row marked only by its own background colour (a band no other row has) is a header."""
    result = detect([plain_header(background="#f7fcf0"), *body(4)], method="format")
    assert row_scores(result)[0] == 6.0                           # background 3, a band of its own 3
    assert kp(result)[0] == 1


def test_a_background_other_rows_share_or_one_cell_has_is_too_weak() -> None:
    painted = [cell("td", text.removeprefix("td:"), background="#f7fcf0") for text in body(1, start=2)[0]]
    shared = [plain_header(background="#f7fcf0"), *body(2), painted, *body(1, start=3)]
    result = detect(shared, method="format")
    assert row_scores(result)[0] == 3.0 and kp(result)[0] == 0
    one = plain_header()
    one[1] = cell("td", "col1x", background="#f7fcf0")
    result = detect([one, *body(4)], method="format")
    assert row_scores(result)[0] < 5 and kp(result)[0] == 0


def test_a_class_that_sets_cells_apart_scores_3_and_alone_marks_no_header() -> None:
    result = detect([plain_header(class_="columnrow"), *body(4)], method="format")
    assert row_scores(result)[0] == 3.0
    assert kp(result)[0] == 0


def test_a_row_class_that_sets_the_header_row_apart_scores_3() -> None:
    rows = [{"cells": plain_header(), "class_": "bg2"}, *[{"cells": row, "class_": "bg1"} for row in body(4)]]
    result = detect(rows, method="format")
    assert row_scores(result)[0] == 3.0


def test_row_classes_that_name_each_row_are_not_styling() -> None:
    rows = [{"cells": row, "class_": f"product-row-{r}"} for r, row in enumerate([plain_header(), *body(4)])]
    assert row_scores(detect(rows, method="format"))[0] == 0.0


def test_a_class_named_for_a_heading_scores_9() -> None:
    """3 for differing from the table's usual class, 6 for a name with "label" in it: a key column "tdlabel"."""
    rows = [[cell("td", f"Key {r}x", class_="tdlabel"), f"td:value {r}"] for r in range(5)]
    result = detect(rows, method="format")
    assert col_scores(result)[0] == 9.0
    assert kp(result) == (0, 1, "format")


def test_classes_that_only_name_the_columns_make_no_header_column() -> None:
    rows = [[cell("td", f"{50 * r} g", class_="ingredients-value"), cell("td", f"flour {r}", class_="ingredients-name")]
            for r in range(5)]
    assert kp(detect(rows, method="format")) == (0, 0, "none")


def test_microformat_classes_are_not_styling() -> None:
    rows = [[cell("td", f"Person {r}x", class_="vcard fn"), f"td:value {r}"] for r in range(5)]
    assert col_scores(detect(rows, method="format"))[0] == 0.0


def test_zebra_stripes_are_no_header() -> None:
    rows = [{"cells": row, "class_": "odd" if r % 2 == 0 else "even"} for r, row in enumerate(body(8))]
    result = detect(rows, method="format")
    assert kp(result) == (0, 0, "none")


# --- content evidence ----------------------------------------------------------------------------------------------

def test_text_over_numeric_columns_scores_10_without_formatting() -> None:
    rows = [["td:year", "td:deaths", "td:accidents"]] + [[f"td:{2012 - r}", f"td:{800 + r}", f"td:1,{r}00"]
                                                          for r in range(6)]
    result = detect(rows, method="format")
    assert row_parts(result)[0] == (0.0, 10.0)
    assert row_parts(result)[1] == (0.0, 0.0)
    assert kp(result) == (1, 0, "format")


def test_capitalized_labels_over_lower_case_values_score_6() -> None:
    rows = [["td:Japanese", "td:Romaji", "td:English"]] + [
        ["td:目の前で", "td:me no mae de", "td:in front of"], ["td:痴漢する", "td:chikan suru", "td:to grope"],
        ["td:その時に", "td:sono toki ni", "td:at that time"], ["td:落ち着く", "td:ochitsuku", "td:calm down"]]
    result = detect(rows, method="format")
    assert row_parts(result)[0] == (0.0, 6.0)
    assert kp(result) == (1, 0, "format")


def test_short_label_over_long_descriptions_scores_6() -> None:
    rows = [["td:Key", "td:Description"]] + [[f"td:{key}", f"td:Select a package for installation number {i}"]
                                           for i, key in enumerate(["+", "=", "i, I", "o, O", "v, V"])]
    result = detect(rows, method="format")
    assert row_parts(result)[0][1] == 6.0
    assert kp(result) == (1, 0, "format")


def test_headerless_numeric_table_is_none() -> None:
    rows = [[f"td:{r + 1}", f"td:Name {r}x", f"td:{1000 - 7 * r}.5"] for r in range(8)]
    result = detect(rows, method="format")
    assert kp(result) == (0, 0, "none")


def test_content_does_not_make_a_key_column_a_header_column() -> None:
    """A text column beside numbers is the key column of a relational table: p stays 0 (content counts in rows only)."""
    rows = [["td:name", "td:age", "td:score"]] + [[f"td:Person {r}x", f"td:{20 + r}", f"td:{50 + r}"] for r in range(6)]
    result = detect(rows, method="format")
    assert kp(result) == (1, 0, "format")


# --- boundary rule -----------------------------------------------------------------------------------------------

def test_two_equally_bold_header_rows() -> None:
    """Two bold header rows: D(1) = 0 is no boundary, D(2) = 10 is -> k = 2."""
    result = detect([plain_header(bold=True), plain_header(bold=True), *body(5)], method="format")
    assert kp(result)[0] == 2


def test_boundary_must_separate_higher_scoring_header_rows() -> None:
    """A bold row in the middle of the body makes a large adjacent difference but heads nothing."""
    rows = [*body(3), plain_header(bold=True), *body(4, start=3)]
    result = detect(rows, method="format")
    assert kp(result) == (0, 0, "none")


def test_bold_total_row_at_the_bottom_does_not_move_the_boundary() -> None:
    rows = [plain_header(bold=True), *body(6), [cell("td", f"total{c}", bold=True) for c in range(3)]]
    result = detect(rows, method="format")
    assert kp(result)[0] == 1


def test_headers_are_a_minority_of_the_rows() -> None:
    """Candidates stop at half the rows: three bold rows over two plain ones are not a header."""
    rows = [plain_header(bold=True), plain_header(bold=True), plain_header(bold=True), *body(2)]
    result = detect(rows, method="format")
    assert kp(result)[0] == 0


def test_title_row_above_the_label_row_counts_in_k() -> None:
    rows = [[cell("td", "Population statistics", colspan=3, bold=True, font_size=18)], plain_header(bold=True),
            *body(5)]
    result = detect(rows, method="format")
    assert kp(result)[0] == 2


def test_bold_key_column_and_bold_header_row_make_a_matrix() -> None:
    rows = [["td:", cell("td", "Coinbase", bold=True), cell("td", "Coinbase Pro", bold=True)]]
    rows += [[cell("td", label, bold=True), f"td:simple {i}", f"td:professional {i}"]
             for i, label in enumerate(["Features", "Fees", "Security", "Types"])]
    result = detect(rows, method="format")
    assert kp(result) == (1, 1, "format")
    assert slot_headers(result, 2, 1) == (["Fees"], ["Coinbase"])


def test_section_row_heads_the_rows_below_and_is_not_a_header_row() -> None:
    rows = [plain_header(bold=True), *body(2), [cell("td", "Group B", colspan=3, bold=True)], *body(2, start=2)]
    result = detect(rows, method="format")
    assert kp(result)[:2] == (1, 0)
    assert cell_roles(result)["Group B"] == "section"
    assert slot_headers(result, 4, 1) == (["Group B"], ["col1x"])
    assert slot_headers(result, 1, 1) == ([], ["col1x"])


def test_format_method_ignores_th() -> None:
    """method=format: th without bold or any other formatting is not a header (as if the author marked nothing)."""
    rows = [[cell("th", f"col{c}x", bold=False) for c in range(3)], *body(4)]
    assert kp(detect(rows, method="format")) == (0, 0, "none")
    assert kp(detect(rows, method="auto")) == (1, 0, "markup")


def test_lowest_valid_boundary_when_header_rows_differ_in_strength() -> None:
    """A grouping row in larger bold type (A = 30) over a bold label row (A = 10): the paper's largest D falls between
    them (D(1) = 20, D(2) = 10), but both stand out from the data, so k = 2."""
    rows = [[cell("td", "Group one", colspan=2, bold=True, font_size=24), cell("td", "Group two", bold=True,
                                                                                   font_size=24)],
            plain_header(bold=True), *body(5)]
    result = detect(rows, method="format")
    assert row_parts(result)[0][0] == 30.0 and row_parts(result)[1][0] == 10.0
    assert kp(result)[0] == 2


def test_highlighted_first_data_row_is_not_a_header_row() -> None:
    """A bold winner row right below the header holds numbers in the numeric columns: a data row (data-typed veto)."""
    rows = [[cell("td", label, bold=True) for label in ("rank", "rider", "points")],
            [cell("td", "1", bold=True), cell("td", "robbie mcewen", bold=True), cell("td", "288", bold=True)],
            *[[f"td:{r}", f"td:rider number {r}", f"td:{300 - 10 * r}"] for r in range(2, 8)]]
    result = detect(rows, method="format")
    assert kp(result)[0] == 1


def test_a_header_needs_features_of_its_own() -> None:
    """A plain row over rows whose last two cells are set in 10 px (A = -20 each, row mean -10) is 10 above the
    data but carries nothing itself: no header."""
    rows = [plain_header(4)] + [[cell("td", text[3:], font_size=16 if c < 2 else 10) for c, text in enumerate(row)]
                                for row in body(5, cols=4)]
    result = detect(rows, method="format")
    assert row_parts(result)[0][0] == 0.0 and row_parts(result)[1][0] == -10.0
    assert kp(result) == (0, 0, "none")


def test_a_title_over_nothing_is_no_header() -> None:
    rows = [[cell("td", "Scoreboard", colspan=3, bold=True)], ["td:", "td:", "td:"]]
    assert kp(detect(rows, method="format")) == (0, 0, "none")
