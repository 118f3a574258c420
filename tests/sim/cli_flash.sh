#!/usr/bin/env bash
# Issue 11: `lightrail flash` and `boards` against `lightrail-cosim serve`.
# flash takes the co-simulated board's image descriptor (written by the
# build) and checks it against what the board reports; nothing is
# programmed on sim://. A descriptor whose uuid, build ID or register-map
# version differs is refused with exit 1 naming the field; a running
# schedule runs on through a flash's self-test; `status` prints the build ID;
# `boards --sim` lists the server's boards with their image.
#   cli_flash.sh COSIM LIGHTRAIL IMAGE_DESCRIPTOR
set -euo pipefail
cosim=$1 cli=$2 image=$3
source "$(dirname "$0")/cli_lib.sh"
sfield() { grep -o "\"$1\": *\"[^\"]*\"" | head -1 | sed 's/.*: *"//; s/"$//'; }

[ -s "$image" ] || fail "no image descriptor at $image"
hash=$(sfield source_hash < "$image")
uuid=$(sfield uuid < "$image")
[ ${#hash} = 16 ] || fail "descriptor has no 16-digit source_hash: $(cat "$image")"

"$cosim" generate '{"steps": 40, "step_ps": 48000, "configs": 8, "seed": 41, "generation": 7}' -o "$work/a.json"
start_serve 2
board=$(dev 0)

# The matching descriptor: accepted, honest about what it did, and the
# board's build ID is the descriptor's.
out=$("$cli" flash --device "$board" "$image") || fail "flash of the matching image failed: $out"
echo "$out"
grep -q "nothing programmed" <<< "$out" || fail "flash on sim:// does not say nothing was programmed: $out"
grep -q "self-test  passed" <<< "$out" || fail "no self-test verdict: $out"
js=$("$cli" flash --device "$board" "$image" --json) || fail "flash --json failed"
[ "$(field programmed <<< "$js")" = false ] || fail "flash --json claims it programmed a sim board: $js"
[ "$(sfield source_hash <<< "$js")" = "$hash" ] || fail "board's source hash is not the descriptor's: $js"

# status prints the build ID, text and JSON.
st=$("$cli" status --device "$board")
grep -q "source $hash" <<< "$st" || fail "status does not print the build's source hash $hash: $st"
[ "$(sfield source_hash <<< "$("$cli" status --device "$board" --json)")" = "$hash" ] ||
  fail "status --json has no build.source_hash $hash"

# Each field that differs: exit 1, the field named, nothing done.
refused() {  # NAME FIELD SED-EXPRESSION
  sed "$3" "$image" > "$work/$1.json"
  cmp -s "$image" "$work/$1.json" && fail "$1: the edit changed nothing"
  set +e
  "$cli" flash --device "$board" "$work/$1.json" > "$work/out" 2> "$work/err"
  local rc=$?
  set -e
  [ "$rc" = 1 ] || fail "$1: flash exited $rc, not 1: $(cat "$work/err")"
  grep -q ": $2: " "$work/err" || fail "$1: the error does not name $2: $(cat "$work/err")"
}
refused wrong_hash build.source_hash "s/\"source_hash\": *\"$hash\"/\"source_hash\": \"${hash:0:15}$(printf '%x' $(( (0x${hash:15:1} + 1) % 16 )))\"/"
refused wrong_uuid uuid "s/\"uuid\": *\"$uuid\"/\"uuid\": \"00000000-0000-5000-8000-000000000000\"/"
time=$(grep -o '"build_time": *[0-9]*' "$image" | sed 's/.*: *//')
refused wrong_time build.build_time "s/\"build_time\": *$time/\"build_time\": $((time + 1))/"
refused wrong_map build.regmap_version 's/"regmap_version": *\([0-9]*\)/"regmap_version": 9\1/'
refused hardware_image target 's/"target": *"cosim"/"target": "zcu102"/'
refused no_uuid uuid '/"uuid"/d'

# A running schedule runs on through the self-test.
"$cli" upload --device "$(dev 1)" "$work/a.json" --commit-at epoch > /dev/null
for _ in $(seq 300); do
  [ "$("$cli" status --device "$(dev 1)" --json | field running)" = true ] && break
  sleep 0.05
done
before=$("$cli" status --device "$(dev 1)" --json)
[ "$(field running <<< "$before")" = true ] || fail "the schedule does not run: $before"
"$cli" flash --device "$(dev 1)" "$image" > /dev/null || fail "flash of a running board failed"
after=$("$cli" status --device "$(dev 1)" --json)
[ "$(field running <<< "$after")" = true ] || fail "the schedule stopped after flash: $after"
[ "$(field generation <<< "$after")" = 7 ] || fail "another generation runs after flash: $after"
[ "$(field swaps <<< "$after")" = "$(field swaps <<< "$before")" ] || fail "flash swapped banks: $after"
errs=$(grep -o '"errors": *\[[^]]*\]' <<< "$after" | head -1)
[ "$errs" = '"errors": []' ] || fail "flash left error flags: $after"

# boards --sim: both boards, with the image the server runs.
bs=$("$cli" boards --sim "127.0.0.1:$(cat "$work/port")" --json) || fail "boards failed: $bs"
[ "$(grep -c "\"uri\": \"sim://127.0.0.1:$(cat "$work/port")/" <<< "$bs")" = 2 ] || fail "boards does not list 2 boards: $bs"
[ "$(grep -c "\"uuid\": \"$uuid\"" <<< "$bs")" = 3 ] || fail "boards does not show the image uuid: $bs"
"$cli" boards --sim "127.0.0.1:$(cat "$work/port")"
set +e
"$cli" boards --sim "127.0.0.1:1" > /dev/null 2>&1
rc=$?
set -e
[ "$rc" = 3 ] || fail "boards with an unreachable server exited $rc, not 3"

"$cosim" stop --port "$(cat "$work/port")" > /dev/null
wait "$serve_pid" || fail "the served boards failed their own checks: $(cat "$work/serve.log")"
serve_pid=
echo "PASS"
