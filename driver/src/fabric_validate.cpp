// validate_fabric: a set of board schedules checked against each other and
// against the cabling of the fabric file (docs/fabric.md, "Validation").
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "lightrail/fabric.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {
namespace {

// Who holds something at one step: a board (index into spec.boards) and port.
struct Holder {
  size_t board;
  size_t port;
};

class FabricChecker {
 public:
  FabricChecker(const FabricSpec& spec, const std::vector<BoardAssignment>& set) : spec_(spec), set_(set) {}

  std::vector<Problem> problems;

  void run(const std::vector<DeviceCapabilities>& caps) {
    if (caps.size() != spec_.boards.size()) {
      fail("(capabilities)",
           fmt::format("{} capability sets for the fabric's {} boards", caps.size(), spec_.boards.size()));
      return;
    }
    // Each board once, and known: the checks below index by board.
    std::map<size_t, size_t> seen;  // board -> its entry in set_
    for (size_t i = 0; i < set_.size(); ++i) {
      const size_t b = set_[i].board;
      const std::string at = fmt::format("schedules[{}].board", i);
      if (b >= spec_.boards.size()) {
        fail(at, fmt::format("board index {} is not in fabric {} (0..{})", b, printable(spec_.name),
                             spec_.boards.size() - 1));
        continue;
      }
      if (auto [it, fresh] = seen.emplace(b, i); !fresh) {
        fail(at, fmt::format("board {} already has a schedule (schedules[{}])", name(b), it->second));
        continue;
      }
      member_[b] = &set_[i].schedule;
    }
    for (const auto& [b, schedule] : member_) {
      for (const Problem& p : validate(*schedule, caps[b])) fail(name(b) + "." + p.where, p.message);
    }
    same_step_programs();
    links();
    clos_links();
  }

 private:
  const FabricSpec& spec_;
  const std::vector<BoardAssignment>& set_;
  std::map<size_t, const Schedule*> member_;  // board -> its schedule, in board order

  void fail(std::string where, std::string message) {
    problems.push_back({std::move(where), std::move(message)});
  }
  std::string name(size_t b) const { return printable(spec_.boards[b].name); }
  const FabricRail* rail_of(size_t b) const {
    for (const FabricRail& r : spec_.rails) {
      if (r.rail == spec_.boards[b].rail) return &r;
    }
    return nullptr;
  }

  // Boards of one rail switch on the same boundaries: the first board of the
  // rail in this set is the reference, the first difference of each other
  // board is named.
  void same_step_programs() {
    std::map<int, size_t> first;  // rail -> reference board
    for (const auto& [b, s] : member_) {
      auto [it, fresh] = first.emplace(spec_.boards[b].rail, b);
      if (fresh) continue;
      const size_t r = it->second;
      const Schedule& ref = *member_.at(r);
      const std::string why =
          fmt::format("boards on one rail must switch on the same boundaries; {} has ", name(r));
      if (s->cyclic != ref.cyclic) {
        fail(name(b) + ".cyclic", fmt::format("{}, but {}{}", s->cyclic, why, ref.cyclic));
        continue;
      }
      if (s->steps.size() != ref.steps.size()) {
        fail(name(b) + ".steps",
             fmt::format("{} steps, but {}{} steps", s->steps.size(), why, ref.steps.size()));
        continue;
      }
      for (size_t k = 0; k < s->steps.size(); ++k) {
        const Step& x = s->steps[k];
        const Step& y = ref.steps[k];
        const std::string at = fmt::format("{}.steps[{}]", name(b), k);
        if (x.duration_ps != y.duration_ps) {
          fail(at + ".duration_ps", fmt::format("{} ps, but {}{} ps", x.duration_ps, why, y.duration_ps));
          break;
        }
        if (x.event_triggered != y.event_triggered) {
          fail(at + ".event_triggered",
               fmt::format("{}, but {}{}", x.event_triggered, why, y.event_triggered));
          break;
        }
      }
    }
  }

