#!/usr/bin/env bash
# Issue 9, A2: a fabric commit whose staging fails on one board arms nothing
# anywhere. Four co-simulated boards run generation 1 (one fabric commit);
# then a commit of generation 2 is tried with board b3 (a) unreachable (its
# URI a closed port), (b) cut off in the middle of writing its bank (a proxy
# closes both sides half-way through the line), (c) given a corrupted word
# (the proxy flips a bit of a bank write, so the read-back verify fails).
# Each exits 3 naming b3 and the error's kind, reports every board unchanged
# and none armed; every board still runs generation 1 with one swap, and the
# simulation's probes pass with 0 missed steps.
#   cli_fabric_stage_fail.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/fabric_lib.sh"
schedule="$here/../../examples/schedules/awgr_doubling.json"

start_serve 4
write_fabric "$work/good.json" 2000 "$(dev 0)" "$(dev 1)" "$(dev 2)" "$(dev 3)"
with_generation "$schedule" 2 "$work/new.json"
# Ideal clocks: the servos are off, so every commit says --allow-unlocked.
"$cli" fabric commit "$work/good.json" --all "$schedule" --allow-unlocked --json > "$work/old.json" 2> /dev/null ||
  fail "the first commit failed: $(cat "$work/old.json")"
[ "$(jv 'd["switched"]' "$work/old.json")" = '["b0", "b1", "b2", "b3"]' ] || fail "first commit: $(cat "$work/old.json")"

# try CASE URI KIND: the generation 2 commit with b3 at URI must fail on b3
# with an error of KIND, and change no board.
try() {
  local name=$1 uri=$2 kind=$3
  write_fabric "$work/$name.json" 2000 "$(dev 0)" "$(dev 1)" "$(dev 2)" "$uri"
  set +e
  "$cli" fabric commit "$work/$name.json" --all "$work/new.json" --allow-unlocked --json > "$work/$name.out" \
    2> "$work/$name.err"
  local rc=$?
  set -e
  local out="$work/$name.out"
  [ "$rc" = 3 ] || fail "$name: exit $rc, not 3: $(cat "$work/$name.err" "$out")"
  [ "$(jv 'd["committed"]' "$out")" = false ] || fail "$name: committed: $(cat "$out")"
  [ "$(jv 'd["boards"][3]["error_kind"]' "$out")" = "$kind" ] ||
    fail "$name: b3's error is not a $kind: $(jv 'd["boards"][3]' "$out")"
  jv 'd["error"]' "$out" | grep -q "board b3" || fail "$name: the error does not name b3: $(jv 'd["error"]' "$out")"
  [ "$(jv '[b["board"] for b in d["boards"] if b["outcome"] != "unchanged" or b["armed"]]' "$out")" = "[]" ] ||
    fail "$name: a board is not reported unchanged and unarmed: $(cat "$out")"
  [ "$(jv 'd["boards"][3]["staged"]' "$out")" = false ] || fail "$name: b3 reported staged"
  "$cli" fabric status "$work/good.json" --json > "$work/$name.status"
  [ "$(jv '[(b["board"], b["status"]["generation"], b["status"]["swaps"]) for b in d["boards"]
           if b["status"]["generation"] != 1 or b["status"]["swaps"] != 1 or b["status"]["commit_pending"]]' \
        "$work/$name.status")" = "[]" ] || fail "$name: a board changed: $(cat "$work/$name.status")"
  echo "$name: refused on b3 ($kind): $(jv 'd["boards"][3]["error"]' "$out" | cut -c1-160)"
}

try unreachable "sim://127.0.0.1:$(free_port)/3" TransportError
start_proxy cut --write-at "$(banks)" --action cut-mid
try cut_mid_stage "$(proxy_uri cut 3)" TransportError
grep -q "cut in the middle" "$work/cut.log" || fail "the proxy never cut: $(cat "$work/cut.log")"
start_proxy corrupt --write-at "$(banks)" --action corrupt
try bad_image "$(proxy_uri corrupt 3)" VerifyError
grep -q "corrupted" "$work/corrupt.log" || fail "the proxy never corrupted a word: $(cat "$work/corrupt.log")"

# Generation 1 runs on: a few more epochs, then the probes' verdict.
wait_board_time "$(dev 0)" $(($(board_time "$(dev 0)") + 200000000))
stop_serve
r="$work/report.json"
[ "$(jv 'd["missed_steps"]' "$r")" = 0 ] || fail "missed steps: $(jv 'd["missed_steps"]' "$r")"
[ "$(jv '[b["board"] for b in d["boards"] if [s["generation"] for s in b["swaps"]] != [1] or b["rejected_banks"]]' "$r")" = "[]" ] ||
  fail "a board swapped or refused more than generation 1: $(jv '[(b["swaps"], b["rejected_banks"]) for b in d["boards"]]' "$r")"
echo "PASS: nothing armed in any case; generation 1 ran on, 0 missed steps"
