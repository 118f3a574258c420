// The daemon's placement: a plan on ports 0..N-1 moved onto the switch
// ports of the boards it is given, and nothing placed on a board in use.
#include "placement.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/choice.hpp"
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

lp::Job dp32() {
  return lp::job_from_json(read_json_file(LIGHTRAIL_EXAMPLES "/daemon/dp32.job.json", "job"));
}
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

// A Clos rail of `radix` ports: ingress, 16 middle and egress boards.
FabricSpec clos_rail(int radix) {
  FabricSpec s;
  s.name = "clos";
  s.rails = {{0, SwitchKind::kClos, radix}};
  const std::pair<ClosStage, int> stages[] = {
      {ClosStage::kIngress, radix / 16}, {ClosStage::kMiddle, 16}, {ClosStage::kEgress, radix / 16}};
  for (const auto& [stage, count] : stages) {
    for (int k = 0; k < count; ++k) {
      FabricBoard fb;
      fb.name = std::string(to_string(stage)) + std::to_string(k);
      fb.uri = "sim://127.0.0.1:1/" + std::to_string(s.boards.size());
      fb.stage = stage;
      fb.stage_index = k;
      s.boards.push_back(fb);
    }
  }
  return s;
}

lp::Job job_file(const std::string& name) {
  return lp::job_from_json(read_json_file(std::string(LIGHTRAIL_EXAMPLES "/daemon/") + name, "job"));
}

// Every step: each lit rail port, followed through its ingress, middle and
// egress boards, leaves on the port the planner's configuration says.
void expect_clos_carries_the_plan(const FabricSpec& spec, const Placement& pl, const lp::Job& job) {
  const lp::OpusPlan plan = lp::plan_opus(job, planner_fabric(spec, model()));
  std::map<std::pair<ClosStage, int>, const Schedule*> at;
  for (const PlacedBoard& pb : pl.boards)
    at[{spec.boards[pb.board].stage, spec.boards[pb.board].stage_index}] = &pb.schedule;
  auto value = [&](ClosStage st, int index, size_t step, int port) {
    const Schedule* s = at.at({st, index});
    return s->configs.at(s->steps.at(step).config).wavelength.at(port);
  };
  const lp::RailPlan& rp = plan.rails.at(0);
  const Schedule& first = *at.at({ClosStage::kIngress, 0});
  // Each step's circuits, followed from every rail port through its
  // ingress, middle and egress boards, are one of the planner's
  // configurations (a board's own configurations are deduplicated, so its
  // names do not say which); every configuration shows up.
  std::set<int> seen;
  size_t circuits = 0;
  for (size_t step = 0; step < first.steps.size(); ++step) {
    std::vector<int> dest(rp.ports, lp::kIdle);
    for (int s = 0; s < rp.ports; ++s) {
      const int k = value(ClosStage::kIngress, s / 16, step, s % 16);
      if (k == kDark) continue;
      const int j = value(ClosStage::kMiddle, k, step, s / 16);
      ASSERT_NE(j, kDark) << "step " << step << " rail port " << s;
      const int q = value(ClosStage::kEgress, j, step, k);
      ASSERT_NE(q, kDark) << "step " << step << " rail port " << s;
      dest[s] = j * 16 + q;
      ++circuits;
    }
    int found = -1;
    for (size_t c = 0; c < rp.configs.size(); ++c)
      if (rp.configs[c].dest == dest) found = int(c);
    EXPECT_GE(found, 0) << "step " << step << ": the stages' circuits are none of the planner's";
    seen.insert(found);
  }
  EXPECT_EQ(seen.size(), rp.configs.size());
  EXPECT_GT(circuits, 0u);
  std::vector<BoardAssignment> set;
  for (const PlacedBoard& pb : pl.boards) set.push_back({pb.board, pb.schedule});
  const auto caps = std::vector<DeviceCapabilities>(spec.boards.size(), DeviceCapabilities::reference());
  EXPECT_EQ(to_string(validate_fabric(spec, caps, set)), "");
}

TEST(Placement, ClosRailOf128PortsTakesEveryStage) {
  const FabricSpec spec = clos_rail(128);
  const lp::Job job = job_file("dp128.job.json");
  const Placement pl = place_job(job, spec, DeviceCapabilities::reference(), model(),
                                 std::vector<bool>(spec.boards.size(), true), 3);
  ASSERT_EQ(pl.boards.size(), 32u);
  expect_clos_carries_the_plan(spec, pl, job);
  EXPECT_EQ(pl.summary["rails"][0]["boards"].size(), 32u);
}

TEST(Placement, NarrowJobOnAClosRailGoesThroughItsStagesToo) {
  const FabricSpec spec = clos_rail(128);
  const Placement pl = place_job(dp32(), spec, DeviceCapabilities::reference(), model(),
                                 std::vector<bool>(spec.boards.size(), true), 3);
  ASSERT_EQ(pl.boards.size(), 20u);  // ingress 0, 1; every middle; egress 0, 1
  expect_clos_carries_the_plan(spec, pl, dp32());
}

