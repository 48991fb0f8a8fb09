"""Coverage-guided fuzz target (atheris, libFuzzer) for the clean -> grid -> convert path (issue 7).

Each input is a page's bytes. It must either convert, or raise one of the errors a bad page deserves (no table,
empty, undecodable, a limit); and what converts must be well-formed XML whose values are the pairs' values, with
every grid invariant holding (each row has ``cols`` slots, each slot's cell covers it). Anything else (a
StylesheetError, a Python exception, an abort) is a crash: libFuzzer saves the input as ``crash-<sha1>``.

Runs (``pip install -e '.[fuzz]'``; the first corpus folder receives the new inputs libFuzzer finds)::

    python fuzz/fuzz_convert.py -runs=400 /tmp/fuzz-corpus fuzz/seeds tests/data/fuzz        # short (the CI test)
    python fuzz/fuzz_convert.py -max_total_time=3600 -dict=fuzz/html.dict -rss_limit_mb=4096 \\
        /tmp/fuzz-corpus fuzz/seeds tests/data/fuzz                                         # long (an hour)

Keep each crash input as a regression test: copy it into ``tests/data/fuzz/`` (``tests/test_fuzz_atheris.py`` replays
every file there through :func:`check`, with or without atheris).
"""

from __future__ import annotations

import sys

from lxml import etree

try:
    import atheris
except ImportError:  # the regression replay (tests/test_fuzz_atheris.py) needs only check()
    atheris = None

if atheris is not None:
    with atheris.instrument_imports(include=["pyxform"]):
        from pyxform.api.convert import convert
        from pyxform.base.errors import EmptyInput, LimitExceeded, NoTableError, UndecodableInput
        from pyxform.base.limits import Limits
        from pyxform.stages.normalize import grid
else:
    from pyxform.api.convert import convert
    from pyxform.base.errors import EmptyInput, LimitExceeded, NoTableError, UndecodableInput
    from pyxform.base.limits import Limits
    from pyxform.stages.normalize import grid

#: Small limits keep each run fast; a limit that is hit is a right answer, not a crash.
LIMITS = Limits(max_page_bytes=256 * 1024, max_slots=20_000, max_tables=200, max_depth=16)
EXPECTED = (NoTableError, EmptyInput, UndecodableInput, LimitExceeded)
_PARSER = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)


def check(data: bytes) -> None:
    """Convert ``data`` and check the output; raises on anything a page must never cause."""
    try:
        conversion = convert(data, limits=LIMITS)
    except EXPECTED:
        return
    root = etree.fromstring(conversion.to_bytes(), _PARSER)
    # As sets: a spanning data cell holding a nested table repeats the table's element in each row it spans.
    texts = {t for e in root.iter() if e is not root and (t := (e.text or "")).strip(" \t\r\n")}
    pairs = {p["value"] for p in conversion.pairs() if p["value"]}
    assert texts == pairs, (sorted(texts - pairs)[:3], sorted(pairs - texts)[:3])
    for table in grid(data, limits=LIMITS).tables:
        assert len(table.grid) == table.rows
        for r, row in enumerate(table.grid):
            assert len(row) == table.cols
            for c, cell in enumerate(row):
                assert cell is None or cell.covers(r, c), (table.index, r, c)


def TestOneInput(data: bytes) -> None:
    check(data)


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install -e '.[fuzz]'")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