  // Per step index and rail: where every lit port's light goes, and that no
  // two senders share a destination.
  void links() {
    // (rail, switch port) -> the board port cabled to it, over the whole
    // fabric: a destination of a board outside the set is someone else's.
    std::map<std::pair<int, int>, Holder> cabled;
    for (size_t b = 0; b < spec_.boards.size(); ++b) {
      const FabricBoard& fb = spec_.boards[b];
      for (size_t p = 0; p < fb.switch_ports.size(); ++p) {
        if (fb.switch_ports[p] != kDark)
          cabled.emplace(std::make_pair(fb.rail, fb.switch_ports[p]), Holder{b, p});
      }
    }
    size_t steps = 0;
    for (const auto& [b, s] : member_) steps = std::max(steps, s->steps.size());
    for (size_t k = 0; k < steps; ++k) {
      // (rail, destination switch port) -> the sender that reaches it and
      // its value. On an AWGR two senders can meet at a receiver only on
      // different wavelengths (one wavelength from one input reaches one
      // output), and a receiver takes one sender at a time: so at most one
      // sender per destination on either kind of rail.
      std::map<std::pair<int, int>, std::pair<Holder, int>> taken;
      for (const auto& [b, s] : member_) {
        if (k >= s->steps.size() || s->steps[k].config >= s->configs.size()) continue;  // validate() says
        const FabricRail* rail = rail_of(b);
        if (!rail || rail->radix < 1 || rail->kind == SwitchKind::kClos) continue;  // clos_links()
        const FabricBoard& fb = spec_.boards[b];
        const std::vector<int>& value = s->configs[s->steps[k].config].wavelength;
        for (size_t p = 0; p < value.size(); ++p) {
          const int v = value[p];
          if (v == kDark || v < 0) continue;  // a negative other than dark: validate() says
          const std::string at = fmt::format("{}.steps[{}].port {}", name(b), k, p);
          const int src = p < fb.switch_ports.size() ? fb.switch_ports[p] : kDark;
          if (src == kDark) {
            fail(at, fmt::format("lit ({} {}) but not cabled to rail {}'s switch", what_value(*rail), v,
                                 rail->rail));
            continue;
          }
          int dest = 0;
          if (rail->kind == SwitchKind::kOcs) {
            if (v >= rail->radix) {
              fail(at, fmt::format("output switch port {} is beyond rail {}'s {} ports", v, rail->rail,
                                   rail->radix));
              continue;
            }
            dest = v;
          } else {
            dest = static_cast<int>((int64_t{src} + v) % rail->radix);
          }
          const std::string dest_desc =
              rail->kind == SwitchKind::kOcs
                  ? fmt::format("output switch port {} of rail {}", dest, rail->rail)
                  : fmt::format("switch port {} of rail {} (wavelength {} from switch port {})", dest,
                                rail->rail, v, src);
          auto owner = cabled.find({rail->rail, dest});
          if (owner == cabled.end()) {
            fail(at, fmt::format("{} is not cabled to any board", dest_desc));
            continue;
          }
          const std::string receiver =
              fmt::format("{} port {}", name(owner->second.board), owner->second.port);
          if (member_.count(owner->second.board) == 0) {
            fail(at,
                 fmt::format("{} is {}, and {} is not in this set (that port belongs to another schedule)",
                             dest_desc, receiver, name(owner->second.board)));
            continue;
          }
          auto [it, fresh] = taken.emplace(std::make_pair(rail->rail, dest), std::make_pair(Holder{b, p}, v));
          if (fresh) continue;
          const Holder& h = it->second.first;
          if (rail->kind == SwitchKind::kOcs) {
            fail(at, fmt::format("{} ({}) is already taken at this step by {} port {}", dest_desc, receiver,
                                 name(h.board), h.port));
          } else {
            fail(at,
                 fmt::format("{} ({}) already receives {} port {} on wavelength {} at this step (a receiver "
                             "takes one sender at a time)",
                             dest_desc, receiver, name(h.board), h.port, it->second.second));
          }
        }
      }
    }
  }

  // The value board b's port p holds at step k (kDark when the step or the
  // port does not exist: validate() and same_step_programs() say why).
  int value_at(size_t b, size_t k, size_t p) const {
    const Schedule& s = *member_.at(b);
    if (k >= s.steps.size() || s.steps[k].config >= s.configs.size()) return kDark;
    const std::vector<int>& v = s.configs[s.steps[k].config].wavelength;
    return p < v.size() && v[p] >= 0 ? v[p] : kDark;
  }

