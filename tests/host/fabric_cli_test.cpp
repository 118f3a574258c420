// `lightrail fabric ...` run as a user runs it: offline validation, command
// line and file errors, and commit / trigger / status against FakeBoards
// behind loopback sim:// servers.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_board.hpp"
#include "lightrail/hwdef.hpp"
#include "loopback_server.hpp"
#include "run_cli.hpp"

namespace {

namespace hw = lightrail::hwdef;
using lightrail::test::CliRun;
using lightrail::test::FakeBoard;
using lightrail::test::lightrail;
using lightrail::test::LoopbackServer;
using nlohmann::json;

const std::string kSchedule = std::string(LIGHTRAIL_EXAMPLES) + "/awgr_doubling.json";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "fabric_cli_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

// Four boards on one 64-port AWGR; b0 the sync master.
std::string fabric_file(const std::vector<std::string>& uris, const std::string& name = "fabric.json") {
  json boards = json::array();
  for (size_t k = 0; k < uris.size(); ++k) {
    boards.push_back(
        {{"name", "b" + std::to_string(k)}, {"uri", uris[k]}, {"rail", 0}, {"first_switch_port", 16 * k}});
  }
  return write_file(name, json{{"name", "t"},
                               {"rails", {{{"rail", 0}, {"switch", "awgr"}, {"radix", 64}}}},
                               {"boards", boards},
                               {"sync_master", "b0"},
                               {"commit_margin_us", 10}}
                              .dump());
}

std::string offline_fabric() {
  return fabric_file(
      {"sim://127.0.0.1:1/0", "sim://127.0.0.1:1/1", "sim://127.0.0.1:1/2", "sim://127.0.0.1:1/3"},
      "offline.json");
}

TEST(FabricCli, ValidatesOfflineAgainstTheReferenceBoard) {
  const std::string f = offline_fabric();
  CliRun r = lightrail("fabric validate " + f + " --all " + kSchedule);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "4 schedules valid together")) << r.out;

  // b2 and b3 left out: b1's shifts reach b2's ports.
  r = lightrail("fabric validate " + f + " b0=" + kSchedule + " b1=" + kSchedule + " --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, ": b1.steps[0].port 15: switch port 32 of rail 0")) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["problems"][0]["where"], "b1.steps[0].port 15");
}

TEST(FabricCli, RefusesBadCommandLinesAndFiles) {
  const std::string f = offline_fabric();
  CliRun r = lightrail("fabric validate " + f + " b0");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "expected NAME=SCHEDULE.json")) << r.err;
  r = lightrail("fabric validate " + f);
  EXPECT_EQ(r.code, 2) << r.err;
  r = lightrail("fabric validate " + f + " b9=" + kSchedule + " b0=" + kSchedule + " b0=" + kSchedule);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "b9: no board of that name in the fabric (boards: b0, b1, b2, b3)")) << r.err;
  EXPECT_TRUE(contains(r.err, "b0: given twice")) << r.err;
  r = lightrail("fabric commit " + f + " --all " + kSchedule + " --at soon");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "--at \"soon\"")) << r.err;
  r = lightrail("fabric trigger " + f + " --board b7");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "--board b7")) << r.err;

  const std::string bad = write_file("bad.json", R"({"rails": [{"rail": 0, "switch": "ocs", "radix": 8}],
    "boards": [{"name": "x", "uri": "sim://127.0.0.1:1/0", "rail": 3, "first_switch_port": 0}]})");
  r = lightrail("fabric status " + bad + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "boards[0].rail: rail 3 is not defined")) << r.err;
  EXPECT_FALSE(json::parse(r.out)["ok"].get<bool>());

  const std::string broken = write_file("broken.json", R"({"lightrail_schedule": 1, "generaton": 2})");
  r = lightrail("fabric commit " + f + " --all " + broken);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "generaton: unknown field")) << r.err;
}

