// Sync-message timestamping (hw/sync_timestamp.sv), both strobe modes.
#include <gtest/gtest.h>

#include <cstdint>

#include "Vhw_sync_timestamp.h"
#include "Vhw_sync_timestamp_cdc.h"
#include "lightrail/hwdef.hpp"
#include "verilated.h"

namespace {

constexpr uint64_t kTicksPerCycle = lightrail::hwdef::FINE_STEPS;

// Drives clk_i and a board time that advances like hw/time_counter.sv.
template <typename Model>
class TimestampBench {
 public:
  explicit TimestampBench(uint64_t start_ticks) : time_(start_ticks) {
    model_.rst_ni = 0;
    Cycle();
    Cycle();
    model_.rst_ni = 1;
  }
  ~TimestampBench() { model_.final(); }

  // One clk_i cycle with the inputs as set; returns the board time of it.
  uint64_t Cycle() {
    const uint64_t now = time_;
    model_.time_i = now;
    model_.clk_i = 0;
    model_.eval();
    model_.clk_i = 1;
    model_.eval();
    time_ += kTicksPerCycle;
    return now;
  }

  Model& m() { return model_; }

 private:
  VerilatedContext context_;
  Model model_{&context_};
  uint64_t time_;
};

TEST(SyncTimestamp, StrobesCaptureTheBoardTimeOfTheirCycleInEachDirection) {
  TimestampBench<Vhw_sync_timestamp> b(0xFFFF'FFF0'0000'0000ull);  // upper word in use
  EXPECT_FALSE(b.m().tx_valid_o);
  EXPECT_FALSE(b.m().rx_valid_o);
  for (int i = 0; i < 5; ++i) b.Cycle();

  b.m().tx_strobe_i = 1;
  const uint64_t t1 = b.Cycle();
  b.m().tx_strobe_i = 0;
  EXPECT_TRUE(b.m().tx_valid_o);
  EXPECT_EQ(b.m().tx_time_o, t1);
  EXPECT_FALSE(b.m().rx_valid_o);

  for (int i = 0; i < 7; ++i) b.Cycle();
  b.m().rx_strobe_i = 1;
  const uint64_t t4 = b.Cycle();
  b.m().rx_strobe_i = 0;
  EXPECT_TRUE(b.m().rx_valid_o);
  EXPECT_EQ(b.m().rx_time_o, t4);
  // The other direction keeps its capture.
  EXPECT_EQ(b.m().tx_time_o, t1);
  EXPECT_EQ(t4 - t1, 8 * kTicksPerCycle);
  EXPECT_FALSE(b.m().tx_overrun_o);
  EXPECT_FALSE(b.m().rx_overrun_o);
}

TEST(SyncTimestamp, ClearDropsValidAndAnUnreadCaptureOverwrittenFlagsOverrun) {
  TimestampBench<Vhw_sync_timestamp> b(1000);
  b.m().tx_strobe_i = 1;
  b.Cycle();
  const uint64_t second = b.Cycle();  // a second message before the first was read
  b.m().tx_strobe_i = 0;
  EXPECT_TRUE(b.m().tx_valid_o);
  EXPECT_TRUE(b.m().tx_overrun_o);
  EXPECT_EQ(b.m().tx_time_o, second);

  b.m().tx_clear_i = 1;
  b.Cycle();
  b.m().tx_clear_i = 0;
  EXPECT_FALSE(b.m().tx_valid_o);
  EXPECT_FALSE(b.m().tx_overrun_o);
  EXPECT_EQ(b.m().tx_time_o, second);  // the value stays readable

  // A message in the cycle its predecessor is cleared: a fresh capture, no overrun.
  b.m().rx_strobe_i = 1;
  b.Cycle();
  b.m().rx_clear_i = 1;
  const uint64_t t = b.Cycle();
  b.m().rx_strobe_i = 0;
  b.m().rx_clear_i = 0;
  EXPECT_TRUE(b.m().rx_valid_o);
  EXPECT_FALSE(b.m().rx_overrun_o);
  EXPECT_EQ(b.m().rx_time_o, t);
}

TEST(SyncTimestamp, ToggleStrobesFromTheLinkDomainCaptureAFixedThreeCyclesLater) {
  TimestampBench<Vhw_sync_timestamp_cdc> b(64);
  for (int i = 0; i < 3; ++i) b.Cycle();
  bool tx = false, rx = false;
  for (int msg = 0; msg < 4; ++msg) {
    tx = !tx;
    b.m().tx_strobe_i = tx;
    const uint64_t sent = b.Cycle();
    for (int i = 0; i < 5; ++i) b.Cycle();
    EXPECT_TRUE(b.m().tx_valid_o) << "message " << msg;
    EXPECT_EQ(b.m().tx_time_o, sent + 3 * kTicksPerCycle) << "message " << msg;
    EXPECT_FALSE(b.m().tx_overrun_o) << "each toggle is one message";
    b.m().tx_clear_i = 1;
    b.Cycle();
    b.m().tx_clear_i = 0;
    EXPECT_FALSE(b.m().tx_valid_o);

    rx = !rx;
    b.m().rx_strobe_i = rx;
    const uint64_t received = b.Cycle();
    for (int i = 0; i < 5; ++i) b.Cycle();
    EXPECT_EQ(b.m().rx_time_o, received + 3 * kTicksPerCycle) << "message " << msg;
    b.m().rx_clear_i = 1;
    b.Cycle();
    b.m().rx_clear_i = 0;
  }
  // A level held high is one message, not one per cycle.
  for (int i = 0; i < 10; ++i) b.Cycle();
  EXPECT_FALSE(b.m().tx_valid_o);
  EXPECT_FALSE(b.m().rx_valid_o);
}

}  // namespace
