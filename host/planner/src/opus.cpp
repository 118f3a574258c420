#include "lightrail/planner/opus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace lightrail::planner {

int RailPlan::reconfigurations_per_iteration() const {
  int c = 0;
  for (const RailPhase& p : phases) c += p.internal_reconfigurations + p.boundary_reconfiguration;
  return c;
}

OpusPlan plan_opus(const Job& job, const Fabric& fabric) {
  validate(job);
  check_fits(fabric, job);
  OpusPlan plan{job, fabric, {}, {}, {}};
  const int ppr = fabric.ports_per_nic;
  const int nodes = job.nodes();
  std::map<int, size_t> rail_index;
  for (int g = 0; g < job.gpus_per_node; ++g) {
    const int r = job.rail_of(g);
    if (rail_index.count(r)) continue;
    rail_index[r] = plan.rails.size();
    RailPlan rp;
    rp.rail = r;
    rp.ports = nodes * ppr;
    rp.phases.resize(job.phases.size());
    plan.rails.push_back(std::move(rp));
  }
  plan.scale_up.resize(job.phases.size());
  plan.dependent_rounds.assign(job.phases.size(), 0);
  std::map<std::pair<int, int>, CollectivePlan> cache;  // (phase, group size)
  std::vector<std::unordered_map<std::string, int>> config_ids(plan.rails.size());

  for (size_t pi = 0; pi < job.phases.size(); ++pi) {
    const Phase& phase = job.phases[pi];
    const std::string where = fmt::format("job.phases[{}] ({})", pi, phase.name);
    // Rail-level configuration of each round, built as the union of groups.
    std::vector<std::vector<Matching>> rounds(plan.rails.size());
    std::vector<std::vector<int64_t>> bytes(plan.rails.size());
    for (const auto& group : job.groups_of(phase)) {
      std::vector<int> nodes_of;
      for (int r : group) nodes_of.push_back(job.node_of(r));
      const bool one_node =
          std::all_of(nodes_of.begin(), nodes_of.end(), [&](int n) { return n == nodes_of[0]; });
      auto key = std::make_pair(int(pi), int(group.size()));
      if (!cache.count(key)) {
        cache.emplace(key, plan_collective(phase.collective, phase.algorithm, int(group.size()),
                                           one_node ? 1 : ppr, false));
      }
      const CollectivePlan& cp = cache.at(key);
      plan.dependent_rounds[pi] = std::max(plan.dependent_rounds[pi], cp.dependent_rounds());
      if (one_node) {
        double f = 0;
        for (const Round& rd : cp.rounds) f += rd.fraction;
        plan.scale_up[pi].bytes = std::max(plan.scale_up[pi].bytes, static_cast<int64_t>(f * phase.bytes));
        plan.scale_up[pi].rounds = std::max(plan.scale_up[pi].rounds, int(cp.rounds.size()));
        continue;
      }
      std::vector<int> sorted = nodes_of;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw std::invalid_argument(fmt::format(
            "{}.dimension: a {} group has several ranks on one node and also spans nodes; hierarchical "
            "collectives are not modelled (keep the dimension inside a node or one rank per node)",
            where, to_string(phase.dimension)));
      }
      const int rail = job.rail_of(group[0]);
      for (int r : group) {
        if (job.rail_of(r) != rail) {
          throw std::invalid_argument(
              fmt::format("{}.dimension: group spans rails {} and {} (ranks {} and {})", where, rail,
                          job.rail_of(r), group[0], r));
        }
      }
      const size_t ri = rail_index.at(rail);
      auto& rr = rounds[ri];
      if (rr.size() < cp.rounds.size()) {
        rr.resize(cp.rounds.size(), Matching{std::vector<int>(nodes * ppr, kIdle)});
        bytes[ri].resize(cp.rounds.size(), 0);
      }
      for (size_t t = 0; t < cp.rounds.size(); ++t) {
        const Matching& m = cp.configs[cp.rounds[t].config];
        for (int port = 0; port < m.ports(); ++port) {
          if (m.dest[port] == kIdle) continue;
          const int from = nodes_of[port / ppr] * ppr + port % ppr;
          const int to = nodes_of[m.dest[port] / ppr] * ppr + m.dest[port] % ppr;
          if (rr[t].dest[from] != kIdle) {
            throw std::invalid_argument(
                fmt::format("{}.groups: node {} is in two groups on rail {}; groups must not overlap", where,
                            from / ppr, rail));
          }
          rr[t].dest[from] = to;
        }
        bytes[ri][t] =
            std::max(bytes[ri][t], static_cast<int64_t>(cp.rounds[t].fraction * phase.bytes + 0.5));
      }
    }
    for (size_t ri = 0; ri < plan.rails.size(); ++ri) {
      RailPlan& rp = plan.rails[ri];
      RailPhase& ph = rp.phases[pi];
      ph.round_bytes = bytes[ri];
      for (size_t t = 0; t < rounds[ri].size(); ++t) {
        Matching& m = rounds[ri][t];
        std::string key(reinterpret_cast<const char*>(m.dest.data()), m.dest.size() * sizeof(int));
        auto it = config_ids[ri].find(key);
        if (it == config_ids[ri].end()) {
          verify_one_to_one(m, fmt::format("{} on rail {} round {}", where, rp.rail, t));
          it = config_ids[ri].emplace(key, int(rp.configs.size())).first;
          rp.configs.push_back(std::move(m));
        }
        ph.round_config.push_back(it->second);
        if (t > 0) ph.internal_reconfigurations += ph.round_config[t] != ph.round_config[t - 1];
      }
    }
  }
  // Boundary reconfigurations: against the last configuration the rail held,
  // wrapping around the iteration (iterations repeat).
  for (RailPlan& rp : plan.rails) {
    int last = -1;
    for (int pass = 0; pass < 2; ++pass) {
      for (RailPhase& ph : rp.phases) {
        if (ph.round_config.empty()) continue;
        if (pass == 1) ph.boundary_reconfiguration = last != -1 && ph.round_config.front() != last;
        last = ph.round_config.back();
      }
    }
  }
  return plan;
}

}  // namespace lightrail::planner
