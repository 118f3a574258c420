// The register file as an AXI4-Lite slave (docs/hw.md, "Register file
// behaviour"): handshakes cycle by cycle, byte strobes, DECERR for every
// offset that is no register, LO reads latching HI, and the read fence that
// makes a read after a write see the kernel's answer at every latency.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "regfile_bench.hpp"

namespace lightrail::hw_bench {
namespace {

TEST(Bus, AWriteIsTakenOnlyWithBothValidsAndAnsweredTheNextCycle) {
  RegfileBench b;
  auto& m = b.m();
  m.s_axil_awaddr = hwdef::REG_SCRATCH;
  m.s_axil_wdata = 0x600DF00Du;
  m.s_axil_wstrb = 0xF;
  m.s_axil_awvalid = 1;  // the address alone
  b.Idle(3);
  EXPECT_FALSE(b.awready_seen());
  m.s_axil_awvalid = 0;
  m.s_axil_wvalid = 1;  // the data alone
  b.Idle(3);
  EXPECT_FALSE(b.awready_seen());
  m.s_axil_awvalid = 1;
  m.s_axil_bready = 0;
  b.Tick();
  EXPECT_TRUE(b.awready_seen()) << "taken in the cycle both are valid";
  b.Tick();
  EXPECT_TRUE(m.s_axil_bvalid) << "answered the next cycle";
  EXPECT_FALSE(b.awready_seen()) << "no second write while BVALID waits";
  b.Idle(5);
  EXPECT_TRUE(m.s_axil_bvalid) << "BVALID holds until BREADY";
  EXPECT_FALSE(b.awready_seen());
  b.StopWrite();
  m.s_axil_bready = 1;
  b.Tick();
  b.Tick();
  EXPECT_FALSE(m.s_axil_bvalid);
  EXPECT_EQ(b.ReadOk(hwdef::REG_SCRATCH), 0x600DF00Du);
}

TEST(Bus, AReadTakesThreeCyclesAndAWriteWaitsWhileItIssues) {
  RegfileBench b;
  b.Idle(hwdef::COMMAND_SETTLE_CYCLES + 1);  // past the reset's fence, if any
  auto& m = b.m();
  m.s_axil_araddr = hwdef::REG_CAP_MAGIC;
  m.s_axil_arvalid = 1;
  b.Tick();
  ASSERT_TRUE(b.arready_seen());
  m.s_axil_arvalid = 0;
  b.StartWrite(hwdef::REG_SCRATCH, 1);  // presented in the read's issue cycle
  b.Tick();
  EXPECT_FALSE(b.awready_seen()) << "the memory port belongs to the issuing read";
  EXPECT_FALSE(m.s_axil_rvalid) << "two cycles after the AR handshake";
  b.Tick();
  EXPECT_TRUE(b.awready_seen());
  b.StopWrite();
  EXPECT_TRUE(m.s_axil_rvalid) << "three cycles after the AR handshake";
  EXPECT_EQ(m.s_axil_rdata, hwdef::CAP_MAGIC_VALUE);
}

TEST(Bus, ByteStrobesMergeIntoReadWriteRegisters) {
  RegfileBench b;
  ASSERT_EQ(b.Write(hwdef::REG_SCRATCH, 0x11223344u), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_SCRATCH, 0xAABBCCDDu, 0x5), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_SCRATCH), 0x11BB33DDu);
  ASSERT_EQ(b.Write(hwdef::REG_SCRATCH, 0xEEFF0000u, 0x8), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_SCRATCH), 0xEEBB33DDu);
}

// COMMIT_MODE takes its AT_TIME bit only from a write whose strobes cover its
// byte, as every read-write register merges strobes: a host that writes
// another byte of the word does not change how the next COMMIT lands.
TEST(Bus, ACommitModeWriteWithoutTheAtTimeByteKeepsTheMode) {
  RegfileBench b;
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_MODE, hwdef::COMMIT_MODE_AT_TIME_MASK), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT_MODE), hwdef::COMMIT_MODE_AT_TIME_MASK);
  static_assert(hwdef::COMMIT_MODE_AT_TIME_MASK == 0x1u, "AT_TIME is in byte 0");
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_MODE, 0, 0xE), kOkay) << "bytes 1..3 only";
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT_MODE), hwdef::COMMIT_MODE_AT_TIME_MASK);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_MODE, 0, 0x1), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT_MODE), 0u);
}

