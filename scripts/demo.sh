#!/usr/bin/env bash
# The main job: four co-simulated boards serve on loopback, their clocks
# synchronised to board 0 (a star of fibres; DDMTD, servo, oscillator control
# all in the loop). The `lightrail` CLI waits for every board to lock,
# validates an example schedule and commits it on all four for one common
# board time; the schedule runs, and the simulation's probes report on every
# switch edge and on how far apart the boards' clocks and step boundaries are
# (out/demo-report.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cosim=build/sim/lightrail-cosim cli=build/host/lightrail
schedule=${1:-examples/schedules/awgr_doubling.json}
boards=4
mkdir -p out
rm -f out/demo.port
"$cosim" serve --boards $boards --sync star --port 0 --port-file out/demo.port --report out/demo-report.json \
  > out/demo-serve.log 2>&1 &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s out/demo.port ] && break; sleep 0.05; done
dev() { echo "sim://127.0.0.1:$(cat out/demo.port)/$1"; }
json_number() { grep -o "\"$1\": *[0-9]*" | grep -o '[0-9]*$'; }
echo "== $boards simulated boards at $(dev 0) .. $(dev $((boards - 1)))"

echo "== waiting for every follower's clock to lock to board 0"
for b in $(seq 1 $((boards - 1))); do
  for _ in $(seq 600); do
    "$cli" sync status --device "$(dev $b)" --json | grep -q '"locked": *true' && break
    sleep 0.1
  done
done
"$cli" sync status --device "$(dev $((boards - 1)))"

"$cli" validate "$schedule" --device "$(dev 0)"
# One commit time for all: 3 ms of board time ahead leaves room for four
# uploads (each takes about 0.2 ms of simulated bus time).
at=$(( $("$cli" status --device "$(dev 0)" --json | json_number board_time_ps) + 3000000000 ))
for b in $(seq 0 $((boards - 1))); do
  "$cli" upload --device "$(dev $b)" "$schedule" --commit-at "$at"
done
# Let it run for a few epochs of simulated time on every board.
for b in $(seq 0 $((boards - 1))); do
  for _ in $(seq 300); do
    [ "$("$cli" status --device "$(dev $b)" --json | json_number epochs)" -ge 3 ] && break
    sleep 0.1
  done
done
"$cli" status --device "$(dev 0)"
"$cosim" stop --port "$(cat out/demo.port)"
wait $serve && verdict=0 || verdict=$?
trap - EXIT
echo "== probes and clock truth (full report: out/demo-report.json)"
cat out/demo-serve.log
exit $verdict
