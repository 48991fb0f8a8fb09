"""The toolkit verbs, for XML documents and pyxform's outputs: ``pyxform schema``, ``validate``, ``query``,
``transform`` (docs/toolkit.md).

``transform`` and ``query`` run a user's stylesheet or expression, which may never end: they run as jobs of
:mod:`pyxform.jobs.toolkit`, in a worker process stopped after ``--timeout`` or ``--max-memory`` (in this process with
both 0), so that Ctrl-C and SIGTERM end them too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..base.errors import EXIT_PARTIAL_FAILURE, InputNotFound, ValidationError
from ..base.source import Source, read_source
from ..jobs.options import check_bindings
from ..jobs.outputs import refuse_inputs_as_outputs, write_file
from ..jobs.toolkit import QueryOptions, TransformOptions, prepare_job
from ..jobs.worker import job_runner
from .common import (EXIT_OK, Command, input_file, limits_of, local_file, pipeline_arguments, report_error,
                     worker_arguments, write_output)

__all__ = ["SCHEMA", "VALIDATE", "QUERY", "TRANSFORM"]


# -- transform ----------------------------------------------------------------------------------------------------
def _transform_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Run an XSLT 3.0 stylesheet with Saxon-HE on an XML document. The result is written as the stylesheet's "
        "xsl:output says (XML, HTML, text, JSON); xsl:message output goes to standard error; an error shows the "
        "stylesheet file, line and column, and Saxon's error code. The stylesheet may xsl:import pyxform's own "
        "modules by their public URIs (https://pyxform.invalid/stylesheets/..., resolved offline by pyxform's XML "
        "catalog). It reads no URI while it runs unless --allow-io is given. It runs in a worker process stopped "
        "after --timeout seconds or --max-memory MiB (and by Ctrl-C).")
    parser.add_argument("stylesheet", metavar="STYLESHEET", help="an XSLT 3.0 stylesheet file")
    parser.add_argument("input", metavar="INPUT", help="an XML file, an http(s) URL, or - for standard input")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: standard output)")
    pipeline_arguments(parser, steps="")
    worker_arguments(parser.add_argument_group("resource limits (exit code 7)"), "transformation")


def _run_transform(args: argparse.Namespace) -> int:
    from ..runtime.environment import environment_allowed

    stylesheet = Path(local_file(args.stylesheet, "transform", "the stylesheet")).resolve()
    options = TransformOptions(str(stylesheet), tuple(args.param), args.allow_io)
    pipeline, params = prepare_job(options)  # usage errors before the input is read
    for warning in check_bindings(pipeline, params, args.param):
        print(f"pyxform: warning: {warning}", file=sys.stderr)
    if args.output and args.output != "-":
        refuse_inputs_as_outputs([args.stylesheet, args.input], [("-o", Path(args.output))])
    document = read_source(args.input)
    if not document.uri:
        document = Source(document.data, args.input, document.charset)
    # the worker inherits the switch: environment-variable() sees the environment with --allow-io, as in Saxon's CLI
    with environment_allowed(args.allow_io), job_runner(limits_of(args)) as run:
        result = run(document, options)
    for message in result.messages:  # xsl:message, as the stylesheet wrote it (also when it failed)
        print(message, file=sys.stderr)
    if result.error is not None:
        raise result.error
    if args.output and args.output != "-":
        write_file(Path(args.output), result.payload)
    else:
        write_output(result.payload.decode("utf-8"))
    return EXIT_OK


# -- schema, validate ---------------------------------------------------------------------------------------------
def _schema_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write an XSD 1.0 schema generated for a pyxform output file: element names, nesting, repeated elements, "
        "simple types inferred where a column is consistently integer, decimal or date.")
    parser.add_argument("document", metavar="OUT.xml")
    parser.add_argument("-o", "--output", metavar="S.xsd",
                        help="where to write the schema (default: OUT.xsd beside the document; - for standard output)")


def _run_schema(args: argparse.Namespace) -> int:
    from ..stages.schema import generate_schema

    document = input_file(args.document, "schema")
    target = None if args.output == "-" else Path(args.output) if args.output else document.with_suffix(".xsd")
    if target is not None:
        refuse_inputs_as_outputs([args.document], [("-o" if args.output else "", target)])
    xsd = generate_schema(document)
    if target is None:
        write_output(xsd)
    else:
        write_file(target, xsd.encode("utf-8"))
    return EXIT_OK


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Validate an XML file against an XSD 1.0 schema; errors are printed as FILE:LINE: message (exit code 11). "
        "The schema is --schema S.xsd, else OUT.xsd beside the document; without either the command refuses (exit "
        "code 3) unless --generated-schema asks to validate against a schema generated from the document itself "
        "(which only checks that it is well-formed and that pyxform's schema generator covers it).")
    parser.add_argument("document", metavar="OUT.xml")
    schema = parser.add_mutually_exclusive_group()
    schema.add_argument("--schema", metavar="S.xsd", help="the schema (default: OUT.xsd beside the document)")
    schema.add_argument("--generated-schema", action="store_true",
                        help="validate against a schema generated from the document (a weak check: such a schema "
                             "fits the document by construction)")


def _run_validate(args: argparse.Namespace) -> int:
    from ..stages.schema import validate

    document = input_file(args.document, "validate")
    schema: Path | None = None
    if args.schema:
        schema = input_file(args.schema, "validate", "the schema")
    elif not args.generated_schema:
        schema = document.with_suffix(".xsd")
        if not schema.is_file():
            raise InputNotFound(f"no schema to validate {args.document} against: give --schema S.xsd, write one with "
                                f"`pyxform schema {args.document}` (or `convert --schema`), or ask for "
                                "--generated-schema (a schema generated from the document: it checks only that the "
                                "document is well-formed and that the generator covers it)", location=str(schema))
    try:
        validate(document, schema)
    except ValidationError as error:
        report_error(error)
        for line, message in error.errors:
            print(f"{error.location or args.document}:{line if line else '?'}: {message}", file=sys.stderr)
        return error.exit_code
    write_output(f"{args.document}: valid against {schema}" if schema is not None else
                 f"{args.document}: valid against a schema generated from it (--generated-schema: this checks that it "
                 "is well-formed and that the generator covers it, not its data against an independent schema)")
    return EXIT_OK


# -- query --------------------------------------------------------------------------------------------------------
def _query_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Evaluate an XPath 3.1 (or XQuery 3.1) expression with Saxon-HE over one XML file (the context item) or a "
        "folder of .xml files (collection() and $collection; no context item). Expressions cannot open URIs. "
        "Prints one item a line: nodes as XML, atomic values as text. A file of a folder that cannot be read is "
        "skipped with a warning naming it and its line; the query runs over the others and the exit code is 13. "
        "The standard prefixes (fn, map, array, math, xs) are bound in XPath as in XQuery. The query runs in a "
        "worker process stopped after --timeout seconds or --max-memory MiB (and by Ctrl-C).")
    parser.add_argument("target", metavar="TARGET", help="an XML file or a folder of .xml files")
    parser.add_argument("expression", metavar="EXPR")
    parser.add_argument("--xquery", action="store_true", help="EXPR is XQuery 3.1 (default: XPath 3.1)")
    parser.add_argument("--text", action="store_true", help="print string values only, also of nodes")
    parser.add_argument("--ns", action="append", default=[], metavar="PREFIX=URI",
                        help="bind a namespace prefix (px is bound to urn:pyxform)")
    worker_arguments(parser.add_argument_group("resource limits (exit code 7)"), "query")


def _run_query(args: argparse.Namespace) -> int:
    namespaces = {}
    for binding in args.ns:
        prefix, sep, uri = binding.partition("=")
        if not sep or not prefix:
            args.parser.error(f"--ns takes PREFIX=URI, not {binding!r}")
        namespaces[prefix] = uri
    target = local_file(args.target, "query", "XML documents")
    options = QueryOptions(args.expression, args.xquery, tuple(namespaces.items()), args.text)
    with job_runner(limits_of(args)) as run:
        result = run(Source(b"", target), options)
    for skipped in result.messages:
        print(f"pyxform: warning [query]: {skipped}", file=sys.stderr)
    if result.error is not None:
        raise result.error
    write_file(None, result.payload, sys.stdout.buffer)
    if result.status == "partial":
        print(f"pyxform: {len(result.messages)} file(s) of {args.target} skipped; the result is over the others",
              file=sys.stderr)
        return EXIT_PARTIAL_FAILURE
    return EXIT_OK


SCHEMA = Command("schema", "generate an XSD for a convert output", _schema_arguments, _run_schema)
VALIDATE = Command("validate", "validate an XML file against an XSD, with line-numbered errors", _validate_arguments,
                   _run_validate)
QUERY = Command("query", "XPath 3.1 / XQuery 3.1 over output files", _query_arguments, _run_query)
TRANSFORM = Command("transform", "run any XSLT 3.0 stylesheet on an XML document (Saxon-HE)", _transform_arguments,
                    _run_transform)
