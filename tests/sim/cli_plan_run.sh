#!/usr/bin/env bash
# Control plane to firmware: `lightrail plan --out` turns a job (a
# data-parallel CNN, phases separated by compute gaps) into board schedules;
# the CLI uploads them to a co-simulated board, a trigger ends the event step
# that waits for the first phase boundary, the steps run, and the serving
# simulation's probes judge every switch edge.
#   cli_plan_run.sh COSIM LIGHTRAIL SOURCE_DIR
set -euo pipefail
cosim=$1 cli=$2 src=$3
source "$(dirname "$0")/cli_lib.sh"

"$cli" plan --as-declared "$src/experiments/cnn-16.job.json" --fabric "$src/experiments/pas-64.fabric.json" --out "$work/plan"
files=("$work"/plan/*.json)
boards=${#files[@]}
[ -e "${files[0]}" ] || fail "the plan wrote no schedule"

start_serve "$boards"

for ((b = 0; b < boards; b++)); do
  "$cli" upload --device "$(dev $b)" "${files[$b]}" --commit-at now+1000000000
done
# Step 0 waits for the phase boundary (an event step): wait for the board to
# reach it, then signal it, as the job's runtime would.
for ((b = 0; b < boards; b++)); do
  for _ in $(seq 300); do
    [ "$("$cli" status --device "$(dev $b)" --json | field waiting_trigger)" = true ] && break
    sleep 0.05
  done
  "$cli" trigger --device "$(dev $b)"
done
# Past the first reconfigurations (steps 1..3: 4.1, 2.1, 1.1 ms).
for ((b = 0; b < boards; b++)); do
  for _ in $(seq 600); do
    steps=$("$cli" status --device "$(dev $b)" --json | field steps)
    [ "${steps:-0}" -ge 5 ] && break
    sleep 0.1
  done
  [ "${steps:-0}" -ge 5 ] || fail "board $b ran only ${steps:-0} steps"
done

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
cat "$work/serve.log"
events=$(field switch_events < "$work/report.json")
[ "$events" -ge 16 ] || fail "only $events switch events"
echo "PASS: the planned schedule ran, $events switch events checked"
