#!/usr/bin/env python3
"""1,000 phase events through lightraild on 4 co-simulated boards (clocks
synchronised): every boundary the daemon answers is taken by all four boards
on the same step — each board's own edges show a timed-trigger boundary at
exactly that board time, no board checks a trigger wrong, and the probes
pass. Prints the request-to-boundary latency, simulated and wall, p50/p99.

  phase_events.py COSIM LIGHTRAILD SOURCE_DIR [EVENTS]
"""
import sys
import time

from daemon_lib import Harness, boundaries_taken, fail, finish_checked, percentile

cosim, daemon, src = sys.argv[1:4]
events = int(sys.argv[4]) if len(sys.argv) > 4 else 1000

with Harness(cosim, daemon, src, boards=4) as h:
    c = h.start_daemon()
    h.wait_locked()
    job = c.submit(h.job_file("dp64.job.json"))
    if job["state"] != "running" or sorted(job["boards"]) != ["b0", "b1", "b2", "b3"]:
        fail("the job is not running on all four boards: %s" % job)
    phases = [p["name"] for p in h.job_file("dp64.job.json")["phases"]]
    answers, wall = [], []
    for i in range(events):
        t0 = time.monotonic()
        r = c.phase(job["id"], phases[i % len(phases)] if i % 2 else i % len(phases))  # names and indices
        wall.append(time.monotonic() - t0)
        if r.get("boundary_ps") is None:
            fail("event %d: no boundary: %s" % (i, r))
        answers.append(r)
    boundaries = [r["boundary_ps"] for r in answers]
    if sorted(set(boundaries)) != boundaries:
        fail("boundaries do not advance: %s" % boundaries[:20])
    state = c.job(job["id"])
    if state["phase_events"] != events:
        fail("the daemon counted %d phase events, not %d" % (state["phase_events"], events))
    report = finish_checked(h, lambda r: boundaries_taken(r, boundaries, events))
    lead = [(r["boundary_ps"] - r["requested_board_ps"]) / 1e3 for r in answers]
    print("%d phase events on 4 boards: every boundary taken by all 4 (their edges), probes pass" % events)
    print("request to boundary, simulated: p50 %.1f ns, p99 %.1f ns" % (percentile(lead, .5), percentile(lead, .99)))
    print("request to answer, wall: p50 %.2f ms, p99 %.2f ms; %.0f phase events/s from one client" %
          (1e3 * percentile(wall, .5), 1e3 * percentile(wall, .99), len(wall) / sum(wall)))
    window = [r["trigger_window_ps"] / 1e6 for r in answers if r.get("trigger_window_ps") is not None]
    print("telling the boards, simulated: p50 %.1f us, max %.1f us; margin at the end %.1f us" %
          (percentile(window, .5), max(window), answers[-1]["trigger_margin_ps"] / 1e6))
    skew = report.get("sync", {}).get("slot_skew_ps_p99")
    print("step-boundary skew across the boards (p99): %s ps" % skew)
