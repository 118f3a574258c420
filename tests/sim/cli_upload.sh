#!/usr/bin/env bash
# Acceptance 1 (and 3 through the CLI): a 1000-step schedule uploaded with the
# `lightrail` CLI to `lightrail-cosim serve`; the serving simulation's probes
# judge every edge. Then a bad schedule is refused naming its entries and the
# board is left as it was.
#   cli_upload.sh COSIM LIGHTRAIL SOURCE_DIR
set -euo pipefail
cosim=$1 cli=$2 src=$3
source "$(dirname "$0")/cli_lib.sh"

"$cosim" generate '{"steps": 1000, "step_ps": 20000, "configs": 16, "cyclic": false, "seed": 3, "generation": 5}' \
  -o "$work/long.json"
start_serve 1
board=$(dev 0)

"$cli" validate "$work/long.json"
"$cli" upload --device "$board" "$work/long.json" --commit-at now+1000000000
for _ in $(seq 600); do
  status=$("$cli" status --device "$board" --json)
  [ "$(echo "$status" | field steps)" = 1000 ] && [ "$(echo "$status" | field running)" = false ] && break
  sleep 0.1
done
[ "$(echo "$status" | field steps)" = 1000 ] || fail "steps never reached 1000: $status"

# A bad schedule: exit code 1, every offending entry named, nothing changed.
set +e
"$cli" upload --device "$board" "$src/examples/schedules/invalid.json" 2> "$work/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "invalid upload exited $rc, not 1"
for entry in 'configs\[3\].ports\[4\]' 'steps\[3\].config' 'steps\[4\].duration_ps' 'steps\[2\].duration_ps'; do
  grep -q "$entry" "$work/err" || fail "error does not name $entry: $(cat "$work/err")"
done
after=$("$cli" status --device "$board" --json)
[ "$(echo "$after" | field generation)" = 5 ] || fail "generation changed: $after"
[ "$(echo "$after" | field swaps)" = 1 ] || fail "swaps changed: $after"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
cat "$work/serve.log"
events=$(field switch_events < "$work/report.json")
[ "$events" -ge 1000 ] || fail "only $events switch events"
echo "PASS: $events switch events checked"
