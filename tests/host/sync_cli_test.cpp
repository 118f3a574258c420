// `lightrail sync status|mode|calibrate` run as a user runs it, against a FakeBoard
// behind a loopback sim:// server: exit codes, stdout, stderr, JSON.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "fake_board.hpp"
#include "lightrail/hwdef.hpp"
#include "loopback_server.hpp"
#include "run_cli.hpp"

namespace {

namespace hw = lightrail::hwdef;
using lightrail::test::FakeBoard;
using lightrail::test::LoopbackServer;

using lightrail::test::CliRun;
using lightrail::test::lightrail;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

uint32_t word(int64_t v) { return static_cast<uint32_t>(static_cast<int32_t>(v)); }

// Enabled, reference present, locked on the DDMTD phase.
void make_locked(FakeBoard& b, uint32_t rtt_ps) {
  b.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK);
  b.poke(hw::REG_SYNC_STATUS, 5u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_LOCKED_MASK |
                                  hw::SYNC_STATUS_REF_OK_MASK | hw::SYNC_STATUS_DDMTD_ACTIVE_MASK);
  b.poke(hw::REG_SYNC_OFFSET_PS, word(-12));
  b.poke(hw::REG_SYNC_RTT_PS, rtt_ps);
  b.poke(hw::REG_SYNC_SERVO_I_PPT, word(-4'560'000));
}

