#include "lightrail/planner/clos.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace lightrail::planner {

ClosShape clos_shape(const Fabric& f, int64_t hosts) {
  if (f.eps_switch_radix <= 0) throw std::invalid_argument("fabric.eps_switch_radix: 0 is a flat network");
  ClosShape s;
  const int r = f.eps_switch_radix;
  const double o = f.eps_oversubscription;
  s.hosts_per_leaf = std::clamp(int(r * o / (1 + o)), 1, r - 1);
  s.uplinks = r - s.hosts_per_leaf;
  s.leaves = (hosts + s.hosts_per_leaf - 1) / s.hosts_per_leaf;
  // A spine reaches `r` leaves; each tier above multiplies by r / 2.
  s.tiers = s.leaves <= 1 ? 1 : 2;
  for (double reach = r; reach < double(s.leaves); reach *= r / 2.0) ++s.tiers;
  return s;
}

ClosRound clos_round(const Fabric& f, int64_t hosts, const std::vector<ClosFlow>& flows) {
  const ClosShape s = clos_shape(f, hosts);
  ClosRound out;
  std::vector<const ClosFlow*> across;
  for (const ClosFlow& fl : flows) {
    if (fl.src / s.hosts_per_leaf == fl.dst / s.hosts_per_leaf) continue;
    across.push_back(&fl);
    if (fl.weight >= 1) out.hops = s.hops_across();
  }
  if (out.hops == 1) return out;  // none of ours leaves its leaf
  // Link loads per (leaf, uplink), up and down; under ECMP a flow's uplink
  // index is the spine it crosses, so it arrives on the same index at its
  // leaf; adaptive routing spreads a leaf's load over all its uplinks.
  // Background flows are present by their weight in each draw.
  bool background = false;
  for (const ClosFlow* fl : across) background = background || fl->weight < 1;
  const int draws = f.eps_ecmp || background ? 64 : 1;
  const int links = f.eps_ecmp ? s.uplinks : 1;
  std::mt19937 rng(1);  // fixed: the model's figures repeat run after run
  std::vector<double> up(size_t(s.leaves) * links), down(up.size());
  std::vector<int> pick(across.size());
  double total = 0;
  for (int d = 0; d < draws; ++d) {
    std::fill(up.begin(), up.end(), 0);
    std::fill(down.begin(), down.end(), 0);
    for (size_t i = 0; i < across.size(); ++i) {
      const ClosFlow& fl = *across[i];
      pick[i] = -1;
      if (fl.weight < 1 && double(rng()) >= fl.weight * 4294967296.0) continue;  // absent this draw
      pick[i] = f.eps_ecmp ? int(rng() % uint32_t(s.uplinks)) : 0;
      up[size_t(fl.src / s.hosts_per_leaf) * links + pick[i]] += 1;
      down[size_t(fl.dst / s.hosts_per_leaf) * links + pick[i]] += 1;
    }
    // Adaptive: a leaf's load over its uplinks; ECMP: the flows on one link.
    const double per_link = f.eps_ecmp ? 1.0 : 1.0 / s.uplinks;
    double worst = 1;
    for (size_t i = 0; i < across.size(); ++i) {
      const ClosFlow& fl = *across[i];
      if (fl.weight < 1 || pick[i] < 0) continue;
      worst = std::max({worst, up[size_t(fl.src / s.hosts_per_leaf) * links + pick[i]] * per_link,
                        down[size_t(fl.dst / s.hosts_per_leaf) * links + pick[i]] * per_link});
    }
    total += worst;
  }
  out.sharing = total / draws;
  return out;
}

double clos_round_ps(const Fabric& f, const ClosRound& r, double bytes, double flows_per_host) {
  const double rate = f.eps_bytes_per_ps();
  return bytes * std::max(r.sharing, flows_per_host) / rate + double(f.eps_latency_ps) +
         r.hops * double(f.eps_hop_latency_ps) + (r.sharing - 1) * double(f.eps_queue_bytes) / rate;
}

}  // namespace lightrail::planner
