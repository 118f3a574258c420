#include "lightrail/device.hpp"

#include <gtest/gtest.h>

#include "fake_board.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using test::FakeBoard;
using test::FakeTransport;

Device open_fake(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

bool wrote_bank(const FakeBoard& board, uint32_t bank) {
  for (uint64_t a : board.write_log) {
    if (FakeBoard::in_bank(a, bank)) return true;
  }
  return false;
}

TEST(Device, ReadsCapabilitiesAndTuneTable) {
  FakeBoard board;
  Device dev = open_fake(board);
  const DeviceCapabilities& caps = dev.capabilities();
  EXPECT_EQ(caps.ports, hw::PORTS);
  EXPECT_EQ(caps.wavelengths, hw::WAVELENGTHS);
  EXPECT_EQ(caps.tick_ps(), int64_t{hw::TICK_PS});
  EXPECT_EQ(caps.tune_ticks, DeviceCapabilities::reference().tune_ticks);
  EXPECT_EQ(dev.board_id(), 5u);
}

TEST(Device, RejectsABoardWithoutTheMagic) {
  FakeBoard board;
  board.write(hw::REG_CAP_MAGIC, 0x12345678);  // the fake lets the test overwrite it
  try {
    open_fake(board);
    FAIL() << "opened";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("0x12345678"), std::string::npos) << e.what();
  }
}

TEST(Device, RejectsAnotherRegmapVersion) {
  FakeBoard board;
  board.write(hw::REG_CAP_VERSION, hw::REGMAP_VERSION + 1);
  EXPECT_THROW(open_fake(board), FormatError);
}

TEST(Device, StageWritesOnlyTheInactiveBank) {
  for (uint32_t active : {0u, 1u}) {
    FakeBoard board;
    board.active_bank = active;
    Device dev = open_fake(board);
    dev.stage(test::two_shifts());
    EXPECT_TRUE(wrote_bank(board, 1 - active));
    EXPECT_FALSE(wrote_bank(board, active));
    EXPECT_EQ(board.bank_word(1 - active, hw::IMG_HDR_MAGIC), hw::IMG_MAGIC);
    EXPECT_EQ(board.error, 0u);
  }
}

TEST(Device, ValidationFailureWritesNothing) {
  FakeBoard board;
  Device dev = open_fake(board);
  Schedule s = test::two_shifts();
  s.configs[0].wavelength[2] = 99;
  s.steps[1].duration_ps = 10;
  try {
    dev.stage(s);
    FAIL() << "staged";
  } catch (const ValidationError& e) {
    ASSERT_EQ(e.problems().size(), 2u);
    EXPECT_EQ(e.problems()[0].where, "configs[0].ports[2]");
    EXPECT_EQ(e.problems()[1].where, "steps[1].duration_ps");
  }
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Device, ReadBackMismatchNamesTheWord) {
  FakeBoard board;
  board.stuck_addr = hw::MEM_BANK1_BASE + 4 * (hw::IMG_STEP_BASE_WORD + 2);  // step 1, low word
  Device dev = open_fake(board);
  try {
    dev.stage(test::two_shifts());
    FAIL() << "verified";
  } catch (const VerifyError& e) {
    EXPECT_NE(std::string(e.what()).find("bank 1 word 1042 (address 0x31048)"), std::string::npos)
        << e.what();
  }
}

TEST(Device, CommitAtEpochActivatesTheStagedBank) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  board.verify_busy_reads = 3;
  dev.commit(CommitAt::epoch());
  EXPECT_EQ(board.commits, 1);
  EXPECT_EQ(board.commit_mode & hw::COMMIT_MODE_AT_TIME_MASK, 0u);
  EXPECT_EQ(board.verify_busy_reads, 0);  // polled until verification ended
  const Status st = dev.status();
  EXPECT_TRUE(st.running);
  EXPECT_EQ(st.active_bank, 1);
  EXPECT_EQ(st.generation, 7u);
  EXPECT_EQ(st.swaps, 1u);
  EXPECT_TRUE(st.errors.empty());
  // The next stage goes to the other bank.
  board.write_log.clear();
  dev.stage(test::two_shifts());
  EXPECT_TRUE(wrote_bank(board, 0));
  EXPECT_FALSE(wrote_bank(board, 1));
}