TEST(SyncCli, StatusOnABoardWithoutReferenceSaysSo) {
  FakeBoard board;  // out of reset: servo disabled, REF_OK = 0
  LoopbackServer server(board);
  const CliRun r = lightrail("sync status --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "no reference link (SYNC_STATUS.REF_OK = 0)")) << r.out;
  EXPECT_TRUE(contains(r.out, "NO LINK")) << r.out;
  EXPECT_TRUE(contains(r.out, "DISABLED")) << r.out;

  const CliRun j = lightrail("sync status --json --device " + server.uri());
  EXPECT_EQ(j.code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_FALSE(doc["ref_ok"].get<bool>());
  EXPECT_FALSE(doc["locked"].get<bool>());
  EXPECT_EQ(doc["state"], "DISABLED");
  EXPECT_TRUE(contains(doc["summary"].get<std::string>(), "no reference link"));
  EXPECT_TRUE(board.write_log.empty());
}

TEST(SyncCli, StatusJsonCarriesServoTermsAndCalibration) {
  FakeBoard board;
  make_locked(board, 10'001'234);
  board.poke(hw::REG_SYNC_CAL_ASYM_PS, word(-350));
  board.poke(hw::REG_SYNC_ERROR, hw::SYNC_ERROR_LOST_LOCK_MASK);
  LoopbackServer server(board);
  const CliRun r = lightrail("sync status --json --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["state"], "LOCKED");
  EXPECT_TRUE(doc["locked"].get<bool>());
  EXPECT_TRUE(doc["ref_ok"].get<bool>());
  EXPECT_EQ(doc["offset_ps"], -12);
  EXPECT_EQ(doc["rtt_ps"], 10'001'234);
  EXPECT_EQ(doc["servo_i_ppt"], -4'560'000);
  EXPECT_EQ(doc["errors"], nlohmann::json::array({"LOST_LOCK"}));
  EXPECT_EQ(doc["calibration"]["asymmetry_ps"], -350);
  EXPECT_EQ(doc["board_id"], 5);

  const CliRun text = lightrail("sync status --device " + server.uri());
  EXPECT_TRUE(contains(text.out, "locked, offset -12 ps (DDMTD phase)")) << text.out;
  EXPECT_TRUE(contains(text.out, "LOST_LOCK")) << text.out;
}

TEST(SyncCli, StatusShowsRoleAndLinkEngine) {
  FakeBoard board;
  make_locked(board, 10'001'234);
  board.poke(hw::REG_SYNC_LINK, hw::SYNC_LINK_ALIGNED_MASK | hw::SYNC_LINK_PARENT_LOCKED_MASK |
                                    (13u << hw::SYNC_LINK_BITSLIDE_LSB));
  board.poke(hw::REG_SYNC_LINK_BAD_FRAMES, 42);
  board.poke(hw::REG_SYNC_DOWN_LINK, 0b101u);  // a boundary clock serving on ports 1 and 3
  board.poke(hw::REG_SYNC_DOWN_BAD_FRAMES, 5);
  LoopbackServer server(board);
  CliRun r = lightrail("sync status --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "role        follower, sync mode follower")) << r.out;
  EXPECT_TRUE(contains(r.out, "link        engine aligned (bit slide 13 UI), parent LOCKED, bad frames 42"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "downstream  ports 1, 3 aligned, bad frames 5")) << r.out;

  r = lightrail("sync status --json --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_FALSE(doc["reference"].get<bool>());
  EXPECT_EQ(doc["mode"], "follower");
  EXPECT_TRUE(doc["link_aligned"].get<bool>());
  EXPECT_TRUE(doc["parent_locked"].get<bool>());
  EXPECT_EQ(doc["rx_bitslide_ui"], 13);
  EXPECT_EQ(doc["link_bad_frames"], 42);
  EXPECT_EQ(doc["down_ports_aligned"], nlohmann::json::array({1, 3}));
  EXPECT_EQ(doc["down_bad_frames"], 5);

  // A follower whose link carries nothing: the diagnosis says where to look.
  board.poke(hw::REG_SYNC_STATUS, 1u << hw::SYNC_STATUS_STATE_LSB);  // FREE_RUN, REF_OK = 0
  board.poke(hw::REG_SYNC_LINK, 0);
  r = lightrail("sync status --device " + server.uri());
  EXPECT_TRUE(contains(
      r.out,
      "link        engine NOT ALIGNED (SYNC_LINK.ALIGNED = 0), parent's time not valid (not followed), "
      "bad frames 42"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "the link carries no frames")) << r.out;

  // The reference re-acquiring, then in holdover: this board's link is up and
  // it follows; the text says whose state it is.
  board.poke(hw::REG_SYNC_STATUS, (5u << hw::SYNC_STATUS_STATE_LSB) | hw::SYNC_STATUS_LOCKED_MASK |
                                      hw::SYNC_STATUS_REF_OK_MASK | hw::SYNC_STATUS_TIME_VALID_MASK |
                                      hw::SYNC_STATUS_PARENT_DEGRADED_MASK);
  board.poke(hw::REG_SYNC_LINK, hw::SYNC_LINK_ALIGNED_MASK | hw::SYNC_LINK_PARENT_TIME_VALID_MASK);
  r = lightrail("sync status --device " + server.uri());
  EXPECT_TRUE(contains(r.out, "parent re-acquiring (time valid, followed)")) << r.out;
  EXPECT_TRUE(contains(r.out, "the reference is re-acquiring (SYNC_STATUS.PARENT_DEGRADED)")) << r.out;
  board.poke(hw::REG_SYNC_LINK, hw::SYNC_LINK_ALIGNED_MASK | hw::SYNC_LINK_PARENT_TIME_VALID_MASK |
                                    hw::SYNC_LINK_PARENT_HOLDOVER_MASK);
  r = lightrail("sync status --json --device " + server.uri());
  doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["parent_degraded"].get<bool>());
  EXPECT_TRUE(doc["parent_in_holdover"].get<bool>());
  EXPECT_TRUE(doc["parent_time_valid"].get<bool>());
  EXPECT_FALSE(doc["parent_locked"].get<bool>());

  // The grandmaster: no parent to speak of.
  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK);
  board.poke(hw::REG_SYNC_STATUS, 0);
  board.poke(hw::REG_SYNC_LINK, hw::SYNC_LINK_ALIGNED_MASK);
  r = lightrail("sync status --device " + server.uri());
  EXPECT_TRUE(contains(r.out, "role        reference (grandmaster), sync mode reference")) << r.out;
  EXPECT_TRUE(contains(r.out, "link        engine aligned (bit slide 0 UI), bad frames 42")) << r.out;
  EXPECT_TRUE(contains(r.out, "reference (grandmaster): board time is the reference")) << r.out;
  doc = nlohmann::json::parse(lightrail("sync status --json --device " + server.uri()).out);
  EXPECT_TRUE(doc["reference"].get<bool>());
  EXPECT_EQ(doc["mode"], "reference");
  EXPECT_TRUE(board.write_log.empty());
}

TEST(SyncCli, ModeSetsEachRoleAndReadsItBack) {
  struct Case {
    std::string args;
    uint32_t ctrl;
    std::string name;
  };
  const Case cases[] = {
      {"reference", hw::SYNC_CTRL_REFERENCE_MASK, "reference"},
      {"follower", hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK, "follower"},
      {"follower --ptp-only", hw::SYNC_CTRL_ENABLE_MASK, "follower-ptp-only"},
      {"--ptp-only follower", hw::SYNC_CTRL_ENABLE_MASK, "follower-ptp-only"},
      {"off", 0u, "off"},
  };
  for (const Case& c : cases) {
    FakeBoard board;  // out of reset: SYNC_CTRL = USE_DDMTD, mode off
    LoopbackServer server(board);
    const CliRun r = lightrail("sync mode --device " + server.uri() + " " + c.args);
    EXPECT_EQ(r.code, 0) << c.args << "\n" << r.err;
    EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), c.ctrl) << c.args;
    EXPECT_TRUE(contains(r.out, "sync mode set to " + c.name + " (SYNC_CTRL = 0x" +
                                    fmt::format("{:X}", c.ctrl) + (c.name == "off" ? ")" : ", was off)")))
        << r.out;
    EXPECT_EQ(board.lease_owner, 0u) << "the CLI left its lease behind";

    const CliRun j = lightrail("sync mode --json --device " + server.uri() + " " + c.args);
    EXPECT_EQ(j.code, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_TRUE(doc["ok"].get<bool>());
    EXPECT_TRUE(doc["written"].get<bool>());
    EXPECT_EQ(doc["mode"], c.name);
    EXPECT_EQ(doc["previous"], c.name);
    EXPECT_EQ(doc["sync_ctrl"], c.ctrl);
  }
}

TEST(SyncCli, ModeWithoutArgumentShowsAndWritesNothing) {
  FakeBoard board;
  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK);
  LoopbackServer server(board);
  CliRun r = lightrail("sync mode --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "sync mode follower-ptp-only (SYNC_CTRL = 0x1)")) << r.out;
  r = lightrail("sync mode --json --device " + server.uri());
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_FALSE(doc["written"].get<bool>());
  EXPECT_EQ(doc["mode"], "follower-ptp-only");
  // A value no mode sets is shown as it is, not as the nearest mode.
  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_REFERENCE_MASK | hw::SYNC_CTRL_ENABLE_MASK);
  r = lightrail("sync mode --device " + server.uri());
  EXPECT_TRUE(contains(r.out, "sync mode none: REFERENCE with ENABLE (SYNC_CTRL = 0x5)")) << r.out;
  doc = nlohmann::json::parse(lightrail("sync mode --json --device " + server.uri()).out);
  EXPECT_TRUE(doc["mode"].is_null());
  EXPECT_TRUE(board.write_log.empty());
}

TEST(SyncCli, ModeBadArgumentsAreUsageErrorsNamingTheOption) {
  FakeBoard board;
  LoopbackServer server(board);
  CliRun r = lightrail("sync mode --device " + server.uri() + " grandmaster");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "mode: \"grandmaster\" is not one of reference, follower, off")) << r.err;
  r = lightrail("sync mode --device " + server.uri() + " Reference");  // names are exact
  EXPECT_EQ(r.code, 2);
  r = lightrail("sync mode --device " + server.uri() + " follower off");  // one mode only
  EXPECT_EQ(r.code, 2);
  for (const char* m : {"reference", "off"}) {
    r = lightrail("sync mode --device " + server.uri() + " " + m + " --ptp-only");
    EXPECT_EQ(r.code, 2) << m;
    EXPECT_TRUE(contains(r.err, "--ptp-only applies only to the mode follower")) << r.err;
  }
  r = lightrail("sync mode --json --device " + server.uri() + " --ptp-only");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--ptp-only needs the mode follower")) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)["ok"].get<bool>());
  EXPECT_EQ(lightrail("sync mode " + std::string("reference")).code, 2);  // no --device
  EXPECT_TRUE(board.write_log.empty());
  // Judged before the device is opened: an unreachable one changes nothing.
  EXPECT_EQ(lightrail("sync mode --device sim://127.0.0.1:1/0 reference --ptp-only").code, 2);
  EXPECT_EQ(lightrail("sync mode --device sim://127.0.0.1:1/0 reference").code, 3);
}

