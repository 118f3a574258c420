#!/usr/bin/env python3
"""Writes a co-simulation scenario of one rail of a plan: every board
`lightrail plan --out DIR` wrote for that rail (ingress, middle and egress
switches, in that order), clock-synchronised from the rail's first board,
each staged with its own schedule and committed for one common board time,
and every event step (the phase boundaries) ended by one timed trigger on
every board at once (docs/cosim.md, "A rail of the plan").

The plan's steps last milliseconds to a fifth of a second; at cycle level a
48-board rail runs about 10^6 board cycles per core-second, so an iteration
of seconds is out of reach. --scale divides every duration and the guard
(rounded to the board's tick, TICK_PS): the configurations, their order, the event
steps and the dark guards stay the plan's. With --scale 1 the schedules are
the plan's own.

    rail_scenario.py PLAN_DIR --rail 0 --scale 1000 --out DIR
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The board's time unit, from the register map (durations are whole ticks).
with open(os.path.join(HERE, "..", "defs", "regmap.json")) as f:
    TICK_PS = next(p["value"] for p in json.load(f)["parameters"] if p["name"] == "TICK_PS")


def scaled(ps, scale):
    return max(TICK_PS, round(ps / scale / TICK_PS) * TICK_PS)


def scaled_step(ps, guard, guard_scaled, scale):
    """A step is the guard (when it reconfigures) plus its own time; a
    remainder under 1 us is the device's (laser tuning, the planner's
    margin), not the plan's, and stays as it is."""
    extra = ps - guard
    if guard == 0 or extra < 0:
        return scaled(ps, scale)
    if extra < 1_000_000:
        return guard_scaled + -(-extra // TICK_PS) * TICK_PS
    return guard_scaled + scaled(extra, scale)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("plan_dir", help="what `lightrail plan --out` wrote")
    ap.add_argument("--rail", type=int, default=0)
    ap.add_argument("--scale", type=int, default=1000, help="divide every duration by this (1: none)")
    ap.add_argument("--out", required=True, help="directory for the scenario and its schedules")
    ap.add_argument("--lightrail", default=os.path.join(HERE, "..", "build", "host", "lightrail"),
                    help="the CLI that validates each scaled schedule")
    a = ap.parse_args()
    if a.scale < 1:
        sys.exit("--scale: must be 1 or more")
    if not os.access(a.lightrail, os.X_OK):
        sys.exit(f"--lightrail {a.lightrail}: no such program; give the `lightrail` CLI of your build "
                 "(it validates each scaled schedule)")
    roles = {"ingress": 0, "middle": 1, "egress": 2}
    files = []
    for path in glob.glob(os.path.join(a.plan_dir, f"rail{a.rail}-*-*.json")):
        m = re.fullmatch(rf"rail{a.rail}-(\w+)-(\d+)\.json", os.path.basename(path))
        if not m or m.group(1) not in roles:
            sys.exit(f"{path}: not a board schedule `lightrail plan --out` writes")
        files.append((roles[m.group(1)], int(m.group(2)), m.group(1), path))
    if not files:
        sys.exit(f"{a.plan_dir}: no schedules of rail {a.rail} (rail{a.rail}-<role>-<index>.json)")
    files.sort()
    os.makedirs(a.out, exist_ok=True)
    schedules, events = {}, None
    longest = 0
    for _, index, role, path in files:
        with open(path) as f:
            s = json.load(f)
        guard = s.get("guard_ps", 0)
        s["guard_ps"] = scaled(guard, a.scale) if guard else 0
        for st in s["steps"]:
            st["duration_ps"] = scaled_step(st["duration_ps"], guard, s["guard_ps"], a.scale)
        name = f"{role}-{index}"
        out = os.path.join(a.out, f"rail{a.rail}-{name}.json")
        with open(out, "w") as f:
            json.dump(s, f, indent=1)
        # What the boards would refuse is refused here, naming the entry.
        v = subprocess.run([a.lightrail, "validate", out], capture_output=True, text=True)
        if v.returncode != 0:
            sys.exit(f"{out} (from {path} scaled by {a.scale}):\n{v.stdout}{v.stderr}")
        schedules[name] = f"rail{a.rail}-{name}.json"
        ev = [i for i, st in enumerate(s["steps"]) if st.get("event")]
        if events is None:
            events, steps = ev, s["steps"]
        elif ev != events:
            sys.exit(f"{path}: its event steps {ev} differ from the rail's first board's {events}")
        longest = max(longest, sum(st["duration_ps"] for st in s["steps"]))
    boards = len(files)
    # The host opens every board first (about 68 us of bus time each: the
    # capability block and the tune table), while the servos lock (a tree
    # from board 0, its second tier within about 2.7 ms); then stages each board (about 15
    # us each) and commits all for one board time after that.
    stage_at = max(1_600_000_000, boards * 70_000_000 + 100_000_000)
    commit = stage_at + boards * 20_000_000 + 100_000_000
    # An event step waits for its trigger once its minimum has passed; each
    # trigger is written then, on every board, for one board time the host
    # reaches on the last board well before (about 3 us of bus time per
    # board). Actions run at simulated time, steps at board time, which
    # trails it by up to the boot skew (40 us: docs/cosim.md); acting
    # `margin` after the step's end in board time covers that.
    per_board = 4_000_000
    margin = 50_000_000
    actions = []
    # One board after the other: a host action starts at its time or fails
    # as past, and one upload takes about 11 us of bus time.
    for k, (_, index, role, _) in enumerate(files):
        actions.append({"at_ps": stage_at + k * 20_000_000, "board": k, "do": "upload", "schedule": f"{role}-{index}",
                        "commit": {"at_ps": commit}})
    step_end = commit
    for i, st in enumerate(steps):
        if st.get("event"):
            act = step_end + st["duration_ps"] + margin
            actions.append({"at_ps": act, "board": "all", "do": "trigger", "at": {"in_ps": boards * per_board}})
            step_end = act + boards * per_board  # at the latest, in board time
        else:
            step_end += st["duration_ps"]
    # To the end of the iteration and into the next one's first event step.
    duration = step_end + 20_000_000
    doc = {
        "lightrail_scenario": 1,
        "comment": f"Rail {a.rail} of the plan in {a.plan_dir}: {boards} boards, durations divided by "
                   f"{a.scale}; written by scripts/rail_scenario.py.",
        "boards": boards,
        "duration_ps": duration,
        # A rail's boards as deployed: a tree of boundary clocks from board 0,
        # each serving as many as its timing ports take, every link on the
        # boards' own ports (docs/cosim.md, "The timing link").
        "sync": {"topology": "tree", "baseline": False, "measure_from_ps": commit},
        "schedules": schedules,
        "actions": actions,
        "expect": {"lock_time_us_max": commit / 1e6, "swaps": 1, "slot_skew_p99_ps_max": 150,
                   "min_board_timed_boundaries": len(events)},
    }
    out = os.path.join(a.out, f"rail{a.rail}.json")
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"wrote {out}: {boards} boards, {len(steps)} steps each ({len(events)} event steps), "
          f"{duration / 1e6:.0f} us simulated")


if __name__ == "__main__":
    main()