TEST(Device, CommitAtTimeWritesTicks) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  dev.commit(CommitAt::at(board_time_ps(5'000'000'000'000)));  // 5 s: more than 32 bits of ticks
  EXPECT_EQ(board.commit_mode & hw::COMMIT_MODE_AT_TIME_MASK, hw::COMMIT_MODE_AT_TIME_MASK);
  EXPECT_EQ(board.commit_time, 40'000'000'000u);
}

TEST(Device, CommitErrorNamesTheFlagsAndClearsThem) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  board.force_commit_error = hw::ERROR_COMMIT_LATE_MASK;
  try {
    dev.commit(CommitAt::at(board_time_ps(1000)));
    FAIL() << "committed";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"COMMIT_LATE"});
    EXPECT_NE(std::string(e.what()).find("COMMIT_LATE"), std::string::npos);
  }
  EXPECT_EQ(board.error, 0u);
}

TEST(Device, ACommitTheBoardIgnoresIsAnError) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  board.ignore_commits = true;
  try {
    dev.commit(CommitAt::epoch());
    FAIL() << "an ignored commit was reported as done";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"IGNORED"});
  }
  EXPECT_EQ(board.swaps, 0u);
}

TEST(Device, CommitOfACorruptedBankRaisesBadCrc) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.stage(test::two_shifts());
  // Something else scribbles on the staged bank before the commit.
  board.write(hw::MEM_BANK1_BASE + 4 * hw::IMG_STEP_BASE_WORD, 1234);
  try {
    dev.commit(CommitAt::epoch());
    FAIL() << "committed";
  } catch (const CommitError& e) {
    EXPECT_EQ(e.flags(), std::vector<std::string>{"BAD_CRC"});
  }
  EXPECT_EQ(board.active_bank, 0u);
}

TEST(Device, StatusDecodesCountersAndErrors) {
  FakeBoard board;
  board.time_ticks = (uint64_t{3} << 32) + 8;
  board.error = hw::ERROR_MISSED_DEADLINE_MASK | hw::ERROR_LOCKED_WRITE_MASK;
  Device dev = open_fake(board);
  const Status st = dev.status();
  EXPECT_EQ(st.errors, (std::vector<std::string>{"LOCKED_WRITE", "MISSED_DEADLINE"}));
  EXPECT_EQ(to_ps(st.board_time), static_cast<int64_t>(board.time_ticks) * 125);
  EXPECT_EQ(to_ps(dev.time()), static_cast<int64_t>(board.time_ticks) * 125);
}

TEST(Device, TriggerAndStopPulseCtrl) {
  FakeBoard board;
  Device dev = open_fake(board);
  dev.trigger();
  dev.stop();
  EXPECT_EQ(board.triggers, 1);
  EXPECT_EQ(board.stops, 1);
}

TEST(Device, AJumpNamesItsStepAndOneOutsideTheRunningScheduleIsRefusedNamingTheField) {
  FakeBoard board;
  board.running = true;
  board.active_bank = 1;
  board.poke(FakeBoard::bank_base(1) + 4 * hw::IMG_HDR_N_STEPS, 6);
  Device dev = open_fake(board);
  dev.trigger(5);
  EXPECT_EQ(board.triggers, 1);
  EXPECT_EQ(board.jumps, 1);
  EXPECT_EQ(board.jump_step, 5u);
  dev.trigger();
  EXPECT_EQ(board.jumps, 1) << "a trigger without a step does not jump";
  auto refused = [&](const std::function<void()>& call, const std::string& says) {
    try {
      call();
      ADD_FAILURE() << "not refused";
    } catch (const FormatError& e) {
      ASSERT_EQ(e.problems().size(), 1u) << e.what();
      EXPECT_EQ(e.problems()[0].where, "step");
      EXPECT_NE(e.problems()[0].message.find(says), std::string::npos) << e.what();
    }
  };
  refused([&] { dev.trigger(6); }, "outside the running schedule's 6 steps (0..5)");
  board.waiting_event = true;
  refused([&] { dev.trigger_at(board_time_ps(5000000), 0xFFFFFFFFu); }, "outside");
  EXPECT_EQ(board.triggers, 2) << "nothing written for a refused jump";
  EXPECT_EQ(board.trigger_count, 0u);
  EXPECT_EQ(board.jumps, 1);
  ASSERT_TRUE(dev.trigger_at(board_time_ps(5000000), 2).has_value());
  EXPECT_EQ(board.jumps, 2);
  EXPECT_EQ(board.jump_step, 2u);
  board.running = false;
  refused([&] { dev.trigger(0); }, "no schedule runs");
}

