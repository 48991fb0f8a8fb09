"""``pyxform batch``: convert the pages of folders, web archives (WARC) and URL lists on a Dask cluster, into a batch
folder with one output per page and a manifest that makes a killed run resumable.

Modules, one job each: :mod:`.inputs` (what the inputs hold; a WARC file's pages by :mod:`pyxform.base.warc`),
:mod:`.names` (output names), :mod:`.manifest` (what is done), :mod:`.work` (what a worker runs), :mod:`.run` (the
driver on Dask), :mod:`.progress` (counts, progress and summary).
"""

from __future__ import annotations

from pyxform.jobs import PageOptions
from .progress import BatchStats, PlainProgress, RichProgress, summary_lines
from .run import run_batch

__all__ = ["run_batch", "BatchStats", "PageOptions", "PlainProgress", "RichProgress", "summary_lines"]
