"""Fixtures of the lightrail binding's tests: a `lightrail-cosim serve` of
two co-simulated boards on a free 127.0.0.1 port (the program given as
LIGHTRAIL_COSIM, as tests/sim/cli_lib.sh starts it), and the schedule
examples. The `lightrail` package comes from PYTHONPATH (CTest sets it to
the build tree's python/)."""

import os
import subprocess
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLE_SCHEDULE = os.path.join(ROOT, "examples", "schedules", "awgr_doubling.json")


class ServedBoards:
    def __init__(self, tmp_path, boards=2):
        port_file = tmp_path / "port"
        self.log_path = tmp_path / "serve.log"
        self.cosim = os.environ["LIGHTRAIL_COSIM"]
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([self.cosim, "serve", "--boards", str(boards), "--port", "0",
                                      "--port-file", str(port_file), "--report", str(tmp_path / "report.json")],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError("lightrail-cosim serve did not start: " + self.log_path.read_text())
            time.sleep(0.02)
        self.port = int(port_file.read_text())

    def uri(self, board):
        return f"sim://127.0.0.1:{self.port}/{board}"

    def stop(self):
        """Stops the simulation; its exit code (0: every probe check held,
        no packet misdelivered or sent while dark)."""
        if self.proc.poll() is None:
            subprocess.run([self.cosim, "stop", "--port", str(self.port)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=60)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


@pytest.fixture
def boards(tmp_path):
    served = ServedBoards(tmp_path)
    yield served
    rc = served.stop()
    assert rc == 0, "the simulation's checks failed: " + served.log_path.read_text()


@pytest.fixture
def example_schedule_path():
    return EXAMPLE_SCHEDULE
