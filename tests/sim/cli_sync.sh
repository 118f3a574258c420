#!/usr/bin/env bash
# Issue 3 through the CLI: `lightrail sync status|mode|calibrate|exchange-rate`
# against `lightrail-cosim serve --sync star`: the follower locks, the
# grandmaster reports no reference link, its exchange rate is set, `sync mode` turns the follower's servo off and
# back on (two-way only) through SYNC_CTRL and it locks again, calibration
# reaches the servo's registers, and an out-of-range value is refused naming
# the field with nothing written.
#   cli_sync.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
field() { grep -o "\"$1\": *[-0-9a-z\"A-Z_]*" | head -1 | sed 's/.*: *//; s/"//g'; }

# Through the boards' own ports (the default): switched to two-way only, the
# follower's exchanges are cycle stamps until its port's DDMTD pairs again,
# and it must still lock (tests/sim/cli_health.sh checks the ports'
# SYNC_LINK on a served star).
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

# The grandmaster has no reference of its own, and its port hears the
# follower's engine.
out=$("$cli" sync status --device "$gm")
echo "$out" | grep -q "reference (grandmaster): board time is the reference, servo off; the far end's link engine is heard" ||
  fail "grandmaster status does not say it is the reference and hears its follower: $out"

# The exchange rate is the grandmaster's (SYNC_EXCHANGE_PERIOD): at 3,000/s
# its engine sends a Sync every 83,333 cycles, and the follower stays locked.
"$cli" sync exchange-rate --device "$gm" --rate-hz 3000 | grep -q "set to 3000.01/s (a Sync every 83333 cycles)" ||
  fail "sync exchange-rate did not set 3000/s"
[ "$("$cli" sync status --device "$gm" --json | field exchange_period_cycles)" = 83333 ] ||
  fail "grandmaster's SYNC_EXCHANGE_PERIOD is not 83333"
sleep 1
st=$("$cli" sync status --device "$follower" --json)
[ "$(echo "$st" | field locked)" = true ] || fail "follower lost its lock at 3,000 exchanges/s: $st"
"$cli" sync exchange-rate --device "$gm" --rate-hz 61020 > /dev/null

# The roles are the scenario's (board 0 the grandmaster); SYNC_CTRL is the
# co-simulated board's own, and its ENABLE and USE_DDMTD drive the servo.
out=$("$cli" sync mode --device "$follower")
echo "$out" | grep -q "sync mode follower (SYNC_CTRL = 0x3)" || fail "follower's mode not shown: $out"
md=$("$cli" sync mode --device "$follower" off --json)
[ "$(echo "$md" | field sync_ctrl)" = 0 ] || fail "mode off did not read back SYNC_CTRL = 0: $md"
for _ in $(seq 100); do
  st=$("$cli" sync status --device "$follower" --json)
  [ "$(echo "$st" | field state)" = DISABLED ] && break
  sleep 0.05
done
[ "$(echo "$st" | field state)" = DISABLED ] || fail "servo still runs after sync mode off: $st"
"$cli" sync mode --device "$follower" follower --ptp-only
for _ in $(seq 600); do
  st=$("$cli" sync status --device "$follower" --json)
  [ "$(echo "$st" | field locked)" = true ] && break
  sleep 0.1
done
[ "$(echo "$st" | field locked)" = true ] || fail "follower did not lock again two-way only: $st"
[ "$(echo "$st" | field use_ddmtd)" = false ] || fail "--ptp-only left USE_DDMTD set: $st"
[ "$(echo "$st" | field mode)" = follower-ptp-only ] || fail "mode not follower-ptp-only: $st"
"$cli" sync mode --device "$follower" follower > /dev/null

"$cli" sync calibrate --device "$follower" --asymmetry-ps 1200 --delay-tx-ps 300 --delay-rx-ps 400
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field asymmetry_ps)" = 1200 ] || fail "asymmetry not read back: $cal"

# From measurements (docs/lab.md, section 5): a PPS skew folded into the
# fixed delays (late: receive delay += 2s; early: transmit delay += 2|s|),
# the two ends' port delays, and the asymmetry from alpha and the round trip.
"$cli" sync calibrate --device "$follower" --skew-ps 50 > /dev/null
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field delay_rx_ps)" = 500 ] || fail "a late skew of 50 ps did not add 100 ps to delay_rx: $cal"
"$cli" sync calibrate --device "$follower" --skew-ps -30 > /dev/null
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field delay_tx_ps)" = 360 ] || fail "an early skew of 30 ps did not add 60 ps to delay_tx: $cal"
"$cli" sync calibrate --device "$follower" --reference-port-ps 100,200 --port-ps 300,450 > /dev/null
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field delay_rx_ps)" = 550 ] && [ "$(echo "$cal" | field delay_tx_ps)" = 500 ] ||
  fail "port delays: want delay_rx = 100 + 450, delay_tx = 300 + 200: $cal"
cal=$("$cli" sync calibrate --device "$follower" --alpha 2.6e-4 --json)
rtt=$(echo "$cal" | grep -o '"calibration"' > /dev/null; "$cli" sync status --device "$follower" --json | field rtt_ps)
want=$(python3 -c "print(round(2.6e-4 / (2 + 2.6e-4) * ($rtt - 1050)))")
got=$(echo "$cal" | python3 -c "import json,sys; print(json.load(sys.stdin)['calibration']['asymmetry_ps'])")
# The round trip moves by a few ps between the two reads.
python3 -c "import sys; sys.exit(0 if abs($got - $want) <= 2 else 1)" ||
  fail "--alpha 2.6e-4 wrote asymmetry $got ps, want $want from the round trip $rtt ps"

set +e
"$cli" sync calibrate --device "$follower" --asymmetry-ps 900000000 2> "$work/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "out-of-range calibration exited $rc, not 1"
grep -q "asymmetry_ps" "$work/err" || fail "error does not name asymmetry_ps: $(cat "$work/err")"
cal=$("$cli" sync calibrate --device "$follower" --json)
[ "$(echo "$cal" | field asymmetry_ps)" = "$got" ] || fail "a refused calibration changed the board: $cal"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || true
serve_pid=
echo "PASS"
