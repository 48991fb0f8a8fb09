"""Before/after check for optimizations: the clean stage's annotated XHTML, the grid document and the converted XML of
every corpus page must stay byte-identical.

``--save DIR`` writes, per page, ``NAME.xhtml`` (``pyxform.stages.clean.clean(bytes).to_bytes()``), ``NAME.grid.xml``
(``pyxform.grid(bytes).xml``) and, where this build has ``pyxform.convert``, ``NAME.convert.xml``
(``pyxform.convert(bytes).xml``) into DIR (``ERROR code: message`` when the page raises). ``--compare DIR`` computes
the same and reports every page whose output differs from the one saved, with the first differing position; the
exit code is 1 when any differs. Run with ``--save`` on the commit before a change and ``--compare`` after it.

Run: ``python -m bench.check_outputs --save /tmp/before`` then ``python -m bench.check_outputs --compare /tmp/before``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.corpus import DEFAULT_CORPUS, corpus_pages


def outputs(data: bytes) -> dict[str, bytes]:
    """``{suffix: output}`` of one page (``.xhtml``, ``.grid.xml``, ``.convert.xml``) as bytes; an error becomes
    ``ERROR code: message``."""
    from pyxform.stages.clean import clean
    from pyxform.base.errors import PyxformError
    from pyxform.stages.normalize import grid

    steps = {".xhtml": lambda: clean(data).to_bytes(), ".grid.xml": lambda: grid(data).xml.encode("utf-8")}
    try:
        from pyxform import convert

        steps[".convert.xml"] = lambda: convert(data).xml.encode("utf-8")
    except ImportError:
        pass
    produced = {}
    for suffix, step in steps.items():
        try:
            produced[suffix] = step()
        except PyxformError as error:
            produced[suffix] = f"ERROR {error.code}: {error.message}".encode()
    return produced


def _first_difference(a: bytes, b: bytes) -> str:
    for position, (x, y) in enumerate(zip(a, b)):
        if x != y:
            around = slice(max(0, position - 60), position + 60)
            return f"at byte {position}: {a[around]!r} vs {b[around]!r}"
    return f"lengths {len(a)} vs {len(b)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="DIR")
    mode.add_argument("--compare", type=Path, metavar="DIR")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, help="only the first N pages")
    args = parser.parse_args(argv)
    pages = corpus_pages(args.corpus)[: args.limit]
    if not pages:
        print(f"no pages under {args.corpus}", file=sys.stderr)
        return 2
    folder: Path = args.save or args.compare
    if args.save:
        folder.mkdir(parents=True, exist_ok=True)
    differing = 0
    for path in pages:
        name = f"{path.parent.name}-{path.stem}"
        for suffix, produced in outputs(path.read_bytes()).items():
            target = folder / (name + suffix)
            if args.save:
                target.write_bytes(produced)
                continue
            saved = target.read_bytes() if target.is_file() else b"(missing)"
            if saved != produced:
                differing += 1
                print(f"DIFFERS {name}{suffix} {_first_difference(saved, produced)}")
    verb = "saved" if args.save else "compared"
    print(f"{len(pages)} pages {verb}; {differing} outputs differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
