#!/usr/bin/env bash
# Issue 10: each oscillator-side model of the realistic profile is really
# applied and does what it should, each alone against none (2 boards):
#   - flicker FM (exaggerated to an ADEV floor of 1e-7) spreads the offset
#     (std at least 1.5x);
#   - a tuning curve 30% off its line moves the DAC word the servo settles
#     at (by more than 1000 codes) and still locks;
#   - a DAC bow of 400 LSB (INL) moves the settled word by the bow's
#     difference between the grandmaster's word (mid-scale) and the
#     follower's, within 40%;
#   - a tuning port settling with a 50 us time constant changes the lock
#     (its time differs from none's: the same noise, so only the settling
#     can move it) but locks. Whether it slows the lock depends on the
#     noise realisation since issue 26 (the frequency is learnt from the
#     DDMTD's beat at a quarter per beat, which a slow port delays less):
#     1.05x slower with the servo's C model called at the update, 0.99x
#     with its HLS top in the loop (issue 28);
#     at 400 us (24 servo intervals) the loop no longer holds its lock: the
#     documented limit (docs/impairments.md; 200-300 us is marginal);
#   - an asymmetry calibration error of 100 ps rms leaves the follower
#     half its draw off, as reported (within 3 ps).
# The exchange is the fast mode's (link "model"): these judge the oscillator's
# models one at a time against none, from the settled DAC word's last value,
# and the fast mode keeps the ports' exchange (its own dither of that word)
# out of the comparison; the ports run every scenario of tests/sim/sync.
# Temperature and ageing are too slow to show in a ms-long run while
# locked; tests/sim_clock checks them against the holdover bound.
#   oscillator_models_matter.sh COSIM
set -euo pipefail
cosim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# run NAME OSCILLATOR_JSON [ASYMMETRY_ERROR_PS] -> prints
# "mean std p99 locked_over_window dac lock_us offset_from_calibration"
run() {
  local profile
  profile=$(python3 -c '
import json, sys
o = {k: 0 for k in ["flicker_adev", "tempco_ppb_per_k", "ageing_ppb_per_day", "pull_nonlinearity",
                    "dac_inl_lsb", "dac_dnl_lsb", "dac_settling_us"]}
o.update(json.loads(sys.argv[1]))
print(json.dumps({"oscillator": o, "calibration": {"asymmetry_error_ps": float(sys.argv[2])}}))' "$2" "${3:-0}")
  cat > "$work/$1.json" <<JSON
{"lightrail_scenario": 1, "boards": 2, "duration_ps": 4000000000,
 "sync": {"topology": "star", "baseline": false, "measure_from_ps": 2000000000, "link": "model", "profile": $profile}}
JSON
  "$cosim" run "$work/$1.json" --report "$work/$1.r.json" > "$work/$1.log" 2>&1 || true
  [ -s "$work/$1.r.json" ] || { cat "$work/$1.log"; fail "$1 did not run"; }
  python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["sync"]
o, b = s["offset_ps"], s["boards"][0]
print(o["mean"], o["std"], o["p99"], int(s["every_follower_locked_over_window"]), b["dac"], b["lock_time_us"],
      b["offset_from_calibration_ps"])' "$work/$1.r.json"
}
read -r m0 s0 p0 l0 d0 t0 c0 < <(run none '{}')
read -r m1 s1 p1 l1 d1 t1 c1 < <(run flicker '{"flicker_adev": 1e-7}')
read -r m2 s2 p2 l2 d2 t2 c2 < <(run curve '{"pull_nonlinearity": 0.3}')
read -r m3 s3 p3 l3 d3 t3 c3 < <(run inl '{"dac_inl_lsb": 400}')
read -r m4 s4 p4 l4 d4 t4 c4 < <(run settle50 '{"dac_settling_us": 50}')
read -r m5 s5 p5 l5 d5 t5 c5 < <(run settle400 '{"dac_settling_us": 400}')
read -r m6 s6 p6 l6 d6 t6 c6 < <(run cal '{}' 100)
echo "none:               mean $m0 std $s0 p99 $p0 locked $l0 dac $d0 lock $t0 us"
echo "flicker 1e-7:       mean $m1 std $s1 p99 $p1 locked $l1"
echo "tuning curve 30%:   dac $d2 locked $l2 p99 $p2"
echo "DAC INL 400 LSB:    dac $d3 locked $l3"
echo "settling 50 us:     lock $t4 us locked $l4 p99 $p4"
echo "settling 400 us:    locked $l5 p99 $p5"
echo "calibration 100 ps: mean $m6 (predicted $c6) locked $l6"
check() { python3 -c "import sys; sys.exit(0 if ($1) else 1)" || fail "$2"; }
check "$l0 == 1" "no impairment: not locked over the window"
check "$s1 >= 1.5 * $s0 and $l1 == 1" "flicker FM did not spread the offset ($s1 vs $s0 ps)"
check "abs($d2 - $d0) > 1000 and $l2 == 1" "the tuning curve did not move the DAC word ($d2 vs $d0)"
u=$(python3 -c "print($d0 / 65535)")
check "abs(($d3 - $d0) - 400 * (1 - 4 * $u * (1 - $u))) <= 0.4 * 400 * (1 - 4 * $u * (1 - $u)) and $l3 == 1" \
  "the DAC bow did not move the word by its difference ($d3 vs $d0)"
check "$l4 == 1 and abs($t4 - $t0) >= 1" "50 us of settling did not change the lock ($t4 vs $t0 us)"
check "$l5 == 0" "400 us of settling locked: the documented limit moved, update docs/impairments.md"
check "$l6 == 1 and abs($m6 - $c6) <= 3 and abs($c6) > 5" "the calibration error is not half its draw ($m6 vs $c6 ps)"
echo "PASS"