TEST(SyncCli, ModeIsRefusedWhileAnotherWriterHoldsTheLease) {
  FakeBoard board;
  board.lease_owner = 0x1234'5678;  // another program's lease
  LoopbackServer server(board);
  const CliRun r = lightrail("sync mode --json --device " + server.uri() + " reference");
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)["ok"].get<bool>());
  EXPECT_EQ(board.peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_USE_DDMTD_MASK);  // unchanged
  EXPECT_EQ(board.lease_owner, 0x1234'5678u);
}

TEST(SyncCli, ModeReadbackMismatchIsADeviceError) {
  FakeBoard board;
  board.stuck_addr = hw::REG_SYNC_CTRL;  // ENABLE stuck at 1
  LoopbackServer server(board);
  const CliRun r = lightrail("sync mode --device " + server.uri() + " off");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "SYNC_CTRL (0x00100) reads back 0x00000001, wrote 0x00000000")) << r.err;
}

TEST(SyncCli, StartingTheServoUnderARunningScheduleWarns) {
  FakeBoard board;
  board.running = true;
  LoopbackServer server(board);
  CliRun r = lightrail("sync mode --json --device " + server.uri() + " follower");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: a schedule runs")) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["warnings"].size(), 1u);
  // Already following: nothing starts, no warning.
  r = lightrail("sync mode --device " + server.uri() + " follower --ptp-only");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
}

