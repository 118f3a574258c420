# Shared by the CLI-against-`lightrail-cosim serve` tests: a scratch
# directory, a serving simulation started and cleaned up, failure with its
# log, and a JSON field pulled from the CLI's output. Source it after
# setting cosim=... cli=... .
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$work"/serve.log 2>/dev/null; exit 1; }
field() { grep -o "\"$1\": *[0-9a-z]*" | head -1 | sed 's/.*: *//'; }
# start_serve BOARDS [SERVE_OPTIONS...]: serve that many boards on a free
# loopback port.
start_serve() {
  local boards=$1
  shift
  "$cosim" serve --boards "$boards" --port 0 --port-file "$work/port" --report "$work/report.json" "$@" \
    > "$work/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 200); do [ -s "$work/port" ] && break; kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.05; done
  [ -s "$work/port" ] || fail "serve did not start"
}
# dev BOARD: that board's device URI.
dev() { echo "sim://127.0.0.1:$(cat "$work/port")/$1"; }
