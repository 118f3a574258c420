// The planner's input documents (jobs, fabrics, experiments) are read
// strictly: a number must fit its field exactly, unknown fields and two
// units of one quantity are refused, and every problem is named at once.
#include <gtest/gtest.h>

#include <string>

#include "error_of.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/opus.hpp"

namespace lp = lightrail::planner;
using nlohmann::json;

namespace {

json doc(const std::string& text) { return lightrail::parse_json_text(text, "test"); }

std::string job_error(const std::string& text) {
  return error_of([&] { lp::job_from_json(doc(text)); });
}
std::string fabric_error(const std::string& text) {
  return error_of([&] { lp::fabric_from_json(doc(text)); });
}
std::string experiment_error(const json& spec) {
  return error_of([&] { lp::run_experiment(spec, LIGHTRAIL_EXPERIMENTS_DIR); });
}

// A 16-GPU data-parallel job with `phase` fields added to its one phase.
std::string job16(const std::string& top, const std::string& phase = "") {
  return R"({"gpus": 16, "gpus_per_node": 1, "parallelism": {"data": 16})" + top +
         R"(, "phases": [{"collective": "all_reduce")" + phase + "}]}";
}

json shipped(const std::string& name) {
  return lightrail::read_json_file(std::string(LIGHTRAIL_EXPERIMENTS_DIR) + "/" + name, name);
}

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

}  // namespace

TEST(PlannerInput, IntegersMustFitExactly) {
  // Both used to plan as 16 GPUs.
  EXPECT_HAS(job_error(R"({"gpus": 16.7, "gpus_per_node": 1, "parallelism": {"data": 16},
                           "phases": [{"collective": "all_reduce"}]})"),
             "job.gpus: must be an integer, not 16.7");
  EXPECT_HAS(job_error(R"({"gpus": 4294967312, "gpus_per_node": 1, "parallelism": {"data": 16},
                           "phases": [{"collective": "all_reduce"}]})"),
             "job.gpus: 4294967312 is out of range (1..1048576)");
  EXPECT_HAS(job_error(job16("", R"(, "groups": [[0, 1.5]])")),
             "job.phases[0].groups[0][1]: must be an integer");
  EXPECT_HAS(fabric_error(R"({"rails": 8.5})"), "fabric.rails: must be an integer, not 8.5");
  EXPECT_HAS(fabric_error(R"({"ocs_radix": 4294967552})"), "fabric.ocs_radix: 4294967552 is out of range");
  EXPECT_HAS(
      experiment_error({{"kind", "fastconv"}, {"ocs_ports", 1.5}, {"jobs", json::array({json::object()})}}),
      "experiment.ocs_ports: must be an integer, not 1.5");
}

TEST(PlannerInput, UnknownFieldsAreRefusedNamingThem) {
  // "megabyte" used to plan 0 bytes, "reconfiguration_ms" to keep the default.
  EXPECT_HAS(job_error(job16("", R"(, "megabyte": 100)")), "job.phases[0].megabyte: unknown field");
  EXPECT_HAS(job_error(job16(R"(, "gpu_per_node": 1)")), "job.gpu_per_node: unknown field");
  EXPECT_HAS(job_error(R"({"gpus": 16, "gpus_per_node": 1, "parallelism": {"data": 16, "dat": 2},
                           "phases": [{"collective": "all_reduce"}]})"),
             "job.parallelism.dat: unknown field");
  EXPECT_HAS(job_error(R"({"preset": "gpt", "gpus": 256, "gpus_per_node": 4})"),
             "job.gpus_per_node: not used with a preset");
  EXPECT_HAS(fabric_error(R"({"reconfiguration_ms": 5})"), "fabric.reconfiguration_ms: unknown field");
  EXPECT_HAS(experiment_error({{"kind", "opus"}, {"gpu", {256}}}), "experiment.gpu: unknown field");
  EXPECT_HAS(experiment_error({{"kind", "opus"}, {"fabric", {{"link_gb", 1}}}}),
             "experiment.fabric.link_gb: unknown field");
  EXPECT_HAS(experiment_error({{"kind", "pas"}, {"density", {1}}}), "experiment.density: unknown field");
  json fc = shipped("fastconv.json");
  fc["jobs"][1]["node"] = 4;
  EXPECT_HAS(experiment_error(fc), "experiment.jobs[1].node: unknown field");
  json pc = {{"kind", "power_cost"}, {"parts", shipped("parts.json")}};
  pc["parts"]["ocs_w_per_port"]["valeu"] = 1;
  pc["parts"]["fan_w"] = {{"value", 1}};
  const std::string e = experiment_error(pc);
  EXPECT_HAS(e, "experiment.parts.ocs_w_per_port.valeu: unknown field");
  EXPECT_HAS(e, "experiment.parts.fan_w: unknown part");
}

