#!/usr/bin/env bash
# A host program killed halfway (SIGKILL while it holds the board's lease,
# part of a bank written): the running schedule runs on; the next uploader
# is refused with exit 4 naming the stale lease; `lightrail lease break`
# frees the board deliberately; an upload then commits for a later time and
# `lightrail cancel` drops it in time; the probes pass over the whole run.
#   cli_lease.sh COSIM LIGHTRAIL
set -euo pipefail
cosim=$1 cli=$2
source "$(dirname "$0")/cli_lib.sh"

"$cosim" generate '{"steps": 40, "step_ps": 48000, "configs": 8, "seed": 31, "generation": 1}' -o "$work/a.json"
"$cosim" generate '{"steps": 4096, "step_ps": 16000, "configs": 200, "seed": 32, "generation": 2}' -o "$work/big.json"
"$cosim" generate '{"steps": 24, "step_ps": 64000, "configs": 6, "seed": 33, "generation": 3}' -o "$work/c.json"
start_serve 1
board=$(dev 0)
"$cli" upload --device "$board" "$work/a.json" --commit-at now+1000000000 > /dev/null
for _ in $(seq 300); do
  [ "$("$cli" status --device "$board" --json | field generation)" = 1 ] && break
  sleep 0.05
done

# Catch a 4096-step uploader while it holds the lease, freeze it, kill it.
caught=
for attempt in 1 2 3 4 5; do
  "$cli" upload --device "$board" "$work/big.json" --commit-at none > /dev/null 2>&1 &
  up=$!
  for _ in $(seq 100); do
    if grep -q '"held": true' <<< "$("$cli" lease status --device "$board" --json)"; then
      kill -STOP "$up" 2>/dev/null && caught=yes
      break
    fi
    kill -0 "$up" 2>/dev/null || break
  done
  kill -9 "$up" 2>/dev/null || true
  wait "$up" 2>/dev/null || true
  [ -n "$caught" ] && grep -q '"held": true' <<< "$("$cli" lease status --device "$board" --json)" && break
  caught=
done
[ -n "$caught" ] || fail "never caught the uploader holding the lease"

set +e
"$cli" upload --device "$board" "$work/c.json" --commit-at now+1000000000 2> "$work/err"
rc=$?
set -e
[ "$rc" = 4 ] || fail "upload against a stale lease exited $rc, not 4: $(cat "$work/err")"
grep -q "another writer holds this board (lease token 0x" "$work/err" || fail "no lease named: $(cat "$work/err")"
[ "$("$cli" status --device "$board" --json | field generation)" = 1 ] || fail "the running schedule changed"

grep -q "broken; the board is free" <<< "$("$cli" lease break --device "$board")" || fail "lease break"
"$cli" upload --device "$board" "$work/c.json" --commit-at now+3000000000 > /dev/null
[ "$("$cli" status --device "$board" --json | field commit_pending)" = true ] || fail "commit not pending"
"$cli" cancel --device "$board" --json > "$work/cancel.json"
grep -q '"outcome": "cancelled"' "$work/cancel.json" || fail "cancel: $(cat "$work/cancel.json")"
grep -q '"outcome": "nothing_pending"' <<< "$("$cli" cancel --device "$board" --json)" || fail "second cancel"
st=$("$cli" status --device "$board" --json)
[ "$(echo "$st" | field generation)" = 1 ] && [ "$(echo "$st" | field swaps)" = 1 ] ||
  fail "after the cancel the board does not run generation 1 alone: $st"
[ "$(echo "$st" | field cancelled)" = true ] || fail "STATUS.CANCELLED not set: $st"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
echo "killed holder refused, lease broken, commit cancelled; probes pass"
