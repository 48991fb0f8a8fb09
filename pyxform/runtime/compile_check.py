"""What a stylesheet of the user's may reach while Saxon compiles it, checked before Saxon sees it.

A runtime is locked (``allowedProtocols`` empty, :mod:`pyxform.runtime.saxon`) only *after* its stylesheets are
compiled, since compiling reads the stylesheet's own modules. Without ``allow_io``, what Saxon would read or evaluate
during compilation is therefore checked here first, in the stylesheet and in every local module it includes or
imports (:func:`check_user_stylesheet`):

- a document type declaration is refused: its entities would be expanded and its external subset fetched
  (``<!ENTITY s SYSTEM "file:///...">`` puts a file into the stylesheet);
- an ``xsl:include`` or ``xsl:import`` is followed only to a local file (a relative reference or ``file:``) or to a
  module of pyxform's XML catalog (``https://pyxform.invalid/...``, resolved offline); any other URI (``http:``,
  ``https:``, ...) is refused, as Saxon would fetch it;
- a static expression (``use-when``, ``xsl:use-when``, the ``select`` of a ``static="yes"`` parameter or variable, a
  shadow attribute ``_NAME``), which Saxon evaluates while compiling, may not call a function that reads a URI or the
  environment, nor ``function-lookup`` (which could reach one by name).

With ``allow_io`` (``--allow-io``) none of this is checked: the stylesheet may read files and URIs, as documented.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from lxml import etree

from ..base.errors import StylesheetError
from ..base.safexml import parse_file
from .catalog import resolve_uri

__all__ = ["check_user_stylesheet", "STATIC_FORBIDDEN"]

XSL: Final = "http://www.w3.org/1999/XSL/Transform"
_MODULES: Final = {f"{{{XSL}}}include", f"{{{XSL}}}import"}
_DECLARATIONS: Final = {f"{{{XSL}}}param", f"{{{XSL}}}variable"}

#: The functions a static expression may not call (XPath 3.1 names, with or without a prefix or Q{} form, called or
#: named as a function item ``name#1``).
STATIC_FORBIDDEN: Final = re.compile(
    r"(?<![\w.-])(?:[\w.-]+:|Q\{[^}]*\})?(doc|document|doc-available|collection|uri-collection|unparsed-text"
    r"|unparsed-text-lines|unparsed-text-available|json-doc|transform|load-xquery-module|environment-variable"
    r"|available-environment-variables|function-lookup)\s*[(#]")

_HINT: Final = "your stylesheets read no URI and no file but their local modules unless allow_io=True"


def check_user_stylesheet(path: Path) -> None:
    """Check a stylesheet of the user's and its local modules (rules: the module docstring) before Saxon compiles
    them without ``allow_io``.

    :param path: the stylesheet's file.
    :raises StylesheetError: at ``MODULE:LINE``: a document type declaration, a module reached by a URI that is no
        local file nor one of pyxform's catalog, a static expression that calls a function reading a URI, or a module
        that cannot be read or is not well-formed XML.
    """
    seen: set[Path] = set()
    pending = [path.resolve()]
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        pending.extend(_check_module(module))


def _check_module(module: Path) -> list[Path]:
    """Check one module; return the local modules it includes or imports."""
    try:
        root = parse_file(module)
    except OSError as error:
        raise StylesheetError(f"cannot read the stylesheet module: {error.strerror or error}",
                              location=str(module)) from None
    except etree.XMLSyntaxError as error:
        raise StylesheetError(f"the stylesheet module is not well-formed XML: {error.msg}",
                              location=f"{module}:{error.lineno}" if error.lineno else str(module)) from None
    if root.getroottree().docinfo.doctype:
        raise StylesheetError("the stylesheet has a document type declaration (DTD), whose entities would read "
                              f"files or URIs while it is compiled: {_HINT}", location=f"{module}:1")
    found: list[Path] = []
    for element in root.iter(etree.Element):
        where = f"{module}:{element.sourceline}"
        if element.tag in _MODULES:
            href = element.get("href", "")
            local = _local_module(module, href)
            if local is None and resolve_uri(href) is None:
                raise StylesheetError(f"{etree.QName(element).localname} of {href!r}: a module is read from a local "
                                      f"file or pyxform's catalog only ({_HINT})", location=where)
            if local is not None:
                found.append(local)
        for name, value in element.attrib.items():
            if _is_static(element, name) and STATIC_FORBIDDEN.search(value):
                call = STATIC_FORBIDDEN.search(value)
                assert call is not None
                raise StylesheetError(f"the static expression {etree.QName(name).localname}={value!r} calls "
                                      f"{call.group(1)}(), evaluated while the stylesheet is compiled: {_HINT}",
                                      location=where)
    return found


def _is_static(element: etree._Element, attribute: str) -> bool:
    """True for an attribute Saxon evaluates while compiling: use-when (xsl:use-when on other elements), a shadow
    attribute of an XSLT element, the select of a static parameter or variable."""
    local = etree.QName(attribute).localname
    in_xslt = isinstance(element.tag, str) and element.tag.startswith(f"{{{XSL}}}")
    if attribute == (f"{{{XSL}}}use-when") or (in_xslt and attribute == "use-when"):
        return True
    if in_xslt and local.startswith("_") and "}" not in attribute:
        return True
    return (element.tag in _DECLARATIONS and attribute == "select"
            and element.get("static", "").strip() in ("yes", "true", "1"))


def _local_module(module: Path, href: str) -> Path | None:
    """The file an include or import names: a relative reference (against the module's folder) or a ``file:`` URI;
    ``None`` for any other URI."""
    parts = urlsplit(href)
    if parts.scheme == "file":
        return Path(unquote(parts.path)).resolve()
    if parts.scheme or parts.netloc:
        return None
    return (module.parent / unquote(parts.path)).resolve()
