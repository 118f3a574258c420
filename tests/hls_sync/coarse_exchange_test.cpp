// Coarse exchanges (issue 28): the message engine flags an exchange whose
// receive stamps were not refined by a DDMTD phase (a bare 4 ns cycle stamp,
// as after a relock before the DDMTD pairs again). A servo on the DDMTD
// drops it unseen while the DDMTD is pairing or only briefly silent; PTP
// (USE_DDMTD off) and a DDMTD silent for kCoarseExchangeSilentFs take it.
#include <gtest/gtest.h>

#include <cstdint>

#include "clock_sync/clock_sync.hpp"

namespace lightrail::sync::test {
namespace {

constexpr int64_t kDelayFs = int64_t{20000} * 1000;  // 20 ns one way
constexpr uint32_t kRttPs = 40000;

struct Beat {
  bool phase, exchange, fine, use_ddmtd;
};
constexpr bool kPhase = true, kExchange = true, kFine = true, kDdmtd = true;

// One update a beat after the last, carrying what `b` says: a DDMTD phase,
// an exchange over a symmetric 20 ns path (offset 1.5 ns), fine or coarse.
ClockSyncOut update(ClockSyncState& s, const Beat& b) {
  ClockSyncIn in;
  in.cfg.enable = true;
  in.cfg.use_ddmtd = b.use_ddmtd;
  in.ref_ok = true;
  in.elapsed_fs = kBeatFs;
  in.phase_valid = b.phase;
  in.ddmtd_phase = 100;
  in.exchange_valid = b.exchange;
  in.exchange_fine = b.fine;
  const int64_t theta_fs = 1500000;
  in.t1_fs = 0;
  in.t2_fs = kDelayFs + theta_fs;
  in.t3_fs = kDelayFs + theta_fs;
  in.t4_fs = 2 * kDelayFs;
  ClockSyncOut out;
  clock_sync_step(s, in, out);
  return out;
}

// rtt_ps shows whether the servo took an exchange (0 until it takes one).
TEST(HlsSyncCoarseExchange, ACoarseExchangeIsDroppedWhileTheDdmtdPairs) {
  ClockSyncState s;
  update(s, {kPhase, !kExchange, kFine, kDdmtd});
  EXPECT_EQ(update(s, {kPhase, kExchange, !kFine, kDdmtd}).rtt_ps, 0u);
  EXPECT_EQ(update(s, {kPhase, kExchange, kFine, kDdmtd}).rtt_ps, kRttPs);
}

TEST(HlsSyncCoarseExchange, ACoarseExchangeSteersOnceTheDdmtdHasBeenSilentFourBeats) {
  ClockSyncState s;
  update(s, {kPhase, !kExchange, kFine, kDdmtd});
  // Beats 1..4 after the last phase (a relock: the DDMTD pairs again within three).
  for (int beat = 1; beat <= 4; ++beat)
    EXPECT_EQ(update(s, {!kPhase, kExchange, !kFine, kDdmtd}).rtt_ps, 0u) << "beat " << beat;
  EXPECT_EQ(update(s, {!kPhase, kExchange, !kFine, kDdmtd}).rtt_ps, kRttPs);
}

TEST(HlsSyncCoarseExchange, WithoutTheDdmtdEveryExchangeIsPtps) {
  ClockSyncState s;
  EXPECT_EQ(update(s, {!kPhase, kExchange, !kFine, !kDdmtd}).rtt_ps, kRttPs);
}

}  // namespace
}  // namespace lightrail::sync::test
