# Shared by the `lightrail fabric` co-simulation tests; source it after
# cli_lib.sh. A fabric file over the served boards, values from JSON
# documents, register addresses and parameters from defs/regmap.json (the one
# source of them), schedule variants, and cut_proxy.py in front of the board
# server to break one board's connection on purpose.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
regmap="$here/../../defs/regmap.json"
proxy_pids=()
fabric_cleanup() {
  for p in "${proxy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${proxy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  # The server is waited for too, so that nothing writes into $work as it goes.
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=
  fi
  cleanup
}
trap fabric_cleanup EXIT

# jv EXPR FILE: EXPR over the JSON document d of FILE (lists, objects and
# booleans printed as JSON: true, false, ["b0"]).
jv() {
  python3 -c 'import json,sys
d = json.load(open(sys.argv[2]))
v = eval(sys.argv[1])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)' "$1" "$2"
}

# param NAME: a parameter of the register map (TICK_PS, PORTS, ...).
param() { python3 -c 'import json,sys
print(next(p["value"] for p in json.load(open(sys.argv[1]))["parameters"] if p["name"] == sys.argv[2]))' "$regmap" "$1"; }
# reg NAME: a register's AXI address, hex.
reg() { python3 -c 'import json,sys
print(format(next(r["offset"] for r in json.load(open(sys.argv[1]))["registers"] if r["name"] == sys.argv[2]), "x"))' \
  "$regmap" "$1"; }
# banks: the address range of both schedule banks, LO:HI in hex.
banks() { python3 -c 'import json,sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["memories"]}
end = m["BANK1"]["offset"] + 4 * m["BANK1"]["words"]
print(format(m["BANK0"]["offset"], "x") + ":" + format(end, "x"))' "$regmap"; }

# write_fabric FILE MARGIN_US URI...: boards b0, b1, ... with four boards of
# PORTS ports to each 64-port AWGR rail (b0..b3 rail 0, b4..b7 rail 1),
# board 0 the sync master.
write_fabric() {
  python3 - "$regmap" "$@" <<'EOF'
import json, sys
regmap, path, margin, uris = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
ports = next(p["value"] for p in json.load(open(regmap))["parameters"] if p["name"] == "PORTS")
per_rail = 4
rails = [{"rail": r, "switch": "awgr", "radix": per_rail * ports} for r in range((len(uris) + per_rail - 1) // per_rail)]
boards = [{"name": f"b{k}", "uri": u, "rail": k // per_rail, "first_switch_port": (k % per_rail) * ports}
          for k, u in enumerate(uris)]
json.dump({"name": "cosim", "rails": rails, "boards": boards, "sync_master": "b0",
           "commit_margin_us": margin}, open(path, "w"), indent=1)
EOF
}

# with_generation SRC GEN DST: the schedule SRC with another generation.
with_generation() {
  python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); d["generation"] = int(sys.argv[2]); json.dump(d, open(sys.argv[3], "w"))' "$1" "$2" "$3"
}

# free_port: a loopback port nothing listens on (bound, then closed).
free_port() { python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# start_proxy NAME ARGS...: cut_proxy.py in front of the board server; its
# port in $work/NAME.port, its log in $work/NAME.log.
start_proxy() {
  local name=$1
  shift
  python3 "$here/cut_proxy.py" --upstream "$(cat "$work/port")" --port-file "$work/$name.port" "$@" \
    2> "$work/$name.log" &
  proxy_pids+=($!)
  for _ in $(seq 200); do [ -s "$work/$name.port" ] && break; sleep 0.05; done
  [ -s "$work/$name.port" ] || fail "proxy $name did not start: $(cat "$work/$name.log")"
}
# proxy_uri NAME BOARD: that board through the proxy.
proxy_uri() { echo "sim://127.0.0.1:$(cat "$work/$1.port")/$2"; }

# board_time URI: that board's time now, ps.
board_time() {
  "$cli" status --device "$1" --json > "$work/time.json"
  jv 'd["board_time_ps"]' "$work/time.json"
}
# wait_board_time URI PS: until that board's time has passed PS (one board
# is asked: a Device opened reads the tune table, which costs simulated time).
wait_board_time() {
  for _ in $(seq 1200); do
    "$cli" status --device "$1" --json > "$work/time.json" || true
    [ "$(jv "d.get('board_time_ps', 0) > $2" "$work/time.json")" = true ] && return 0
    sleep 0.05
  done
  fail "board time never passed $2 ps: $(cat "$work/time.json")"
}

# stop_serve: ends the simulation; its verdict must pass and the report exist.
stop_serve() {
  "$cosim" stop --port "$(cat "$work/port")"
  wait "$serve_pid" || fail "the simulation's checks failed"
  serve_pid=
  [ -s "$work/report.json" ] || fail "no report"
}
