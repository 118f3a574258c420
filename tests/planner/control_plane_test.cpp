// Opus multiplexing, the flow model, schedules the driver accepts, the
// experiments' published patterns, and errors naming the bad field.
#include <gtest/gtest.h>

#include "error_of.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"
#include "lightrail/validate.hpp"

namespace lp = lightrail::planner;
using nlohmann::json;

namespace {
lp::Fabric rails(int64_t reconfiguration_ps) {
  lp::Fabric f;
  f.reconfiguration_ps = reconfiguration_ps;
  return f;
}
json doc(const std::string& text) { return lightrail::parse_json_text(text, "test"); }
// A shipped experiment file, read as the CLI reads it.
json shipped(const std::string& name) {
  return lightrail::read_json_file(std::string(LIGHTRAIL_EXPERIMENTS_DIR) + "/" + name, name);
}
const json& row_of(const json& result, const std::string& label) {
  for (const auto& row : result["rows"])
    if (row[0] == label) return row;
  ADD_FAILURE() << "no row " << label;
  static const json none = json::array();
  return none;
}
}  // namespace

TEST(PlannerOpus, GptPlanUsesOneConfigurationPerPhaseAndReconfiguresAtBoundaries) {
  const lp::OpusPlan plan = lp::plan_opus(lp::gpt_preset(2048), rails(10'000'000'000));
  ASSERT_EQ(plan.rails.size(), 8u);
  for (const auto& rp : plan.rails) {
    EXPECT_EQ(rp.configs.size(), 3u);  // pipeline forward, backward, data ring
    EXPECT_EQ(rp.reconfigurations_per_iteration(), 3);
    for (const auto& m : rp.configs) lp::verify_one_to_one(m, "rail");
  }
}

TEST(PlannerOpus, TwoPortsPerNicRemoveThePipelineReconfiguration) {
  lp::Fabric f = rails(10'000'000'000);
  f.ports_per_nic = 2;
  f.ocs_radix = 512;
  const lp::OpusPlan plan = lp::plan_opus(lp::gpt_preset(2048), f);
  EXPECT_EQ(plan.rails[0].reconfigurations_per_iteration(), 2);  // pipeline <-> gradients only
}

TEST(PlannerOpus, SameConfigurationTwiceIsNotReconfigured) {
  lp::Job job = lp::cnn_preset(16, 1);
  job.phases.push_back(job.phases[0]);  // two ring all-reduces in a row
  const lp::OpusPlan plan = lp::plan_opus(job, rails(1'000'000'000));
  EXPECT_EQ(plan.rails[0].reconfigurations_per_iteration(), 0);
}

TEST(PlannerOpus, OverheadUnderSixPercentAtMillisecondsAndOverlapLowersIt) {
  for (int gpus : {256, 1024, 2048}) {
    for (int64_t ms : {1, 10, 25}) {
      const lp::OpusPlan plan = lp::plan_opus(lp::gpt_preset(gpus), rails(ms * 1'000'000'000));
      const double el = lp::electrical_iteration(plan).total_ps();
      const double no = lp::photonic_iteration(plan, false).total_ps();
      const double ov = lp::photonic_iteration(plan, true).total_ps();
      EXPECT_LT(no / el - 1, 0.06) << gpus << " GPUs, " << ms << " ms";
      EXPECT_LT(ov / el - 1, 0.03) << gpus << " GPUs, " << ms << " ms";
      EXPECT_LT(ov, no);
    }
  }
  // And the model is not blind: at 1 s per reconfiguration the overhead is large.
  const lp::OpusPlan slow = lp::plan_opus(lp::gpt_preset(2048), rails(1'000'000'000'000));
  EXPECT_GT(
      double(lp::photonic_iteration(slow, false).total_ps()) / lp::electrical_iteration(slow).total_ps(),
      1.3);
}

TEST(PlannerOpus, ExpertAllToAllReconfiguresInsideThePhase) {
  const lp::OpusPlan plan = lp::plan_opus(lp::moe_preset(1024), rails(10'000'000'000));
  // Bruck over 8 expert ranks: 3 shifts, 2 changes inside each all-to-all.
  EXPECT_EQ(plan.rails[0].phases[0].internal_reconfigurations, 2);
}

TEST(PlannerSchedule, PlanOf2048GpusPassesDriverValidation) {
  const auto caps = lightrail::DeviceCapabilities::reference();
  for (const char* name : {"gpt", "moe"}) {
    const lp::OpusPlan plan = lp::plan_opus(lp::preset(name, 2048), rails(10'000'000'000));
    const auto boards = lp::to_schedules(plan, caps);
    EXPECT_EQ(boards.size(), 8u * (16 + 16 + 16)) << name;  // a 16x16x16 Clos per rail
    bool has_event = false;
    for (const auto& b : boards) {
      const auto problems = lightrail::validate(b.schedule, caps);
      ASSERT_TRUE(problems.empty()) << name << " rail " << b.rail << " " << b.role << " " << b.index << ": "
                                    << lightrail::to_string(problems);
      for (const auto& s : b.schedule.steps) has_event = has_event || s.event_triggered;
    }
    EXPECT_TRUE(has_event);
  }
}

TEST(PlannerSchedule, ClosRoutesEveryPermutation) {
  for (int ports : {20, 100, 256}) {
    lp::Matching m = lp::shift(ports, 37);
    m.dest[3] = lp::kIdle;
    const lp::ClosRoute r = lp::route_clos(m, 16);
    for (int in = 0; in < ports; ++in) {
      const int k = r.ingress[in / 16][in % 16];
      if (m.dest[in] == lp::kIdle) {
        EXPECT_EQ(k, lp::kIdle);
        continue;
      }
      const int j = r.middle[k][in / 16];
      ASSERT_EQ(j, m.dest[in] / 16);
      EXPECT_EQ(r.egress[j][k], m.dest[in] % 16);
    }
  }
}

TEST(PlannerSchedule, SmallRailsUseDirectOcsAndAwgrEncodings) {
  const auto caps = lightrail::DeviceCapabilities::reference();
  lp::Fabric f = rails(1'000'000);
  f.ocs_radix = 32;
  const lp::OpusPlan plan = lp::plan_opus(lp::cnn_preset(32, 1), f);
  for (auto mode : {lp::SwitchMode::kOcs, lp::SwitchMode::kAwgr}) {
    lp::OpusPlan p = plan;
    p.fabric.mode = mode;
    const auto boards = lp::to_schedules(p, caps);
    ASSERT_EQ(boards.size(), 2u);
    for (const auto& b : boards) EXPECT_TRUE(lightrail::validate(b.schedule, caps).empty());
    // Ring: port 0 reaches port 1 (OCS: output 1; AWGR: wavelength 1).
    EXPECT_EQ(boards[0].schedule.configs[0].wavelength[0], 1);
    EXPECT_EQ(boards[1].schedule.configs[0].wavelength[15], mode == lp::SwitchMode::kOcs ? 0 : 1);
  }
}

TEST(PlannerExperiments, PasShowsSmallJobsAtHighDensityAndRingGainingMost) {
  const json r = lp::run_experiment(shipped("pas.json"));
  auto accel = [&](const std::string& pattern, int nodes, double mb, int density) {
    for (const auto& row : r["rows"])
      if (row[0] == pattern && row[1] == nodes && row[2] == mb && row[3] == density)
        return row[6].get<double>();
    ADD_FAILURE() << "no row " << pattern << " " << mb << " " << density;
    return 0.0;
  };
  for (const std::string p : {"ring", "recursive_doubling"}) {
    EXPECT_GT(accel(p, 4, 1, 16), accel(p, 4, 1000, 16)) << p;  // small data gains most at high density
    EXPECT_GT(accel(p, 4, 1, 16), accel(p, 4, 1, 1)) << p;      // density increases the gain
  }
  for (double mb : {1.0, 10.0, 100.0, 1000.0})
    for (int d : {1, 4, 16}) EXPECT_GT(accel("ring", 4, mb, d), accel("recursive_doubling", 4, mb, d));
}

TEST(PlannerExperiments, FastConvReachesNinetyPercentSooner) {
  const json r = lp::run_experiment(shipped("fastconv.json"));
  const json& mean = row_of(r, "mean");
  EXPECT_EQ(row_of(r, "not reached"), json({"not reached", "0 of 4", "0 of 4", "0 of 4"}));
  EXPECT_LT(mean[3].get<double>(), mean[2].get<double>());  // FastConv beats PAS alone
  EXPECT_LT(mean[2].get<double>(), mean[1].get<double>());  // PAS beats EPS alone
}

// The curves a time-to-accuracy picture draws agree with the table: each
// job's progress rises from its arrival and crosses 90% where the table
// says, under every policy.
TEST(PlannerExperiments, FastConvCurvesAgreeWithTheTimesToNinetyPercent) {
  const json r = lp::run_experiment(shipped("fastconv.json"));
  const json spec = shipped("fastconv.json");
  const char* const policies[] = {"eps_only", "pas", "pas_fastconv"};
  for (size_t p = 0; p < 3; ++p) {
    const json& jobs = r["curves"][policies[p]];
    ASSERT_EQ(jobs.size(), 4u) << policies[p];
    for (size_t i = 0; i < jobs.size(); ++i) {
      const json& t = jobs[i]["t_s"];
      const json& a = jobs[i]["progress"];
      ASSERT_EQ(t.size(), a.size());
      ASSERT_GE(t.size(), 2u);
      EXPECT_LE(t.size(), 4000u / 4 + 2) << "bounded";
      EXPECT_DOUBLE_EQ(t[0].get<double>(), spec["jobs"][i]["arrival_s"].get<double>()) << policies[p] << i;
      double crossed = -1;
      for (size_t k = 1; k < t.size(); ++k) {
        EXPECT_GE(a[k].get<double>(), a[k - 1].get<double>());
        EXPECT_GT(t[k].get<double>(), t[k - 1].get<double>());
        if (crossed < 0 && a[k].get<double>() >= 0.9) crossed = t[k].get<double>();
      }
      // Sampled every few steps: the curve crosses 90% at or a little after
      // the table's time (from arrival), never before it.
      const double t90 = row_of(r, jobs[i]["job"].get<std::string>())[p + 1].get<double>();
      const double from_arrival = crossed - t[0].get<double>();
      EXPECT_GE(from_arrival, t90 - 1e-9) << policies[p] << i;
      EXPECT_LE(from_arrival, t90 + 0.02 * (t.back().get<double>() - t[0].get<double>())) << policies[p] << i;
    }
  }
}

namespace {
json parts(int radix) {
  return {{"eps_switch_w_per_port", {{"value", 4}}},     {"eps_transceiver_w_per_port", {{"value", 8}}},
          {"nic_transceiver_w", {{"value", 9}}},         {"ocs_w_per_port", {{"value", 1}}},
          {"eps_switch_usd_per_port", {{"value", 500}}}, {"eps_transceiver_usd_per_port", {{"value", 700}}},
          {"ocs_usd_per_port", {{"value", 2000}}},       {"eps_switch_radix", {{"value", radix}}}};
}
}  // namespace

TEST(PlannerExperiments, PowerCostCountsTheSwitchTiersARailNeeds) {
  // 2,048 GPUs on 8 rails: 256 ports a rail. Radix 256 is one tier (one
  // switch port and optic per GPU); radix 128 needs two (leaf down, leaf up,
  // spine: three each).
  for (const auto& [radix, tiers] : {std::pair{256, 1}, std::pair{128, 2}, std::pair{8, 4}}) {
    const json r =
        lp::run_experiment({{"kind", "power_cost"}, {"gpus", 2048}, {"rails", 8}, {"parts", parts(radix)}});
    const json& base = r["rows"][0];
    ASSERT_EQ(base[0], "baseline");
    EXPECT_EQ(base[1], tiers) << radix;
    const double ports = 2.0 * tiers - 1;
    EXPECT_DOUBLE_EQ(base[4].get<double>(), ports * (4 + 8) / 1.0) << radix;
    EXPECT_DOUBLE_EQ(base[5].get<double>(), (2048 * ports * 12 + 2048 * 9) / (2048 * 1.0 + 2048 * 9))
        << radix;
    EXPECT_DOUBLE_EQ(base[8].get<double>(), ports * (500 + 700) / 2000.0) << radix;
  }
  // Each figure's x0.5 / x2 rows move the ratios it enters.
  const json r = lp::run_experiment({{"kind", "power_cost"}, {"parts", parts(128)}});
  auto row = [&](const std::string& label) {
    for (const auto& x : r["rows"])
      if (x[0] == label) return x;
    ADD_FAILURE() << "no row " << label;
    return json::array();
  };
  EXPECT_DOUBLE_EQ(row("ocs_w_per_port x2")[4].get<double>(), row("baseline")[4].get<double>() / 2);
  EXPECT_DOUBLE_EQ(row("ocs_usd_per_port x0.5")[8].get<double>(), row("baseline")[8].get<double>() * 2);
  EXPECT_EQ(row("eps_switch_radix x2")[1], 1);
}

TEST(PlannerExperiments, EveryShippedPartHasAPublicSource) {
  const json parts = shipped("parts.json");
  ASSERT_FALSE(parts.empty());
  for (const auto& [name, part] : parts.items()) {
    const std::string source = part.value("source", "");
    EXPECT_NE(source.find("https://"), std::string::npos) << name << " cites no public address";
    EXPECT_EQ(part.value("status", "").rfind("assumption", 0), std::string::npos)
        << name << " is an assumption";
  }
  // The shipped experiment runs on them.
  const json r = lp::run_experiment(shipped("power_cost.json"), LIGHTRAIL_EXPERIMENTS_DIR);
  EXPECT_GT(r["rows"][0][4].get<double>(), 1.0);  // the OCS side draws less
}

TEST(PlannerErrors, PowerCostNamesTheField) {
  EXPECT_NE(error_of([] {
              lp::run_experiment({{"kind", "power_cost"}, {"rails", 3}, {"parts", parts(128)}});
            }).find("experiment.rails"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              lp::run_experiment({{"kind", "power_cost"}, {"parts", parts(2)}});
            }).find("experiment.parts.eps_switch_radix"),
            std::string::npos);
  json missing = parts(128);
  missing.erase("ocs_w_per_port");
  EXPECT_NE(error_of([&] {
              lp::run_experiment({{"kind", "power_cost"}, {"parts", missing}});
            }).find("experiment.parts.ocs_w_per_port: is required"),
            std::string::npos);
}

TEST(PlannerErrors, BadJobsNameTheField) {
  EXPECT_NE(error_of([] {
              lp::Job j = lp::gpt_preset(256);
              j.data = 3;
              lp::validate(j);
            }).find("job.parallelism: tensor 8 x context 1 x pipeline 8 x data 3 = 192, but job.gpus is 256"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              lp::job_from_json(doc(R"({"gpus": 8, "gpus_per_node": 1, "parallelism": {"data": 8},
                "phases": [{"collective": "all_reduce", "groups": [[0,1,2],[2,3]]}]})"));
            }).find("job.phases[0].groups[1]: rank 2 is already in groups[0]"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              lp::job_from_json(doc(R"({"gpus": 4, "gpus_per_node": 1, "parallelism": {"data": 4},
                "phases": [{"collective": "all_reduce", "megabytes": -1}]})"));
            }).find("job.phases[0].megabytes"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              lp::job_from_json(doc(R"({"gpus": 4, "gpus_per_node": 1, "parallelism": {"data": 4},
                "phases": [{"collective": "all_reduce", "algorithm": "bruck"}]})"));
            }).find("job.phases[0].algorithm"),
            std::string::npos);
  EXPECT_NE(error_of([] { lp::job_from_json(doc(R"({"gpus": "many"})")); }).find("job.gpus"),
            std::string::npos);
}

TEST(PlannerErrors, FabricTooSmallNamesTheField) {
  lp::Fabric f = rails(1);
  f.ocs_radix = 128;
  EXPECT_NE(error_of([&] { lp::plan_opus(lp::gpt_preset(2048), f); }).find("fabric.ocs_radix: 128 ports"),
            std::string::npos);
  f.ocs_radix = 256;
  f.rails = 4;
  EXPECT_NE(error_of([&] { lp::plan_opus(lp::gpt_preset(2048), f); }).find("fabric.rails"),
            std::string::npos);
  EXPECT_NE(error_of([] { lp::fabric_from_json(doc(R"({"link_gbps": -1})")); }).find("fabric.link_gbps"),
            std::string::npos);
  EXPECT_NE(error_of([] { lp::run_experiment(doc(R"({"kind": "opsu"})")); }).find("experiment.kind"),
            std::string::npos);
}
