// Flow-level iteration time. Phase time = compute + exposed reconfiguration
// + the collective's rounds (bytes on the busiest port over the available
// bandwidth, plus per-round latency). Rails run in parallel; a phase ends
// when its slowest rail does. Every function throws std::invalid_argument
// naming the phase and the inputs when a time exceeds kMaxPs (limits.hpp).
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "lightrail/planner/opus.hpp"

namespace lightrail::planner {

struct PhaseTime {
  int64_t compute_ps = 0;
  int64_t comm_ps = 0;
  int64_t reconfiguration_ps = 0;  // exposed (not hidden behind compute)
  int reconfigurations = 0;        // on the busiest rail
};

struct IterationTime {
  std::vector<PhaseTime> phases;
  int64_t compute_ps = 0, comm_ps = 0, reconfiguration_ps = 0;
  int reconfigurations = 0;
  int64_t total_ps() const { return compute_ps + comm_ps + reconfiguration_ps; }
};

// Photonic rails. With `overlap` a boundary reconfiguration starts when the
// previous collective ends, so the phase's compute gap hides it; without, it
// starts when the collective is issued. Reconfigurations between rounds of
// one collective are always exposed (no circuit may move while data flows).
// Phases the plan keeps electrical (plan.on_eps) run on the shared EPS at
// eps_gbps / eps_oversubscription, eps_latency_ps a dependent round.
IterationTime photonic_iteration(const OpusPlan& plan, bool overlap);

// Electrical rails: every rail an EPS of fabric.eps_gbps per port (by
// default link_gbps, the same bandwidth), any-to-any, never reconfigured;
// rounds that do not depend on each other (direct all-to-all) run at once.
// With fabric.eps_switch_radix 0 each rail is one ideal switch; else a Clos
// of such switches (clos.hpp): a round's flows share links by ECMP and
// cross 2 x tiers - 1 switches when they leave their leaf.
IterationTime electrical_iteration(const OpusPlan& plan);

// A shared EPS: `jobs` jobs (this one included) contend for the core, each
// communicating `duty` of the time. A flow gets eps rate / (oversubscription
// x contenders) and waits behind the competitors' queued bytes each round.
// With fabric.eps_switch_radix > 0 the jobs are placed scattered on a Clos
// instead (clos.hpp) and what a flow gets follows from the links it shares.
// jobs >= 1 and duty in 0..1, else std::invalid_argument.
struct EpsLoad {
  int jobs = 1;
  double duty = 1.0;
};
IterationTime shared_eps_iteration(const OpusPlan& plan, const EpsLoad& load);

}  // namespace lightrail::planner
