#!/usr/bin/env bash
# The main job: four co-simulated boards serve on loopback, their clocks
# synchronised to board 0 (a star of fibres; DDMTD, servo, oscillator control
# all in the loop). lightraild, the strategy daemon, runs the fabric: a
# training job (examples/training_loop.py, the stand-in for a training
# framework) is submitted, planned by the control plane onto the boards'
# switch ports and committed on all four at one board time; its phase
# boundaries are reported to the daemon, which gives every board one timed
# trigger for each. At the end the simulation's probes judge every switch
# edge and packet, and for every boundary the planner's prediction is shown
# against the switch edges the co-simulation measured (out/demo-report.json),
# and every picture of the run and of the experiments goes to out/plots/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cosim=build/sim/lightrail-cosim cli=build/host/lightrail daemon=build/host/daemon/lightraild
job=${1:-examples/daemon/dp64.job.json}
boards=4
mkdir -p out
rm -rf out/demo.port out/demo-daemon.port out/demo-state out/demo-phases.jsonl out/demo-token
"$cosim" serve --boards $boards --sync star --port 0 --port-file out/demo.port --report out/demo-report.json \
  > out/demo-serve.log 2>&1 &
serve=$!
daemon_pid=
trap 'kill $serve $daemon_pid 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s out/demo.port ] && break; sleep 0.05; done
port=$(cat out/demo.port)

# The fabric: one AWGR rail of 64 ports, board b feeding ports 16b..16b+15.
python3 - "$port" $boards > out/demo-fabric.json <<'PY'
import json, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
print(json.dumps({"name": "demo", "rails": [{"rail": 0, "switch": "awgr", "radix": 64}],
                  "boards": [{"name": "b%d" % b, "uri": "sim://127.0.0.1:%d/%d" % (port, b), "rail": 0,
                              "first_switch_port": 16 * b} for b in range(n)],
                  "sync_master": "b0", "commit_margin_us": 1000, "trigger_margin_us": 100}, indent=1))
PY
(umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > out/demo-token)
echo "== $boards simulated boards at sim://127.0.0.1:$port/0..$((boards - 1)); waiting for every clock to lock to b0"
for _ in $(seq 600); do
  # Read whole, then matched: grep -q stopping early would fail the CLI's
  # write (SIGPIPE), and with pipefail the loop would never see the lock.
  grep -q '"all_locked": *true' <<< "$("$cli" fabric status out/demo-fabric.json --json)" && break
  sleep 0.1
done
"$cli" fabric status out/demo-fabric.json

"$daemon" --fabric out/demo-fabric.json --model examples/daemon/model.json --token-file out/demo-token \
  --state-dir out/demo-state --port 0 --port-file out/demo-daemon.port > out/demo-daemon.log 2>&1 &
daemon_pid=$!
for _ in $(seq 200); do [ -s out/demo-daemon.port ] && break; sleep 0.05; done
export LIGHTRAILD_URL=http://127.0.0.1:$(cat out/demo-daemon.port) LIGHTRAILD_TOKEN_FILE=out/demo-token
echo "== lightraild at $LIGHTRAILD_URL; a training loop submits $job and reports its phases"
python3 examples/training_loop.py "$job" --iterations 4 --keep --answers out/demo-phases.jsonl \
  --job-out out/demo-job.json
"$cli" job list
kill -TERM $daemon_pid && wait $daemon_pid || true
daemon_pid=
"$cosim" stop --port "$port"
wait $serve && verdict=0 || verdict=$?
trap - EXIT
echo "== probes and clock truth (full report: out/demo-report.json)"
cat out/demo-serve.log
echo "== every phase boundary: the planner against the switch edges"
python3 scripts/demo_report.py out/demo-phases.jsonl out/demo-job.json out/demo-report.json \
  --json out/demo-boundaries.json || verdict=1
# The pictures (docs/plots.md): the run's from its report and the boundary
# table, the experiments' as their papers draw them.
echo "== pictures in out/plots/"
rm -rf out/plots
if ! (
  build/sim/lightrail-plot cosim out/demo-report.json --boundaries out/demo-boundaries.json --out out/plots || exit 1
  for e in opus pas fastconv power_cost; do
    "$cli" eval experiments/$e.json --plot out/plots > /dev/null || exit 1
  done
) 2> out/plots.log; then
  cat out/plots.log
  verdict=1
fi
ls out/plots/*.png
exit $verdict
