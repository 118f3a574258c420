"""Real training for `examples/training_loop.py --ddp N`: a small model trained
with DistributedDataParallel (gloo) on N CPU processes, each rank's
collectives observed and its phases driven on lightraild by lightrail.torch
(docs/torch.md). Data: generated (a fixed random teacher network labels
Gaussian inputs), so nothing is downloaded.

The parent prints, from the ranks' traces: the detected pattern, the plan
the daemon made of it, every phase boundary predicted and measured; and
draws the training curve.
"""

import json
import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

INPUTS, CLASSES, BATCH = 16, 4, 32


def make_model(hidden):
    """Linear, BatchNorm (its buffers make DDP broadcast at every forward),
    Linear, Linear: three layers, so DDP's gradients fill several buckets."""
    return torch.nn.Sequential(torch.nn.Linear(INPUTS, hidden), torch.nn.BatchNorm1d(hidden), torch.nn.ReLU(),
                               torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, CLASSES))


def batches(rank, seed):
    """This rank's shard of an endless generated data set."""
    teacher = torch.nn.Linear(INPUTS, CLASSES)
    g = torch.Generator().manual_seed(seed)  # the same teacher on every rank
    with torch.no_grad():
        teacher.weight.copy_(torch.randn(CLASSES, INPUTS, generator=g))
        teacher.bias.zero_()
    data = torch.Generator().manual_seed(seed * 1000 + rank + 1)
    while True:
        x = torch.randn(BATCH, INPUTS, generator=data)
        with torch.no_grad():
            y = teacher(x).argmax(1)
        yield x, y


