#include "lightrail/sync.hpp"

#include <fmt/format.h>

#include <iterator>

#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;

// SYNC_STATUS.STATE, in code order (docs/clock-sync.md "Stages").
constexpr const char* kStateNames[] = {"DISABLED", "FREE_RUN", "COARSE",  "TRACK",
                                       "FINE",     "LOCKED",   "HOLDOVER"};

void check_range(std::vector<Problem>& problems, const char* field, int64_t value, int64_t lo, int64_t hi,
                 const char* limit) {
  if (value >= lo && value <= hi) return;
  // A signed range reads "-N..+N" so the sign of the limit is not in doubt.
  const std::string range = lo < 0 ? fmt::format("{}..+{}", lo, hi) : fmt::format("{}..{}", lo, hi);
  problems.push_back({field, fmt::format("{} is outside {} ps ({})", value, range, limit)});
}

}  // namespace

std::vector<Problem> validate(const SyncCalibration& c) {
  // The board would clamp these and raise CAL_CLAMPED; a clamped calibration
  // is a wrong time base, so the driver refuses instead.
  std::vector<Problem> problems;
  const int64_t delay_max = hw::SYNC_CAL_DELAY_MAX_PS;
  const int64_t asym_max = hw::SYNC_CAL_ASYM_MAX_PS;
  check_range(problems, "delay_tx_ps", c.delay_tx_ps, 0, delay_max, "SYNC_CAL_DELAY_MAX_PS");
  check_range(problems, "delay_rx_ps", c.delay_rx_ps, 0, delay_max, "SYNC_CAL_DELAY_MAX_PS");
  check_range(problems, "asymmetry_ps", c.asymmetry_ps, -asym_max, asym_max, "SYNC_CAL_ASYM_MAX_PS");
  return problems;
}

std::string sync_state_name(uint32_t state) {
  if (state < std::size(kStateNames)) return kStateNames[state];
  return fmt::format("UNKNOWN({})", state);
}

std::vector<std::string> sync_error_flag_names(uint32_t value) {
  std::vector<std::string> names;
  for (const hw::Flag& f : hw::SYNC_ERROR_FLAGS) {
    if (value & f.mask) names.emplace_back(f.name);
  }
  return names;
}

std::string describe(const SyncStatus& s) {
  if (s.holdover) {
    return fmt::format(
        "holdover for {} us: the reference was lost; frequency held at the last servo value, time not "
        "corrected",
        s.holdover_us);
  }
  if (!s.ref_ok) {
    if (!s.enabled) {
      return "no reference link (SYNC_STATUS.REF_OK = 0) and the servo is disabled (SYNC_CTRL.ENABLE = 0): "
             "board time runs free on the local oscillator, not synchronised";
    }
    return fmt::format(
        "no reference link (SYNC_STATUS.REF_OK = 0): the servo is enabled but has nothing to follow "
        "(state {}); board time is not synchronised",
        s.state);
  }
  if (!s.enabled) {
    return "servo disabled (SYNC_CTRL.ENABLE = 0): a reference link is present but board time is not "
           "steered to it";
  }
  const char* source = s.ddmtd_active ? "DDMTD phase" : "two-way exchange";
  if (s.locked) return fmt::format("locked, offset {} ps ({})", s.offset_ps, source);
  return fmt::format("acquiring ({}), offset {} ps ({}){}", s.state, s.offset_ps, source,
                     s.slewing ? ", slewing at the bound" : "");
}

}  // namespace lightrail