// Four FakeBoards behind their own servers, clocks locked, commits waiting
// for their time while time moves on with every read.
struct Boards {
  Boards() {
    for (int k = 0; k < 4; ++k) {
      boards.push_back(std::make_unique<FakeBoard>());
      FakeBoard& b = *boards.back();
      b.defer_timed_commits = true;
      b.ticks_per_time_read = 200;
      b.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK);
      b.poke(hw::REG_SYNC_STATUS,
             5u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_LOCKED_MASK | hw::SYNC_STATUS_REF_OK_MASK);
      servers.push_back(std::make_unique<LoopbackServer>(b));
      uris.push_back(servers.back()->uri());
    }
  }
  std::vector<std::unique_ptr<FakeBoard>> boards;
  std::vector<std::unique_ptr<LoopbackServer>> servers;
  std::vector<std::string> uris;
};

TEST(FabricCli, CommitsOnEveryBoardAndReportsAsJson) {
  Boards b;
  const std::string f = fabric_file(b.uris);
  const CliRun r = lightrail("fabric commit " + f + " --all " + kSchedule + " --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const json doc = json::parse(r.out);
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_TRUE(doc["committed"].get<bool>());
  EXPECT_EQ(doc["switched"], json({"b0", "b1", "b2", "b3"}));
  for (const json& x : doc["boards"]) {
    EXPECT_EQ(x["outcome"], "switched");
    EXPECT_EQ(x["swap_ps"], doc["commit_ps"]);
  }
  for (auto& fb : b.boards) EXPECT_EQ(fb->generation, 1u);

  const CliRun s = lightrail("fabric status " + f + " --json");
  ASSERT_EQ(s.code, 0) << s.err;
  const json st = json::parse(s.out);
  EXPECT_TRUE(st["all_locked"].get<bool>());
  EXPECT_EQ(st["boards"][3]["status"]["generation"], 1);
  EXPECT_TRUE(st["boards"][0]["sync_master"].get<bool>());
}

TEST(FabricCli, ABusyBoardExits4AndAnUnlockedOne3) {
  Boards b;
  const std::string f = fabric_file(b.uris);
  b.boards[2]->lease_owner = 0x77;  // another writer holds b2
  CliRun r = lightrail("fabric commit " + f + " --all " + kSchedule + " --json");
  EXPECT_EQ(r.code, 4) << r.err;
  json doc = json::parse(r.out);
  EXPECT_FALSE(doc["committed"].get<bool>());
  EXPECT_EQ(doc["boards"][2]["error_kind"], "LeaseError");
  for (auto& fb : b.boards) EXPECT_EQ(fb->commits, 0);
  // Busy and down: waiting would not bring the board that is down back, so
  // 3 (a script that retries on 4 would wait for it forever).
  std::vector<std::string> down = b.uris;
  down[3] = "sim://127.0.0.1:1/0";  // nothing listens there
  r = lightrail("fabric commit " + fabric_file(down, "busy_and_down.json") + " --all " + kSchedule +
                " --json");
  EXPECT_EQ(r.code, 3) << r.err;
  for (auto& fb : b.boards) EXPECT_EQ(fb->commits, 0);
  b.boards[2]->lease_owner = 0;

  b.boards[1]->poke(hw::REG_SYNC_STATUS, 2u << hw::SYNC_STATUS_STATE_LSB);
  r = lightrail("fabric commit " + f + " --all " + kSchedule);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "b1 (")) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing was written")) << r.err;
  r = lightrail("fabric commit " + f + " --all " + kSchedule + " --allow-unlocked --no-wait --json");
  EXPECT_EQ(r.code, 0) << r.err;
  doc = json::parse(r.out);
  EXPECT_EQ(doc["warnings"].size(), 1u);
  EXPECT_EQ(doc["boards"][0]["outcome"], "armed");
  EXPECT_TRUE(contains(r.err, "warning: clock not locked")) << r.err;
}

