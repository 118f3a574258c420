#!/usr/bin/env python3
"""Issue 13's fabric bench: simulated time per wall second and memory per
board for a clock-synchronised fabric (a tree from board 0, every link on
the boards' own timing ports) of several
sizes, in one process and split over ranks with mpirun, side by side.

Each run is `lightrail-cosim serve --boards N --sync tree` with no host
attached (the boards run free, every edge probed, every servo running),
stopped after --seconds of wall time; its report gives the simulated time
reached, the wall time of the run proper (start-up and elaboration
excluded) and each rank's peak resident memory. Figures, not a test: a
shared machine moves them.

    fabric_scaling.py --cosim build/sim/lightrail-cosim [--boards 16 64 1024] [--ranks 1 2] [--seconds 20]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run(cosim, mpirun, boards, ranks, seconds, work):
    port_file = os.path.join(work, f"port-{boards}-{ranks}")
    report = os.path.join(work, f"report-{boards}-{ranks}.json")
    for f in (port_file, report):
        if os.path.exists(f):
            os.remove(f)
    cmd = [mpirun, "-np", str(ranks), cosim, "serve", "--boards", str(boards), "--sync", "tree",
           "--port", "0", "--port-file", port_file, "--report", report]
    log = open(os.path.join(work, f"log-{boards}-{ranks}"), "w")
    p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    t0 = time.time()
    while not (os.path.exists(port_file) and os.path.getsize(port_file) > 0):
        if p.poll() is not None or time.time() - t0 > 600:
            p.kill()
            sys.exit(f"{' '.join(cmd)}: did not start (see {log.name})")
        time.sleep(0.1)
    start_s = time.time() - t0
    time.sleep(seconds)
    port = open(port_file).read().strip()
    subprocess.run([cosim, "stop", "--port", port, "--timeout-ms", "600000"], check=True,
                   stdout=subprocess.DEVNULL)
    if p.wait(timeout=600) not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exited {p.returncode} (see {log.name})")
    r = json.load(open(report))
    part = r["partition"]
    rss = part["max_rss_kib_per_rank"]
    per_rank = part["boards_per_rank"]
    return {
        "boards": boards,
        "ranks": ranks,
        "start_s": start_s,
        "wall_s": r["wall_s"],
        "sim_us": r["sim_time_ps"] / 1e6,
        "sim_us_per_wall_s": r["sim_time_ps"] / 1e6 / r["wall_s"],
        "board_cycles_per_s": r["board_cycles"] / r["wall_s"],
        "max_rss_mib": sum(rss) / 1024,
        "mib_per_board": max(k / 1024 / b for k, b in zip(rss, per_rank)),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cosim", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--boards", type=int, nargs="+", default=[16, 64, 1024])
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    # mpirun as the tests run it (tests/sim/mpi/mpi_lib.sh: root in
    # containers, more ranks than cores, shared memory between ranks).
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "sim", "mpi", "mpi_lib.sh")
    for line in open(lib):
        if line.startswith("export "):
            os.environ.update(kv.split("=", 1) for kv in line.split()[1:])
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in a.boards:
            for r in a.ranks:
                rows.append(run(a.cosim, a.mpirun, n, r, a.seconds, work))
                if not a.json:
                    x = rows[-1]
                    base = next(y for y in rows if y["boards"] == n)
                    eff = x["sim_us_per_wall_s"] / base["sim_us_per_wall_s"] * base["ranks"] / x["ranks"]
                    print(f"{n:5} boards, {r} rank(s): {x['sim_us_per_wall_s']:9.2f} us simulated per wall s "
                          f"({x['board_cycles_per_s']:.3g} board cycles/s), parallel efficiency "
                          f"{eff * 100:5.1f}%, peak memory {x['max_rss_mib']:7.1f} MiB "
                          f"({x['mib_per_board']:.2f} MiB per board), start-up {x['start_s']:.1f} s",
                          flush=True)
    if a.json:
        print(json.dumps(rows, indent=1))
    else:
        big = [x for x in rows if x["ranks"] == 1]
        if len(big) >= 2:
            lo, hi = big[0], big[-1]
            slope = (hi["max_rss_mib"] - lo["max_rss_mib"]) / (hi["boards"] - lo["boards"])
            mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
            print(f"memory grows {slope:.2f} MiB per board (one rank, {lo['boards']} to {hi['boards']} "
                  f"boards): this machine's {mem / 1024:.0f} GiB hold about {int(mem / slope)} boards")


if __name__ == "__main__":
    main()
