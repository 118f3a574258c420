// Device::sync_status / sync_set_mode / sync_calibration / sync_calibrate
// against an in-memory board: what a timing engineer reads and sets per link.
#include "lightrail/sync.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "fake_board.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using test::FakeBoard;
using test::FakeTransport;

Device open(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

uint32_t word(int64_t v) { return static_cast<uint32_t>(static_cast<int32_t>(v)); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A follower locked on the DDMTD phase, 12 ps behind its reference.
void make_locked(FakeBoard& b) {
  b.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK);
  b.poke(hw::REG_SYNC_STATUS, 5u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_LOCKED_MASK |
                                  hw::SYNC_STATUS_REF_OK_MASK | hw::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  b.poke(hw::REG_SYNC_OFFSET_PS, word(-12));
  b.poke(hw::REG_SYNC_RTT_PS, 10'001'234);
  b.poke(hw::REG_SYNC_DELAY_MS_PS, 5'000'700);
  b.poke(hw::REG_SYNC_SERVO_P_PS, word(3));
  b.poke(hw::REG_SYNC_SERVO_I_PPT, word(-4'560'000));  // -4.56 ppm
  b.poke(hw::REG_SYNC_DAC, 0x7A12);
  b.poke(hw::REG_SYNC_PHASE_STEPS, word(-8400));
  b.poke(hw::REG_SYNC_HOLDOVER_US, 0);
}

TEST(SyncStatus, DecodesEveryFieldWithSigns) {
  FakeBoard board;
  make_locked(board);
  board.poke(hw::REG_SYNC_ERROR, hw::SYNC_ERROR_BAD_EXCHANGE_MASK | hw::SYNC_ERROR_REF_LOST_MASK |
                                     hw::SYNC_ERROR_PHASE_SLIP_MASK | hw::SYNC_ERROR_TIME_STEPPED_MASK);
  Device dev = open(board);
  const SyncStatus s = dev.sync_status();
  EXPECT_EQ(s.state, "LOCKED");
  EXPECT_EQ(s.state_code, 5u);
  EXPECT_TRUE(s.enabled);
  EXPECT_TRUE(s.use_ddmtd);
  EXPECT_TRUE(s.locked);
  EXPECT_TRUE(s.ref_ok);
  EXPECT_TRUE(s.ddmtd_active);
  EXPECT_FALSE(s.holdover);
  EXPECT_FALSE(s.slewing);
  EXPECT_EQ(s.offset_ps, -12);
  EXPECT_EQ(s.rtt_ps, 10'001'234u);
  EXPECT_EQ(s.delay_ms_ps, 5'000'700u);
  EXPECT_EQ(s.servo_p_ps, 3);
  EXPECT_EQ(s.servo_i_ppt, -4'560'000);
  EXPECT_EQ(s.dac, 0x7A12u);
  EXPECT_EQ(s.phase_steps, -8400);
  EXPECT_EQ(s.errors, (std::vector<std::string>{"BAD_EXCHANGE", "REF_LOST", "PHASE_SLIP", "TIME_STEPPED"}));
  EXPECT_EQ(describe(s), "locked, offset -12 ps (DDMTD phase)");
}

TEST(SyncStatus, ReadingDoesNotWrite) {
  FakeBoard board;
  make_locked(board);
  board.poke(hw::REG_SYNC_ERROR, hw::SYNC_ERROR_LOST_LOCK_MASK);
  Device dev = open(board);
  dev.sync_status();
  EXPECT_TRUE(board.write_log.empty());  // sticky flags stay for the next reader
  EXPECT_EQ(dev.sync_status().errors, std::vector<std::string>{"LOST_LOCK"});
}

TEST(SyncStatus, NoReferenceLinkIsSaidPlainly) {
  FakeBoard board;  // out of reset: servo disabled, REF_OK = 0
  Device dev = open(board);
  const SyncStatus s = dev.sync_status();
  EXPECT_EQ(s.state, "DISABLED");
  EXPECT_FALSE(s.ref_ok);
  EXPECT_FALSE(s.enabled);
  EXPECT_FALSE(s.locked);
  EXPECT_EQ(s.dac, 1u << (hw::SYNC_DAC_BITS - 1));  // mid-scale: nominal frequency
  const std::string text = describe(s);
  EXPECT_TRUE(contains(text, "no reference link (SYNC_STATUS.REF_OK = 0)")) << text;
  EXPECT_TRUE(contains(text, "not synchronised")) << text;

  // Enabled but still without a reference: still says so, with the state.
  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK);
  board.poke(hw::REG_SYNC_STATUS, 1u << hw::SYNC_STATUS_STATE_LSB);
  const std::string enabled = describe(dev.sync_status());
  EXPECT_TRUE(contains(enabled, "no reference link")) << enabled;
  EXPECT_TRUE(contains(enabled, "FREE_RUN")) << enabled;
}

TEST(SyncStatus, HoldoverReportsItsDuration) {
  FakeBoard board;
  make_locked(board);
  board.poke(hw::REG_SYNC_STATUS, 6u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_HOLDOVER_MASK);
  board.poke(hw::REG_SYNC_HOLDOVER_US, 1000);
  board.poke(hw::REG_SYNC_ERROR, hw::SYNC_ERROR_REF_LOST_MASK);
  const SyncStatus s = open(board).sync_status();
  EXPECT_EQ(s.state, "HOLDOVER");
  EXPECT_TRUE(s.holdover);
  EXPECT_FALSE(s.ref_ok);
  EXPECT_EQ(s.holdover_us, 1000u);
  EXPECT_TRUE(contains(describe(s), "holdover for 1000 us")) << describe(s);
}

TEST(SyncStatus, UnknownStateIsNamedByNumber) {
  EXPECT_EQ(sync_state_name(7), "UNKNOWN(7)");
  EXPECT_EQ(sync_state_name(2), "COARSE");
}

TEST(SyncStatus, DecodesRoleAndLinkEngine) {
  FakeBoard board;
  make_locked(board);
  board.poke(hw::REG_SYNC_LINK, hw::SYNC_LINK_ALIGNED_MASK | hw::SYNC_LINK_PARENT_LOCKED_MASK |
                                    (31u << hw::SYNC_LINK_BITSLIDE_LSB) |
                                    0xFFFF'E0FCu);                // undefined bits set
  board.poke(hw::REG_SYNC_LINK_BAD_FRAMES, 0xFFFF'FFFEu);         // near its wrap: unsigned, not clipped
  board.poke(hw::REG_SYNC_DOWN_LINK, 0b1000101u | 0xFFFF'FF80u);  // ports 1, 3 and 7; undefined bits set
  board.poke(hw::REG_SYNC_DOWN_BAD_FRAMES, 0xFFFF'FFFDu);
  Device dev = open(board);
  SyncStatus s = dev.sync_status();
  EXPECT_FALSE(s.reference);
  EXPECT_TRUE(s.link_aligned);
  EXPECT_TRUE(s.parent_locked);
  EXPECT_EQ(s.rx_bitslide_ui, 31u);
  EXPECT_EQ(s.link_bad_frames, 0xFFFF'FFFEu);
  EXPECT_EQ(s.down_aligned, 0b1000101u);
  EXPECT_EQ(s.down_bad_frames, 0xFFFF'FFFDu);
  EXPECT_EQ(sync_mode_of(s), SyncMode::kFollower);

  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
  board.poke(hw::REG_SYNC_LINK, 7u << hw::SYNC_LINK_BITSLIDE_LSB);  // slide without ALIGNED: as read
  s = dev.sync_status();
  EXPECT_TRUE(s.reference);
  EXPECT_FALSE(s.enabled);
  EXPECT_FALSE(s.link_aligned);
  EXPECT_FALSE(s.parent_locked);
  EXPECT_EQ(s.rx_bitslide_ui, 7u);
  EXPECT_EQ(sync_mode_of(s), SyncMode::kReference);
}

TEST(SyncStatus, IsOneBlockReadFromCtrlToExchangePeriod) {
  // Every field of one call comes from one moment of the board: a change
  // between two reads would pair a new link state with an old servo state.
  FakeBoard board;
  make_locked(board);
  board.poke(hw::REG_SYNC_LINK_BAD_FRAMES, 3);
  std::vector<uint64_t> reads;
  board.after_read = [&](uint64_t addr) { reads.push_back(addr); };
  Device dev = open(board);
  reads.clear();
  const SyncStatus s = dev.sync_status();
  EXPECT_EQ(s.link_bad_frames, 3u);
  // FakeTransport reads a block word by word, in order: the whole range once.
  std::vector<uint64_t> expect;
  for (uint64_t a = hw::REG_SYNC_CTRL; a <= hw::REG_SYNC_EXCHANGE_PERIOD; a += 4) expect.push_back(a);
  EXPECT_EQ(reads, expect);
  EXPECT_EQ(s.exchange_period_cycles, hw::DDMTD_N + 1);  // the reset value
}

TEST(SyncStatus, ModeOfEverySyncCtrlValue) {
  const uint32_t E = hw::SYNC_CTRL_ENABLE_MASK, D = hw::SYNC_CTRL_USE_DDMTD_MASK,
                 R = hw::SYNC_CTRL_REFERENCE_MASK;
  EXPECT_EQ(sync_mode_of(0u), SyncMode::kOff);
  EXPECT_EQ(sync_mode_of(D), SyncMode::kOff);  // the reset value: servo off, DDMTD preselected
  EXPECT_EQ(sync_mode_of(R), SyncMode::kReference);
  EXPECT_EQ(sync_mode_of(R | D), SyncMode::kReference);
  EXPECT_EQ(sync_mode_of(E | D), SyncMode::kFollower);
  EXPECT_EQ(sync_mode_of(E), SyncMode::kFollowerPtpOnly);
  EXPECT_EQ(sync_mode_of(R | E), std::nullopt);
  EXPECT_EQ(sync_mode_of(R | E | D), std::nullopt);
  for (SyncMode m : {SyncMode::kOff, SyncMode::kReference, SyncMode::kFollower, SyncMode::kFollowerPtpOnly})
    EXPECT_EQ(sync_mode_of(sync_ctrl_word(m)), m) << sync_mode_name(m);
  EXPECT_EQ(sync_mode_name(SyncMode::kFollowerPtpOnly), "follower-ptp-only");
}

TEST(SyncStatus, DescribeNamesWhatTheLinkLacks) {
  SyncStatus s;  // a follower, servo on, no reference yet
  s.enabled = true;
  s.use_ddmtd = true;
  s.state = "FREE_RUN";
  const std::string none = describe(s);
  EXPECT_TRUE(contains(none, "no reference link (SYNC_STATUS.REF_OK = 0)")) << none;
  EXPECT_TRUE(contains(none, "FREE_RUN")) << none;
  EXPECT_TRUE(contains(none,
                       "the link carries no frames (SYNC_LINK.ALIGNED = 0): is the fibre in, and the far end "
                       "running a lightrail bitstream as the reference (SYNC_CTRL.REFERENCE)?"))
      << none;

  s.link_aligned = true;  // then only the transceiver's lock can be missing from REF_OK
  EXPECT_TRUE(contains(describe(s), "HEALTH.LINK_UP")) << describe(s);
  EXPECT_FALSE(contains(describe(s), "carries no frames")) << describe(s);

  s.ref_ok = true;  // own link up, the reference's time not valid yet
  const std::string waiting = describe(s);
  EXPECT_TRUE(contains(waiting, "this board's link is up; waiting for the reference's time")) << waiting;
  EXPECT_TRUE(contains(waiting, "SYNC_LINK.PARENT_TIME_VALID = 0")) << waiting;

  s.parent_time_valid = true;
  s.state = "TRACK";
  EXPECT_EQ(describe(s), "acquiring (TRACK), offset 0 ps (two-way exchange)");

  // Whose link: the reference re-acquiring or holding over is followed and
  // named; a holdover says whether this board's link or the reference's
  // time is why.
  s.locked = true;
  s.parent_degraded = true;
  EXPECT_TRUE(contains(describe(s), "the reference is re-acquiring (SYNC_STATUS.PARENT_DEGRADED)"))
      << describe(s);
  s.parent_holdover = true;
  EXPECT_TRUE(contains(describe(s), "the reference is in holdover (SYNC_STATUS.PARENT_HOLDOVER)"))
      << describe(s);
  s.locked = false;
  s.holdover = true;
  EXPECT_TRUE(contains(describe(s), "reference declared its time invalid")) << describe(s);
  s.ref_ok = false;
  EXPECT_TRUE(contains(describe(s), "own link to its reference went down (SYNC_ERROR.REF_LOST)"))
      << describe(s);

  SyncStatus gm;  // the grandmaster: its own time is the reference
  gm.reference = true;
  gm.state = "DISABLED";
  const std::string alone = describe(gm);
  EXPECT_TRUE(contains(alone, "reference (grandmaster)")) << alone;
  EXPECT_TRUE(contains(alone, "SYNC_LINK.ALIGNED = 0")) << alone;
  EXPECT_FALSE(contains(alone, "not synchronised")) << alone;
  gm.link_aligned = true;
  EXPECT_TRUE(contains(describe(gm), "far end's link engine is heard")) << describe(gm);

  gm.enabled = true;  // REFERENCE with ENABLE: no mode sets it
  const std::string both = describe(gm);
  EXPECT_TRUE(contains(both, "both REFERENCE and ENABLE")) << both;
  EXPECT_TRUE(contains(both, "nothing to follow")) << both;
}

TEST(SyncSetMode, WritesExactlyTheModesBitsOnceAndReadsBack) {
  struct Case {
    SyncMode mode;
    uint32_t ctrl;
  };
  const Case cases[] = {
      {SyncMode::kOff, 0u},
      {SyncMode::kReference, hw::SYNC_CTRL_REFERENCE_MASK},
      {SyncMode::kFollower, hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK},
      {SyncMode::kFollowerPtpOnly, hw::SYNC_CTRL_ENABLE_MASK},
  };
  for (const Case& c : cases) {
    FakeBoard board;  // out of reset: SYNC_CTRL = USE_DDMTD
    Device dev = open(board);
    board.write_log.clear();
    dev.sync_set_mode(c.mode);
    EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), c.ctrl) << sync_mode_name(c.mode);
    EXPECT_EQ(std::count(board.write_log.begin(), board.write_log.end(), hw::REG_SYNC_CTRL), 1)
        << sync_mode_name(c.mode);
    EXPECT_EQ(board.lease_owner, dev.lease_token()) << "written without the lease";
    const SyncStatus s = dev.sync_status();
    EXPECT_EQ(sync_mode_of(s), c.mode);
  }
  // From one mode straight to another: no bit of the previous survives.
  FakeBoard board;
  Device dev = open(board);
  dev.sync_set_mode(SyncMode::kFollower);
  dev.sync_set_mode(SyncMode::kReference);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
  dev.sync_set_mode(SyncMode::kFollowerPtpOnly);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_ENABLE_MASK);
}

TEST(SyncSetMode, AnotherWritersLeaseRefusesItWithNothingWritten) {
  FakeBoard board;
  Device holder = open(board);
  Device other = open(board);
  holder.claim();
  board.write_log.clear();
  EXPECT_THROW(other.sync_set_mode(SyncMode::kReference), LeaseError);
  EXPECT_EQ(std::count(board.write_log.begin(), board.write_log.end(), hw::REG_SYNC_CTRL), 0);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_USE_DDMTD_MASK);  // the reset value, kept
  holder.sync_set_mode(SyncMode::kReference);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
}

TEST(SyncSetMode, ReadbackMismatchNamesTheRegisterAndBothWords) {
  {
    FakeBoard board;
    board.stuck_addr = hw::REG_SYNC_CTRL;  // bit 0 (ENABLE) stuck at 1
    Device dev = open(board);
    try {
      dev.sync_set_mode(SyncMode::kReference);
      FAIL() << "a SYNC_CTRL that does not hold its value passed";
    } catch (const VerifyError& e) {
      EXPECT_TRUE(contains(e.what(), "SYNC_CTRL (0x00100) reads back 0x00000005, wrote 0x00000004"))
          << e.what();
      EXPECT_TRUE(contains(e.what(), "sync mode reference")) << e.what();
    }
  }
  {
    // A board that drops REFERENCE (an image whose register file does not
    // keep the field): the grandmaster would silently stay a follower.
    FakeBoard board;
    board.after_write = [&](uint64_t addr, uint32_t value) {
      if (addr == hw::REG_SYNC_CTRL) board.poke(addr, value & ~hw::SYNC_CTRL_REFERENCE_MASK);
    };
    Device dev = open(board);
    EXPECT_THROW(dev.sync_set_mode(SyncMode::kReference), VerifyError);
    EXPECT_NO_THROW(dev.sync_set_mode(SyncMode::kFollower));
  }
}

TEST(SyncCalibrate, WritesReadsBackAndWorksWithoutReference) {
  FakeBoard board;  // no reference link: calibration is still accepted
  Device dev = open(board);
  const SyncCalibration cal{1200, 800, -350};
  dev.sync_calibrate(cal);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 1200u);  // board TX side
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 800u);   // board RX side
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_ASYM_PS), word(-350));
  EXPECT_EQ(dev.sync_calibration(), cal);
}

