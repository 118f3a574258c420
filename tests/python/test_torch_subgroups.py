#!/usr/bin/env python3
"""lightrail.torch with subgroups (gloo, 4 CPU processes, subgroup_ranks.py)
against lightraild on a co-simulated board:

- every rank detects the same pattern from what each rank saw alone: the
  all-reduce of every rank; the all-reduce of the two pairs [0, 1] and [2, 3],
  run at once, as one phase with groups [[0, 1], [2, 3]]; the all-gather of
  [0, 1], which ranks 2 and 3 sit out;
- the job registered with those groups, and the daemon's plan chose per
  phase with them;
- every rank took every phase event (ranks 2 and 3 that of the all-gather
  too), every board took every boundary, and no rank issued a phase's
  collectives before its circuits were up;
- when the pairs' all-reduce doubles its bytes (iteration CHANGE_AT), the
  pattern learned again at the next iteration differs only there, and the
  job's phases are replaced at the daemon (a new generation on the board),
  whose events follow.

  test_torch_subgroups.py COSIM LIGHTRAILD SOURCE_DIR   (PYTHONPATH: the build's python/)
Exit 77 (CTest: skipped) where torch is not installed.
"""
import importlib.util
import os
import socket
import subprocess
import sys
import time

if importlib.util.find_spec("torch") is None:  # found, not imported: the ranks import it
    print("SKIP: python3-torch is not installed for %s (apt-get install python3-torch)" % sys.executable)
    sys.exit(77)

cosim, daemon, src = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "tests", "daemon_sim"))
from daemon_lib import Harness, fail, finish_checked  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from torch_checks import check_schema, every_boundary_on_every_board, read  # noqa: E402

WORLD, ITERATIONS, OBSERVE, CHANGE_AT = 4, 7, 2, 5
WORLD_BYTES, PAIR_BYTES, GATHER_BYTES = 64 * 1024, 256 * 1024, 16 * 1024  # as subgroup_ranks.py issues them
PHASES = [("all_reduce", [[0, 1, 2, 3]], WORLD_BYTES), ("all_reduce", [[0, 1], [2, 3]], PAIR_BYTES),
          ("all_gather", [[0, 1]], GATHER_BYTES)]
CHANGED = [PHASES[0], ("all_reduce", [[0, 1], [2, 3]], 2 * PAIR_BYTES), PHASES[2]]


def check_pattern(traces):
    for rank, t in enumerate(traces):
        pattern = [r for r in t if r["type"] == "pattern"]
        got = [[(p["collective"], p["groups"], p["bytes"]) for p in r["phases"]] for r in pattern]
        if got != [PHASES, CHANGED] or [r["observed_iteration"] for r in pattern] != [OBSERVE - 1, CHANGE_AT]:
            fail("rank %d detected %s (iterations %s), the script issued %s, then %s from iteration %d" %
                 (rank, got, [r["observed_iteration"] for r in pattern], PHASES, CHANGED, CHANGE_AT))
        mine = [p["group"] for p in pattern[0]["phases"]]
        want = [[0, 1, 2, 3], [0, 1] if rank < 2 else [2, 3], [0, 1] if rank < 2 else None]
        if mine != want:
            fail("rank %d: its groups in the phases are %s, expected %s" % (rank, mine, want))
        off = [r for r in t if r["type"] == "off_pattern"]
        if off:
            fail("rank %d ran collectives off the pattern: %s" % (rank, off[0]))
    job = [r for r in traces[0] if r["type"] == "job"]
    if len(job) != 2 or None in (job[0]["reply"], job[1]["reply"]):
        fail("rank 0 has not a job accepted, then its phases replaced: %s" % job)
    new = job[1]["reply"]
    if new["state"] != "running" or new["generation"] == job[0]["reply"]["generation"] or \
            [p["bytes"] for p in job[1]["job"]["phases"]] != [b for _, _, b in CHANGED]:
        fail("the replaced phases are not running as a new generation: %s" % new)
    sent = [(p["collective"], p.get("groups"), p.get("dimension")) for p in job[0]["job"]["phases"]]
    if sent != [("all_reduce", None, "data"), ("all_reduce", [[0, 1], [2, 3]], None),
                ("all_gather", [[0, 1]], None)]:
        fail("the job submitted has phases %s" % sent)
    reply = job[0]["reply"]
    if reply["state"] != "running":
        fail("the job is not running with circuits: %s" % reply)
    choice = reply["plan"]["choice"]
    for c in choice:
        print("daemon's choice: phase %s %s, %d group(s) of %d: %s %s (%s)" %
              (c["phase"], c["collective"], c["groups"], c["ranks_per_group"], c["network"], c["algorithm"],
               c["why"]))
    if [(c["groups"], c["ranks_per_group"]) for c in choice] != [(1, 4), (2, 2), (1, 2)]:
        fail("the daemon's plan did not choose per phase with the groups: %s" % choice)
    return reply, new


