#!/usr/bin/python3
"""The modelled exchange (sync.link "model", the fast mode) against the
board tops' own message engines ("rtl") on every 2-board tests/sim/sync
scenario (docs/cosim.md, "The timing link"): each scenario runs both ways;
the model's run must meet the scenario's expectations (as its own test
asks), and the engines' figures must agree with the model's within the
bounds below: the offset's p99 and mean, the lock time, and for each link
change its measured shift, overshoot and recovery. A star of more boards
needs an engine per port, not built yet (the scenario runner refuses it).

usage: model_vs_rtl.py LIGHTRAIL_COSIM SCENARIO.json... (prints a table)
"""
import json
import os
import subprocess
import sys
import tempfile

# How far the two may differ: p99 and mean of |offset| to the grandmaster
# (ps), and the lock time (the engines' exchange is stamped coarsely until
# both DDMTDs pair, so it locks later; us).
# Each bound is max(absolute, relative x the model's figure). The overshoot
# after a path step of nanoseconds is 35-40 ps larger through the engines
# (2 ns step: 97 against 60 ps; an uncompensated 1.6 ns relock: 101 against
# 67 ps), an open difference of the exchange's timing (docs/cosim.md).
BOUNDS = {"p99_ps": (10.0, 0.05), "mean_ps": (5.0, 0.02), "lock_us": (1000.0, 0.0),
          "measured_shift_ps": (5.0, 0.02), "overshoot_ps": (40.0, 0.25), "recovery_us": (50.0, 0.25)}


def apart(name, a, b):
    """Why a (model) and b (rtl) are too far apart, or None."""
    absolute, relative = BOUNDS[name]
    bound = max(absolute, relative * abs(a))
    if abs(a - b) > bound:
        return "%s: %.1f against %.1f, %.1f apart (at most %.1f)" % (name, a, b, abs(a - b), bound)
    return None


def run(cosim, doc, where):
    path = os.path.join(where, "scenario.json")
    report = os.path.join(where, "report.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    p = subprocess.run([cosim, "run", path, "--report", report], capture_output=True, text=True, timeout=900)
    if not os.path.exists(report):
        raise RuntimeError("no report: %s" % (p.stdout + p.stderr).strip()[-500:])
    with open(report) as f:
        r = json.load(f)
    unmet = [l.strip() for l in p.stdout.splitlines() if l.startswith("  expected: ")]
    os.unlink(report)
    return r["sync"], unmet


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cosim, failed = sys.argv[1], []
    print("%-28s %9s %9s %9s %9s %9s %9s" % ("scenario", "p99 mod", "p99 rtl", "mean mod", "mean rtl",
                                             "lock mod", "lock rtl"))
    with tempfile.TemporaryDirectory() as where:
        for path in sys.argv[2:]:
            name = os.path.basename(path)[:-5]
            with open(path) as f:
                doc = json.load(f)
            if doc.get("boards") != 2 or doc["sync"].get("link", "model") != "model":
                print("%s: not a 2-board scenario on the modelled exchange" % name)
                return 2
            model, model_unmet = run(cosim, doc, where)
            doc["sync"]["link"] = "rtl"
            rtl, rtl_unmet = run(cosim, doc, where)
            m, r = model["offset_ps"], rtl["offset_ps"]
            lm, lr = model["lock_time_us"], rtl["lock_time_us"]
            print("%-28s %9.1f %9.1f %9.1f %9.1f %9s %9s" % (name, m["p99"], r["p99"], m["mean"], r["mean"],
                                                           "%.0f" % lm if lm is not None else "never",
                                                           "%.0f" % lr if lr is not None else "never"))
            why = ["model: " + u for u in model_unmet]
            why += [w for w in (apart("p99_ps", m["p99"], r["p99"]), apart("mean_ps", m["mean"], r["mean"])) if w]
            if (lm is None) != (lr is None):
                why.append("lock: %s against %s us" % (lm, lr))
            elif lm is not None:
                why += [w for w in [apart("lock_us", lm, lr)] if w]
            for cm, cr in zip(model.get("link_changes", []), rtl.get("link_changes", [])):
                if cm.get("judged") != cr.get("judged") or cm["lock_kept"] != cr["lock_kept"]:
                    why.append("link change at %.0f us: judged %s / %s, lock kept %s / %s" %
                               (cm["at_us"], cm.get("judged"), cr.get("judged"), cm["lock_kept"], cr["lock_kept"]))
                    continue
                if cm.get("judged"):
                    why += ["link change at %.0f us: %s" % (cm["at_us"], w)
                            for w in (apart(k, cm[k], cr[k]) for k in ("measured_shift_ps", "overshoot_ps",
                                                                          "recovery_us")) if w]
            for w in why:
                print("  %s: %s" % (name, w))
            failed += [name] if why else []
    print("model_vs_rtl: %d of %d scenarios agree" % (len(sys.argv) - 2 - len(failed), len(sys.argv) - 2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