TEST(SyncCalibrate, LimitsThemselvesAreAccepted) {
  const int64_t d = hw::SYNC_CAL_DELAY_MAX_PS;
  const int64_t a = hw::SYNC_CAL_ASYM_MAX_PS;
  EXPECT_TRUE(validate(SyncCalibration{d, 0, a}).empty());
  EXPECT_TRUE(validate(SyncCalibration{0, d, -a}).empty());
  FakeBoard board;
  Device dev = open(board);
  dev.sync_calibrate({d, d, -a});
  EXPECT_EQ(dev.sync_calibration(), (SyncCalibration{d, d, -a}));
}

TEST(SyncCalibrate, OutOfRangeNamesTheFieldAndWritesNothing) {
  const int64_t d = hw::SYNC_CAL_DELAY_MAX_PS;
  const int64_t a = hw::SYNC_CAL_ASYM_MAX_PS;
  struct Case {
    SyncCalibration cal;
    std::string expect;
  };
  const Case cases[] = {
      {{d + 1, 0, 0},
       "delay_tx_ps: " + std::to_string(d + 1) + " is outside 0.." + std::to_string(d) + " ps"},
      {{0, -1, 0}, "delay_rx_ps: -1 is outside 0.." + std::to_string(d) + " ps"},
      {{0, 0, a + 1},
       "asymmetry_ps: " + std::to_string(a + 1) + " is outside -" + std::to_string(a) + "..+" +
           std::to_string(a) + " ps (SYNC_CAL_ASYM_MAX_PS)"},
      // Would wrap to a small value in a 32-bit register: must not slip through.
      {{0, 0, -(int64_t{1} << 32) + 5}, "asymmetry_ps: -4294967291 is outside"},
  };
  for (const Case& c : cases) {
    FakeBoard board;
    Device dev = open(board);
    try {
      dev.sync_calibrate(c.cal);
      ADD_FAILURE() << "accepted " << c.expect;
    } catch (const FormatError& e) {
      EXPECT_TRUE(contains(e.what(), c.expect)) << e.what();
      EXPECT_TRUE(contains(e.what(), "nothing written")) << e.what();
      ASSERT_EQ(e.problems().size(), 1u);
    }
    EXPECT_TRUE(board.write_log.empty()) << c.expect;
  }
}

