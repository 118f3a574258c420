#include "lightrail/planner/choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/in_place.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 1099511628211ull; }
uint64_t hash_of(const std::vector<int>& v, uint64_t h = 1469598103934665603ull) {
  for (int x : v) h = mix(h, static_cast<uint32_t>(x));
  return h;
}

// The electrical network a phase falls back to is the fabric's shared EPS:
// its core carries eps_gbps per host over eps_oversubscription.
double eps_rate(const Fabric& f) { return f.eps_bytes_per_ps() / f.eps_oversubscription; }

constexpr uint64_t kNothing = 0;  // the rail holds no circuits yet

// One way to run phase i, for the search.
struct Option {
  Algorithm algorithm{};
  Network network{};
  double bytes_ps = 0;    // bytes over the rate, striped over every port
  double latency_ps = 0;  // per-round latencies
  int reconfigurations = 0;
  uint64_t first = kNothing, last = kNothing;  // rail configurations it starts and ends with
  bool one_matching = false;
  double cost(double reconfiguration_ps) const {
    return bytes_ps + latency_ps + reconfigurations * reconfiguration_ps;
  }
};

// Every candidate of a phase. Groups inside a node run on scale-up links
// whatever is chosen: one option, the declared algorithm.
std::vector<Option> options_of(const Job& job, const Fabric& fabric, size_t pi, std::string& skipped) {
  const Phase& phase = job.phases[pi];
  const auto groups = job.groups_of(phase);
  std::set<int> sizes;
  uint64_t signature = 1469598103934665603ull;
  for (const auto& g : groups) {
    bool spans = false;
    for (int r : g) spans = spans || job.node_of(r) != job.node_of(g[0]);
    if (!spans) continue;
    sizes.insert(int(g.size()));
    signature = hash_of(g, mix(signature, g.size()));
  }
  if (sizes.empty()) return {Option{phase.algorithm, Network::kScaleUp}};
  const int k = fabric.ports_per_nic;
  std::vector<Option> out;
  Option best_eps{phase.algorithm, Network::kElectrical};
  double best_eps_t = std::numeric_limits<double>::infinity();
  for (Algorithm a : kCollectiveAlgorithms) {
    if (!supports(phase.collective, a)) continue;
    Option c{a, Network::kCircuits}, e{a, Network::kElectrical};
    uint64_t first = signature, last = signature;
    bool fits = true;
    for (int n : sizes) {
      if (max_configurations(a, n) * n * k > kMaxPlanEntries) {
        fits = false;
        skipped += fmt::format("{}{} over {} ranks (beyond the plan's configuration entries)",
                               skipped.empty() ? "" : "; ", to_string(a), n);
        break;
      }
      const CollectivePlan cp = plan_collective(phase.collective, a, n, k, false);
      double f = 0;
      for (const Round& rd : cp.rounds) f += rd.fraction;
      const double bytes = f * double(phase.bytes);
      c.bytes_ps = std::max(c.bytes_ps, bytes / fabric.link_bytes_per_ps());
      c.latency_ps = std::max(c.latency_ps, double(cp.rounds.size()) * double(fabric.circuit_latency_ps));
      c.reconfigurations = std::max(c.reconfigurations, cp.reconfigurations());
      e.bytes_ps = std::max(e.bytes_ps, bytes / eps_rate(fabric));
      e.latency_ps =
          std::max(e.latency_ps, double(std::min<size_t>(cp.dependent_rounds(), cp.rounds.size())) *
                                     double(fabric.eps_latency_ps));
      first = hash_of(cp.configs[cp.rounds.front().config].dest, mix(first, n));
      last = hash_of(cp.configs[cp.rounds.back().config].dest, mix(last, n));
      // Kept in place, a collective has ports of its own, often one: it
      // stands only if one matching serves it on a single port.
      c.one_matching = cp.configs.size() == 1 &&
                       (k == 1 || plan_collective(phase.collective, a, n, 1, false).configs.size() == 1);
    }
    if (!fits) continue;
    c.first = first == kNothing ? 1 : first;
    c.last = last == kNothing ? 1 : last;
    out.push_back(c);
    const double et = e.cost(0);
    // Ties go to the declared algorithm, then to the earlier in the list.
    if (et < best_eps_t || (et == best_eps_t && a == phase.algorithm)) {
      best_eps = e;
      best_eps_t = et;
    }
  }
  if (phase.collective == Collective::kSendRecv) {
    // The direction is the job's, not a choice.
    const auto groups_sizes = *sizes.rbegin();
    const CollectivePlan cp = plan_collective(phase.collective, phase.algorithm, groups_sizes, k, false);
    Option c{phase.algorithm, Network::kCircuits}, e{phase.algorithm, Network::kElectrical};
    double f = 0;
    for (const Round& rd : cp.rounds) f += rd.fraction;
    c.bytes_ps = f * double(phase.bytes) / fabric.link_bytes_per_ps();
    c.latency_ps = double(cp.rounds.size()) * double(fabric.circuit_latency_ps);
    // Both directions of a pipeline share one matching on 2+ ports: the
    // configuration, not the algorithm, identifies what the rail holds.
    c.first = c.last = hash_of(cp.configs[0].dest, mix(signature, groups_sizes)) | 1;
    c.one_matching = true;
    e.bytes_ps = f * double(phase.bytes) / eps_rate(fabric);
    e.latency_ps = double(cp.rounds.size()) * double(fabric.eps_latency_ps);
    out.push_back(c);
    best_eps = e;
  }
  if (out.empty()) {
    throw std::invalid_argument(fmt::format("job.phases[{}] ({}): no algorithm for {} can be planned: {}", pi,
                                            printable(phase.name), to_string(phase.collective), skipped));
  }
  out.push_back(best_eps);
  return out;
}

