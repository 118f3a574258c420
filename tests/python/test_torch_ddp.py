#!/usr/bin/env python3
"""lightrail.torch under real DDP (gloo, 4 CPU processes,
examples/training_loop.py --ddp) against lightraild on a co-simulated board:

- the pattern every rank detects is the collectives the script issued: DDP's
  gradient all-reduce (the model's parameter bytes, in several buckets) and
  the script's all-gather of its metrics; DDP's per-forward buffer broadcast
  stays off the circuits; DDP's start-up broadcast is traced (it escapes a
  wrapper of dist.broadcast);
- the job the daemon got has those phases in that order;
- every phase boundary the daemon answered is taken by every board of the
  job (the board's own edges in the simulation's report), and every rank
  saw the same events;
- no rank issued a phase's collectives before its circuits were up: each
  call of a phase started after the read (through the daemon) that showed
  every board past the boundary, and after the rank's release;
- every trace line is valid against docs/schemas/trace.schema.json.

  test_torch_ddp.py COSIM LIGHTRAILD SOURCE_DIR   (PYTHONPATH: the build's python/)
Exit 77 (CTest: skipped) where torch is not installed.
"""
import importlib.util
import os
import subprocess
import sys
import time

if importlib.util.find_spec("torch") is None:  # found, not imported: the ranks import it
    print("SKIP: python3-torch is not installed for %s (apt-get install python3-torch)" % sys.executable)
    sys.exit(77)

cosim, daemon, src = sys.argv[1:4]
sys.path.insert(0, os.path.join(src, "tests", "daemon_sim"))
from daemon_lib import Harness, fail, finish_checked  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_checks import check_schema, every_boundary_on_every_board, read  # noqa: E402

WORLD, ITERATIONS, OBSERVE, HIDDEN = 4, 8, 2, 64
INPUTS, CLASSES = 16, 4  # examples/ddp_training.py's model: Linear, BatchNorm1d, Linear, Linear

# What the script issues, by arithmetic on its model (float32 parameters).
PARAM_BYTES = 4 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + HIDDEN * HIDDEN + HIDDEN + HIDDEN * CLASSES + CLASSES)
BUFFER_BYTES = 4 * 2 * HIDDEN + 8  # running mean and variance, num_batches_tracked (int64)
METRICS_BYTES = WORLD * 2 * 4  # all_gather of [loss, accuracy] from every rank
EVERYONE = list(range(WORLD))


def check_pattern(traces):
    for rank, t in enumerate(traces):
        pattern = [r for r in t if r["type"] == "pattern"]
        if len(pattern) != 1:
            fail("rank %d wrote %d pattern records" % (rank, len(pattern)))
        phases = [(p["collective"], p["group"], p["bytes"], p["sources"]) for p in pattern[0]["phases"]]
        want = [("all_reduce", EVERYONE, PARAM_BYTES, ["ddp_gradients"]),
                ("all_gather", EVERYONE, METRICS_BYTES, ["script"])]
        if phases != want:
            fail("rank %d detected %s, the script issued %s" % (rank, phases, want))
        if pattern[0]["phases"][0]["count"] < 2:
            fail("rank %d: the gradients came in %d bucket(s); the bucket cap should give several" %
                 (rank, pattern[0]["phases"][0]["count"]))
        off = [(e["collective"], e["bytes"], e["source"]) for e in pattern[0]["electrical"]]
        if off != [("broadcast", BUFFER_BYTES, "ddp_forward")]:
            fail("rank %d: off the circuits %s, expected DDP's buffer broadcast only" % (rank, off))
        startup = [r for r in t if r["type"] == "collective" and r["source"] == "ddp_init" and
                   r["collective"] == "broadcast"]
        if [r["bytes"] for r in startup] != [PARAM_BYTES + BUFFER_BYTES]:
            fail("rank %d: DDP's start-up broadcast traced as %s" % (rank, startup))
    job = [r for r in traces[0] if r["type"] == "job"]
    if len(job) != 1 or job[0]["reply"] is None:
        fail("rank 0 has no accepted job: %s" % job)
    sent = [(p["collective"], p["bytes"], p["dimension"]) for p in job[0]["job"]["phases"]]
    if sent != [("all_reduce", PARAM_BYTES, "data"), ("all_gather", METRICS_BYTES, "data")]:
        fail("the job submitted has phases %s" % sent)
    if job[0]["reply"]["state"] != "running" or job[0]["job"]["gpus"] != WORLD:
        fail("the job is not running with circuits on %d GPUs: %s" % (WORLD, job[0]["reply"]))
    return job[0]["reply"]


