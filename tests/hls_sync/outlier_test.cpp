// Exchanges whose path delay is far from the filtered one: each is dropped
// and flagged (it straddled a time step of either side), until
// kOutliersBeforeReseed in a row say the path itself changed and the servo
// starts over from the next. Found uncovered by scripts/coverage.sh.
#include <gtest/gtest.h>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kFsPerPs = 1000;
constexpr int64_t kPathFs = 100'000'000;  // 20 m of fibre each way

// One exchange on a symmetric path of `path_fs` each way, no offset.
ClockSyncOut exchange(ClockSyncState& st, int64_t path_fs) {
  static int64_t t1 = 0;
  t1 += 1'000'000'000;  // one exchange a microsecond
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.use_ddmtd = false;
  in.ref_ok = true;
  in.elapsed_fs = 1'000'000'000;
  in.exchange_valid = true;
  in.t1_fs = t1;
  in.t2_fs = t1 + path_fs;
  in.t3_fs = in.t2_fs + 50'000'000;
  in.t4_fs = in.t3_fs + path_fs;
  ClockSyncOut out;
  clock_sync_step(st, in, out);
  return out;
}

TEST(HlsSync, PathDelayOutliersAreDroppedUntilEnoughInARowStartOver) {
  ClockSyncState st;
  ClockSyncOut out = exchange(st, kPathFs);
  ASSERT_EQ(out.errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK, 0u);
  ASSERT_EQ(out.rtt_ps, uint32_t(2 * kPathFs / kFsPerPs));
  // The path 2 * kExchangeOutlierFs longer each way: an outlier.
  const int64_t moved_fs = kPathFs + 2 * kExchangeOutlierFs;
  for (uint32_t k = 1; k < kOutliersBeforeReseed; ++k) {
    out = exchange(st, moved_fs);
    EXPECT_NE(out.errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK, 0u) << "outlier " << k;
    EXPECT_EQ(out.rtt_ps, uint32_t(2 * kPathFs / kFsPerPs)) << "outlier " << k << " was taken";
  }
  out = exchange(st, moved_fs);
  EXPECT_EQ(out.rtt_ps, uint32_t(2 * moved_fs / kFsPerPs)) << "outlier " << kOutliersBeforeReseed;
  EXPECT_EQ(out.delay_ms_ps, uint32_t(moved_fs / kFsPerPs)) << "the delay starts over from the new path";
}

TEST(HlsSync, AnOutlierBetweenGoodExchangesDoesNotCountTowardsStartingOver) {
  ClockSyncState st;
  exchange(st, kPathFs);
  const int64_t moved_fs = kPathFs + 2 * kExchangeOutlierFs;
  for (uint32_t round = 0; round < 3; ++round) {
    for (uint32_t k = 1; k < kOutliersBeforeReseed; ++k) exchange(st, moved_fs);
    EXPECT_EQ(exchange(st, kPathFs).rtt_ps, uint32_t(2 * kPathFs / kFsPerPs));
  }
  EXPECT_EQ(exchange(st, moved_fs).rtt_ps, uint32_t(2 * kPathFs / kFsPerPs));
}

// The outlier bound is inclusive: a path delay exactly kExchangeOutlierFs
// from the filtered one is taken, 1 fs more is dropped and flagged
// (mutation testing: `>` made `>=` survived the cases above).
TEST(HlsSync, APathDelayExactlyTheOutlierBoundAwayIsTaken) {
  ClockSyncState at_bound;
  ASSERT_EQ(exchange(at_bound, kPathFs).errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK, 0u);
  EXPECT_EQ(exchange(at_bound, kPathFs + kExchangeOutlierFs).errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK,
            0u);
  ClockSyncState beyond;
  ASSERT_EQ(exchange(beyond, kPathFs).errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK, 0u);
  EXPECT_NE(exchange(beyond, kPathFs + kExchangeOutlierFs + 1).errors & hwdef::SYNC_ERROR_BAD_EXCHANGE_MASK,
            0u);
}

}  // namespace
}  // namespace lightrail::sync::test