TEST(SyncCalibrate, EveryBadFieldIsReportedAtOnce) {
  FakeBoard board;
  board.poke(hw::REG_SYNC_CAL_DELAY_MS_PS, 777);
  Device dev = open(board);
  try {
    dev.sync_calibrate({-5, 5, int64_t{hw::SYNC_CAL_ASYM_MAX_PS} * 2});
    FAIL() << "accepted";
  } catch (const FormatError& e) {
    ASSERT_EQ(e.problems().size(), 2u);
    EXPECT_EQ(e.problems()[0].where, "delay_tx_ps");
    EXPECT_EQ(e.problems()[1].where, "asymmetry_ps");
  }
  // The good field was not applied alone either.
  EXPECT_TRUE(board.write_log.empty());
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 777u);
}

TEST(SyncCalibrate, ReadbackMismatchNamesTheRegister) {
  FakeBoard board;
  board.stuck_addr = hw::REG_SYNC_CAL_ASYM_PS;  // bit 0 stuck at 1
  Device dev = open(board);
  try {
    dev.sync_calibrate({100, 100, 200});
    FAIL() << "a register that does not hold its value passed";
  } catch (const VerifyError& e) {
    EXPECT_TRUE(contains(e.what(), "SYNC_CAL_ASYM_PS")) << e.what();
    EXPECT_TRUE(contains(e.what(), "reads back 0x000000C9, wrote 0x000000C8")) << e.what();
  }
}