// The cheapest choice of one option per phase over the cyclic sequence:
// a boundary reconfiguration is paid where a circuit option starts with a
// configuration other than the one the rail holds.
std::vector<size_t> search(const std::vector<std::vector<Option>>& opts,
                           const std::vector<std::vector<double>>& cost, double reconfiguration_ps) {
  const size_t P = opts.size();
  std::set<uint64_t> keys;
  size_t width = 0;
  for (const auto& o : opts) {
    width = std::max(width, o.size());
    for (const Option& x : o)
      if (x.network == Network::kCircuits) keys.insert(x.last);
  }
  // The rail's configuration at the iteration's end is one of `keys` (or
  // nothing). Each start costs P x keys x options; beyond a budget only the
  // last rail phase's configurations are tried.
  std::vector<uint64_t> starts{kNothing};
  if (double(P) * keys.size() * keys.size() * width <= 2e7) {
    starts.insert(starts.end(), keys.begin(), keys.end());
  } else {
    for (size_t i = P; i-- > 0;) {
      bool rail = false;
      for (const Option& x : opts[i])
        if (x.network == Network::kCircuits) {
          starts.push_back(x.last);
          rail = true;
        }
      if (rail) break;
    }
  }
  struct Entry {
    double cost;
    uint64_t from;
    size_t option;
  };
  double best = std::numeric_limits<double>::infinity();
  std::vector<size_t> pick(P, 0);
  for (uint64_t s : starts) {
    std::vector<std::unordered_map<uint64_t, Entry>> layer(P + 1);
    layer[0][s] = {0, s, 0};
    for (size_t i = 0; i < P; ++i) {
      for (const auto& [state, e] : layer[i]) {
        for (size_t o = 0; o < opts[i].size(); ++o) {
          const Option& x = opts[i][o];
          const bool circuit = x.network == Network::kCircuits;
          const uint64_t next = circuit ? x.last : state;
          const double c = e.cost + cost[i][o] + (circuit && x.first != state ? reconfiguration_ps : 0);
          auto [it, fresh] = layer[i + 1].try_emplace(next, Entry{c, state, o});
          if (!fresh && c < it->second.cost) it->second = Entry{c, state, o};
        }
      }
    }
    auto end = layer[P].find(s);
    if (end == layer[P].end() || end->second.cost >= best) continue;
    best = end->second.cost;
    uint64_t state = s;
    for (size_t i = P; i-- > 0;) {
      const Entry& e = layer[i + 1].at(state);
      pick[i] = e.option;
      state = e.from;
    }
  }
  return pick;
}

// The job with each phase's chosen algorithm, and the networks.
struct Candidate {
  Job job;
  std::vector<bool> electrical;
};
Candidate apply(const Job& job, const std::vector<std::vector<Option>>& opts,
                const std::vector<size_t>& pick) {
  Candidate c{job, std::vector<bool>(job.phases.size(), false)};
  for (size_t i = 0; i < pick.size(); ++i) {
    const Option& x = opts[i][pick[i]];
    c.job.phases[i].algorithm = x.algorithm;
    c.electrical[i] = x.network == Network::kElectrical;
  }
  return c;
}

std::string ms(double ps) { return fmt::format("{:.3f} ms", ps / 1e9); }

}  // namespace

const char* to_string(Network n) {
  switch (n) {
    case Network::kCircuits:
      return "circuits";
    case Network::kElectrical:
      return "electrical";
    case Network::kScaleUp:
      return "scale-up";
  }
  return "?";
}

