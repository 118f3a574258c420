#include "lightrail/planner/flow_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/clos.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

// Out of line: the message is built only when a time is refused (and the
// hot loops keep their registers).
[[noreturn, gnu::noinline, gnu::cold]] void too_long(double x, const OpusPlan& plan, size_t phase,
                                                     const char* what, const char* inputs) {
  check_ps(x, fmt::format("job.phases[{}] ({}): {} (from {})", phase, printable(plan.job.phases[phase].name),
                          what, inputs));
  throw std::logic_error("check_ps accepted a time beyond the model");
}

// A modelled time as integer picoseconds; refused (naming the phase and the
// inputs it comes from) beyond what the model represents, never wrapped.
int64_t ps(double x, const OpusPlan& plan, size_t phase, const char* what, const char* inputs) {
  if (!representable_ps(x)) too_long(x, plan, phase, what, inputs);
  return static_cast<int64_t>(x + 0.5);
}

// Phases in common: compute, and scale-up traffic for groups inside a node.
IterationTime skeleton(const OpusPlan& plan) {
  IterationTime it;
  it.phases.resize(plan.job.phases.size());
  const double nvlink = plan.fabric.scale_up_gbps / 8e3;
  for (size_t i = 0; i < it.phases.size(); ++i) {
    it.phases[i].compute_ps = plan.job.phases[i].compute_ps;
    it.phases[i].comm_ps = ps(plan.scale_up[i].bytes / nvlink, plan, i, "scale-up communication",
                              "its bytes and fabric.scale_up_gbps");
  }
  return it;
}

[[noreturn, gnu::noinline, gnu::cold]] void iteration_too_long(const char* what) {
  throw std::invalid_argument(fmt::format(
      "job.phases: the iteration's {} exceeds the model's limit of {:.0e} ps", what, double(kMaxPs)));
}

void total(IterationTime& it) {
  // Every phase's parts are at most kMaxPs; so must their sums be.
  for (const PhaseTime& p : it.phases) {
    it.compute_ps += p.compute_ps;
    it.comm_ps += p.comm_ps;
    it.reconfiguration_ps += p.reconfiguration_ps;
    it.reconfigurations += p.reconfigurations;
    if (it.compute_ps > kMaxPs) iteration_too_long("compute");
    if (it.comm_ps > kMaxPs) iteration_too_long("communication");
    if (it.reconfiguration_ps > kMaxPs) iteration_too_long("reconfiguration");
  }
}

// A phase the plan keeps on the electrical network: its bytes over `rate`,
// `latency` per dependent round.
void eps_phase(const OpusPlan& plan, IterationTime& it, size_t i, double rate, double latency,
               const char* inputs) {
  if (!plan.on_eps[i] || plan.eps[i].rounds == 0) return;
  const int rounds = std::min(plan.dependent_rounds[i], plan.eps[i].rounds);
  it.phases[i].comm_ps =
      std::max(it.phases[i].comm_ps, ps(double(plan.eps[i].bytes) / rate + rounds * latency, plan, i,
                                        "packet-switched communication", inputs));
}

// Rail traffic over a packet switch: per-port rate `rate`, `latency` per
// dependent round.
void packet_rails(const OpusPlan& plan, IterationTime& it, double rate, double latency, const char* inputs) {
  for (size_t i = 0; i < it.phases.size(); ++i) {
    for (const RailPlan& rp : plan.rails) {
      const RailPhase& ph = rp.phases[i];
      if (ph.round_bytes.empty()) continue;
      double bytes = 0;  // rounds x 1e15 bytes may exceed int64
      for (int64_t b : ph.round_bytes) bytes += double(b);
      const int rounds = std::min<int>(plan.dependent_rounds[i], int(ph.round_bytes.size()));
      it.phases[i].comm_ps = std::max(it.phases[i].comm_ps, ps(bytes / rate + rounds * latency, plan, i,
                                                               "packet-switched communication", inputs));
    }
    eps_phase(plan, it, i, rate, latency, inputs);
  }
}

// Rail traffic over Clos rails (fabric.eps_switch_radix > 0): each round's
// circuits become flows between hosts. `copies` jobs alike share each rail's
// Clos, scattered (our port p is host p x copies, the j-th other job's is
// p x copies + j, present `duty` of the time).
void clos_rails(const OpusPlan& plan, IterationTime& it, int copies, double duty) {
  const Fabric& f = plan.fabric;
  for (const RailPlan& rp : plan.rails) {
    std::map<std::vector<int>, ClosRound> seen;  // by the set of configurations at once
    auto round_of = [&](const std::vector<int>& configs) {
      auto [at, fresh] = seen.try_emplace(configs);
      if (!fresh) return at->second;
      std::vector<ClosFlow> flows;
      for (int c : configs) {
        const Matching& m = rp.configs[c];
        for (int p = 0; p < m.ports(); ++p) {
          if (m.dest[p] == kIdle) continue;
          for (int j = 0; j < copies; ++j)
            flows.push_back({int64_t(p) * copies + j, int64_t(m.dest[p]) * copies + j, j == 0 ? 1.0 : duty});
        }
      }
      at->second = clos_round(f, int64_t(rp.ports) * copies, flows);
      return at->second;
    };
    for (size_t i = 0; i < it.phases.size(); ++i) {
      const RailPhase& ph = rp.phases[i];
      if (ph.round_bytes.empty()) continue;
      double t = 0;
      if (plan.dependent_rounds[i] < int(ph.round_bytes.size())) {
        // Rounds at once (direct all-to-all): every flow together, each host
        // sending one per round.
        std::vector<int> configs = ph.round_config;
        std::sort(configs.begin(), configs.end());
        configs.erase(std::unique(configs.begin(), configs.end()), configs.end());
        const int64_t most = *std::max_element(ph.round_bytes.begin(), ph.round_bytes.end());
        t = clos_round_ps(f, round_of(configs), double(most), double(ph.round_bytes.size()));
      } else {
        for (size_t r = 0; r < ph.round_bytes.size(); ++r)
          t += clos_round_ps(f, round_of({ph.round_config[r]}), double(ph.round_bytes[r]));
      }
      it.phases[i].comm_ps = std::max(
          it.phases[i].comm_ps,
          ps(t, plan, i, "packet-switched communication",
             "its bytes and fabric.eps_gbps, eps_switch_radix, eps_oversubscription, eps_latency_ps, "
             "eps_hop_latency_ps, eps_queue_bytes"));
    }
  }
}

