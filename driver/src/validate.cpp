#include "lightrail/validate.hpp"

#include <fmt/format.h>

#include <limits>

#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"

namespace lightrail {
namespace {

constexpr int64_t kMaxDurationTicks =
    (int64_t{1} << (hwdef::IMG_STEP_DURATION_LO_WIDTH + hwdef::IMG_STEP_DURATION_HI_WIDTH)) - 1;

std::string wavelength_name(int w) { return w == kDark ? "dark" : std::to_string(w); }

// The tuning a port needs to go from `from` to `to`; it happens at the end of
// the step before the switch. Going dark needs none; coming from dark the
// laser may sit anywhere, so the worst case applies.
int64_t tune_needed_ps(const DeviceCapabilities& caps, int from, int to) {
  if (to == kDark || from == to) return 0;
  if (from == kDark) return caps.max_tune_to_ps(to);
  return caps.tune_ps(from, to);
}

}  // namespace

std::vector<Problem> validate(const Schedule& s, const DeviceCapabilities& caps) {
  std::vector<Problem> problems;
  auto fail = [&](std::string where, std::string message) {
    problems.push_back({std::move(where), std::move(message)});
  };
  const int64_t tick = caps.tick_ps();
  if (tick <= 0) {
    fail("(device)", fmt::format("capabilities have no usable tick (clk_period_ps {}, fine_steps {})",
                                 caps.clk_period_ps, caps.fine_steps));
    return problems;
  }

  if (s.guard_ps < 0) {
    fail("guard_ps", fmt::format("must not be negative, is {} ps", s.guard_ps));
  } else if (s.guard_ps / tick >= int64_t{std::numeric_limits<uint32_t>::max()}) {
    fail("guard_ps", fmt::format("{} ps overflows the 32-bit guard tick field", s.guard_ps));
  }
  // The board applies the guard in whole ticks, rounded up (without the
  // overflow of guard + tick near INT64_MAX the fuzzer found).
  const bool guard_fits =
      s.guard_ps >= 0 && s.guard_ps / tick < int64_t{std::numeric_limits<uint32_t>::max()};
  const int64_t guard_ps = guard_fits ? (s.guard_ps / tick + (s.guard_ps % tick != 0)) * tick : 0;

  if (s.activation_ps && *s.activation_ps < 0) {
    fail("activation.at_ps", fmt::format("must not be negative, is {} ps", *s.activation_ps));
  }

  if (s.configs.empty()) fail("configs", "a schedule needs at least one configuration");
  if (s.configs.size() > caps.max_configs) {
    fail("configs",
         fmt::format("{} configurations, the device holds at most {}", s.configs.size(), caps.max_configs));
  }
  if (s.steps.empty()) fail("steps", "a schedule needs at least one step");
  if (s.steps.size() > caps.max_steps) {
    fail("steps", fmt::format("{} steps, the device holds at most {}", s.steps.size(), caps.max_steps));
  }

  // Configurations whose every port is usable take part in the tune check.
  std::vector<bool> config_ok(s.configs.size(), true);
  for (size_t c = 0; c < s.configs.size(); ++c) {
    const auto& ports = s.configs[c].wavelength;
    if (ports.size() != caps.ports) {
      fail(fmt::format("configs[{}].ports", c),
           fmt::format("has {} ports, the device has {}", ports.size(), caps.ports));
      config_ok[c] = false;
    }
    for (size_t p = 0; p < ports.size(); ++p) {
      const int w = ports[p];
      if (w != kDark && (w < 0 || static_cast<uint32_t>(w) >= caps.wavelengths)) {
        fail(fmt::format("configs[{}].ports[{}]", c, p),
             fmt::format("wavelength {} is out of range (0..{} or \"dark\")", w,
                         int64_t{caps.wavelengths} - 1));
        config_ok[c] = false;
      }
    }
  }

  const int64_t min_step = caps.min_step_ps();
  int64_t period = 0;
  bool period_overflow = false;
  std::vector<bool> step_ok(s.steps.size(), true);
  for (size_t i = 0; i < s.steps.size(); ++i) {
    const Step& step = s.steps[i];
    if (step.config >= s.configs.size()) {
      fail(fmt::format("steps[{}].config", i),
           fmt::format("configuration {} does not exist ({} configurations)", step.config, s.configs.size()));
      step_ok[i] = false;
    } else if (!config_ok[step.config]) {
      step_ok[i] = false;
    }
    const std::string where = fmt::format("steps[{}].duration_ps", i);
    if (step.duration_ps <= 0) {
      fail(where, fmt::format("must be positive, is {} ps", step.duration_ps));
      step_ok[i] = false;
    } else if (step.duration_ps < min_step) {
      fail(where, fmt::format("{} ps is shorter than the device's minimum step of {} ps ({} cycles)",
                              step.duration_ps, min_step, caps.min_step_cycles));
    } else if (step.duration_ps / tick + (step.duration_ps % tick >= tick - tick / 2 ? 1 : 0) >
               kMaxDurationTicks) {
      fail(where, fmt::format("{} ps overflows the {}-bit tick field (at most {} ps)", step.duration_ps,
                              hwdef::IMG_STEP_DURATION_LO_WIDTH + hwdef::IMG_STEP_DURATION_HI_WIDTH,
                              kMaxDurationTicks * tick));
    }
    if (!period_overflow && step.duration_ps > 0 &&
        __builtin_add_overflow(period, step.duration_ps, &period)) {
      period_overflow = true;
      fail("steps", fmt::format("the total period overflows int64 picoseconds (at steps[{}])", i));
    }
  }
  if (!period_overflow && s.activation_ps && *s.activation_ps >= 0) {
    int64_t end = 0;
    if (__builtin_add_overflow(*s.activation_ps, period, &end)) {
      fail("activation.at_ps",
           fmt::format("{} ps plus the period {} ps overflows int64", *s.activation_ps, period));
    }
  }

  // Tuning for the switch into step next(i) happens at the end of step i,
  // after the guard that follows step i's own switch; both must fit in it.
  const size_t n = s.steps.size();
  auto config_of = [&](size_t i) -> const std::vector<int>& {
    return s.configs[s.steps[i].config].wavelength;
  };
  auto switched_into = [&](size_t prev, size_t next) {
    const auto& a = config_of(prev);
    const auto& b = config_of(next);
    for (size_t p = 0; p < b.size(); ++p) {
      if (b[p] != kDark && a[p] != b[p]) return true;
    }
    return false;
  };
  // The board runs the durations rounded to ticks (cumulatively, see
  // boundary_ticks), which can be a tick shorter than the file's: judge
  // what it runs.
  bool all_ok = !period_overflow && n > 0;
  for (size_t i = 0; i < n; ++i) all_ok = all_ok && step_ok[i];
  const std::vector<int64_t> bounds = all_ok ? boundary_ticks(s.steps, tick) : std::vector<int64_t>{};
  for (size_t i = 0; i < n; ++i) {
    if (!step_ok[i]) continue;
    bool guarded = false;
    if (i > 0) {
      guarded = step_ok[i - 1] && switched_into(i - 1, i);
    } else {
      // Step 0 follows whatever ran before (idle, or the schedule it takes
      // over from), so any lit port may switch at its start; a cyclic wrap
      // switches no more than that.
      for (int w : config_of(0)) guarded = guarded || w != kDark;
    }
    const bool has_next = i + 1 < n || (s.cyclic && n > 1);
    const size_t next = i + 1 < n ? i + 1 : 0;
    int64_t worst = 0;
    size_t worst_port = 0;
    if (has_next && step_ok[next]) {
      const auto& a = config_of(i);
      const auto& b = config_of(next);
      for (size_t p = 0; p < a.size(); ++p) {
        const int64_t t = tune_needed_ps(caps, a[p], b[p]);
        if (t > worst) {
          worst = t;
          worst_port = p;
        }
      }
    }
    const int64_t guard = guarded ? guard_ps : 0;
    const int64_t runs_ps = all_ok ? (bounds[i + 1] - bounds[i]) * tick : s.steps[i].duration_ps;
    if (guard + worst >= runs_ps) {
      const auto& a = config_of(i);
      std::string tune =
          worst > 0
              ? fmt::format("tune {}->{} ({} ps, port {}, into steps[{}])", wavelength_name(a[worst_port]),
                            wavelength_name(config_of(next)[worst_port]), worst, worst_port, next)
              : std::string("tune 0 ps");
      const std::string runs =
          runs_ps == s.steps[i].duration_ps
              ? std::string()
              : fmt::format(" (the board runs it as {} ticks = {} ps)", runs_ps / tick, runs_ps);
      fail(fmt::format("steps[{}]", i),
           fmt::format("{} + guard {} ps = {} ps does not fit in duration {} ps{}", tune, guard,
                       guard + worst, s.steps[i].duration_ps, runs));
    }
  }
  return problems;
}

std::string to_string(const std::vector<Problem>& problems) {
  std::string out;
  for (const Problem& p : problems) {
    if (!out.empty()) out += '\n';
    out += p.where + ": " + p.message;
  }
  return out;
}

}  // namespace lightrail
