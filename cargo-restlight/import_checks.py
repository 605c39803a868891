"""Schemathesis checks for a service `cargo restlight import` generated.

Until its bodies are written, every handler of the skeleton answers 501
with a problem detail whose `operation` names the operation. So, with
requests that follow the contract (`--mode positive`), every response must
be that 501, from the operation's own handler: any other status means the
route, a parameter or a media type is not where the contract says (404 or
405: no route for the path or method; 400: a parameter or body the
contract allows is refused; 406 or 415: a media type the contract names is
not negotiated; 500: a failure). `import-ci.sh` loads this module with
`SCHEMATHESIS_HOOKS=import_checks` and runs this check alone.

What the import warned it cannot keep is not a failure: with
`IMPORT_WARNINGS` naming the file of its warnings, a 415 is accepted for
an operation with a warning about its request body's media types, and a
400 for one with a warning about its request body or parameters (the
pointers under the operation's, `#/paths/~1pet/post/requestBody`).
"""

import os

import schemathesis
from schemathesis.specs.openapi import converter

# The widths of the integer formats schemars writes for Rust's integer types
# (`uint64` for `u64`, `uint` for `usize`, ...), which the import maps back
# to those types. Schemathesis draws `int32` and `int64` values within
# their width (OpenAPI defines them); these it does not know, so it would
# draw integers of any size, beyond the type the format names, and count
# the 400 that follows against the service.
_SCHEMARS_INTEGER_FORMATS = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
    "uint": (0, 2**64 - 1),
}
if not isinstance(getattr(converter, "INTEGER_FORMAT_BOUNDS", None), dict):
    raise RuntimeError(
        "this Schemathesis has no `schemathesis.specs.openapi.converter.INTEGER_FORMAT_BOUNDS`: "
        "use the version scripts/openapi-check.sh installs"
    )
converter.INTEGER_FORMAT_BOUNDS.update(_SCHEMARS_INTEGER_FORMATS)


def _warned(case, parts):
    """Whether the import warned about one of `parts` of the case's operation."""
    path = os.environ.get("IMPORT_WARNINGS")
    if not path:
        return False
    escaped = case.operation.path.replace("~", "~0").replace("/", "~1")
    base = f"warning: #/paths/{escaped}/{case.method.lower()}/"
    with open(path, encoding="utf-8") as f:
        return any(line.startswith(base + part) for line in f for part in parts)


def _header(response, name):
    value = response.headers.get(name)
    if isinstance(value, list):
        return value[0] if value else None
    return value


@schemathesis.check
def answered_by_its_handler(ctx, response, case):
    """The skeleton's 501, naming the contract's operation, and nothing else."""
    where = f"{case.method} {case.formatted_path}"
    if response.status_code == 415 and _warned(case, ["requestBody/content"]):
        return None
    if response.status_code == 400 and _warned(case, ["requestBody", "parameters"]):
        return None
    if response.status_code != 501:
        raise AssertionError(
            f"{where}: {response.status_code} instead of the skeleton's 501: the route, a parameter "
            f"or a media type is not where the contract says ({response.text[:300]!r})"
        )
    if case.method.upper() == "HEAD":
        return None
    media = (_header(response, "content-type") or "").split(";")[0].strip()
    if media != "application/problem+json":
        raise AssertionError(f"{where}: 501 as {media!r}, not the skeleton's problem detail")
    expected = case.operation.definition.raw.get("operationId")
    named = response.json().get("operation")
    if expected is not None and named != expected:
        raise AssertionError(f"{where}: answered by the handler of {named!r}, not of {expected!r}")
    return None
