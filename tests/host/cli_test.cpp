#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "fake_board.hpp"
#include "lightrail/hwdef.hpp"
#include "loopback_server.hpp"
#include "run_cli.hpp"

namespace {

using lightrail::test::FakeBoard;
using lightrail::test::LoopbackServer;

using lightrail::test::CliRun;
using lightrail::test::lightrail;

std::string example(const std::string& name) { return std::string(LIGHTRAIL_EXAMPLES) + "/" + name; }

TEST(Cli, ValidExamplesPass) {
  for (const char* name : {"awgr_doubling.json", "phases_oneshot.json"}) {
    const CliRun r = lightrail("validate " + example(name));
    EXPECT_EQ(r.code, 0) << name << r.err;
    EXPECT_NE(r.out.find("valid for the reference board"), std::string::npos) << r.out;
  }
}

TEST(Cli, InvalidExampleListsEveryProblem) {
  const CliRun r = lightrail("validate " + example("invalid.json"));
  EXPECT_EQ(r.code, 1);
  for (const char* where :
       {"configs[2].ports:", "configs[3].ports[4]:", "steps[2].duration_ps:", "steps[3].config:",
        "steps[4].duration_ps:", "steps[0]: tune 0->63", "steps[1]: tune 63->0"}) {
    EXPECT_NE(r.err.find(where), std::string::npos) << where << "\n" << r.err;
  }
  EXPECT_NE(r.err.find("8 problems"), std::string::npos) << r.err;
}

TEST(Cli, ValidateJsonIsMachineReadable) {
  const CliRun r = lightrail("validate --json " + example("invalid.json"));
  EXPECT_EQ(r.code, 1);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  ASSERT_EQ(doc["problems"].size(), 8u);
  EXPECT_EQ(doc["problems"][0]["where"], "configs[2].ports");
}

TEST(Cli, ParseErrorsNameFileAndPath) {
  const std::string path = ::testing::TempDir() + "cli_typo.json";
  std::ofstream(path) << R"({"lightrail_schedule": 1, "configs": [{"ports": [1]}],
                            "steps": [{"config": 0, "duraton_ps": 5}]})";
  const CliRun r = lightrail("validate " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(path + ": steps[0].duraton_ps: unknown field"), std::string::npos) << r.err;
}

TEST(Cli, MissingArgumentsAreUsageErrors) {
  EXPECT_EQ(lightrail("validate").code, 2);
  EXPECT_EQ(lightrail("upload " + example("awgr_doubling.json")).code, 2);  // no --device
}

TEST(Cli, UnreachableDeviceIsADeviceError) {
  const CliRun r = lightrail("status --device sim://127.0.0.1:1/0");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("sim://127.0.0.1:1/0"), std::string::npos) << r.err;
}

TEST(Cli, UploadStagesAndCommits) {
  FakeBoard board;
  LoopbackServer server(board);
  const CliRun r = lightrail("upload --device " + server.uri() + " " + example("awgr_doubling.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("committed for the next epoch boundary"), std::string::npos) << r.out;
  EXPECT_EQ(board.active_bank, 1u);
  EXPECT_EQ(board.generation, 1u);

  const CliRun st = lightrail("status --json --device " + server.uri());
  EXPECT_EQ(st.code, 0) << st.err;
  const auto doc = nlohmann::json::parse(st.out);
  EXPECT_EQ(doc["active_bank"], 1);
  EXPECT_EQ(doc["generation"], 1);
  EXPECT_TRUE(doc["running"].get<bool>());
}

TEST(Cli, UploadCommitAtRelativeTime) {
  FakeBoard board;
  board.time_ticks = 8000;  // 1 us
  LoopbackServer server(board);
  const CliRun r = lightrail("upload --json --commit-at now+1000000 --device " + server.uri() + " " +
                             example("awgr_doubling.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["commit_at_ps"], 2000000);
  EXPECT_EQ(board.commit_time, 16000u);
}

TEST(Cli, InvalidUploadNeverWritesTheDevice) {
  FakeBoard board;
  LoopbackServer server(board);
  const CliRun r = lightrail("upload --device " + server.uri() + " " + example("invalid.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("configs[3].ports[4]"), std::string::npos) << r.err;
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Cli, CommitRefusalIsADeviceError) {
  FakeBoard board;
  board.force_commit_error = lightrail::hwdef::ERROR_COMMIT_LATE_MASK;
  LoopbackServer server(board);
  const CliRun r =
      lightrail("upload --commit-at 5 --device " + server.uri() + " " + example("awgr_doubling.json"));
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("COMMIT_LATE"), std::string::npos) << r.err;
}

TEST(Cli, BadCommitAtIsInvalidInput) {
  FakeBoard board;
  LoopbackServer server(board);
  const CliRun r =
      lightrail("upload --commit-at soon --device " + server.uri() + " " + example("awgr_doubling.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--commit-at"), std::string::npos) << r.err;
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Cli, PlanWritesUploadableSchedulesOrNamesTheBadOutDir) {
  const std::string plan = std::string("plan ") + LIGHTRAIL_EXPERIMENTS + "/cnn-16.job.json --fabric " +
                           LIGHTRAIL_EXPERIMENTS + "/pas-64.fabric.json --out ";
  char dir[] = "/tmp/lightrail-plan-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const CliRun r = lightrail(plan + dir + "/out");
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string board0 = std::string(dir) + "/out/rail0-ocs-0.json";
  EXPECT_NE(r.err.find("wrote " + board0), std::string::npos) << r.err;
  const CliRun v = lightrail("validate " + board0);
  EXPECT_EQ(v.code, 0) << v.err;

  // Every board of a big plan gets its own file (indices restart per rail
  // and role).
  const CliRun big = lightrail(std::string("plan ") + LIGHTRAIL_EXPERIMENTS + "/gpt-2048.job.json --fabric " +
                               LIGHTRAIL_EXPERIMENTS + "/rails-2048.fabric.json --out " + dir + "/gpt");
  EXPECT_EQ(big.code, 0) << big.err;
  size_t files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(std::string(dir) + "/gpt"))
    ++files;
  EXPECT_EQ(files, 384u);

  // A directory that cannot be made (a file stands in its path).
  std::ofstream(board0) << "{}";
  const CliRun bad = lightrail(plan + board0 + "/x");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("--out " + board0 + "/x"), std::string::npos) << bad.err;
  std::filesystem::remove_all(dir);
}

TEST(Cli, TriggerAndStop) {
  FakeBoard board;
  LoopbackServer server(board);
  EXPECT_EQ(lightrail("trigger --device " + server.uri()).code, 0);
  EXPECT_EQ(lightrail("stop --device " + server.uri()).code, 0);
  EXPECT_EQ(board.triggers, 1);
  EXPECT_EQ(board.stops, 1);
}

}  // namespace
