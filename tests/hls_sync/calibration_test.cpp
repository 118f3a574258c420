// Calibration: the servo measures truth only once fixed delays and fibre
// asymmetry are calibrated; out-of-range values are clamped and flagged.
#include <gtest/gtest.h>

#include <initializer_list>

#include "loop_runner.hpp"

namespace lightrail::sync::test {
namespace {

double locked_mean_offset(PlantConfig pc, const ClockSyncConfig& cal) {
  Loop loop(pc);
  loop.cfg.cal_delay_ms_ps = cal.cal_delay_ms_ps;
  loop.cfg.cal_delay_sm_ps = cal.cal_delay_sm_ps;
  loop.cfg.cal_asym_ps = cal.cal_asym_ps;
  loop.run_us(2000);
  EXPECT_GT(loop.lock_us, 0);
  loop.collect = true;
  loop.run_us(2000);
  return stats_of(loop.offsets_ps).mean;
}

// Asymmetry a = forward - backward fibre delay. Uncalibrated, the servo
// believes the forward delay is rtt/2, too short by a/2, so board time
// settles a/2 behind the reference; calibrated, the error vanishes.
TEST(HlsSync, UncalibratedAsymmetryShowsAsHalfOfItAndCalibrationRemovesIt) {
  PlantConfig pc;
  const double a = 800;
  pc.fibre_ms_ps += a / 2;
  pc.fibre_sm_ps -= a / 2;
  ClockSyncConfig cal;
  EXPECT_NEAR(locked_mean_offset(pc, cal), -a / 2, 10);
  cal.cal_asym_ps = int32_t(a);
  EXPECT_NEAR(locked_mean_offset(pc, cal), 0, 10);
}

TEST(HlsSync, UncalibratedFixedDelaysShowAsHalfTheirDifference) {
  PlantConfig pc;
  pc.fixed_ms_ps = 3000;
  pc.fixed_sm_ps = 1000;
  ClockSyncConfig cal;
  EXPECT_NEAR(locked_mean_offset(pc, cal), -(3000 - 1000) / 2.0, 10);
  cal.cal_delay_ms_ps = 3000;
  cal.cal_delay_sm_ps = 1000;
  EXPECT_NEAR(locked_mean_offset(pc, cal), 0, 10);
}

// A receiver relock lands the word boundary k unit intervals late: the
// recovered clock and the stamps both arrive k UI later, which looks like
// forward asymmetry (-k UI / 2) unless the transceiver's slide is reported.
TEST(HlsSync, AReportedReceiverBitslideIsAddedToTheReceiveDelay) {
  const double ui = double(hwdef::CLK_PERIOD_PS) / hwdef::SYNC_LINK_WORD_BITS;
  PlantConfig pc;
  pc.rx_bitslide_ui = 7;
  pc.report_bitslide = false;
  ClockSyncConfig cal;
  EXPECT_NEAR(locked_mean_offset(pc, cal), -7 * ui / 2, 10);
  pc.report_bitslide = true;
  EXPECT_NEAR(locked_mean_offset(pc, cal), 0, 10);
}

ClockSyncOut one_call(const ClockSyncConfig& cfg, ClockSyncState& st) {
  PlantConfig pc;
  Plant plant(pc);
  ClockSyncOut out;
  clock_sync_step(st, plant.measure(cfg, true), out);
  return out;
}

// Out of range: clamped to the limit (behaves exactly as the limit) and
// CAL_CLAMPED is raised until cleared.
TEST(HlsSync, OutOfRangeCalibrationIsClampedAndFlagged) {
  ClockSyncConfig over, at_limit;
  over.enable = at_limit.enable = true;
  over.cal_asym_ps = int32_t(hwdef::SYNC_CAL_ASYM_MAX_PS) + 5000;
  at_limit.cal_asym_ps = int32_t(hwdef::SYNC_CAL_ASYM_MAX_PS);
  ClockSyncState s_over, s_limit;
  const ClockSyncOut o_over = one_call(over, s_over), o_limit = one_call(at_limit, s_limit);
  EXPECT_TRUE(o_over.errors & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK);
  EXPECT_FALSE(o_limit.errors & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK);
  EXPECT_EQ(o_over.offset_ps, o_limit.offset_ps);

  using Corrupt = void (*)(ClockSyncConfig&);
  for (Corrupt bad :
       {+[](ClockSyncConfig& c) { c.cal_delay_ms_ps = -1; },
        +[](ClockSyncConfig& c) { c.cal_delay_sm_ps = int32_t(hwdef::SYNC_CAL_DELAY_MAX_PS) + 1; },
        +[](ClockSyncConfig& c) { c.slew_max_ns_per_s = hwdef::SYNC_SLEW_MAX_LIMIT + 1; },
        +[](ClockSyncConfig& c) { c.lock_samples = 0; }, +[](ClockSyncConfig& c) { c.kp_q16 = 70000; }}) {
    ClockSyncConfig cfg;
    cfg.enable = true;
    bad(cfg);
    ClockSyncState st;
    EXPECT_TRUE(one_call(cfg, st).errors & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK);
    // Sticky until written 1 (with the value fixed).
    ClockSyncIn in;
    in.cfg.enable = true;
    in.clear_errors = hwdef::SYNC_ERROR_CAL_CLAMPED_MASK;
    ClockSyncOut out;
    clock_sync_step(st, in, out);
    EXPECT_FALSE(out.errors & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK);
  }

  // A slide beyond the word cannot come from the transceiver.
  ClockSyncConfig cfg;
  cfg.enable = true;
  PlantConfig pc;
  pc.rx_bitslide_ui = hwdef::SYNC_LINK_WORD_BITS;
  Plant plant(pc);
  ClockSyncState st;
  ClockSyncOut out;
  clock_sync_step(st, plant.measure(cfg, true), out);
  EXPECT_TRUE(out.errors & hwdef::SYNC_ERROR_CAL_CLAMPED_MASK);
}

// Fixed delays larger than the measured round trip cannot be right: the
// exchange is rejected and flagged rather than turned into a wild offset.
TEST(HlsSync, CalibrationLargerThanRoundTripRejectsTheExchange) {
  ClockSyncConfig cfg;
  cfg.enable = true;
  cfg.cal_delay_ms_ps = int32_t(hwdef::SYNC_CAL_DELAY_MAX_PS);
  cfg.cal_delay_sm_ps = int32_t(hwdef::SYNC_CAL_DELAY_MAX_PS);
  PlantConfig pc;
  pc.fibre_ms_ps = pc.fibre_sm_ps = 100000;  // 20 m
  Plant plant(pc);
  ClockSyncState st;
  ClockSyncOut out;
  clock_sync_step(st, plant.measure(cfg, true), out);
  EXPECT_TRUE(out.errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK);
  EXPECT_EQ(out.phase_steps, 0);
  EXPECT_EQ(out.offset_ps, 0);
}

TEST(HlsSync, DisabledDrivesNominalAndNoSteps) {
  ClockSyncState st;
  ClockSyncOut out;
  ClockSyncIn in;
  in.ref_ok = true;
  in.elapsed_fs = 16000000000;
  clock_sync_step(st, in, out);
  EXPECT_EQ(out.dac_word, 1u << (hwdef::SYNC_DAC_BITS - 1));
  EXPECT_EQ(out.phase_steps, 0);
  EXPECT_EQ(state_of(out), uint32_t(SyncMode::kDisabled));
}

}  // namespace
}  // namespace lightrail::sync::test
