#!/usr/bin/env bash
# Issue 9, A1: `lightrail fabric commit` on 8 co-simulated boards whose
# clocks follow board 0 (star). Once `fabric status` says every follower is
# locked, each board gets its own variant of one schedule (generation 10+k)
# in one fabric commit: every board reports the swap at the one commit time
# T, the simulation's reference saw exactly that swap on each board, and the
# step-boundary skew across the boards (measured from their serializer
# edges) is within the clock-sync error plus one fine step.
#   cli_fabric_sync.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/fabric_lib.sh"
schedule="$here/../../examples/schedules/awgr_doubling.json"
boards=8

start_serve $boards --sync star
uris=()
args=()
for k in $(seq 0 $((boards - 1))); do
  uris+=("$(dev "$k")")
  with_generation "$schedule" $((10 + k)) "$work/s$k.json"
  args+=("b$k=$work/s$k.json")
done
write_fabric "$work/fabric.json" 1000 "${uris[@]}"
"$cli" fabric validate "$work/fabric.json" "${args[@]}"

for _ in $(seq 1200); do
  "$cli" fabric status "$work/fabric.json" --json > "$work/status.json" || true
  [ "$(jv 'd.get("all_locked")' "$work/status.json")" = true ] && break
  sleep 0.05
done
[ "$(jv 'd.get("all_locked")' "$work/status.json")" = true ] || fail "the clocks never locked: $(cat "$work/status.json")"
echo "every follower locked at board time $(jv 'd["boards"][0]["status"]["board_time_ps"]' "$work/status.json") ps"

# `fabric sync`: the roles the tree says and b3's calibration from the file
# (its own values, read first, so the figures below are unchanged).
cal=$("$cli" sync calibrate --device "$(dev 3)" --json)
python3 - "$work/fabric.json" "$cal" <<'PY'
import json, sys
f, cal = sys.argv[1], json.loads(sys.argv[2])["calibration"]
doc = json.load(open(f))
doc["boards"][3]["sync_calibration"] = {k: cal[k] for k in ("delay_tx_ps", "delay_rx_ps", "asymmetry_ps")}
json.dump(doc, open(f, "w"))
PY
"$cli" fabric sync "$work/fabric.json" --json > "$work/fsync.json" || fail "fabric sync exited $?: $(cat "$work/fsync.json")"
[ "$("$cli" sync mode --device "$(dev 0)" --json | jv 'd["mode"]' /dev/stdin)" = reference ] ||
  fail "fabric sync did not make b0 the reference"
for k in 1 3 7; do
  [ "$("$cli" sync mode --device "$(dev $k)" --json | jv 'd["mode"]' /dev/stdin)" = follower ] ||
    fail "fabric sync did not make b$k a follower"
done
[ "$("$cli" sync calibrate --device "$(dev 3)" --json | jv 'd["calibration"]' /dev/stdin)" = "$(jv 'd["calibration"]' <(echo "$cal"))" ] ||
  fail "b3's calibration did not read back"
echo "fabric sync: b0 reference, the others followers, b3 calibrated from the file"

set +e
"$cli" fabric commit "$work/fabric.json" "${args[@]}" --json > "$work/commit.json" 2> "$work/commit.err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "fabric commit exited $rc: $(cat "$work/commit.err" "$work/commit.json")"
T=$(jv 'd["commit_ps"]' "$work/commit.json")
check=$(jv "[(b['board'], b['outcome'], b['swap_ps']) for b in d['boards'] if b['outcome'] != 'switched' or b['swap_ps'] != $T]" \
  "$work/commit.json")
[ "$check" = "[]" ] || fail "boards that did not report the swap at T = $T ps: $check"
echo "fabric commit: all $boards boards switched at T = $T ps"

# Let the schedule run 0.5 ms of board time past T (500 boundaries), for
# the skew figures.
wait_board_time "$(dev 0)" $((T + 500000000))
stop_serve

r="$work/report.json"
swaps=$(jv "[(b['board'], [(s['at_ps'], s['generation'], s['ok']) for s in b['swaps']]) for b in d['boards']
             if [(s['at_ps'], s['generation'], s['ok']) for s in b['swaps']] != [($T, 10 + b['board'], True)]]" "$r")
[ "$swaps" = "[]" ] || fail "the reference saw other swaps than one at T with the board's generation: $swaps"
[ "$(jv 'd["missed_steps"]' "$r")" = 0 ] || fail "missed steps: $(jv 'd["missed_steps"]' "$r")"
tick=$(param TICK_PS)
skew=$(jv 'd["sync"]["slot_skew_ps_p99"]' "$r")
offset=$(jv 'd["sync"]["offset_ps"]["p99"]' "$r")
n=$(jv 'd["sync"]["slot_skew_boundaries"]' "$r")
echo "step-boundary skew p99 $skew ps over $n boundaries; clock offset p99 $offset ps; bound = offset + $tick ps"
[ "$n" -gt 100 ] || fail "only $n boundaries measured"
[ "$(jv "d['sync']['slot_skew_ps_p99'] <= d['sync']['offset_ps']['p99'] + $tick" "$r")" = true ] ||
  fail "skew p99 $skew ps exceeds clock offset p99 $offset ps + one fine step ($tick ps)"
echo "PASS"
