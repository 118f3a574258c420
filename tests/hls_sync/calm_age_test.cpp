// The whole-period count waits for the exchange's age of calm
// (docs/clock-sync.md, "Frequency acquisition"): the DDMTD hands over to FINE
// only once the phase has held still for as long as the exchange that names
// the period may be old, 1.5 round trips plus 10 us plus a beat. After a
// coarse time set, a hand-over exactly that long after the set is taken and
// one 1 fs earlier is not. Mutation testing found both ends of this
// comparison untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kDelayFs = 5 * kPeriodFs;  // one way: lead 0 names 5 whole periods
// The documented age of an exchange over this path (not the kernel's
// constant, so a change of that constant shows).
constexpr int64_t kFramingFs = int64_t{10} * 1000 * 1000 * 1000;  // 10 us
constexpr int64_t kAgeFs = 3 * kDelayFs + kFramingFs + kBeatFs;

// One call with the DDMTD at phase 0 and, if `theta_fs` is given, an
// exchange of that offset over the symmetric path.
ClockSyncOut call(ClockSyncState& s, int64_t elapsed_fs, bool exchange, int64_t theta_fs = 0) {
  ClockSyncIn in;
  in.cfg.enable = true;
  in.ref_ok = true;
  in.elapsed_fs = elapsed_fs;
  in.phase_valid = true;
  in.ddmtd_phase = 0;
  in.exchange_valid = exchange;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs + theta_fs;
  in.t3_fs = kDelayFs + theta_fs;
  in.t4_fs = 2 * kDelayFs;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  return out;
}

bool fine(const ClockSyncOut& o) { return (o.status & hwdef::SYNC_STATUS_DDMTD_ACTIVE_MASK) != 0; }

// A time set, then `calm_fs` of still phase (one call, its exchange dropped
// as it may straddle the set), then a call 1 ps later whose exchange agrees
// with the phase: is the count taken?
bool hands_over_after(int64_t calm_fs) {
  ClockSyncState s;
  const ClockSyncOut set = call(s, 1000 * kFramingFs, true, 2 * kTimeStepMinFs);
  EXPECT_NE(set.time_step_ticks, 0);
  EXPECT_FALSE(fine(call(s, calm_fs, true)));
  return fine(call(s, 1000, true));
}

TEST(HlsSyncCalmAge, TheCountIsTakenOnceThePhaseHasBeenCalmForTheExchangesAge) {
  EXPECT_TRUE(hands_over_after(kAgeFs));
  EXPECT_FALSE(hands_over_after(kAgeFs - 1));
}

}  // namespace
}  // namespace lightrail::sync::test
