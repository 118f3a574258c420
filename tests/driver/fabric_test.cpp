// lightrail::Fabric over in-memory boards: the fabric file, validation of a
// set of schedules together, the two-phase commit and its report, the lock
// check, and the fabric trigger.
#include "lightrail/fabric.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "fake_board.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric_json.hpp"
#include "lightrail/hwdef.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using nlohmann::json;
using test::FakeBoard;
using test::FakeTransport;

// The problem at `where`, or a failure listing all of them.
const Problem* find(const std::vector<Problem>& problems, const std::string& where) {
  for (const Problem& p : problems) {
    if (p.where == where) return &p;
  }
  ADD_FAILURE() << "no problem at " << where << "; got:\n" << to_string(problems);
  return nullptr;
}

std::vector<Problem> format_problems(const json& doc) {
  try {
    fabric_from_json(doc);
  } catch (const FormatError& e) {
    return e.problems();
  }
  ADD_FAILURE() << "accepted: " << doc.dump();
  return {};
}

// Four boards on one 64-port AWGR rail, board k on switch ports 16k..16k+15.
json four_on_awgr() {
  json boards = json::array();
  for (int k = 0; k < 4; ++k) {
    boards.push_back({{"name", "b" + std::to_string(k)},
                      {"uri", "sim://127.0.0.1:7000/" + std::to_string(k)},
                      {"rail", 0},
                      {"first_switch_port", 16 * k}});
  }
  return {{"name", "lab-4"},          {"rails", {{{"rail", 0}, {"switch", "awgr"}, {"radix", 64}}}},
          {"boards", boards},         {"sync_master", "b0"},
          {"commit_margin_us", 2000}, {"trigger_margin_ps", 20000000}};
}

TEST(FabricFile, ParsesAndRoundTrips) {
  json doc = four_on_awgr();
  doc["boards"][1].erase("first_switch_port");
  doc["boards"][1]["switch_ports"] = {16, 17, -1, 19};
  const FabricSpec spec = fabric_from_json(doc);
  EXPECT_EQ(spec.name, "lab-4");
  ASSERT_EQ(spec.rails.size(), 1u);
  EXPECT_EQ(spec.rails[0].kind, SwitchKind::kAwgr);
  EXPECT_EQ(spec.rails[0].radix, 64);
  ASSERT_EQ(spec.boards.size(), 4u);
  EXPECT_EQ(spec.boards[2].switch_ports.size(), hw::PORTS);
  EXPECT_EQ(spec.boards[2].switch_ports[0], 32);
  EXPECT_EQ(spec.boards[2].switch_ports[15], 47);
  EXPECT_EQ(spec.boards[1].switch_ports[1], 17);
  EXPECT_EQ(spec.boards[1].switch_ports[2], kDark);
  EXPECT_EQ(spec.boards[1].switch_ports[4], kDark);  // missing tail: not cabled
  EXPECT_EQ(spec.sync_master, std::optional<size_t>(0));
  EXPECT_EQ(to_ps(spec.commit_margin), 2'000'000'000);
  EXPECT_EQ(to_ps(spec.trigger_margin), 20'000'000);
  EXPECT_EQ(spec.board_index("b3"), std::optional<size_t>(3));
  EXPECT_EQ(spec.board_index("b9"), std::nullopt);
  EXPECT_EQ(spec.rail(0).radix, 64);
  EXPECT_THROW(spec.rail(7), std::out_of_range);

  const FabricSpec again = fabric_from_json(to_json(spec));
  EXPECT_EQ(to_json(again), to_json(spec));
  EXPECT_EQ(again.boards[1].switch_ports, spec.boards[1].switch_ports);
  EXPECT_EQ(to_json(spec)["boards"][0]["first_switch_port"], 0);
}

TEST(FabricFile, NamesEveryProblem) {
  json doc = four_on_awgr();
  doc["bogus"] = 1;
  doc["boards"][0]["colour"] = "red";
  doc["rails"].push_back({{"rail", 0}, {"switch", "ocs"}, {"radix", 8}});     // duplicate rail
  doc["rails"].push_back({{"rail", 2}, {"switch", "awgr"}, {"radix", 65}});   // beyond WAVELENGTHS
  doc["rails"].push_back({{"rail", 3}, {"switch", "mirror"}, {"radix", 4}});  // unknown kind
  doc["rails"].push_back({{"rail", 4}, {"switch", "ocs"}, {"radix", 0}});     // no ports
  doc["boards"][1].erase("first_switch_port");
  doc["boards"][1]["switch_ports"] = {16, 17, 18, 19, 20, 99};  // >= radix
  doc["boards"][2]["name"] = "b1";                              // duplicate name
  doc["boards"][3]["rail"] = 9;                                 // undefined rail
  doc["boards"].push_back(
      {{"name", "b4"}, {"uri", "sim://x:1/4"}, {"rail", 0}, {"switch_ports", {-2, 1.5, "3", 0}}});
  doc["boards"].push_back({{"name", "b5"}, {"uri", 5}, {"rail", 0}, {"first_switch_port", 60}});
  doc["boards"].push_back({{"name", "b6"}, {"uri", "u"}, {"rail", 0}});  // neither port form
  doc["boards"].push_back({{"name", "b7"},
                           {"uri", doc["boards"][0]["uri"]},
                           {"rail", 0},
                           {"first_switch_port", 40}});  // b0 again
  doc["sync_master"] = "nobody";
  doc["commit_margin_ps"] = 5;  // with commit_margin_us: both
  doc["trigger_margin_us"] = 0;
  doc.erase("trigger_margin_ps");
  const std::vector<Problem> problems = format_problems(doc);

  auto expect = [&](const std::string& where, const std::string& text) {
    if (const Problem* p = find(problems, where)) {
      EXPECT_NE(p->message.find(text), std::string::npos) << p->message;
    }
  };
  expect("bogus", "unknown field");
  expect("boards[0].colour", "unknown field");
  expect("rails[1].rail", "already defined by rails[0]");
  expect("rails[2].radix", "out of range");
  expect("rails[3].switch", "\"mirror\"");
  expect("rails[4].radix", "out of range");
  expect("boards[1].switch_ports[5]", "99");
  expect("boards[2].name", "already the name of boards[1]");
  expect("boards[3].rail", "rail 9 is not defined");
  expect("boards[4].switch_ports[0]", "out of range");
  expect("boards[4].switch_ports[1]", "integer");
  expect("boards[4].switch_ports[2]", "integer");
  // b4 port 3 on switch port 0, which b0 port 0 feeds.
  expect("boards[4].switch_ports[3]", "already fed by boards[0] port 0");
  expect("boards[5].uri", "string");
  expect("boards[5].first_switch_port", "out of range");
  expect("boards[6]", "first_switch_port or switch_ports");
  ASSERT_NE(find(problems, "boards[7].uri"), nullptr);
  expect("boards[7].uri", "already the uri of boards[0]: one board listed twice");
  expect("sync_master", "\"nobody\"");
  expect("commit_margin_ps", "not both");
  expect("trigger_margin_us", "out of range");
}

// A chain of boundary clocks: board k follows board k-1, b0 the master.
json chain_of(int boards) {
  json list = json::array();
  for (int k = 0; k < boards; ++k) {
    json b = {{"name", "b" + std::to_string(k)},
              {"uri", "sim://127.0.0.1:7000/" + std::to_string(k)},
              {"rail", 0},
              {"first_switch_port", 16 * k}};
    if (k > 1) b["sync_parent"] = "b" + std::to_string(k - 1);
    list.push_back(b);
  }
  return {{"rails", {{{"rail", 0}, {"switch", "ocs"}, {"radix", 16 * boards}}}},
          {"boards", list},
          {"sync_master", "b0"}};
}

TEST(FabricFile, SyncTreeUpToTheLongestVerifiedChainRoundTrips) {
  const int longest = int(hw::SYNC_MAX_CHAIN_HOPS);
  const FabricSpec spec = fabric_from_json(chain_of(longest + 1));
  EXPECT_EQ(spec.sync_hops(0), std::optional<uint32_t>(0));
  EXPECT_EQ(spec.sync_hops(1), std::optional<uint32_t>(1));
  EXPECT_EQ(spec.sync_hops(longest), std::optional<uint32_t>(longest));
  EXPECT_EQ(spec.boards[0].sync_parent, std::nullopt);
  EXPECT_EQ(spec.boards[1].sync_parent, std::optional<size_t>(0));  // the default: the master
  EXPECT_EQ(spec.boards[5].sync_parent, std::optional<size_t>(4));
  const json out = to_json(spec);
  EXPECT_FALSE(out["boards"][1].contains("sync_parent"));
  EXPECT_EQ(out["boards"][5]["sync_parent"], "b4");
  EXPECT_EQ(to_json(fabric_from_json(out)), out);
}

TEST(FabricFile, RefusesASyncChainLongerThanVerifiedAndBrokenTrees) {
  const int longest = int(hw::SYNC_MAX_CHAIN_HOPS);
  std::vector<Problem> problems = format_problems(chain_of(longest + 2));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].where, "boards[" + std::to_string(longest + 1) + "].sync_parent");
  EXPECT_NE(
      problems[0].message.find("17 hops from the sync master \"b0\", more than the 16 (SYNC_MAX_CHAIN_HOPS)"),
      std::string::npos)
      << problems[0].message;

  // Far beyond: named without walking the whole chain.
  problems = format_problems(chain_of(40));
  ASSERT_EQ(problems.size(), 40u - 17u);
  EXPECT_NE(problems.back().message.find("is more than 17 hops"), std::string::npos)
      << problems.back().message;

  json loop = chain_of(4);
  loop["boards"][2]["sync_parent"] = "b3";  // b2 <-> b3
  problems = format_problems(loop);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].where, "boards[2].sync_parent");
  EXPECT_NE(problems[0].message.find("never reaches the sync master"), std::string::npos)
      << problems[0].message;

  json bad = chain_of(4);
  bad["boards"][0]["sync_parent"] = "b1";  // the master follows no one
  bad["boards"][2]["sync_parent"] = "b2";  // itself
  bad["boards"][3]["sync_parent"] = "nobody";
  problems = format_problems(bad);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].where, "boards[0].sync_parent");
  EXPECT_NE(problems[1].message.find("own clock"), std::string::npos);
  EXPECT_NE(problems[2].message.find("\"nobody\""), std::string::npos);

  json orphan = chain_of(3);
  orphan.erase("sync_master");
  problems = format_problems(orphan);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("needs a sync_master"), std::string::npos);
}

