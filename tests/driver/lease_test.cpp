// One writer at a time: the lease, the commit as a compare-and-swap on what
// this Device staged, cancel, and the horizon (docs/driver.md).
#include <gtest/gtest.h>

#include "fake_board.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using test::FakeBoard;
using test::FakeTransport;

Device open_fake(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

size_t bank_writes(const FakeBoard& board) {
  size_t n = 0;
  for (uint64_t a : board.write_log) n += FakeBoard::in_bank(a, 0) || FakeBoard::in_bank(a, 1);
  return n;
}

TEST(Lease, ASecondWriterIsRefusedBeforeItWritesAnything) {
  FakeBoard board;
  Device a = open_fake(board);
  Device b = open_fake(board);
  a.stage(test::two_shifts());
  ASSERT_NE(a.lease_token(), b.lease_token());
  board.write_log.clear();
  try {
    b.stage(test::two_shifts());
    FAIL() << "b staged while a holds the lease";
  } catch (const LeaseError& e) {
    EXPECT_EQ(e.owner(), a.lease_token());
    EXPECT_NE(std::string(e.what()).find("another writer holds this board"), std::string::npos) << e.what();
  }
  EXPECT_EQ(bank_writes(board), 0u);
  EXPECT_THROW(b.trigger(), LeaseError);
  EXPECT_EQ(board.triggers, 0);
  EXPECT_THROW(b.cancel(), LeaseError);
  // Readers need no lease; STOP, the safety action, needs none either.
  EXPECT_NO_THROW(b.status());
  EXPECT_NO_THROW(b.stop());
  EXPECT_EQ(board.stops, 1);
  // a's commit is its own.
  a.commit(CommitAt::epoch());
  EXPECT_EQ(board.generation, 7u);
  EXPECT_TRUE(b.lease().owner == a.lease_token() && !b.lease().mine && a.lease().mine);
}

TEST(Lease, ReleasedOnDestructionSoTheNextProgramMayWrite) {
  FakeBoard board;
  {
    Device a = open_fake(board);
    a.stage(test::two_shifts());
    EXPECT_EQ(board.lease_owner, a.lease_token());
  }
  EXPECT_EQ(board.lease_owner, 0u);
  Device b = open_fake(board);
  EXPECT_NO_THROW(b.stage(test::two_shifts()));
}

TEST(Lease, BreakingAStaleLeaseLocksTheOldHolderOut) {
  FakeBoard board;
  Device a = open_fake(board);
  Device b = open_fake(board);
  a.stage(test::two_shifts());
  b.break_lease();
  EXPECT_EQ(board.lease_owner, b.lease_token());
  board.write_log.clear();
  EXPECT_THROW(a.stage(test::two_shifts()), LeaseError);  // a's renewal is not due, but it looks
  EXPECT_EQ(bank_writes(board), 0u);
  try {
    a.commit(CommitAt::epoch());
    FAIL() << "a committed after losing its lease";
  } catch (const LeaseError& e) {
    EXPECT_EQ(e.owner(), b.lease_token()) << e.what();
  }
  EXPECT_EQ(board.commits, 0);
  EXPECT_EQ(board.swaps, 0u);
}

TEST(Lease, CommitIsACompareAndSwapOnWhatThisDeviceStaged) {
  FakeBoard board;
  Device a = open_fake(board);
  try {
    a.commit(CommitAt::epoch());
    FAIL() << "committed without staging";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nothing staged by this program"), std::string::npos) << e.what();
  }
  EXPECT_EQ(board.commits, 0);
  a.stage(test::two_shifts());
  EXPECT_EQ(board.commit_crc, 0u);
  // Behind the driver's back, the bank changes after staging (another
  // program with a broken lease): the board refuses the commit.
  board.poke(FakeBoard::bank_base(1) + 4 * hw::IMG_STEP_BASE_WORD, 0x12345u);
  std::vector<uint32_t> img(hw::IMG_STEP_BASE_WORD + 2 * test::two_shifts().steps.size());
  for (uint32_t w = 0; w < img.size(); ++w) img[w] = board.bank_word(1, w);
  board.poke(FakeBoard::bank_base(1) + 4 * hw::IMG_HDR_CRC, image_crc(img));
  try {
    a.commit(CommitAt::epoch());
    FAIL() << "committed an image it did not stage";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"COMMIT_MISMATCH"});
  }
  EXPECT_EQ(board.swaps, 0u);
  // One commit per stage.
  EXPECT_THROW(a.commit(CommitAt::epoch()), Error);
}

TEST(Lease, CommitTimesBeyondTheHorizonAreRefusedBeforeAnyWrite) {
  FakeBoard board;
  Device a = open_fake(board);
  a.stage(test::two_shifts());
  board.write_log.clear();
  for (const int64_t t :
       {int64_t{9223372036854775807}, int64_t{hw::COMMIT_HORIZON_S} * 1000000000000 + 1000000}) {
    try {
      a.commit(CommitAt::at(board_time_ps(t)));
      FAIL() << t;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("beyond the board's horizon"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(board.write_log.empty());
  EXPECT_NO_THROW(a.commit(CommitAt::at(board_time_ps(1000000000))));
}

TEST(Lease, CancelSaysWhatItFound) {
  FakeBoard board;
  Device a = open_fake(board);
  EXPECT_EQ(a.cancel(), CancelOutcome::kNothingPending);
  board.pending = true;
  EXPECT_EQ(a.cancel(), CancelOutcome::kCancelled);
  EXPECT_TRUE(a.status().cancelled);
  EXPECT_FALSE(a.status().commit_pending);
  // Staging is refused while a commit is armed: the board locks that bank.
  board.pending = true;
  board.write_log.clear();
  EXPECT_THROW(a.stage(test::two_shifts()), Error);
  EXPECT_EQ(bank_writes(board), 0u);
}

TEST(Lease, TheTuneTableIsRefusedWhileAScheduleRuns) {
  FakeBoard board;
  Device a = open_fake(board);
  const std::vector<uint16_t> table(size_t{hw::WAVELENGTHS} * hw::WAVELENGTHS, 3);
  board.running = true;
  board.write_log.clear();
  EXPECT_THROW(a.write_tune_table(table), BoardBusyError);
  for (uint64_t addr : board.write_log) EXPECT_LT(addr, hw::MEM_TUNE_BASE);
  board.running = false;
  EXPECT_NO_THROW(a.write_tune_table(table));
  EXPECT_EQ(a.capabilities().tune_ticks, table);
}

}  // namespace
}  // namespace lightrail
