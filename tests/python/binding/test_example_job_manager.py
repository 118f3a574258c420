"""examples/python/job_manager.py against a served board: it leaves its
schedule running and reports what the board did; bad input exits 1 naming
the entry."""

import json
import os
import subprocess
import sys

import lightrail
from conftest import ROOT

SCRIPT = os.path.join(ROOT, "examples", "python", "job_manager.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=300)


def test_job_manager_runs_its_schedule(boards):
    r = run("--device", boards.uri(0), "--generation", "9", "--epochs", "3")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["generation"] == 9 and report["running"] and report["errors"] == []
    assert report["epochs"] >= 3 and report["steps"] >= 12 and report["period_ps"] == 4_000_000
    st = lightrail.Device.open(boards.uri(0)).status()  # another program sees it running
    assert st.running and st.generation == 9


def test_job_manager_refuses_a_bad_schedule(boards):
    r = run("--device", boards.uri(1), "--shifts", "1,99")
    assert r.returncode == 1
    assert "configs[1].ports[0]" in r.stderr
    assert not lightrail.Device.open(boards.uri(1)).status().running


def test_job_manager_unreachable_board(boards):
    r = run("--device", f"sim://127.0.0.1:{boards.port}/5")
    assert r.returncode == 3 and "sim://" in r.stderr