TEST(Device, WriteTuneTableUpdatesBoardAndValidation) {
  FakeBoard board;
  Device dev = open_fake(board);
  std::vector<uint16_t> table(64 * 64, 2);
  table[1 * 64 + 2] = 300;  // 37500 ps from 1 to 2: too slow for 1 us steps? no: fits 1 us
  dev.write_tune_table(table);
  EXPECT_EQ(board.peek(hw::MEM_TUNE_BASE + 4 * (1 * 64 + 2)), 300u);
  EXPECT_EQ(dev.capabilities().tune_ps(1, 2), 37500);
  EXPECT_THROW(dev.write_tune_table(std::vector<uint16_t>(10)), FormatError);
}

TEST(Device, UnknownSchemeAndMissingXrtAreClear) {
  try {
    Device::open("tcp://x");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown device URI scheme"), std::string::npos);
  }
  // The define the driver was built with is the one the test sees.
#ifdef LIGHTRAIL_HAVE_XRT
  EXPECT_TRUE(have_xrt());
#else
  EXPECT_FALSE(have_xrt());
#endif
  try {
    // With XRT, an index no device has (or a device without a board image);
    // without, the build says it has no XRT.
    Device::open("xrt://9999");
    FAIL();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("xrt://9999"), std::string::npos) << what;
    EXPECT_EQ(what.find("has no XRT") != std::string::npos, !have_xrt()) << what;
  }
}

TEST(Device, TimedTriggerReturnsTheBoundaryTheBoardResolved) {
  FakeBoard board;
  Device dev = open_fake(board);
  EXPECT_EQ(dev.trigger_at(board_time_ps(1000000)), std::nullopt) << "no event step waits: latched";
  board.waiting_event = true;
  const std::optional<BoardTime> at =
      dev.trigger_at(board_time_ps(5000000 + 60));  // rounds to the nearest tick
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(to_ps(*at), 5000000);
  EXPECT_EQ(board.trigger_time, 5000000u / hw::TICK_PS);
  const Status st = dev.status();
  EXPECT_EQ(st.triggers, 1u);
  EXPECT_EQ(to_ps(st.last_trigger), 5000000);
  EXPECT_THROW(dev.trigger_at(board_time_ps(-1)), Error);
}

// A latched trigger resolves whenever the board reaches its event step,
// so it may do so between the reads of status(): TRIGGERED_AT must then not
// be the previous trigger's boundary beside the new count (a daemon polling
// for the new count took that stale boundary as the board's).
TEST(Device, StatusNeverPairsTheTriggerCountWithAnOlderBoundary) {
  auto boundary_of = [](uint32_t n) { return uint64_t{1000000} + uint64_t{n} * 91640; };
  for (const uint64_t resolve_after :
       {uint64_t{hw::REG_TRIGGERS}, uint64_t{hw::REG_TRIGGERED_AT_LO}, uint64_t{hw::REG_TRIGGERED_AT_HI}}) {
    SCOPED_TRACE(fmt::format("resolved after the read of 0x{:X}", resolve_after));
    FakeBoard board;
    board.trigger_count = 12;
    board.triggered_at = boundary_of(12);
    Device dev = open_fake(board);
    bool resolved = false;
    board.after_read = [&](uint64_t addr) {
      if (addr != resolve_after || resolved) return;
      resolved = true;
      board.triggered_at = boundary_of(13);
      board.trigger_count = 13;
    };
    const Status st = dev.status();
    EXPECT_TRUE(resolved);
    EXPECT_EQ(st.triggers, 13u);
    EXPECT_EQ(to_ps(st.last_trigger), static_cast<int64_t>(boundary_of(13) * hw::TICK_PS));
  }
  // Triggers that keep resolving at every read: the boundary is of the count
  // given or of a later trigger, never an earlier one.
  FakeBoard board;
  Device dev = open_fake(board);
  board.after_read = [&](uint64_t addr) {
    if (addr != hw::REG_TRIGGERED_AT_LO) return;
    ++board.trigger_count;
    board.triggered_at = boundary_of(board.trigger_count);
  };
  const Status st = dev.status();
  EXPECT_GE(to_ps(st.last_trigger), static_cast<int64_t>(boundary_of(st.triggers) * hw::TICK_PS));
}

}  // namespace
}  // namespace lightrail