def _rank(rank, world, port, opts):
    import lightrail.torch as lt

    torch.set_num_threads(1)  # N ranks share the machine's cores
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
    torch.manual_seed(opts["seed"] + rank)  # ranks start apart: DDP's start-up broadcast makes them equal
    lt.enable(daemon=opts["daemon"], token_file=opts["token_file"], trace_dir=opts["trace_dir"],
              job_name="ddp-%d" % world, observe_iterations=opts["observe"],
              target_accuracy=opts["target_accuracy"])
    # DDP's first gradient bucket is 1 MB unless told (its documented knob):
    # the same cap for every bucket, so this small model's gradients come
    # in several all-reduces overlapping the backward pass.
    dist._DEFAULT_FIRST_BUCKET_BYTES = int(opts["bucket_cap_mb"] * 1024 * 1024)
    model = torch.nn.parallel.DistributedDataParallel(make_model(opts["hidden"]), bucket_cap_mb=opts["bucket_cap_mb"])
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data = batches(rank, opts["seed"])
    curve = []
    for it in range(opts["iterations"]):
        x, y = next(data)
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        # Every rank's loss and accuracy: one all-gather per iteration.
        mine = torch.stack([loss.detach(), (out.argmax(1) == y).float().mean()])
        every = [torch.zeros(2) for _ in range(world)]
        dist.all_gather(every, mine)
        mean = torch.stack(every).mean(0)
        curve.append({"iteration": it, "loss": float(mean[0]), "accuracy": float(mean[1])})
        if it % 5 == 4:
            lt.progress(round(float(mean[1]), 4))
    lt.disable()
    if rank == 0:
        with open(os.path.join(opts["out"], "curve.json"), "w") as f:
            json.dump(curve, f)
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_trace(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def report(out, world):
    """Prints the pattern, the plan and every boundary from the traces."""
    traces = [read_trace(os.path.join(out, "trace", "rank%d.jsonl" % r)) for r in range(world)]
    t0 = traces[0]
    pattern = next(r for r in t0 if r["type"] == "pattern")
    print("detected pattern (iteration %d):" % pattern["observed_iteration"])
    for p in pattern["phases"]:
        print("  phase %d %-10s %-14s %-6s %8d bytes in %d call(s), groups %s, compute before %.2f ms, from %s" %
              (p["index"], p["name"], p["collective"], p["algorithm"], p["bytes"], p["count"], p["groups"],
               p["compute_ps"] / 1e9, ",".join(p["sources"])))
    for e in pattern["electrical"]:
        print("  off circuits: %s (%s, %s bytes, from %s)" % (e["op"], e["collective"], e["bytes"], e["source"]))
    job = next((r for r in t0 if r["type"] == "job"), None)
    if job is None or job["reply"] is None:
        print("no job at the daemon%s" % (": " + job["error"] if job and job.get("error") else ""))
        return
    plan = job["reply"].get("plan")
    print("job %s: %s on boards %s" % (job["reply"]["id"], job["reply"]["state"], job["reply"]["boards"]))
    if plan:
        print("plan: iteration %.3f us, reconfiguration %.3f us" %
              (plan["iteration_ps"] / 1e6, plan["reconfiguration_ps"] / 1e6))
        for p in plan["phases"]:
            print("  %-10s compute %.3f us, communication %.3f us, %d reconfiguration(s)" %
                  (p["phase"], p["compute_ps"] / 1e6, p["comm_ps"] / 1e6, p["reconfigurations"]))
    # Predicted: where the plan puts each phase in its iteration (the
    # compute and communication before it). Measured: where rank 0 reached
    # the boundary in its iteration (host clock) and where the boards took it.
    offset, acc = {}, 0
    for p in plan["phases"] if plan else []:
        acc += p["compute_ps"]
        offset[p["phase"]] = acc
        acc += p["comm_ps"]
    starts = {r["iteration"]: r["time_ns"] for r in t0 if r["type"] == "iteration"}
    bounds = [r for r in t0 if r["type"] == "boundary"]
    print("boundaries (predicted: plan; measured: rank 0's host clock from its iteration's start; boards):")
    print("  %5s %4s %-10s %14s %14s %20s %12s %10s" %
          ("event", "iter", "phase", "predicted ms", "measured ms", "board ps", "lead ns", "wait ms"))
    for b in bounds:
        waits = [next(r for r in t if r["type"] == "boundary" and r["event"] == b["event"]) for t in traces]
        wait = max(w["released_ns"] - w["reached_ns"] for w in waits) / 1e6
        lead = (b["boundary_ps"] - b["requested_board_ps"]) / 1e3 if b["boundary_ps"] is not None else float("nan")
        print("  %5d %4d %-10s %14.3f %14.3f %20s %12.1f %10.2f" %
              (b["event"], b["iteration"], b["name"], offset.get(b["name"], 0) / 1e9,
               (b["reached_ns"] - starts[b["iteration"]]) / 1e6, b["boundary_ps"], lead, wait))


def plot(out, world, observe):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(os.path.join(out, "curve.json")) as f:
        curve = json.load(f)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    its = [c["iteration"] for c in curve]
    ax.plot(its, [c["loss"] for c in curve], label="loss (mean of ranks)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("cross-entropy loss")
    ax2 = ax.twinx()
    ax2.plot(its, [c["accuracy"] for c in curve], color="tab:orange", label="accuracy")
    ax2.set_ylabel("accuracy")
    ax2.set_ylim(0, 1)
    ax.axvline(observe, color="grey", linestyle=":", linewidth=1)
    ax.annotate(" job submitted: phases\n driven on lightraild", (observe, ax.get_ylim()[1]), va="top", fontsize=8,
                color="grey")
    lines = ax.get_lines()[:1] + ax2.get_lines()
    ax.legend(lines, [ln.get_label() for ln in lines], loc="center right", fontsize=8)
    ax.set_title("DDP (gloo, %d CPU processes) through lightrail.torch" % world, fontsize=9)
    fig.tight_layout()
    path = os.path.join(out, "train-curve.png")
    fig.savefig(path, dpi=120)
    return path


def main(a):
    try:
        import lightrail.torch  # noqa: F401  (fail here, in the parent, with the reason)
    except ImportError as e:
        print("training_loop --ddp: lightrail.torch cannot be imported (%s); from the build tree run it with "
              "PYTHONPATH=build/python" % e, file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    opts = {"daemon": a.daemon, "token_file": a.token_file, "trace_dir": os.path.join(a.out, "trace"),
            "out": a.out, "iterations": a.iterations, "hidden": a.hidden, "bucket_cap_mb": a.bucket_cap_mb,
            "observe": a.observe, "target_accuracy": a.target_accuracy, "seed": 1}
    # Forked, not spawned: the ranks inherit the imported torch instead of
    # each importing it again (seconds apiece on a busy 2-core machine).
    mp.start_processes(_rank, args=(a.ddp, free_port(), opts), nprocs=a.ddp, join=True, start_method="fork")
    report(a.out, a.ddp)
    with open(os.path.join(a.out, "curve.json")) as f:
        curve = json.load(f)
    print("training: loss %.3f -> %.3f, accuracy %.2f -> %.2f over %d iterations" %
          (curve[0]["loss"], curve[-1]["loss"], curve[0]["accuracy"], curve[-1]["accuracy"], len(curve)))
    if not a.no_plot:
        print("training curve:", plot(a.out, a.ddp, a.observe))
    return 0
