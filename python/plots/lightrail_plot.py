#!/usr/bin/python3
"""lightrail-plot: pictures of what the boards did and of the experiments.

  lightrail-plot cosim REPORT.json --out DIR [--boundaries TABLE.json]
  lightrail-plot eval RESULT.json --out DIR
  lightrail-plot check

cosim: from a lightrail-cosim report (run or serve), each as PNG and SVG:
  timeline-b<B>-<K>  every port's wavelength and gate around the K-th
                  traced window of board B: a swap, or a boundary into an
                  event step where a phase's circuits are set up
                  (report: boards[].edge_traces)
  clock-offset    every follower's offset to the grandmaster over the run,
                  lock changes and reference losses marked
                  (report: sync.boards[].offset_trace, lock_events, holdover)
  boundary-skew   the distribution of the step-boundary skew across boards
                  (report: sync.slot_skew_ps_samples)
  plan-vs-measured  with --boundaries (scripts/demo_report.py --json): the
                  planner's predictions against the switch edges measured
eval: from `lightrail eval EXPERIMENT --json`: the experiment's table drawn
  as its paper draws it (opus: overhead against reconfiguration latency per
  GPU count; pas: acceleration against job density; fastconv: time to 90%
  of peak accuracy; power_cost: the sensitivity of the ratios).

Debian's python3 and python3-matplotlib (the interpreter named above, so a
python3 of another installation earlier on PATH is not used). Exit status:
0 pictures written, 1 the input lacks what a picture needs, 2 bad command
line or unreadable input, 3 matplotlib is missing. docs/plots.md.
"""
import argparse
import json
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colors, ticker
    from matplotlib.patches import Patch
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.stderr.write("lightrail-plot: matplotlib is missing (%s); install Debian's python3-matplotlib "
                     "(scripts/setup.sh does)\n" % e)
    sys.exit(3)


class InputProblem(Exception):
    """The input lacks what a picture needs (exit 1)."""


# Reproducible files: no dates, fixed SVG ids, real text in the SVG.
plt.rcParams.update({"svg.hashsalt": "lightrail", "svg.fonttype": "none", "figure.dpi": 100,
                     "savefig.dpi": 100, "axes.grid": True, "grid.alpha": 0.3, "font.size": 9})

# Time units for axes: the largest whose value of the data's span is >= 1.
UNITS = [("s", 1e12), ("ms", 1e9), ("us", 1e6), ("ns", 1e3), ("ps", 1.0)]


def unit_for(span_ps):
    for name, scale in UNITS:
        if abs(span_ps) >= scale:
            return name, scale
    return "ps", 1.0


def time_label(ps):
    """A time in ps as text in the unit that fits it: 1500 -> '1.5 ns'."""
    if ps == 0:
        return "0"
    name, scale = unit_for(ps)
    return "%s %s" % (("%.3g" % (ps / scale)), name)


def symlog_time_axis(axis):
    """Tick labels of a symlog axis whose data are ps, each in its own unit."""
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: time_label(v)))


def save(fig, out, stem, written):
    """PNG and SVG, each written whole or not at all (a temporary file beside
    it, renamed), so a killed run or two at once leave no half picture."""
    for ext in ("png", "svg"):
        path = os.path.join(out, "%s.%s" % (stem, ext))
        tmp = "%s.tmp.%d" % (path, os.getpid())
        try:
            fig.savefig(tmp, format=ext, metadata={"Date": None} if ext == "svg" else {"Software": None},
                        bbox_inches="tight")
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise
        written.append(path)
    plt.close(fig)