def check_boundaries(traces):
    """Same events on every rank; each planned call after registration ran
    after its phase's boundary was up and the rank was released."""
    events = [{b["event"]: b for b in t if b["type"] == "boundary"} for t in traces]
    want = (ITERATIONS - OBSERVE) * 2
    if len(events[0]) != want:
        fail("rank 0 took %d phase events, expected %d (2 phases x %d iterations)" %
             (len(events[0]), want, ITERATIONS - OBSERVE))
    for rank, ev in enumerate(events):
        same = [(e, b["phase"], b["boundary_ps"]) for e, b in sorted(ev.items())]
        if same != [(e, b["phase"], b["boundary_ps"]) for e, b in sorted(events[0].items())]:
            fail("rank %d's phase events differ from rank 0's" % rank)
    for e, b in events[0].items():
        if not b["circuits"] or b["boundary_ps"] is None:
            fail("event %d has no circuits: %s" % (e, b))
        if b["up_board_ps"] < b["boundary_ps"] or min(b["board_ps"].values()) < b["boundary_ps"]:
            fail("event %d: released at board time %s before the boundary %d" % (e, b["board_ps"], b["boundary_ps"]))
    checked = 0
    for rank, t in enumerate(traces):
        if any(r["type"] == "off_pattern" for r in t):
            fail("rank %d ran collectives off the pattern" % rank)
        for r in t:
            if r["type"] != "collective" or not r["planned"] or r["iteration"] < OBSERVE:
                continue
            if r["event"] is None or r["event"] not in events[rank]:
                fail("rank %d: %s of iteration %d ran without a phase event" % (rank, r["op"], r["iteration"]))
            b0, mine = events[0][r["event"]], events[rank][r["event"]]
            if r["phase"] != b0["phase"]:
                fail("rank %d: %s ran in phase %s after event %d of phase %d" %
                     (rank, r["op"], r["phase"], r["event"], b0["phase"]))
            if r["start_ns"] < b0["up_seen_ns"] or r["start_ns"] < mine["released_ns"]:
                fail("rank %d started %s (event %d) %.3f ms before its circuits were seen up" %
                     (rank, r["op"], r["event"], (b0["up_seen_ns"] - r["start_ns"]) / 1e6))
            checked += 1
    return events[0], checked


started = time.monotonic()
with Harness(cosim, daemon, src, boards=1, sync=False) as h:
    h.start_daemon()
    out = h.path("ddp")
    run = subprocess.run([sys.executable, os.path.join(src, "examples", "training_loop.py"), "--ddp", str(WORLD),
                          "--iterations", str(ITERATIONS), "--observe", str(OBSERVE), "--hidden", str(HIDDEN),
                          "--daemon", h.url, "--token-file", h.path("token"), "--out", out, "--no-plot"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240)
    print(run.stdout)
    if run.returncode != 0:
        fail("training_loop.py --ddp exited %d" % run.returncode)
    traces = [read(os.path.join(out, "trace", "rank%d.jsonl" % r)) for r in range(WORLD)]
    check_schema(src, traces)
    reply = check_pattern(traces)
    events, calls = check_boundaries(traces)
    boundaries = [b["boundary_ps"] for _, b in sorted(events.items())]
    finish_checked(h, every_boundary_on_every_board(h.fabric, reply["boards"], boundaries))
    waits = sorted((b["released_ns"] - b["reached_ns"]) / 1e6 for t in traces for b in t if b["type"] == "boundary")
    print("PASS: pattern all_reduce %d B (DDP) + all_gather %d B (script); %d phase events taken by board(s) %s; "
          "%d calls on 4 ranks each after its circuits were up; release wait p50 %.1f ms, max %.1f ms; %.1f s" %
          (PARAM_BYTES, METRICS_BYTES, len(boundaries), ",".join(reply["boards"]), calls, waits[len(waits) // 2],
           waits[-1], time.monotonic() - started))
