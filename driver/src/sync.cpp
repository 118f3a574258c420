#include "lightrail/sync.hpp"

#include <fmt/format.h>

#include <cmath>
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

double sync_exchange_rate_hz(uint32_t period_cycles) {
  return 1e12 / (double(hw::CLK_PERIOD_PS) * double(period_cycles));
}

uint32_t sync_exchange_period_cycles(double rate_hz) {
  constexpr uint32_t kMin = hw::DDMTD_N + 1, kMax = hw::SYNC_EXCHANGE_PERIOD_MAX;
  const std::string range = fmt::format("{:.0f}..{:.0f} exchanges per second (a Sync every {}..{} cycles)",
                                        std::ceil(sync_exchange_rate_hz(kMax)),
                                        std::floor(sync_exchange_rate_hz(kMin)), kMin, kMax);
  const double cycles = std::round(1e12 / (double(hw::CLK_PERIOD_PS) * rate_hz));
  if (!std::isfinite(rate_hz) || !(rate_hz > 0) || !(cycles >= kMin && cycles <= kMax))
    throw FormatError("sync exchange rate", {{"rate_hz", fmt::format("{:g} is outside {}", rate_hz, range)}});
  return uint32_t(cycles);
}

SyncCalibration with_pps_skew(const SyncCalibration& c, picoseconds skew) {
  const int64_t skew_ps = to_ps(skew);
  SyncCalibration out = c;
  // Twice the skew: the servo removes half of what a delay adds.
  int64_t twice = 0;
  int64_t& delay = skew_ps >= 0 ? out.delay_rx_ps : out.delay_tx_ps;
  if (__builtin_mul_overflow(skew_ps >= 0 ? skew_ps : -skew_ps, int64_t{2}, &twice) ||
      __builtin_add_overflow(delay, twice, &delay))
    throw FormatError("sync calibration", {{"skew_ps", fmt::format("{} ps is beyond range", skew_ps)}});
  return out;
}

SyncCalibration with_port_delays(const SyncCalibration& c, const PortDelays& reference,
                                 const PortDelays& board) {
  SyncCalibration out = c;
  // DELAY_MS = reference TX + board RX; DELAY_SM = board TX + reference RX.
  if (__builtin_add_overflow(reference.tx_ps, board.rx_ps, &out.delay_rx_ps) ||
      __builtin_add_overflow(board.tx_ps, reference.rx_ps, &out.delay_tx_ps))
    throw FormatError("sync calibration", {{"port_delays", "the sum is beyond range"}});
  return out;
}

// The skew an uncalibrated asymmetry a leaves is a / 2, and a fibre of
// alpha has a = alpha / (2 + alpha) x its round trip; two fibres on the same
// ports differ only there, so k = 2 (s2 - s1) / (rtt2 - rtt1) = alpha / (2 + alpha).
double fibre_alpha(const AlphaPoint& a, const AlphaPoint& b) {
  const double d_rtt = b.rtt_ps - a.rtt_ps;
  if (!(std::fabs(d_rtt) >= 1.0))
    throw FormatError("sync alpha", {{"rtt_ps",
                                      "the two fibres' round trips must differ (use two lengths, the longer "
                                      "as long as the longest link)"}});
  const double k = 2 * (b.skew_ps - a.skew_ps) / d_rtt;
  if (!(k > -1 && k < 1))
    throw FormatError("sync alpha", {{"skew_ps", fmt::format("the skews give alpha / (2 + alpha) = {:.3g}, "
                                                             "outside -1..1: not one fibre's asymmetry",
                                                             k)}});
  return 2 * k / (1 - k);
}

double fibre_alpha_error(const AlphaPoint& a, const AlphaPoint& b, double skew_error_ps) {
  const double d_rtt = std::fabs(b.rtt_ps - a.rtt_ps);
  const double k_error = 2 * std::sqrt(2.0) * skew_error_ps / d_rtt;  // two skews, each this far off
  const double alpha = fibre_alpha(a, b);
  // d alpha / d k = 2 / (1 - k)^2 = (2 + alpha)^2 / 2.
  return k_error * (2 + alpha) * (2 + alpha) / 2;
}

int64_t fibre_asymmetry_ps(double alpha, int64_t fibre_rtt_ps) {
  return std::llround(alpha / (2 + alpha) * double(fibre_rtt_ps));
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
