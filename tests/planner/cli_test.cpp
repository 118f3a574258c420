// `lightrail plan` and `lightrail eval` as a user runs them: faults of the
// JSON text itself name the file and the path and exit 1, and a plan goes
// as far as the model does unless board schedules are asked for.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_cli.hpp"

namespace {

using lightrail::test::CliRun;
CliRun run(const std::string& args) { return lightrail::test::lightrail(args); }

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

std::string experiments(const std::string& name) { return std::string(LIGHTRAIL_EXPERIMENTS) + "/" + name; }

// A file of `text` in a directory of this test's own.
class PlannerCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/lightrail-planner-cli-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

}  // namespace

TEST_F(PlannerCli, DuplicateKeysAndHugeNumbersAreRefusedNamingTheFile) {
  const std::string fabric = experiments("pas-64.fabric.json");
  const std::string dup =
      file("dup.job.json", R"({"gpus": 16, "gpus_per_node": 1, "parallelism": {"data": 16},
    "phases": [{"collective": "all_reduce", "megabytes": 1, "megabytes": 100}]})");
  CliRun r = run("plan " + dup + " --fabric " + fabric);
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.err, "job " + dup + ":\nphases[0].megabytes: duplicate key");

  const std::string huge = file("huge.fabric.json", R"({"rails": 1, "link_gbps": 1e400})");
  r = run("plan " + experiments("cnn-16.job.json") + " --fabric " + huge);
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.err, "fabric " + huge + ":");
  EXPECT_HAS(r.err, "link_gbps");

  const std::string typo =
      file("typo.job.json", R"({"gpus": 16, "gpus_per_node": 1, "parallelism": {"data": 16},
    "phases": [{"collective": "all_reduce", "megabyte": 100}]})");
  r = run("plan " + typo + " --fabric " + fabric);
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.err, "job.phases[0].megabyte: unknown field");
}

TEST_F(PlannerCli, EvalReadsThePartsTableStrictly) {
  std::string parts;
  {
    std::ifstream in(experiments("parts.json"));
    parts.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The last figure given twice: last-wins would silently use 64.
  const auto end = parts.rfind('}');
  file("parts.json", parts.substr(0, end) + R"(, "eps_switch_radix": {"value": 64}})");
  const std::string spec = file("power_cost.json", R"({"kind": "power_cost", "parts": "parts.json"})");
  const CliRun r = run("eval " + spec);
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.err, "experiment.parts (" + dir_ + "/parts.json):\neps_switch_radix: duplicate key");
}

TEST_F(PlannerCli, PlanReachesWhatTheModelReachesUnlessBoardsAreAsked) {
  // 4,096 GPUs need 512 ports a rail: beyond a 16x16 Clos of boards, not
  // beyond the model.
  const std::string job = file("gpt.job.json", R"({"preset": "gpt", "gpus": 4096})");
  const std::string fabric = file("rails.fabric.json", R"({"rails": 8, "ocs_radix": 512})");
  CliRun r = run("plan " + job + " --fabric " + fabric);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "iteration: electrical");
  EXPECT_HAS(r.out, "schedules: none (fabric.ocs_radix: rail 0 needs 512 switch ports");
  r = run("plan --json " + job + " --fabric " + fabric);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "\"boards_not_made\"");
  r = run("plan " + job + " --fabric " + fabric + " --out " + dir_ + "/out");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.err, "fabric.ocs_radix: rail 0 needs 512 switch ports");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/out"));
}

TEST_F(PlannerCli, NamesFromTheInputCannotDriveTheTerminal) {
  const std::string job = file("esc.job.json", R"({"name": "a\u001b[31mred", "gpus": 16, "gpus_per_node": 1,
    "parallelism": {"data": 16}, "phases": [{"name": "p\nq", "collective": "all_reduce"}]})");
  CliRun r = run("plan " + job + " --fabric " + experiments("pas-64.fabric.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "job a\\u001b[31mred:");
  EXPECT_HAS(r.out, "p\\nq ");
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  const std::string spec =
      file("fc.json", R"({"kind": "fastconv", "jobs": [{"name": "j\u001b[2J", "iterations": 10}]})");
  r = run("eval " + spec);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "j\\u001b[2J");
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

// `plan` says what it chose and why; --as-declared plans the job's own
// algorithms on circuits and, when that is slower than the electrical
// fallback, says so and names the way out.
TEST_F(PlannerCli, PlanSaysWhatItChoseAndWarnsWhenTheDeclaredPlanLoses) {
  const std::string job = experiments("moe-512.job.json");
  const std::string fabric = experiments("moe-512.fabric.json");
  CliRun r = run("plan " + job + " --fabric " + fabric);
  EXPECT_EQ(r.code, 0) << r.err;
  // 512 GPUs, tensor 8 in a node: 64 expert groups of 8 ranks on 8 nodes.
  EXPECT_HAS(r.out, "moe0_dispatch   64x8 nodes      electrical  direct");
  EXPECT_HAS(r.out, "moe0_dispatch: kept electrical (direct)");
  EXPECT_EQ(r.out.find("warning:"), std::string::npos) << r.out;
  r = run("plan --as-declared " + job + " --fabric " + fabric);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "warning: this plan is +");
  EXPECT_HAS(r.out, "plan without --as-declared to let the planner keep phases electrical");
  r = run("plan --json " + job + " --fabric " + fabric);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_HAS(r.out, "\"network\": \"electrical\"");
  EXPECT_HAS(r.out, "\"ranks_per_group\": 8");
  EXPECT_HAS(r.out, "\"slower_than_electrical\": false");
  EXPECT_HAS(r.out, "\"why\": \"kept electrical (direct)");
}
