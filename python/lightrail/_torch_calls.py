"""What lightrail.torch intercepts (docs/torch.md, "What it observes"): the
collectives of torch.distributed under both of their names, DDP's
broadcasts through dist._broadcast_coalesced, its start-up shape check, and
DDP's construction and forward. Each wrapper hands the call to the enabled
Session (`active`), or calls the original when none is enabled or the call
comes from inside another traced call.
"""

import inspect
import threading
import time

import torch
import torch.distributed as dist
import torch.distributed.distributed_c10d as c10d
from torch.nn.parallel import DistributedDataParallel

active = None  # the enabled Session, set by lightrail.torch.enable

_local = threading.local()  # depth: > 0 inside a traced call (its inner calls are not traced again)


def nbytes(t):
    return t.numel() * t.element_size() if isinstance(t, torch.Tensor) else 0


def sum_bytes(ts):
    return sum(nbytes(t) for t in ts or [])


# Each wrapped call: (collective, bytes of the per-rank buffer as the
# planner's cost model takes it (NCCL's convention: all-gather the gathered
# output, reduce-scatter the input), the group argument, the root or peer).
# The arguments come bound to the original's parameter names.
def describe(op, a):
    g = a.get("group")
    if op in ("all_reduce",):
        return "all_reduce", nbytes(a["tensor"]), g, None
    if op == "all_reduce_coalesced":
        return "all_reduce", sum_bytes(a["tensors"]), g, None
    if op == "all_gather":
        return "all_gather", sum_bytes(a["tensor_list"]), g, None
    if op in ("all_gather_into_tensor", "_all_gather_base"):
        return "all_gather", nbytes(a["output_tensor"]), g, None
    if op == "all_gather_coalesced":
        return "all_gather", sum(sum_bytes(ts) for ts in a["output_tensor_lists"]), g, None
    if op == "reduce_scatter":
        return "reduce_scatter", sum_bytes(a["input_list"]), g, None
    if op in ("reduce_scatter_tensor", "_reduce_scatter_base"):
        return "reduce_scatter", nbytes(a["input"]), g, None
    if op == "all_to_all":
        return "all_to_all", sum_bytes(a["input_tensor_list"]), g, None
    if op == "all_to_all_single":
        return "all_to_all", nbytes(a["input"]), g, None
    if op == "broadcast":
        return "broadcast", nbytes(a["tensor"]), g, a.get("src", 0)
    if op == "reduce":
        return "reduce", nbytes(a["tensor"]), g, a.get("dst", 0)
    if op == "gather":
        return "gather", nbytes(a["tensor"]), g, a.get("dst", 0)
    if op == "scatter":
        return "scatter", nbytes(a["tensor"]), g, a.get("src", 0)
    if op == "barrier":
        return "barrier", 0, g, None
    if op in ("send", "isend"):
        return "send", nbytes(a["tensor"]), g, a.get("dst")
    if op in ("recv", "irecv"):
        return "recv", nbytes(a["tensor"]), g, a.get("src")
    raise AssertionError(op)


WRAPPED = ["all_reduce", "all_reduce_coalesced", "all_gather", "all_gather_into_tensor", "_all_gather_base",
            "all_gather_coalesced", "reduce_scatter", "reduce_scatter_tensor", "_reduce_scatter_base",
            "all_to_all", "all_to_all_single", "broadcast", "reduce", "gather", "scatter", "barrier", "send",
            "recv", "isend", "irecv"]


def group_ranks(group):
    """The global ranks of a process group (None, WORLD or the default: all)."""
    if group is None or group is c10d.GroupMember.WORLD or group is c10d._get_default_group():
        return list(range(dist.get_world_size()))
    return sorted(dist.get_process_group_ranks(group))


def now_ns():
    return time.time_ns()


class Depth:
    def __enter__(self):
        _local.depth = getattr(_local, "depth", 0) + 1

    def __exit__(self, *exc):
        _local.depth -= 1
        return False


def inside():
    return getattr(_local, "depth", 0) > 0


