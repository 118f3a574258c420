#include "lightrail/planner/opus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/in_place.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

uint64_t hash_of(const std::vector<int>& v) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the entries
  for (int x : v) h = (h ^ static_cast<uint32_t>(x)) * 1099511628211ull;
  return h;
}

// Configuration entries the plan holds (collectives' and rails'), kept
// under kMaxPlanEntries: refused before anything that large is built.
class Budget {
 public:
  void hold(int64_t entries, const std::function<std::string()>& what) {
    if (entries > kMaxPlanEntries - used_) {
      throw std::invalid_argument(
          fmt::format("{}; a plan holds at most {} configuration entries (switch ports x configurations, "
                      "kMaxPlanEntries), {} are held already",
                      what(), kMaxPlanEntries, used_));
    }
    used_ += entries;
  }
  void release(int64_t entries) { used_ -= entries; }

 private:
  int64_t used_ = 0;
};

// The groups of one phase on one rail that run the same collective plan:
// they change configuration in the same rounds.
struct Share {
  const CollectivePlan* plan = nullptr;
  std::vector<const std::vector<int>*> nodes;  // each group's node of each rank
};

}  // namespace

int RailPlan::reconfigurations_per_iteration() const {
  int c = 0;
  for (const RailPhase& p : phases) c += p.internal_reconfigurations + p.boundary_reconfiguration;
  return c;
}

