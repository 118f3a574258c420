#!/usr/bin/python3
"""`lightrail-cosim run SCENARIO --plot DIR`: the run passes, its report
holds bounded trace data that agree with the rest of the report, and every
cosim picture is a picture of data (check_pictures.py).

  cosim_pictures.py LIGHTRAIL_COSIM SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

cosim, src, work = sys.argv[1:4]
here = os.path.join(src, "tests", "plots")
out = os.path.join(work, "cosim_pictures")
shutil.rmtree(out, ignore_errors=True)
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


run = subprocess.run([cosim, "run", os.path.join(here, "pictures.json"), "--plot", out],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(run.stdout)
expect(run.returncode == 0, "lightrail-cosim run --plot exited %d" % run.returncode)
report_path = os.path.join(out, "report.json")
expect(os.path.exists(report_path), "--plot without --report writes DIR/report.json")
if not failures:
    report = json.load(open(report_path))
    for b in report["boards"]:
        traces, swaps = b["edge_traces"], b["swaps"]
        expect(len(traces) == len(swaps) == 2, "board %d: %d traces of %d swaps, 2 expected" %
               (b["board"], len(traces), len(swaps)))
        for k, (t, s) in enumerate(zip(traces, swaps)):
            where = "board %d swap %d" % (b["board"], k)
            expect(t["kind"] == "swap", "%s: traced as %s" % (where, t["kind"]))
            expect(t["at_ps"] == s["at_ps"], "%s: traced at %s, swapped at %s" % (where, t["at_ps"], s["at_ps"]))
            expect(len(t["start_wavelength_gate"]) == 16, "%s: not every port's start state" % where)
            times = [e[0] for e in t["edges"]]
            expect(times == sorted(times), "%s: edges out of time order" % where)
            expect(all(t["from_ps"] <= x <= t["until_ps"] for x in times), "%s: an edge outside the window" % where)
            # The new schedule's first boundary is the swap: wavelength
            # changes there, and gate edges on either side.
            expect(any(e[2] == "wavelength" and e[0] >= 0 for e in t["edges"]), "%s: no change after it" % where)
            expect(any(e[0] < 0 for e in t["edges"]), "%s: no edge before it" % where)
            expect(t["edges_dropped"] == 0, "%s: %d edges dropped" % (where, t["edges_dropped"]))
    sync = report["sync"]
    for b in sync["boards"]:
        tr = b["offset_trace"]
        n = len(tr["t_us"])
        expect(0 < n <= 1024, "board %d: %d offset points (1..1024)" % (b["board"], n))
        expect(n == len(tr["min_ps"]) == len(tr["max_ps"]), "board %d: ragged offset trace" % b["board"])
        expect(tr["t_us"] == sorted(tr["t_us"]), "board %d: offset trace out of time order" % b["board"])
        expect(all(lo <= hi for lo, hi in zip(tr["min_ps"], tr["max_ps"])), "board %d: min > max" % b["board"])
        # 4.5 ms of 1 us PPS: the trace has been halved at least twice and
        # still spans the run.
        expect(tr["samples_per_point"] >= 4, "board %d: %d samples per point" % (b["board"], tr["samples_per_point"]))
        expect(tr["t_us"][-1] > 4000, "board %d: trace ends at %s us" % (b["board"], tr["t_us"][-1]))
        # The decimated trace keeps the extremes: its band holds the locked
        # statistics' largest offset.
        worst = b["offset_ps"]["max_abs"]
        band = max(max(abs(x) for x in tr["min_ps"]), max(abs(x) for x in tr["max_ps"]))
        expect(band >= worst, "board %d: trace band %.1f ps misses the max |offset| %.1f ps" % (b["board"], band, worst))
    s = sync["slot_skew_ps_samples"]
    expect(0 < len(s) <= 2048, "%d skew samples (1..2048)" % len(s))
    expect(s == sorted(s), "skew samples not sorted")
    expect(abs(s[-1] - sync["slot_skew_ps_max"]) < 1e-9, "skew samples end at %s, max %s" % (s[-1], sync["slot_skew_ps_max"]))
    # The plan picture from a boundary table (scripts/demo_report.py --json,
    # of a real demo run).
    plot = os.path.join(os.path.dirname(cosim), "lightrail-plot")
    r = subprocess.run([plot, "cosim", report_path, "--boundaries", os.path.join(here, "data", "demo-boundaries.json"),
                        "--out", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    expect(r.returncode == 0, "lightrail-plot cosim --boundaries exited %d: %s" % (r.returncode, r.stdout))
    check = subprocess.run([os.path.join(here, "check_pictures.py"), out, "timeline-b0-0", "timeline-b0-1",
                            "timeline-b1-0", "timeline-b1-1", "timeline-b2-0", "timeline-b2-1", "clock-offset", "boundary-skew",
                            "plan-vs-measured"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(check.stdout)
    expect(check.returncode == 0, "check_pictures.py failed")
# A board reset keeps the traces of the run before it: every swap of a
# board that was reset between its swaps is traced, at its own run's time.
reset_report = os.path.join(work, "cosim_pictures_reset.json")
run = subprocess.run([cosim, "run", os.path.join(src, "tests", "sim", "board_reset.json"), "--report", reset_report],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
expect(run.returncode == 0, "board_reset.json exited %d: %s" % (run.returncode, run.stdout))
if run.returncode == 0:
    boards = json.load(open(reset_report))["boards"]
    expect(any(b["board_resets"] > 0 for b in boards), "board_reset.json reset no board")
    for b in boards:
        traced = [t["at_ps"] for t in b["edge_traces"] if t["kind"] == "swap"]
        swapped = [s["at_ps"] for s in b["swaps"]]
        expect(traced == swapped, "board %d (%d resets): swaps traced at %s, swapped at %s" %
               (b["board"], b["board_resets"], traced, swapped))
for f in failures:
    print("FAIL: " + f)
print("PASS" if not failures else "FAIL")
sys.exit(1 if failures else 0)