// SYNC_ERROR is write-1-to-clear: a write hands exactly its bits to the servo
// kernel for one cycle (`lightrail health --clear-errors` clears what it
// writes and nothing else).
TEST(Bus, ASyncErrorWritePulsesItsBitsToTheServoForOneCycle) {
  RegfileBench b;
  constexpr uint32_t kBits = 0x80000005u;
  b.StartWrite(hwdef::REG_SYNC_ERROR, kBits);
  std::vector<uint32_t> pulses;
  for (int i = 0; i < 16; ++i) {
    b.Tick();
    if (b.awready_seen()) b.StopWrite();  // taken at this edge
    if (b.m().sync_clear_errors_o != 0) pulses.push_back(b.m().sync_clear_errors_o);
  }
  ASSERT_EQ(pulses.size(), 1u) << "one cycle";
  EXPECT_EQ(pulses[0], kBits);
}

// Every word offset below the tune window, and the gap between the tune
// words and bank 0, against the register list (hwdef::is_register).
TEST(Bus, EveryOffsetThatIsNoRegisterAnswersDecerr) {
  RegfileBench b;
  const uint32_t tune_end = hwdef::MEM_TUNE_BASE + 4 * hwdef::MEM_TUNE_WORDS;
  int registers = 0;
  for (uint32_t a = 0; a < hwdef::MEM_TUNE_BASE; a += 4) {
    const ReadResult r = b.Read(a);
    ASSERT_EQ(r.resp, hwdef::is_register(a) ? kOkay : kDecErr) << "read of 0x" << std::hex << a;
    registers += hwdef::is_register(a);
  }
  EXPECT_GT(registers, 60);
  for (uint32_t a = tune_end; a < hwdef::MEM_BANK0_BASE; a += 4) {
    ASSERT_EQ(b.Read(a).resp, kDecErr) << "read of 0x" << std::hex << a;
  }
  for (uint32_t a = 0; a < hwdef::MEM_TUNE_BASE; a += 4) {
    if (!hwdef::is_register(a)) {
      ASSERT_EQ(b.Write(a, ~0u), kDecErr) << "write to 0x" << std::hex << a;
    }
  }
  for (uint32_t a : {tune_end, hwdef::MEM_BANK0_BASE - 4}) {
    EXPECT_EQ(b.Write(a, ~0u), kDecErr) << "write to 0x" << std::hex << a;
  }
  EXPECT_TRUE(b.tune_writes().empty());
  EXPECT_TRUE(b.bank_writes().empty());
  // Read-only registers refuse with SLVERR and keep their value.
  EXPECT_EQ(b.Write(hwdef::REG_CAP_MAGIC, 0), kSlvErr);
  EXPECT_EQ(b.Write(hwdef::REG_STATUS, ~0u), kSlvErr);
  EXPECT_EQ(b.ReadOk(hwdef::REG_CAP_MAGIC), hwdef::CAP_MAGIC_VALUE);
}

// Reading LO latches HI of the same sample, so LO then HI is one 64-bit value
// even when the source moves between the two reads.
TEST(Bus, ReadingLoLatchesHiForEverySixtyFourBitRegister) {
  RegfileBench b;
  auto& m = b.m();
  const uint64_t first = 0x00000001'FFFFFFF0ull;
  const uint64_t later = 0x00000002'00000010ull;
  auto check = [&](const char* name, uint32_t lo_reg, uint32_t hi_reg, auto set) {
    set(first);
    EXPECT_EQ(b.ReadOk(lo_reg), static_cast<uint32_t>(first)) << name;
    set(later);
    EXPECT_EQ(b.ReadOk(hi_reg), static_cast<uint32_t>(first >> 32)) << name << ": HI of the LO's sample";
    EXPECT_EQ(b.ReadOk(lo_reg), static_cast<uint32_t>(later)) << name;
    EXPECT_EQ(b.ReadOk(hi_reg), static_cast<uint32_t>(later >> 32)) << name;
  };
  check("TIME", hwdef::REG_TIME_LO, hwdef::REG_TIME_HI, [&](uint64_t v) { b.set_now(v); });
  check("STEPS", hwdef::REG_STEPS_LO, hwdef::REG_STEPS_HI, [&](uint64_t v) { m.seq_steps_i = v; });
  check("LAST_SWAP", hwdef::REG_LAST_SWAP_LO, hwdef::REG_LAST_SWAP_HI,
        [&](uint64_t v) { m.seq_last_swap_i = v; });
  check("TRIGGERED_AT", hwdef::REG_TRIGGERED_AT_LO, hwdef::REG_TRIGGERED_AT_HI,
        [&](uint64_t v) { m.seq_triggered_at_i = v; });
  // LEASE_EXPIRES moves with a renewal (TTL 1 ms).
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_TTL_MS, 1), kOkay);
  check("LEASE_EXPIRES", hwdef::REG_LEASE_EXPIRES_LO, hwdef::REG_LEASE_EXPIRES_HI, [&](uint64_t v) {
    b.set_now(v - kTicksPerMs);
    ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, 0x1EA5E), kOkay);
  });
}