TEST(SyncCli, CalibrateChangesOnlyTheValuesGivenEvenWithoutReference) {
  FakeBoard board;  // no reference link
  board.poke(hw::REG_SYNC_CAL_DELAY_MS_PS, 500);
  LoopbackServer server(board);
  const CliRun r =
      lightrail("sync calibrate --device " + server.uri() + " --delay-tx-ps 1200 --asymmetry-ps -350");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 1200u);
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_ASYM_PS), word(-350));
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 500u);  // not given: kept
  EXPECT_TRUE(contains(r.out, "delay tx 1200 ps, delay rx 500 ps, asymmetry -350 ps")) << r.out;
  EXPECT_TRUE(contains(r.out, "no reference link")) << r.out;
}

TEST(SyncCli, CalibrateJsonReportsBeforeAndAfter) {
  FakeBoard board;
  LoopbackServer server(board);
  const CliRun r = lightrail("sync calibrate --json --device " + server.uri() + " --delay-rx-ps=900");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_TRUE(doc["written"].get<bool>());
  EXPECT_EQ(doc["calibration"]["delay_rx_ps"], 900);
  EXPECT_EQ(doc["previous"]["delay_rx_ps"], 0);
  EXPECT_FALSE(doc["ref_ok"].get<bool>());
}

TEST(SyncCli, CalibrateWithoutValuesOnlyShows) {
  FakeBoard board;
  board.poke(hw::REG_SYNC_CAL_DELAY_SM_PS, 42);
  LoopbackServer server(board);
  const CliRun r = lightrail("sync calibrate --device " + server.uri());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "unchanged")) << r.out;
  EXPECT_TRUE(contains(r.out, "delay tx 42 ps")) << r.out;
  EXPECT_TRUE(board.write_log.empty());
}

TEST(SyncCli, OutOfRangeNamesTheFieldAndWritesNothing) {
  FakeBoard board;
  LoopbackServer server(board);
  const std::string limit = std::to_string(hw::SYNC_CAL_ASYM_MAX_PS);
  const CliRun r =
      lightrail("sync calibrate --device " + server.uri() + " --delay-tx-ps 100 --asymmetry-ps 2000000");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "asymmetry_ps (--asymmetry-ps): 2000000 is outside -" + limit + "..+" + limit))
      << r.err;
  EXPECT_TRUE(contains(r.err, "nothing written")) << r.err;
  EXPECT_TRUE(board.write_log.empty());

  const CliRun j = lightrail("sync calibrate --json --device " + server.uri() + " --delay-rx-ps -1");
  EXPECT_EQ(j.code, 1);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["problems"][0]["where"], "delay_rx_ps");
  EXPECT_TRUE(board.write_log.empty());
}