def load(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("lightrail-plot: cannot read the %s %s: %s" % (what, path, e))


# ----------------------------------------------------------------- cosim

WAVELENGTH_CMAP = plt.get_cmap("turbo")


def timeline(board, k, trace, out, written):
    """Each port a row: lit stretches coloured by wavelength, dark ones grey."""
    start = trace["start_wavelength_gate"]
    ports = len(start)
    t0, t1 = trace["from_ps"], trace["until_ps"]
    name, scale = unit_for(t1 - t0)
    state = [list(s) for s in start]  # [wavelength, gate]
    since = [t0] * ports
    spans = [[] for _ in range(ports)]  # (from, to, wavelength, gate)
    for t, port, kind, value in trace["edges"]:
        if not 0 <= port < ports:
            raise InputProblem("board %d window %d: edge on port %d of %d" % (board, k, port, ports))
        spans[port].append((since[port], t, state[port][0], state[port][1]))
        since[port] = t
        state[port][0 if kind == "wavelength" else 1] = value
    for p in range(ports):
        spans[p].append((since[p], t1, state[p][0], state[p][1]))
    fig, ax = plt.subplots(figsize=(9, 0.28 * ports + 1.6))
    norm = colors.Normalize(0, 63)
    for p in range(ports):
        lit = [(a / scale, (b - a) / scale) for a, b, w, g in spans[p] if g and b > a]
        lit_c = [WAVELENGTH_CMAP(norm(w)) for a, b, w, g in spans[p] if g and b > a]
        dark = [(a / scale, (b - a) / scale) for a, b, w, g in spans[p] if not g and b > a]
        ax.broken_barh(lit, (p - 0.4, 0.8), facecolors=lit_c, edgecolor="none")
        ax.broken_barh(dark, (p - 0.4, 0.8), facecolors="0.85", edgecolor="0.6", hatch="////", linewidth=0)
        for a, b, w, g in spans[p]:
            if g and (b - a) > 0.06 * (t1 - t0):
                r, gr, bl, _ = WAVELENGTH_CMAP(norm(w))
                ink = "black" if 0.299 * r + 0.587 * gr + 0.114 * bl > 0.55 else "white"
                ax.text((a + b) / 2 / scale, p, str(w), ha="center", va="center", fontsize=6.5, color=ink)
    ax.axvline(0, color="k", linewidth=1.2)
    what = "swap" if trace["kind"] == "swap" else "boundary into an event step"
    ax.text(0, ports - 0.3, " %s (%s board time)" % (what, time_label(trace["at_ps"])), va="bottom", fontsize=8)
    ax.set_xlim(t0 / scale, t1 / scale)
    ax.set_ylim(-0.6, ports + 0.6)
    ax.set_yticks(range(ports))
    ax.set_ylabel("port")
    ax.set_xlabel("board time from the %s (%s)" % (what, name))
    ax.grid(axis="y", visible=False)
    sm = plt.cm.ScalarMappable(norm=norm, cmap=WAVELENGTH_CMAP)
    fig.colorbar(sm, ax=ax, pad=0.01, fraction=0.03).set_label("wavelength channel (lit)")
    ax.legend(handles=[Patch(facecolor="0.85", edgecolor="0.6", hatch="////",
                             label="gate closed (dark); a gap under ~0.3% of the window is too narrow "
                                   "to show")],
              loc="upper left", bbox_to_anchor=(0, -0.12), frameon=False, fontsize=8)
    dropped = trace.get("edges_dropped", 0)
    ax.set_title("board %d, %s: every port's wavelength and gate (%d edges%s)" %
                 (board, what, len(trace["edges"]), ", %d more not kept" % dropped if dropped else ""))
    save(fig, out, "timeline-b%d-%d" % (board, k), written)


def clock_offset(sync, out, written):
    followers = [b for b in sync.get("boards", []) if b.get("offset_trace", {}).get("t_us")]
    if not followers:
        raise InputProblem("sync.boards[].offset_trace: no follower has offset samples "
                           "(a report of lightrail-cosim before issue 12, or a run shorter than one PPS)")
    fig, (top, low) = plt.subplots(2, 1, figsize=(9, 6.5), gridspec_kw={"height_ratios": [1.2, 1]})
    measure_from_us = sync.get("measure_from_ps", 0) / 1e6
    cmap = plt.get_cmap("tab10")
    span_us = max(b["offset_trace"]["t_us"][-1] for b in followers)
    name, scale = unit_for(span_us * 1e6)
    for i, b in enumerate(followers):
        tr = b["offset_trace"]
        c = cmap(i % 10)
        t = [x * 1e6 / scale for x in tr["t_us"]]
        label = "board %d%s" % (b["board"], " (PTP only)" if b.get("ptp_only") else "")
        style = "--" if b.get("ptp_only") else "-"
        for ax in (top, low):
            ax.fill_between(t, tr["min_ps"], tr["max_ps"], color=c, alpha=0.35, linewidth=0, step="post")
            mid = [(lo + hi) / 2 for lo, hi in zip(tr["min_ps"], tr["max_ps"])]
            ax.plot(t, mid, style, color=c, linewidth=0.8, label=label if ax is top else None,
                    drawstyle="steps-post")
        for ev in b.get("lock_events", []):
            x = ev["at_us"] * 1e6 / scale
            for ax in (top, low):
                ax.axvline(x, color=c, linestyle=":" if ev["locked"] else "-.", linewidth=0.9)
            top.annotate("lock" if ev["locked"] else "unlock", (x, 1), xycoords=("data", "axes fraction"),
                         rotation=90, va="top", ha="right", fontsize=6.5, color=c)
    for h in sync.get("holdover", {}).get("events", []):
        a, d = h["from_us"] * 1e6 / scale, h["for_us"] * 1e6 / scale
        for ax in (top, low):
            ax.axvspan(a, a + d, color="0.5", alpha=0.18, linewidth=0)
        top.annotate("board %d reference lost (holdover)" % h["board"], (a + d / 2, 0.02),
                     xycoords=("data", "axes fraction"), ha="center", fontsize=7)
    top.set_yscale("symlog", linthresh=100)
    symlog_time_axis(top.yaxis)
    top.set_ylabel("offset to the grandmaster")
    top.set_title("clock offset of every follower against the grandmaster (PPS edges, true time; "
                  "band: least to greatest of each point's %d samples)" %
                  max(b["offset_trace"]["samples_per_point"] for b in followers), fontsize=8.5)
    top.legend(loc="center right", fontsize=7)
    top.set_xlabel("simulated time (%s)" % name)
    # The lower panel: from the measurement start on, in ps, where the locked
    # boards are (the linear scale shows noise and bias).
    # A run that ended before the measurement start: from the last lock on,
    # else (no lock, or one near the end) its second half.
    zoom_us = measure_from_us
    if zoom_us >= span_us:
        locks = [ev["at_us"] for b in followers for ev in b.get("lock_events", []) if ev["locked"]]
        zoom_us = max(locks) if locks and max(locks) < 0.8 * span_us else span_us / 2
    low.set_xlim(zoom_us * 1e6 / scale, span_us * 1e6 / scale)
    vis = [v for b in followers for t, lo, hi in zip(b["offset_trace"]["t_us"], b["offset_trace"]["min_ps"],
                                                      b["offset_trace"]["max_ps"])
           if t >= zoom_us for v in (lo, hi)]
    if vis:
        lo, hi = min(vis), max(vis)
        pad = max(1.0, 0.08 * (hi - lo))
        low.set_ylim(lo - pad, hi + pad)
    low.set_ylabel("offset (ps), from %s on" % time_label(zoom_us * 1e6))
    low.set_xlabel("simulated time (%s)" % name)
    top.set_xlim(0, span_us * 1e6 / scale)
    fig.tight_layout()
    save(fig, out, "clock-offset", written)


def boundary_skew(sync, out, written):
    samples = sync.get("slot_skew_ps_samples") or []
    if not samples:
        raise InputProblem("sync.slot_skew_ps_samples: no step boundary switched on every board after "
                           "the measurement start (no shared schedule, or a report before issue 12)")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    hi = max(samples)
    bins = max(10, min(60, int(math.sqrt(len(samples)) * 2)))
    n = sync.get("slot_skew_boundaries", len(samples))
    # Decimated samples are evenly spaced order statistics: each stands for
    # n / len(samples) boundaries.
    ax.hist(samples, bins=bins, range=(0, hi * 1.02 if hi > 0 else 1), color="tab:blue", edgecolor="white",
            weights=[n / len(samples)] * len(samples))
    p99 = sync.get("slot_skew_ps_p99")
    if p99 is not None:
        ax.axvline(p99, color="tab:red", linewidth=1.2)
        right = p99 > 0.7 * hi  # the label on the side with room
        ax.annotate(("p99 %.1f ps " if right else " p99 %.1f ps") % p99, (p99, 0.95),
                    xycoords=("data", "axes fraction"), color="tab:red", fontsize=8, va="top",
                    ha="right" if right else "left")
    ax.set_xlabel("step-boundary skew across boards: latest minus earliest switch edge (ps)")
    ax.set_ylabel("boundaries")
    ax.set_title("distribution of the step-boundary skew over %d boundaries%s" %
                 (n, "" if n == len(samples) else " (%d evenly spaced order statistics)" % len(samples)))
    fig.tight_layout()
    save(fig, out, "boundary-skew", written)


def plan_vs_measured(table, out, written):
    rows = [r for r in table.get("rows", []) if r.get("measured_next_ps") is not None]
    if not rows:
        raise InputProblem("boundaries: no phase boundary with a measured next boundary")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    pred = [r["predicted_next_ps"] - r["boundary_ps"] for r in rows]
    meas = [r["measured_next_ps"] - r["boundary_ps"] for r in rows]
    name, scale = unit_for(max(pred + meas))
    phases = sorted({r["phase"] for r in rows})
    cmap = plt.get_cmap("tab10")
    for i, ph in enumerate(phases):
        xs = [p / scale for p, r in zip(pred, rows) if r["phase"] == ph]
        ys = [m / scale for m, r in zip(meas, rows) if r["phase"] == ph]
        left.scatter(xs, ys, color=cmap(i % 10), label=ph, zorder=3)
    lim = max(pred + meas) / scale * 1.08
    left.plot([0, lim], [0, lim], color="0.4", linewidth=0.8, label="measured = predicted")
    left.set_xlim(0, lim)
    left.set_ylim(0, lim)
    left.set_xlabel("predicted: boundary to the next phase's circuits (%s)" % name)
    left.set_ylabel("measured on the switch edges (%s)" % name)
    left.set_title("phase communication: planner against co-simulation", fontsize=9)
    left.legend(fontsize=7)
    guard = table.get("reconfiguration_ps")
    dark = [r for r in rows if r.get("dark_min_ps") is not None]
    if dark:
        x = range(len(dark))
        lo = [r["dark_min_ps"] / 1e3 for r in dark]
        hi = [r["dark_max_ps"] / 1e3 for r in dark]
        right.bar(x, [h - l for l, h in zip(lo, hi)], bottom=lo, color="tab:orange", width=0.6,
                  label="measured dark time (least..greatest over the boards)")
        right.scatter(x, hi, color="tab:orange", marker="_", s=80)
        if guard is not None:
            right.axhline(guard / 1e3, color="tab:blue", linewidth=1.2,
                          label="planner's reconfiguration (guard) %s" % time_label(guard))
        right.set_xticks(list(x))
        right.set_xticklabels(["%s\n%s" % (r["phase"], time_label(r["boundary_ps"])) for r in dark],
                              fontsize=6.5, rotation=30, ha="right")
        right.set_ylim(0, max(hi + [guard / 1e3 if guard else 0]) * 1.25)
        right.set_ylabel("reconfiguration time (ns)")
        right.legend(fontsize=7, loc="upper left")
    right.set_title("reconfiguration: predicted guard against measured dark time", fontsize=9)
    fig.tight_layout()
    save(fig, out, "plan-vs-measured", written)


def cosim(args):
    report = load(args.report, "report")
    if not isinstance(report, dict) or "boards" not in report:
        raise SystemExit("lightrail-plot: %s is not a lightrail-cosim report (no \"boards\")" % args.report)
    written, missing = [], []
    traced = 0
    for b in report["boards"]:
        for k, trace in enumerate(b.get("edge_traces", [])):
            timeline(b["board"], k, trace, args.out, written)
            traced += 1
    if not traced:
        missing.append("timeline: no board swapped a schedule or set up an event step's circuits "
                       "(boards[].edge_traces empty)")
    sync = report.get("sync")
    if isinstance(sync, dict):
        for draw in (clock_offset, boundary_skew):
            try:
                draw(sync, args.out, written)
            except InputProblem as e:
                missing.append(str(e))
    else:
        missing.append("clock offset and boundary skew: the run had no clock distribution (sync)")
    if args.boundaries:
        try:
            plan_vs_measured(load(args.boundaries, "boundary table"), args.out, written)
        except InputProblem as e:
            missing.append(str(e))
    return written, missing


# ------------------------------------------------------------------ eval


def rows_of(result, *names):
    cols = result.get("columns", [])
    try:
        idx = [cols.index(n) for n in names]
    except ValueError:
        raise InputProblem("%s result: columns %s lack one of %s" % (result.get("kind"), cols, list(names)))
    return [[r[i] for i in idx] for r in result.get("rows", [])]


def eval_opus(result, out, written):
    rows = rows_of(result, "gpus", "reconfiguration_us", "overhead_pct_no_overlap", "overhead_pct_overlap")
    fig, ax = plt.subplots(figsize=(7, 4.2))
    cmap = plt.get_cmap("viridis")
    sizes = sorted({r[0] for r in rows})
    for i, g in enumerate(sizes):
        pts = sorted((r[1], r[2], r[3]) for r in rows if r[0] == g)
        c = cmap(i / max(1, len(sizes) - 1) * 0.85)
        ax.plot([p[0] * 1e6 for p in pts], [p[1] for p in pts], "o-", color=c, label="%d GPUs" % g)
        ax.plot([p[0] * 1e6 for p in pts], [p[2] for p in pts], "s--", color=c, markersize=4,
                label="%d GPUs, reconfiguration overlapped" % g)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: time_label(v)))
    # Linear while the overheads are small (the paper's regime), symlog when
    # the slow switches' overheads would flatten the rest.
    if max(max(r[2], r[3]) for r in rows) > 50:
        ax.set_yscale("symlog", linthresh=1)
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g%%" % v))
    ax.set_xlabel("OCS reconfiguration latency")
    ax.set_ylabel("training iteration overhead over an electrical rail")
    ax.set_title("Opus: photonic-rail overhead against reconfiguration latency (%s)" %
                 result.get("notes", "").split(";")[0], fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "opus-overhead", written)