OpusPlan plan_opus(const Job& job, const Fabric& fabric, const std::vector<bool>& electrical) {
  validate(job);
  check_fits(fabric, job);
  if (!electrical.empty() && electrical.size() != job.phases.size()) {
    throw std::invalid_argument(
        fmt::format("plan_opus: {} electrical flags for {} phases", electrical.size(), job.phases.size()));
  }
  OpusPlan plan{job, fabric, {}, {}, {}, {}, {}};
  plan.on_eps = electrical.empty() ? std::vector<bool>(job.phases.size(), false) : electrical;
  plan.eps.resize(job.phases.size());
  const int ppr = fabric.ports_per_nic;
  const int ports = job.nodes() * ppr;  // at most fabric.ocs_radix (check_fits)
  std::map<int, size_t> rail_index;
  for (int g = 0; g < job.gpus_per_node; ++g) {
    const int r = job.rail_of(g);
    if (rail_index.count(r)) continue;
    rail_index[r] = plan.rails.size();
    RailPlan rp;
    rp.rail = r;
    rp.ports = ports;
    rp.phases.resize(job.phases.size());
    plan.rails.push_back(std::move(rp));
  }
  plan.scale_up.resize(job.phases.size());
  plan.dependent_rounds.assign(job.phases.size(), 0);
  Budget budget;
  // Per rail: configuration hash -> ids, to reuse a configuration across phases.
  std::vector<std::unordered_map<uint64_t, std::vector<int>>> config_ids(plan.rails.size());

  for (size_t pi = 0; pi < job.phases.size(); ++pi) {
    const Phase& phase = job.phases[pi];
    const std::string where = fmt::format("job.phases[{}] ({})", pi, printable(phase.name));
    const std::string field =
        fmt::format("job.phases[{}].{} (phase \"{}\")", pi, phase.groups.empty() ? "dimension" : "groups",
                    printable(phase.name));
    const auto groups = job.groups_of(phase);
    std::vector<std::vector<int>> nodes_of(groups.size());
    // This phase's collective plans by (group size, ports per rank).
    std::map<std::pair<int, int>, CollectivePlan> plans;
    int64_t held = 0;
    std::vector<std::vector<Share>> shares(plan.rails.size());
    std::vector<std::map<const CollectivePlan*, size_t>> share_of(plan.rails.size());
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const auto& group = groups[gi];
      auto& nodes = nodes_of[gi];
      for (int r : group) nodes.push_back(job.node_of(r));
      const bool one_node = std::all_of(nodes.begin(), nodes.end(), [&](int n) { return n == nodes[0]; });
      const int size = int(group.size());
      const int k = one_node ? 1 : ppr;
      auto it = plans.find({size, k});
      if (it == plans.end()) {
        const int64_t configs = max_configurations(phase.algorithm, size);
        const int64_t need = configs * size * k;
        budget.hold(need, [&] {
          return fmt::format("{}: a {} {} over {} ranks has up to {} configurations of {} ports ({} entries)",
                             field, to_string(phase.algorithm), to_string(phase.collective), size, configs,
                             int64_t{size} * k, need);
        });
        held += need;
        it = plans
                 .emplace(std::make_pair(size, k),
                          plan_collective(phase.collective, phase.algorithm, size, k, false))
                 .first;
      }
      const CollectivePlan& cp = it->second;
      plan.dependent_rounds[pi] = std::max(plan.dependent_rounds[pi], cp.dependent_rounds());
      if (one_node) {
        double f = 0;
        for (const Round& rd : cp.rounds) f += rd.fraction;
        plan.scale_up[pi].bytes = std::max(plan.scale_up[pi].bytes, static_cast<int64_t>(f * phase.bytes));
        plan.scale_up[pi].rounds = std::max(plan.scale_up[pi].rounds, int(cp.rounds.size()));
        continue;
      }
      if (plan.on_eps[pi]) {
        // Over a packet switch: every round's bytes through the NIC's ports.
        double f = 0;
        for (const Round& rd : cp.rounds) f += rd.fraction;
        plan.eps[pi].bytes = std::max(plan.eps[pi].bytes, static_cast<int64_t>(f * phase.bytes + 0.5));
        plan.eps[pi].rounds = std::max(plan.eps[pi].rounds, int(cp.rounds.size()));
        continue;
      }
      std::vector<int> sorted = nodes;
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
      auto [s, fresh] = share_of[ri].try_emplace(&cp, shares[ri].size());
      if (fresh) shares[ri].push_back(Share{&cp, {}});
      shares[ri][s->second].nodes.push_back(&nodes);
    }
    for (size_t ri = 0; ri < plan.rails.size(); ++ri) {
      RailPlan& rp = plan.rails[ri];
      RailPhase& ph = rp.phases[pi];
      const std::vector<Share>& sh = shares[ri];
      if (sh.empty()) continue;  // the rail is idle in this phase
      size_t rounds = 0;
      for (const Share& s : sh) rounds = std::max(rounds, s.plan->rounds.size());
      // Bytes on the busiest port, and the rounds where a share changes
      // configuration (or ends): work grows with the rounds, not rounds x groups.
      ph.round_bytes.assign(rounds, 0);
      std::vector<std::pair<size_t, size_t>> changes;  // (round, share)
      for (size_t c = 0; c < sh.size(); ++c) {
        const auto& rs = sh[c].plan->rounds;
        for (size_t t = 0; t < rs.size(); ++t) {
          ph.round_bytes[t] =
              std::max(ph.round_bytes[t], static_cast<int64_t>(rs[t].fraction * phase.bytes + 0.5));
          if (t == 0 || rs[t].config != rs[t - 1].config) changes.push_back({t, c});
        }
        if (rs.size() < rounds) changes.push_back({rs.size(), c});
      }
      std::sort(changes.begin(), changes.end());
      // The rail's configuration of a round is the union of its shares'
      // configurations; `state` is each share's configuration (kIdle: done).
      std::vector<int> state(sh.size(), kIdle);
      std::map<std::vector<int>, int> seen;  // state -> rail configuration
      auto rail_config = [&](size_t t) {
        budget.hold(ports, [&] {
          return fmt::format("{}: rail {} needs configuration {} of {} ports in round {}", where, rp.rail,
                             rp.configs.size() + 1, ports, t);
        });
        Matching m{std::vector<int>(ports, kIdle)};
        for (size_t c = 0; c < sh.size(); ++c) {
          if (state[c] == kIdle) continue;
          const Matching& cm = sh[c].plan->configs[state[c]];
          for (const std::vector<int>* nodes : sh[c].nodes) {
            for (int port = 0; port < cm.ports(); ++port) {
              if (cm.dest[port] == kIdle) continue;
              const int from = (*nodes)[port / ppr] * ppr + port % ppr;
              const int to = (*nodes)[cm.dest[port] / ppr] * ppr + cm.dest[port] % ppr;
              if (m.dest[from] != kIdle) {
                throw std::invalid_argument(
                    fmt::format("{}.groups: node {} is in two groups on rail {}; groups must not overlap",
                                where, from / ppr, rp.rail));
              }
              m.dest[from] = to;
            }
          }
        }
        std::vector<int>& same = config_ids[ri][hash_of(m.dest)];
        for (int id : same) {
          if (rp.configs[id].dest == m.dest) {
            budget.release(ports);
            return id;
          }
        }
        verify_one_to_one(m, fmt::format("{} on rail {} round {}", where, rp.rail, t));
        const int id = int(rp.configs.size());
        same.push_back(id);
        rp.configs.push_back(std::move(m));
        return id;
      };
      size_t next = 0;
      int current = kIdle;
      for (size_t t = 0; t < rounds; ++t) {
        if (next < changes.size() && changes[next].first == t) {
          for (; next < changes.size() && changes[next].first == t; ++next) {
            const size_t c = changes[next].second;
            const auto& rs = sh[c].plan->rounds;
            state[c] = t < rs.size() ? rs[t].config : kIdle;
          }
          auto [it, fresh] = seen.try_emplace(state, kIdle);
          if (fresh) it->second = rail_config(t);
          current = it->second;
        }
        ph.round_config.push_back(current);
        if (t > 0) ph.internal_reconfigurations += ph.round_config[t] != ph.round_config[t - 1];
      }
    }
    budget.release(held);  // the phase's collective plans go with `plans`
  }
  for (RailPlan& rp : plan.rails) mark_boundaries(rp);
  return plan;
}

void mark_boundaries(RailPlan& rp) {
  // Against the last configuration the rail held, wrapping around the
  // iteration (iterations repeat).
  int last = -1;
  for (int pass = 0; pass < 2; ++pass) {
    for (RailPhase& ph : rp.phases) {
      if (ph.round_config.empty()) continue;
      if (pass == 1) ph.boundary_reconfiguration = last != -1 && ph.round_config.front() != last;
      last = ph.round_config.back();
    }
  }
}

}  // namespace lightrail::planner
