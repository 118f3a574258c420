#!/usr/bin/env bash
# Issue 9, A3: a fabric commit that fails after other boards were armed.
# Four co-simulated boards run generation 1. Then b3's COMMIT is held by a
# proxy and its connection cut:
#  (i)  after 0.1 s, well before the commit time T (5 ms of board time
#       ahead): b0..b2 are cancelled in time; long after T every board
#       still runs generation 1 with one swap;
#  (ii) only once b0 has swapped (the test releases the proxy when `status`
#       shows it; the margin is 1 ms): T has passed on b0..b2, the cancels
#       come too late, and the --json report names exactly b0, b1, b2 as
#       switched (b3 unchanged) at one boundary, which the boards confirm.
# Both exit 3. The probes pass over the whole run (every swap by the rules).
#   cli_fabric_arm_fail.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/fabric_lib.sh"
schedule="$here/../../examples/schedules/awgr_doubling.json"
commit_reg=$(reg COMMIT)

start_serve 4
write_fabric "$work/good.json" 2000 "$(dev 0)" "$(dev 1)" "$(dev 2)" "$(dev 3)"
with_generation "$schedule" 2 "$work/gen2.json"
with_generation "$schedule" 3 "$work/gen3.json"
"$cli" fabric commit "$work/good.json" --all "$schedule" --allow-unlocked --json > "$work/old.json" 2> /dev/null ||
  fail "the first commit failed: $(cat "$work/old.json")"

# commit NAME FABRIC SCHEDULE: the fabric commit, its exit code in $work/NAME.rc
commit() {
  set +e
  "$cli" fabric commit "$2" --all "$3" --allow-unlocked --json > "$work/$1.out" 2> "$work/$1.err"
  echo $? > "$work/$1.rc"
  set -e
}
generations() {
  "$cli" fabric status "$work/good.json" --json > "$work/gens.json"
  jv '[(b["status"]["generation"], b["status"]["swaps"]) for b in d["boards"]]' "$work/gens.json"
}

# (i) cancelled in time.
start_proxy hold --write-at "$commit_reg" --action stall --stall-s 0.1
write_fabric "$work/i.json" 5000 "$(dev 0)" "$(dev 1)" "$(dev 2)" "$(proxy_uri hold 3)"
commit i "$work/i.json" "$work/gen2.json"
out="$work/i.out"
[ "$(cat "$work/i.rc")" = 3 ] || fail "(i) exit $(cat "$work/i.rc"), not 3: $(cat "$work/i.err" "$out")"
grep -q "stalling" "$work/hold.log" || fail "(i) the proxy never held b3's COMMIT: $(cat "$work/hold.log")"
[ "$(jv 'd["switched"]' "$out")" = "[]" ] || fail "(i) boards switched: $(cat "$out")"
[ "$(jv '[b["board"] for b in d["boards"][:3] if not (b["armed"] and b["cancelled"] and b["outcome"] == "unchanged")]' "$out")" = "[]" ] ||
  fail "(i) b0..b2 not armed and cancelled: $(cat "$out")"
[ "$(jv '(d["boards"][3]["outcome"], d["boards"][3]["error_kind"])' "$out")" = "('unchanged', 'TransportError')" ] ||
  fail "(i) b3: $(jv 'd["boards"][3]' "$out")"
T=$(jv 'd["commit_ps"]' "$out")
wait_board_time "$(dev 0)" $((T + 100000000))
[ "$(generations)" = "[[1, 1], [1, 1], [1, 1], [1, 1]]" ] || fail "(i) after T: $(cat "$work/gens.json")"
echo "(i) b3's COMMIT cut before T = $T ps: b0..b2 cancelled in time; every board runs generation 1"

# (ii) too late: T passes on b0..b2 while b3's COMMIT is held.
start_proxy late --write-at "$commit_reg" --action stall --stall-s 30 --release-file "$work/release"
write_fabric "$work/ii.json" 1000 "$(dev 0)" "$(dev 1)" "$(dev 2)" "$(proxy_uri late 3)"
commit ii "$work/ii.json" "$work/gen3.json" &
committer=$!
for _ in $(seq 600); do
  "$cli" status --device "$(dev 0)" --json > "$work/b0.json"
  [ "$(jv 'd["generation"]' "$work/b0.json")" = 3 ] && break
  sleep 0.05
done
touch "$work/release"
wait "$committer"
out="$work/ii.out"
[ "$(jv 'd["generation"]' "$work/b0.json")" = 3 ] || fail "(ii) b0 never swapped while b3 was held: $(cat "$work/b0.json")"
[ "$(cat "$work/ii.rc")" = 3 ] || fail "(ii) exit $(cat "$work/ii.rc"), not 3: $(cat "$work/ii.err" "$out")"
[ "$(jv 'd["switched"]' "$out")" = '["b0", "b1", "b2"]' ] || fail "(ii) switched: $(cat "$out")"
T=$(jv 'd["commit_ps"]' "$out")
# Running boards take over at the first step boundary at or after T: one
# boundary for all, as their step grids are one.
[ "$(jv "len(set(b['swap_ps'] for b in d['boards'][:3])) == 1 and d['boards'][0]['swap_ps'] >= $T" "$out")" = true ] ||
  fail "(ii) b0..b2 did not report one swap at or after T = $T: $(cat "$out" "$work/ii.err")"
[ "$(jv 'd["boards"][3]["outcome"]' "$out")" = unchanged ] || fail "(ii) b3: $(jv 'd["boards"][3]' "$out")"
jv 'd["error"]' "$out" | grep -q "too late to cancel on b0, b1, b2" || fail "(ii) error: $(jv 'd["error"]' "$out")"
[ "$(generations)" = "[[3, 2], [3, 2], [3, 2], [1, 1]]" ] || fail "(ii) boards: $(cat "$work/gens.json")"
echo "(ii) T = $T ps passed while b3 was held: the report names b0, b1, b2 switched, b3 unchanged"

stop_serve
r="$work/report.json"
[ "$(jv '[[s["generation"] for s in b["swaps"]] for b in d["boards"]]' "$r")" = "[[1, 3], [1, 3], [1, 3], [1]]" ] ||
  fail "the reference saw other swaps: $(jv '[b["swaps"] for b in d["boards"]]' "$r")"
[ "$(jv 'd["missed_steps"]' "$r")" = 0 ] || fail "missed steps"
echo "PASS"