TEST(SyncCli, ExchangeRateShowsSetsAndNamesABadRate) {
  FakeBoard board;
  LoopbackServer server(board);
  const std::string dev = " --device " + server.uri();
  const CliRun shown = lightrail("sync exchange-rate" + dev);
  EXPECT_EQ(shown.code, 0) << shown.err;
  EXPECT_TRUE(contains(shown.out, "exchange rate 61020.3/s (a Sync every 4097 cycles)")) << shown.out;
  EXPECT_TRUE(board.write_log.empty());

  const CliRun set = lightrail("sync exchange-rate" + dev + " --rate-hz 3000");
  EXPECT_EQ(set.code, 0) << set.err;
  EXPECT_TRUE(contains(set.out, "set to 3000.01/s (a Sync every 83333 cycles), was 61020.3/s")) << set.out;
  EXPECT_EQ(board.peek(hw::REG_SYNC_EXCHANGE_PERIOD), 83'333u);
  const CliRun status = lightrail("sync status" + dev);
  EXPECT_TRUE(
      contains(status.out, "exchanges   3000.01/s (a Sync every 83333 cycles) on the links it serves"))
      << status.out;

  const CliRun again = lightrail("sync exchange-rate --json" + dev + " --rate-hz 3000");
  EXPECT_EQ(again.code, 0) << again.err;
  const auto doc = nlohmann::json::parse(again.out);
  EXPECT_FALSE(doc["written"].get<bool>());
  EXPECT_EQ(doc["exchange_period_cycles"], 83'333);

  board.write_log.clear();
  for (const char* bad : {"10", "70000", "0", "-5"}) {
    const CliRun r = lightrail("sync exchange-rate" + dev + " --rate-hz " + bad);
    EXPECT_EQ(r.code, 1) << bad;
    EXPECT_TRUE(contains(r.err, std::string("rate_hz (--rate-hz): ") + bad + " is outside 16..61020"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "nothing written")) << r.err;
  }
  for (const char* bad : {"1e400", "nan", "3000x"}) {
    const CliRun r = lightrail("sync exchange-rate" + dev + " --rate-hz " + bad);
    EXPECT_EQ(r.code, 1) << bad;
    EXPECT_TRUE(contains(r.err, std::string("rate_hz (--rate-hz): ") + bad + " is not a finite number"))
        << r.err;
  }
  EXPECT_TRUE(board.write_log.empty());
  EXPECT_EQ(board.peek(hw::REG_SYNC_EXCHANGE_PERIOD), 83'333u);
}

TEST(SyncCli, BadValueIsInvalidInputEvenWhenTheDeviceIsUnreachable) {
  const CliRun r = lightrail("sync calibrate --device sim://127.0.0.1:1/0 --delay-tx-ps 5000000000");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "delay_tx_ps")) << r.err;
}

TEST(SyncCli, MeasuredCalibrationInputsAreCheckedBeforeAnythingIsWritten) {
  FakeBoard board;
  LoopbackServer server(board);
  const std::string dev = " --device " + server.uri();
  struct Case {
    std::string args, names;
  };
  for (const Case& c : {Case{"--skew-ps 99999999999999999999", "skew_ps (--skew-ps)"},
                        Case{"--alpha 0.5", "alpha (--alpha)"}, Case{"--alpha nan", "alpha (--alpha)"},
                        Case{"--port-ps 1,2,3 --reference-port-ps 4,5", "port_ps (--port-ps)"},
                        Case{"--port-ps 1 --reference-port-ps 4,5", "port_ps (--port-ps)"}}) {
    SCOPED_TRACE(c.args);
    const CliRun r = lightrail("sync calibrate" + dev + " " + c.args);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, c.names)) << r.err;
    EXPECT_TRUE(board.write_log.empty());
  }
  // A skew beyond what the delay register holds: refused by range, nothing written.
  const CliRun big = lightrail("sync calibrate" + dev + " --skew-ps 600000");
  EXPECT_EQ(big.code, 1) << big.err;
  EXPECT_TRUE(contains(big.err, "delay_rx_ps")) << big.err;
  EXPECT_TRUE(board.write_log.empty());
  // --alpha needs the round trip the board measures: none without a reference.
  const CliRun alpha = lightrail("sync calibrate" + dev + " --alpha 2.6e-4");
  EXPECT_EQ(alpha.code, 3) << alpha.err;
  EXPECT_TRUE(contains(alpha.err, "--alpha needs the board's measured round trip")) << alpha.err;
  EXPECT_TRUE(board.write_log.empty());
  // --skew-ps and the delays it changes are one or the other.
  EXPECT_EQ(lightrail("sync calibrate" + dev + " --skew-ps 5 --delay-rx-ps 3").code, 2);
}

