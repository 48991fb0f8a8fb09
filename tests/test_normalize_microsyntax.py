"""f:parse-non-negative-integer (stylesheets/normalize/functions.xsl, WHATWG HTML 2.3.4.1) on generated values: the
cast of a short xs:integer value gives what the general steps (regular expressions, fp:parse-non-negative-integer)
give for the same value."""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pyxform.runtime.saxon import SaxonRuntime, builtin_stylesheet

# Imports the stage and writes, for each value (the values joined by /), the function's result and the general steps' result.
COMPARE = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:pyxform:function"
    xmlns:fp="urn:pyxform:function:private" exclude-result-prefixes="#all">
  <xsl:import href="NORMALIZE"/>
  <xsl:param name="values" as="xs:string"/>
  <xsl:template match="/">
    <xsl:for-each select="tokenize($values, '/')">
      <xsl:variable name="general" as="xs:integer?">
        <xsl:call-template name="fp:parse-non-negative-integer">
          <xsl:with-param name="value" select="."/>
        </xsl:call-template>
      </xsl:variable>
      <xsl:value-of select="string(f:parse-non-negative-integer(.)) || '|' || string($general) || '&#10;'"/>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>"""


@lru_cache(maxsize=None)
def runtime() -> tuple[SaxonRuntime, Any]:
    """A runtime of its own with the comparing stylesheet compiled (from a temporary file) and a document to run on."""
    runtime = SaxonRuntime(allow_io=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "compare.xsl"
        path.write_text(COMPARE.replace("NORMALIZE", builtin_stylesheet("normalize.xsl").resolve().as_uri()),
                        encoding="utf-8")
        runtime.compile_all({"compare": path})
    return runtime, runtime.parse("<x/>")


def results(values: list[str]) -> list[tuple[str, str]]:
    saxon, document = runtime()
    # a first value "0", so that the joined text is never empty (tokenize gives no token for "")
    text = saxon.transform_to_string("compare", document, {"values": "/".join(["0", *values])})
    return [tuple(line.split("|")) for line in text.split("\n")[1:-1]]  # type: ignore[misc]


CHARACTERS = list("0123456789+- \t\n\r.;ex") + ["\u0663", "\uff11", "\u00a0", "\u2007"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.text(alphabet=CHARACTERS, max_size=24), min_size=1, max_size=20))
@example(values=["0", "-0", "+0", "-1", " 7 ", "\t+12\n", "007", "999999999999", "1000000000000", "2;", "", "+",
                 "\u0663", "1e3", "12.0", "12345678901234567890123", " 0000000000000000000000000001"])
def test_the_cast_of_a_short_integer_is_the_general_steps(values: list[str]) -> None:
    pairs = results(values)
    assert len(pairs) == len(values)
    for value, (fast, general) in zip(values, pairs):
        assert fast == general, (value, fast, general)
