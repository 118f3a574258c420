#include "lightrail/planner/in_place.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

constexpr int kIdlePhase = kInPlaceIdle;
constexpr int kAlone = kInPlaceAlone;

// What each phase needs of a one-port rail: its single configuration, or
// kAlone, or kIdlePhase.
std::vector<int> items_of(const RailPlan& rail) {
  std::vector<int> items;
  for (const RailPhase& ph : rail.phases) {
    if (ph.round_config.empty()) {
      items.push_back(kIdlePhase);
      continue;
    }
    const bool one = std::all_of(ph.round_config.begin(), ph.round_config.end(),
                                 [&](int c) { return c == ph.round_config.front(); });
    items.push_back(one ? ph.round_config.front() : kAlone);
  }
  return items;
}

// Windows (each a list of phase indices) covering the busy phases in
// cyclic order, at most `ports` distinct items in each. Greedy from a start
// is optimal for a line; trying every start makes it optimal for the cycle
// (an optimal cut starts at some phase).
}  // namespace

std::vector<std::vector<size_t>> in_place_windows(const std::vector<int>& items, int ports) {
  std::vector<size_t> busy;
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i] != kIdlePhase) busy.push_back(i);
  const size_t n = busy.size();
  // Every start costs n steps: bounded so a long iteration stays quick.
  const size_t starts = n <= 2048 ? n : 1;
  std::vector<std::vector<size_t>> best;
  for (size_t s = 0; s < starts; ++s) {
    std::vector<std::vector<size_t>> w;
    std::vector<int> held;
    bool open = false;
    for (size_t j = 0; j < n; ++j) {
      const size_t i = busy[(s + j) % n];
      const int item = items[i];
      const bool fits = open && item != kAlone && !held.empty() && held.front() != kAlone &&
                        (std::count(held.begin(), held.end(), item) > 0 || int(held.size()) < ports);
      if (!fits) {
        w.emplace_back();
        held.clear();
        open = true;
      }
      w.back().push_back(i);
      if (std::count(held.begin(), held.end(), item) == 0) held.push_back(item);
    }
    if (best.empty() || w.size() < best.size()) best = std::move(w);
    if (best.size() <= 1) break;
  }
  return best;
}

namespace {

// `config` of a one-port rail on the NIC ports `ports` of a k-port rail.
void place(Matching& out, const Matching& config, const std::vector<int>& ports, int k) {
  for (int x = 0; x < config.ports(); ++x) {
    if (config.dest[x] == kIdle) continue;
    for (int p : ports) out.dest[x * k + p] = config.dest[x] * k + p;
  }
}

}  // namespace

OpusPlan keep_in_place(const Job& job, const Fabric& fabric, const std::vector<bool>& electrical) {
  // Scale-up, electrical phases and dependent rounds as on striped ports.
  OpusPlan plan = plan_opus(job, fabric, electrical);
  const int k = fabric.ports_per_nic;
  if (k < 2) return plan;
  Fabric one = fabric;
  one.ports_per_nic = 1;
  const OpusPlan single = plan_opus(job, one, electrical);
  int64_t entries = 0;
  for (size_t ri = 0; ri < single.rails.size(); ++ri) {
    const RailPlan& s = single.rails[ri];
    RailPlan& out = plan.rails[ri];
    const int ports = s.ports * k;
    out.configs.clear();
    std::map<std::vector<int>, int> ids;
    auto config_id = [&](Matching m, const std::string& what) {
      auto [it, fresh] = ids.try_emplace(m.dest, int(out.configs.size()));
      if (!fresh) return it->second;
      entries += ports;
      if (entries > kMaxPlanEntries) {
        throw std::invalid_argument(
            fmt::format("{}: a plan holds at most {} configuration entries", what, kMaxPlanEntries));
      }
      verify_one_to_one(m, what);
      out.configs.push_back(std::move(m));
      return it->second;
    };
    const std::vector<int> items = items_of(s);
    for (const auto& window : in_place_windows(items, k)) {
      const std::string what = fmt::format("rail {} circuits kept in place from phase {} ({})", out.rail,
                                           window.front(), job.phases[window.front()].name);
      std::vector<int> held;  // distinct items of the window, in order of use
      for (size_t i : window)
        if (std::count(held.begin(), held.end(), items[i]) == 0) held.push_back(items[i]);
      const int m = int(held.size());
      auto ports_of = [&](int j) {
        std::vector<int> v;
        for (int p = j; p < k; p += m) v.push_back(p);
        return v;
      };
      for (size_t i : window) {
        const RailPhase& src = s.phases[i];
        RailPhase& ph = out.phases[i];
        ph = RailPhase{};
        if (items[i] == kAlone) {
          // Its matchings one after the other, each on every port.
          std::map<int, int> striped;
          for (int c : src.round_config) {
            if (striped.count(c)) continue;
            Matching mm{std::vector<int>(ports, kIdle)};
            place(mm, s.configs[c], ports_of(0), k);
            striped[c] = config_id(std::move(mm), what);
          }
          for (int c : src.round_config) ph.round_config.push_back(striped[c]);
          for (int64_t b : src.round_bytes) ph.round_bytes.push_back((b + k - 1) / k);
          ph.internal_reconfigurations = src.internal_reconfigurations;
          continue;
        }
        Matching mm{std::vector<int>(ports, kIdle)};
        for (int j = 0; j < m; ++j) place(mm, s.configs[held[j]], ports_of(j), k);
        const int id = config_id(std::move(mm), what);
        const int64_t q =
            int64_t(ports_of(int(std::find(held.begin(), held.end(), items[i]) - held.begin())).size());
        ph.round_config.assign(src.round_config.size(), id);
        for (int64_t b : src.round_bytes) ph.round_bytes.push_back((b + q - 1) / q);
      }
    }
    mark_boundaries(out);
  }
  return plan;
}

}  // namespace lightrail::planner
