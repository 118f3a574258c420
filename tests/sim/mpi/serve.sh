#!/usr/bin/env bash
# Issue 13: a host program reaches every board of a partitioned run through
# rank 0's board server: boards simulated by rank 1 lock to a parent on rank
# 0, take a schedule and report; too many ranks for the boards is refused.
#   serve.sh MPIRUN COSIM LIGHTRAIL
set -euo pipefail
mpirun=$1 cosim=$2 cli=$3
here=$(dirname "$0")
source "$here/mpi_lib.sh"
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$work/serve.log" 2>/dev/null; exit 1; }
field() { grep -o "\"$1\": *[-0-9a-z\"A-Z_]*" | head -1 | sed 's/.*: *//; s/"//g'; }

"$mpirun" -np 2 "$cosim" serve --boards 4 --sync chain --sync-link model --port 0 --port-file "$work/port" \
  --report "$work/report.json" > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 400); do [ -s "$work/port" ] && break; kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.05; done
[ -s "$work/port" ] || fail "serve did not start"
dev() { echo "sim://127.0.0.1:$(cat "$work/port")/$1"; }

# Board 3 is rank 1's; its parent, board 2, too; board 1 is rank 0's.
for _ in $(seq 1200); do
  st=$("$cli" sync status --device "$(dev 2)" --json)
  [ "$(echo "$st" | field locked)" = true ] && break
  sleep 0.1
done
[ "$(echo "$st" | field locked)" = true ] || fail "board 2 (rank 1, parent on rank 0) never locked: $st"

"$cosim" generate '{"steps": 40, "step_ps": 20000, "configs": 4, "cyclic": false, "seed": 5, "generation": 3}' \
  -o "$work/s.json"
"$cli" upload --device "$(dev 3)" "$work/s.json" --commit-at now+1000000000
for _ in $(seq 600); do
  status=$("$cli" status --device "$(dev 3)" --json)
  [ "$(echo "$status" | field steps)" = 40 ] && [ "$(echo "$status" | field running)" = false ] && break
  sleep 0.1
done
[ "$(echo "$status" | field steps)" = 40 ] || fail "board 3 (rank 1) never ran its 40 steps: $status"
[ "$(echo "$status" | field generation)" = 3 ] || fail "board 3 runs the wrong generation: $status"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "serve exited $?"
serve_pid=
python3 - "$work/report.json" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
assert [b["board"] for b in r["boards"]] == [0, 1, 2, 3], r["boards"]
assert r["partition"]["ranks"] == 2, r["partition"]
assert r["boards"][3]["steps_executed"] == 40, r["boards"][3]["steps_executed"]
assert [b["board"] for b in r["sync"]["boards"]] == [1, 2, 3]
PY

# More ranks than boards: refused before anything runs, naming the count.
set +e
"$mpirun" -np 3 "$cosim" serve --boards 2 --port 0 > "$work/err" 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || fail "3 ranks for 2 boards were accepted"
grep -q "more ranks than the 2 boards" "$work/err" || fail "no clear error: $(cat "$work/err")"

# Links too short to look ahead over (10 cm of fibre, under 1 ns): refused,
# naming the field, before anything runs.
cat > "$work/short.json" <<'JSON'
{"lightrail_scenario": 1, "boards": 2, "duration_ps": 1000000,
 "sync": {"topology": "star", "baseline": false, "measure_from_ps": 500000, "link": "model", "profile": {"fibre": {"length_m": 0.1}}}}
JSON
set +e
"$mpirun" -np 2 "$cosim" run "$work/short.json" > "$work/err" 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || fail "a 0.1 m fibre was accepted for a partitioned run"
grep -q "sync.profile.fibre: the shortest link delay" "$work/err" || fail "no clear error: $(cat "$work/err")"

# Only run and serve split boards; the others say so rather than run twice.
set +e
"$mpirun" -np 2 "$cosim" generate '{"steps": 4, "step_ps": 20000}' -o "$work/g.json" > "$work/err" 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || fail "generate ran under mpirun"
grep -q "only \`run\` and \`serve\` split boards" "$work/err" || fail "no clear error: $(cat "$work/err")"
echo PASS