TEST(PlannerInput, EveryProblemIsNamedAtOnce) {
  const std::string e = job_error(R"({"gpus": 16, "gpus_per_node": 1.5, "parallelism": {"data": -2},
                                      "phases": [{"collective": "all_reduce", "megabytes": "ten",
                                                  "dimension": "rows"}]})");
  for (const char* where : {"job.gpus_per_node:", "job.parallelism.data:", "job.phases[0].megabytes:",
                            "job.phases[0].dimension: unknown dimension"})
    EXPECT_HAS(e, where);
  const std::string f = fabric_error(R"({"rails": 0, "link_gbps": 1e-9, "mode": "packet"})");
  for (const char* where : {"fabric.rails:", "fabric.link_gbps:", "fabric.mode:"}) EXPECT_HAS(f, where);
}

TEST(PlannerInput, OneQuantityInTwoUnitsIsRefused) {
  EXPECT_HAS(job_error(job16("", R"(, "compute_ms": 1, "compute_ps": 5)")),
             "job.phases[0].compute_ps: give compute_ms or compute_ps, not both");
  EXPECT_HAS(job_error(job16("", R"(, "megabytes": 1, "bytes": 5)")),
             "job.phases[0].bytes: give megabytes or bytes, not both");
  EXPECT_HAS(fabric_error(R"({"reconfiguration_us": 1, "reconfiguration_ps": 5})"),
             "fabric.reconfiguration_ps: give reconfiguration_us or reconfiguration_ps, not both");
}

TEST(PlannerInput, ValuesBeyondTheModelAreRefusedNamingTheLimit) {
  // 1e30 MB used to convert to a negative byte count.
  EXPECT_HAS(job_error(job16("", R"(, "megabytes": 1e30)")),
             "job.phases[0].megabytes: 1e+30 is out of range (0..1000000000)");
  EXPECT_HAS(job_error(job16("", R"(, "compute_ms": 1e20)")),
             "job.phases[0].compute_ms: 1e+20 is out of range");
  // A link this slow used to overflow the picoseconds and drop the communication.
  EXPECT_HAS(fabric_error(R"({"link_gbps": 1e-9})"),
             "fabric.link_gbps: 1e-09 is out of range (0.001..1000000)");
  EXPECT_HAS(fabric_error(R"({"reconfiguration_us": 1e300})"),
             "fabric.reconfiguration_us: 1e+300 is out of range");
  EXPECT_HAS(fabric_error(R"({"eps_oversubscription": 0.5})"),
             "fabric.eps_oversubscription: 0.5 is out of range");
  EXPECT_HAS(fabric_error(R"({"ports_per_nic": 5000})"),
             "fabric.ports_per_nic: 5000 is out of range (1..1024)");
}

TEST(PlannerInput, ParallelismProductDoesNotWrap) {
  // 2^16 x 2^16 x 2^16 x 2^16 = 2^64 used to wrap to 0.
  EXPECT_HAS(job_error(R"({"gpus": 16, "gpus_per_node": 1, "phases": [{"collective": "all_reduce"}],
                           "parallelism": {"tensor": 65536, "context": 65536, "pipeline": 65536, "data": 65536}})"),
             "= 1.845e+19, but job.gpus is 16");
}

TEST(PlannerInput, ADimensionOfOneRankNamesTheField) {
  // Used to fail in the planner with "a collective needs at least 2 ranks, got 1".
  EXPECT_HAS(
      job_error(job16("", R"(, "dimension": "tensor")")),
      "job.phases[0].dimension: a tensor collective needs at least 2 ranks, but job.parallelism.tensor is 1");
  EXPECT_HAS(job_error(R"({"gpus": 1, "phases": [{"collective": "all_reduce", "dimension": "world"}]})"),
             "job.phases[0].dimension: a world collective needs at least 2 ranks, but job.gpus is 1");
}

TEST(PlannerInput, ElectricalBandwidthDefaultsToTheLinks) {
  // "Ideal electrical rails: the same bandwidth": an EPS of link_gbps unless eps_gbps says otherwise.
  const lp::Fabric only_link =
      lp::fabric_from_json(doc(R"({"rails": 1, "ocs_radix": 64, "link_gbps": 100})"));
  EXPECT_DOUBLE_EQ(only_link.eps_bytes_per_ps(), only_link.link_bytes_per_ps());
  EXPECT_EQ(lp::to_json(only_link)["eps_gbps"], 100.0);
  const lp::Fabric both =
      lp::fabric_from_json(doc(R"({"rails": 1, "ocs_radix": 64, "link_gbps": 100, "eps_gbps": 100})"));
  const lp::Job job = lp::cnn_preset(16, 1);
  EXPECT_EQ(lp::electrical_iteration(lp::plan_opus(job, only_link)).total_ps(),
            lp::electrical_iteration(lp::plan_opus(job, both)).total_ps());
  const lp::Fabric slower =
      lp::fabric_from_json(doc(R"({"rails": 1, "ocs_radix": 64, "link_gbps": 100, "eps_gbps": 50})"));
  EXPECT_GT(lp::electrical_iteration(lp::plan_opus(job, slower)).total_ps(),
            lp::electrical_iteration(lp::plan_opus(job, both)).total_ps());
}