TEST(Placement, ClosRailWithABusyOrMissingMiddle) {
  FabricSpec spec = clos_rail(128);
  std::vector<bool> free(spec.boards.size(), true);
  free[8 + 5] = false;  // middle5
  try {
    place_job(job_file("dp128.job.json"), spec, DeviceCapabilities::reference(), model(), free, 1);
    FAIL() << "placed with a middle board in use";
  } catch (const PlacementError& e) {
    EXPECT_TRUE(e.fits_later);
    EXPECT_NE(std::string(e.what()).find("needs 32 boards, of which middle5 are not free"), std::string::npos)
        << e.what();
  }
  spec.boards.erase(spec.boards.begin() + 8 + 5);
  try {
    place_job(job_file("dp128.job.json"), spec, DeviceCapabilities::reference(), model(),
              std::vector<bool>(spec.boards.size(), true), 1);
    FAIL() << "placed without middle 5";
  } catch (const PlacementError& e) {
    EXPECT_FALSE(e.fits_later);
    EXPECT_NE(std::string(e.what()).find("needs middle 5 of its Clos, which the fabric does not list"),
              std::string::npos)
        << e.what();
  }
}

TEST(Placement, RailWiderThanOneSwitchNeedsAClosRail) {
  FabricSpec spec = clos_rail(128);
  spec.rails[0].kind = SwitchKind::kOcs;
  try {
    place_job(job_file("dp128.job.json"), spec, DeviceCapabilities::reference(), model(),
              std::vector<bool>(spec.boards.size(), true), 1);
    FAIL();
  } catch (const PlacementError& e) {
    EXPECT_NE(std::string(e.what()).find("describe the rail as a Clos of boards"), std::string::npos)
        << e.what();
  }
}

// The daemon plans what `lightrail plan` chooses: at a 1 ms reconfiguration
// a 64-GPU job's all-to-all stays electrical (circuits would need five
// reconfigurations inside it), its all-reduce runs as a ring on the
// all-gather's circuits rather than the declared halving-doubling; the
// electrical phase has no event step on any board, so it moves no circuits.
TEST(Placement, PlansThePlannersChoiceAndAnElectricalPhaseMovesNoCircuits) {
  const lp::Job job = lp::job_from_json(nlohmann::json::parse(R"({
    "name": "dp-moe-64", "gpus": 64, "gpus_per_node": 1, "parallelism": {"data": 64},
    "phases": [
      {"name": "forward", "compute_ps": 2000000, "collective": "all_gather", "algorithm": "ring",
       "dimension": "data", "bytes": 32000},
      {"name": "experts", "compute_ps": 2000000, "collective": "all_to_all", "algorithm": "direct",
       "dimension": "data", "bytes": 64000},
      {"name": "gradients", "compute_ps": 2000000, "collective": "all_reduce", "algorithm": "halving_doubling",
       "dimension": "data", "bytes": 64000}]})"));
  lp::Fabric slow = model();
  slow.reconfiguration_ps = 1'000'000'000;  // 1 ms
  const FabricSpec spec = four_boards(SwitchKind::kAwgr);
  const Placement pl =
      place_job(job, spec, DeviceCapabilities::reference(), slow, {true, true, true, true}, 1);
  const lp::ChosenPlan cli = lp::choose_plan(job, planner_fabric(spec, slow));
  EXPECT_EQ(pl.summary["choice"], lp::to_json(cli));
  EXPECT_EQ(pl.summary["iteration_ps"], cli.chosen.total_ps());
  const auto& phases = pl.summary["phases"];
  EXPECT_EQ(phases[0]["network"], "circuits");
  EXPECT_EQ(phases[1]["network"], "electrical");
  EXPECT_EQ(phases[2]["network"], "circuits");
  EXPECT_EQ(phases[2]["algorithm"], "ring");  // declared halving_doubling
  EXPECT_NE(pl.summary["choice"][1]["why"].get<std::string>().find("kept electrical"), std::string::npos)
      << pl.summary["choice"][1]["why"];
  EXPECT_LE(pl.summary["iteration_ps"].get<int64_t>(), pl.summary["electrical_fallback_ps"].get<int64_t>());
  ASSERT_FALSE(pl.boards.empty());
  for (const PlacedBoard& pb : pl.boards) {
    EXPECT_TRUE(pb.phase_step[0] && pb.phase_step[2]);
    EXPECT_FALSE(pb.phase_step[1]) << "the electrical phase has an event step on board " << pb.board;
    // Ring on both circuit phases: one configuration, nothing to retune.
    EXPECT_EQ(pb.schedule.configs.size(), 1u);
  }
  // Where circuits pay for nothing, the job gets no board at all.
  lp::Job a2a = job;
  a2a.phases = {job.phases[1]};
  const Placement none =
      place_job(a2a, spec, DeviceCapabilities::reference(), slow, {true, true, true, true}, 2);
  EXPECT_TRUE(none.boards.empty());
  EXPECT_EQ(none.summary["fallback"], true);
}

}  // namespace
}  // namespace lightrail::daemon
