"""python/lightrail_client.py against lightraild's HTTP layer over the fake
service (lightraild-fake, given as LIGHTRAILD_FAKE), and the example
training loop end to end."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
from lightrail_client import Client, LightrailError  # noqa: E402

TOKEN = "py-test-token-0123456789abcdef"


class FakeDaemon:
    def __init__(self, tmp):
        self.token_file = os.path.join(tmp, "token")
        with open(self.token_file, "w") as f:
            f.write(TOKEN + "\n")
        os.chmod(self.token_file, 0o600)
        port_file = os.path.join(tmp, "port")
        if os.path.exists(port_file):
            os.remove(port_file)
        self.proc = subprocess.Popen([os.environ["LIGHTRAILD_FAKE"], "--token-file", self.token_file,
                                      "--port-file", port_file])
        deadline = time.monotonic() + 20
        while not os.path.exists(port_file):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("lightraild-fake did not start")
            time.sleep(0.01)
        with open(port_file) as f:
            self.url = f"http://127.0.0.1:{int(f.read())}"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=20)


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.daemon = FakeDaemon(self.tmp.name)
        self.client = Client(self.daemon.url, token_file=self.daemon.token_file, timeout=20)

    def tearDown(self):
        self.assertEqual(self.daemon.stop(), 0)
        self.tmp.cleanup()

    def test_every_call(self):
        job = {"name": "a", "phases": [{"name": "fwd"}]}
        s = self.client.submit(job, target_accuracy=0.8, wait_for_circuits=True)
        self.assertEqual(s["job"], job)
        self.assertEqual(s["target_accuracy"], 0.8)
        self.assertTrue(s["wait_for_circuits"])
        job_id = s["id"]
        self.assertEqual(self.client.phase(job_id, "fwd")["boundary_ps"], 1000000)
        self.assertEqual(self.client.phase(job_id, 0)["boundary_ps"], 2000000)
        self.assertEqual(self.client.replace_phases(job_id, [{"name": "bwd"}])["phases"], [{"name": "bwd"}])
        self.client.progress(job_id, 0.5)
        self.assertEqual([j["id"] for j in self.client.jobs()["jobs"]], [job_id])
        self.assertEqual(self.client.job(job_id)["accuracy"], 0.5)
        self.assertEqual(self.client.fabric()["name"], "fake")
        self.client.delete(job_id)
        with self.assertRaises(LightrailError) as c:
            self.client.job(job_id)
        self.assertEqual((c.exception.status, c.exception.field, c.exception.message), (404, "id", "no job " + job_id))

    def test_refusals_carry_status_field_and_message(self):
        with self.assertRaises(LightrailError) as c:
            self.client.submit({"name": "conflict"})
        self.assertEqual((c.exception.status, c.exception.field), (409, "job.name"))
        with self.assertRaises(LightrailError) as c:
            self.client.phase("job-1", "x")
        self.assertEqual(c.exception.status, 404)
        job_id = self.client.submit({"name": "b"})["id"]
        with self.assertRaises(LightrailError) as c:
            self.client.phase(job_id, True)
        self.assertEqual((c.exception.status, c.exception.field), (400, "phase"))
        with self.assertRaises(LightrailError) as c:
            self.client.job("a/b")  # never sent as another path
        self.assertEqual((c.exception.status, c.exception.field), (0, "id"))

    def test_token(self):
        reader = Client(self.daemon.url)
        self.assertEqual(reader.jobs()["jobs"], [])  # reads need no token
        with self.assertRaises(LightrailError) as c:
            reader.submit({"name": "a"})
        self.assertEqual(c.exception.field, "token_file")
        wrong = os.path.join(self.tmp.name, "wrong")
        with open(wrong, "w") as f:
            f.write("wrong-token-0123456789abcdef\n")
        os.chmod(wrong, 0o600)
        with self.assertRaises(LightrailError) as c:
            Client(self.daemon.url, token_file=wrong).submit({"name": "a"})
        self.assertEqual((c.exception.status, c.exception.field), (401, "Authorization"))
        os.chmod(wrong, 0o644)
        with self.assertRaises(LightrailError) as c:
            Client(self.daemon.url, token_file=wrong)
        self.assertIn("group or others", c.exception.message)
        self.assertEqual(self.client.jobs()["jobs"], [])  # nothing was done

    def test_token_files_follow_the_daemons_rule(self):
        """Issue 30, defect 4: every token file the daemon (read_token_file)
        takes, the client takes and its token works; every one it refuses,
        the client refuses with LightrailError (field token_file), never
        another exception."""
        cases = [(TOKEN + "\r\n").encode(), TOKEN.encode(), (TOKEN + "\r").encode(), (TOKEN + "\n\n").encode(),
                 (TOKEN + " \n").encode(), b"short-token\n", b"x" * 256 + b"\n", b"x" * 257, b"",
                 TOKEN.encode() + b"\xff", ("tab\t" + TOKEN).encode(), b"\r\n" + TOKEN.encode()]
        for i, content in enumerate(cases):
            path = os.path.join(self.tmp.name, f"case{i}")
            with open(path, "wb") as f:
                f.write(content)
            os.chmod(path, 0o600)
            port_file = os.path.join(self.tmp.name, f"case{i}.port")
            proc = subprocess.Popen([os.environ["LIGHTRAILD_FAKE"], "--token-file", path, "--port-file", port_file],
                                    stderr=subprocess.DEVNULL)
            self.addCleanup(lambda p=proc: p.poll() is None and p.kill())
            deadline = time.monotonic() + 20
            while not os.path.exists(port_file) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            daemon_takes = proc.poll() is None
            try:
                client = Client(self.daemon.url, token_file=path)
                client_takes = True
            except LightrailError as e:
                self.assertEqual(e.field, "token_file")
                client_takes = False
            self.assertEqual(client_takes, daemon_takes, content)
            if daemon_takes:
                with open(port_file) as f:
                    own = Client(f"http://127.0.0.1:{int(f.read())}", token_file=path)
                own.submit({"name": "a"})  # the token the daemon read is the one the client sends
                proc.send_signal(signal.SIGTERM)
            self.assertEqual(proc.wait(timeout=20), 0 if daemon_takes else 3)
        self.assertEqual(self.client.jobs()["jobs"], [])

    def test_unreachable(self):
        self.daemon.stop()
        with self.assertRaises(LightrailError) as c:
            Client(self.daemon.url, timeout=5).jobs()
        self.assertEqual(c.exception.status, 0)
        self.daemon = FakeDaemon(self.tmp.name)  # for tearDown
        with self.assertRaises(ValueError):
            Client("https://127.0.0.1:1")

    def test_training_loop_example(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "training_loop.py"),
                              os.path.join(ROOT, "experiments", "cnn-16.job.json"), "--daemon", self.daemon.url,
                              "--token-file", self.daemon.token_file, "--iterations", "3"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual([ln for ln in lines if "boundary_ps" in ln],
                         [f"iteration {i} phase gradients: boundary_ps {(i + 1) * 1000000}" for i in range(3)])
        self.assertIn("iteration 2: accuracy 0.7875", lines)
        self.assertEqual(self.client.jobs()["jobs"], [])  # deleted at the end


if __name__ == "__main__":
    unittest.main()
