#!/usr/bin/env bash
# Issue 3 through the CLI: `lightrail sync status|calibrate` against
# `lightrail-cosim serve --sync star`: the follower locks, the grandmaster
# reports no reference link, calibration reaches the servo's registers, and
# an out-of-range value is refused naming the field with nothing written.
#   cli_sync.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
field() { grep -o "\"$1\": *[-0-9a-z\"A-Z_]*" | head -1 | sed 's/.*: *//; s/"//g'; }

"$cosim" serve --boards 2 --sync star --port 0 --port-file "$work/port" > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || fail "serve did not start"
gm="sim://127.0.0.1:$(cat "$work/port")/0" follower="sim://127.0.0.1:$(cat "$work/port")/1"

for _ in $(seq 600); do
  st=$("$cli" sync status --device "$follower" --json)
  [ "$(echo "$st" | field locked)" = true ] && break
  sleep 0.1
done
[ "$(echo "$st" | field locked)" = true ] || fail "follower never locked: $st"
"$cli" sync status --device "$follower"

out=$("$cli" sync status --device "$gm")
echo "$out" | grep -q "no reference link" || fail "grandmaster status does not say it has no reference link: $out"

"$cli" sync calibrate --device "$follower" --asymmetry-ps 1200 --delay-tx-ps 300 --delay-rx-ps 400
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field asymmetry_ps)" = 1200 ] || fail "asymmetry not read back: $cal"

set +e
"$cli" sync calibrate --device "$follower" --asymmetry-ps 900000000 2> "$work/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "out-of-range calibration exited $rc, not 1"
grep -q "asymmetry_ps" "$work/err" || fail "error does not name asymmetry_ps: $(cat "$work/err")"
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field asymmetry_ps)" = 1200 ] || fail "a refused calibration changed the board: $cal"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || true
serve_pid=
echo "PASS"
