#!/usr/bin/env python3
"""A rail wider than one switch: lightraild commits a 128-GPU job on a Clos
rail of 32 co-simulated boards (8 ingress, 16 middle, 8 egress; each board
a 16-port stage switch) as one fabric commit, then takes phase events. Every
board must take every boundary the daemon answers, reach each phase's event
step at the same board time as every other board (so no board's schedule
runs a cycle ahead or behind), and pass the probes.

  wide_rail.py COSIM LIGHTRAILD SOURCE_DIR [EVENTS]
"""
import json
import sys

from daemon_lib import Harness, boundaries_taken, fail, finish_checked

cosim, daemon, src = sys.argv[1:4]
events = int(sys.argv[4]) if len(sys.argv) > 4 else 20
PORTS = 16
RADIX = 128


def clos_fabric(h):
    """The harness's boards, re-described as the stages of one Clos rail."""
    stages = [("ingress", RADIX // PORTS), ("middle", PORTS), ("egress", RADIX // PORTS)]
    boards, n = [], 0
    for stage, count in stages:
        for k in range(count):
            boards.append({"name": "%s%d" % (stage[0], k), "uri": h.fabric["boards"][n]["uri"], "rail": 0,
                           "stage": stage, "stage_index": k})
            n += 1
    fabric = dict(h.fabric, name="clos-128", rails=[{"rail": 0, "switch": "clos", "radix": RADIX}], boards=boards)
    with open(h.path("fabric.json"), "w") as f:
        json.dump(fabric, f)
    return [b["name"] for b in boards]


# Ideal board clocks (no sync): 32 servo loops would cost the run more than
# the rest; the boards' step programs are what this test checks.
with Harness(cosim, daemon, src, boards=32, sync=False) as h:
    names = clos_fabric(h)
    c = h.start_daemon()
    job = c.submit(h.job_file("dp128.job.json"))
    if job["state"] != "running" or sorted(job["boards"]) != sorted(names):
        fail("the job is not running on all 32 boards: %s" % job)
    fabric = c.fabric()
    gens = {b["generation"] for b in fabric["boards"]}
    if len(gens) != 1 or not all(b["running"] for b in fabric["boards"]):
        fail("the boards do not all run one generation: %s" % fabric["boards"])
    phases = [p["name"] for p in h.job_file("dp128.job.json")["phases"]]
    answers = []
    for i in range(events):
        r = c.phase(job["id"], phases[i % len(phases)])
        if r.get("boundary_ps") is None or sorted(r["boards"]) != sorted(names):
            fail("event %d: not a boundary on all 32 boards: %s" % (i, r))
        answers.append(r)
    boundaries = [r["boundary_ps"] for r in answers]
    if sorted(set(boundaries)) != boundaries:
        fail("boundaries do not advance: %s" % boundaries[:20])

    def every_board_in_step(report):
        problems = boundaries_taken(report, boundaries, events)
        starts = {b["board"]: [e["board_ps"] for e in b["watched_boundaries"] if e["kind"] == "event_start"]
                  for b in report["boards"]}
        # One step program on one clock: every board reaches each event step
        # at the same board time.
        ref = starts[0]
        if len(ref) < events:
            problems.append("board 0 reached %d event steps, fewer than the %d events" % (len(ref), events))
        for board, s in starts.items():
            if s != ref:
                first = next((i for i in range(min(len(s), len(ref))) if s[i] != ref[i]), min(len(s), len(ref)))
                problems.append("board %s reaches event step %d at %s ps, board 0 at %s ps" %
                                (board, first, s[first] if first < len(s) else None,
                                 ref[first] if first < len(ref) else None))
        return problems

    report = finish_checked(h, every_board_in_step)
    print("a 128-port Clos rail on 32 boards: one commit (generation %s), %d phase events, every boundary "
          "taken by all 32 boards, event steps reached at one board time on all, probes pass" %
          (gens.pop(), events))