// Before any LO read, HI reads the latch's reset value, 0, not the live source:
// a host that reads HI first after reset sees a defined value.
TEST(Bus, EveryHiLatchReadsZeroBeforeItsFirstLoRead) {
  RegfileBench b;
  auto& m = b.m();
  const uint64_t live = 0x00000003'00000004ull;
  b.set_now(live);
  m.seq_steps_i = live;
  m.seq_last_swap_i = live;
  m.seq_triggered_at_i = live;
  for (uint32_t hi : {hwdef::REG_TIME_HI, hwdef::REG_STEPS_HI, hwdef::REG_LAST_SWAP_HI,
                      hwdef::REG_TRIGGERED_AT_HI, hwdef::REG_LEASE_EXPIRES_HI}) {
    EXPECT_EQ(b.ReadOk(hi), 0u) << "register at 0x" << std::hex << hi;
  }
}

// ---------------------------------------------------------------- the read fence
class ReadFence : public testing::TestWithParam<uint32_t> {};

// A host that writes CTRL.TRIGGER and reads TRIGGERS straight after sees the
// kernel's answer, whatever the kernel's latency.
TEST_P(ReadFence, AReadRightAfterAWriteSeesTheKernelsAnswer) {
  const uint32_t latency = GetParam();
  RegfileBench b(latency);
  ASSERT_EQ(b.ReadOk(hwdef::REG_TRIGGERS), 0u);
  for (uint32_t n = 1; n <= 3; ++n) {
    b.StartWrite(hwdef::REG_CTRL, hwdef::CTRL_TRIGGER_MASK);
    const uint64_t taken = b.TickUntilWriteTaken();
    b.StopWrite();
    EXPECT_EQ(b.ReadOk(hwdef::REG_TRIGGERS), n) << "trigger " << n;
    // The documented fence: no read taken for COMMAND_SETTLE_CYCLES cycles after the write.
    EXPECT_EQ(b.last_read_cycle(), taken + hwdef::COMMAND_SETTLE_CYCLES + 1) << "trigger " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernel, ReadFence, testing::Range<uint32_t>(0, hwdef::SEQ_KERNEL_LATENCY_MAX + 1),
                         [](const testing::TestParamInfo<uint32_t>& info) {
                           return "Latency" + std::to_string(info.param);
                         });

TEST(ReadFenceWrites, ABurstOfWritesIsNotHeldByTheFence) {
  RegfileBench b;
  b.StartWrite(BankBase(1), 0);
  uint64_t previous = b.TickUntilWriteTaken();
  for (int i = 1; i < 8; ++i) {
    b.StartWrite(BankBase(1) + 4 * i, i);
    const uint64_t taken = b.TickUntilWriteTaken();
    EXPECT_EQ(taken, previous + 2) << "write " << i << ": one every other cycle (BVALID between)";
    previous = taken;
  }
  b.StopWrite();
  b.Idle(2);
  EXPECT_EQ(b.bank_writes().size(), 8u);
}

// ---------------------------------------------------------------- the tune window
TEST(Tune, AWriteReachesTheKernelAndReadsBackAPartialOneIsRefused) {
  RegfileBench b;
  const uint32_t entry = hwdef::TUNE_ENTRIES - 1;
  const uint32_t addr = hwdef::MEM_TUNE_BASE + 4 * entry;
  ASSERT_EQ(b.Write(addr, 0xFFFF1234u), kOkay);
  ASSERT_EQ(b.tune_writes().size(), 1u);
  EXPECT_EQ(b.tune_writes()[0].entry, entry);
  EXPECT_EQ(b.tune_writes()[0].value, 0x1234u) << "entries are 16 bits";
  EXPECT_EQ(b.tune_writes()[0].cycle, b.last_write_cycle() + 1);
  EXPECT_EQ(b.ReadOk(addr), 0x1234u);
  EXPECT_EQ(b.Write(addr, 0x5678u, 0x1), kSlvErr) << "half an entry";
  EXPECT_EQ(b.tune_writes().size(), 1u);
  EXPECT_EQ(b.ReadOk(addr), 0x1234u);
  EXPECT_FALSE(b.LockedWriteFlag()) << "a partial write is no locked write";
}

}  // namespace
}  // namespace lightrail::hw_bench