TEST(FabricCli, TriggerGivesEveryBoardOneTime) {
  Boards b;
  for (auto& fb : b.boards) fb->waiting_event = true;
  const std::string f = fabric_file(b.uris);
  CliRun r = lightrail("fabric trigger " + f + " --board b1 --board b3 --at now+1us --json");
  ASSERT_EQ(r.code, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["boards"].size(), 2u);
  EXPECT_EQ(doc["boards"][1]["board"], "b3");
  EXPECT_EQ(doc["boards"][1]["boundary_ps"], doc["at_ps"]);
  EXPECT_EQ(b.boards[1]->trigger_count, 1u);
  EXPECT_EQ(b.boards[0]->trigger_count, 0u);

  // b1 and b3 have used their event step: b1 latches, b0 resolves.
  r = lightrail("fabric trigger " + f + " --board b0 --board b1 --json");
  EXPECT_EQ(r.code, 3) << r.err;
  doc = json::parse(r.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_TRUE(doc["boards"][1]["boundary_ps"].is_null());
  EXPECT_TRUE(contains(r.err, "b1 latched")) << r.err;
}

// The four boards' file with a sync tree: b1 calibrated, b2 following b1
// (a boundary clock: b1), b3 calibrated.
std::string sync_fabric_file(const std::vector<std::string>& uris, const std::string& name) {
  json boards = json::array();
  for (size_t k = 0; k < uris.size(); ++k) {
    boards.push_back(
        {{"name", "b" + std::to_string(k)}, {"uri", uris[k]}, {"rail", 0}, {"first_switch_port", 16 * k}});
  }
  boards[1]["sync_calibration"] = {{"delay_tx_ps", 1200}, {"delay_rx_ps", 800}, {"asymmetry_ps", -35}};
  boards[2]["sync_parent"] = "b1";
  boards[3]["sync_calibration"] = {{"delay_rx_ps", 400}};
  return write_file(name, json{{"name", "t"},
                               {"rails", {{{"rail", 0}, {"switch", "awgr"}, {"radix", 64}}}},
                               {"boards", boards},
                               {"sync_master", "b0"}}
                              .dump());
}

const uint32_t kFollowerWord = hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK;

TEST(FabricCli, SyncWritesRolesAndCalibrationsOnEveryBoard) {
  Boards b;
  for (auto& fb : b.boards) fb->poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_USE_DDMTD_MASK);  // out of reset
  b.boards[2]->poke(hw::REG_SYNC_CAL_DELAY_MS_PS, 55);  // b2's file entry has none: kept
  const std::string f = sync_fabric_file(b.uris, "sync.json");
  CliRun r = lightrail("fabric sync " + f);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(b.boards[0]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
  for (size_t k = 1; k < 4; ++k) EXPECT_EQ(b.boards[k]->peek(hw::REG_SYNC_CTRL), kFollowerWord) << "b" << k;
  EXPECT_EQ(b.boards[1]->peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 1200u);
  EXPECT_EQ(b.boards[1]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 800u);
  EXPECT_EQ(b.boards[1]->peek(hw::REG_SYNC_CAL_ASYM_PS), static_cast<uint32_t>(-35));
  EXPECT_EQ(b.boards[3]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 400u);
  EXPECT_EQ(b.boards[2]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 55u);
  EXPECT_TRUE(contains(r.out, "b0           reference SYNC_CTRL 0x4: written")) << r.out;
  EXPECT_TRUE(contains(r.out, "b1           follower  SYNC_CTRL 0x3 of b0, calibration delay tx 1200 ps"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "b2           follower  SYNC_CTRL 0x3 of b1, calibration unchanged")) << r.out;
  // b1 is a boundary clock: warned about, by name.
  EXPECT_TRUE(contains(r.err, "warning: b1 is a boundary clock")) << r.err;
  EXPECT_TRUE(contains(r.err, "one link engine")) << r.err;

  r = lightrail("fabric sync " + f + " --json");  // idempotent
  ASSERT_EQ(r.code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_TRUE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["fabric"], "t");
  EXPECT_EQ(doc["written"], json({"b0", "b1", "b2", "b3"}));
  EXPECT_EQ(doc["boards"][0]["mode"], "reference");
  EXPECT_EQ(doc["boards"][1]["previous"], "follower");
  EXPECT_TRUE(doc["boards"][1]["boundary_clock"].get<bool>());
  EXPECT_EQ(doc["boards"][3]["calibration"]["delay_rx_ps"], 400);
  EXPECT_EQ(doc["warnings"].size(), 1u);
}

TEST(FabricCli, SyncWritesNothingFromABadFile) {
  Boards b;
  for (auto& fb : b.boards) fb->write_log.clear();
  json doc = json::parse(std::ifstream(sync_fabric_file(b.uris, "sync_src.json")));
  doc["boards"][3]["sync_calibration"]["asymmetry_ps"] = int64_t{hw::SYNC_CAL_ASYM_MAX_PS} + 1;
  doc["boards"][2]["sync_calibration"] = {{"delay_tx_ps", "5"}};
  CliRun r = lightrail("fabric sync " + write_file("sync_bad.json", doc.dump()) + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "boards[3].sync_calibration.asymmetry_ps")) << r.err;
  EXPECT_TRUE(contains(r.err, "boards[2].sync_calibration.delay_tx_ps: must be an integer")) << r.err;
  EXPECT_FALSE(json::parse(r.out)["ok"].get<bool>());

  doc = json::parse(std::ifstream(sync_fabric_file(b.uris, "sync_src.json")));
  doc.erase("sync_master");
  doc["boards"][2].erase("sync_parent");
  for (auto& x : doc["boards"]) x.erase("sync_calibration");
  r = lightrail("fabric sync " + write_file("sync_no_tree.json", doc.dump()));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "sync_master: missing")) << r.err;
  for (auto& fb : b.boards) EXPECT_TRUE(fb->write_log.empty()) << "a bad file wrote to a board";
}

