"""lightrail.torch: a PyTorch training job drives lightraild (docs/torch.md).

One call, after ``torch.distributed.init_process_group`` and before the
model is wrapped in DistributedDataParallel::

    import lightrail.torch
    lightrail.torch.enable(daemon="http://127.0.0.1:7070", token_file="~/.lightraild-token")

On every rank it then

- observes each collective (op, bytes, process group, start and end): the
  ``torch.distributed`` calls, DDP's start-up and buffer broadcasts (which go
  through ``dist._broadcast_coalesced``, not ``dist.broadcast``) and DDP's
  gradient all-reduces (a communication hook it registers);
- writes them to a trace, one JSON line each (``TRACE_DIR/rank<r>.jsonl``);
- derives the job's phases from the first iterations (a phase: the run of
  consecutive collectives of one pattern, collective and group, within an
  iteration; a DDP forward call starts an iteration) and submits the job to
  the daemon in that order;
- at every later phase boundary: the reporting rank posts the phase event,
  waits until the boards' time has passed the boundary the daemon answered,
  and one broadcast tells every rank the boundary; no rank issues the
  phase's collectives before it has that broadcast.
"""

import atexit
import json
import os
import re
import sys
import threading
import time
import warnings

import torch
import torch.distributed as dist

from . import _torch_calls as calls
from ._torch_pattern import merge

__all__ = ["enable", "disable", "session", "progress", "Session", "TRACE_VERSION", "PLANNED_COLLECTIVES"]

# The trace's format version (docs/torch.md, docs/schemas/trace.schema.json).
TRACE_VERSION = 1

# Collectives the planner can put on circuits, and the algorithm gloo runs
# for each (issue 29: per-port byte counters of gloo's sockets showed rings
# for all-reduce and all-gather; its all-to-all sends pairwise, directly).
# Modelled from that measurement, not read from the library.
PLANNED_COLLECTIVES = {"all_reduce": "ring", "all_gather": "ring", "reduce_scatter": "ring",
                       "all_to_all": "direct"}