def eval_pas(result, out, written):
    rows = rows_of(result, "pattern", "nodes_per_job", "megabytes", "density", "acceleration")
    panels = sorted({(r[0], r[1]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(3.4 * len(panels), 3.6), sharey=True, squeeze=False)
    sizes = sorted({r[2] for r in rows})
    cmap = plt.get_cmap("plasma")
    for ax, (pattern, nodes) in zip(axes[0], panels):
        for i, mb in enumerate(sizes):
            pts = sorted((r[3], r[4]) for r in rows if (r[0], r[1], r[2]) == (pattern, nodes, mb))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=cmap(i / max(1, len(sizes)) * 0.9),
                    label="%g MB" % mb)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "%g" % v))
        ax.axhline(1, color="0.4", linewidth=0.8)
        ax.set_title("%s, %d nodes per job" % (pattern.replace("_", " "), nodes), fontsize=9)
        ax.set_xlabel("job density (jobs sharing the EPS)")
    axes[0][0].set_ylabel("acceleration (EPS time / PAS time)")
    axes[0][-1].legend(title="data per all-reduce", fontsize=7, title_fontsize=7)
    fig.suptitle("PAS: acceleration against density, per data size and MPI pattern", fontsize=10)
    fig.tight_layout()
    save(fig, out, "pas-acceleration", written)


