#!/usr/bin/env python3
"""Issue 26 acceptance 1: 3-board stars on the reference impairment profile
over fibre length x oscillator tuning-gain error (nonlinearity 10%) x seeds,
in the co-simulation. Prints one row per (length, gain error): every
follower locked or not, the latest lock time, and the worst p99 and RMS of
the true PPS offset over the seeds.

  python3 bench/clock_long_fibre.py --cosim build/sim/lightrail-cosim [--jobs 2]

With --rate HZ the two-way exchange runs at HZ per second (acceptance 3:
16/s) and the lock time is also given in exchanges.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

LENGTHS_M = [100, 1000, 2500, 5000, 10000]
GAIN_ERRORS = [-0.2, 0.0, 0.2]
SEEDS = [1, 2, 3, 4]


def scenario(length_m, gain_error, seed, rate_hz, duration_ps, measure_from_ps):
    sync = {"topology": "star", "baseline": False, "measure_from_ps": measure_from_ps,
            "profile": {"seed": seed,
                        "oscillator": {"pull_gain_error": gain_error, "pull_nonlinearity": 0.10},
                        "fibre": {"length_m": length_m}}}
    if rate_hz:
        sync["exchange_rate_hz"] = rate_hz
    return {"lightrail_scenario": 1, "boards": 3, "duration_ps": duration_ps, "sync": sync}


def run(cosim, case, tmp):
    length_m, gain_error, seed, rate_hz, duration_ps, measure_from_ps = case
    name = f"m{length_m}_g{gain_error:+.2f}_s{seed}"
    path = os.path.join(tmp, name + ".json")
    report = os.path.join(tmp, name + ".report.json")
    with open(path, "w") as f:
        json.dump(scenario(*case), f)
    subprocess.run([cosim, "run", path, "--report", report], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report) as f:
        r = json.load(f)
    return case, r["sync"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cosim", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rate", type=float, default=0, help="exchanges per second (0: one per DDMTD beat)")
    ap.add_argument("--lengths", type=int, nargs="*", default=LENGTHS_M)
    ap.add_argument("--gains", type=float, nargs="*", default=GAIN_ERRORS)
    ap.add_argument("--seeds", type=int, nargs="*", default=SEEDS)
    ap.add_argument("--duration-us", type=float, default=0)
    a = ap.parse_args()
    if a.rate:  # a few exchanges to lock, then 1 s of lock
        duration_ps = int((a.duration_us or 1.5e6) * 1e6)
        measure_from_ps = duration_ps - int(0.8e12)
    else:
        duration_ps = int((a.duration_us or 4000) * 1e6)
        measure_from_ps = duration_ps - 1500000000
    cases = [(m, g, s, a.rate, duration_ps, measure_from_ps) for m in a.lengths for g in a.gains for s in a.seeds]
    results = {}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for case, rep in pool.map(lambda c: run(a.cosim, c, tmp), cases):
            results[case] = rep
    print(f"simulated {duration_ps / 1e12:.4f} s per run, offsets from {measure_from_ps / 1e12:.4f} s; "
          f"exchange rate {'one per DDMTD beat' if not a.rate else f'{a.rate:g}/s'}")
    head = "| fibre | tuning gain | seeds | followers locked | lock time max | p99 max | RMS max |"
    if a.rate:
        head += " lock in exchanges max |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    ok = True
    for m in a.lengths:
        for g in a.gains:
            locked = total = 0
            lock_us, p99, rms, exch = 0.0, 0.0, 0.0, 0
            for s in a.seeds:
                rep = results[(m, g, s, a.rate, duration_ps, measure_from_ps)]
                for b in rep["boards"]:
                    total += 1
                    if b["lock_time_us"] >= 0 and b["locked_at_end"]:
                        locked += 1
                    lock_us = max(lock_us, b["lock_time_us"] if b["lock_time_us"] >= 0 else float("inf"))
                    if a.rate:
                        exch = max(exch, int(b["lock_time_us"] * 1e-6 * a.rate) + 1)
                st = rep["offset_ps"]
                p99 = max(p99, st.get("p99", float("inf")))
                rms = max(rms, st.get("rms", float("inf")))
            ok = ok and locked == total and p99 < 100 and rms < 20
            row = (f"| {m / 1000:g} km | {g:+.0%} | {len(a.seeds)} | {locked}/{total} | {lock_us / 1000:.2f} ms | "
                   f"{p99:.1f} ps | {rms:.1f} ps |")
            if a.rate:
                row += f" {exch} |"
            print(row)
    print("all within the acceptance (every follower locked, p99 < 100 ps, RMS < 20 ps):", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
