"""pyxform's benchmark suite (issue 6): corpus throughput, growth with table size, and start-up, against the tools a
user would choose instead. One command; the results are printed as Markdown tables and written to ``bench/results/``
(``run-YYYYmmdd-HHMMSS.md`` and ``.json``). Numbers are ratios against peers measured in the same run; absolute
times depend on the machine and its load (recorded in the header of the results).

Sections:

- **throughput**: every page of ``../shared/corpus/wikitables/pages`` and ``../shared/corpus/misc`` (``--web`` adds
  ``web/``), in one process, each contender over all pages in turn (``--repeat`` rounds, round-robin, best kept):
  pages/s, tables/s, time relative to ``pandas.read_html`` (lxml flavor) and to the lxml parse alone (the floor: no
  converter can beat parsing), and the peak memory of the pass above the process's memory before it (Linux
  ``VmHWM``, reset through ``/proc/self/clear_refs``). Contenders (:data:`CONTENDERS`): ``pyxform convert`` (every
  table of the page into the output XML, when this build has it), ``pyxform grid`` (the grid XML, and the grid read
  into the Python model), ``pandas.read_html`` (lxml and bs4 flavors; lxml followed by ``DataFrame.to_xml`` for XML
  output), ``trafilatura.extract`` with tables as XML,
  ``html-table-extractor`` (each table of BeautifulSoup's parse) and ``lxml.html`` parse only. Stylesheets are
  compiled and peers imported before the timing (as in any long-running use); one page warms each contender up.
- **growth**: generated pages of one table of 10 ... 100,000 rows x 20 columns, ``plain`` (one header row) and
  ``spans`` (two header rows with column groups, a row header spanning 5 rows, a colspan of 2 every fourth row);
  each size and contender runs in a fresh child process: seconds, microseconds per cell, peak memory above the
  process's memory after warm-up, bytes per cell, and the aim ``peak <= 300 B/cell + 10 x page size``.
- **startup**: wall time of ``pyxform convert small.html`` (or ``pyxform grid`` where convert is missing) as a new
  process, to the first table converted and written, against ``python -c "import pandas"`` and a new process that
  runs ``pandas.read_html`` on the same page (best of ``--startup-runs``).

Run: ``python -m bench.run`` (needs the ``bench`` extra); ``--sections throughput growth startup``, ``--quick``
(first 60 pages, growth up to 10,000 rows, one contender per section besides pyxform), ``--max-rows``,
``--limit``, ``--repeat``. ``python -m bench.grid_speed`` is the throughput section alone.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.corpus import DEFAULT_CORPUS, corpus_pages
from bench.memory import PeakMemory

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
GROWTH_SIZES = (10, 100, 1_000, 10_000, 100_000)
GROWTH_COLUMNS = 20
# Aims of issue 6, reported as met or not.
AIM_CELL_BYTES = 300
AIM_PAGE_FACTOR = 10
AIM_PARSE_FACTOR = 4.0
AIM_STARTUP_SECONDS = 0.5
AIM_FLAT_PER_CELL = 1.25  # "flat": the per-cell time at 100,000 rows at most 1.25 x the one at 1,000 rows


# -- contenders -----------------------------------------------------------------------------------------------------
@dataclass
class Contender:
    """A tool run on one page at a time: ``prepare()`` imports and compiles (untimed) and returns the function that
    takes a page's bytes and returns the number of tables it produced (``None`` where it does not say)."""

    name: str
    prepare: Callable[[], Callable[[bytes], int | None]]
    note: str = ""


def has_convert() -> bool:
    """Whether this build of pyxform has the whole conversion (``pyxform.convert``)."""
    try:
        from pyxform import convert  # noqa: F401
    except ImportError:
        return False
    return callable(convert)


def _pyxform_convert() -> Callable[[bytes], int | None]:
    from pyxform import convert

    def run(data: bytes) -> int | None:
        conversion = convert(data)
        conversion.xml  # noqa: B018 - the output XML, as `pyxform convert` prints it
        return None

    return run