TEST(PlannerInput, ExperimentFieldsAreCheckedWhereTheyAreGiven) {
  EXPECT_HAS(experiment_error({{"kind", "opus"}, {"gpus", {100}}}),
             "experiment.gpus[0]: job.gpus: the gpt preset");
  EXPECT_HAS(experiment_error({{"kind", "opus"}, {"reconfiguration_us", {-1}}}),
             "experiment.reconfiguration_us[0]: -1 is out of range");
  EXPECT_HAS(experiment_error({{"kind", "pas"}, {"duty", 2}}), "experiment.duty: 2 is out of range (0..1)");
  EXPECT_HAS(experiment_error({{"kind", "pas"}, {"nodes_per_job", {1}}}),
             "experiment.nodes_per_job[0]: 1 is out of range (2..");
  EXPECT_HAS(experiment_error({{"kind", "pas"}, {"patterns", {"direct"}}}),
             "experiment.patterns[0]: \"direct\" is not an all_reduce algorithm");
  // Nothing takes time on the circuits: the acceleration would be 0/0.
  EXPECT_HAS(experiment_error({{"kind", "pas"},
                               {"megabytes", {0}},
                               {"fabric", {{"rails", 1}, {"circuit_latency_ps", 0}, {"eps_latency_ps", 0}}}}),
             "experiment.megabytes: 0 MB");
}

TEST(PlannerInput, PowerCostFiguresMustKeepEveryRowDefined) {
  json pc = {{"kind", "power_cost"}, {"parts", shipped("parts.json")}};
  // Its x0.5 row is a 2-port switch, which used to loop forever counting tiers.
  pc["parts"]["eps_switch_radix"]["value"] = 4;
  EXPECT_HAS(experiment_error(pc), "experiment.parts.eps_switch_radix.value: 4 is out of range (8..");
  pc["parts"]["eps_switch_radix"]["value"] = 128;
  pc["parts"]["ocs_w_per_port"]["value"] = 0;  // divides the power ratio
  EXPECT_HAS(experiment_error(pc), "experiment.parts.ocs_w_per_port.value: 0 is out of range (above 0");
  pc["parts"]["ocs_w_per_port"]["value"] = 1e300;
  EXPECT_HAS(experiment_error(pc), "experiment.parts.ocs_w_per_port.value: 1e+300 is out of range");
}

TEST(PlannerInput, FastConvRefusesEpochsAndFractionsOutsideTheirRange) {
  json fc = shipped("fastconv.json");
  for (double epoch : {0.0, -1.0}) {  // used to loop forever
    fc["epoch_s"] = epoch;
    EXPECT_HAS(experiment_error(fc), "experiment.epoch_s:");
  }
  fc["epoch_s"] = 1e-9;  // positive but ~10^13 steps
  EXPECT_HAS(experiment_error(fc), "experiment.epoch_s: steps of");
  fc["epoch_s"] = 5;
  fc["release_fraction"] = 7;
  EXPECT_HAS(experiment_error(fc), "experiment.release_fraction: 7 is out of range (0..1)");
  fc["release_fraction"] = 0.85;
  fc["jobs"][0]["curve"] = {0.1, 0.5};
  EXPECT_HAS(experiment_error(fc), "experiment.jobs[0].curve: give tau or curve, not both");
  fc["jobs"][0].erase("tau");
  fc["jobs"][0]["curve"] = {0.1, 1.5};
  EXPECT_HAS(experiment_error(fc), "experiment.jobs[0].curve[1]: 1.5 is out of range (0..1)");
}

TEST(PlannerInput, FastConvCountsJobsThatNeverReachNinetyPercentApart) {
  json fc = shipped("fastconv.json");
  // 2.3 tau iterations reach 90% of peak; 100 of tau 500 never do.
  fc["jobs"][3]["iterations"] = 100;
  const json r = lp::run_experiment(fc);
  const json& rows = r["rows"];
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[4][0], "mean");
  EXPECT_EQ(rows[5], json({"not reached", "1 of 4", "1 of 4", "1 of 4"}));
  for (int policy = 1; policy <= 3; ++policy) {
    EXPECT_TRUE(rows[3][policy].is_null()) << policy;
    const double sum =
        rows[0][policy].get<double>() + rows[1][policy].get<double>() + rows[2][policy].get<double>();
    EXPECT_DOUBLE_EQ(rows[4][policy].get<double>(), sum / 3) << policy;  // over the jobs that reached it
  }
  EXPECT_HAS(lp::render_table(r), "not reached");
  // None reaches it: no mean at all, rather than -1.
  for (auto& j : fc["jobs"]) j["iterations"] = 100;
  const json none = lp::run_experiment(fc);
  EXPECT_EQ(none["rows"][4], json({"mean", nullptr, nullptr, nullptr}));
  EXPECT_EQ(none["rows"][5], json({"not reached", "4 of 4", "4 of 4", "4 of 4"}));
}