TEST(FabricFile, RefusesEmptyAndAbsurd) {
  json doc = four_on_awgr();
  doc["boards"] = json::array();
  EXPECT_NE(find(format_problems(doc), "boards"), nullptr);

  doc = four_on_awgr();
  doc["commit_margin_us"] = int64_t{hw::COMMIT_HORIZON_S} * 1'000'000 + 1;  // beyond the horizon
  EXPECT_NE(find(format_problems(doc), "commit_margin_us"), nullptr);

  doc = four_on_awgr();
  doc["boards"][0]["switch_ports"] = json::array();  // and first_switch_port: both
  EXPECT_NE(find(format_problems(doc), "boards[0]"), nullptr);

  doc = four_on_awgr();
  doc["boards"][0]["switch_ports"] = std::vector<int>(hw::PORTS + 1, -1);
  doc["boards"][0].erase("first_switch_port");
  EXPECT_NE(find(format_problems(doc), "boards[0].switch_ports"), nullptr);

  EXPECT_NE(find(format_problems(json::array()), "(document)"), nullptr);
}

TEST(FabricFile, ReadsThroughTheStrictJsonReader) {
  const std::string path = ::testing::TempDir() + "/fabric_dup.json";
  {
    std::ofstream out(path);
    out << R"({"name": "a", "name": "b", "rails": [], "boards": []})";
  }
  try {
    read_fabric_file(path);
    FAIL() << "a duplicate key was accepted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("name"), std::string::npos) << e.what();
  }
  {
    std::ofstream out(path);
    out << four_on_awgr().dump();
  }
  EXPECT_EQ(read_fabric_file(path).boards.size(), 4u);
}

TEST(FabricFile, SyncCalibrationParsesAndRoundTrips) {
  json doc = four_on_awgr();
  doc["boards"][1]["sync_calibration"] = {{"delay_tx_ps", 1200}, {"delay_rx_ps", 0}, {"asymmetry_ps", -35}};
  doc["boards"][2]["sync_calibration"] = {{"delay_rx_ps", int64_t{hw::SYNC_CAL_DELAY_MAX_PS}}};
  doc["boards"][3]["sync_calibration"] = json::object();  // all zero, as out of reset
  const FabricSpec spec = fabric_from_json(doc);
  EXPECT_EQ(spec.boards[0].sync_calibration, std::nullopt);
  ASSERT_TRUE(spec.boards[1].sync_calibration);
  EXPECT_EQ(spec.boards[1].sync_calibration->delay_tx_ps, 1200);
  EXPECT_EQ(spec.boards[1].sync_calibration->asymmetry_ps, -35);
  ASSERT_TRUE(spec.boards[2].sync_calibration);
  EXPECT_EQ(spec.boards[2].sync_calibration->delay_rx_ps, int64_t{hw::SYNC_CAL_DELAY_MAX_PS});
  EXPECT_EQ(spec.boards[2].sync_calibration->delay_tx_ps, 0);
  EXPECT_EQ(spec.boards[3].sync_calibration, std::optional<SyncCalibration>(SyncCalibration{}));

  const json out = to_json(spec);
  EXPECT_FALSE(out["boards"][0].contains("sync_calibration"));
  EXPECT_EQ(out["boards"][1]["sync_calibration"],
            json({{"delay_tx_ps", 1200}, {"delay_rx_ps", 0}, {"asymmetry_ps", -35}}));
  const FabricSpec again = fabric_from_json(out);
  for (size_t b = 0; b < 4; ++b) EXPECT_EQ(again.boards[b].sync_calibration, spec.boards[b].sync_calibration);
  EXPECT_EQ(to_json(again), out);
}

