#!/usr/bin/env bash
# The main job: a co-simulated board serves on loopback, the `lightrail` CLI
# validates and uploads an example schedule to it, the schedule runs, and the
# simulation's probes report on every switch edge (out/demo-report.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cosim=build/sim/lightrail-cosim cli=build/host/lightrail
schedule=${1:-examples/schedules/awgr_doubling.json}
mkdir -p out
rm -f out/demo.port
"$cosim" serve --boards 1 --port 0 --port-file out/demo.port --report out/demo-report.json > out/demo-serve.log 2>&1 &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s out/demo.port ] && break; sleep 0.05; done
dev="sim://127.0.0.1:$(cat out/demo.port)/0"
echo "== simulated board at $dev"
"$cli" validate "$schedule" --device "$dev"
"$cli" upload --device "$dev" "$schedule" --commit-at now+1000000000
# Let it run for a few epochs of simulated time.
for _ in $(seq 300); do
  epochs=$("$cli" status --device "$dev" --json | grep -o '"epochs": *[0-9]*' | grep -o '[0-9]*$')
  [ "${epochs:-0}" -ge 3 ] && break
  sleep 0.1
done
"$cli" status --device "$dev"
build/sim/lightrail-cosim stop --port "$(cat out/demo.port)"
wait $serve && verdict=0 || verdict=$?
trap - EXIT
echo "== probes (full report: out/demo-report.json)"
cat out/demo-serve.log
exit $verdict
