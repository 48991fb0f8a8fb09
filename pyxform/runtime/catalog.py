"""pyxform's XML catalog (OASIS XML Catalogs 1.1): public URIs for the installed stylesheets and schemas, offline.

Every built-in stylesheet and schema has a public URI under :data:`PUBLIC_BASE` (the ``.invalid`` top-level domain
never resolves, RFC 2606, so a URI that escapes the catalog fails instead of reaching the network):

    https://pyxform.invalid/stylesheets/map.xsl           stylesheets/map.xsl of the installed package
    https://pyxform.invalid/stylesheets/lib/names.xsl     stylesheets/lib/names.xsl
    https://pyxform.invalid/schemas/grid.xsd              schemas/grid.xsd

The catalog, ``schemas/catalog.xml`` in the package (:func:`catalog_path`), maps each of those URIs exactly (``uri``
and ``system`` entries, paths relative to the catalog): no ``rewriteURI`` or ``delegate`` entries, so no other URI,
``..`` segments included, resolves through it. Users of the catalog:

- every :class:`~pyxform.runtime.saxon.SaxonRuntime` (saxonche ``set_catalog_files``): a user stylesheet may
  ``<xsl:import href="https://pyxform.invalid/stylesheets/lib/names.xsl"/>`` and is compiled offline. Lookups happen
  while stylesheets compile; after that a runtime is locked and reads no URI, catalog or not;
- lxml: :class:`CatalogResolver` (``parser.resolvers.add(CatalogResolver())``), or libxml2's own catalog support
  with ``XML_CATALOG_FILES=$(python -m pyxform.runtime.catalog --path)`` for tools such as ``xmllint``.

``python -m pyxform.runtime.catalog`` writes the catalog anew from the package files (a test checks the shipped one is
current); ``--path`` prints where it is installed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from lxml import etree

from ..base.safexml import parse_file

__all__ = ["PUBLIC_BASE", "CATALOG_NS", "catalog_path", "build_catalog", "catalog_entries", "resolve_uri",
           "CatalogResolver", "public_uri"]

#: Base of the public URIs of pyxform's files.
PUBLIC_BASE = "https://pyxform.invalid/"
#: The namespace of OASIS XML Catalogs.
CATALOG_NS = "urn:oasis:names:tc:entity:xmlns:xml:catalog"
_CATALOG_FILE = "catalog.xml"


def _folder(package: str) -> Path:
    with as_file(files(package)) as path:  # package data is installed as plain files
        return Path(path)


def catalog_path() -> Path:
    """The file system path of the installed catalog (``pyxform/schemas/catalog.xml``)."""
    return _folder("pyxform.schemas") / _CATALOG_FILE


def public_uri(kind: str, relative: str) -> str:
    """The public URI of a built-in file: ``public_uri("stylesheets", "lib/names.xsl")``."""
    return f"{PUBLIC_BASE}{kind}/{relative}"


def _package_files() -> list[tuple[str, str]]:
    """``(public URI, path relative to the catalog)`` of every stylesheet and schema of the package, sorted."""
    entries = []
    for kind, package, pattern in (("schemas", "pyxform.schemas", "*.xsd"),
                                   ("stylesheets", "pyxform.stylesheets", "*.xsl")):
        folder = _folder(package)
        for path in sorted(folder.rglob(pattern)):
            relative = path.relative_to(folder).as_posix()
            target = relative if kind == "schemas" else f"../stylesheets/{relative}"
            entries.append((public_uri(kind, relative), target))
    return entries


def build_catalog() -> str:
    """The catalog's text for the files installed now (what ``schemas/catalog.xml`` must hold)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             "<!-- pyxform's XML catalog: written by `python -m pyxform.runtime.catalog`; see pyxform/runtime/catalog.py. -->",
             f'<catalog xmlns="{CATALOG_NS}" prefer="system">']
    for uri, target in _package_files():
        lines.append(f'  <uri name="{uri}" uri="{target}"/>')
        if uri.endswith(".xsd"):
            lines.append(f'  <system systemId="{uri}" uri="{target}"/>')
    lines.append("</catalog>")
    return "\n".join(lines) + "\n"


@cache
def catalog_entries() -> dict[str, Path]:
    """The installed catalog's ``uri`` and ``system`` entries: public URI -> file path (resolved against the
    catalog's folder). Read once per process."""
    path = catalog_path()
    root = parse_file(path)
    entries: dict[str, Path] = {}
    for element in root:
        if element.tag == f"{{{CATALOG_NS}}}uri":
            entries[element.get("name", "")] = (path.parent / element.get("uri", "")).resolve()
        elif element.tag == f"{{{CATALOG_NS}}}system":
            entries[element.get("systemId", "")] = (path.parent / element.get("uri", "")).resolve()
    return entries


def resolve_uri(uri: str) -> Path | None:
    """The installed file a public URI names, or ``None`` when the catalog has no entry for exactly that URI.

    Exact lookup only: ``https://pyxform.invalid/schemas/../x`` or any other URI the catalog does not list gives
    ``None`` (nothing is normalized, so input cannot reach other paths through the catalog).
    """
    return catalog_entries().get(uri)


class CatalogResolver(etree.Resolver):
    """An lxml resolver that serves pyxform's public URIs from the installed files (and nothing else)::

        parser = etree.XMLParser(no_network=True)
        parser.resolvers.add(CatalogResolver())
        etree.XMLSchema(etree.parse("https://pyxform.invalid/schemas/grid.xsd", parser))
    """

    def resolve(self, system_url: str, public_id: str, context: Any) -> Any:
        path = resolve_uri(system_url)
        return None if path is None else self.resolve_filename(str(path), context)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pyxform.runtime.catalog [--path]``: write the catalog from the package files, or print its path."""
    parser = argparse.ArgumentParser(prog="python -m pyxform.runtime.catalog", description=__doc__.split("\n")[0])
    parser.add_argument("--path", action="store_true", help="print the installed catalog's path and exit")
    args = parser.parse_args(argv)
    if args.path:
        print(catalog_path())
        return 0
    catalog_path().write_text(build_catalog(), encoding="utf-8")
    print(f"wrote {catalog_path()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