TEST(FabricFile, SyncCalibrationNamesEveryBadField) {
  json doc = four_on_awgr();
  doc["boards"][1]["sync_calibration"] = {{"delay_tx_ps", -1},
                                          {"delay_rx_ps", int64_t{hw::SYNC_CAL_DELAY_MAX_PS} + 1},
                                          {"asymmetry_ps", int64_t{hw::SYNC_CAL_ASYM_MAX_PS} + 1}};
  doc["boards"][2]["sync_calibration"] = {{"delay_tx_ps", 1.5}, {"delay_rx_ps", "10"}, {"skew_ps", 3}};
  // Beyond int64: an unsigned integer, and a literal beyond 64 bits (a double).
  doc["boards"][3]["sync_calibration"] = {{"delay_tx_ps", uint64_t{1} << 63},
                                          {"asymmetry_ps", json::parse("123456789012345678901234")}};
  const std::vector<Problem> problems = format_problems(doc);
  auto expect = [&](const std::string& where, const std::string& text) {
    if (const Problem* p = find(problems, where)) {
      EXPECT_NE(p->message.find(text), std::string::npos) << where << ": " << p->message;
    }
  };
  expect("boards[1].sync_calibration.delay_tx_ps", "-1 is outside 0..");
  expect("boards[1].sync_calibration.delay_rx_ps", "SYNC_CAL_DELAY_MAX_PS");
  expect("boards[1].sync_calibration.asymmetry_ps", "SYNC_CAL_ASYM_MAX_PS");
  expect("boards[2].sync_calibration.delay_tx_ps", "must be an integer, not 1.5");
  expect("boards[2].sync_calibration.delay_rx_ps", "must be an integer, not string");
  expect("boards[2].sync_calibration.skew_ps", "unknown field");
  expect("boards[3].sync_calibration.delay_tx_ps", "9223372036854775808 is out of range");
  expect("boards[3].sync_calibration.asymmetry_ps", "beyond the 64-bit integer range");
  EXPECT_EQ(problems.size(), 8u) << to_string(problems);

  doc = four_on_awgr();
  doc["boards"][0]["sync_calibration"] = {{"delay_tx_ps", 10}};  // b0 is the sync master
  doc["boards"][1]["sync_calibration"] = 5;
  std::vector<Problem> more = format_problems(doc);
  {
    const Problem* p = find(more, "boards[0].sync_calibration");
    ASSERT_NE(p, nullptr) << "boards[0].sync_calibration not named";
    EXPECT_NE(p->message.find("no reference to calibrate against"), std::string::npos) << p->message;
  }
  {
    const Problem* p = find(more, "boards[1].sync_calibration");
    ASSERT_NE(p, nullptr) << "boards[1].sync_calibration not named";
    EXPECT_NE(p->message.find("must be an object"), std::string::npos) << p->message;
  }

  doc = four_on_awgr();
  doc.erase("sync_master");
  doc["boards"][2]["sync_calibration"] = {{"delay_tx_ps", 10}};
  more = format_problems(doc);
  {
    const Problem* p = find(more, "boards[2].sync_calibration");
    ASSERT_NE(p, nullptr) << "boards[2].sync_calibration not named";
    EXPECT_NE(p->message.find("needs a sync_master"), std::string::npos) << p->message;
  }
}

// Boards on two OCS or AWGR rails for validation: b0, b1 on rail 0; b2 on
// rail 0 too unless given otherwise.
FabricSpec spec_of(json doc) { return fabric_from_json(doc); }

std::vector<DeviceCapabilities> reference_caps(const FabricSpec& spec) {
  return std::vector<DeviceCapabilities>(spec.boards.size(), DeviceCapabilities::reference());
}

// Every port on `wavelength` at both steps of two_shifts (generation g).
Schedule shift_schedule(int w1, int w2, uint32_t generation = 7) {
  Schedule s = test::two_shifts();
  s.generation = generation;
  s.configs = {test::uniform("a", w1), test::uniform("b", w2)};
  return s;
}

std::vector<BoardAssignment> all_boards(const FabricSpec& spec, const Schedule& s) {
  std::vector<BoardAssignment> out;
  for (size_t b = 0; b < spec.boards.size(); ++b) out.push_back({b, s});
  return out;
}

TEST(ValidateFabric, AcceptsShiftsOverTheWholeRail) {
  const FabricSpec spec = spec_of(four_on_awgr());
  EXPECT_EQ(to_string(validate_fabric(spec, reference_caps(spec), all_boards(spec, shift_schedule(1, 2)))),
            "");
}

TEST(ValidateFabric, OcsOutputTakenTwice) {
  json doc = four_on_awgr();
  doc["rails"][0]["switch"] = "ocs";
  const FabricSpec spec = spec_of(doc);
  // Step 1: b0 port 0 and b1 port 3 both to output switch port 20 (b1 port 4).
  std::vector<BoardAssignment> set;
  for (size_t b = 0; b < 2; ++b) {
    Schedule s = shift_schedule(kDark, kDark);
    set.push_back({b, s});
  }
  set[0].schedule.configs[1].wavelength[0] = 20;
  set[1].schedule.configs[1].wavelength[3] = 20;
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  ASSERT_EQ(problems.size(), 1u) << to_string(problems);
  EXPECT_EQ(problems[0].where, "b1.steps[1].port 3");
  EXPECT_NE(
      problems[0].message.find("output switch port 20 of rail 0 (b1 port 4) is already taken at this step by "
                               "b0 port 0"),
      std::string::npos)
      << problems[0].message;
}

TEST(ValidateFabric, OcsOutputBeyondTheRadixAndUncabledPorts) {
  json doc = four_on_awgr();
  doc["rails"][0] = {{"rail", 0}, {"switch", "ocs"}, {"radix", 40}};
  doc["boards"] = {{{"name", "x"}, {"uri", "u"}, {"rail", 0}, {"first_switch_port", 0}},
                   {{"name", "y"}, {"uri", "u1"}, {"rail", 0}, {"switch_ports", {16, 17}}}};
  doc.erase("sync_master");
  const FabricSpec spec = spec_of(doc);
  std::vector<BoardAssignment> set = {{0, shift_schedule(kDark, kDark)}, {1, shift_schedule(kDark, kDark)}};
  set[0].schedule.configs[0].wavelength[2] = 45;  // beyond 40 ports
  set[0].schedule.configs[0].wavelength[3] = 30;  // switch port 30: no board
  set[1].schedule.configs[1].wavelength[5] = 0;   // y port 5 is not cabled
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  EXPECT_EQ(problems.size(), 3u) << to_string(problems);
  if (const Problem* p = find(problems, "x.steps[0].port 2")) {
    EXPECT_NE(p->message.find("beyond"), std::string::npos);
  }
  if (const Problem* p = find(problems, "x.steps[0].port 3")) {
    EXPECT_NE(p->message.find("not cabled to any board"), std::string::npos);
  }
  if (const Problem* p = find(problems, "y.steps[1].port 5")) {
    EXPECT_NE(p->message.find("not cabled"), std::string::npos);
  }
}

TEST(ValidateFabric, AwgrReceiverHearsTwoSenders) {
  const FabricSpec spec = spec_of(four_on_awgr());
  std::vector<BoardAssignment> set = all_boards(spec, shift_schedule(1, 2));
  // Step 0: b2 port 4 on wavelength 1 reaches switch port 37 (b2 port 5); b2
  // port 3 on wavelength 2 reaches it too.
  set[2].schedule.configs[0].wavelength[3] = 2;
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  ASSERT_EQ(problems.size(), 1u) << to_string(problems);
  EXPECT_EQ(problems[0].where, "b2.steps[0].port 4");
  EXPECT_NE(
      problems[0].message.find("switch port 37 of rail 0 (wavelength 1 from switch port 36) (b2 port 5) "
                               "already receives b2 port 3 on wavelength 2"),
      std::string::npos)
      << problems[0].message;
}

TEST(ValidateFabric, DestinationOfABoardOutsideTheSet) {
  const FabricSpec spec = spec_of(four_on_awgr());
  // b3 left out: b2's last ports reach b3's switch ports 48.. on a shift.
  std::vector<BoardAssignment> set = {
      {0, shift_schedule(1, 2)}, {1, shift_schedule(1, 2)}, {2, shift_schedule(1, 2)}};
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  // Step 0: b2 port 15 -> 48; step 1: b2 ports 14, 15 -> 48, 49.
  ASSERT_EQ(problems.size(), 3u) << to_string(problems);
  if (const Problem* p = find(problems, "b2.steps[0].port 15")) {
    EXPECT_NE(p->message.find("is b3 port 0, and b3 is not in this set"), std::string::npos) << p->message;
  }
  find(problems, "b2.steps[1].port 14");
  find(problems, "b2.steps[1].port 15");
}

