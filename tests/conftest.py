"""Shared fixtures: one compiled Saxon runtime per test session (compiling takes about a second)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # so that tests can import the bench helpers (bench/ is not installed)
    sys.path.insert(0, str(ROOT))

CASES = ROOT / "tests" / "data" / "cases"
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def normalizer():
    """The stage-2 runner on the process-wide shared runtime."""
    from pyxform.stages.normalize import Normalizer

    return Normalizer()
