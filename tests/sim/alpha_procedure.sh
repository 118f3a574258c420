#!/usr/bin/env bash
# Issue 26 item 8: the alpha measurement of docs/lab.md section 5, run on the
# co-simulation. A follower with SYNC_CAL_ASYM_PS = 0 on a 1 km and on a
# 10 km fibre of the reference profile (alpha 2.6e-4): its PPS skew (the
# truth at the PPS edges, as a scope sees it) and the round trip its servo
# reports go into `lightrail sync alpha`, which must find the profile's
# alpha within its stated error, and the asymmetry it gives a 10 km link
# (what `sync calibrate --alpha` writes) within the profile's calibration
# error (calibration.asymmetry_error_ps, 10 ps rms).
#   alpha_procedure.sh COSIM LIGHTRAIL DIR
set -euo pipefail
cosim=$1 cli=$2 dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
point() {  # SKEW,RTT of a report: skew = follower late = -offset
  python3 -c "
import json, sys
b = json.load(open('$1'))['sync']['boards'][0]
print('{},{}'.format(-b['offset_ps']['mean'], b['rtt_ps']))"
}
for l in 1000 10000; do
  "$cosim" run "$dir/alpha_${l}m.json" --report "$work/$l.json" > "$work/$l.log" || fail "run at $l m: $(tail -3 "$work/$l.log")"
done
out=$("$cli" sync alpha --short "$(point "$work/1000.json")" --long "$(point "$work/10000.json")" --json)
echo "$out"
truth=$(python3 -c "import json; print(json.load(open('$work/10000.json'))['sync']['fibre_asymmetry_ps'])")
rtt=$(python3 -c "import json; print(json.load(open('$work/10000.json'))['sync']['boards'][0]['rtt_ps'])")
python3 - "$out" "$truth" "$rtt" <<'PY' || fail "alpha procedure off"
import json, sys
r = json.loads(sys.argv[1]); truth = float(sys.argv[2]); rtt = float(sys.argv[3])
alpha, err = r["alpha"], r["alpha_error"]
print(f"alpha {alpha:.5e} +- {err:.1e}, profile 2.6e-4")
assert abs(alpha - 2.6e-4) <= 3 * err, "alpha not within 3 sigma of the profile's"
asym = alpha / (2 + alpha) * rtt
print(f"10 km asymmetry {asym:.1f} ps, true {truth:.1f} ps")
assert abs(asym - truth) <= 10, "10 km asymmetry off by more than the profile's calibration error"
assert r["asymmetry_error_ps_at_10km"] <= 10, "the procedure's stated error exceeds the profile's"
PY
echo PASS