def eval_fastconv(result, out, written):
    rows = [r for r in rows_of(result, "job", "eps_only_s", "pas_s", "pas_fastconv_s")
            if r[0] not in ("mean", "not reached")]
    curves = result.get("curves")
    fig, axes = plt.subplots(1, 2 if curves else 1, figsize=(11 if curves else 6, 4), squeeze=False)
    policies = [("EPS only", "0.6"), ("PAS", "tab:blue"), ("PAS + FastConv", "tab:green")]
    bar = axes[0][-1]
    w = 0.27
    for k, (label, c) in enumerate(policies):
        xs = [i + (k - 1) * w for i in range(len(rows))]
        ys = [r[k + 1] if r[k + 1] is not None else 0 for r in rows]
        bar.bar(xs, ys, width=w, color=c, label=label)
        for x, r in zip(xs, rows):
            if r[k + 1] is None:
                bar.text(x, 0, "never", rotation=90, ha="center", va="bottom", fontsize=7)
    bar.set_xticks(range(len(rows)))
    bar.set_xticklabels([r[0] for r in rows])
    bar.set_ylabel("time from arrival to 90% of peak accuracy (s)")
    bar.set_title("time to accuracy per job", fontsize=9)
    bar.legend(fontsize=7)
    if curves:
        ax = axes[0][0]
        styles = {"eps_only": ("0.6", ":"), "pas": ("tab:blue", "--"), "pas_fastconv": ("tab:green", "-")}
        names = {"eps_only": "EPS only", "pas": "PAS", "pas_fastconv": "PAS + FastConv"}
        for policy, jobs in curves.items():
            c, ls = styles.get(policy, ("k", "-"))
            for j, job in enumerate(jobs):
                ax.plot(job["t_s"], job["progress"], ls, color=c, linewidth=1.1,
                        label=names.get(policy, policy) if j == 0 else None)
        # Up to where the slowest job is well past 90%.
        ends = []
        for jobs in curves.values():
            for job in jobs:
                t90 = next((t for t, p in zip(job["t_s"], job["progress"]) if p >= 0.9), None)
                if t90 is not None and job["t_s"]:
                    ends.append(job["t_s"][0] + 2 * (t90 - job["t_s"][0]))
        if ends:
            ax.set_xlim(0, max(ends))
        ax.axhline(0.9, color="tab:red", linewidth=0.8)
        ax.annotate("90% of peak", (0.01, 0.9), xycoords=("axes fraction", "data"), va="bottom",
                    fontsize=7, color="tab:red")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("accuracy / peak accuracy")
        ax.set_ylim(0, 1.02)
        ax.set_title("accuracy of every job over time", fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle("FastConv: time to accuracy", fontsize=10)
    fig.tight_layout()
    save(fig, out, "fastconv-time-to-accuracy", written)


def eval_power_cost(result, out, written):
    rows = rows_of(result, "case", "switch_power_ratio", "switch_cost_ratio")
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.22 * len(rows) + 1.5), sharey=True)
    y = list(range(len(rows)))[::-1]
    for ax, k, label in ((axes[0], 1, "electrical / photonic rail switch power"),
                         (axes[1], 2, "electrical / photonic rail switch cost")):
        ax.barh(y, [r[k] for r in rows], color=["tab:red" if r[0] == "baseline" else "tab:blue" for r in rows])
        ax.axvline(rows[0][k], color="tab:red", linewidth=0.8)
        ax.set_xlabel(label)
    axes[0].set_yticks(y)
    axes[0].set_yticklabels([r[0] for r in rows], fontsize=7)
    fig.suptitle("power and cost ratios, and their sensitivity to each part (x0.5, x2)", fontsize=10)
    fig.tight_layout()
    save(fig, out, "power-cost", written)


