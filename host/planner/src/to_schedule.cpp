#include "lightrail/planner/to_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/bvn.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {

ClosRoute route_clos(const Matching& m, int n) {
  if (n < 1) throw std::invalid_argument(fmt::format("route_clos: boards of {} ports", n));
  verify_one_to_one(m, "route_clos");
  const int ports = m.ports();
  const int r = (ports + n - 1) / n;
  const int total = r * n;
  // Complete to a full permutation; the filler circuits stay dark.
  std::vector<int> dest(total, kIdle);
  std::vector<bool> used(total, false), real(total, false);
  for (int i = 0; i < ports; ++i) {
    if (m.dest[i] == kIdle) continue;
    dest[i] = m.dest[i];
    used[m.dest[i]] = true;
    real[i] = true;
  }
  int free_out = 0;
  for (int i = 0; i < total; ++i) {
    if (dest[i] != kIdle) continue;
    while (used[free_out]) ++free_out;
    dest[i] = free_out;
    used[free_out] = true;
  }
  TrafficMatrix count(r, std::vector<int64_t>(r, 0));
  for (int i = 0; i < total; ++i) ++count[i / n][dest[i] / n];
  // Each term sigma with weight w: w middle switches, each joining ingress i
  // to egress sigma(i).
  std::vector<std::vector<int>> middle_perm;
  for (const WeightedMatching& t : bvn_decompose(count).terms)
    for (int64_t k = 0; k < t.bytes; ++k) middle_perm.push_back(t.matching.dest);
  if (int(middle_perm.size()) != n) throw std::logic_error("clos: middle stage does not have n matchings");
  ClosRoute route;
  route.ingress.assign(r, std::vector<int>(n, kIdle));
  route.middle.assign(n, std::vector<int>(r, kIdle));
  route.egress.assign(r, std::vector<int>(n, kIdle));
  for (int i = 0; i < r; ++i) {
    std::vector<bool> taken(n, false);
    for (int p = 0; p < n; ++p) {
      const int in = i * n + p;
      const int j = dest[in] / n;
      int k = 0;
      while (taken[k] || middle_perm[k][i] != j) ++k;
      taken[k] = true;
      if (!real[in]) continue;
      route.ingress[i][p] = k;
      route.middle[k][i] = j;
      route.egress[j][k] = dest[in] % n;
    }
  }
  return route;
}

namespace {

int64_t round_up(int64_t x, int64_t unit) { return (x + unit - 1) / unit * unit; }

struct Segment {
  int config;
  int64_t duration_ps;
  bool event;
};

}  // namespace

