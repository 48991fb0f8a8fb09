"""XML attacks on the commands that read XML a user gives (issue 7): a DTD, entity expansion ("billion laughs"),
external entities (XXE), an external DTD, ``xi:include``. Nothing is expanded or fetched, on the lxml path (validate,
query, grid documents) and on the Saxon path (schema, convert of a grid document, Saxon's own parser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyxform.cli import main
from pyxform.api.convert import convert_grid
from pyxform.base.errors import BadXmlInput, InputError, QueryError, ValidationError
from pyxform.stages.headers import detect_headers
from pyxform.stages.normalize import Normalizer
from pyxform.stages.query import query
from pyxform.base.safexml import check_prolog, parse_untrusted
from pyxform.stages.schema import generate_schema, validate

from .annotated_grids import T, grid_xml, td, th

LAUGHS = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text("SECRET-CONTENT")
    return path


def attacks(secret: Path, body: str = "<pyxform><t>{ref}</t></pyxform>") -> dict[str, str]:
    """Documents that would read ``secret`` or expand a billion times if a parser let them."""
    dtd = secret.with_suffix(".dtd")
    dtd.write_text(f'<!ENTITY e SYSTEM "{secret.as_uri()}">')
    return {
        "billion-laughs": f'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY lol0 "lol">{LAUGHS}]>'
                          + body.format(ref="&lol9;"),
        "xxe": f'<!DOCTYPE t [<!ENTITY e SYSTEM "{secret.as_uri()}">]>' + body.format(ref="&e;"),
        "external-dtd": f'<!DOCTYPE t SYSTEM "{dtd.as_uri()}">' + body.format(ref="&e;"),
        "parameter-entity": f'<!DOCTYPE t [<!ENTITY % p SYSTEM "{dtd.as_uri()}"> %p;]>' + body.format(ref="&e;"),
    }


ATTACKS = ["billion-laughs", "xxe", "external-dtd", "parameter-entity"]


def no_secret(*texts: object) -> None:
    for text in texts:
        assert "SECRET-CONTENT" not in str(text) and "lollollol" not in str(text)


@pytest.mark.parametrize("attack", ATTACKS)
def test_lxml_path_validate_refuses_and_reads_nothing(secret: Path, attack: str) -> None:
    document = attacks(secret)[attack]
    with pytest.raises(ValidationError) as caught:
        validate(document, generate_schema("<pyxform><t>x</t></pyxform>"))
    no_secret(caught.value, caught.value.errors)


@pytest.mark.parametrize("attack", ATTACKS)
def test_saxon_path_schema_refuses_and_reads_nothing(secret: Path, attack: str) -> None:
    with pytest.raises(BadXmlInput) as caught:
        generate_schema(attacks(secret)[attack])
    no_secret(caught.value)
    assert caught.value.exit_code == 14


@pytest.mark.parametrize("attack", ATTACKS)
def test_query_refuses_and_reads_nothing(tmp_path: Path, secret: Path, attack: str) -> None:
    path = tmp_path / "doc.xml"
    path.write_text(attacks(secret)[attack])
    with pytest.raises(QueryError) as caught:
        query(path, "string(/)")
    no_secret(caught.value)


@pytest.mark.parametrize("attack", ATTACKS)
def test_grid_documents_with_a_dtd_are_refused(tmp_path: Path, secret: Path, attack: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    grid = grid_xml(T([[th("A")], [td("REF")]], k=1))
    body = grid.replace("REF", "{ref}")
    document = attacks(secret, body)[attack]
    with pytest.raises(BadXmlInput) as caught:
        convert_grid(document)
    no_secret(caught.value)
    with pytest.raises(InputError) as refused:
        detect_headers(document)
    no_secret(refused.value)
    path = tmp_path / "grid.xml"
    path.write_text(document)
    status = main(["convert", str(path)])
    captured = capsys.readouterr()
    # it starts as a grid document, so it is read as XML even where libxml2 refuses it (billion laughs), never as HTML
    assert status == 14 and captured.err.startswith(f"pyxform: error [bad-xml]: {path}: ")
    assert captured.out == ""
    no_secret(captured.err)


@pytest.mark.parametrize("command", [["schema", "{path}", "-o", "-"], ["validate", "{path}", "--generated-schema"],
                                     ["query", "{path}", "string(/)"]])
@pytest.mark.parametrize("attack", ATTACKS)
def test_commands_exit_with_an_error_and_print_nothing_secret(tmp_path: Path, secret: Path, attack: str,
                                                              command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.xml"
    path.write_text(attacks(secret)[attack])
    status = main([part.format(path=path) for part in command])
    captured = capsys.readouterr()
    assert status == {"schema": 14, "validate": 11, "query": 12}[command[0]]
    assert captured.out == ""
    no_secret(captured.err)


def test_xinclude_is_never_processed(tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = ('<pyxform xmlns:xi="http://www.w3.org/2001/XInclude"><t>'
                f'<xi:include href="{secret.as_uri()}" parse="text"/></t></pyxform>')
    path = tmp_path / "xi.xml"
    path.write_text(document)
    assert main(["query", str(path), "string(/)"]) == 0
    assert capsys.readouterr().out == "\n"
    assert main(["query", str(path), "count(//*:include)"]) == 0
    assert capsys.readouterr().out == "1\n"
    xsd = generate_schema(document)
    no_secret(xsd)
    validate(document, xsd)
    include = f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret.as_uri()}" parse="text"/>'
    plain = grid_xml(T([[th("A")], [td("v")]], k=1))
    with pytest.raises(BadXmlInput, match="does not follow schemas/grid.xsd"):  # px:text holds text only
        convert_grid(plain.replace("<px:text>v</px:text>", f"<px:text>v{include}</px:text>"))
    # where the grid's schema takes any element (the header evidence), the include reaches Saxon, and stays an element
    grid = plain.replace('header-method="markup">', f'header-method="markup"><px:header-evidence>{include}'
                                                    "</px:header-evidence>", 1)
    assert [p["value"] for p in convert_grid(grid).pairs()] == ["v"]
    assert secret.read_text() not in convert_grid(grid).xml


def test_saxon_never_sees_a_dtd() -> None:
    with pytest.raises(BadXmlInput, match="document type declaration"):
        check_prolog('<?xml version="1.0"?>\n<!-- c --><?pi x?>\n<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')
    check_prolog('<?xml version="1.0"?><!-- <!DOCTYPE in a comment --><x/>')
    with pytest.raises(BadXmlInput, match="document type declaration"):
        Normalizer().normalize('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
                               '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
                               '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')


def test_a_harmless_doctype_is_ignored_by_the_lxml_path() -> None:
    root = parse_untrusted('<!DOCTYPE t SYSTEM "http://example.invalid/t.dtd"><t>x</t>')
    assert root.text == "x"
    with pytest.raises(BadXmlInput, match="not well-formed XML: .*line 1"):
        parse_untrusted("<t><u></t>")