TEST(FabricCli, SyncNamesABoardAnotherWriterHoldsAndWritesNothing) {
  Boards b;
  for (auto& fb : b.boards) fb->poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_USE_DDMTD_MASK);
  b.boards[2]->lease_owner = 0x77;  // another writer holds b2
  const std::string f = sync_fabric_file(b.uris, "sync_busy.json");
  CliRun r = lightrail("fabric sync " + f + " --json");
  EXPECT_EQ(r.code, 4) << r.err;
  json doc = json::parse(r.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_EQ(doc["boards"][2]["board"], "b2");
  EXPECT_EQ(doc["boards"][2]["error_kind"], "LeaseError");
  EXPECT_EQ(doc["written"], json::array());
  EXPECT_EQ(doc["not_written"], json({"b0", "b1", "b2", "b3"}));
  EXPECT_TRUE(contains(r.err, "board b2")) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing was written")) << r.err;
  for (auto& fb : b.boards) EXPECT_EQ(fb->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_USE_DDMTD_MASK);
  // Busy and down: 3, not 4 (waiting would not help b3).
  std::vector<std::string> down = b.uris;
  down[3] = "sim://127.0.0.1:1/0";  // nothing listens there
  r = lightrail("fabric sync " + sync_fabric_file(down, "sync_busy_down.json"));
  EXPECT_EQ(r.code, 3) << r.err;
  for (auto& fb : b.boards) EXPECT_EQ(fb->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_USE_DDMTD_MASK);

  // The connection to b2 drops at its SYNC_CTRL write: b0 and b1 are
  // written, and the report says so.
  b.boards[2]->lease_owner = 0;
  b.boards[2]->before_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_SYNC_CTRL) throw lightrail::TransportError("connection dropped at SYNC_CTRL");
  };
  r = lightrail("fabric sync " + f);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "written: b0, b1; not written: b2, b3")) << r.err;
  EXPECT_TRUE(contains(r.err, "run it again")) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "b1           follower  SYNC_CTRL 0x3 of b0, calibration delay tx 1200 ps, delay rx "
                       "800 ps, asymmetry -35 ps (boundary clock: see the warning): written"))
      << r.out;
  EXPECT_TRUE(
      contains(r.out,
               "b2           follower  SYNC_CTRL 0x3 of b1, calibration unchanged (none in the file): "
               "not written: "))
      << r.out;
  EXPECT_EQ(b.boards[0]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
  EXPECT_EQ(b.boards[1]->peek(hw::REG_SYNC_CTRL), kFollowerWord);
  EXPECT_EQ(b.boards[3]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_USE_DDMTD_MASK);
}

}  // namespace
