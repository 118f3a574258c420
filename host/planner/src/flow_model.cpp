#include "lightrail/planner/flow_model.hpp"

#include <algorithm>

namespace lightrail::planner {
namespace {

int64_t ps(double x) { return static_cast<int64_t>(x + 0.5); }

// Phases in common: compute, and scale-up traffic for groups inside a node.
IterationTime skeleton(const OpusPlan& plan) {
  IterationTime it;
  it.phases.resize(plan.job.phases.size());
  const double nvlink = plan.fabric.scale_up_gbps / 8e3;
  for (size_t i = 0; i < it.phases.size(); ++i) {
    it.phases[i].compute_ps = plan.job.phases[i].compute_ps;
    it.phases[i].comm_ps = ps(plan.scale_up[i].bytes / nvlink);
  }
  return it;
}

void total(IterationTime& it) {
  for (const PhaseTime& p : it.phases) {
    it.compute_ps += p.compute_ps;
    it.comm_ps += p.comm_ps;
    it.reconfiguration_ps += p.reconfiguration_ps;
    it.reconfigurations += p.reconfigurations;
  }
}

// Rail traffic over a packet switch: per-port rate `rate`, `latency` per
// dependent round.
void packet_rails(const OpusPlan& plan, IterationTime& it, double rate, double latency) {
  for (size_t i = 0; i < it.phases.size(); ++i) {
    for (const RailPlan& rp : plan.rails) {
      const RailPhase& ph = rp.phases[i];
      if (ph.round_bytes.empty()) continue;
      int64_t bytes = 0;
      for (int64_t b : ph.round_bytes) bytes += b;
      const int rounds = std::min<int>(plan.dependent_rounds[i], int(ph.round_bytes.size()));
      it.phases[i].comm_ps = std::max(it.phases[i].comm_ps, ps(bytes / rate + rounds * latency));
    }
  }
}

}  // namespace

IterationTime photonic_iteration(const OpusPlan& plan, bool overlap) {
  IterationTime it = skeleton(plan);
  const Fabric& f = plan.fabric;
  const double rate = f.link_bytes_per_ps();
  for (size_t i = 0; i < it.phases.size(); ++i) {
    PhaseTime& pt = it.phases[i];
    for (const RailPlan& rp : plan.rails) {
      const RailPhase& ph = rp.phases[i];
      if (ph.round_config.empty()) continue;
      double comm = 0;
      for (int64_t b : ph.round_bytes) comm += b / rate + f.circuit_latency_ps;
      pt.comm_ps = std::max(pt.comm_ps, ps(comm));
      int64_t exposed = ph.internal_reconfigurations * f.reconfiguration_ps;
      if (ph.boundary_reconfiguration) {
        exposed +=
            overlap ? std::max<int64_t>(0, f.reconfiguration_ps - pt.compute_ps) : f.reconfiguration_ps;
      }
      pt.reconfiguration_ps = std::max(pt.reconfiguration_ps, exposed);
      pt.reconfigurations =
          std::max(pt.reconfigurations, ph.internal_reconfigurations + ph.boundary_reconfiguration);
    }
  }
  total(it);
  return it;
}

IterationTime electrical_iteration(const OpusPlan& plan) {
  IterationTime it = skeleton(plan);
  packet_rails(plan, it, plan.fabric.eps_bytes_per_ps(), double(plan.fabric.eps_latency_ps));
  total(it);
  return it;
}

IterationTime shared_eps_iteration(const OpusPlan& plan, const EpsLoad& load) {
  IterationTime it = skeleton(plan);
  const Fabric& f = plan.fabric;
  const double others = std::max(0, load.jobs - 1) * std::clamp(load.duty, 0.0, 1.0);
  const double rate = f.eps_bytes_per_ps() / (f.eps_oversubscription * (1.0 + others));
  const double queueing = others * f.eps_queue_bytes / f.eps_bytes_per_ps();
  packet_rails(plan, it, rate, f.eps_latency_ps + queueing);
  total(it);
  return it;
}

}  // namespace lightrail::planner
