"""The coverage-guided fuzz target (``fuzz/fuzz_convert.py``, issue 7): every crash input it found stays a
regression test (``tests/data/fuzz/``, replayed without atheris), and a short libFuzzer run (400 inputs) runs when
atheris is installed (the ``test`` extra installs it on Linux with CPython 3.11; the long run is in docs/security.md)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "fuzz" / "fuzz_convert.py"
CRASHES = sorted((ROOT / "tests" / "data" / "fuzz").iterdir())


def load_target():
    spec = importlib.util.spec_from_file_location("fuzz_convert", TARGET)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("crash", CRASHES, ids=[path.name for path in CRASHES])
def test_every_input_the_fuzzer_crashed_on_now_passes(crash: Path) -> None:
    load_target().check(crash.read_bytes())


def test_the_check_rejects_what_it_must() -> None:
    # The target's oracle can fail: output whose values are not the pairs' values is caught.
    target = load_target()
    target.check(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>")
    real_convert = target.convert

    class Lying:
        def __init__(self, conversion):
            self.conversion = conversion

        def to_bytes(self) -> bytes:
            return self.conversion.to_bytes().replace(b">1<", b">2<")

        def pairs(self):
            return self.conversion.pairs()

    target.convert = lambda data, **kw: Lying(real_convert(data, **kw))
    with pytest.raises(AssertionError):
        target.check(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table>")


def test_a_short_fuzzing_run_finds_no_crash(tmp_path: Path) -> None:
    pytest.importorskip("atheris", reason="atheris is not installed (pip install -e '.[fuzz]')")
    (tmp_path / "corpus").mkdir()
    result = subprocess.run(
        [sys.executable, str(TARGET), "-runs=400", "-seed=7", f"-dict={ROOT / 'fuzz' / 'html.dict'}",
         f"-artifact_prefix={tmp_path}/", str(tmp_path / "corpus"), str(ROOT / "fuzz" / "seeds"),
         str(ROOT / "tests" / "data" / "fuzz")],
        capture_output=True, text=True, timeout=900, check=False, cwd=tmp_path)
    crashes = [path.name for path in tmp_path.iterdir() if path.name.startswith(("crash-", "oom-", "timeout-"))]
    assert result.returncode == 0 and not crashes, result.stderr[-3000:]
    assert "Done 400 runs" in result.stderr
