#include "lightrail/sync.hpp"

#include <fmt/format.h>

#include <iterator>

#include "lightrail/errors.hpp"
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

uint32_t sync_ctrl_word(SyncMode mode) {
  switch (mode) {
    case SyncMode::kOff:
      return 0;
    case SyncMode::kReference:
      return hw::SYNC_CTRL_REFERENCE_MASK;
    case SyncMode::kFollower:
      return hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK;
    case SyncMode::kFollowerPtpOnly:
      return hw::SYNC_CTRL_ENABLE_MASK;
  }
  throw Error(fmt::format("sync mode {} is not one the driver knows", static_cast<int>(mode)));
}

std::string sync_mode_name(SyncMode mode) {
  switch (mode) {
    case SyncMode::kOff:
      return "off";
    case SyncMode::kReference:
      return "reference";
    case SyncMode::kFollower:
      return "follower";
    case SyncMode::kFollowerPtpOnly:
      return "follower-ptp-only";
  }
  return fmt::format("UNKNOWN({})", static_cast<int>(mode));
}

std::optional<SyncMode> sync_mode_of(uint32_t ctrl) {
  const bool enable = ctrl & hw::SYNC_CTRL_ENABLE_MASK;
  const bool reference = ctrl & hw::SYNC_CTRL_REFERENCE_MASK;
  if (reference) return enable ? std::nullopt : std::optional<SyncMode>(SyncMode::kReference);
  if (!enable) return SyncMode::kOff;
  return (ctrl & hw::SYNC_CTRL_USE_DDMTD_MASK) ? SyncMode::kFollower : SyncMode::kFollowerPtpOnly;
}

std::optional<SyncMode> sync_mode_of(const SyncStatus& s) {
  return sync_mode_of((s.enabled ? hw::SYNC_CTRL_ENABLE_MASK : 0u) |
                      (s.use_ddmtd ? hw::SYNC_CTRL_USE_DDMTD_MASK : 0u) |
                      (s.reference ? hw::SYNC_CTRL_REFERENCE_MASK : 0u));
}

std::string describe(const SyncStatus& s) {
  if (s.reference) {
    if (s.enabled) {
      return fmt::format(
          "SYNC_CTRL sets both REFERENCE and ENABLE: a reference receives no Sync frames on its link, so its "
          "servo has nothing to follow (state {}); make the board the reference (servo off) or a follower",
          s.state);
    }
    return fmt::format("reference (grandmaster): board time is the reference, servo off; {}",
                       s.link_aligned ? "the far end's link engine is heard (SYNC_LINK.ALIGNED = 1)"
                                      : "nothing heard from the far end yet (SYNC_LINK.ALIGNED = 0): no "
                                        "follower running the link engine, or no fibre");
  }
  if (s.holdover) {
    // Whose fault: this board's own link, or its reference's time.
    return fmt::format(
        "holdover for {} us: {}; frequency held at the last servo value, time not corrected", s.holdover_us,
        s.ref_ok ? "this board's link is up, but the reference declared its time invalid (its frames: "
                   "TIME_VALID = 0, SYNC_ERROR.PARENT_LOST): look at the reference, not at this link"
                 : "this board's own link to its reference went down (SYNC_ERROR.REF_LOST)");
  }
  if (!s.ref_ok) {
    if (!s.enabled) {
      return "no reference link (SYNC_STATUS.REF_OK = 0) and the servo is disabled (SYNC_CTRL.ENABLE = 0): "
             "board time runs free on the local oscillator, not synchronised";
    }
    // REF_OK is this board's own link: the transceiver's lock AND the engine
    // aligned (hw/lightrail_board_top.sv): name the missing one.
    const std::string why =
        !s.link_aligned
            ? "the link carries no frames (SYNC_LINK.ALIGNED = 0): is the fibre in, and the far end running "
              "a "
              "lightrail bitstream as the reference (SYNC_CTRL.REFERENCE)?"
            : "the link engine is aligned, so the transceiver's lock (HEALTH.LINK_UP) is what is missing";
    return fmt::format(
        "no reference link (SYNC_STATUS.REF_OK = 0): the servo is enabled but has nothing to follow "
        "(state {}); {}; board time is not synchronised",
        s.state, why);
  }
  if (s.enabled && !s.parent_time_valid && !s.locked && !s.time_valid) {
    return fmt::format(
        "this board's link is up; waiting for the reference's time to become valid "
        "(SYNC_LINK.PARENT_TIME_VALID "
        "= 0: its Sync frames say it has not locked since it was enabled, or the far end sends none: is it "
        "set as the reference?) (state {}); board time is not synchronised",
        s.state);
  }
  if (!s.enabled) {
    return "servo disabled (SYNC_CTRL.ENABLE = 0): a reference link is present but board time is not "
           "steered to it";
  }
  const char* source = s.ddmtd_active ? "DDMTD phase" : "two-way exchange";
  // The reference's own state, when it is not locked: followed all the same.
  const std::string parent =
      s.parent_holdover
          ? "; the reference is in holdover (SYNC_STATUS.PARENT_HOLDOVER): followed, not this link's fault"
      : s.parent_degraded
          ? "; the reference is re-acquiring (SYNC_STATUS.PARENT_DEGRADED): followed, not this link's fault"
          : "";
  if (s.locked) return fmt::format("locked, offset {} ps ({}){}", s.offset_ps, source, parent);
  return fmt::format("acquiring ({}), offset {} ps ({}){}{}", s.state, s.offset_ps, source,
                     s.slewing ? ", slewing at the bound" : "", parent);
}

}  // namespace lightrail