TEST(ValidateFabric, StepProgramsDifferOnOneRail) {
  json doc = four_on_awgr();
  doc["rails"].push_back({{"rail", 1}, {"switch", "awgr"}, {"radix", 16}});
  doc["boards"].push_back({{"name", "other"}, {"uri", "u"}, {"rail", 1}, {"first_switch_port", 0}});
  const FabricSpec spec = spec_of(doc);
  std::vector<BoardAssignment> set = all_boards(spec, shift_schedule(1, 2));
  set[1].schedule.steps[1].duration_ps = 2'000'000;
  set[2].schedule.steps[0].event_triggered = true;
  set[3].schedule.cyclic = false;
  set[4].schedule.steps.push_back({0, 1'000'000, false});  // its own rail: free to differ
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  ASSERT_EQ(problems.size(), 3u) << to_string(problems);
  if (const Problem* p = find(problems, "b1.steps[1].duration_ps")) {
    EXPECT_NE(p->message.find("2000000 ps, but boards on one rail must switch on the same boundaries; b0 has "
                              "1000000 ps"),
              std::string::npos)
        << p->message;
  }
  find(problems, "b2.steps[0].event_triggered");
  find(problems, "b3.cyclic");
}

TEST(ValidateFabric, BoardIndicesAndEachScheduleOnItsBoard) {
  const FabricSpec spec = spec_of(four_on_awgr());
  std::vector<BoardAssignment> set = all_boards(spec, shift_schedule(1, 2));
  set.push_back({2, shift_schedule(1, 2)});
  set.push_back({9, shift_schedule(1, 2)});
  set[3].schedule.steps[0].duration_ps = 1;  // shorter than a board's minimum step
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  if (const Problem* p = find(problems, "schedules[4].board")) {
    EXPECT_NE(p->message.find("b2"), std::string::npos);
  }
  if (const Problem* p = find(problems, "schedules[5].board")) {
    EXPECT_NE(p->message.find("9"), std::string::npos);
  }
  find(problems, "b3.steps[0].duration_ps");
}

// A Clos rail of 32 ports: ingress i0, i1; middles m0..m15; egress e0, e1.
json clos32() {
  json boards = json::array();
  int n = 0;
  auto add = [&](const std::string& stage, int count) {
    for (int k = 0; k < count; ++k, ++n) {
      boards.push_back({{"name", stage.substr(0, 1) + std::to_string(k)},
                        {"uri", "sim://127.0.0.1:7000/" + std::to_string(n)},
                        {"rail", 0},
                        {"stage", stage},
                        {"stage_index", k}});
    }
  };
  add("ingress", 2);
  add("middle", 16);
  add("egress", 2);
  return {
      {"name", "clos-32"}, {"rails", {{{"rail", 0}, {"switch", "clos"}, {"radix", 32}}}}, {"boards", boards}};
}

// Rail port s to itself at both steps: ingress i port p -> middle p, middle
// k port i -> egress i, egress j port k -> rail port j*16+k.
std::vector<BoardAssignment> clos_identity(const FabricSpec& spec) {
  std::vector<BoardAssignment> set;
  for (size_t b = 0; b < spec.boards.size(); ++b) {
    Schedule s = shift_schedule(kDark, kDark);
    for (Configuration& c : s.configs) {
      for (int p = 0; p < 16; ++p) {
        if (spec.boards[b].stage == ClosStage::kMiddle)
          c.wavelength[p] = p < 2 ? p : kDark;  // two ingress boards feed ports 0, 1
        else
          c.wavelength[p] = p;
      }
    }
    set.push_back({b, s});
  }
  return set;
}

TEST(FabricFile, ClosRailParsesAndRoundTrips) {
  const FabricSpec spec = fabric_from_json(clos32());
  ASSERT_EQ(spec.boards.size(), 20u);
  EXPECT_EQ(spec.rails[0].kind, SwitchKind::kClos);
  EXPECT_EQ(spec.boards[2].stage, ClosStage::kMiddle);
  EXPECT_EQ(spec.boards[19].stage_index, 1);
  EXPECT_TRUE(spec.boards[0].switch_ports.empty());
  const json back = json::parse(to_json_text(spec));
  EXPECT_EQ(back["rails"][0]["switch"], "clos");
  EXPECT_EQ(back["boards"][18]["stage"], "egress");
  EXPECT_FALSE(back["boards"][18].contains("switch_ports"));
  EXPECT_EQ(to_json_text(fabric_from_json(back)), to_json_text(spec));
}

TEST(FabricFile, ClosRailNamesEveryProblem) {
  json doc = clos32();
  doc["rails"].push_back({{"rail", 1}, {"switch", "clos"}, {"radix", 40}});
  doc["rails"].push_back({{"rail", 2}, {"switch", "awgr"}, {"radix", 16}});
  doc["boards"][0]["first_switch_port"] = 0;
  doc["boards"][1].erase("stage");
  doc["boards"][3]["stage_index"] = 0;   // m0 again
  doc["boards"][4]["stage_index"] = 16;  // 16 middles: 0..15
  doc["boards"][18]["stage_index"] = 2;  // 32 ports: egress 0..1
  doc["boards"][5]["stage"] = "spine";
  doc["boards"].push_back({{"name", "x"},
                           {"uri", "u"},
                           {"rail", 2},
                           {"first_switch_port", 0},
                           {"stage", "ingress"},
                           {"stage_index", 0}});
  const std::vector<Problem> problems = format_problems(doc);
  if (const Problem* p = find(problems, "rails[1].radix")) {
    EXPECT_NE(p->message.find("not a multiple of a board's 16 ports"), std::string::npos) << p->message;
  }
  if (const Problem* p = find(problems, "boards[0].first_switch_port")) {
    EXPECT_NE(p->message.find("give stage and stage_index"), std::string::npos) << p->message;
  }
  find(problems, "boards[1].stage");
  if (const Problem* p = find(problems, "boards[3].stage_index")) {
    EXPECT_NE(p->message.find("middle 0 of rail 0 is already boards[2]"), std::string::npos) << p->message;
  }
  find(problems, "boards[4].stage_index");
  find(problems, "boards[18].stage_index");
  if (const Problem* p = find(problems, "boards[5].stage")) {
    EXPECT_NE(p->message.find("\"spine\" is not"), std::string::npos) << p->message;
  }
  if (const Problem* p = find(problems, "boards[20].stage")) {
    EXPECT_NE(p->message.find("only boards of a \"clos\" rail have a stage"), std::string::npos)
        << p->message;
  }
  json big = clos32();
  big["rails"][0]["radix"] = 272;  // 17 ingress boards: a middle has 16 ports
  if (const Problem* p = find(format_problems(big), "rails[0].radix")) {
    EXPECT_NE(p->message.find("at most 256 rail ports"), std::string::npos) << p->message;
  }
}

TEST(ValidateFabric, ClosRailAcceptsCircuitsThroughEveryStage) {
  const FabricSpec spec = spec_of(clos32());
  EXPECT_EQ(to_string(validate_fabric(spec, reference_caps(spec), clos_identity(spec))), "");
}