def check_boundaries(traces, reply):
    events = [{b["event"]: b for b in t if b["type"] == "boundary"} for t in traces]
    want = (ITERATIONS - OBSERVE) * len(PHASES)  # the replaced job has as many
    for rank, ev in enumerate(events):
        if len(ev) != want:
            fail("rank %d took %d phase events, expected %d (%d phases x %d iterations)" %
                 (rank, len(ev), want, len(PHASES), ITERATIONS - OBSERVE))
        same = [(e, b["phase"], b["boundary_ps"]) for e, b in sorted(ev.items())]
        if same != [(e, b["phase"], b["boundary_ps"]) for e, b in sorted(events[0].items())]:
            fail("rank %d's phase events differ from rank 0's" % rank)
    if [b["phase"] for _, b in sorted(events[0].items())] != list(range(len(PHASES))) * (ITERATIONS - OBSERVE):
        fail("the phase events were not taken in the job's order")
    networks = [p["network"] for p in reply["plan"]["phases"]]
    for e, b in events[0].items():
        if b["circuits"] != (networks[b["phase"]] == "circuits"):
            fail("event %d (phase %d, planned %s) has circuits %s" % (e, b["phase"], networks[b["phase"]],
                                                                      b["circuits"]))
        if b["circuits"] and (b["up_board_ps"] < b["boundary_ps"] or min(b["board_ps"].values()) < b["boundary_ps"]):
            fail("event %d: released at board time %s before the boundary %d" % (e, b["board_ps"], b["boundary_ps"]))
    checked = 0
    for rank, t in enumerate(traces):
        for r in t:
            if r["type"] != "collective" or not r["planned"] or r["iteration"] < OBSERVE:
                continue
            if r["event"] is None or r["event"] not in events[rank]:
                fail("rank %d: %s of iteration %d ran without a phase event" % (rank, r["op"], r["iteration"]))
            b0, mine = events[0][r["event"]], events[rank][r["event"]]
            if r["phase"] != b0["phase"]:
                fail("rank %d: %s ran in phase %s after event %d of phase %d" %
                     (rank, r["op"], r["phase"], r["event"], b0["phase"]))
            if (b0["circuits"] and r["start_ns"] < b0["up_seen_ns"]) or r["start_ns"] < mine["released_ns"]:
                fail("rank %d started %s (event %d) before its circuits were seen up" % (rank, r["op"], r["event"]))
            checked += 1
    return events[0], checked


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


started = time.monotonic()
with Harness(cosim, daemon, src, boards=1, sync=False) as h:
    h.start_daemon()
    trace_dir, port = h.path("trace"), free_port()
    ranks = [subprocess.Popen([sys.executable, os.path.join(here, "subgroup_ranks.py"), str(r), str(WORLD), str(port),
                               str(ITERATIONS), str(OBSERVE), str(CHANGE_AT), h.url, h.path("token"), trace_dir],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for r in range(WORLD)]
    outs = [p.communicate(timeout=240)[0] for p in ranks]
    for r, (p, out) in enumerate(zip(ranks, outs)):
        if p.returncode != 0:
            fail("rank %d exited %d:\n%s" % (r, p.returncode, out))
    traces = [read(os.path.join(trace_dir, "rank%d.jsonl" % r)) for r in range(WORLD)]
    check_schema(src, traces)
    reply, new = check_pattern(traces)
    events, calls = check_boundaries(traces, reply)
    boundaries = [b["boundary_ps"] for _, b in sorted(events.items()) if b["circuits"]]
    finish_checked(h, every_boundary_on_every_board(h.fabric, reply["boards"], boundaries))
    print("PASS: phases %s, replaced from iteration %d (generation %d -> %d); %d phase events on every rank, %d with "
          "circuits taken by board(s) %s; %d calls on 4 ranks each after their release; %.1f s" %
          (PHASES, CHANGE_AT + 1, reply["generation"], new["generation"], len(events), len(boundaries),
           ",".join(reply["boards"]), calls, time.monotonic() - started))