class Session:
    """What enable() set up on this rank. Attributes of interest: rank,
    world_size, trace_path, iteration, pattern (the phases, once derived),
    job_id (once submitted), events (phase events taken)."""

    def __init__(self, daemon, token_file, trace_dir, job_name, observe_iterations, target_accuracy,
                 wait_for_circuits, reporter, wait_timeout_s, keep_job, client, on_error, relearn_every=0):
        self.rank = dist.get_rank()
        self.world_size = dist.get_world_size()
        self.backend = str(dist.get_backend())
        self.reporter = reporter
        self.observe_iterations = observe_iterations
        self.relearn_every = relearn_every
        self.target_accuracy = target_accuracy
        self.wait_for_circuits = wait_for_circuits
        self.wait_timeout_s = wait_timeout_s
        self.keep_job = keep_job
        self.on_error = on_error
        self.job_name = job_name
        self.client = None
        if self.rank == reporter and (daemon or client):
            self.client = client if client is not None else _make_client(daemon, token_file)
        self.reporting = bool(daemon or client)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0  # asynchronous calls not yet ended
        self.trace_path = None
        self._trace = None
        if trace_dir is not None:
            os.makedirs(trace_dir, exist_ok=True)
            self.trace_path = os.path.join(trace_dir, "rank%d.jsonl" % self.rank)
            self._trace = open(self.trace_path, "w")
        self.iteration = -1  # no DDP forward yet
        self._seq = 0
        self._observed = []  # collective records of the observing iterations
        self.pattern = None
        self._keys = None
        self.job_id = None
        self.circuits = False
        self.job = None  # the daemon's reply to the submission (reporting rank)
        self.events = 0
        self._phase = None  # index of the phase whose collectives run now
        self._phase_iteration = None
        self._resume_at = None  # out of step with the boards: no events until this phase
        self.model = None
        self._source = None  # who issues the calls now: ddp_init, ddp_forward (None: the script)
        self._starts = {}  # iteration -> its start (wall ns)
        self._write({"type": "start", "version": TRACE_VERSION, "rank": self.rank, "world_size": self.world_size,
                     "backend": self.backend, "pid": os.getpid(), "time_ns": calls.now_ns(),
                     "torch": torch.__version__, "observe_iterations": observe_iterations,
                     "daemon": daemon, "reporter": reporter})

    # -- the trace ----------------------------------------------------------

    def _write(self, rec):
        if self._trace is None:
            return
        with self._lock:
            self._trace.write(json.dumps(rec, separators=(",", ":")) + "\n")

    def _flush(self):
        if self._trace is not None:
            with self._lock:
                self._trace.flush()

    # -- iterations and phases ---------------------------------------------

    def step(self):
        """Starts the next iteration. DDP models call it at every forward;
        a script without DDP calls it at the top of each iteration."""
        self.iteration += 1
        self._starts[self.iteration] = calls.now_ns()
        self._write({"type": "iteration", "iteration": self.iteration, "time_ns": calls.now_ns()})
        if self.pattern is None and self.iteration == self.observe_iterations:
            self._register()
        elif self.pattern is not None and self.relearn_every:
            # Only the iteration just ended is looked at again.
            self._observed = [r for r in self._observed if r["iteration"] == self.iteration - 1]
            if (self.iteration - self.observe_iterations) % self.relearn_every == 0:
                self._relearn()

    def _planned(self, collective, ranks):
        # A subgroup too: registration merges the ranks' runs into phases
        # with groups (_torch_pattern). A subgroup of one rank moves nothing.
        return collective in PLANNED_COLLECTIVES and (len(ranks) >= 2 or len(ranks) == self.world_size)

    def _planned_record(self, collective, nbytes, ranks):
        # A call whose size is unknown (DDP's start-up shape check) cannot
        # be planned either.
        return nbytes is not None and self._planned(collective, ranks)

    def _before(self, collective, ranks):
        """Called on this rank before a collective is issued: takes the
        phase boundary it opens, if any. Returns the phase index or None."""
        if self.pattern is None or not self._planned(collective, ranks):
            return None
        keys = self._keys
        k = (collective, tuple(ranks))
        if self._phase is not None and keys[self._phase] == k and self._phase_iteration == self.iteration:
            return self._phase
        n = len(keys)
        expected = 0 if self._phase is None else (self._phase + 1) % n
        # The phase this call opens: the one the boards wait for, else the
        # next declared phase of its pattern (out of the declared order: the
        # daemon jumps the boards to it, docs/lightraild.md); a call of no
        # declared phase runs without a phase event.
        nxt = next((i % n for i in range(expected, expected + n) if keys[i % n] == k), None)
        if nxt is None:
            self._write({"type": "off_pattern", "iteration": self.iteration, "collective": collective,
                         "group": list(ranks), "expected_phase": expected,
                         "reason": "no declared phase runs %s on this group" % collective, "time_ns": calls.now_ns()})
            return None
        skipped = [i % n for i in range(expected, nxt if nxt >= expected else nxt + n)]
        if any(keys[i] is not None for i in skipped):
            self._write({"type": "out_of_order", "iteration": self.iteration, "phase": nxt,
                         "expected_phase": expected, "time_ns": calls.now_ns()})
            skipped = []
        # Phases this rank sits out (none of their groups has it) are taken
        # here, in order: every rank takes every boundary.
        self._take(skipped + [nxt])
        self._phase, self._phase_iteration = nxt, self.iteration
        return nxt

    def _take_tail(self):
        """The iteration's last phases this rank sits out: the others take
        their boundaries, so it must too."""
        if self.pattern and self._phase is not None:
            tail = []
            for i in range(self._phase + 1, len(self._keys)):
                if self._keys[i] is not None:
                    break
                tail.append(i)
            self._take(tail)
            self._phase = tail[-1] if tail else self._phase

    def _take(self, indices):
        for i in indices:
            if self.circuits and self._resume_at in (None, i):
                self._resume_at = None
                self._boundary(i)

    def _record(self, op, collective, nbytes, ranks, root, source, start_ns, end_ns, phase, asynchronous):
        planned = self._planned_record(collective, nbytes, ranks)
        rec = {"type": "collective", "rank": self.rank, "seq": self._seq, "iteration": self.iteration, "op": op,
               "collective": collective, "bytes": nbytes, "group": list(ranks), "root": root,
               "source": source or "script", "async": asynchronous, "planned": planned, "phase": phase,
               "event": self.events if phase is not None and self.circuits and self._resume_at is None else None,
               "start_ns": start_ns, "end_ns": end_ns}
        self._seq += 1
        if (self.pattern is None and 0 <= self.iteration < self.observe_iterations) or \
                (self.pattern is not None and self.relearn_every):
            self._observed.append(rec)
        return rec

    def _finish(self, rec, result):
        """Writes the record once the call has ended (an async call: when its
        Work's future completes)."""
        if hasattr(result, "get_future"):
            try:
                fut = result.get_future()
            except RuntimeError:
                rec["end_ns"] = None  # a backend whose Work has no future: the end is unknown
                self._write(rec)
                return

            def done(f):
                rec["end_ns"] = calls.now_ns()
                self._write(rec)
                self._ended()

            with self._lock:
                self._pending += 1
            fut.add_done_callback(done)
            return
        rec["end_ns"] = calls.now_ns()
        self._write(rec)

    def _call(self, op, collective, nbytes, group, root, call):
        ranks = calls.group_ranks(group)
        phase = self._before(collective, ranks) if nbytes is not None else None
        start = calls.now_ns()
        rec = self._record(op, collective, nbytes, ranks, root, self._source, start, None, phase,
                           asynchronous=False)
        with calls.Depth():
            result = call()
        rec["async"] = result is not None and hasattr(result, "wait")
        self._finish(rec, result)
        return result

    # -- the pattern and the job ------------------------------------------

    def derive_pattern(self, records):
        """The phases of the last observed iteration: runs of consecutive
        planned collectives with the same collective and group."""
        last = max((r["iteration"] for r in records), default=None)
        recs = sorted((r for r in records if r["iteration"] == last), key=lambda r: r["seq"])
        phases, electrical = [], []
        prev_end = None
        for r in recs:
            if not r["planned"]:
                electrical.append({k: r[k] for k in ("op", "collective", "bytes", "group", "source")})
                continue
            if phases and phases[-1]["collective"] == r["collective"] and phases[-1]["group"] == r["group"]:
                ph = phases[-1]
                ph["bytes"] += r["bytes"] or 0
                ph["count"] += 1
                ph["end_ns"] = max(ph["end_ns"], r["end_ns"] or r["start_ns"])
                if r["source"] not in ph["sources"]:
                    ph["sources"].append(r["source"])
            else:
                phases.append({"collective": r["collective"], "algorithm": PLANNED_COLLECTIVES[r["collective"]],
                               "group": r["group"], "bytes": r["bytes"] or 0, "count": 1,
                               "start_ns": r["start_ns"], "end_ns": r["end_ns"] or r["start_ns"],
                               "gap_from_ns": prev_end, "sources": [r["source"]]})
            prev_end = phases[-1]["end_ns"]
        # The compute before each phase: from the previous phase's end (the
        # first phase's: the iteration's start) to this phase's first call.
        it_start = self._starts.get(last)
        for i, ph in enumerate(phases):
            start_from = ph.pop("gap_from_ns") if i else it_start
            ph["compute_ps"] = max(0, ph["start_ns"] - start_from) * 1000 if start_from else 0
            ph.pop("gap_from_ns", None)
        return {"observed_iteration": last, "phases": phases, "electrical": electrical}

    def _merged(self, sequences):
        """The job's phases from every rank's runs (_torch_pattern.merge),
        named and with this rank's group (None: it sits the phase out)."""
        phases, dropped = merge(sequences)
        names = {}
        for i, ph in enumerate(phases):
            base = "gradients" if ph["sources"] == ["ddp_gradients"] else ph["collective"]
            names[base] = names.get(base, 0) + 1
            ph["name"] = base if names[base] == 1 else "%s_%d" % (base, names[base])
            ph["index"] = i
            ph["algorithm"] = PLANNED_COLLECTIVES[ph["collective"]]
            ph["group"] = next((g for g in ph["groups"] if self.rank in g), None)
            del ph["ranks"]
        return phases, dropped

    def job_file(self, pattern):
        """The job file lightraild takes for this pattern (docs/control-plane.md):
        one rank per GPU and per node, every phase on the data dimension."""
        world = [list(range(self.world_size))]

        def where(p):  # a phase of every rank on the data dimension, else its groups
            return {"dimension": "data"} if p["groups"] == world else {"groups": p["groups"]}

        return {"name": self.job_name, "gpus": self.world_size, "gpus_per_node": 1,
                "parallelism": {"data": self.world_size},
                "phases": [dict({"name": p["name"], "compute_ps": int(p["compute_ps"]), "collective": p["collective"],
                                 "algorithm": p["algorithm"], "bytes": int(p["bytes"])}, **where(p))
                           for p in pattern["phases"]]}

    def _register(self):
        derived, dropped = self._observe()
        self._write(dict(derived, type="pattern", time_ns=calls.now_ns()))
        self._write_dropped(derived, dropped)
        status, job_id, why = 0, "", ""
        if not self.reporting:
            why = "no daemon: trace only"
        elif not derived["phases"]:
            why = "no collective the planner can put on circuits was observed"
        elif self.rank == self.reporter:
            job = self.job_file(derived)
            try:
                self.job = self.client.submit(job, target_accuracy=self.target_accuracy,
                                              wait_for_circuits=self.wait_for_circuits)
                job_id = self.job["id"]
                status = 1 if self.job.get("state") == "running" else 0
                if not status:
                    why = "the job is %s: no circuits, no phase events" % self.job.get("state")
            except Exception as e:  # the daemon's refusal, sent to every rank below
                status, why = -1, str(e)
            self._write({"type": "job", "job": job, "reply": self.job, "error": why or None, "time_ns": calls.now_ns()})
        # One broadcast gives every rank the outcome and the job id.
        buf = torch.zeros(2 + 128, dtype=torch.int64)
        if self.rank == self.reporter:
            buf[0] = status
            ids = job_id.encode()[:128]
            buf[1] = len(ids)
            buf[2:2 + len(ids)] = torch.tensor(list(ids), dtype=torch.int64)
        if self.reporting and derived["phases"]:
            self._control("broadcast", calls.nbytes(buf), lambda: calls.ORIG["broadcast"](buf, src=self.reporter))
        status = int(buf[0])
        if status == -1:
            raise RuntimeError("lightrail.torch: lightraild refused the job (rank %d has the reason%s)" %
                               (self.reporter, ": " + why if why else ""))
        self.job_id = bytes(int(x) for x in buf[2:2 + int(buf[1])]).decode()
        self.circuits = status == 1
        self.pattern = derived["phases"]
        # Per phase what this rank's calls of it look like (None: it sits it out).
        self._keys = [(p["collective"], tuple(p["group"])) if p["group"] else None for p in self.pattern]
        self._write({"type": "registered", "job_id": self.job_id or None, "circuits": self.circuits,
                     "reason": why or None, "time_ns": calls.now_ns()})
        self._flush()

    def _observe(self):
        """Every rank's runs of the observed iteration, merged into phases."""
        derived = self.derive_pattern(self._observed)
        self._observed = []
        # One all-gather gives every rank every rank's runs: a subgroup's
        # calls are seen by its members only. Every rank merges them the
        # same way, so the pattern is agreed without a vote.
        mine = [{k: p[k] for k in ("collective", "group", "bytes", "count", "compute_ps", "start_ns", "end_ns",
                                   "sources")} for p in derived["phases"]]
        sequences = [None] * self.world_size
        self._control("all_gather", len(json.dumps(mine)),
                      lambda: dist.all_gather_object(sequences, mine))
        derived["phases"], dropped = self._merged(sequences)
        return derived, dropped

    def _write_dropped(self, derived, dropped):
        for d in dropped:
            self._write({"type": "off_pattern", "iteration": derived["observed_iteration"],
                         "collective": d["collective"],
                         "group": next((g for g in d["groups"] if self.rank in g), None),
                         "groups": d["groups"], "expected_phase": None, "reason": d["reason"],
                         "time_ns": calls.now_ns()})

    def _relearn(self):
        """Every rank, every relearn_every iterations: the pattern of the
        iteration just ended; when it differs from the job's, the reporting
        rank replaces the job's phases at the daemon and one broadcast
        gives every rank the outcome."""
        self._take_tail()  # the old pattern's last boundaries first
        derived, dropped = self._observe()
        shape = (lambda ps: [(p["collective"], p["groups"], p["bytes"], p["count"]) for p in ps])
        if shape(derived["phases"]) == shape(self.pattern) or not derived["phases"]:
            return  # the same (or nothing to plan): the job stays as it is
        self._write(dict(derived, type="pattern", time_ns=calls.now_ns()))
        self._write_dropped(derived, dropped)
        status, why = int(self.circuits), ""
        if self.rank == self.reporter and self.client is not None and self.job_id:
            job, reply = self.job_file(derived), None
            try:
                reply = self.client.replace_phases(self.job_id, job["phases"])
                status = 1 if reply.get("state") == "running" else 0
                if not status:
                    why = "the job is %s: no circuits, no phase events" % reply.get("state")
            except Exception as e:  # the daemon's refusal: the old phases run on there
                status, why = -1, str(e)
            self._write({"type": "job", "job": job, "reply": reply, "error": why or None, "time_ns": calls.now_ns()})
        if self.reporting and self.job_id:
            t = torch.tensor([status], dtype=torch.int64)
            self._control("broadcast", calls.nbytes(t), lambda: calls.ORIG["broadcast"](t, src=self.reporter))
            status = int(t[0])
        if status == -1:
            msg = "lightrail.torch: lightraild refused the job's new phases (rank %d has the reason%s)" % (
                self.reporter, ": " + why if why else "")
            if self.on_error == "raise":
                raise RuntimeError(msg)
            if self.rank == self.reporter:
                warnings.warn(msg + "; going on without circuits (on_error=\"electrical\")", RuntimeWarning)
            status = 0
        self.circuits = status == 1
        self.pattern = derived["phases"]
        self._keys = [(p["collective"], tuple(p["group"])) if p["group"] else None for p in self.pattern]
        self._phase, self._phase_iteration, self._resume_at = None, None, None
        self._write({"type": "registered", "job_id": self.job_id or None, "circuits": self.circuits,
                     "reason": why or None, "time_ns": calls.now_ns()})

    # -- a phase boundary ---------------------------------------------------

    def _boundary(self, index):
        """Every rank: the reporting rank posts the phase event and waits
        until every board of the phase has passed the boundary; one
        broadcast then releases every rank with the boundary."""
        self.events += 1
        reached = calls.now_ns()
        name = self.pattern[index]["name"]
        vec = torch.full((10,), -1, dtype=torch.int64)
        boards, board_ps, error = [], {}, ""
        if self.rank == self.reporter:
            vec[0], vec[1] = self.events, index
            t0 = calls.now_ns()
            try:
                reply = self.client.phase(self.job_id, index)
                vec[3] = calls.now_ns()
                boards = reply.get("boards") or []
                if reply.get("circuits") and reply.get("boundary_ps") is not None:
                    vec[2] = 1
                    vec[4], vec[5] = reply["boundary_ps"], reply.get("requested_board_ps", -1)
                    seen_ns, board_ps = self._wait_boards(boards, reply["boundary_ps"])
                    vec[6], vec[7] = min(board_ps.values()), seen_ns
                else:
                    vec[2] = 0
            except Exception as e:
                vec[2], error = -1, str(e)
                if getattr(e, "status", None) == 409:
                    # The boards wait for another phase (the job was placed
                    # again, FastConv moved it): resume at that phase.
                    try:
                        wanted = self.client.job(self.job_id)["next_phase"]  # the phase's name
                        vec[9] = [p["name"] for p in self.pattern].index(wanted)
                        vec[2] = 2
                    except Exception as e2:
                        error += "; reading the job's next phase: %s" % e2
            vec[8] = t0
        self._control("broadcast", calls.nbytes(vec), lambda: calls.ORIG["broadcast"](vec, src=self.reporter))
        up = calls.now_ns()
        if int(vec[0]) != self.events or int(vec[1]) != index:
            raise RuntimeError("lightrail.torch: rank %d is at phase event %d (phase %d, %s) but rank %d "
                               "reported event %d (phase %d)" % (self.rank, self.events, index, name,
                                                                  self.reporter, int(vec[0]), int(vec[1])))
        if int(vec[2]) == 2:
            self._resume_at = int(vec[9])
            error = "out of step: the boards wait for phase %d; phase events resume there" % self._resume_at
        if int(vec[2]) == -1:
            why = "lightrail.torch: phase event %d (%s) failed on rank %d%s" % (
                self.events, name, self.reporter, ": " + error if error else "")
            if self.on_error == "raise":
                raise RuntimeError(why)
            # on_error="electrical": training goes on without circuits; every
            # rank stops taking phase events at once (they all got -1).
            self.circuits = False
            if self.rank == self.reporter:
                warnings.warn(why + "; going on without circuits (on_error=\"electrical\")", RuntimeWarning)
            error = error or why
        opt = (lambda v: None if int(v) == -1 else int(v))
        self._write({"type": "boundary", "event": self.events, "phase": index, "name": name,
                     "iteration": self.iteration, "circuits": int(vec[2]) == 1, "reached_ns": reached,
                     "reported_ns": opt(vec[8]), "answered_ns": opt(vec[3]), "boundary_ps": opt(vec[4]),
                     "requested_board_ps": opt(vec[5]), "up_board_ps": opt(vec[6]), "up_seen_ns": opt(vec[7]),
                     "released_ns": up, "boards": boards if self.rank == self.reporter else None,
                     "board_ps": board_ps if self.rank == self.reporter else None, "error": error or None})

    def _wait_boards(self, boards, boundary_ps):
        """Until every named board's time has passed boundary_ps, read
        through the daemon (GET /v1/fabric). Returns (wall time of the
        read that showed it, {board: its time})."""
        deadline = time.monotonic() + self.wait_timeout_s
        while True:
            fabric = self.client.fabric()
            seen = calls.now_ns()
            times = {b["name"]: b.get("board_time_ps") for b in fabric["boards"] if b["name"] in boards}
            missing = [b for b in boards if times.get(b) is None]
            if missing:
                raise RuntimeError("lightrail.torch: board(s) %s unreadable through the daemon" % missing)
            if all(t >= boundary_ps for t in times.values()):
                return seen, times
            if time.monotonic() > deadline:
                raise RuntimeError("lightrail.torch: the boards did not pass boundary %d ps within %.0f s: %s" %
                                   (boundary_ps, self.wait_timeout_s, times))
            time.sleep(0.001)

    def _control(self, collective, nbytes, call):
        """lightrail's own collectives: traced as such, outside the pattern."""
        start = calls.now_ns()
        with calls.Depth():
            call()
        self._write({"type": "control", "collective": collective, "bytes": nbytes,
                     "iteration": self.iteration, "start_ns": start, "end_ns": calls.now_ns()})

    # -- DDP ----------------------------------------------------------------

    def _comm_hook(self, state, bucket):
        """DDP's gradient all-reduce, as its default hook does it (average
        over the group), traced and behind the phase boundary."""
        group = state
        tensor = bucket.buffer()
        if calls.active is not self:  # disabled: a plain all-reduce
            return _plain_all_reduce(tensor, group)
        ranks = calls.group_ranks(group)
        phase = self._before("all_reduce", ranks)
        start = calls.now_ns()
        rec = self._record("all_reduce", "all_reduce", calls.nbytes(tensor), ranks, None, "ddp_gradients", start,
                           None, phase, asynchronous=True)
        tensor.div_(len(ranks))
        with calls.Depth():
            fut = calls.ORIG["all_reduce"](tensor, group=group, async_op=True).get_future()

        def done(f):
            rec["end_ns"] = calls.now_ns()
            self._write(rec)
            self._ended()
            return f.value()[0]

        with self._lock:
            self._pending += 1
        return fut.then(done)

    def attach(self, model):
        """Traces a DDP model: its gradient all-reduces (a communication
        hook) and its forward calls (each starts an iteration)."""
        if self.model is None:
            self.model = model
        model.register_comm_hook(model.process_group, self._comm_hook)

    def progress(self, accuracy):
        """Reports the training's accuracy (0..1) to the daemon (FastConv);
        only the reporting rank sends it."""
        if self.client is not None and self.job_id:
            self.client.progress(self.job_id, accuracy)
        self._write({"type": "progress", "iteration": self.iteration, "accuracy": accuracy, "time_ns": calls.now_ns()})

    def _ended(self):
        with self._lock:
            self._pending -= 1
            self._idle.notify_all()

    def close(self):
        # Calls still in flight are written when they end: wait for them.
        with self._lock:
            self._idle.wait_for(lambda: self._pending == 0, timeout=self.wait_timeout_s)
        self._take_tail()
        self._write({"type": "end", "iteration": self.iteration, "events": self.events, "time_ns": calls.now_ns()})
        if self._trace is not None:
            with self._lock:
                self._trace.close()
                self._trace = None
        if self.client is not None and self.job_id and not self.keep_job:
            try:
                self.client.delete(self.job_id)
            except Exception as e:  # the job ends anyway; say why it is left
                print("lightrail.torch: could not delete job %s: %s" % (self.job_id, e), file=sys.stderr)
            self.job_id = None


