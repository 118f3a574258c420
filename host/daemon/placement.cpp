#include "placement.hpp"

#include <fmt/format.h>

#include <map>

#include "lightrail/planner/choice.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"

namespace lightrail::daemon {

namespace lp = lightrail::planner;

std::vector<BoardAssignment> Placement::assignments() const {
  std::vector<BoardAssignment> out;
  for (const PlacedBoard& b : boards) out.push_back({b.board, b.schedule});
  return out;
}

lp::Fabric planner_fabric(const FabricSpec& spec, const lp::Fabric& model) {
  if (spec.rails.empty()) throw PlacementError("rails", "the fabric has no rails", false);
  const FabricRail& first = spec.rails.front();
  for (const FabricRail& r : spec.rails) {
    if (r.kind != first.kind || r.radix != first.radix) {
      throw PlacementError("rails",
                           fmt::format("rail {} differs from rail {} in switch kind or radix; the planner "
                                       "takes one of each for the whole fabric",
                                       r.rail, first.rail),
                           false);
    }
  }
  lp::Fabric f = model;
  f.name = spec.name;
  // A Clos rail is, to the planner, one circuit switch of its radix; its
  // stages are to_schedules' (RailStages::kClos).
  f.mode = first.kind == SwitchKind::kAwgr ? lp::SwitchMode::kAwgr : lp::SwitchMode::kOcs;
  f.rails = static_cast<int>(spec.rails.size());
  f.ocs_radix = first.radix;
  return f;
}

namespace {

// "job.gpus: ..." -> "job.gpus"; the planner puts the field first.
std::string field_of(const std::string& message) {
  const auto colon = message.find(':');
  if (colon == std::string::npos || message.find(' ') < colon) return "";
  return message.substr(0, colon);
}

ClosStage stage_of(const std::string& role) {
  if (role == "ingress") return ClosStage::kIngress;
  if (role == "middle") return ClosStage::kMiddle;
  if (role == "egress") return ClosStage::kEgress;
  return ClosStage::kNone;
}

bool fully_cabled(const FabricBoard& b, uint32_t ports) {
  if (b.switch_ports.size() < ports) return false;
  for (uint32_t p = 0; p < ports; ++p)
    if (b.switch_ports[p] == kDark) return false;
  return true;
}

}  // namespace

Placement place_job(const lp::Job& job, const FabricSpec& spec, const DeviceCapabilities& caps,
                    const lp::Fabric& model, const std::vector<bool>& board_free, uint32_t generation) {
  const lp::Fabric fabric = planner_fabric(spec, model);
  const bool clos = spec.rails.front().kind == SwitchKind::kClos;  // planner_fabric: all rails alike
  // The plan `lightrail plan` chooses: per phase the algorithm, and circuits
  // or the electrical network, whichever the cost model finds faster with
  // this fabric's reconfiguration time. An electrical phase has no steps on
  // the boards, so its boundary moves no circuits.
  lp::ChosenPlan choice;
  lp::OpusPlan plan;
  std::vector<lp::BoardSchedule> rel;
  try {
    lp::check_fits(fabric, job);
    choice = lp::choose_plan(job, fabric);
    plan = choice.plan;
    rel = lp::to_schedules(plan, caps, clos ? lp::RailStages::kClos : lp::RailStages::kAuto);
  } catch (const std::invalid_argument& e) {
    throw PlacementError(field_of(e.what()), e.what(), false);
  }
  const auto P = static_cast<int>(caps.ports);
  auto rail_ports = [&](int rail) {
    for (const lp::RailPlan& rp : plan.rails)
      if (rp.rail == rail) return rp.ports;
    return 0;
  };
  // Each rail's board schedules, in the planner's board order.
  std::map<int, std::vector<const lp::BoardSchedule*>> by_rail;
  for (const lp::BoardSchedule& b : rel) {
    if (!clos && b.role != "awgr" && b.role != "ocs") {
      throw PlacementError(
          "",
          fmt::format("rail {} needs {} ports, more than one switch driven by boards reaches; "
                      "describe the rail as a Clos of boards (\"switch\": \"clos\", "
                      "docs/fabric.md)",
                      b.rail, rail_ports(b.rail)),
          false);
    }
    by_rail[b.rail].push_back(&b);
  }
  // Free, fully cabled boards per rail, lowest index first.
  std::vector<bool> taken(spec.boards.size(), false);
  Placement out;
  std::vector<std::string> short_of;
  std::map<int, std::vector<size_t>> chosen;
  for (const auto& [rail, boards] : by_rail) {
    if (clos) {
      // Each stage switch of the plan on the board that is that switch.
      std::vector<size_t> at;
      std::vector<std::string> busy;
      for (const lp::BoardSchedule* b : boards) {
        std::optional<size_t> found;
        for (size_t i = 0; i < spec.boards.size(); ++i)
          if (spec.boards[i].rail == rail && spec.boards[i].stage == stage_of(b->role) &&
              spec.boards[i].stage_index == b->index)
            found = i;
        if (!found) {
          throw PlacementError("",
                               fmt::format("rail {} needs {} {} of its Clos, which the fabric does not list",
                                           rail, b->role, b->index),
                               false);
        }
        if (*found >= board_free.size() || !board_free[*found]) busy.push_back(spec.boards[*found].name);
        at.push_back(*found);
      }
      if (!busy.empty()) {
        std::string names;
        for (size_t i = 0; i < busy.size(); ++i) names += (i ? ", " : "") + busy[i];
        short_of.push_back(fmt::format("rail {} (a Clos) needs {} boards, of which {} are not free", rail,
                                       boards.size(), names));
        continue;
      }
      chosen[rail] = at;
      continue;
    }
    std::vector<size_t> usable, cabled;
    for (size_t i = 0; i < spec.boards.size(); ++i) {
      if (spec.boards[i].rail != rail || !fully_cabled(spec.boards[i], caps.ports)) continue;
      cabled.push_back(i);
      if (i < board_free.size() && board_free[i]) usable.push_back(i);
    }
    if (cabled.size() < boards.size()) {
      throw PlacementError("",
                           fmt::format("rail {} needs {} boards of {} ports, the fabric cables {}", rail,
                                       boards.size(), P, cabled.size()),
                           false);
    }
    if (usable.size() < boards.size()) {
      short_of.push_back(fmt::format("rail {} needs {} boards, {} free", rail, boards.size(), usable.size()));
      continue;
    }
    usable.resize(boards.size());
    chosen[rail] = usable;
  }
  if (!short_of.empty()) {
    std::string msg = "not enough free boards: ";
    for (size_t i = 0; i < short_of.size(); ++i) msg += (i ? "; " : "") + short_of[i];
    throw PlacementError("", msg, true);
  }
  const int R = fabric.ocs_radix;
  for (const auto& [rail, boards] : by_rail) {
    const std::vector<size_t>& at = chosen[rail];
    // Planner port i of this rail -> the switch port it is cabled to.
    auto abs_port = [&](int i) { return spec.boards[at[i / P]].switch_ports[i % P]; };
    for (size_t k = 0; k < boards.size(); ++k) {
      PlacedBoard pb;
      pb.board = at[k];
      pb.schedule = boards[k]->schedule;
      pb.schedule.generation = generation;
      // On a Clos rail every value names the next stage's switch or the
      // egress port, as the fabric's stages are cabled: nothing to move.
      for (Configuration& c : pb.schedule.configs) {
        if (clos) break;
        for (int p = 0; p < P && p < int(c.wavelength.size()); ++p) {
          int& v = c.wavelength[p];
          if (v == kDark) continue;
          const int src = int(k) * P + p;
          if (fabric.mode == lp::SwitchMode::kOcs) {
            v = abs_port(v);
          } else {
            const int dst = (src + v) % R;
            v = ((abs_port(dst) - abs_port(src)) % R + R) % R;
          }
        }
      }
      out.boards.push_back(std::move(pb));
    }
  }
  // Event steps open the phases that use the rail, in phase order.
  for (PlacedBoard& pb : out.boards) {
    const int rail = spec.boards[pb.board].rail;
    const lp::RailPlan* rp = nullptr;
    for (const lp::RailPlan& r : plan.rails)
      if (r.rail == rail) rp = &r;
    pb.phase_step.assign(job.phases.size(), std::nullopt);
    std::vector<uint32_t> events;
    for (uint32_t s = 0; s < pb.schedule.steps.size(); ++s)
      if (pb.schedule.steps[s].event_triggered) events.push_back(s);
    size_t e = 0;
    for (size_t ph = 0; rp && ph < rp->phases.size(); ++ph) {
      if (rp->phases[ph].round_config.empty()) continue;
      if (e >= events.size()) throw std::logic_error("placement: fewer event steps than active phases");
      pb.phase_step[ph] = events[e++];
    }
  }
  // What the plan predicts, for the answer and the demo's comparison.
  const lp::IterationTime& it = choice.chosen;
  nlohmann::json rails = nlohmann::json::array();
  for (const lp::RailPlan& rp : plan.rails) {
    nlohmann::json boards = nlohmann::json::array();
    for (const PlacedBoard& pb : out.boards)
      if (spec.boards[pb.board].rail == rp.rail) boards.push_back(spec.boards[pb.board].name);
    rails.push_back({{"rail", rp.rail},
                     {"ports", rp.ports},
                     {"configurations", rp.configs.size()},
                     {"reconfigurations_per_iteration", rp.reconfigurations_per_iteration()},
                     {"boards", boards}});
  }
  nlohmann::json phases = nlohmann::json::array();
  for (size_t i = 0; i < job.phases.size(); ++i) {
    bool boundary = false;
    for (const lp::RailPlan& rp : plan.rails) boundary |= rp.phases[i].boundary_reconfiguration;
    phases.push_back({{"phase", job.phases[i].name},
                      {"network", lp::to_string(choice.phases[i].network)},
                      {"algorithm", lp::to_string(choice.phases[i].algorithm)},
                      {"compute_ps", it.phases[i].compute_ps},
                      {"comm_ps", it.phases[i].comm_ps},
                      {"reconfigurations", it.phases[i].reconfigurations},
                      {"boundary_reconfiguration", boundary}});
  }
  out.summary = {{"rails", rails},
                 {"phases", phases},
                 {"reconfiguration_ps", fabric.reconfiguration_ps},
                 {"iteration_ps", it.total_ps()},
                 {"electrical_fallback_ps", choice.electrical.total_ps()},
                 {"declared_circuits_ps", choice.declared_circuits.total_ps()},
                 {"fallback", choice.fallback},
                 {"circuits_kept_in_place", choice.in_place},
                 {"choice", lp::to_json(choice)},
                 {"generation", generation}};
  return out;
}

}  // namespace lightrail::daemon