TEST(ValidateFabric, ClosRailStagesMustAgree) {
  const FabricSpec spec = spec_of(clos32());
  std::vector<BoardAssignment> set = clos_identity(spec);
  // Step 0: i0 port 3 to middle 4 as well as port 4 (middle 4's input 0 taken twice).
  set[0].schedule.configs[0].wavelength[3] = 4;
  // Step 1: m7 (board 9) sends its input 1 nowhere: i1 port 7's circuit ends there.
  set[9].schedule.configs[1].wavelength[1] = kDark;
  // Step 1: a middle sends beyond the two egress boards.
  set[10].schedule.configs[1].wavelength[0] = 5;  // m8 to egress 5 of 2
  std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  if (const Problem* p = find(problems, "i0.steps[0].port 4")) {
    EXPECT_NE(p->message.find("ingress 0's output 4 is already taken at this step by port 3"),
              std::string::npos)
        << p->message;
  }
  // Middle 3 gets nothing from i0 at step 0: its lit input 0 is not fed.
  if (const Problem* p = find(problems, "m3.steps[0].port 0")) {
    EXPECT_NE(p->message.find("no light arrives: ingress 0 sends nothing to middle 3"), std::string::npos)
        << p->message;
  }
  if (const Problem* p = find(problems, "i1.steps[1].port 7")) {
    EXPECT_NE(p->message.find("the circuit ends at m7 port 1 (middle 7), which is dark"), std::string::npos)
        << p->message;
  }
  if (const Problem* p = find(problems, "m8.steps[1].port 0")) {
    EXPECT_NE(p->message.find("middle 8 has 2 outputs (0..1), not 5"), std::string::npos) << p->message;
  }
  // A middle board left out of the set: its ingress circuits end outside it.
  set = clos_identity(spec);
  set.erase(set.begin() + 6);  // m4
  problems = validate_fabric(spec, reference_caps(spec), set);
  if (const Problem* p = find(problems, "i0.steps[0].port 4")) {
    EXPECT_NE(p->message.find("middle 4 of rail 0 is m4, which is not in this set"), std::string::npos)
        << p->message;
  }
}

TEST(ValidateFabric, ClosBoardShiftedByACycleIsNamed) {
  const FabricSpec spec = spec_of(clos32());
  std::vector<BoardAssignment> set = clos_identity(spec);
  set[12].schedule.steps[0].duration_ps += DeviceCapabilities::reference().clk_period_ps;  // m10
  set[12].schedule.steps[1].duration_ps -= DeviceCapabilities::reference().clk_period_ps;
  const std::vector<Problem> problems = validate_fabric(spec, reference_caps(spec), set);
  ASSERT_EQ(problems.size(), 1u) << to_string(problems);
  EXPECT_EQ(problems[0].where, "m10.steps[0].duration_ps");
}

// Boards in memory with their clocks locked; commits wait for their time.
struct Rig {
  explicit Rig(size_t n = 4) {
    spec = fabric_from_json(four_on_awgr());
    spec.commit_margin = std::chrono::microseconds(1);  // 8,000 ticks
    for (size_t b = 0; b < n; ++b) {
      boards.push_back(std::make_unique<FakeBoard>());
      FakeBoard& fb = *boards.back();
      fb.defer_timed_commits = true;
      fb.time_ticks = 1000 + 37 * b;  // boards a little apart
      fb.poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_ENABLE_MASK);
      fb.poke(hw::REG_SYNC_STATUS,
              5u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_LOCKED_MASK | hw::SYNC_STATUS_REF_OK_MASK);
    }
  }
  Fabric make() {
    std::vector<std::optional<Device>> devices;
    for (auto& b : boards) devices.emplace_back(Device(std::make_unique<FakeTransport>(*b)));
    return Fabric(spec, std::move(devices));
  }
  std::vector<BoardAssignment> all(uint32_t generation) {
    return all_boards(spec, shift_schedule(1, 2, generation));
  }
  void advance_all(uint64_t ticks) {
    for (auto& b : boards) b->advance(ticks);
  }
  std::vector<std::unique_ptr<FakeBoard>> boards;
  FabricSpec spec;
};

TEST(FabricCommit, ArmsEveryBoardForOneTimeAndWaitsForTheSwaps) {
  Rig rig;
  for (auto& b : rig.boards) b->ticks_per_time_read = 500;  // time passes while the fabric polls
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(9));
  ASSERT_TRUE(r.committed) << r.error;
  EXPECT_TRUE(r.error.empty());
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(to_ps(r.commit_time) % hw::TICK_PS, 0);
  ASSERT_EQ(r.boards.size(), 4u);
  for (size_t b = 0; b < 4; ++b) {
    const FakeBoard& fb = *rig.boards[b];
    EXPECT_EQ(fb.commit_time * hw::TICK_PS, uint64_t(to_ps(r.commit_time)))
        << "board " << b;  // one T for all
    EXPECT_EQ(fb.generation, 9u);
    EXPECT_EQ(r.boards[b].outcome, BoardOutcome::kSwitched) << b;
    EXPECT_EQ(r.boards[b].swap_time, std::optional<BoardTime>(r.commit_time));
    EXPECT_TRUE(r.boards[b].staged && r.boards[b].armed && !r.boards[b].cancelled);
    EXPECT_EQ(r.boards[b].name, "b" + std::to_string(b));
  }
  const json j = to_json(r);
  EXPECT_EQ(j["switched"].size(), 4u);
  EXPECT_EQ(j["boards"][2]["outcome"], "switched");
}

