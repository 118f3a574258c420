"""Shared by the tests that run `lightraild` on co-simulated boards: a
serving simulation, a fabric file for it, a token, the daemon started and
restarted, the Python client, and the simulation's report at the end.

Usage: Harness(cosim, lightraild, source_dir, boards=4) as a context manager.
"""
import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time


def regmap_register(name):
    """A register's entry in defs/regmap.json, the register map's one source."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "defs", "regmap.json")) as f:
        return next(r for r in json.load(f)["registers"] if r["name"] == name)


def nofile_limit(n):
    """A preexec_fn: the child may open at most n descriptors (ulimit -n n)."""
    if n is None:
        return None
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


class Harness:
    def __init__(self, cosim, daemon, src, boards=4, sync=True, commit_margin_us=1000, trigger_margin_us=100,
                 serve_nofile=None):
        self.cosim, self.daemon_bin, self.src = cosim, daemon, src
        sys.path.insert(0, os.path.join(src, "python"))
        import lightrail_client  # noqa: E402  (the client under test)

        self.client_mod = lightrail_client
        self.work = tempfile.mkdtemp(prefix="lightraild-test-")
        self.boards = boards
        self.sync = sync
        self.serve = subprocess.Popen(
            [cosim, "serve", "--boards", str(boards), "--port", "0", "--port-file", self.path("serve.port"),
             "--report", self.path("report.json")] + (["--sync", "star"] if sync else []),
            stdout=open(self.path("serve.log"), "w"), stderr=subprocess.STDOUT, preexec_fn=nofile_limit(serve_nofile))
        self.board_port = int(self.wait_file("serve.port"))
        self.fabric = {
            "name": "test-%d" % boards,
            "rails": [{"rail": 0, "switch": "awgr", "radix": 64}],
            "boards": [{"name": "b%d" % b, "uri": "sim://127.0.0.1:%d/%d" % (self.board_port, b), "rail": 0,
                        "first_switch_port": 16 * b} for b in range(boards)],
            "commit_margin_us": commit_margin_us,
            "trigger_margin_us": trigger_margin_us,
        }
        if sync:
            self.fabric["sync_master"] = "b0"
        with open(self.path("fabric.json"), "w") as f:
            json.dump(self.fabric, f)
        fd = os.open(self.path("token"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"test-token-0123456789abcdef\n")
        os.close(fd)
        self.proc = None
        self.client = None

    def path(self, name):
        return os.path.join(self.work, name)

    def wait_file(self, name, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                with open(self.path(name)) as f:
                    text = f.read().strip()
                if text:
                    return text
            except FileNotFoundError:
                pass
            time.sleep(0.02)
        self.dump_logs()
        fail("%s did not appear" % name)

    def start_daemon(self, env_extra=None, nofile=None, tokens=None, args=()):
        """tokens: a tokens file (--tokens) instead of the one token file;
        args: more options."""
        try:
            os.unlink(self.path("daemon.port"))
        except FileNotFoundError:
            pass
        env = dict(os.environ)
        env.update(env_extra or {})
        self.proc = subprocess.Popen(
            [self.daemon_bin, "--fabric", self.path("fabric.json"), "--model",
             os.path.join(self.src, "examples/daemon/model.json")] +
            (["--tokens", tokens] if tokens else ["--token-file", self.path("token")]) + [
             "--state-dir", self.path("state"), "--port", "0", "--port-file", self.path("daemon.port")] +
            ([] if self.sync else ["--allow-unlocked"]) + list(args),
            stdout=open(self.path("daemon.log"), "a"), stderr=subprocess.STDOUT, env=env,
            preexec_fn=nofile_limit(nofile))
        port = int(self.wait_file("daemon.port"))
        self.url = "http://127.0.0.1:%d" % port
        self.client = self.client_mod.Client(self.url, self.path("token"))
        return self.client

    def write_token(self, name, text):
        """A token file (mode 0600) in the work directory; returns its path."""
        path = self.path(name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, text.encode() + b"\n")
        os.close(fd)
        return path

    def request(self, method, path, body=None, token=None, headers=None):
        """One HTTP request to the daemon: (status, headers, JSON reply)."""
        h = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        if token:
            h["Authorization"] = "Bearer " + token
        conn = http.client.HTTPConnection("127.0.0.1", int(self.url.rsplit(":", 1)[1]), timeout=60)
        try:
            conn.request(method, path, body=data, headers=h)
            reply = conn.getresponse()
            raw = reply.read()
            return reply.status, {k.lower(): v for k, v in reply.getheaders()}, json.loads(raw) if raw else None
        finally:
            conn.close()

    def daemon_log(self):
        with open(self.path("daemon.log")) as f:
            return f.read()

    def kill_daemon(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop_daemon(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                fail("lightraild did not stop on SIGTERM")

    def read_board(self, board, addr):
        """One register of a board, straight from the board server (no daemon)."""
        with socket.create_connection(("127.0.0.1", self.board_port), timeout=30) as sock:
            f = sock.makefile("rw", newline="\n")
            for line in ("HELLO %d" % board, "RD %x 1" % addr):
                f.write(line + "\n")
                f.flush()
                answer = f.readline().strip()
                if not answer.startswith("OK"):
                    fail("board %d: %s: %s" % (board, line, answer))
            return int(answer.split()[1], 16)

    def wait_locked(self, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            boards = self.client.fabric()["boards"]
            if all(b["name"] == "b0" or (b.get("sync") or {}).get("locked") for b in boards):
                return
            time.sleep(0.1)
        fail("the boards' clocks did not lock")

    def job_file(self, name):
        with open(os.path.join(self.src, "examples/daemon", name)) as f:
            return json.load(f)

    def finish(self):
        """Stops the daemon and the simulation; returns (report, serve exit code)."""
        self.stop_daemon()
        subprocess.run([self.cosim, "stop", "--port", str(self.board_port)], check=False,
                       stdout=subprocess.DEVNULL)
        try:
            rc = self.serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.serve.kill()
            fail("the simulation did not stop")
        with open(self.path("report.json")) as f:
            return json.load(f), rc

    def dump_logs(self):
        for name in ("daemon.log", "serve.log"):
            try:
                with open(self.path(name)) as f:
                    print("---", name, "---\n" + f.read()[-6000:])
            except FileNotFoundError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is not None:
            self.dump_logs()
        for p in (self.proc, self.serve):
            if p and p.poll() is None:
                p.kill()
        return False


def probes_pass(report):
    """Every board: no missed step, no misdelivered packet, no dark violation."""
    problems = []
    for b in report["boards"]:
        for k in ("missed_steps", "misdelivered_packets", "dark_violations", "missed_events", "unexpected_events",
                  "trigger_errors", "swap_errors"):
            if b.get(k, 0):
                problems.append("board %s: %s = %s" % (b["board"], k, b[k]))
    return problems


def boundaries_taken(report, boundaries, events):
    """Every board shows a trigger boundary at each answered board time and
    checked the triggers (the last is checked once the reference resumes
    past it, which may take a later boundary the run no longer reaches)."""
    problems = []
    for b in report["boards"]:
        seen = {e["board_ps"] for e in b["watched_boundaries"] if e["kind"] == "trigger"}
        missing = [x for x in boundaries if x not in seen]
        if missing:
            problems.append("board %s has no boundary at %d of the answered times (first %s)" %
                            (b["board"], len(missing), missing[:3]))
        if b["triggers_checked"] < events - 1:
            problems.append("board %s checked %d triggers" % (b["board"], b["triggers_checked"]))
    return problems


def finish_checked(h, extra=None):
    """Stops everything; fails unless the probes pass and the verdict is 0
    (plus `extra(report)`'s problems); returns the report."""
    report, rc = h.finish()
    problems = probes_pass(report) + (extra(report) if extra else [])
    if rc != 0:
        problems.append("the simulation's verdict is %d" % rc)
    if problems:
        fail("\n".join(problems))
    return report


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
