#!/usr/bin/env bash
# Issue 11: `lightrail health` against `lightrail-cosim serve`. A follower
# locked to its grandmaster is healthy (exit 0), and so is the grandmaster
# (no reference, servo off); a board whose servo follows a reference it has
# no link to is unhealthy (exit 6: link DOWN, sync NOT LOCKED), and so is a
# board with a sticky error flag (ERROR.BAD_MAGIC from a refused commit)
# until `health --clear-errors` clears it.
#   cli_health.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
source "$(dirname "$0")/cli_lib.sh"
# json_ok CHECK < health --json: that check's "ok".
json_ok() { tr -d '\n ' | grep -o "\"$1\":{\"ok\":[a-z]*" | sed 's/.*://'; }
# raw BOARD REQUEST...: line-protocol requests (docs/driver.md) straight to
# the board server, for states the CLI never makes on purpose.
raw() {
  local board=$1 line
  shift
  exec 3<> "/dev/tcp/127.0.0.1/$(cat "$work/port")"
  echo "HELLO $board" >&3
  read -r line <&3
  [[ $line == OK* ]] || fail "HELLO $board: $line"
  for request in "$@"; do
    echo "$request" >&3
    read -r line <&3
    [[ $line == OK* ]] || fail "$request: $line"
  done
  exec 3>&-
}
# health_rc BOARD: health's exit code, its text in $work/health.txt.
health_rc() {
  set +e
  "$cli" health --device "$(dev "$1")" > "$work/health.txt" 2> "$work/health.err"
  local rc=$?
  set -e
  cat "$work/health.txt"
  return $rc
}

# A synchronised star of three: healthy follower and grandmaster; the
# grandmaster serves board 1 on its own link and board 2 on its first
# downstream port.
start_serve 3 --sync star
for _ in $(seq 600); do
  [ "$("$cli" sync status --device "$(dev 1)" --json | field locked)" = true ] && break
  sleep 0.1
done
[ "$("$cli" sync status --device "$(dev 1)" --json | field locked)" = true ] || fail "the follower never locked"
# Issue 28: the boards' ports carry the exchange, and SYNC_LINK says what the
# follower's engine does: aligned, its parent locked, no bad frame.
st=$("$cli" sync status --device "$(dev 1)" --json)
[ "$(field link_aligned <<< "$st")" = true ] || fail "the follower's engine is not aligned: $st"
[ "$(field parent_locked <<< "$st")" = true ] || fail "the follower does not hear its parent locked: $st"
[ "$(field link_bad_frames <<< "$st")" = 0 ] || fail "the follower counted bad frames: $st"
# The grandmaster's registers say its first downstream port hears board 2's
# engine (SYNC_DOWN_LINK, SYNC_DOWN_BAD_FRAMES).
gm=$("$cli" sync status --device "$(dev 0)" --json)
python3 -c 'import json, sys; d = json.load(sys.stdin); sys.exit(d["down_ports_aligned"] != [1] or d["down_bad_frames"] != 0)' \
  <<< "$gm" || fail "the grandmaster's downstream ports are not [1] aligned with 0 bad frames: $gm"
"$cli" sync status --device "$(dev 0)" | grep -q "downstream  port 1 aligned, bad frames 0" ||
  fail "sync status does not show the grandmaster's downstream port: $("$cli" sync status --device "$(dev 0)")"
js=$("$cli" health --device "$(dev 1)" --json) || fail "a locked follower is not healthy: $js"
[ "$(field healthy <<< "$js")" = true ] || fail "healthy is not true: $js"
for check in clock mmcm link sync errors temperature; do
  [ "$(json_ok $check <<< "$js")" = true ] || fail "check $check failed on a locked follower: $js"
done
health_rc 1 || fail "text health of the locked follower exited $?"
grep -q "healthy" "$work/health.txt" || fail "no verdict printed"
health_rc 0 || fail "the grandmaster (servo off, no reference) is not healthy: exit $?"
# Made the link's reference (as a lab does on hardware), it says so and stays healthy.
"$cli" sync mode --device "$(dev 0)" reference > /dev/null || fail "sync mode reference exited $?"
health_rc 0 || fail "the grandmaster as the link's reference is not healthy: exit $?"
grep -q "sync .*reference (grandmaster" "$work/health.txt" || fail "health does not name the reference"
js=$("$cli" health --device "$(dev 0)" --json)
tr -d '\n ' <<< "$js" | grep -q '"reference":true' || fail "health --json lacks the reference flag: $js"
"$cosim" stop --port "$(cat "$work/port")" > /dev/null
wait "$serve_pid" || fail "the served boards failed their own checks"
serve_pid=

# Ideal clocks, no fibre: healthy until told otherwise.
rm -f "$work/port"
start_serve 2
health_rc 1 || fail "a fresh board is not healthy: exit $?"
# The servo enabled on a board with no reference link (fibre unplugged).
# With ideal clocks the model runs no servo, so SYNC_STATUS stays 0
# (DISABLED, REF_OK = 0) and the link input low.
raw 1 "WR 100 3"
set +e
js=$("$cli" health --device "$(dev 1)" --json)
rc=$?
set -e
[ "$rc" = 6 ] || fail "a board following no reference exited $rc, not 6: $js"
[ "$(field healthy <<< "$js")" = false ] || fail "healthy is not false: $js"
[ "$(json_ok sync <<< "$js")" = false ] || fail "sync not reported unlocked: $js"
[ "$(json_ok link <<< "$js")" = false ] || fail "link not reported down: $js"
[ "$(json_ok mmcm <<< "$js")" = true ] || fail "mmcm not reported locked: $js"
health_rc 1 && fail "text health of the unlocked board exited 0"
grep -q "link .*FAIL.*DOWN" "$work/health.txt" || fail "text does not say the link is down"

# A commit of an empty bank: the board refuses it (ERROR.BAD_MAGIC).
raw 0 "WR b0 5a5a0001" "WR 50 0" "WR 54 5a5a0001" "WR b4 5a5a0001"
for _ in $(seq 100); do
  "$cli" status --device "$(dev 0)" --json | grep -q BAD_MAGIC && break
  sleep 0.05
done
set +e
js=$("$cli" health --device "$(dev 0)" --json)
rc=$?
set -e
[ "$rc" = 6 ] || fail "a board with ERROR.BAD_MAGIC exited $rc, not 6: $js"
[ "$(json_ok errors <<< "$js")" = false ] || fail "errors check passed: $js"
grep -q "ERROR.BAD_MAGIC" <<< "$js" || fail "the flag is not named: $js"
[ "$(json_ok sync <<< "$js")" = true ] || fail "a board with its servo off failed the sync check: $js"
# --clear-errors: the flag is cleared, said so, and the board is healthy again.
out=$("$cli" health --device "$(dev 0)" --clear-errors) || fail "health --clear-errors exited $?: $out"
echo "$out"
grep -q "cleared before the checks: ERROR.BAD_MAGIC" <<< "$out" || fail "the cleared flag is not named: $out"
health_rc 0 || fail "still unhealthy after the flag was cleared: exit $?"

# An unreachable board is a device error (3), not "unhealthy".
set +e
"$cli" health --device sim://127.0.0.1:1/0 > /dev/null 2>&1
rc=$?
set -e
[ "$rc" = 3 ] || fail "an unreachable board exited $rc, not 3"
"$cosim" stop --port "$(cat "$work/port")" > /dev/null
wait "$serve_pid" || fail "the served boards failed their own checks: $(cat "$work/serve.log")"
serve_pid=
echo "PASS"
