#!/usr/bin/env bash
# Validates the OpenAPI documents with tools this project did not write:
# openapi-spec-validator on the checked-in documents, then Schemathesis
# against the running users and petstore examples (`cargo run --example
# users`, `--example petstore`), with
# the checks not_a_server_error, status_code_conformance,
# content_type_conformance and response_schema_conformance.
#
# Both are installed, at pinned versions, into a virtualenv under target/
# (reused on the next run). Run from anywhere: scripts/openapi-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

VALIDATOR_VERSION=0.9.0
SCHEMATHESIS_VERSION=4.32.5
VENV=target/openapi-venv
PORT="${OPENAPI_CHECK_PORT:-18080}"
MAX_EXAMPLES="${OPENAPI_CHECK_MAX_EXAMPLES:-30}"

if ! "$VENV/bin/python" -c "import openapi_spec_validator, schemathesis" 2>/dev/null \
    || ! "$VENV/bin/pip" freeze 2>/dev/null | grep -qx "schemathesis==$SCHEMATHESIS_VERSION" \
    || ! "$VENV/bin/pip" freeze 2>/dev/null | grep -qx "openapi-spec-validator==$VALIDATOR_VERSION"; then
    mkdir -p target
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "openapi-spec-validator==$VALIDATOR_VERSION" "schemathesis==$SCHEMATHESIS_VERSION"
fi

echo "== openapi-spec-validator $VALIDATOR_VERSION: the checked-in documents"
"$VENV/bin/openapi-spec-validator" examples/openapi/*.json examples/openapi/*.yaml

# Schemathesis against a running example: its served document validated,
# then every operation called with generated requests.
schemathesis_on() { # example port
    local example=$1 port=$2
    echo "== schemathesis $SCHEMATHESIS_VERSION: the running $example example"
    PORT="$port" "target/debug/examples/$example" >"target/openapi-$example.log" 2>&1 &
    local server=$!
    SERVERS+=("$server")
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/openapi.json" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -fsS "http://127.0.0.1:$port/openapi.json" -o "target/openapi-served-$example.json"
    curl -fsS "http://127.0.0.1:$port/openapi.yaml" -o "target/openapi-served-$example.yaml"
    "$VENV/bin/openapi-spec-validator" "target/openapi-served-$example.json" "target/openapi-served-$example.yaml"
    "$VENV/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --max-examples "$MAX_EXAMPLES" \
        --seed 1 \
        --no-color
    kill "$server" 2>/dev/null || true
}

cargo build --locked --example users --example petstore
SERVERS=()
trap 'kill "${SERVERS[@]}" 2>/dev/null || true' EXIT
# The users example's served document is the checked-in one but for what
# serving adds; the pet store uses every parameter source, body kind and
# documented error.
schemathesis_on users "$PORT"
schemathesis_on petstore "$((PORT + 1))"
echo "openapi-check: passed"