def _plain_all_reduce(tensor, group):
    tensor.div_(dist.get_world_size(group))
    return dist.all_reduce(tensor, group=group, async_op=True).get_future().then(lambda f: f.value()[0])


def _make_client(daemon, token_file):
    try:
        from lightrail_client import Client
    except ImportError:
        raise ImportError("lightrail.torch: lightrail_client (python/lightrail_client.py, installed beside the "
                          "lightrail package) is needed to reach the daemon") from None
    if not token_file:
        raise ValueError("lightrail.torch.enable: token_file is needed with daemon (or LIGHTRAILD_TOKEN_FILE)")
    return Client(daemon, token_file=token_file)


def _positive_int(name, v):
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError("lightrail.torch.enable: %s must be an integer >= 1, not %r" % (name, v))
    return v


def enable(daemon=None, token_file=None, trace_dir="lightrail-trace", job_name=None, observe_iterations=2,
           target_accuracy=None, wait_for_circuits=False, reporter=0, wait_timeout_s=30.0, keep_job=False,
           client=None, on_error="raise", relearn_every=0):
    """Traces this rank's collectives and, with a daemon, drives its phases.

    daemon: lightraild's URL (default: LIGHTRAILD_URL; None: trace only);
    token_file: the daemon's token (default: LIGHTRAILD_TOKEN_FILE; read on
    the reporting rank only); trace_dir: where rank<r>.jsonl goes (None: no
    trace); job_name: the job's name at the daemon; observe_iterations: the
    iterations watched before the job is submitted (DDP rebuilds its
    gradient buckets after the first, so 2); reporter: the rank that talks
    to the daemon; keep_job: leave the job on the daemon at close;
    on_error: a failed phase event (the daemon refused or could not be
    reached, a board did not pass its boundary in time) raises on every rank
    ("raise"), or ends the phase events and training goes on without
    circuits ("electrical"); relearn_every: every that many iterations
    after registration the pattern of the iteration just ended is derived
    again and, when it differs, the job's phases are replaced at the daemon
    (0: never)."""
    if calls.active is not None:
        raise RuntimeError("lightrail.torch.enable: already enabled (call disable() first)")
    if not dist.is_available() or not dist.is_initialized():
        raise RuntimeError("lightrail.torch.enable: call it after torch.distributed.init_process_group")
    daemon = daemon if daemon is not None else os.environ.get("LIGHTRAILD_URL") or None
    token_file = token_file if token_file is not None else os.environ.get("LIGHTRAILD_TOKEN_FILE")
    _positive_int("observe_iterations", observe_iterations)
    if isinstance(reporter, bool) or not isinstance(reporter, int) or not 0 <= reporter < dist.get_world_size():
        raise ValueError("lightrail.torch.enable: reporter must be a rank 0..%d, not %r" %
                         (dist.get_world_size() - 1, reporter))
    if not isinstance(wait_timeout_s, (int, float)) or isinstance(wait_timeout_s, bool) or not wait_timeout_s > 0:
        raise ValueError("lightrail.torch.enable: wait_timeout_s must be a number > 0, not %r" % (wait_timeout_s,))
    if target_accuracy is not None and not (isinstance(target_accuracy, (int, float)) and 0 < target_accuracy <= 1):
        raise ValueError("lightrail.torch.enable: target_accuracy must be in (0, 1], not %r" % (target_accuracy,))
    if isinstance(relearn_every, bool) or not isinstance(relearn_every, int) or relearn_every < 0:
        raise ValueError("lightrail.torch.enable: relearn_every must be an integer >= 0, not %r" % (relearn_every,))
    if on_error not in ("raise", "electrical"):
        raise ValueError("lightrail.torch.enable: on_error must be \"raise\" or \"electrical\", not %r" % (on_error,))
    if job_name is None:
        script = os.path.splitext(os.path.basename(sys.argv[0] or "python"))[0]
        job_name = "torch-%s-%d" % (re.sub(r"[^A-Za-z0-9._-]", "_", script) or "job", dist.get_world_size())
    if not isinstance(job_name, str) or not job_name:
        raise ValueError("lightrail.torch.enable: job_name must be a non-empty string, not %r" % (job_name,))
    s = Session(daemon, token_file, trace_dir, job_name, observe_iterations, target_accuracy, wait_for_circuits,
                reporter, float(wait_timeout_s), keep_job, client, on_error, relearn_every)
    calls.install()
    calls.active = s
    atexit.register(disable)
    return s


def disable():
    """Closes the trace, deletes the job (unless keep_job) and restores
    torch.distributed. A DDP model keeps its hook, which then only
    all-reduces."""
    s, calls.active = calls.active, None
    if s is not None:
        s.close()
    calls.uninstall()


def session():
    """The enabled Session, or None."""
    return calls.active


def progress(accuracy):
    """Reports the training's accuracy (0..1) to the daemon."""
    if calls.active is None:
        raise RuntimeError("lightrail.torch.progress: not enabled")
    calls.active.progress(accuracy)