// Each round: its bytes over the circuit rate, plus the latency.
double circuit_time(const RailPhase& ph, double rate, double latency) {
  double t = 0;
  for (int64_t b : ph.round_bytes) t += b / rate + latency;
  return t;
}

}  // namespace

IterationTime photonic_iteration(const OpusPlan& plan, bool overlap) {
  IterationTime it = skeleton(plan);
  const Fabric& f = plan.fabric;
  const double rate = f.link_bytes_per_ps();
  for (size_t i = 0; i < it.phases.size(); ++i) {
    PhaseTime& pt = it.phases[i];
    // Kept electrical: the shared EPS, its core oversubscribed.
    eps_phase(plan, it, i, f.eps_bytes_per_ps() / f.eps_oversubscription, double(f.eps_latency_ps),
              "its bytes, fabric.eps_gbps, eps_oversubscription and eps_latency_ps");
    for (const RailPlan& rp : plan.rails) {
      const RailPhase& ph = rp.phases[i];
      if (ph.round_config.empty()) continue;
      const double comm = circuit_time(ph, rate, double(f.circuit_latency_ps));
      pt.comm_ps = std::max(pt.comm_ps, ps(comm, plan, i, "circuit communication",
                                           "its bytes, fabric.link_gbps and fabric.circuit_latency_ps"));
      double exposed = double(ph.internal_reconfigurations) * f.reconfiguration_ps;
      if (ph.boundary_reconfiguration) {
        exposed +=
            overlap ? std::max<int64_t>(0, f.reconfiguration_ps - pt.compute_ps) : f.reconfiguration_ps;
      }
      pt.reconfiguration_ps =
          std::max(pt.reconfiguration_ps, ps(exposed, plan, i, "exposed reconfiguration",
                                             "its reconfigurations and fabric.reconfiguration_ps"));
      pt.reconfigurations =
          std::max(pt.reconfigurations, ph.internal_reconfigurations + ph.boundary_reconfiguration);
    }
  }
  total(it);
  return it;
}

IterationTime electrical_iteration(const OpusPlan& plan) {
  IterationTime it = skeleton(plan);
  if (plan.fabric.eps_switch_radix > 0) {
    clos_rails(plan, it, 1, 1.0);
    for (size_t i = 0; i < it.phases.size(); ++i)
      eps_phase(plan, it, i, plan.fabric.eps_bytes_per_ps(), double(plan.fabric.eps_latency_ps),
                "its bytes, fabric.eps_gbps and fabric.eps_latency_ps");
    total(it);
    return it;
  }
  packet_rails(plan, it, plan.fabric.eps_bytes_per_ps(), double(plan.fabric.eps_latency_ps),
               "its bytes, fabric.eps_gbps and fabric.eps_latency_ps");
  total(it);
  return it;
}

IterationTime shared_eps_iteration(const OpusPlan& plan, const EpsLoad& load) {
  if (load.jobs < 1 || !(load.duty >= 0 && load.duty <= 1)) {
    throw std::invalid_argument(fmt::format(
        "eps load: jobs must be at least 1 and duty in 0..1, got {} and {}", load.jobs, load.duty));
  }
  IterationTime it = skeleton(plan);
  const Fabric& f = plan.fabric;
  if (f.eps_switch_radix > 0) {
    clos_rails(plan, it, load.jobs, load.duty);
    for (size_t i = 0; i < it.phases.size(); ++i)
      eps_phase(plan, it, i, f.eps_bytes_per_ps() / f.eps_oversubscription, double(f.eps_latency_ps),
                "its bytes, fabric.eps_gbps, eps_oversubscription and eps_latency_ps");
    total(it);
    return it;
  }
  const double others = (load.jobs - 1) * load.duty;
  const double rate = f.eps_bytes_per_ps() / (f.eps_oversubscription * (1.0 + others));
  const double queueing = others * f.eps_queue_bytes / f.eps_bytes_per_ps();
  packet_rails(plan, it, rate, f.eps_latency_ps + queueing,
               "its bytes, the EPS load and fabric.eps_gbps, eps_oversubscription, eps_latency_ps, "
               "eps_queue_bytes");
  total(it);
  return it;
}

}  // namespace lightrail::planner
