// The daemon's placement: a plan on ports 0..N-1 moved onto the switch
// ports of the boards it is given, and nothing placed on a board in use.
#include "placement.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"

namespace lightrail::daemon {
namespace {

namespace lp = lightrail::planner;

FabricSpec four_boards(SwitchKind kind) {
  FabricSpec s;
  s.name = "four";
  s.rails = {{0, kind, 64}};
  for (int b = 0; b < 4; ++b) {
    FabricBoard fb;
    fb.name = "b" + std::to_string(b);
    fb.uri = "sim://127.0.0.1:1/" + std::to_string(b);
    // Board b feeds switch ports 16b .. 16b+15, reversed on odd boards, so
    // a remap that ignores the cabling is caught.
    for (int p = 0; p < 16; ++p) fb.switch_ports.push_back(16 * b + (b % 2 ? 15 - p : p));
    s.boards.push_back(fb);
  }
  return s;
}

lp::Job dp32() { return lp::job_from_json(read_json_file(LIGHTRAIL_EXAMPLES "/daemon/dp32.job.json", "job")); }
lp::Fabric model() {
  return lp::fabric_from_json(read_json_file(LIGHTRAIL_EXAMPLES "/daemon/model.json", "model"));
}

// Where every lit sender of each configuration lands, in switch ports.
std::map<std::pair<int, size_t>, int> landing(const FabricSpec& spec, const Placement& pl, int config_step) {
  std::map<std::pair<int, size_t>, int> out;
  for (const PlacedBoard& pb : pl.boards) {
    const FabricBoard& fb = spec.boards[pb.board];
    const Step& st = pb.schedule.steps.at(config_step);
    const auto& w = pb.schedule.configs.at(st.config).wavelength;
    for (size_t p = 0; p < w.size(); ++p) {
      if (w[p] == kDark) continue;
      const int dst = spec.rails[0].kind == SwitchKind::kOcs ? w[p] : (fb.switch_ports[p] + w[p]) % 64;
      out[{fb.switch_ports[p], 0}] = dst;
    }
  }
  return out;
}

void expect_same_circuits(SwitchKind kind) {
  const FabricSpec spec = four_boards(kind);
  const auto caps = DeviceCapabilities::reference();
  // Boards 1 and 3 are free; 0 and 2 run other jobs.
  const Placement pl = place_job(dp32(), spec, caps, model(), {false, true, false, true}, 7);
  ASSERT_EQ(pl.boards.size(), 2u);
  EXPECT_EQ(pl.boards[0].board, 1u);
  EXPECT_EQ(pl.boards[1].board, 3u);
  // The planner's own circuits on ports 0..31, for comparison.
  const lp::OpusPlan plan = lp::plan_opus(dp32(), planner_fabric(spec, model()));
  const auto rel = lp::to_schedules(plan, caps);
  ASSERT_EQ(rel.size(), 2u);
  auto abs_port = [&](int i) { return spec.boards[i < 16 ? 1 : 3].switch_ports[i % 16]; };
  std::set<int> mine;
  for (int i = 0; i < 32; ++i) mine.insert(abs_port(i));
  for (size_t s = 0; s < pl.boards[0].schedule.steps.size(); ++s) {
    const auto land = landing(spec, pl, int(s));
    std::set<int> receivers;
    for (size_t k = 0; k < rel.size(); ++k) {
      const Schedule& r = rel[k].schedule;
      const auto& w = r.configs.at(r.steps.at(s).config).wavelength;
      for (int p = 0; p < 16; ++p) {
        if (w[p] == kDark) continue;
        const int src = int(k) * 16 + p;
        const int dst = kind == SwitchKind::kOcs ? w[p] : (src + w[p]) % 64;
        const auto it = land.find({abs_port(src), 0});
        ASSERT_NE(it, land.end()) << "step " << s << " planner port " << src << " is dark after placement";
        EXPECT_EQ(it->second, abs_port(dst)) << "step " << s << " planner port " << src;
        EXPECT_TRUE(mine.count(it->second)) << "lands on a port of another job";
        EXPECT_TRUE(receivers.insert(it->second).second) << "two senders on one receiver";
      }
    }
  }
  for (const PlacedBoard& pb : pl.boards) {
    EXPECT_EQ(pb.schedule.generation, 7u);
    EXPECT_TRUE(validate(pb.schedule, caps).empty()) << to_string(validate(pb.schedule, caps));
    // Both phases use the rail: each opens with its event step.
    ASSERT_EQ(pb.phase_step.size(), 2u);
    ASSERT_TRUE(pb.phase_step[0] && pb.phase_step[1]);
    EXPECT_TRUE(pb.schedule.steps[*pb.phase_step[0]].event_triggered);
    EXPECT_TRUE(pb.schedule.steps[*pb.phase_step[1]].event_triggered);
    EXPECT_LT(*pb.phase_step[0], *pb.phase_step[1]);
  }
}

TEST(Placement, AwgrWavelengthsFollowTheCabling) { expect_same_circuits(SwitchKind::kAwgr); }
TEST(Placement, OcsOutputPortsFollowTheCabling) { expect_same_circuits(SwitchKind::kOcs); }

TEST(Placement, TooFewFreeBoardsFitsLater) {
  const FabricSpec spec = four_boards(SwitchKind::kAwgr);
  try {
    place_job(dp32(), spec, DeviceCapabilities::reference(), model(), {true, false, false, false}, 1);
    FAIL() << "placed on one free board";
  } catch (const PlacementError& e) {
    EXPECT_TRUE(e.fits_later);
    EXPECT_NE(std::string(e.what()).find("rail 0 needs 2 boards, 1 free"), std::string::npos) << e.what();
  }
}

TEST(Placement, JobLargerThanTheFabricNeverFits) {
  FabricSpec spec = four_boards(SwitchKind::kAwgr);
  spec.boards.resize(1);
  spec.rails[0].radix = 16;
  try {
    place_job(dp32(), spec, DeviceCapabilities::reference(), model(), {true}, 1);
    FAIL();
  } catch (const PlacementError& e) {
    EXPECT_FALSE(e.fits_later);
    EXPECT_EQ(e.field, "fabric.ocs_radix") << e.what();
  }
}

TEST(Placement, UncabledBoardIsNotUsed) {
  FabricSpec spec = four_boards(SwitchKind::kAwgr);
  spec.boards[1].switch_ports[3] = kDark;
  const Placement pl =
      place_job(dp32(), spec, DeviceCapabilities::reference(), model(), {true, true, true, false}, 1);
  ASSERT_EQ(pl.boards.size(), 2u);
  EXPECT_EQ(pl.boards[0].board, 0u);
  EXPECT_EQ(pl.boards[1].board, 2u);
}

}  // namespace
}  // namespace lightrail::daemon
