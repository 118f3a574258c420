"""The job's phases from every rank's own runs (docs/torch.md, "Phases").

Each rank sees only the collectives of the groups it is in, so a tensor- or
pipeline-parallel group's calls appear on its members alone. Registration
gathers every rank's runs (collective, group, bytes, count) and merges them
here, the same way on every rank: the runs at the head of the ranks'
sequences that share a collective and whose groups are disjoint and agreed
by all their members make one phase with those groups; ranks in none of
them sit the phase out. A run that cannot be merged so (its groups overlap,
a member is elsewhere, the groups' sizes differ) is dropped with the reason.
"""


def _candidate(heads, collective):
    """The phase that the heads with this collective would make:
    (takers, groups, reason or None)."""
    takers = [r for r, h in heads.items() if h is not None and h["collective"] == collective]
    groups = []
    for r in takers:
        if heads[r]["group"] not in groups:
            groups.append(heads[r]["group"])
    owner = {}
    for g in groups:
        for m in g:
            if m in owner:
                return takers, groups, "groups %s and %s overlap (rank %d is in both)" % (owner[m], g, m)
            owner[m] = g
    for g in groups:
        for m in g:
            h = heads.get(m)
            if h is None:
                return takers, groups, "rank %d of group %s ran no more collectives" % (m, g)
            if h["collective"] != collective or h["group"] != g:
                return takers, groups, "rank %d of group %s ran %s on %s at this point, not %s on %s" % (
                    m, g, h["collective"], h["group"], collective, g)
    sizes = sorted({(heads[r]["bytes"], heads[r]["count"]) for r in takers})
    if len(sizes) > 1:
        return takers, groups, "the groups' sizes differ: %s (bytes, calls)" % sizes
    return takers, groups, None


def merge(sequences):
    """sequences[r]: rank r's runs in order, each {collective, group, bytes,
    count, compute_ps, start_ns, end_ns, sources}. Returns (phases, dropped):
    phases {collective, groups, bytes, count, compute_ps (the slowest
    member's), start_ns, end_ns, sources, ranks (who takes part)}, dropped
    {collective, groups, ranks, reason}."""
    pos = [0] * len(sequences)
    phases, dropped = [], []
    while True:
        heads = {r: (s[pos[r]] if pos[r] < len(s) else None) for r, s in enumerate(sequences)}
        order = []  # the heads' collectives, by the lowest rank running each
        for h in heads.values():
            if h is not None and h["collective"] not in order:
                order.append(h["collective"])
        if not order:
            return phases, dropped
        cands = [(c,) + _candidate(heads, c) for c in order]
        # The first collective whose groups agree; if none does, the
        # lowest rank's is dropped so the others can go on.
        collective, takers, groups, reason = next((c for c in cands if c[3] is None), cands[0])
        runs = [heads[r] for r in takers]
        for r in takers:
            pos[r] += 1
        if reason is not None:
            dropped.append({"collective": collective, "groups": groups, "ranks": takers, "reason": reason})
            continue
        sources = []
        for h in runs:
            sources += [s for s in h["sources"] if s not in sources]
        phases.append({"collective": collective, "groups": sorted(groups), "bytes": runs[0]["bytes"],
                       "count": runs[0]["count"], "compute_ps": max(h["compute_ps"] for h in runs),
                       "start_ns": min(h["start_ns"] for h in runs), "end_ns": max(h["end_ns"] for h in runs),
                       "sources": sources, "ranks": takers})
