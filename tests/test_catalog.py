"""pyxform's XML catalog: public URIs of the stylesheets and schemas resolve to the installed files, offline, and
nothing else resolves through it."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from lxml import etree

from pyxform.runtime.catalog import (CATALOG_NS, PUBLIC_BASE, CatalogResolver, build_catalog, catalog_entries, catalog_path,
                             resolve_uri)
from pyxform.base.errors import StylesheetError
from pyxform.api.pipeline import Pipeline, Step

STYLESHEETS = Path(__file__).parent / "data" / "stylesheets"
GRID_XSD = "https://pyxform.invalid/schemas/grid.xsd"


def test_the_shipped_catalog_is_current() -> None:
    assert catalog_path().read_text(encoding="utf-8") == build_catalog(), "run python -m pyxform.runtime.catalog"


def test_every_stylesheet_and_schema_has_a_public_uri() -> None:
    entries = catalog_entries()
    stylesheets = Path(str(files("pyxform.stylesheets")))
    schemas = Path(str(files("pyxform.schemas")))
    expected = {f"{PUBLIC_BASE}stylesheets/{p.relative_to(stylesheets).as_posix()}": p.resolve()
                for p in stylesheets.rglob("*.xsl")}
    expected |= {f"{PUBLIC_BASE}schemas/{p.name}": p.resolve() for p in schemas.glob("*.xsd")}
    assert entries == expected
    assert resolve_uri("https://pyxform.invalid/stylesheets/map.xsl") == (stylesheets / "map.xsl").resolve()
    assert resolve_uri(GRID_XSD) == (schemas / "grid.xsd").resolve()


def test_the_catalog_maps_exact_uris_only() -> None:
    root = etree.parse(str(catalog_path())).getroot()
    assert {etree.QName(e).localname for e in root if isinstance(e.tag, str)} == {"uri", "system"}
    assert root.tag == f"{{{CATALOG_NS}}}catalog"


@pytest.mark.parametrize("uri", [
    "https://pyxform.invalid/schemas/../../pyproject.toml",
    "https://pyxform.invalid/stylesheets/%2e%2e/pyproject.toml",
    "https://pyxform.invalid/schemas/",
    "https://pyxform.invalid/schemas/grid.xsd?x=1",
    "https://PYXFORM.invalid/schemas/grid.xsd",
    "http://pyxform.invalid/schemas/grid.xsd",
    "file:///etc/passwd",
    "/etc/passwd",
    "grid.xsd",
])
def test_other_uris_do_not_resolve(uri: str) -> None:
    assert resolve_uri(uri) is None


def test_lxml_resolves_a_schema_import_through_the_resolver() -> None:
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    parser.resolvers.add(CatalogResolver())
    schema_text = (b'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
                   b'<xs:import namespace="urn:pyxform" schemaLocation="' + GRID_XSD.encode() + b'"/>'
                   b'</xs:schema>')
    schema = etree.XMLSchema(etree.fromstring(schema_text, parser))
    assert schema is not None
    grid = etree.parse(GRID_XSD, parser)  # the public URI itself, read from the package
    assert grid.getroot().get("targetNamespace") == "urn:pyxform"


def test_lxml_does_not_resolve_other_uris() -> None:
    parser = etree.XMLParser(no_network=True, resolve_entities=False)
    parser.resolvers.add(CatalogResolver())
    with pytest.raises(OSError):
        etree.parse("https://pyxform.invalid/schemas/../../pyproject.toml", parser)


def test_libxml2_uses_the_catalog_file_itself(tmp_path: Path) -> None:
    """The shipped file is a catalog libxml2 understands (XML_CATALOG_FILES), for xmllint and friends."""
    schema = ('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:px="urn:pyxform">'
              f'<xs:import namespace="urn:pyxform" schemaLocation="{GRID_XSD}"/>'
              '<xs:element name="id" type="px:cell-id"/></xs:schema>')
    script = ("from lxml import etree\n"
              f"schema = etree.XMLSchema(etree.fromstring({schema!r}, etree.XMLParser(no_network=True)))\n"
              "print(schema.validate(etree.fromstring('<id>t0.c1</id>')), schema.validate(etree.fromstring('<id>x</id>')))\n")
    env = {**os.environ, "XML_CATALOG_FILES": str(catalog_path())}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert done.stdout.strip() == "True False", done.stderr  # grid.xsd's cell-id type, read offline
    env["XML_CATALOG_FILES"] = str(tmp_path / "none.xml")  # without the catalog the import fails (no network)
    failed = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert failed.returncode != 0


def test_a_user_stylesheet_imports_pyxform_modules_by_public_uri() -> None:
    result = Pipeline([Step.xslt(STYLESHEETS / "uses-names.xsl")]).run(b"<d><label>Ratio (%)</label></d>")
    assert [e.text for e in result.tree().iter("name")] == ["ratio-percent"]


def test_the_catalog_opens_no_other_path_to_a_stylesheet(tmp_path: Path) -> None:
    escaping = tmp_path / "escaping.xsl"
    escaping.write_text('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
                        '<xsl:import href="https://pyxform.invalid/stylesheets/../normalize.xsl"/>'
                        '<xsl:template match="/"><r/></xsl:template></xsl:stylesheet>')
    with pytest.raises(StylesheetError) as raised:
        Pipeline([Step.xslt(escaping)]).run(b"<a/>")
    # refused before Saxon reads it (runtime/compile_check.py: the catalog resolves no such URI; no local file)
    assert raised.value.message.startswith("import of 'https://pyxform.invalid/stylesheets/../normalize.xsl': a module "
                                           "is read from a local file or pyxform's catalog only")
    assert raised.value.location == f"{escaping.resolve()}:1"


def test_a_locked_runtime_reads_no_public_uri_either(tmp_path: Path) -> None:
    """The catalog serves compilation; once locked, doc() of a public URI fails like any other URI."""
    step = Step.xslt(STYLESHEETS / "failing.xsl", {"kind": "doc", "uri": GRID_XSD})
    with pytest.raises(StylesheetError) as raised:
        Pipeline([step]).run(b"<a/>")
    assert raised.value.error_code == "FODC0005"