TEST(FabricCommit, TimeIsTheLatestBoardAfterStagingPlusTheMargin) {
  Rig rig;
  rig.boards[2]->time_ticks = 90'000;  // the latest board
  Fabric fabric = rig.make();
  FabricCommitOptions o;
  o.wait_for_swap = false;
  const FabricCommitReport r = fabric.commit(rig.all(3), o);
  ASSERT_TRUE(r.committed) << r.error;
  EXPECT_EQ(r.commit_time, board_time_ps(90'000 * int64_t{hw::TICK_PS}) + rig.spec.commit_margin);
  for (const BoardCommitReport& b : r.boards) EXPECT_EQ(b.outcome, BoardOutcome::kArmed);
  for (auto& b : rig.boards) EXPECT_TRUE(b->pending);
}

TEST(FabricCommit, ValidationProblemsWriteNothing) {
  Rig rig;
  Fabric fabric = rig.make();
  std::vector<BoardAssignment> set = rig.all(3);
  set.pop_back();  // b2's shifts now reach b3's ports
  for (auto& b : rig.boards) b->write_log.clear();
  EXPECT_THROW(fabric.commit(set), ValidationError);
  for (auto& b : rig.boards) EXPECT_TRUE(b->write_log.empty());
}

TEST(FabricCommit, StageFailureOnOneBoardArmsNothing) {
  Rig rig;
  // The last board's connection drops in the middle of writing its bank.
  rig.boards[3]->before_write = [](uint64_t addr, uint32_t) {
    if (addr >= hw::MEM_BANK0_BASE) throw TransportError("fake://board: connection dropped");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(4));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.commit_time, BoardTime());
  EXPECT_NE(r.error.find("board b3"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("nothing was armed"), std::string::npos) << r.error;
  EXPECT_EQ(r.boards[3].error_kind, "TransportError");
  EXPECT_FALSE(r.boards[3].staged);
  for (size_t b = 0; b < 4; ++b) {
    EXPECT_EQ(r.boards[b].outcome, BoardOutcome::kUnchanged);
    EXPECT_FALSE(r.boards[b].armed);
    EXPECT_EQ(rig.boards[b]->commits, 0) << "board " << b << " got a COMMIT";
    EXPECT_EQ(rig.boards[b]->swaps, 0u);
  }
  EXPECT_TRUE(r.boards[0].staged);
}

TEST(FabricCommit, VerifyAndLeaseFailuresAreReportedByKind) {
  {
    Rig rig;
    rig.boards[1]->stuck_addr = FakeBoard::bank_base(1) + 4 * hw::IMG_STEP_BASE_WORD;  // read-back differs
    Fabric fabric = rig.make();
    const FabricCommitReport r = fabric.commit(rig.all(4));
    EXPECT_FALSE(r.committed);
    EXPECT_EQ(r.boards[1].error_kind, "VerifyError") << r.boards[1].error;
    for (auto& b : rig.boards) EXPECT_EQ(b->commits, 0);
  }
  {
    Rig rig;
    rig.boards[2]->lease_owner = 0x1234;  // another writer
    Fabric fabric = rig.make();
    const FabricCommitReport r = fabric.commit(rig.all(4));
    EXPECT_FALSE(r.committed);
    EXPECT_EQ(r.boards[2].error_kind, "LeaseError") << r.boards[2].error;
    for (auto& b : rig.boards) EXPECT_EQ(b->commits, 0);
  }
}

TEST(FabricCommit, ArmFailureOnTheLastBoardCancelsTheArmed) {
  Rig rig;
  rig.boards[3]->before_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_COMMIT) throw TransportError("fake://board: connection dropped at COMMIT");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(4));
  EXPECT_FALSE(r.committed);
  EXPECT_NE(r.commit_time, BoardTime());
  EXPECT_NE(r.error.find("board b3: arming failed"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("cancelled in time"), std::string::npos) << r.error;
  for (size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(r.boards[b].outcome, BoardOutcome::kUnchanged) << b;
    EXPECT_TRUE(r.boards[b].armed && r.boards[b].cancelled) << b;
    EXPECT_FALSE(rig.boards[b]->pending);
  }
  // The failing board was asked too: nothing was pending there.
  EXPECT_EQ(r.boards[3].outcome, BoardOutcome::kUnchanged);
  EXPECT_EQ(r.boards[3].error_kind, "TransportError");
  EXPECT_GE(rig.boards[3]->cancels + int(rig.boards[3]->write_log.size()), 1);
  // Long after T nothing swaps.
  rig.advance_all(1'000'000);
  for (auto& b : rig.boards) EXPECT_EQ(b->swaps, 0u);
}

TEST(FabricCommit, ACommitWrittenBeforeTheConnectionDroppedIsCancelledToo) {
  Rig rig;
  // COMMIT reaches the last board and arms it; its reply is lost.
  rig.boards[3]->after_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_COMMIT) throw TransportError("fake://board: connection dropped after COMMIT");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(4));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.boards[3].outcome, BoardOutcome::kUnchanged);
  EXPECT_TRUE(r.boards[3].cancelled);
  EXPECT_FALSE(r.boards[3].armed);
  EXPECT_EQ(rig.boards[3]->cancels, 1);
  rig.advance_all(1'000'000);
  for (auto& b : rig.boards) EXPECT_EQ(b->swaps, 0u);
}

TEST(FabricCommit, TooLateToCancelIsReportedAsSwitched) {
  Rig rig;
  // While the last board's COMMIT hangs, T passes on the others; then the
  // connection drops.
  rig.boards[3]->before_write = [&](uint64_t addr, uint32_t) {
    if (addr != hw::REG_COMMIT) return;
    for (size_t b = 0; b < 3; ++b) rig.boards[b]->advance(1'000'000);
    throw TransportError("fake://board: connection dropped at COMMIT");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(6));
  EXPECT_FALSE(r.committed);
  EXPECT_NE(r.error.find("too late to cancel on b0, b1, b2"), std::string::npos) << r.error;
  for (size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(r.boards[b].outcome, BoardOutcome::kSwitched) << b;
    EXPECT_EQ(r.boards[b].swap_time, std::optional<BoardTime>(r.commit_time));
    EXPECT_FALSE(r.boards[b].cancelled);
    EXPECT_EQ(rig.boards[b]->generation, 6u);
  }
  EXPECT_EQ(r.boards[3].outcome, BoardOutcome::kUnchanged);
  EXPECT_EQ(rig.boards[3]->swaps, 0u);
  const json j = to_json(r);
  EXPECT_EQ(j["switched"], json({"b0", "b1", "b2"}));
}

TEST(FabricCommit, ACancelThatCameTooCloseIsReportedAsSwitched) {
  Rig rig;
  rig.boards[0]->cancel_lead_ticks = 1'000'000;  // any cancel is too late here
  rig.boards[3]->before_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_COMMIT) throw TransportError("fake://board: connection dropped at COMMIT");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(6));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.boards[0].outcome, BoardOutcome::kSwitched);
  EXPECT_EQ(r.boards[0].swap_time, std::optional<BoardTime>(r.commit_time));
  EXPECT_EQ(r.boards[1].outcome, BoardOutcome::kUnchanged);
  EXPECT_TRUE(r.boards[1].cancelled);
}

TEST(FabricCommit, ABoardThatCannotBeAskedIsUnknown) {
  Rig rig;
  bool down = false;
  rig.boards[1]->before_write = [&](uint64_t addr, uint32_t) {
    if (down) throw TransportError("fake://board: unreachable");
    (void)addr;
  };
  rig.boards[3]->before_write = [&](uint64_t addr, uint32_t) {
    if (addr != hw::REG_COMMIT) return;
    down = true;  // b1 goes away as b3 fails: its cancel cannot be sent
    throw TransportError("fake://board: connection dropped at COMMIT");
  };
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(6));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.boards[1].outcome, BoardOutcome::kUnknown);
  EXPECT_NE(r.boards[1].error.find("cancel"), std::string::npos) << r.boards[1].error;
  EXPECT_EQ(r.boards[0].outcome, BoardOutcome::kUnchanged);
  EXPECT_TRUE(r.boards[0].cancelled);
}

TEST(FabricCommit, RefusedCommitIsUnchangedWithoutACancel) {
  Rig rig;
  rig.boards[3]->force_commit_error = hw::ERROR_COMMIT_LATE_MASK;
  Fabric fabric = rig.make();
  const FabricCommitReport r = fabric.commit(rig.all(6));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.boards[3].error_kind, "CommitError");
  EXPECT_EQ(r.boards[3].outcome, BoardOutcome::kUnchanged);
  EXPECT_EQ(rig.boards[3]->cancels, 0);
  for (size_t b = 0; b < 3; ++b) EXPECT_TRUE(r.boards[b].cancelled);
}

TEST(FabricCommit, UnlockedClocksAreRefusedUnlessAllowed) {
  Rig rig;
  rig.boards[0]->poke(hw::REG_SYNC_STATUS, 0);  // the sync master: not checked
  rig.boards[1]->poke(hw::REG_SYNC_STATUS, 2u << hw::SYNC_STATUS_STATE_LSB | hw::SYNC_STATUS_REF_OK_MASK);
  rig.boards[3]->poke(hw::REG_SYNC_CTRL, 0);
  rig.boards[3]->poke(hw::REG_SYNC_STATUS, 0);
  Fabric fabric = rig.make();
  for (auto& b : rig.boards) b->write_log.clear();
  try {
    fabric.commit(rig.all(5));
    FAIL() << "committed on unlocked clocks";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("b1 ("), std::string::npos) << m;
    EXPECT_NE(m.find("b3 ("), std::string::npos) << m;
    EXPECT_EQ(m.find("b0 ("), std::string::npos) << m;
    EXPECT_EQ(m.find("b2 ("), std::string::npos) << m;
    EXPECT_NE(m.find("nothing was written"), std::string::npos) << m;
  }
  for (auto& b : rig.boards) EXPECT_TRUE(b->write_log.empty());

  FabricCommitOptions o;
  o.allow_unlocked = true;
  o.wait_for_swap = false;
  const FabricCommitReport r = fabric.commit(rig.all(5), o);
  EXPECT_TRUE(r.committed) << r.error;
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_NE(r.warnings[0].find("b1"), std::string::npos);
  EXPECT_NE(r.warnings[1].find("b3"), std::string::npos);
}