// A rate is the whole period nearest it, within the engine's range; the
// field is named and the range given otherwise.
TEST(SyncExchangeRate, RateAndPeriodConvertWithinTheEnginesRange) {
  const uint32_t beat = hw::DDMTD_N + 1;
  EXPECT_EQ(sync_exchange_period_cycles(3000), 83'333u);  // 250 MHz / 3000
  EXPECT_EQ(sync_exchange_period_cycles(sync_exchange_rate_hz(beat)), beat);
  EXPECT_EQ(sync_exchange_period_cycles(61'020), beat);
  EXPECT_EQ(sync_exchange_period_cycles(16), hw::SYNC_EXCHANGE_PERIOD_MAX);
  EXPECT_NEAR(sync_exchange_rate_hz(83'333), 3000.012, 1e-3);
  for (double bad : {15.9, 61'100.0, 0.0, -3000.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), 1e308}) {
    try {
      sync_exchange_period_cycles(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const FormatError& e) {
      ASSERT_EQ(e.problems().size(), 1u);
      EXPECT_EQ(e.problems()[0].where, "rate_hz");
      EXPECT_TRUE(contains(e.problems()[0].message, "outside 16..61020 exchanges per second"))
          << e.problems()[0].message;
    }
  }
}

TEST(SyncExchangeRate, ThePeriodIsWrittenUnderTheLeaseAndReadBack) {
  FakeBoard board;
  Device dev = open(board);
  dev.sync_set_exchange_period(83'333);
  EXPECT_EQ(board.peek(hw::REG_SYNC_EXCHANGE_PERIOD), 83'333u);
  EXPECT_EQ(dev.sync_status().exchange_period_cycles, 83'333u);
  // Out of range: named, nothing written (the board would clamp it).
  board.write_log.clear();
  for (uint32_t bad : {uint32_t(0), uint32_t(hw::DDMTD_N), hw::SYNC_EXCHANGE_PERIOD_MAX + 1}) {
    try {
      dev.sync_set_exchange_period(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const FormatError& e) {
      EXPECT_EQ(e.problems().at(0).where, "exchange_period_cycles");
    }
  }
  EXPECT_TRUE(board.write_log.empty());
  EXPECT_EQ(board.peek(hw::REG_SYNC_EXCHANGE_PERIOD), 83'333u);
  // Another writer's lease: refused, nothing written.
  FakeBoard leased;
  Device holder = open(leased);
  Device other = open(leased);
  holder.claim();
  EXPECT_THROW(other.sync_set_exchange_period(8194), LeaseError);
  EXPECT_EQ(leased.peek(hw::REG_SYNC_EXCHANGE_PERIOD), hw::DDMTD_N + 1);
  // A register that does not keep the value (a board that clamps otherwise).
  FakeBoard stuck;
  stuck.stuck_addr = hw::REG_SYNC_EXCHANGE_PERIOD;
  Device s = open(stuck);
  try {
    s.sync_set_exchange_period(8194);
    FAIL() << "a period that does not hold passed";
  } catch (const VerifyError& e) {
    EXPECT_TRUE(contains(e.what(), "SYNC_EXCHANGE_PERIOD (0x0013C) reads back 8195, wrote 8194")) << e.what();
  }
}

}  // namespace
}  // namespace lightrail
