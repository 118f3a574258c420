"""lightrail.torch's rules on one process (gloo, world size 1) against a
stand-in daemon, no simulation: bad arguments refused naming them with
nothing installed, a refused job and a failed phase event raised with the
daemon's reason, phase events in the job's order or out of it for a
declared phase (the daemon jumps), calls off the pattern run without one, and a board that never passes its boundary named
when the wait gives up.

Run by CTest (python.torch_session) with PYTHONPATH = the build's python/;
skipped (77) where torch is not installed.
"""
import ast
import importlib.util
import json
import os
import socket
import sys
import tempfile
import unittest

if importlib.util.find_spec("torch") is None:
    print("SKIP: python3-torch is not installed for %s (apt-get install python3-torch)" % sys.executable)
    sys.exit(77)

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

import lightrail.torch as lt  # noqa: E402
from lightrail._torch_pattern import merge  # noqa: E402
from lightrail_client import LightrailError  # noqa: E402


class FakeDaemon:
    """Answers as lightraild does (docs/lightraild.md): a phase event for any
    declared phase, "order" "declared" when it is the one the boards wait for
    (cyclic), else "jump"; `strict` refuses those (409), as lightraild did
    before jumps, to test resuming after one."""

    def __init__(self, refuse_job=None, refuse_phase=None, stuck=False, strict=False):
        self.refuse_job, self.refuse_phase, self.stuck, self.strict = refuse_job, refuse_phase, stuck, strict
        self.orders, self.replaced = [], []
        self.submitted, self.phases, self.board_ps, self.boundary_ps = None, [], 0, 0
        self.next_phase = 0

    def submit(self, job, target_accuracy=None, wait_for_circuits=False):
        if self.refuse_job:
            raise self.refuse_job
        self.submitted = job
        return {"id": "j7", "state": "running", "boards": ["b0"], "plan": None}

    def phase(self, job_id, phase):
        if self.refuse_phase:
            raise self.refuse_phase
        if phase != self.next_phase and self.strict:
            raise LightrailError(409, "phase", "the boards wait for phase %d next" % self.next_phase)
        self.orders.append("declared" if phase == self.next_phase else "jump")
        self.phases.append(phase)
        self.next_phase = (phase + 1) % len(self.submitted["phases"])
        self.boundary_ps = self.board_ps + 100_000
        return {"circuits": True, "boundary_ps": self.boundary_ps, "requested_board_ps": self.board_ps,
                "boards": ["b0"]}

    def fabric(self):
        # Each read the board's time moves on, towards the boundary (or not).
        if not self.stuck:
            self.board_ps += 40_000
        return {"boards": [{"name": "b0", "board_time_ps": self.board_ps}]}

    def job(self, job_id):
        return {"id": job_id, "next_phase": self.submitted["phases"][self.next_phase]["name"]}  # a name, as lightraild

    def replace_phases(self, job_id, phases):
        self.replaced.append([p["collective"] for p in phases])
        self.submitted = dict(self.submitted, phases=phases)
        self.next_phase = 0  # as lightraild: the boards wait for the first new phase
        return {"id": job_id, "state": "running"}

    def progress(self, job_id, accuracy):
        return {}

    def delete(self, job_id):
        return {}


def iteration(calls):
    """One iteration of a script without DDP: step(), then its calls."""
    lt.session().step()
    for c in calls:
        t = torch.ones(8)
        if c == "all_reduce":
            dist.all_reduce(t)
        elif c == "all_gather":
            dist.all_gather([torch.zeros(8)], t)
        elif c == "broadcast":
            dist.broadcast(t, 0)


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


class SessionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            lt.enable()
        except RuntimeError as e:
            cls.before_init = str(e)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=0, world_size=1)
        cls.orig = [dist.all_reduce]

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lightrail-torch-test-")

    def tearDown(self):
        lt.disable()
        self.assertIs(dist.all_reduce, self.orig[0])

    def test_the_stub_names_what_the_module_has(self):
        stub = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "lightrail",
                            "torch.pyi")
        with open(stub) as f:
            tree = ast.parse(f.read())
        top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        top |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
        self.assertEqual(top, set(lt.__all__))
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session")
        methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
        public = {n for n in vars(lt.Session) if not n.startswith("_") and callable(getattr(lt.Session, n))}
        self.assertEqual(methods, public)

    def test_enable_before_init_process_group_is_refused(self):
        self.assertIn("after torch.distributed.init_process_group", self.before_init)

    def test_bad_arguments_are_refused_naming_them_with_nothing_installed(self):
        for kwargs, field in [({"observe_iterations": 0}, "observe_iterations"), ({"reporter": 1}, "reporter"),
                              ({"wait_timeout_s": 0}, "wait_timeout_s"), ({"target_accuracy": 1.5}, "target_accuracy"),
                              ({"job_name": ""}, "job_name"), ({"on_error": "ignore"}, "on_error"),
                              ({"relearn_every": -1}, "relearn_every"),
                              ({"daemon": "http://127.0.0.1:1", "token_file": None}, "token_file")]:
            os.environ.pop("LIGHTRAILD_TOKEN_FILE", None)
            with self.assertRaises(ValueError, msg=field) as e:
                lt.enable(trace_dir=self.dir, **kwargs)
            self.assertIn(field, str(e.exception))
            self.assertIsNone(lt.session())
            self.assertIs(dist.all_reduce, self.orig[0])

    def test_a_refused_job_is_raised_with_the_daemons_reason(self):
        why = LightrailError(400, "job.phases[0].dimension", "a data collective needs at least 2 ranks")
        lt.enable(client=FakeDaemon(refuse_job=why), trace_dir=self.dir)
        iteration(["all_reduce"])
        iteration(["all_reduce"])
        with self.assertRaises(RuntimeError) as e:
            lt.session().step()
        self.assertIn("job.phases[0].dimension", str(e.exception))

    def test_a_failed_phase_event_is_raised_with_the_daemons_reason(self):
        lt.enable(client=FakeDaemon(refuse_phase=LightrailError(502, "", "board b0: unreachable")),
                  trace_dir=self.dir)
        iteration(["all_reduce"])
        iteration(["all_reduce"])
        lt.session().step()  # the job is submitted here; its first call opens phase 0
        with self.assertRaises(RuntimeError) as e:
            dist.all_reduce(torch.ones(8))
        self.assertIn("board b0: unreachable", str(e.exception))

    def test_with_on_error_electrical_a_failed_event_ends_the_events_and_training_goes_on(self):
        daemon = FakeDaemon(refuse_phase=LightrailError(0, "", "lightraild at 127.0.0.1:1: connection refused"))
        daemon.attempts = 0
        refuse = daemon.phase

        def counted(job_id, phase):
            daemon.attempts += 1
            return refuse(job_id, phase)

        daemon.phase = counted
        s = lt.enable(client=daemon, trace_dir=self.dir, on_error="electrical")
        iteration(["all_reduce"])
        iteration(["all_reduce"])
        with self.assertWarnsRegex(RuntimeWarning, "connection refused"):
            iteration(["all_reduce"])
        iteration(["all_reduce"])
        lt.disable()
        self.assertEqual(daemon.attempts, 1)
        bounds = [r for r in read(s.trace_path) if r["type"] == "boundary"]
        self.assertEqual([(b["event"], b["circuits"]) for b in bounds], [(1, False)])
        self.assertIn("connection refused", bounds[0]["error"])

    def test_out_of_step_with_the_boards_events_resume_at_the_phase_they_wait_for(self):
        daemon = FakeDaemon(strict=True)
        s = lt.enable(client=daemon, trace_dir=self.dir)
        for _ in range(3):
            iteration(["all_reduce", "all_gather"])
        s.step()
        dist.all_reduce(torch.ones(8))
        daemon.next_phase = 0  # placed again: its boards start over at phase 0
        dist.all_gather([torch.zeros(8)], torch.ones(8))  # phase 1: refused (409), no event
        iteration(["all_reduce", "all_gather"])
        lt.disable()
        self.assertEqual(daemon.phases, [0, 1, 0, 0, 1])
        trace = read(s.trace_path)
        bounds = [(b["event"], b["phase"], b["circuits"], b["error"] is not None) for b in trace
                  if b["type"] == "boundary"]
        self.assertEqual(bounds, [(1, 0, True, False), (2, 1, True, False), (3, 0, True, False),
                                  (4, 1, False, True), (5, 0, True, False), (6, 1, True, False)])
        events = [r["event"] for r in trace if r["type"] == "collective" and r["iteration"] >= 2 and r["planned"]]
        self.assertEqual(events, [1, 2, 3, None, 5, 6])

    def test_phase_events_follow_the_jobs_order_a_declared_phase_out_of_it_jumps_and_calls_off_it_run_without_one(self):
        daemon = FakeDaemon()
        s = lt.enable(client=daemon, trace_dir=self.dir)
        iteration(["broadcast", "all_reduce", "all_reduce", "all_gather"])
        iteration(["broadcast", "all_reduce", "all_reduce", "all_gather"])
        iteration(["all_reduce", "all_gather"])  # submitted at its start
        self.assertEqual([(p["collective"], p["count"], p["bytes"]) for p in s.pattern],
                         [("all_reduce", 2, 64), ("all_gather", 1, 32)])
        self.assertEqual([p["collective"] for p in daemon.submitted["phases"]], ["all_reduce", "all_gather"])
        iteration(["all_gather"])  # no gradients this time: phase 1 out of the order (a jump)
        iteration(["all_reduce", "all_reduce", "all_gather"])
        lt.disable()
        self.assertEqual(daemon.phases, [0, 1, 1, 0, 1])
        self.assertEqual(daemon.orders, ["declared", "declared", "jump", "declared", "declared"])
        trace = read(s.trace_path)
        jumps = [r for r in trace if r["type"] == "out_of_order"]
        self.assertEqual([(r["iteration"], r["phase"], r["expected_phase"]) for r in jumps], [(3, 1, 0)])
        self.assertEqual([r for r in trace if r["type"] == "off_pattern"], [])
        events = [r["event"] for r in trace if r["type"] == "collective" and r["iteration"] >= 2 and r["planned"]]
        self.assertEqual(events, [1, 2, 3, 4, 4, 5])
        for b in (r for r in trace if r["type"] == "boundary"):
            self.assertGreaterEqual(b["up_board_ps"], b["boundary_ps"])

    def test_a_pattern_that_changes_is_learned_again_and_the_jobs_phases_replaced(self):
        daemon = FakeDaemon()
        s = lt.enable(client=daemon, trace_dir=self.dir, relearn_every=1)
        for _ in range(3):
            iteration(["all_reduce", "all_gather"])  # submitted at the third's start
        iteration(["all_gather", "all_reduce"])  # another order: a jump under the old phases
        iteration(["all_gather", "all_reduce"])  # learned again at its start: phases replaced
        iteration(["all_gather", "all_reduce"])  # the same: nothing replaced
        lt.disable()
        self.assertEqual(daemon.replaced, [["all_gather", "all_reduce"]])
        self.assertEqual(daemon.phases, [0, 1, 1, 0, 0, 1, 0, 1])
        self.assertEqual(daemon.orders, ["declared", "declared", "jump"] + ["declared"] * 5)
        trace = read(s.trace_path)
        self.assertEqual([[p["collective"] for p in r["phases"]] for r in trace if r["type"] == "pattern"],
                         [["all_reduce", "all_gather"], ["all_gather", "all_reduce"]])
        self.assertEqual([r["iteration"] for r in trace if r["type"] == "out_of_order"], [3])

    def test_a_call_of_no_declared_phase_runs_without_an_event(self):
        daemon = FakeDaemon()
        s = lt.enable(client=daemon, trace_dir=self.dir)
        iteration(["all_reduce"])
        iteration(["all_reduce"])
        iteration(["all_reduce"])  # submitted at its start: one phase, all-reduce
        iteration(["all_gather", "all_reduce"])  # no phase has an all-gather
        lt.disable()
        self.assertEqual(daemon.phases, [0, 0])
        trace = read(s.trace_path)
        off = [r for r in trace if r["type"] == "off_pattern"]
        self.assertEqual([(r["iteration"], r["collective"], r["expected_phase"]) for r in off], [(3, "all_gather", 0)])
        events = [r["event"] for r in trace if r["type"] == "collective" and r["iteration"] >= 2 and r["planned"]]
        self.assertEqual(events, [1, None, 2])
        for b in (r for r in trace if r["type"] == "boundary"):
            self.assertGreaterEqual(b["up_board_ps"], b["boundary_ps"])

    def test_without_a_daemon_the_pattern_is_traced_and_nothing_reported(self):
        s = lt.enable(trace_dir=self.dir)
        for _ in range(3):
            iteration(["all_reduce", "broadcast", "all_gather"])
        lt.disable()
        trace = read(s.trace_path)
        pattern = [r for r in trace if r["type"] == "pattern"]
        self.assertEqual([p["collective"] for p in pattern[0]["phases"]], ["all_reduce", "all_gather"])
        self.assertEqual([e["collective"] for e in pattern[0]["electrical"]], ["broadcast"])
        registered = [r for r in trace if r["type"] == "registered"]
        self.assertEqual([(r["circuits"], r["reason"]) for r in registered], [(False, "no daemon: trace only")])
        self.assertFalse(any(r["type"] == "boundary" for r in trace))

    def test_an_async_call_is_written_once_its_work_completes(self):
        s = lt.enable(trace_dir=self.dir)
        s.step()
        dist.all_reduce(torch.ones(4), async_op=True).wait()
        lt.disable()
        rec = [r for r in read(s.trace_path) if r["type"] == "collective"]
        self.assertEqual([(r["op"], r["bytes"], r["async"]) for r in rec], [("all_reduce", 16, True)])
        self.assertGreaterEqual(rec[0]["end_ns"], rec[0]["start_ns"])

    def test_a_board_that_never_passes_its_boundary_is_named(self):
        lt.enable(client=FakeDaemon(stuck=True), trace_dir=self.dir, wait_timeout_s=0.2)
        iteration(["all_reduce"])
        iteration(["all_reduce"])
        lt.session().step()
        with self.assertRaises(RuntimeError) as e:
            dist.all_reduce(torch.ones(8))
        self.assertIn("did not pass boundary 100000 ps", str(e.exception))
        self.assertIn("'b0': 0", str(e.exception))


