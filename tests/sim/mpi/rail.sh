#!/usr/bin/env bash
# Issue 13 acceptance 4: one rail of the GPT plan (the 48 boards `lightrail
# plan --out` writes for rail 0), clock-synchronised, every board staged with
# its own schedule and committed for one board time, each phase boundary
# ended by one timed trigger on every board, on 2 ranks at cycle level
# (durations divided by 1000: scripts/rail_scenario.py says why); the run
# completes and every probe and expectation passes.
#   rail.sh MPIRUN COSIM LIGHTRAIL SOURCE_DIR
set -euo pipefail
mpirun=$1 cosim=$2 cli=$3 src=$4
here=$(dirname "$0")
source "$here/mpi_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" plan --as-declared "$src/experiments/gpt-2048.job.json" --fabric "$src/experiments/rails-2048.fabric.json" \
  --out "$work/plan" > /dev/null 2>&1
python3 "$src/scripts/rail_scenario.py" "$work/plan" --rail 0 --out "$work/rail" --lightrail "$cli"
"$mpirun" -np 2 "$cosim" run "$work/rail/rail0.json" --report "$work/report.json" > "$work/log" 2>&1 ||
  { echo "FAIL: exited $?"; grep -v '^  expected: board' "$work/log" | head -40; exit 1; }
head -2 "$work/log"
python3 - "$work/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["boards"]) == 48, len(r["boards"])
assert all(b["swaps"] and b["board_timed_boundaries"] >= 3 for b in r["boards"])
assert r["switch_events"] > 0 and r["missed_steps"] == 0 and r["unexpected_edges"] == 0
print(f"48 boards: {r['switch_events']} switch events, step-boundary skew p99 {r['sync']['slot_skew_ps_p99']} ps")
PY
echo PASS
