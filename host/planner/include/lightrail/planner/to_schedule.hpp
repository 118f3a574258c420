// A plan as schedules the boards run: one lightrail::Schedule per board
// driving a rail switch's ports.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/schedule.hpp"

namespace lightrail::planner {

struct BoardSchedule {
  int rail = 0;
  // "ocs": board b drives switch ports b*P..b*P+P-1, a port's value is the
  // output port; "awgr": lasers, value = (dst - src) mod radix; "ingress",
  // "middle", "egress": the stages of a 3-stage Clos of board-sized switches
  // when the rail needs more ports than a board has wavelengths.
  std::string role;
  int index = 0;  // board within its role
  Schedule schedule;
};

// Steps: each phase opens with an event-triggered step (the host fires it
// when the phase's collective is issued; its compute gap is not known in
// advance) that already holds the phase's first configuration, so the
// switch settles during the gap. The collective's rounds follow as
// time-triggered steps of the modelled durations. guard_ps is the fabric's
// reconfiguration time. Cyclic: one iteration repeats.
// Throws std::invalid_argument when a rail cannot be driven by boards of
// `caps` (too many ports, configurations or steps), naming the limit, or
// when a step would last beyond kMaxPs (limits.hpp), naming the phase.
// kAuto: one switch when the rail's ports fit the boards' values, else a
// Clos; kClos: every rail as a 3-stage Clos (a fabric whose rails are Clos
// rails of boards, docs/fabric.md), whatever its width.
enum class RailStages { kAuto, kClos };
std::vector<BoardSchedule> to_schedules(const OpusPlan& plan, const DeviceCapabilities& caps,
                                        RailStages stages = RailStages::kAuto);

// Routes a permutation of `ports` switch ports (kIdle allowed) through a
// 3-stage Clos of (n x n) ingress, (r x r) middle and (n x n) egress
// switches, n = board_ports, r = ceil(ports / n); returns for each stage and
// switch the per-port output (kIdle: dark). Rearrangeably non-blocking:
// Birkhoff-von Neumann on the ingress-to-egress count matrix gives one
// matching per middle switch. Throws std::invalid_argument for
// board_ports < 1 or a configuration that is not one-to-one.
struct ClosRoute {
  std::vector<std::vector<int>> ingress, middle, egress;
};
ClosRoute route_clos(const Matching& m, int board_ports);

}  // namespace lightrail::planner
