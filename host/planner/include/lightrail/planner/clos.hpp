// The electrical network as a folded Clos of packet switches (leaf-spine,
// more tiers when the leaves outnumber a spine's ports), with ECMP hashing
// over a leaf's uplinks and queueing behind the flows sharing a link, so
// that the electrical baseline's speed is a result of its structure.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "lightrail/planner/fabric.hpp"

namespace lightrail::planner {

// Hosts are numbered in placement order; hosts_per_leaf of them share a leaf.
struct ClosShape {
  int hosts_per_leaf = 1;  // radix x oversubscription / (1 + oversubscription)
  int uplinks = 1;         // radix - hosts_per_leaf
  int64_t leaves = 1;
  int tiers = 1;  // 1: every host on one leaf; 2: leaf-spine; 3+: upper tiers (modelled non-blocking)
  int hops_across() const { return 2 * tiers - 1; }
};
// fabric.eps_switch_radix must be > 0 (std::invalid_argument otherwise).
ClosShape clos_shape(const Fabric& fabric, int64_t hosts);

struct ClosFlow {
  int64_t src = 0, dst = 0;  // hosts
  double weight = 1;         // share of the time the flow is present (another job's duty); 1: ours
};

// What a round of `flows` sees: the flows sharing the busiest link any of
// its own (weight 1) flows takes, and the switch hops of the longest own
// path. Adaptive routing spreads a leaf's crossing load evenly over its
// uplinks (a flow shares max(1, load / uplinks) at its source and its
// destination leaf, background flows counted by weight); with
// fabric.eps_ecmp each flow hashes to one uplink, averaged over 64
// hashings drawn with a fixed seed (a background flow present with its
// weight's probability).
struct ClosRound {
  double sharing = 1;
  int hops = 1;
};
ClosRound clos_round(const Fabric& fabric, int64_t hosts, const std::vector<ClosFlow>& flows);

// A round in which each own flow carries `bytes` and each host sends
// `flows_per_host` flows at once: bytes x max(sharing, flows_per_host) over
// eps_gbps, eps_latency_ps + hops x eps_hop_latency_ps, and (sharing - 1) x
// eps_queue_bytes of competitors queued ahead at the shared link.
double clos_round_ps(const Fabric& fabric, const ClosRound& round, double bytes, double flows_per_host = 1);

}  // namespace lightrail::planner
