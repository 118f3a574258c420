// The sync link receiver alone (hw/sync_link_rx.sv), fed words as a
// transceiver on a given bit slide presents them: while hunting, a shift is
// given up after HUNT_MISSES words that are not IDLE, so at the right shift
// HUNT_MISSES - 1 of them (a burst of frames) still leave it to lock on the
// IDLEs after them. The word cut at the old shift, in the cycle the shift
// changes, is no word of the new one and is not counted. Mutation testing
// found that skip untested (docs/mutation.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "Vhw_sync_rx.h"
#include "Vhw_sync_rx___024root.h"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

// The model is verilated with these (CMake, LIGHTRAIL_RX_TEST_*).
constexpr int kHuntMisses = LIGHTRAIL_RX_TEST_HUNT_MISSES;
constexpr int kLockIdles = LIGHTRAIL_RX_TEST_LOCK_IDLES;
constexpr uint32_t kIdle = LIGHTRAIL_RX_TEST_IDLE;  // hw/sync_link_pkg.sv Idle (CMake reads it)
constexpr uint32_t kPayload = 0x55555555;           // every bit pair differs: a frame's payload word
constexpr int kSlide = 13;

class RxBench {
 public:
  RxBench() {
    model_.rst_ni = 0;
    Word(kIdle, kIdle);
    Word(kIdle, kIdle);
    model_.rst_ni = 1;
  }
  ~RxBench() {
    model_.final();
    lightrail::rtl_coverage::write(context_, "hw_sync_rx");
  }
  // One cycle: the word the transceiver presents when the symbols `prev`
  // then `cur` went by on the wire, kSlide bits apart from its word clock.
  void Word(uint32_t prev, uint32_t cur) {
    model_.word_i = uint32_t(((uint64_t(cur) << 32 | prev) >> kSlide) & 0xFFFFFFFFu);
    model_.clk_i = 0;
    model_.eval();
    model_.clk_i = 1;
    model_.eval();
  }
  Vhw_sync_rx& m() { return model_; }

 private:
  VerilatedContext context_;
  Vhw_sync_rx model_{&context_};
};

// Runs a stream of symbols; returns the cycle at which the receiver aligned
// (-1 if it did not) and the shift it aligned on.
struct Outcome {
  int aligned_at = -1;
  int shift = -1;
  int first_at_final_shift = -1;  // the first cycle the final shift was in use
};

Outcome RunStream(const std::vector<uint32_t>& symbols) {
  RxBench bench;
  Outcome o;
  std::vector<int> shift_of(symbols.size());
  for (size_t j = 1; j < symbols.size(); ++j) {
    bench.Word(symbols[j - 1], symbols[j]);
    shift_of[j] = bench.m().rootp->sync_link_rx__DOT__shift_q;
    if (bench.m().aligned_o && o.aligned_at < 0) {
      o.aligned_at = int(j);
      o.shift = shift_of[j];
    }
  }
  if (o.aligned_at >= 0) {
    int j = o.aligned_at;
    while (j > 1 && shift_of[j - 1] == o.shift) --j;
    o.first_at_final_shift = j;
  }
  return o;
}

TEST(SyncLinkRx, HuntMissesMinusOneFrameWordsAtTheRightShiftStillLock) {
  // Idles only: where and when the hunt reaches the right shift.
  const Outcome idle = RunStream(std::vector<uint32_t>(40 * kHuntMisses, kIdle));
  ASSERT_GE(idle.aligned_at, 0);
  // A burst of HUNT_MISSES - 1 payload words arriving around that moment.
  int cases = 0;
  for (int start = idle.first_at_final_shift - 3; start <= idle.first_at_final_shift + 3; ++start) {
    SCOPED_TRACE(testing::Message() << "burst from symbol " << start);
    std::vector<uint32_t> s(40 * kHuntMisses, kIdle);
    for (int k = 0; k < kHuntMisses - 1; ++k) s[size_t(start + k)] = kPayload;
    const Outcome o = RunStream(s);
    ASSERT_GE(o.aligned_at, 0) << "never aligned";
    EXPECT_EQ(o.shift, idle.shift);
    EXPECT_LE(o.aligned_at, start + kHuntMisses - 1 + kLockIdles + 4) << "gave the right shift up";
    ++cases;
  }
  EXPECT_EQ(cases, 7);
}

}  // namespace