def _pyxform_grid_xml() -> Callable[[bytes], int | None]:
    from pyxform.stages.normalize import Normalizer, grid

    normalizer = Normalizer()

    def run(data: bytes) -> int | None:
        return grid(data, normalizer=normalizer).xml.count("<px:table ")

    return run


def _pyxform_grid_model() -> Callable[[bytes], int | None]:
    from pyxform.stages.normalize import Normalizer, grid

    normalizer = Normalizer()

    def run(data: bytes) -> int | None:
        return len(grid(data, normalizer=normalizer).tables)

    return run


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _pandas(flavor: str) -> Callable[[], Callable[[bytes], int | None]]:
    def prepare() -> Callable[[bytes], int | None]:
        import pandas

        def run(data: bytes) -> int | None:
            return len(pandas.read_html(io.StringIO(_text(data)), flavor=flavor))

        return run

    return prepare


def _pandas_to_xml() -> Callable[[bytes], int | None]:
    import pandas

    def run(data: bytes) -> int | None:
        frames = pandas.read_html(io.StringIO(_text(data)), flavor="lxml")
        for frame in frames:  # to_xml refuses column names that are not XML names ("0", "Rank (2010)")
            frame.columns = [f"c{i}" for i in range(len(frame.columns))]
            frame.to_xml(parser="lxml")
        return len(frames)

    return run


def _trafilatura() -> Callable[[bytes], int | None]:
    import trafilatura

    def run(data: bytes) -> int | None:
        xml = trafilatura.extract(_text(data), output_format="xml", include_tables=True, include_comments=False)
        return (xml or "").count("<table")

    return run


def _html_table_extractor() -> Callable[[bytes], int | None]:
    from bs4 import BeautifulSoup
    from html_table_extractor.extractor import Extractor

    def run(data: bytes) -> int | None:
        tables = BeautifulSoup(_text(data), "html.parser").find_all("table")
        done = 0
        for table in tables:
            try:
                Extractor(table).parse()
                done += 1
            except Exception:  # its int() of a span such as "2;" raises: that table is lost, the others go on
                pass
        return done

    return run


def _lxml_parse() -> Callable[[bytes], int | None]:
    import lxml.html

    def run(data: bytes) -> int | None:
        lxml.html.document_fromstring(data)
        return None

    return run


CONTENDERS: dict[str, Contender] = {
    "pyxform convert": Contender("pyxform convert", _pyxform_convert, "clean, normalize, headers, map, merge; XML"),
    "pyxform grid": Contender("pyxform grid", _pyxform_grid_xml, "clean + normalize; the grid XML"),
    "pyxform grid (model)": Contender("pyxform grid (model)", _pyxform_grid_model,
                                      "the grid read into Python objects"),
    "pandas lxml": Contender("pandas lxml", _pandas("lxml"), "pandas.read_html(flavor='lxml')"),
    "pandas lxml + to_xml": Contender("pandas lxml + to_xml", _pandas_to_xml,
                                      "read_html(flavor='lxml'), then DataFrame.to_xml for each table: XML out"),
    "pandas bs4": Contender("pandas bs4", _pandas("bs4"), "pandas.read_html(flavor='bs4'), html5lib parser"),
    "trafilatura": Contender("trafilatura", _trafilatura, "extract(output_format='xml', include_tables=True)"),
    "html-table-extractor": Contender("html-table-extractor", _html_table_extractor,
                                      "BeautifulSoup html.parser + Extractor(table).parse() per table"),
    "lxml parse": Contender("lxml parse", _lxml_parse, "lxml.html.document_fromstring: the floor"),
}
PEER = "pandas lxml"
FLOOR = "lxml parse"


def pyxform_main_contender() -> str:
    return "pyxform convert" if has_convert() else "pyxform grid"


# -- throughput -----------------------------------------------------------------------------------------------------
@dataclass
class ThroughputRow:
    name: str
    note: str
    seconds: float
    cpu_seconds: float
    pages: int
    tables: int | None
    failed_pages: int
    peak_mb: float | None

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds

    @property
    def pages_per_cpu_second(self) -> float:
        return self.pages / self.cpu_seconds


