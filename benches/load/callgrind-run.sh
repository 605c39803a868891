# Sourced by count.sh and kinds.sh: one server under callgrind, asked
# `GET /hello` once (polling until it answers; a refused connection costs
# the server nothing), then REQUESTS requests of PATH from h2load, then
# SIGTERM. A path `POST/x` posts the file BODY to /x; an `h2c:` prefix
# sends over h2c by prior knowledge, H2_STREAMS concurrent streams on each
# of the CONNS connections, instead of HTTP/1.1. Uses PORT, CONNS,
# H2_STREAMS and BODY from the caller; only 127.0.0.1 is targeted.
#
#   callgrind_requests BIN PATH REQUESTS OUT_FILE [VALGRIND_OPTION...]
callgrind_requests() {
    local bin=$1 path=$2 requests=$3 file=$4 post=() proto=(--h1)
    shift 4
    if [[ $path == h2c:* ]]; then
        path="${path#h2c:}"
        proto=(-m "$H2_STREAMS")
    fi
    if [[ $path == POST/* ]]; then
        path="${path#POST}"
        post=(-d "$BODY" -H "content-type: application/octet-stream")
    fi
    valgrind --tool=callgrind "$@" --callgrind-out-file="$file" "$bin" --port "$PORT" >/dev/null 2>&1 &
    local pid=$!
    for _ in $(seq 300); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/hello" && break
        sleep 0.1
    done
    h2load "${proto[@]}" -n "$requests" -c "$CONNS" -t 1 "${post[@]}" "http://127.0.0.1:$PORT$path" >/dev/null
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
}