std::vector<BoardSchedule> to_schedules(const OpusPlan& plan, const DeviceCapabilities& caps,
                                        RailStages stages) {
  const Fabric& f = plan.fabric;
  const int P = static_cast<int>(caps.ports);
  const int W = static_cast<int>(caps.wavelengths);
  const int64_t clk = caps.clk_period_ps;
  // Room for the worst laser tune after the guard (validate() checks it).
  int64_t tune_max = 0;
  for (int w = 0; w < W; ++w) tune_max = std::max(tune_max, caps.max_tune_to_ps(w));
  const int64_t guard = f.reconfiguration_ps;
  const int64_t shortest = std::max(caps.min_step_ps(), round_up(guard + tune_max + clk, clk));
  const double rate = f.link_bytes_per_ps();
  std::vector<BoardSchedule> out;
  for (const RailPlan& rp : plan.rails) {
    // Whether boards can drive the rail at all, before any work for it.
    const int N = rp.ports;
    const bool clos = stages == RailStages::kClos || (f.mode == SwitchMode::kOcs && N > W);
    if (stages == RailStages::kClos && f.mode == SwitchMode::kAwgr)
      throw std::invalid_argument("fabric.mode: a Clos of boards is built of circuit switches (\"ocs\")");
    if (clos && ((N + P - 1) / P > P || (N + P - 1) / P > W)) {
      throw std::invalid_argument(
          fmt::format("fabric.ocs_radix: rail {} needs {} switch ports; boards of {} ports compose at most "
                      "{} (a {}x{} Clos)",
                      rp.rail, N, P, P * std::min(P, W), P, P));
    }
    if (f.mode == SwitchMode::kAwgr) {
      if (f.ocs_radix > W) {
        throw std::invalid_argument(
            fmt::format("fabric.ocs_radix: an AWGR of {} ports needs {} wavelengths, the board has {}",
                        f.ocs_radix, f.ocs_radix, W));
      }
    }
    // The rail's program as (config, duration) segments.
    std::vector<Segment> segs;
    for (size_t pi = 0; pi < rp.phases.size(); ++pi) {
      const RailPhase& ph = rp.phases[pi];
      if (ph.round_config.empty()) continue;
      auto step_ps = [&](double d) {
        if (!representable_ps(d)) {
          check_ps(d, fmt::format("job.phases[{}] ({}): rail {} step duration", pi,
                                  printable(plan.job.phases[pi].name), rp.rail));
        }
        return static_cast<int64_t>(d);
      };
      segs.push_back({ph.round_config.front(), shortest, true});
      int prev = ph.round_config.front();
      for (size_t t = 0; t < ph.round_config.size(); ++t) {
        const int c = ph.round_config[t];
        const double d = ph.round_bytes[t] / rate + f.circuit_latency_ps;
        if (c == prev && !segs.back().event) {
          segs.back().duration_ps = step_ps(segs.back().duration_ps + d);
        } else {
          segs.push_back({c, step_ps(d + (c != prev ? guard : 0)), false});
        }
        prev = c;
      }
    }
    if (segs.empty()) continue;
    for (Segment& s : segs) s.duration_ps = std::max(shortest, round_up(s.duration_ps, clk));
    if (segs.size() > caps.max_steps) {
      throw std::invalid_argument(
          fmt::format("rail {}: {} steps per iteration, a board holds at most {} (max_steps)", rp.rail,
                      segs.size(), caps.max_steps));
    }
    // Board-level configurations of every rail configuration.
    std::vector<BoardSchedule> boards;
    std::vector<std::vector<std::vector<int>>> per_board;  // [board][rail config] -> port values
    auto add_board = [&](const std::string& role, int index) {
      BoardSchedule b;
      b.rail = rp.rail;
      b.role = role;
      b.index = index;
      boards.push_back(std::move(b));
      per_board.emplace_back(rp.configs.size(), std::vector<int>(P, kDark));
    };
    if (f.mode == SwitchMode::kAwgr) {
      for (int b = 0; b * P < N; ++b) add_board("awgr", b);
      for (size_t c = 0; c < rp.configs.size(); ++c)
        for (int s = 0; s < N; ++s)
          if (rp.configs[c].dest[s] != kIdle)
            per_board[s / P][c][s % P] =
                ((rp.configs[c].dest[s] - s) % f.ocs_radix + f.ocs_radix) % f.ocs_radix;
    } else if (!clos) {
      for (int b = 0; b * P < N; ++b) add_board("ocs", b);
      for (size_t c = 0; c < rp.configs.size(); ++c)
        for (int s = 0; s < N; ++s)
          if (rp.configs[c].dest[s] != kIdle) per_board[s / P][c][s % P] = rp.configs[c].dest[s];
    } else {
      const int r = (N + P - 1) / P;
      for (int i = 0; i < r; ++i) add_board("ingress", i);
      for (int k = 0; k < P; ++k) add_board("middle", k);
      for (int j = 0; j < r; ++j) add_board("egress", j);
      for (size_t c = 0; c < rp.configs.size(); ++c) {
        const ClosRoute route = route_clos(rp.configs[c], P);
        for (int i = 0; i < r; ++i)
          for (int p = 0; p < P; ++p) per_board[i][c][p] = route.ingress[i][p];
        for (int k = 0; k < P; ++k)
          for (int i = 0; i < r; ++i) per_board[r + k][c][i] = route.middle[k][i];
        for (int j = 0; j < r; ++j)
          for (int p = 0; p < P; ++p) per_board[r + P + j][c][p] = route.egress[j][p];
      }
    }
    for (size_t b = 0; b < boards.size(); ++b) {
      Schedule& s = boards[b].schedule;
      s.generation = 1;
      s.cyclic = true;
      s.guard_ps = guard;
      std::map<std::vector<int>, uint32_t> index;
      for (const Segment& seg : segs) {
        const auto& values = per_board[b][seg.config];
        auto it = index.find(values);
        if (it == index.end()) {
          it = index.emplace(values, uint32_t(s.configs.size())).first;
          s.configs.push_back({fmt::format("rail{}.config{}", rp.rail, seg.config), values});
        }
        s.steps.push_back({it->second, seg.duration_ps, seg.event});
      }
      if (s.configs.size() > caps.max_configs) {
        throw std::invalid_argument(
            fmt::format("rail {} {} board {}: {} configurations, a board holds at most {}", rp.rail,
                        boards[b].role, boards[b].index, s.configs.size(), caps.max_configs));
      }
      out.push_back(std::move(boards[b]));
    }
  }
  return out;
}

}  // namespace lightrail::planner