TEST(SyncCli, AlphaFromTwoFibresAndItsBadInput) {
  // 1 km and 10 km of a fibre of alpha 2.6e-4: skews of half its asymmetry.
  const CliRun r = lightrail("sync alpha --short 636.6,9794622 --long 6365.8,97946267 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_NEAR(doc["alpha"].get<double>(), 2.6e-4, 1e-7);
  EXPECT_GT(doc["alpha_error"].get<double>(), 0.0);
  struct Case {
    std::string args, names;
  };
  for (const Case& c :
       {Case{"--short 1,100 --long x,200", "long (--long)"},
        Case{"--short 1e400,100 --long 2,200", "short (--short)"},
        Case{"--short 1,100 --long 2,-5", "long (--long)"},
        Case{"--short 1,100 --long 2,200 --skew-error-ps -1", "skew_error_ps"},
        Case{"--short 1,100 --long 2,100", "long (--long): the two fibres' round trips must differ"}}) {
    SCOPED_TRACE(c.args);
    const CliRun bad = lightrail("sync alpha " + c.args);
    EXPECT_EQ(bad.code, 1) << bad.err;
    EXPECT_TRUE(contains(bad.err, c.names)) << bad.err;
  }
}

TEST(SyncCli, DelaysLongerThanTheRoundTripWarn) {
  FakeBoard board;
  make_locked(board, 1000);  // a 1 ns round trip
  LoopbackServer server(board);
  const CliRun r =
      lightrail("sync calibrate --device " + server.uri() + " --delay-tx-ps 800 --delay-rx-ps 800");
  EXPECT_EQ(r.code, 0) << r.err;  // in range, so written; the board would flag every exchange
  EXPECT_TRUE(contains(r.err, "BAD_EXCHANGE")) << r.err;
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 800u);
}

TEST(SyncCli, DeviceAndUsageErrors) {
  const CliRun unreachable = lightrail("sync status --device sim://127.0.0.1:1/0");
  EXPECT_EQ(unreachable.code, 3);
  EXPECT_TRUE(contains(unreachable.err, "sim://127.0.0.1:1/0")) << unreachable.err;
  EXPECT_EQ(lightrail("sync").code, 2);         // no subcommand
  EXPECT_EQ(lightrail("sync status").code, 2);  // no --device
  EXPECT_EQ(lightrail("sync calibrate --device sim://127.0.0.1:1/0 --asymmetry-ps lots").code, 2);
}

TEST(SyncCli, ATimedCommitBeforeTheLockWarnsButCommits) {
  FakeBoard board;
  board.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK);
  board.poke(hw::REG_SYNC_STATUS, 2u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_REF_OK_MASK);
  LoopbackServer server(board);
  const std::string upload = "upload --json --commit-at now+1ms --device " + server.uri() + " " +
                             std::string(LIGHTRAIL_EXAMPLES) + "/awgr_doubling.json";
  CliRun r = lightrail(upload);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not locked to its reference yet (clock sync COARSE)")) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["warnings"].size(), 1u);
  EXPECT_TRUE(nlohmann::json::parse(r.out)["committed"].get<bool>());

  make_locked(board, 10'000'000);
  r = lightrail(upload);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("warnings"));
}

TEST(SyncCli, ValuesAreDecimalOnly) {
  // CLI11 alone reads "0100" as octal 64, "0x10" as 16 and saturates
  // overflowing values to INT64_MAX.
  FakeBoard board;
  LoopbackServer server(board);
  const CliRun octal = lightrail("sync calibrate --device " + server.uri() + " --delay-tx-ps 0100");
  EXPECT_EQ(octal.code, 0) << octal.err;
  EXPECT_EQ(board.peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 100u);

  board.write_log.clear();
  for (const char* bad : {"0x10", "1e3", "' 5'", "5ps", "--", "1.5"}) {
    const CliRun r = lightrail("sync calibrate --device " + server.uri() + " --asymmetry-ps=" + bad);
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.err;
  }
  const CliRun huge =
      lightrail("sync calibrate --device " + server.uri() + " --asymmetry-ps 99999999999999999999");
  EXPECT_EQ(huge.code, 1) << huge.err;
  EXPECT_TRUE(contains(huge.err, "asymmetry_ps (--asymmetry-ps): 99999999999999999999 is beyond"))
      << huge.err;
  EXPECT_TRUE(board.write_log.empty());
}

}  // namespace