TEST(FabricCommit, UnreachableBoardWritesNothing) {
  Rig rig;
  std::vector<std::optional<Device>> devices;
  for (size_t b = 0; b < 3; ++b)
    devices.emplace_back(Device(std::make_unique<FakeTransport>(*rig.boards[b])));
  devices.emplace_back(std::nullopt);  // its URI does not answer
  rig.spec.boards[3].uri = "sim://127.0.0.1:1/3";
  Fabric fabric(rig.spec, std::move(devices));
  for (auto& b : rig.boards) b->write_log.clear();
  const FabricCommitReport r = fabric.commit(rig.all(5));
  EXPECT_FALSE(r.committed);
  EXPECT_EQ(r.boards[3].outcome, BoardOutcome::kUnchanged);
  EXPECT_EQ(r.boards[3].error_kind, "TransportError") << r.boards[3].error;
  EXPECT_NE(r.error.find("board b3: cannot be opened"), std::string::npos) << r.error;
  for (auto& b : rig.boards) EXPECT_TRUE(b->write_log.empty());
  EXPECT_THROW(fabric.device(3), TransportError);
  const std::vector<FabricBoardState> st = fabric.status();
  EXPECT_TRUE(st[0].reachable);
  EXPECT_FALSE(st[3].reachable);
  EXPECT_FALSE(st[3].error.empty());
  EXPECT_EQ(fabric.capabilities().size(), 4u);
}

TEST(FabricCommit, SwapNotSeenInTimeStaysArmedWithAWarning) {
  Rig rig;  // time stands still: T never comes
  Fabric fabric = rig.make();
  FabricCommitOptions o;
  o.swap_timeout = std::chrono::milliseconds(20);
  const FabricCommitReport r = fabric.commit(rig.all(5), o);
  EXPECT_TRUE(r.committed);
  ASSERT_EQ(r.warnings.size(), 4u);
  EXPECT_NE(r.warnings[0].find("not seen"), std::string::npos) << r.warnings[0];
  for (const BoardCommitReport& b : r.boards) EXPECT_EQ(b.outcome, BoardOutcome::kArmed);
}

TEST(FabricCommit, AnExplicitTimeInThePastIsRefusedBeforeArming) {
  Rig rig;
  Fabric fabric = rig.make();
  FabricCommitOptions o;
  o.at = board_time_ps(10);
  EXPECT_THROW(fabric.commit(rig.all(5), o), Error);
  for (auto& b : rig.boards) EXPECT_EQ(b->commits, 0);
}

TEST(FabricCancel, ReportsWhatEachBoardFound) {
  Rig rig;
  Fabric fabric = rig.make();
  FabricCommitOptions o;
  o.wait_for_swap = false;
  ASSERT_TRUE(fabric.commit(rig.all(5), o).committed);
  const std::vector<BoardCommitReport> c = fabric.cancel({0, 1});
  ASSERT_EQ(c.size(), 2u);
  EXPECT_TRUE(c[0].cancelled);
  EXPECT_EQ(c[0].outcome, BoardOutcome::kUnchanged);
  EXPECT_FALSE(rig.boards[0]->pending);
  EXPECT_TRUE(rig.boards[2]->pending);
}

TEST(FabricTrigger, EveryBoardTakesOneBoundary) {
  Rig rig;
  for (auto& b : rig.boards) b->waiting_event = true;
  rig.boards[1]->time_ticks = 50'000;
  Fabric fabric = rig.make();
  const FabricTriggerReport r = fabric.trigger({0, 1, 2, 3});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(to_ps(r.at) % hw::TICK_PS, 0);
  EXPECT_GE(r.at, board_time_ps(50'000 * int64_t{hw::TICK_PS}) + rig.spec.trigger_margin);
  EXPECT_EQ(r.boundary, std::optional<BoardTime>(r.at));
  for (size_t b = 0; b < 4; ++b) {
    EXPECT_EQ(rig.boards[b]->trigger_time * hw::TICK_PS, uint64_t(to_ps(r.at)));
    EXPECT_EQ(r.board_boundary[b], std::optional<BoardTime>(r.at));
  }
  EXPECT_EQ(to_json(r)["boards"][3]["board"], "b3");
}

TEST(FabricTrigger, ALatchedBoardIsNamed) {
  Rig rig;
  for (auto& b : rig.boards) b->waiting_event = true;
  rig.boards[2]->waiting_event = false;
  Fabric fabric = rig.make();
  const FabricTriggerReport r = fabric.trigger({0, 2}, board_time_ps(4'000'000));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.at, board_time_ps(4'000'000));
  EXPECT_EQ(r.board_boundary[0], std::optional<BoardTime>(board_time_ps(4'000'000)));
  EXPECT_EQ(r.board_boundary[1], std::nullopt);
  EXPECT_NE(r.error.find("b2 latched"), std::string::npos) << r.error;
}

TEST(FabricTrigger, ABoardThatFailsIsNamed) {
  Rig rig;
  for (auto& b : rig.boards) b->waiting_event = true;
  rig.boards[1]->before_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_CTRL) throw TransportError("fake://board: dropped");
  };
  Fabric fabric = rig.make();
  const FabricTriggerReport r = fabric.trigger({0, 1, 2});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("board b1"), std::string::npos) << r.error;
  EXPECT_FALSE(r.board_errors[1].empty());
  EXPECT_EQ(r.board_boundary[2], std::optional<BoardTime>(r.at));  // the others went ahead
}

TEST(FabricTrigger, ASlowHostWidensTheMarginInsteadOfSplittingTheBoundaryAgain) {
  Rig rig;
  // Each trigger write takes 8 us of board time: four boards take 32 us,
  // more than the 20 us margin, so the third and fourth are told a past time.
  const uint64_t per_write = 8'000'000 / hw::TICK_PS;
  for (auto& b : rig.boards) {
    b->before_write = [&rig, per_write](uint64_t addr, uint32_t) {
      if (addr == hw::REG_CTRL)
        for (auto& x : rig.boards) x->time_ticks += per_write;
    };
  }
  Fabric fabric = rig.make();
  for (auto& b : rig.boards) b->waiting_event = true;
  const FabricTriggerReport first = fabric.trigger({0, 1, 2, 3});
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(to_ps(first.margin), to_ps(rig.spec.trigger_margin));
  ASSERT_TRUE(first.window.has_value());
  EXPECT_GE(to_ps(*first.window), int64_t(4 * per_write * hw::TICK_PS));
  EXPECT_EQ(first.board_boundary[0], std::optional<BoardTime>(first.at));
  EXPECT_GT(first.board_boundary[3].value_or(BoardTime()), first.at);
  EXPECT_NE(first.error.find("more than the 20000000 ps margin"), std::string::npos) << first.error;

  for (auto& b : rig.boards) b->waiting_event = true;
  const FabricTriggerReport second = fabric.trigger({0, 1, 2, 3});
  ASSERT_TRUE(second.ok) << second.error;
  EXPECT_EQ(to_ps(second.margin), 2 * to_ps(*first.window));
  EXPECT_EQ(to_json(second)["margin_ps"], to_ps(second.margin));
}