ChosenPlan choose_plan(const Job& job, const Fabric& fabric) {
  validate(job);
  check_fits(fabric, job);
  const size_t P = job.phases.size();
  const double R = double(fabric.reconfiguration_ps);
  const int k = fabric.ports_per_nic;
  std::vector<std::vector<Option>> opts(P);
  std::vector<std::string> skipped(P);
  for (size_t i = 0; i < P; ++i) opts[i] = options_of(job, fabric, i, skipped[i]);

  // Costs on striped ports.
  std::vector<std::vector<double>> cost(P);
  for (size_t i = 0; i < P; ++i)
    for (const Option& x : opts[i]) cost[i].push_back(x.cost(R));
  std::vector<std::vector<size_t>> picks{search(opts, cost, R)};

  // Circuits kept in place: phases whose fastest one-matching option shares
  // a window share its configuration (no boundary between them) and get the
  // window's share of the ports.
  if (k >= 2) {
    std::vector<int> items(P, kInPlaceIdle);
    std::vector<size_t> held(P, 0);  // the option the window holds
    std::map<uint64_t, int> ids;
    for (size_t i = 0; i < P; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (size_t o = 0; o < opts[i].size(); ++o) {
        const Option& x = opts[i][o];
        if (x.network != Network::kCircuits) continue;
        const double c = x.one_matching ? cost[i][o] : cost[i][o] + R;
        if (c < best) {
          best = c;
          held[i] = o;
          items[i] = x.one_matching ? ids.try_emplace(x.first, int(ids.size())).first->second : kInPlaceAlone;
        }
      }
    }
    auto opts2 = opts;
    auto cost2 = cost;
    uint64_t w = 0;
    for (const auto& window : in_place_windows(items, k)) {
      std::set<int> distinct;
      for (size_t i : window) distinct.insert(items[i]);
      const int m = int(distinct.size());
      ++w;
      for (size_t i : window) {
        if (items[i] == kInPlaceAlone) continue;
        Option& x = opts2[i][held[i]];
        const int slot = int(std::distance(distinct.begin(), distinct.find(items[i])));
        const int q = (k - slot + m - 1) / m;  // ports p = slot, slot + m, ... below k
        x.first = x.last = mix(0x5bd1e995, w) | 1;
        cost2[i][held[i]] = x.bytes_ps * k / q + x.latency_ps;
      }
    }
    picks.push_back(search(opts2, cost2, R));
  }

  // The job as declared, every phase on circuits, is a candidate too.
  {
    std::vector<size_t> declared(P, 0);
    for (size_t i = 0; i < P; ++i)
      for (size_t o = 0; o < opts[i].size(); ++o)
        if (opts[i][o].network != Network::kElectrical && opts[i][o].algorithm == job.phases[i].algorithm)
          declared[i] = o;
    picks.push_back(declared);
  }

  // Every candidate through the full model; the fastest is kept.
  std::vector<bool> all_eps(P, true);
  std::vector<size_t> eps_pick(P);
  for (size_t i = 0; i < P; ++i) eps_pick[i] = opts[i].size() - 1;
  const Candidate fallback = apply(job, opts, eps_pick);
  ChosenPlan out;
  out.declared = plan_opus(job, fabric);
  out.declared_circuits = photonic_iteration(out.declared, false);
  out.plan = plan_opus(fallback.job, fabric, all_eps);
  out.electrical = photonic_iteration(out.plan, false);
  out.chosen = out.electrical;
  out.fallback = true;
  int64_t striped_best = std::numeric_limits<int64_t>::max(), in_place_best = striped_best;
  int striped_reconf = 0, in_place_reconf = 0;
  for (const auto& pick : picks) {
    const Candidate c = apply(job, opts, pick);
    if (c.electrical == all_eps) continue;
    for (bool keep : {false, true}) {
      if (keep && k < 2) continue;
      bool as_declared = std::none_of(c.electrical.begin(), c.electrical.end(), [](bool e) { return e; });
      for (size_t i = 0; i < P; ++i)
        as_declared = as_declared && c.job.phases[i].algorithm == job.phases[i].algorithm;
      OpusPlan p = keep          ? keep_in_place(c.job, fabric, c.electrical)
                   : as_declared ? out.declared
                                 : plan_opus(c.job, fabric, c.electrical);
      IterationTime t = photonic_iteration(p, false);
      (keep ? in_place_best : striped_best) = std::min(keep ? in_place_best : striped_best, t.total_ps());
      if (t.total_ps() == std::min(keep ? in_place_best : striped_best, t.total_ps()))
        (keep ? in_place_reconf : striped_reconf) = t.reconfigurations;
      if (t.total_ps() < out.chosen.total_ps()) {
        out.plan = std::move(p);
        out.chosen = std::move(t);
        out.in_place = keep;
        out.fallback = false;
      }
    }
  }
  if (k >= 2 && !out.fallback) {
    out.ports_why = fmt::format(
        "{} ports per NIC: {} ({} reconfigurations, {}) rather than {} ({} reconfigurations, {})", k,
        out.in_place ? "circuits kept in place" : "every phase striped over all ports",
        out.in_place ? in_place_reconf : striped_reconf,
        ms(double(out.in_place ? in_place_best : striped_best)), out.in_place ? "striped" : "kept in place",
        out.in_place ? striped_reconf : in_place_reconf,
        ms(double(out.in_place ? striped_best : in_place_best)));
  }

  // What was chosen, and why, from the kept plan's figures.
  for (size_t i = 0; i < P; ++i) {
    PhaseChoice pc;
    for (const auto& g : job.groups_of(job.phases[i])) {
      ++pc.groups;
      pc.ranks_per_group = std::max(pc.ranks_per_group, int(g.size()));
      for (int r : g) pc.across_nodes = pc.across_nodes || job.node_of(r) != job.node_of(g[0]);
    }
    pc.algorithm = out.plan.job.phases[i].algorithm;
    pc.network = opts[i].front().network == Network::kScaleUp ? Network::kScaleUp
                 : out.plan.on_eps[i]                         ? Network::kElectrical
                                                              : Network::kCircuits;
    for (const Option& x : opts[i]) {
      if (x.network == Network::kScaleUp) continue;
      PhaseCost c{x.algorithm, int64_t(x.bytes_ps + x.latency_ps + 0.5), x.reconfigurations,
                  int64_t(x.cost(R) + 0.5)};
      auto& slot = x.network == Network::kCircuits ? pc.best_circuits : pc.best_electrical;
      if (!slot || c.total_ps < slot->total_ps) slot = c;
    }
    const PhaseTime& t = out.chosen.phases[i];
    switch (pc.network) {
      case Network::kScaleUp:
        pc.why = fmt::format("every group inside a node: scale-up links, {} as the job declares",
                             to_string(pc.algorithm));
        break;
      case Network::kCircuits:
        pc.why = fmt::format(
            "{} on circuits: {} with {} reconfigurations ({} exposed); electrical at best {} ({})",
            to_string(pc.algorithm), ms(double(t.comm_ps)), t.reconfigurations,
            ms(double(t.reconfiguration_ps)), ms(double(pc.best_electrical->total_ps)),
            to_string(pc.best_electrical->algorithm));
        break;
      case Network::kElectrical:
        pc.why = fmt::format(
            "kept electrical ({}): {}; on circuits at best {} ({}, {} reconfigurations inside{}), "
            "against a {} reconfiguration",
            to_string(pc.algorithm), ms(double(t.comm_ps)),
            pc.best_circuits ? ms(double(pc.best_circuits->total_ps)) : "-",
            pc.best_circuits ? to_string(pc.best_circuits->algorithm) : "-",
            pc.best_circuits ? pc.best_circuits->reconfigurations : 0,
            pc.best_circuits && pc.best_circuits->reconfigurations == 0 ? ", one at its boundary unless held"
                                                                        : "",
            ms(R));
        break;
    }
    if (!skipped[i].empty()) pc.why += "; not considered: " + skipped[i];
    out.phases.push_back(std::move(pc));
  }
  return out;
}

nlohmann::json to_json(const ChosenPlan& c) {
  nlohmann::json out = nlohmann::json::array();
  auto cost = [](const std::optional<PhaseCost>& x) -> nlohmann::json {
    if (!x) return nullptr;
    return {{"algorithm", to_string(x->algorithm)},
            {"comm_ps", x->comm_ps},
            {"reconfigurations", x->reconfigurations},
            {"total_ps", x->total_ps}};
  };
  for (size_t i = 0; i < c.phases.size(); ++i) {
    const auto& p = c.phases[i];
    out.push_back({{"phase", c.plan.job.phases[i].name},
                   {"collective", to_string(c.plan.job.phases[i].collective)},
                   {"groups", p.groups},
                   {"ranks_per_group", p.ranks_per_group},
                   {"across_nodes", p.across_nodes},
                   {"network", to_string(p.network)},
                   {"algorithm", to_string(p.algorithm)},
                   {"best_circuits", cost(p.best_circuits)},
                   {"best_electrical", cost(p.best_electrical)},
                   {"why", p.why}});
  }
  return out;
}

}  // namespace lightrail::planner
