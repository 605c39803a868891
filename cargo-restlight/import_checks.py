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
"""

import schemathesis


def _header(response, name):
    value = response.headers.get(name)
    if isinstance(value, list):
        return value[0] if value else None
    return value


@schemathesis.check
def answered_by_its_handler(ctx, response, case):
    """The skeleton's 501, naming the contract's operation, and nothing else."""
    where = f"{case.method} {case.formatted_path}"
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