def evaluate(args):
    result = load(args.result, "experiment result")
    kinds = {"opus": eval_opus, "pas": eval_pas, "fastconv": eval_fastconv, "power_cost": eval_power_cost}
    kind = result.get("kind") if isinstance(result, dict) else None
    if kind not in kinds:
        raise SystemExit("lightrail-plot: %s: \"kind\" is %r, not one of %s (the output of `lightrail eval "
                         "--json`)" % (args.result, kind, ", ".join(kinds)))
    written = []
    kinds[kind](result, args.out, written)
    return written, []


def main():
    ap = argparse.ArgumentParser(prog="lightrail-plot", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cosim", help="pictures of a lightrail-cosim report")
    c.add_argument("report")
    c.add_argument("--out", required=True, help="directory for the PNG and SVG files")
    c.add_argument("--boundaries", help="phase-boundary table (scripts/demo_report.py --json)")
    e = sub.add_parser("eval", help="pictures of `lightrail eval --json` output")
    e.add_argument("result")
    e.add_argument("--out", required=True, help="directory for the PNG and SVG files")
    sub.add_parser("check", help="exit 0 when pictures can be made (matplotlib is there), else 3")
    args = ap.parse_args()
    if args.command == "check":
        return 0
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as err:
        sys.stderr.write("lightrail-plot: --out %s: %s\n" % (args.out, err))
        return 2
    try:
        written, missing = (cosim if args.command == "cosim" else evaluate)(args)
    except InputProblem as err:
        sys.stderr.write("lightrail-plot: %s\n" % err)
        return 1
    except OSError as err:
        sys.stderr.write("lightrail-plot: cannot write a picture into %s: %s\n" % (args.out, err))
        return 2
    except (KeyError, TypeError, IndexError, ValueError) as err:
        sys.stderr.write("lightrail-plot: the input is not as lightrail writes it (%s: %s)\n" %
                         (type(err).__name__, err))
        return 2
    for path in written:  # on stderr, as `lightrail plan --out` says it: stdout may be --json's
        sys.stderr.write("wrote %s\n" % path)
    for m in missing:
        sys.stderr.write("lightrail-plot: no picture: %s\n" % m)
    if not written:
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit as e:
        if isinstance(e.code, str):
            sys.stderr.write(e.code + "\n")
            sys.exit(2)
        raise