ORIG = {}


def _wrap(op, orig):
    sig = inspect.signature(orig)

    def wrapper(*args, **kwargs):
        s = active
        if s is None or inside():
            return orig(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        if a.get("group") is not None and c10d._rank_not_in_group(a["group"]):
            return orig(*args, **kwargs)
        collective, nbytes, group, root = describe(op, a)
        return s._call(op, collective, nbytes, group, root, lambda: orig(*args, **kwargs))

    wrapper.__name__ = op
    wrapper.__doc__ = orig.__doc__
    wrapper.__wrapped__ = orig
    return wrapper


def _wrap_broadcast_coalesced(orig):
    # DDP's parameter and buffer broadcast: a C++ call that dist.broadcast
    # never sees (issue 29: it escapes a naive wrapper).
    def wrapper(process_group, tensors, buffer_size, src=0):
        s = active
        if s is None or inside():
            return orig(process_group, tensors, buffer_size, src)
        return s._call("_broadcast_coalesced", "broadcast", sum_bytes(tensors), process_group, src,
                       lambda: orig(process_group, tensors, buffer_size, src))

    return wrapper


def _wrap_verify_params(orig):
    # DDP's start-up check of parameter shapes: an all-gather inside C++ whose
    # size it does not expose (bytes null).
    def wrapper(process_group, tensors, *rest):
        s = active
        if s is None or inside():
            return orig(process_group, tensors, *rest)
        return s._call("_verify_params_across_processes", "all_gather", None, process_group, None,
                       lambda: orig(process_group, tensors, *rest))

    return wrapper


def _wrap_ddp_init(orig):
    def __init__(self, *args, **kwargs):
        s = active
        if s is None:
            return orig(self, *args, **kwargs)
        prev, s._source = s._source, "ddp_init"
        try:
            orig(self, *args, **kwargs)
        finally:
            s._source = prev
        s.attach(self)

    return __init__


def _wrap_ddp_forward(orig):
    def forward(self, *args, **kwargs):
        s = active
        if s is None:
            return orig(self, *args, **kwargs)
        if self is s.model:
            s.step()
        prev, s._source = s._source, "ddp_forward"
        try:
            return orig(self, *args, **kwargs)
        finally:
            s._source = prev

    return forward


def install():
    if ORIG:
        return
    for op in WRAPPED:
        orig = getattr(c10d, op, None)
        if orig is None:
            continue
        ORIG[op] = orig
        w = _wrap(op, orig)
        # Both names: torch.distributed.X for scripts, distributed_c10d.X for
        # the library's own callers (all_gather_object calls all_gather).
        setattr(c10d, op, w)
        if getattr(dist, op, None) is orig:
            setattr(dist, op, w)
    ORIG["_broadcast_coalesced"] = dist._broadcast_coalesced
    dist._broadcast_coalesced = _wrap_broadcast_coalesced(dist._broadcast_coalesced)
    ORIG["_verify_params_across_processes"] = dist._verify_params_across_processes
    dist._verify_params_across_processes = _wrap_verify_params(dist._verify_params_across_processes)
    ORIG["ddp_init"] = DistributedDataParallel.__init__
    DistributedDataParallel.__init__ = _wrap_ddp_init(DistributedDataParallel.__init__)
    ORIG["ddp_forward"] = DistributedDataParallel.forward
    DistributedDataParallel.forward = _wrap_ddp_forward(DistributedDataParallel.forward)


def uninstall():
    for op in WRAPPED:
        if op in ORIG:
            if getattr(dist, op, None) is getattr(c10d, op):
                setattr(dist, op, ORIG[op])
            setattr(c10d, op, ORIG[op])
    if ORIG:
        dist._broadcast_coalesced = ORIG["_broadcast_coalesced"]
        dist._verify_params_across_processes = ORIG["_verify_params_across_processes"]
        DistributedDataParallel.__init__ = ORIG["ddp_init"]
        DistributedDataParallel.forward = ORIG["ddp_forward"]
    ORIG.clear()
