"""Comparing XML documents as the cases do: canonical form (C14N 2.0), insignificant whitespace removed, pyxform's
namespace (attributes in urn:pyxform and its declarations) ignored."""

from __future__ import annotations

from lxml import etree

PX = "urn:pyxform"


def canonical(xml: bytes | str, *, ignore_px: bool = True) -> str:
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    root = etree.fromstring(data, etree.XMLParser(remove_blank_text=True, resolve_entities=False))
    if ignore_px:
        for element in root.iter():
            for name in [name for name in element.attrib if name.startswith("{" + PX + "}")]:
                del element.attrib[name]
        etree.cleanup_namespaces(root)
    return etree.tostring(root, method="c14n2", strip_text=True).decode("utf-8")
