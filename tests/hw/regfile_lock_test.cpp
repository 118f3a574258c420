// Bank and tune-table protection of the register file (docs/hw.md, "Register
// file behaviour"): the running bank is never written, the committed bank and
// the tune table are refused from the COMMIT pulse until the kernel's status
// lets go, at every kernel latency the top accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "regfile_bench.hpp"

namespace lightrail::hw_bench {
namespace {

constexpr uint32_t kToken = 0x7E57'0001u;
constexpr uint32_t kWord = 5;  // any word inside a window
constexpr uint32_t kData = 0x1234'5678u;

uint32_t BankAddr(int bank) { return BankBase(bank) + 4 * kWord; }
uint32_t TuneAddr() { return hwdef::MEM_TUNE_BASE + 4 * kWord; }

std::string StatusName(bool running, int active, bool pending, bool busy) {
  return std::string(running ? "running" : "stopped") + ", active bank " + std::to_string(active) +
         (pending ? ", commit pending" : "") + (busy ? ", verify busy" : "");
}

// A refused write: SLVERR, nothing reaches a memory or the kernel, ERROR.LOCKED_WRITE set.
void ExpectRefused(RegfileBench& b, uint32_t resp, const std::string& what) {
  EXPECT_EQ(resp, kSlvErr) << what;
  EXPECT_TRUE(b.bank_writes().empty()) << what;
  EXPECT_TRUE(b.tune_writes().empty()) << what;
  EXPECT_TRUE(b.LockedWriteFlag()) << what;
}

TEST(BankLock, EveryStatusLocksExactlyTheRunningBankAndTheCommittedOne) {
  for (int s = 0; s < 16; ++s) {
    const bool running = s & 1, pending = s & 4, busy = s & 8;
    const int active = (s >> 1) & 1;
    for (int bank : {0, 1}) {
      const std::string what =
          StatusName(running, active, pending, busy) + ", write to bank " + std::to_string(bank);
      RegfileBench b;
      b.set_running(running);
      b.set_active_bank(active);
      b.set_commit_pending(pending);
      b.set_verify_busy(busy);
      const uint32_t resp = b.Write(BankAddr(bank), kData, 0x5);
      const bool locked = (running && bank == active) || ((pending || busy) && bank != active);
      if (locked) {
        ExpectRefused(b, resp, what);
      } else {
        EXPECT_EQ(resp, kOkay) << what;
        ASSERT_EQ(b.bank_writes().size(), 1u) << what;
        const BankWrite& w = b.bank_writes()[0];
        EXPECT_EQ(w.enables, 1u << bank) << what;
        EXPECT_EQ(w.word, kWord) << what;
        EXPECT_EQ(w.strobes, 0x5u) << what;
        EXPECT_EQ(w.data, kData) << what;
        EXPECT_FALSE(b.LockedWriteFlag()) << what;
      }
      // Reads of either bank are always allowed.
      EXPECT_EQ(b.ReadOk(BankAddr(0)), kBank0Data) << what;
      EXPECT_EQ(b.ReadOk(BankAddr(1)), kBank1Data) << what;
    }
  }
}

TEST(TuneLock, TheTuneTableIsRefusedWhileRunningOrACommitIsUnderWay) {
  for (int s = 0; s < 16; ++s) {
    const bool running = s & 1, pending = s & 4, busy = s & 8;
    const int active = (s >> 1) & 1;
    const std::string what = StatusName(running, active, pending, busy);
    RegfileBench b;
    b.set_running(running);
    b.set_active_bank(active);
    b.set_commit_pending(pending);
    b.set_verify_busy(busy);
    const uint32_t resp = b.Write(TuneAddr(), 0xBEEF);
    if (running || pending || busy) {
      ExpectRefused(b, resp, what);
      EXPECT_EQ(b.ReadOk(TuneAddr()) & 0xFFFF, 0u) << what << ": the shadow changed";
    } else {
      EXPECT_EQ(resp, kOkay) << what;
      ASSERT_EQ(b.tune_writes().size(), 1u) << what;
      EXPECT_EQ(b.tune_writes()[0].entry, kWord) << what;
      EXPECT_EQ(b.tune_writes()[0].value, 0xBEEFu) << what;
      EXPECT_EQ(b.ReadOk(TuneAddr()), 0xBEEFu) << what;
    }
  }
}

// ---------------------------------------------------------------- the settle window
// The kernel shows VERIFY_BUSY at pulse + latency + 1. Until then only the
// register file's own window keeps the committed bank and the tune table
// locked: a write attempted on every cycle from the pulse to the first one
// the status covers must be refused.
enum class Target { kCommittedBank, kTuneTable };

void ExpectRefusedAfterCommit(uint32_t latency, Target target, uint32_t delay) {
  const std::string what = std::string(target == Target::kTuneTable ? "tune write" : "bank write") +
                           " presented " + std::to_string(delay) + " cycles after the COMMIT pulse";
  RegfileBench b(latency);
  ClaimLease(b, kToken);
  const int bank = b.inactive_bank();
  b.StartWrite(hwdef::REG_COMMIT, kToken);
  const uint64_t pulse = b.TickUntilWriteTaken() + 1;
  b.StopWrite();
  b.Idle(delay);
  // The premise: only the window, not the kernel's status, covers delays up to the latency.
  ASSERT_EQ(b.verify_busy_shown(), delay >= latency + 1) << what;
  if (target == Target::kTuneTable) {
    b.StartWrite(TuneAddr(), 0xBEEF);
  } else {
    b.StartWrite(BankAddr(bank), kData);
  }
  const uint64_t taken = b.TickUntilWriteTaken();
  b.StopWrite();
  const uint32_t resp = b.TickUntilResponse();
  ASSERT_EQ(b.commits().size(), 1u) << what;
  ASSERT_EQ(b.commits()[0].cycle, pulse) << what;
  // The COMMIT's own response occupies the pulse's cycle; the write is taken
  // on the cycle it is presented from the one after.
  EXPECT_EQ(taken, pulse + std::max<uint32_t>(delay, 1)) << what;
  ExpectRefused(b, resp, what);
}

class SettleWindow : public testing::TestWithParam<uint32_t> {};

TEST_P(SettleWindow, TheCommittedBankIsRefusedOnEveryCycleUntilTheKernelShowsIt) {
  const uint32_t latency = GetParam();
  for (uint32_t delay = 0; delay <= latency + 3; ++delay) {
    ExpectRefusedAfterCommit(latency, Target::kCommittedBank, delay);
  }
}

TEST_P(SettleWindow, TheTuneTableIsRefusedOnEveryCycleUntilTheKernelShowsIt) {
  const uint32_t latency = GetParam();
  for (uint32_t delay = 0; delay <= latency + 3; ++delay) {
    ExpectRefusedAfterCommit(latency, Target::kTuneTable, delay);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernel, SettleWindow, testing::Range<uint32_t>(0, hwdef::SEQ_KERNEL_LATENCY_MAX + 1),
                         [](const testing::TestParamInfo<uint32_t>& info) {
                           return "Latency" + std::to_string(info.param);
                         });

TEST(CommitLock, WithoutACommitTheSameWritesAreTaken) {
  RegfileBench b;
  ClaimLease(b, kToken);
  EXPECT_EQ(b.Write(BankAddr(b.inactive_bank()), kData), kOkay);
  EXPECT_EQ(b.Write(TuneAddr(), 0xBEEF), kOkay);
  EXPECT_EQ(b.bank_writes().size(), 1u);
  EXPECT_EQ(b.tune_writes().size(), 1u);
}

TEST(CommitLock, ARefusedCommitLocksNothing) {
  RegfileBench b;
  ClaimLease(b, kToken);
  b.StartWrite(hwdef::REG_COMMIT, kToken + 1);  // not the holder
  b.TickUntilWriteTaken();
  b.StartWrite(BankAddr(b.inactive_bank()), kData);  // straight after it
  const uint64_t taken = b.TickUntilWriteTaken();
  b.StopWrite();
  EXPECT_EQ(b.TickUntilResponse(), kOkay);
  EXPECT_TRUE(b.commits().empty());
  ASSERT_EQ(b.bank_writes().size(), 1u);
  EXPECT_EQ(b.bank_writes()[0].cycle, taken);
}

TEST(CommitLock, TheLockLiftsOnceTheKernelSwapsAndTheWindowHasPassed) {
  RegfileBench b;
  ClaimLease(b, kToken);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT, kToken), kOkay);
  b.Idle(hwdef::COMMAND_SETTLE_CYCLES);
  ASSERT_TRUE(b.verify_busy_shown());
  EXPECT_EQ(b.Write(BankAddr(1), kData), kSlvErr);  // bank 1 is being verified
  b.EndCommit();
  b.set_active_bank(1);  // the swap: bank 1 runs now
  b.set_running(true);
  EXPECT_EQ(b.Write(BankAddr(0), kData), kOkay);    // the new inactive bank
  EXPECT_EQ(b.Write(BankAddr(1), kData), kSlvErr);  // the running one
  EXPECT_EQ(b.Write(TuneAddr(), 0xBEEF), kSlvErr);  // running
  b.set_running(false);
  EXPECT_EQ(b.Write(TuneAddr(), 0xBEEF), kOkay);
  ASSERT_EQ(b.bank_writes().size(), 1u);
  EXPECT_EQ(b.bank_writes()[0].enables, 1u);
}

TEST(LockedWrite, TheFlagIsSetByARefusalAndClearedByErrorOrClearErrors) {
  RegfileBench b;
  b.set_running(true);
  ASSERT_EQ(b.Write(BankAddr(0), kData), kSlvErr);
  EXPECT_TRUE(b.LockedWriteFlag());
  ASSERT_EQ(b.Write(hwdef::REG_ERROR, hwdef::ERROR_LOCKED_WRITE_MASK), kOkay);
  EXPECT_FALSE(b.LockedWriteFlag());
  ASSERT_EQ(b.clear_errors().size(), 1u);
  EXPECT_EQ(b.clear_errors()[0], hwdef::ERROR_LOCKED_WRITE_MASK);

  ASSERT_EQ(b.Write(TuneAddr(), 1), kSlvErr);
  EXPECT_TRUE(b.LockedWriteFlag());
  ASSERT_EQ(b.Write(hwdef::REG_CTRL, hwdef::CTRL_CLEAR_ERRORS_MASK), kOkay);
  EXPECT_FALSE(b.LockedWriteFlag());
  ASSERT_EQ(b.clear_errors().size(), 2u);
  EXPECT_EQ(b.clear_errors()[1], ~0u);
}

}  // namespace
}  // namespace lightrail::hw_bench
