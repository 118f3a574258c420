#!/usr/bin/env bash
# Real training drives the fabric: a co-simulated board serves on loopback,
# lightraild runs it, and a small model trains with DistributedDataParallel
# (gloo) on 4 CPU processes through lightrail.torch (docs/torch.md), which
# observes every collective, submits the job the first iterations show, and
# holds each phase's collectives until the board has passed the boundary
# the daemon answered. Prints the detected pattern, the plan, every
# boundary predicted and measured, the simulation's probes, and draws the
# training curve (out/train/train-curve.png).
#   scripts/train_demo.sh [ITERATIONS]     (SKIP_SETUP=1: build/ is ready)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_SETUP:-}" = 1 ] || bash scripts/setup.sh
cosim=build/sim/lightrail-cosim daemon=build/host/daemon/lightraild
# Debian's python3-torch and the binding belong to /usr/bin/python3, not to
# another python3 earlier on PATH (docs/toolchain.md).
python=/usr/bin/python3
[ -x $python ] || python=python3
iterations=${1:-40}
out=out/train
rm -rf "$out"
mkdir -p "$out"
"$cosim" serve --boards 1 --port 0 --port-file "$out/serve.port" --report "$out/report.json" \
  > "$out/serve.log" 2>&1 &
serve=$!
daemon_pid=
trap 'kill $serve $daemon_pid 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s "$out/serve.port" ] && break; sleep 0.05; done
port=$(cat "$out/serve.port")

# One 16-port AWGR board: a 4-rank job takes 4 of its ports. One board has
# no clock to lock to, hence --allow-unlocked below.
cat > "$out/fabric.json" <<EOF
{"name": "train", "rails": [{"rail": 0, "switch": "awgr", "radix": 16}],
 "boards": [{"name": "b0", "uri": "sim://127.0.0.1:$port/0", "rail": 0, "first_switch_port": 0}],
 "commit_margin_us": 1000, "trigger_margin_us": 100}
EOF
(umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$out/token")
"$daemon" --fabric "$out/fabric.json" --model examples/daemon/model.json --token-file "$out/token" \
  --state-dir "$out/state" --port 0 --port-file "$out/daemon.port" --allow-unlocked > "$out/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 200); do [ -s "$out/daemon.port" ] && break; sleep 0.05; done
url=http://127.0.0.1:$(cat "$out/daemon.port")
echo "== lightraild at $url on a co-simulated board; DDP on 4 processes through lightrail.torch"
verdict=0
PYTHONPATH=build/python $python examples/training_loop.py --ddp 4 --iterations "$iterations" \
  --daemon "$url" --token-file "$out/token" --out "$out" || verdict=1
kill -TERM $daemon_pid && wait $daemon_pid || true
daemon_pid=
"$cosim" stop --port "$port"
wait $serve || verdict=1
trap - EXIT
echo "== the simulation's probes (full report: $out/report.json)"
cat "$out/serve.log"
exit $verdict