def run(collective, group, nbytes=64, count=1):
    return {"collective": collective, "group": group, "bytes": nbytes, "count": count, "compute_ps": 0,
            "start_ns": 0, "end_ns": 0, "sources": ["script"]}


class MergeTest(unittest.TestCase):
    """Every rank's runs merged into phases (_torch_pattern.merge)."""

    def test_disjoint_groups_at_once_make_one_phase_and_others_sit_out(self):
        w, a, b = run("all_reduce", [0, 1, 2, 3]), run("all_reduce", [0, 1]), run("all_reduce", [2, 3])
        g = run("all_gather", [0, 1])
        phases, dropped = merge([[w, a, g], [w, a, g], [w, b], [w, b]])
        self.assertEqual([(p["collective"], p["groups"], p["ranks"]) for p in phases],
                         [("all_reduce", [[0, 1, 2, 3]], [0, 1, 2, 3]), ("all_reduce", [[0, 1], [2, 3]], [0, 1, 2, 3]),
                          ("all_gather", [[0, 1]], [0, 1])])
        self.assertEqual(dropped, [])

    def test_overlapping_groups_are_dropped_naming_the_rank(self):
        phases, dropped = merge([[run("all_reduce", [0, 1])], [run("all_reduce", [0, 1])],
                                 [run("all_reduce", [1, 2])]])
        self.assertEqual(phases, [])
        self.assertIn("overlap (rank 1 is in both)", dropped[0]["reason"])

    def test_a_member_elsewhere_or_other_sizes_are_dropped_and_the_rest_goes_on(self):
        w = run("all_gather", [0, 1, 2, 3])
        phases, dropped = merge([[run("all_reduce", [0, 1]), w], [w], [w], [w]])
        self.assertEqual([p["groups"] for p in phases], [[[0, 1, 2, 3]]])
        self.assertEqual([d["reason"] for d in dropped],
                         ["rank 1 of group [0, 1] ran all_gather on [0, 1, 2, 3] at this point, not all_reduce on [0, 1]"])
        phases, dropped = merge([[run("all_reduce", [0, 1], 64)]] * 2 + [[run("all_reduce", [2, 3], 128)]] * 2)
        self.assertEqual(phases, [])
        self.assertIn("sizes differ", dropped[0]["reason"])


if __name__ == "__main__":
    unittest.main()