def timed(label: str, work: Callable[[Any], object], items: list[Any], repeat: int) -> tuple[float, int]:
    """Best of ``repeat`` passes of ``work`` over ``items``: ``(seconds, items that raised)``, printed as a line."""
    best, failures = float("inf"), 0
    for _ in range(repeat):
        failures = 0
        started = time.perf_counter()
        for item in items:
            try:
                work(item)
            except Exception:  # a tool's failure on an item is part of its run; its time counts
                failures += 1
        best = min(best, time.perf_counter() - started)
    print(f"  {label:<28} {best:7.2f} s  {len(items) / best:7.1f} items/s  ({failures} raised)", flush=True)
    return best, failures


def throughput(pages: list[bytes], names: list[str], repeat: int) -> list[ThroughputRow]:
    """Every contender of ``names`` over all ``pages``, ``repeat`` rounds round-robin, the best round kept."""
    warnings.simplefilter("ignore")
    runners = {}
    for name in names:
        runners[name] = CONTENDERS[name].prepare()
        try:
            runners[name](pages[0])  # warm-up: lazy imports, first-use caches
        except Exception:
            pass
    best: dict[str, ThroughputRow] = {}
    for _ in range(repeat):
        for name, run in runners.items():
            failed = 0
            tables: int | None = 0
            with PeakMemory() as memory:
                started, cpu_started = time.perf_counter(), time.process_time()
                for data in pages:
                    try:
                        found = run(data)
                    except Exception:  # a tool's failure on a page is part of its run; its time counts
                        failed += 1
                        continue
                    tables = None if found is None or tables is None else tables + found
                seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
            row = ThroughputRow(name, CONTENDERS[name].note, seconds, cpu_seconds, len(pages), tables, failed,
                                memory.peak_mb)
            if name not in best or cpu_seconds < best[name].cpu_seconds:
                best[name] = row
            print(f"  {name:<22} {seconds:7.2f} s  {len(pages) / seconds:7.1f} pages/s  (CPU {cpu_seconds:7.2f} s)",
                  file=sys.stderr, flush=True)
    rows = list(best.values())
    # tools that do not count tables (convert, the parse floor) are given the grid's count of the same pages
    grid_tables = next((r.tables for r in rows if r.name.startswith("pyxform grid") and r.tables is not None), None)
    for row in rows:
        if row.tables is None and row.name == "pyxform convert":
            row.tables = grid_tables
    return rows


def throughput_table(rows: list[ThroughputRow]) -> str:
    peer = next((r for r in rows if r.name == PEER), None)
    floor = next((r for r in rows if r.name == FLOOR), None)
    lines = ["| tool | pages/s (CPU) | tables/s (CPU) | pages/s (wall) | CPU time / pandas lxml | "
             "CPU time / lxml parse | pages failed | peak memory over start (MB) | what runs |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        tables = f"{row.tables / row.cpu_seconds:.0f}" if row.tables is not None else "-"
        vs_peer = f"{row.cpu_seconds / peer.cpu_seconds:.2f}" if peer else "-"
        vs_floor = f"{row.cpu_seconds / floor.cpu_seconds:.1f}" if floor else "-"
        peak = f"{row.peak_mb:.0f}" if row.peak_mb is not None else "n/a"
        lines.append(f"| {row.name} | {row.pages_per_cpu_second:.1f} | {tables} | {row.pages_per_second:.1f} | "
                     f"{vs_peer} | {vs_floor} | {row.failed_pages} | {peak} | {row.note} |")
    return "\n".join(lines)


# -- growth ---------------------------------------------------------------------------------------------------------
def table_page(rows: int, variant: str, columns: int = GROWTH_COLUMNS) -> bytes:
    """A page with one table of ``rows`` body rows x ``columns`` columns.

    ``plain``: one header row of ``th``, then ``td`` cells. ``spans``: two header rows (a ``th`` spanning both rows,
    then column groups of 4-5 columns over one ``th`` per column), a row-header ``th`` spanning 5 body rows
    (``rowspan`` cut at the end of the body for the last group) and, every fourth row, a ``td`` spanning 2 columns.
    """
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>growth</title></head><body>",
           f"<h2>Generated table, {rows} rows</h2><table>"]
    if variant == "plain":
        out.append("<thead><tr>" + "".join(f"<th>Column {c}</th>" for c in range(columns)) + "</tr></thead><tbody>")
        for r in range(rows):
            out.append("<tr>" + "".join(f"<td>{r}.{c}</td>" for c in range(columns)) + "</tr>")
    elif variant == "spans":
        groups, left = [], columns - 1
        while left > 0:
            width = min(5, left)
            groups.append(width)
            left -= width
        out.append("<thead><tr><th rowspan=2>Key</th>" + "".join(
            f"<th colspan={width}>Group {g}</th>" for g, width in enumerate(groups)) + "</tr><tr>"
            + "".join(f"<th>Field {c}</th>" for c in range(1, columns)) + "</tr></thead><tbody>")
        for r in range(rows):
            cells = [f"<th rowspan=5>Block {r // 5}</th>"] if r % 5 == 0 else []
            c = 1
            while c < columns:
                if r % 4 == 0 and c == 2:
                    cells.append(f"<td colspan=2>{r}.{c}-{c + 1}</td>")
                    c += 2
                else:
                    cells.append(f"<td>{r}.{c}</td>")
                    c += 1
            out.append("<tr>" + "".join(cells) + "</tr>")
    else:
        raise ValueError(f"unknown variant {variant!r}")
    out.append("</tbody></table></body></html>")
    return "".join(out).encode("utf-8")


