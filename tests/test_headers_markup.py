"""The markup method: k and p from th/thead, and the WHATWG "algorithm for assigning header cells" (HTML 4.9.12.2)
on small tables with scope, headers/id, row groups, header blocks and opaque headers, section rows, repeated header
rows and summary rows."""

from __future__ import annotations

from .grid_builder import cell
from .headers_helpers import PX, cell_roles, detect, evidence, kp, slot_headers


def test_scope_auto_corner_row_and_column_headers() -> None:
    rows = [["th:", "th:2008", "th:2007"],
            ["th:Net sales", "td:$ 32,479", "td:$ 24,006"],
            ["th:Cost of sales", "td:21,334", "td:15,852"]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    assert slot_headers(result, 1, 1) == (["Net sales"], ["2008"])
    assert slot_headers(result, 2, 2) == (["Cost of sales"], ["2007"])


def test_whatwg_operating_expenses_example_with_rowgroup_headers() -> None:
    """The spec's own example: th scope=rowgroup heads its row group, th scope=row its row."""
    rows = [{"cells": ["th:", "th:2008", "th:2007"], "group_kind": "thead"},
            {"cells": [cell("th", "Research and development", scope="rowgroup"), "td:$ 1,109", "td:$ 782"],
             "group": 1},
            {"cells": [cell("th", "Percentage of net sales", scope="row"), "td:3.4%", "td:3.3%"], "group": 1},
            {"cells": [cell("th", "Selling, general, and administrative", scope="rowgroup"), "td:$ 3,761",
                       "td:$ 2,963"], "group": 2},
            {"cells": [cell("th", "Percentage of net sales", scope="row"), "td:11.6%", "td:12.3%"], "group": 2}]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    assert slot_headers(result, 1, 1) == (["Research and development"], ["2008"])
    assert slot_headers(result, 2, 2) == (["Research and development", "Percentage of net sales"], ["2007"])
    assert slot_headers(result, 4, 1) == (["Selling, general, and administrative", "Percentage of net sales"],
                                          ["2008"])


def test_headers_attribute_names_the_header_cells() -> None:
    """ACT rule example: headers="col1" takes the cell out of its column header's scope."""
    rows = [[cell("th", "Country", id="col1"), cell("th", "Starting with a Z", id="col2")],
            ["td:Zambia", cell("td", "Zimbabwe", headers="col1")]]
    result = detect(rows)
    assert slot_headers(result, 1, 0) == ([], ["Country"])
    assert slot_headers(result, 1, 1) == ([], ["Country"])


def test_headers_attribute_with_unknown_and_own_ids() -> None:
    rows = [[cell("th", "A", id="a"), cell("th", "B", id="b")],
            [cell("td", "x", id="self", headers="nowhere self b"), "td:y"]]
    result = detect(rows)
    assert slot_headers(result, 1, 0) == ([], ["B"])


def test_scope_col_and_row_force_the_direction() -> None:
    """A th with scope=col in a data row heads the cells below it; scope=row the cells right of it."""
    rows = [["th:Item", "th:Price"],
            [cell("th", "Fruit", scope="col"), "td:"],
            ["td:apple", "td:1.20"],
            [cell("th", "Pear", scope="row"), "td:0.90"]]
    result = detect(rows)
    assert slot_headers(result, 2, 0) == ([], ["Item", "Fruit"])
    assert slot_headers(result, 3, 1) == (["Pear"], ["Price"])


def test_colgroup_header_heads_the_columns_it_spans() -> None:
    rows = [[cell("th", "North", colspan=2, scope="colgroup"), cell("th", "South", colspan=2, scope="colgroup")],
            ["th:Q1", "th:Q2", "th:Q1", "th:Q2"],
            ["td:1", "td:2", "td:3", "td:4"]]
    result = detect(rows)
    assert kp(result)[:2] == (2, 0)
    assert slot_headers(result, 2, 2) == ([], ["South", "Q1"])


def test_repeated_header_row_is_a_header_and_makes_the_top_header_opaque() -> None:
    """Scanning up from row 3 meets the repeated "Score" (added), a data cell, then the top "Score": same column and
    width as an opaque header, so blocked (WHATWG internal algorithm, step "blocked")."""
    rows = [["th:Name", "th:Score"], ["td:Ann", "td:1"], ["th:Name", "th:Score"], ["td:Bob", "td:2"]]
    result = detect(rows)
    assert kp(result) == (1, 0, "markup")
    table = result.document.getroot().find(f"{PX}table")
    row3 = table.find(f"{PX}row[@index='3']/{PX}slot[@col='1']")
    repeated_score = table.find(f"{PX}cell[@row='2'][@col='1']").get("id")
    assert row3.get("column-headers") == repeated_score
    assert [e.get("kind") for e in evidence(result).iter(f"{PX}row-kind")] == ["repeat"]


def test_wider_header_is_not_blocked_by_a_narrower_one() -> None:
    rows = [[cell("th", "Scores", colspan=2)], ["td:a", "td:b"], ["th:Home", "th:Away"], ["td:1", "td:2"]]
    result = detect(rows)
    assert slot_headers(result, 3, 0) == ([], ["Scores", "Home"])


def test_section_rows_head_the_data_rows_below() -> None:
    """Rule 1 of the issue: a full-width row in the body ("Group A") is a section cell, not a data row."""
    rows = [["th:Team", "th:Points"],
            [cell("th", "Group A", colspan=2)], ["td:Lions", "td:7"], ["td:Bears", "td:4"],
            [cell("td", "Group B", colspan=2)], ["td:Wolves", "td:6"],
            [cell("td", "Source: league table of 2024, compiled by the editors", colspan=2)]]
    result = detect(rows)
    assert kp(result) == (1, 0, "markup")
    roles = cell_roles(result)
    assert roles["Group A"] == roles["Group B"] == "section"
    assert roles["Source: league table of 2024, compiled by the editors"] == "data"  # a note after the last data row
    assert slot_headers(result, 3, 1) == (["Group A"], ["Points"])
    assert slot_headers(result, 5, 0) == (["Group B"], ["Team"])


def test_consecutive_section_rows_nest() -> None:
    rows = [["th:City", "th:People"], [cell("th", "Europe", colspan=2)], [cell("th", "Germany", colspan=2)],
            ["td:Berlin", "td:3.6"], [cell("th", "France", colspan=2)], ["td:Paris", "td:2.1"]]
    result = detect(rows)
    assert slot_headers(result, 3, 1) == (["Europe", "Germany"], ["People"])
    assert slot_headers(result, 5, 1) == (["France"], ["People"])


def test_summary_row_of_th_with_numbers_is_data_headed_by_its_first_cell() -> None:
    rows = [["th:Year", "th:Wins", "th:Earnings"],
            ["th:1985", "td:0", "td:0"], ["th:1986", "td:1", "td:113,245"],
            ["th:Career", "th:20", "th:42,511,946"]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    roles = cell_roles(result)
    assert roles["42,511,946"] == "data" and roles["Career"] == "header"
    assert slot_headers(result, 3, 2) == (["Career"], ["Earnings"])


def test_thead_rows_are_header_rows_even_of_td() -> None:
    rows = [{"cells": ["td:Name", "td:Age"], "group_kind": "thead"}, ["td:Ann", "td:31"], ["td:Bob", "td:42"]]
    assert kp(detect(rows)) == (1, 0, "markup")


def test_td_title_row_above_th_header_row_counts() -> None:
    rows = [[cell("td", "2013-14 league table", colspan=3)], ["th:Club", "th:Played", "th:Won"],
            ["td:Saracens", "td:22", "td:19"], ["td:Bath", "td:22", "td:14"]]
    assert kp(detect(rows)) == (2, 0, "markup")


def test_empty_rows_at_the_top_count_when_a_header_row_follows() -> None:
    rows = [["td:", "td:"], ["th:Code", "th:Label"], ["td:c1", "td:first"], ["td:", "td:"], ["td:c2", "td:second"]]
    assert kp(detect(rows)) == (2, 0, "markup")


def test_header_cells_without_text_are_not_listed() -> None:
    rows = [["th:", "th:Age"], ["th:", "td:31"], ["th:Bob", "td:42"]]
    result = detect(rows)
    assert slot_headers(result, 1, 1) == ([], ["Age"])
    assert slot_headers(result, 2, 1) == (["Bob"], ["Age"])


def test_entity_table_with_th_keys_has_one_header_column() -> None:
    rows = [["th:Page views", "td:1,234,567"], ["th:Unique visitors", "td:98,765"]]
    result = detect(rows)
    assert kp(result) == (0, 1, "markup")
    assert slot_headers(result, 1, 1) == (["Unique visitors"], [])


def test_markup_that_marks_every_cell_falls_back_to_formatting() -> None:
    rows = [[cell("th", "Name", font_size=20), cell("th", "Age", font_size=20)],
            [cell("th", "Ann", bold=False), cell("th", "31", bold=False)],
            [cell("th", "Bob", bold=False), cell("th", "42", bold=False)]]
    result = detect(rows)
    assert kp(result) == (1, 0, "format")


def test_table_without_markup_uses_formatting_in_auto_mode() -> None:
    rows = [[cell("td", "Name", bold=True), cell("td", "Age", bold=True)], ["td:Ann", "td:31"], ["td:Bob", "td:42"]]
    assert kp(detect(rows)) == (1, 0, "format")


def test_th_title_row_is_extended_by_a_formatted_label_row() -> None:
    """A calendar: a th month title spanning the table (markup), then weekday names as coloured td over day numbers:
    the title labels no column, so the formatting method finds the label row below it."""
    rows = [[cell("th", "Oktober 2020", colspan=7)],
            [cell("td", day, background="#f7fcf0") for day in ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]],
            ["td:", "td:", "td:", "td:01", "td:02", "td:03", "td:04"],
            ["td:05", "td:06", "td:07", "td:08", "td:09", "td:10", "td:11"],
            ["td:12", "td:13", "td:14", "td:15", "td:16", "td:17", "td:18"],
            ["td:19", "td:20", "td:21", "td:22", "td:23", "td:24", "td:25"]]
    result = detect(rows)
    assert kp(result) == (2, 0, "markup")
    assert slot_headers(result, 3, 2) == ([], ["Oktober 2020", "Mi"])


def test_markup_method_alone_reports_none_for_a_table_without_th() -> None:
    rows = [[cell("td", "Name", bold=True), cell("td", "Age", bold=True)], ["td:Ann", "td:31"], ["td:Bob", "td:42"]]
    assert kp(detect(rows, method="markup")) == (0, 0, "none")


def test_note_row_starting_in_a_header_column_is_data_and_keeps_the_row_headers() -> None:
    """A climate box: th labels in column 0 and a "Source" note spanning the table at the bottom. The note is data
    (its first slot lies in the header column, which does not make it a header), and the one td it puts in column 0
    does not stop the th above it from heading their rows (WHATWG's auto state would: no td in the th's columns)."""
    rows = [["th:Month", "th:Jan", "th:Feb"],
            ["th:Record high", "td:10", "td:12"],
            ["th:Average low", "td:1", "td:2"],
            [cell("td", "Source: NOAA", colspan=3)]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    assert cell_roles(result)["Source: NOAA"] == "data"
    assert slot_headers(result, 1, 1) == (["Record high"], ["Jan"])
    assert slot_headers(result, 2, 2) == (["Average low"], ["Feb"])
    assert slot_headers(result, 3, 0) == ([], ["Month"])


def test_th_in_a_data_row_heads_its_row_even_in_a_column_of_td() -> None:
    """A "Career Totals" th under td years heads the numbers of its row (role rowheader, as accessibility APIs map a
    th in a row of td); WHATWG's auto state would make it head nothing, since its column holds td."""
    rows = [["th:Year", "th:GP", "th:Yds"],
            ["td:1981", "td:14", "td:525"],
            ["td:1982", "td:9", "td:430"],
            ["th:Career Totals", "td:23", "td:955"]]
    result = detect(rows)
    assert kp(result) == (1, 0, "markup")
    assert slot_headers(result, 3, 2) == (["Career Totals"], ["Yds"])
    assert slot_headers(result, 1, 1) == ([], ["GP"])


def test_total_row_under_a_td_spanning_down_is_a_summary_row_and_blocks_nothing() -> None:
    """A club's name in td spans its seasons and its th Total row: the row's own cells are all th and hold numbers,
    so it is a summary (data) row, not a row of header cells that would hide "Apps" from every row below."""
    rows = [[cell("th", "Club", rowspan=2), cell("th", "Season", rowspan=2), cell("th", "League", colspan=2)],
            ["th:Apps", "th:Goals"],
            [cell("td", "Anzhi", rowspan=3), "td:1999", "td:40", "td:2"],
            ["td:2000", "td:30", "td:3"],
            ["th:Total", "th:70", "th:5"],
            ["td:CSKA", "td:2001", "td:12", "td:1"]]
    result = detect(rows)
    assert kp(result) == (2, 0, "markup")
    assert [e.get("kind") for e in evidence(result).iter(f"{PX}row-kind")] == ["summary"]
    roles = cell_roles(result)
    assert roles["Total"] == roles["70"] == "data"
    assert slot_headers(result, 4, 2) == ([], ["League", "Apps"])
    assert slot_headers(result, 5, 2) == ([], ["League", "Apps"])


def test_stacked_sub_tables_each_title_heads_only_its_own_rows() -> None:
    """Sub-tables stacked in one table, each a wide title over the same labels: the top title is the first section,
    so it heads the rows of its own sub-table (as a section, like the later titles) and not those below."""
    rows = [[cell("th", "First incarnation", colspan=3)],
            ["th:Member", "th:Party", "th:Term"],
            ["td:John Ryan", "td:None", "td:1859"],
            [cell("th", "Second incarnation", colspan=3)],
            ["th:Member", "th:Party", "th:Term"],
            ["td:James Carroll", "td:Labor", "td:1894"]]
    result = detect(rows)
    assert kp(result) == (2, 0, "markup")
    assert cell_roles(result)["First incarnation"] == "section"
    assert slot_headers(result, 2, 0) == (["First incarnation"], ["Member"])
    assert slot_headers(result, 5, 1) == (["Second incarnation"], ["Party"])


def test_title_over_a_section_without_repeated_labels_heads_every_row() -> None:
    """An election box: the title names the whole table, and a section row below it ("Two-party-preferred") does
    not repeat the labels, so the table is no stack of sub-tables and the title heads the section's rows too."""
    rows = [[cell("th", "Election 2014", colspan=3)],
            ["th:Party", "th:Votes", "th:%"],
            ["td:Liberal", "td:11,469", "td:55.1"],
            ["td:Labor", "td:5,314", "td:25.5"],
            [cell("th", "Two-party-preferred result", colspan=3)],
            ["td:Liberal", "td:13,444", "td:64.6"]]
    result = detect(rows)
    assert cell_roles(result)["Election 2014"] == "header"
    assert slot_headers(result, 5, 1) == (["Two-party-preferred result"], ["Election 2014", "Votes"])


def test_th_alone_in_its_row_heads_that_row_not_the_rows_below() -> None:
    """A th alone in a row of empty cells heads its own row, a data row with missing values, when the th cells of its
    column head their rows ("<th>Europe</th><td></td><td></td>" among th row headers, scope=row or not: issue 13),
    in the body and as the last row (where a section heading would be read as a note, i.e. data)."""
    rows = [["th:Country", "th:Gold", "th:Silver"],
            [cell("th", "Norway", scope="row"), "td:16", "td:8"],
            ["th:Europe", "td:", "td:"],
            [cell("th", "Latvia", scope="row"), "td:", "td:"],
            [cell("th", "Sweden", scope="row"), "td:8", "td:5"],
            [cell("th", "Iceland", scope="row"), "td:", "td:"]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    roles = cell_roles(result)
    assert roles["Europe"] == roles["Latvia"] == roles["Iceland"] == "header"
    assert slot_headers(result, 4, 1) == (["Sweden"], ["Gold"])
    assert slot_headers(result, 5, 2) == (["Iceland"], ["Silver"])


def test_th_alone_in_its_row_over_td_rows_is_a_section() -> None:
    """A th alone in a row of empty cells where its column holds td cells is set apart from its column: a section
    heading over the rows below ("<th>Europe</th><td></td><td></td>" over rows of td)."""
    rows = [["th:Country", "th:Gold", "th:Silver"],
            ["td:Chile", "td:1", "td:2"],
            ["th:Europe", "td:", "td:"],
            ["td:Norway", "td:16", "td:8"],
            ["td:Sweden", "td:8", "td:5"]]
    result = detect(rows)
    assert cell_roles(result)["Europe"] == "section"
    assert slot_headers(result, 4, 1) == (["Europe"], ["Gold"])


def test_a_row_of_th_scope_row_over_empty_cells_is_no_header_row_at_the_top() -> None:
    """A navigation box: under its title, group headings with scope=row over their lists; a group whose list is
    empty (or only a nested table) leaves a row whose only text is a th with scope=row. Its author declares that
    the th heads its own row, so it is a data row there as in the body, not a column-label row (k = 1, not 2)."""
    rows = [[cell("th", "Radio stations", colspan=2, scope="col")],
            [cell("th", "National", scope="row"), "td:"],
            [cell("th", "Local", scope="row"), "td:Alpha FM, Beta FM"],
            [cell("th", "Digital", scope="row"), "td:Gamma"]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    roles = cell_roles(result)
    assert roles["National"] == roles["Local"] == "header"
    assert slot_headers(result, 1, 1) == (["National"], ["Radio stations"])
    assert slot_headers(result, 2, 1) == (["Local"], ["Radio stations"])


def test_a_wide_title_in_thead_over_section_rows_stays_the_header() -> None:
    """A run of wide rows at the top of a table with section rows below is the first section (a succession box),
    unless it is in thead: there its author declares it the table's header, which heads every row (not only the
    rows up to the first section)."""
    rows = [{"cells": [cell("th", "1979-80 season", colspan=2)], "group_kind": "thead"},
            [cell("th", "League", scope="row"), "td:NBA"],
            [cell("th", "Draft", colspan=2)],
            [cell("th", "Top pick", scope="row"), "td:Magic Johnson"],
            [cell("th", "Finals", colspan=2)],
            [cell("th", "Champions", scope="row"), "td:Lakers"]]
    result = detect(rows)
    assert kp(result) == (1, 1, "markup")
    assert cell_roles(result)["1979-80 season"] == "header"
    assert slot_headers(result, 1, 1) == (["League"], ["1979-80 season"])
    assert slot_headers(result, 5, 1) == (["Finals", "Champions"], ["1979-80 season"])


def test_the_formatting_method_adds_no_row_with_a_th_scope_row_under_a_title() -> None:
    """When the markup's header is only a title row, the formatting method looks for column-label rows under it;
    a row holding a th with scope=row is none (its author declares the row a data row), however it scores."""
    import pyxform

    page = ("<table><tr><th colspan=2 style='font-size:18px'>Def Jam Recordings</th></tr>"
            "<tr><th scope=row>Founders</th><td>Russell Simmons<br>Rick Rubin</td></tr>"
            "<tr><th scope=row>Artists</th><td>alpha beta<br>gamma</td></tr>"
            "<tr><th scope=row>Subsidiaries</th><td>south side, island</td></tr></table>")
    result = pyxform.headers(page)
    assert [(t.header_rows, t.header_cols) for t in result.tables] == [(1, 1)]
    assert evidence(result).find(f"{PX}format").get("header-rows") == "2"  # what the formatting method found
    pairs = pyxform.convert(page).pairs()
    assert [(p["row"], p["row_headers"], p["col_headers"]) for p in pairs] == [
        (1, ["Founders"], ["Def Jam Recordings"]), (2, ["Artists"], ["Def Jam Recordings"]),
        (3, ["Subsidiaries"], ["Def Jam Recordings"])]


def test_rowgroup_headings_of_section_rows_are_markup_enough_without_header_rows() -> None:
    """A succession box written with th scope=rowgroup: no header row or column (its first row is the first
    section), but the markup says which rows each heading heads, so the markup method decides (the formatting
    method would read the bold first row as a title heading every column)."""
    rows = [[cell("th", "Parliament", colspan=3, scope="rowgroup")],
            ["td:Preceded by Alfred", "td:Member for Ashton", "td:Succeeded by Albert"],
            [cell("th", "Political offices", colspan=3, scope="rowgroup")],
            ["td:New office", "td:Minister of Information", "td:Succeeded by Lord Downham"]]
    result = detect(rows)
    assert kp(result) == (0, 0, "none")
    assert evidence(result).find(f"{PX}markup").get("usable") == "true"
    assert cell_roles(result)["Parliament"] == "section"
    assert slot_headers(result, 1, 1) == (["Parliament"], [])
    assert slot_headers(result, 3, 1) == (["Political offices"], [])


def test_th_row_headers_over_cells_holding_only_tables_are_usable_markup() -> None:
    """Every cell with text is a th, but the td beside them hold nested tables: data cells with content, so the
    markup says something (p = 1: each th heads its row's nested table), not "every cell is a header"."""
    import pyxform

    page = ("<table><tr><th scope=row>Eastern</th><td><table><tr><td>Boston<td>Buffalo</tr></table></td></tr>"
            "<tr><th scope=row>Western</th><td><table><tr><td>Chicago<td>Denver</tr></table></td></tr>"
            "<tr><th scope=row>Central</th><td><table><tr><td>Atlanta<td>Cleveland</tr></table></td></tr></table>")
    assert pyxform.headers(page).to_json()["tables"][0] == {"index": 0, "header_rows": 0, "header_cols": 1,
                                                            "method": "markup", "kind": "entity"}
    assert [(p["row_headers"], p["nested"]) for p in pyxform.convert(page).pairs() if p["table"] == 0] == [
        (["Eastern"], [1]), (["Western"], [2]), (["Central"], [3])]
