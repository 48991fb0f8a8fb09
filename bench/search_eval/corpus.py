"""The evaluation corpus: the 440 pages as whole articles, the questions, and each question's relevant table.

Relevance (``../shared/corpus/wikitables/README.md``): a question's relevant table is its page's ``tableIndex``,
counted among the page's tables whose ``class`` has the token ``wikitable``; it is mapped to pyxform's table index
(all tables of the page, document order, nested counted) by numbering the tables as the clean stage parses them.

Split: a question belongs to the tuning half when the first byte of SHA-256(its page name) is even, else to the
held-out half, so that no page of the held-out half is seen while tuning (we are measured on unseen pages).
"""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

WIKITABLES = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "wikitables"


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    page: str        # B-N
    table: int       # pyxform's index of the relevant table on that page
    tuning: bool     # in the tuning half


def make_articles(out: Path, wikitables: Path = WIKITABLES) -> Path:
    """Write the whole-article pages with ``make_articles.py`` (once; reused when ``out`` has them)."""
    if not (out.is_dir() and len(list(out.glob("*.html"))) == len(list((wikitables / "pages").glob("*.html")))):
        subprocess.run([sys.executable, str(wikitables / "make_articles.py"), str(out)], check=True,
                       stdout=subprocess.DEVNULL)
    return out


def relevant_tables(articles: Path, cache: Path) -> dict[str, int | None]:
    """Page name -> pyxform's index of its picked table (``None`` if the page has fewer wikitables)."""
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    from pyxform.stages.clean import clean
    from pyxform.base.source import Source

    xhtml, px = "{http://www.w3.org/1999/xhtml}", "{urn:pyxform}"
    mapping: dict[str, int | None] = {}
    for page in sorted(articles.glob("*.html")):
        meta = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
        root = clean(Source(page.read_bytes(), str(page), None)).tree.getroot()
        wikitables = [int(table.get(px + "index")) for table in root.iter(xhtml + "table")
                      if "wikitable" in (table.get("class") or "").split()]
        picked = int(meta["tableIndex"])
        mapping[page.stem] = wikitables[picked] if picked < len(wikitables) else None
    cache.write_text(json.dumps(mapping), encoding="utf-8")
    return mapping


def is_tuning(page: str) -> bool:
    return hashlib.sha256(page.encode("utf-8")).digest()[0] % 2 == 0


def questions(relevant: dict[str, int | None], wikitables: Path = WIKITABLES) -> list[Question]:
    """The questions whose page and relevant table are known, in file order."""
    out = []
    with (wikitables / "questions.tsv").open(encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream, delimiter="\t", quoting=csv.QUOTE_NONE):
            table = relevant.get(row["page"])
            if table is not None:
                out.append(Question(row["id"], row["question"], row["page"], table, is_tuning(row["page"])))
    return out