def growth_child(contender: str, variant: str, rows: int) -> dict[str, Any]:
    """In a fresh process: one run of ``contender`` on the generated page, after a warm-up on a 10-row page."""
    warnings.simplefilter("ignore")
    run = CONTENDERS[contender].prepare()
    run(table_page(10, variant))
    page = table_page(rows, variant)
    with PeakMemory() as memory:
        started, cpu_started = time.perf_counter(), time.process_time()
        run(page)
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "peak_bytes": memory.peak_bytes, "page_bytes": len(page)}


@dataclass
class GrowthRow:
    contender: str
    variant: str
    rows: int
    cells: int
    page_bytes: int
    seconds: float | None
    peak_bytes: int | None
    error: str = ""
    cpu_seconds: float | None = None

    @property
    def microseconds_per_cell(self) -> float | None:
        """CPU microseconds per cell (wall time where CPU time was not measured)."""
        seconds = self.cpu_seconds if self.cpu_seconds is not None else self.seconds
        return None if seconds is None else seconds * 1e6 / self.cells

    @property
    def aim_bytes(self) -> int:
        return AIM_CELL_BYTES * self.cells + AIM_PAGE_FACTOR * self.page_bytes


def _run_capped(command: list[str], timeout: float, max_bytes: int) -> str:
    """Run ``command`` in ``ROOT`` and return its standard output; kill it when it runs longer than ``timeout``
    seconds or holds more than ``max_bytes`` of resident memory (so that a run cannot take the machine down).

    :raises RuntimeError: it failed or was killed over the memory cap. :raises subprocess.TimeoutExpired: too long.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err)
        deadline = time.monotonic() + timeout
        status = Path(f"/proc/{process.pid}/status")
        while process.poll() is None:
            time.sleep(0.1)
            try:
                rss = next((int(line.split()[1]) * 1024 for line in status.read_text().splitlines()
                            if line.startswith("VmRSS:")), 0)
            except OSError:
                rss = 0
            if rss > max_bytes or time.monotonic() > deadline:
                process.kill()
                process.wait()
                if rss > max_bytes:
                    raise RuntimeError(f"killed: over the memory cap of {max_bytes / 1e9:.1f} GB")
                raise subprocess.TimeoutExpired(command, timeout)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            lines = err.read().decode(errors="replace").strip().splitlines()
            raise RuntimeError(lines[-1] if lines else f"exit code {process.returncode}")
        return out.read().decode()


def growth(contenders: list[str], sizes: list[int], timeout: float, max_bytes: int) -> list[GrowthRow]:
    rows: list[GrowthRow] = []
    for contender in contenders:
        for variant in ("plain", "spans"):
            for size in sizes:
                cells = size * GROWTH_COLUMNS
                command = [sys.executable, "-m", "bench.run", "--growth-child", contender, variant, str(size)]
                try:
                    stdout = _run_capped(command, timeout, max_bytes)
                    result = json.loads(stdout.strip().splitlines()[-1])
                    row = GrowthRow(contender, variant, size, cells, result["page_bytes"], result["seconds"],
                                    result["peak_bytes"], cpu_seconds=result.get("cpu_seconds"))
                except (subprocess.TimeoutExpired, RuntimeError, ValueError, IndexError) as error:
                    row = GrowthRow(contender, variant, size, cells, len(table_page(size, variant)), None, None,
                                    f"{type(error).__name__}: {error}"[:120])
                rows.append(row)
                per_cell = row.microseconds_per_cell
                print(f"  {contender:<16} {variant:<6} {size:>7} rows  "
                      + (f"{row.seconds:8.3f} s  {per_cell:6.2f} us/cell" if per_cell is not None else row.error),
                      file=sys.stderr, flush=True)
    return rows


def growth_table(rows: list[GrowthRow]) -> str:
    lines = ["| tool | table | rows | cells | page (kB) | seconds (wall) | us / cell (CPU) | peak memory (MB) | "
             "bytes / cell | "
             "aim: peak <= 300 B/cell + 10 x page |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        if row.seconds is None:
            lines.append(f"| {row.contender} | {row.variant} | {row.rows:,} | {row.cells:,} | "
                         f"{row.page_bytes / 1000:.0f} | - | - | - | - | {row.error} |")
            continue
        peak = row.peak_bytes
        aim = "n/a" if peak is None else ("met" if peak <= row.aim_bytes else "not met") + \
            f" ({row.aim_bytes / 1e6:.0f} MB)"
        lines.append(f"| {row.contender} | {row.variant} | {row.rows:,} | {row.cells:,} | {row.page_bytes / 1000:.0f} "
                     f"| {row.seconds:.3f} | {row.microseconds_per_cell:.2f} | "
                     f"{'n/a' if peak is None else f'{peak / 1e6:.1f}'} | "
                     f"{'n/a' if peak is None else f'{peak / row.cells:.0f}'} | {aim} |")
    return "\n".join(lines)


# -- start-up -------------------------------------------------------------------------------------------------------
SMALL_PAGE = (b"<!DOCTYPE html><html><head><title>small</title></head><body><table>"
              b"<tr><th>Name</th><th>Height</th><th>Weight</th></tr>"
              b"<tr><td>Ann</td><td>1.70</td><td>60</td></tr><tr><td>Bob</td><td>1.80</td><td>75</td></tr>"
              b"</table></body></html>")


def _pyxform_command() -> list[str]:
    script = Path(sys.executable).parent / "pyxform"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pyxform"]


def startup(runs: int) -> list[tuple[str, float, str]]:
    """``(what, best seconds, command)`` for each start-up measured."""
    folder = Path(tempfile.mkdtemp(prefix="pyxform-bench-"))
    try:
        page = folder / "small.html"
        page.write_bytes(SMALL_PAGE)
        command = "convert" if has_convert() else "grid"
        cases = [
            (f"pyxform {command} small.html", [*_pyxform_command(), command, str(page)]),
            ("python -c 'import pandas'", [sys.executable, "-c", "import pandas"]),
            ("python: pandas.read_html(small.html)", [sys.executable, "-c",
             f"import pandas; pandas.read_html({str(page)!r}, flavor='lxml')"]),
            ("python -c 'pass' (the interpreter alone)", [sys.executable, "-c", "pass"]),
        ]
        results = []
        for what, argv in cases:
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, cwd=folder)
                times.append(time.perf_counter() - started)
                if done.returncode != 0:
                    raise RuntimeError(f"{what} failed: {done.stderr.decode(errors='replace')[-300:]}")
            results.append((what, min(times), " ".join(argv)))
            print(f"  {what:<42} {min(times):6.3f} s (best of {runs}, median {statistics.median(times):.3f})",
                  file=sys.stderr, flush=True)
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def startup_table(results: list[tuple[str, float, str]]) -> str:
    lines = ["| process | seconds (best) |", "| --- | ---: |"]
    lines += [f"| {what} | {seconds:.3f} |" for what, seconds, _ in results]
    return "\n".join(lines)


# -- aims -----------------------------------------------------------------------------------------------------------
def aims(throughput_rows: list[ThroughputRow] | None, growth_rows: list[GrowthRow] | None,
         startup_rows: list[tuple[str, float, str]] | None) -> str:
    lines = ["| aim | measured | met |", "| --- | --- | --- |"]
    main = pyxform_main_contender()
    if throughput_rows:
        by_name = {row.name: row for row in throughput_rows}
        ours, peer, floor = by_name.get(main), by_name.get(PEER), by_name.get(FLOOR)
        if ours and peer:
            lines.append(f"| {main}: pages/s >= pandas.read_html (lxml) | {ours.pages_per_cpu_second:.1f} vs "
                         f"{peer.pages_per_cpu_second:.1f} pages per CPU second | "
                         f"{'yes' if ours.cpu_seconds <= peer.cpu_seconds else 'no'} |")
        if ours and floor:
            factor = ours.cpu_seconds / floor.cpu_seconds
            lines.append(f"| {main}: within {AIM_PARSE_FACTOR:g}x the lxml parse | {factor:.1f}x | "
                         f"{'yes' if factor <= AIM_PARSE_FACTOR else 'no'} |")
    if growth_rows:
        for variant in ("plain", "spans"):
            mine = {r.rows: r for r in growth_rows if r.contender == main and r.variant == variant}
            failed = [r for r in mine.values() if r.seconds is None]
            measured_sizes = [size for size, r in mine.items() if r.seconds is not None]
            small, large = mine.get(1_000), mine.get(max(measured_sizes, default=0))
            if failed:
                sizes = ", ".join(f"{r.rows:,}" for r in failed)
                lines.append(f"| {main} ({variant}): every size runs | failed at {sizes} rows: "
                             f"{failed[0].error} | no |")
            if small and large and large.rows > small.rows and small.seconds and large.seconds:
                ratio = large.microseconds_per_cell / small.microseconds_per_cell  # type: ignore[operator]
                lines.append(f"| {main} ({variant}): per-cell time flat from 1,000 to {large.rows:,} rows | "
                             f"{small.microseconds_per_cell:.2f} -> {large.microseconds_per_cell:.2f} us/cell "
                             f"(x{ratio:.2f}) | {'yes' if ratio <= AIM_FLAT_PER_CELL else 'no'} |")
            measured = [r for r in mine.values() if r.peak_bytes is not None]
            if measured:  # at the largest size measured: below ~1,000 rows a fixed overhead dominates
                large = max(measured, key=lambda r: r.rows)
                peak = large.peak_bytes or 0
                lines.append(f"| {main} ({variant}): peak memory <= 300 B/cell + 10 x page, at {large.rows:,} rows | "
                             f"{peak / 1e6:.0f} MB ({peak / large.cells:.0f} B/cell), aim "
                             f"{large.aim_bytes / 1e6:.0f} MB | {'yes' if peak <= large.aim_bytes else 'no'} |")
    if startup_rows:
        what, seconds, _ = startup_rows[0]
        lines.append(f"| {what}: start-up to first table < {AIM_STARTUP_SECONDS} s | {seconds:.3f} s | "
                     f"{'yes' if seconds < AIM_STARTUP_SECONDS else 'no'} |")
    return "\n".join(lines)


# -- main -----------------------------------------------------------------------------------------------------------
def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"Python {platform.python_version()}"]
    for package in ("saxonche", "lxml", "turbohtml", "pandas", "html5lib", "beautifulsoup4", "trafilatura",
                    "html-table-extractor"):
        try:
            parts.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} (not installed)")
    return ", ".join(parts)


def _git_revision() -> str:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=10)
        return done.stdout.strip() or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", nargs="+", choices=("throughput", "growth", "startup"),
                        default=["throughput", "growth", "startup"])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--web", action="store_true", help="add the corpus's web/ pages to the throughput pages")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--repeat", type=int, default=1, help="throughput rounds; the best is kept")
    parser.add_argument("--contenders", nargs="+", choices=list(CONTENDERS), help="throughput contenders")
    parser.add_argument("--max-rows", type=int, default=GROWTH_SIZES[-1], help="largest growth size")
    parser.add_argument("--growth-peers", action="store_true", help="pandas (lxml) in the growth section too")
    parser.add_argument("--growth-timeout", type=float, default=900.0, help="seconds per growth child")
    parser.add_argument("--growth-max-mb", type=float, default=6000.0,
                        help="resident memory at which a growth child is killed (MB)")
    parser.add_argument("--startup-runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true",
                        help="60 pages, growth to 10,000 rows, fewer contenders: a smoke run")
    parser.add_argument("--no-save", action="store_true", help="print only; write nothing to bench/results/")
    parser.add_argument("--growth-child", nargs=3, metavar=("CONTENDER", "VARIANT", "ROWS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.growth_child:
        contender, variant, rows = args.growth_child
        print(json.dumps(growth_child(contender, variant, int(rows))))
        return 0

    main_contender = pyxform_main_contender()
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    header = [f"# pyxform benchmark, {started}", "",
              f"Revision {_git_revision()}; {os.cpu_count()} CPUs, load average at start {load[0]:.2f}; "
              f"{_versions()}.", ""]
    if main_contender != "pyxform convert":
        header += ["`pyxform convert` is not in this build yet: `pyxform grid` (clean + normalize) stands in for it "
                   "in the aims and the start-up.", ""]
    sections: list[str] = []
    record: dict[str, Any] = {"started": started, "revision": _git_revision(), "load": load[0],
                              "main": main_contender}
    throughput_rows = growth_rows = startup_rows = None

    if "throughput" in args.sections:
        limit = 60 if args.quick and args.limit is None else args.limit
        paths = corpus_pages(args.corpus, web=args.web)[:limit]
        if not paths:
            print(f"no pages under {args.corpus}", file=sys.stderr)
            return 2
        pages = [path.read_bytes() for path in paths]
        names = args.contenders or [n for n in CONTENDERS if n != "pyxform convert" or has_convert()]
        if args.quick and not args.contenders:
            names = [n for n in names if n.startswith("pyxform") or n in (PEER, FLOOR)]
        print(f"throughput: {len(pages)} pages, {sum(map(len, pages)) / 1e6:.1f} MB", file=sys.stderr)
        throughput_rows = throughput(pages, names, args.repeat)
        sections += [f"## Corpus throughput: {len(pages)} pages ({sum(map(len, pages)) / 1e6:.1f} MB), "
                     f"best of {args.repeat}", "", throughput_table(throughput_rows), ""]
        record["throughput"] = [asdict(row) for row in throughput_rows]

    if "growth" in args.sections:
        max_rows = min(args.max_rows, 10_000) if args.quick else args.max_rows
        sizes = [size for size in GROWTH_SIZES if size <= max_rows]
        contenders = [main_contender] + ([PEER] if args.growth_peers else [])
        print(f"growth: {sizes} rows x {GROWTH_COLUMNS} columns", file=sys.stderr)
        growth_rows = growth(contenders, sizes, args.growth_timeout, int(args.growth_max_mb * 1e6))
        sections += [f"## Growth: one table of N rows x {GROWTH_COLUMNS} columns (a fresh process per run)", "",
                     growth_table(growth_rows), ""]
        record["growth"] = [asdict(row) for row in growth_rows]

    if "startup" in args.sections:
        print("start-up:", file=sys.stderr)
        startup_rows = startup(args.startup_runs)
        sections += [f"## Start-up: a new process to the first table written (best of {args.startup_runs})", "",
                     startup_table(startup_rows), ""]
        record["startup"] = [{"what": w, "seconds": s, "command": c} for w, s, c in startup_rows]

    sections += ["## Aims (issue 6)", "", aims(throughput_rows, growth_rows, startup_rows), ""]
    report = "\n".join(header + sections)
    print(report)
    if not args.no_save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        stem = RESULTS / ("run-" + time.strftime("%Y%m%d-%H%M%S"))
        stem.with_suffix(".md").write_text(report, encoding="utf-8")
        stem.with_suffix(".json").write_text(json.dumps(record, indent=1), encoding="utf-8")
        print(f"written: {stem.with_suffix('.md').relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