TEST(FabricLease, OneTokenOnEveryBoard) {
  Rig rig;
  Fabric fabric = rig.make();
  fabric.set_lease_token(0xABCD1234);
  FabricCommitOptions o;
  o.wait_for_swap = false;
  ASSERT_TRUE(fabric.commit(rig.all(5), o).committed);
  for (auto& b : rig.boards) EXPECT_EQ(b->lease_owner, 0xABCD1234u);
  EXPECT_THROW(fabric.set_lease_token(0), Error);
}

// b0 master; b1 follows b0 with a calibration; b2 follows b1 (b1: a
// boundary clock); b3 follows b0 with a calibration.
FabricSpec sync_tree_spec() {
  json doc = four_on_awgr();
  doc["boards"][1]["sync_calibration"] = {{"delay_tx_ps", 1200}, {"delay_rx_ps", 800}, {"asymmetry_ps", -35}};
  doc["boards"][2]["sync_parent"] = "b1";
  doc["boards"][3]["sync_calibration"] = {{"delay_rx_ps", 400}};
  return fabric_from_json(doc);
}

TEST(FabricSync, PlansTheTreeAndNamesBoundaryClocks) {
  std::vector<std::string> warnings;
  const std::vector<BoardSyncReport> plan = plan_fabric_sync(sync_tree_spec(), &warnings);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].name, "b0");
  EXPECT_EQ(plan[0].mode, SyncMode::kReference);
  EXPECT_EQ(plan[1].mode, SyncMode::kFollower);
  EXPECT_TRUE(plan[1].boundary_clock);
  EXPECT_EQ(plan[1].children, std::vector<size_t>{2});
  EXPECT_EQ(plan[2].parent, std::optional<size_t>(1));
  EXPECT_FALSE(plan[2].boundary_clock);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("b1 is a boundary clock"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("one link engine"), std::string::npos) << warnings[0];

  FabricSpec no_tree = fabric_from_json(four_on_awgr());
  no_tree.sync_master.reset();
  try {
    plan_fabric_sync(no_tree, nullptr);
    FAIL() << "a fabric without a sync master was planned";
  } catch (const FormatError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].where, "sync_master");
  }
}

TEST(FabricSync, WritesRolesAndCalibrationsAndReadsThemBack) {
  Rig rig;
  rig.spec = sync_tree_spec();
  for (auto& b : rig.boards) b->poke(hw::REG_SYNC_CTRL, hw::SYNC_CTRL_USE_DDMTD_MASK);  // out of reset
  rig.boards[3]->poke(hw::REG_SYNC_CAL_DELAY_SM_PS, 77);  // left out of b3's calibration: written as 0
  rig.boards[2]->poke(hw::REG_SYNC_CAL_DELAY_MS_PS, 55);  // no calibration in the file: kept
  Fabric fabric = rig.make();
  const FabricSyncReport r = fabric.write_sync();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(rig.boards[0]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
  for (size_t b = 1; b < 4; ++b) {
    EXPECT_EQ(rig.boards[b]->peek(hw::REG_SYNC_CTRL),
              hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK)
        << "b" << b;
  }
  EXPECT_EQ(rig.boards[1]->peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 1200u);  // delay_tx: board TX + ref RX
  EXPECT_EQ(rig.boards[1]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 800u);
  EXPECT_EQ(rig.boards[1]->peek(hw::REG_SYNC_CAL_ASYM_PS), static_cast<uint32_t>(-35));
  EXPECT_EQ(rig.boards[3]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 400u);
  EXPECT_EQ(rig.boards[3]->peek(hw::REG_SYNC_CAL_DELAY_SM_PS), 0u);
  EXPECT_EQ(rig.boards[2]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 55u);
  for (const BoardSyncReport& b : r.boards) EXPECT_TRUE(b.written()) << b.name;
  EXPECT_EQ(r.boards[0].previous, std::optional<SyncMode>(SyncMode::kOff));
  const json j = to_json(r);
  EXPECT_EQ(j["written"], json({"b0", "b1", "b2", "b3"}));
  EXPECT_EQ(j["boards"][1]["calibration"]["asymmetry_ps"], -35);
  EXPECT_TRUE(j["boards"][2]["calibration"].is_null());

  // Idempotent: a second run writes the same words.
  ASSERT_TRUE(fabric.write_sync().ok);
  EXPECT_EQ(rig.boards[0]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_REFERENCE_MASK);
}

TEST(FabricSync, AnotherWritersLeaseWritesNothingAndIsNamed) {
  Rig rig;
  rig.spec = sync_tree_spec();
  rig.boards[2]->lease_owner = 0x77;
  Fabric fabric = rig.make();
  for (auto& b : rig.boards) b->write_log.clear();
  const FabricSyncReport r = fabric.write_sync();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("board b2"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("nothing was written"), std::string::npos) << r.error;
  EXPECT_EQ(r.boards[2].error_kind, "LeaseError");
  for (auto& b : rig.boards) {
    for (uint64_t a : b->write_log) {
      EXPECT_FALSE(a == hw::REG_SYNC_CTRL ||
                   (a >= hw::REG_SYNC_CAL_DELAY_MS_PS && a <= hw::REG_SYNC_CAL_ASYM_PS))
          << "wrote 0x" << std::hex << a;
    }
  }
  EXPECT_EQ(to_json(r)["written"], json::array());
}

// The sync tree, with board `k` dropping its connection at its SYNC_CTRL
// write (after its calibration, if it has one).
void drop_at_sync_ctrl(Rig& rig, size_t k) {
  rig.spec = sync_tree_spec();
  rig.boards[k]->before_write = [](uint64_t addr, uint32_t) {
    if (addr == hw::REG_SYNC_CTRL) throw TransportError("fake://board: connection dropped at SYNC_CTRL");
  };
}

TEST(FabricSync, AFailureMidwaySaysWhichBoardsWereWritten) {
  Rig rig;
  drop_at_sync_ctrl(rig, 2);
  Fabric fabric = rig.make();
  const FabricSyncReport r = fabric.write_sync();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.boards[2].error_kind, "TransportError");
  EXPECT_NE(r.error.find("board b2"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("written: b0, b1; not written: b2, b3"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("run it again"), std::string::npos) << r.error;
  EXPECT_EQ(rig.boards[1]->peek(hw::REG_SYNC_CTRL), hw::SYNC_CTRL_ENABLE_MASK | hw::SYNC_CTRL_USE_DDMTD_MASK);
  EXPECT_EQ(rig.boards[3]->peek(hw::REG_SYNC_CAL_DELAY_MS_PS), 0u);  // never reached
}

TEST(FabricSync, ABoardWhoseCalibrationWasWrittenButNotItsModeIsNamedPartlyWritten) {
  Rig rig;
  drop_at_sync_ctrl(rig, 1);
  Fabric fabric = rig.make();
  const FabricSyncReport r = fabric.write_sync();
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.boards[1].calibration_written);
  EXPECT_FALSE(r.boards[1].mode_written);
  EXPECT_NE(
      r.error.find("written: b0; partly written (its calibration, not its mode): b1; not written: b2, b3"),
      std::string::npos)
      << r.error;
  const json j = to_json(r);
  EXPECT_EQ(j["written"], json({"b0"}));
  EXPECT_EQ(j["partly_written"], json({"b1"}));
  EXPECT_EQ(j["not_written"], json({"b2", "b3"}));
}

}  // namespace
}  // namespace lightrail
