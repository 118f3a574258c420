// The servo's register bounds and its exchange checks at their edges
// (docs/clock-sync.md, "Bad input"): a value on a documented limit is used as
// written, one past it is clamped and raises SYNC_ERROR.CAL_CLAMPED; an
// exchange exactly as short as the calibration allows is taken, one shorter
// is dropped with BAD_EXCHANGE. Mutation testing found these edges untested
// (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

// The limits docs/clock-sync.md gives that have no hwdef parameter.
constexpr int64_t kGainMaxQ16 = 65536;
constexpr int64_t kPullAndStepMax = 1000000;

// One update with the configuration `set` edits; the SYNC_ERROR bits after it.
uint32_t errors_with(const std::function<void(ClockSyncIn&)>& set) {
  ClockSyncState s;
  ClockSyncIn in;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = kPeriodFs;
  set(in);
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  return out.errors;
}

bool clamped(const std::function<void(ClockSyncIn&)>& set) {
  return (errors_with(set) & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK) != 0;
}

TEST(HlsSyncBounds, TheDefaultsAreWithinEveryLimit) {
  EXPECT_FALSE(clamped([](ClockSyncIn&) {}));
}

TEST(HlsSyncBounds, CalibrationDelaysAreAcceptedFromZeroToTheirMaximum) {
  constexpr int32_t kMax = static_cast<int32_t>(hwdef::SYNC_CAL_DELAY_MAX_PS);
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_ms_ps = kMax; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_sm_ps = kMax; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_ms_ps = kMax + 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_sm_ps = kMax + 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_ms_ps = -1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_delay_sm_ps = -1; }));
}

TEST(HlsSyncBounds, AsymmetryIsAcceptedWithinPlusMinusItsMaximum) {
  constexpr int32_t kMax = static_cast<int32_t>(hwdef::SYNC_CAL_ASYM_MAX_PS);
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.cal_asym_ps = kMax; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.cal_asym_ps = -kMax; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_asym_ps = kMax + 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.cal_asym_ps = -kMax - 1; }));
}

TEST(HlsSyncBounds, GainsAreAcceptedFromZeroToOne) {
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.kp_q16 = kGainMaxQ16; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.ki_q16 = kGainMaxQ16; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.kp_q16 = 0; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.ki_q16 = 0; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.kp_q16 = kGainMaxQ16 + 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.ki_q16 = kGainMaxQ16 + 1; }));
}

TEST(HlsSyncBounds, LockSamplesAcceptsOneAndRefusesZero) {
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.lock_samples = 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.lock_samples = 0; }));
}

TEST(HlsSyncBounds, SlewIsAcceptedFromZeroToItsLimit) {
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.slew_max_ns_per_s = hwdef::SYNC_SLEW_MAX_LIMIT; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.slew_max_ns_per_s = 0; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.slew_max_ns_per_s = hwdef::SYNC_SLEW_MAX_LIMIT + 1; }));
}

TEST(HlsSyncBounds, PullAndPhaseStepAreAcceptedFromOneToAMillion) {
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.dac_pull_ppb = 1; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.phase_step_fs = 1; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.dac_pull_ppb = kPullAndStepMax; }));
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.cfg.phase_step_fs = kPullAndStepMax; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.dac_pull_ppb = 0; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.phase_step_fs = 0; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.dac_pull_ppb = kPullAndStepMax + 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.cfg.phase_step_fs = kPullAndStepMax + 1; }));
}

TEST(HlsSyncBounds, BitslideIsAcceptedUpToTheLastBitOfTheWord) {
  EXPECT_FALSE(clamped([](ClockSyncIn& in) { in.rx_bitslide_ui = hwdef::SYNC_LINK_WORD_BITS - 1; }));
  EXPECT_TRUE(clamped([](ClockSyncIn& in) { in.rx_bitslide_ui = hwdef::SYNC_LINK_WORD_BITS; }));
}

// An exchange with offset 0 whose round trip is `rtt_fs`, split evenly.
bool bad_exchange(int64_t rtt_fs, int32_t cal_each_ps, int32_t asym_ps) {
  const uint32_t e = errors_with([&](ClockSyncIn& in) {
    in.cfg.cal_delay_ms_ps = cal_each_ps;
    in.cfg.cal_delay_sm_ps = cal_each_ps;
    in.cfg.cal_asym_ps = asym_ps;
    in.exchange_valid = true;
    in.t1_fs = 0;
    in.t2_fs = rtt_fs / 2;
    in.t3_fs = rtt_fs / 2;
    in.t4_fs = rtt_fs;
  });
  return (e & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK) != 0;
}

TEST(HlsSyncBounds, AnExchangeAsShortAsTheCalibrationAllowsIsTaken) {
  constexpr int64_t kFsPerPs = 1000;
  EXPECT_FALSE(bad_exchange(0, 0, 0)) << "a zero round trip with no calibrated delay";
  EXPECT_TRUE(bad_exchange(-2, 0, 0));
  EXPECT_FALSE(bad_exchange(2 * 100 * kFsPerPs, 100, 0)) << "the round trip equals the fixed delays";
  EXPECT_TRUE(bad_exchange(2 * 100 * kFsPerPs - 2, 100, 0));
  EXPECT_FALSE(bad_exchange(2 * 100 * kFsPerPs + 50 * kFsPerPs, 100, 50))
      << "|asymmetry| equals the fibre round trip";
  EXPECT_TRUE(bad_exchange(2 * 100 * kFsPerPs + 50 * kFsPerPs, 100, 51));
}

}  // namespace
}  // namespace lightrail::sync::test
