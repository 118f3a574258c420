#!/usr/bin/env python3
"""Phase events in an order other than the job's (issue 29): a three-phase
job on 4 co-simulated boards gets its phases as 2, 0, 1, 1, 0, 2, 2, 1, then
in the declared order. Every event is served (a jump when it is not the
phase the boards wait for, "order" says which); every board takes every
boundary the daemon answers (the jump's and the phase's) at that board time,
each board's own edges show it, and the probes pass with the reference
following each jump. The step each board went into (TRIGGERED_STEP) depends
only on the phase named, whatever came before.

  phase_order.py COSIM LIGHTRAILD SOURCE_DIR
"""
import sys

from daemon_lib import Harness, boundaries_taken, fail, finish_checked, regmap_register

cosim, daemon, src = sys.argv[1:4]
ORDER = [2, 0, 1, 1, 0, 2, 2, 1, 2, 0, 1, 2]
TRIGGERED_STEP = regmap_register("TRIGGERED_STEP")["offset"]

with Harness(cosim, daemon, src, boards=4) as h:
    c = h.start_daemon()
    h.wait_locked()
    spec = h.job_file("dp64.job.json")
    spec["name"] = "dp-64-three-phases"
    spec["phases"].append({"name": "scatter", "compute_ps": 2000000, "collective": "reduce_scatter",
                           "algorithm": "ring", "dimension": "data", "bytes": 48000})
    job = c.submit(spec)
    if job["state"] != "running" or sorted(job["boards"]) != ["b0", "b1", "b2", "b3"]:
        fail("the job is not running on all four boards: %s" % job)
    names = [p["name"] for p in spec["phases"]]
    boundaries, steps_of = [], {}
    waiting = 0  # the phase the boards wait for next
    for i, p in enumerate(ORDER):
        r = c.phase(job["id"], names[p] if i % 2 else p)  # names and indices
        want = "declared" if p == waiting else "jump"
        if r.get("order") != want or r.get("waiting_for") != names[waiting] or r.get("phase") != names[p]:
            fail("event %d (phase %s, boards waiting for %s): %s" % (i, names[p], names[waiting], r))
        if not r.get("circuits") or r.get("boundary_ps") is None:
            fail("event %d: no boundary: %s" % (i, r))
        if (want == "jump") != (r.get("jump_boundary_ps") is not None):
            fail("event %d: jump_boundary_ps %s for order %s" % (i, r.get("jump_boundary_ps"), want))
        if r.get("jump_boundary_ps") is not None:
            if not r["jump_boundary_ps"] < r["boundary_ps"]:
                fail("event %d: the jump %d is not before the phase's boundary %d" %
                     (i, r["jump_boundary_ps"], r["boundary_ps"]))
            boundaries.append(r["jump_boundary_ps"])
        boundaries.append(r["boundary_ps"])
        steps = tuple(h.read_board(b, TRIGGERED_STEP) for b in range(4))
        if steps_of.setdefault(p, steps) != steps:
            fail("phase %s went into steps %s, before into %s" % (names[p], steps, steps_of[p]))
        waiting = (p + 1) % len(names)
    if len(set(steps_of.values())) != len(names):
        fail("the phases did not go into steps of their own: %s" % steps_of)
    if sorted(set(boundaries)) != boundaries:
        fail("boundaries do not advance: %s" % boundaries)
    state = c.job(job["id"])
    if state["phase_events"] != len(ORDER) or state["next_phase"] != names[waiting]:
        fail("the daemon counted %d phase events (next %s), not %d (next %s)" %
             (state["phase_events"], state["next_phase"], len(ORDER), names[waiting]))
    finish_checked(h, lambda r: boundaries_taken(r, boundaries, len(boundaries)))
    jumps = sum(1 for i, p in enumerate(ORDER) if p != ([0] + [(q + 1) % 3 for q in ORDER])[i])
    print("%d phase events in the order %s (%d jumps): %d boundaries, each taken by all 4 boards at one "
          "board time (their edges), probes pass; steps per phase %s" %
          (len(ORDER), ORDER, jumps, len(boundaries), steps_of))