  // Per step index on each Clos rail (docs/fabric.md, "Rails wider than one
  // switch"): every stage maps one-to-one, every lit circuit goes on lit
  // through the next stage to a rail port, and every lit middle or egress
  // input is fed by the stage before it, so the boards agree on the rail's
  // circuits.
  void clos_links() {
    const int P = static_cast<int>(hwdef::PORTS);
    for (const FabricRail& rail : spec_.rails) {
      if (rail.kind != SwitchKind::kClos) continue;
      const int r = rail.radix / P;  // ingress and egress boards
      // (stage, index) -> board, over the whole fabric.
      std::map<std::pair<ClosStage, int>, size_t> at;
      size_t steps = 0;
      for (size_t b = 0; b < spec_.boards.size(); ++b) {
        if (spec_.boards[b].rail != rail.rail) continue;
        at.emplace(std::make_pair(spec_.boards[b].stage, spec_.boards[b].stage_index), b);
        if (member_.count(b)) steps = std::max(steps, member_.at(b)->steps.size());
      }
      // The next stage's board, if it is in this set; else why not.
      auto next = [&](ClosStage st, int index, std::string* why) -> std::optional<size_t> {
        auto it = at.find({st, index});
        if (it == at.end()) {
          *why = fmt::format("no board of the fabric is {} {} of rail {}", to_string(st), index, rail.rail);
          return std::nullopt;
        }
        if (!member_.count(it->second)) {
          *why = fmt::format("{} {} of rail {} is {}, which is not in this set", to_string(st), index,
                             rail.rail, name(it->second));
          return std::nullopt;
        }
        return it->second;
      };
      for (size_t k = 0; k < steps; ++k) {
        std::set<std::pair<int, int>> fed_middle, fed_egress;  // (switch, input port) lit from before
        for (const ClosStage st : {ClosStage::kIngress, ClosStage::kMiddle, ClosStage::kEgress}) {
          const ClosStage after = st == ClosStage::kIngress ? ClosStage::kMiddle : ClosStage::kEgress;
          const int outputs = st == ClosStage::kMiddle ? r : P;  // middles reach the r egress boards
          for (const auto& [key, b] : at) {
            if (key.first != st || !member_.count(b)) continue;
            const int self = key.second;
            std::map<int, int> taken;  // output -> the input port using it
            for (int p = 0; p < P; ++p) {
              const int v = value_at(b, k, p);
              if (v == kDark) continue;
              const std::string where = fmt::format("{}.steps[{}].port {}", name(b), k, p);
              if (st == ClosStage::kMiddle && p >= r) {
                fail(where,
                     fmt::format("lit, but middle port {} is not cabled (rail {} has {} ingress boards)", p,
                                 rail.rail, r));
                continue;
              }
              if (st != ClosStage::kIngress &&
                  !(st == ClosStage::kMiddle ? fed_middle : fed_egress).count({self, p})) {
                fail(where,
                     fmt::format("lit, but no light arrives: {} {} sends nothing to {} {} at this step",
                                 st == ClosStage::kMiddle ? "ingress" : "middle", p, to_string(st), self));
                continue;
              }
              if (v >= outputs) {
                fail(where, fmt::format("{} {} has {} outputs (0..{}), not {}", to_string(st), self, outputs,
                                        outputs - 1, v));
                continue;
              }
              if (auto [it, fresh] = taken.emplace(v, p); !fresh) {
                fail(where, fmt::format("{} {}'s output {} is already taken at this step by port {}",
                                        to_string(st), self, v, it->second));
                continue;
              }
              if (st == ClosStage::kEgress) continue;  // leaves on rail port self*P+v
              std::string why;
              const auto nb = next(after, v, &why);
              if (!nb) {
                fail(where, why);
                continue;
              }
              if (value_at(*nb, k, size_t(self)) == kDark) {
                fail(where, fmt::format("the circuit ends at {} port {} ({} {}), which is dark at this step",
                                        name(*nb), self, to_string(after), v));
                continue;
              }
              (st == ClosStage::kIngress ? fed_middle : fed_egress).insert({v, self});
            }
          }
        }
      }
    }
  }

  static const char* what_value(const FabricRail& r) {
    return r.kind == SwitchKind::kOcs ? "to output switch port" : "on wavelength";
  }
};

}  // namespace

std::vector<Problem> validate_fabric(const FabricSpec& spec, const std::vector<DeviceCapabilities>& caps,
                                     const std::vector<BoardAssignment>& schedules) {
  FabricChecker checker(spec, schedules);
  checker.run(caps);
  return std::move(checker.problems);
}

}  // namespace lightrail
