#!/usr/bin/env bash
# Issue 8 F: two real uploaders race on one co-simulated board, round after
# round, in both orders and with random head starts: exactly one wins, the
# other gets an error that says why (the lease, or the armed bank it would
# overwrite) and changes nothing; the board runs the winner's generation,
# and the serving simulation's probes pass over the whole run.
#   cli_race.sh COSIM LIGHTRAIL [ROUNDS]
set -euo pipefail
cosim=$1 cli=$2 rounds=${3:-16}
source "$(dirname "$0")/cli_lib.sh"

"$cosim" generate '{"steps": 40, "step_ps": 48000, "configs": 8, "seed": 21, "generation": 1}' -o "$work/a.json"
"$cosim" generate '{"steps": 24, "step_ps": 64000, "configs": 6, "seed": 22, "generation": 2}' -o "$work/b.json"
start_serve 1
board=$(dev 0)

# upload NAME DELAY_S: one uploader, its exit code in $work/NAME.rc
upload() {
  sleep "$2"
  set +e
  "$cli" upload --device "$board" "$work/$1.json" --commit-at now+2000000000 > "$work/$1.out" 2> "$work/$1.err"
  echo $? > "$work/$1.rc"
}

for round in $(seq 1 "$rounds"); do
  first=a second=b
  [ $((round % 2)) = 0 ] && first=b second=a
  head_start=$(printf '0.0%d' $((RANDOM % 6)))
  upload "$first" 0 &
  p1=$!
  upload "$second" "$head_start" &
  p2=$!
  wait "$p1" "$p2"
  rc_a=$(cat "$work/a.rc") rc_b=$(cat "$work/b.rc")
  if [ "$rc_a" = 0 ] && [ "$rc_b" != 0 ]; then
    winner=a loser=b gen=1
  elif [ "$rc_b" = 0 ] && [ "$rc_a" != 0 ]; then
    winner=b loser=a gen=2
  else
    fail "round $round: exit codes a=$rc_a b=$rc_b (exactly one must win): $(cat "$work/a.err" "$work/b.err")"
  fi
  rc_loser=$(cat "$work/$loser.rc")
  [ "$rc_loser" = 4 ] || fail "round $round: loser exited $rc_loser, not 4 (board busy): $(cat "$work/$loser.err")"
  grep -qE "another writer holds this board|waiting for its swap boundary|being verified" "$work/$loser.err" ||
    fail "round $round: the loser's error does not say why: $(cat "$work/$loser.err")"
  # The winner's commit takes effect; nothing of the loser's ever runs.
  for _ in $(seq 300); do
    status=$("$cli" status --device "$board" --json)
    [ "$(echo "$status" | field swaps)" = "$round" ] && break
    sleep 0.05
  done
  [ "$(echo "$status" | field swaps)" = "$round" ] || fail "round $round: no swap: $status"
  [ "$(echo "$status" | field generation)" = "$gen" ] ||
    fail "round $round: generation $(echo "$status" | field generation), the winner ($winner) staged $gen"
  echo "round $round: $winner won, $loser refused (exit $rc_loser)"
done

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
grep -q '"swap_errors": 0' "$work/report.json" || fail "swap errors in the report"
echo "$rounds rounds: one winner each, probes pass"
