#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>

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
  const CliRun r = lightrail("upload --json --commit-at now+1000000000 --device " + server.uri() + " " +
                             example("awgr_doubling.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["commit_at_ps"], 1001000000);
  EXPECT_EQ(board.commit_time, 8008000u);
  // A unit says the same: 2 ms after the board's 1 us.
  const CliRun ms = lightrail("upload --json --commit-at now+2ms --device " + server.uri() + " " +
                              example("awgr_doubling.json"));
  EXPECT_EQ(ms.code, 0) << ms.err;
  EXPECT_EQ(nlohmann::json::parse(ms.out)["commit_at_ps"], 2001000000);
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
  const CliRun r = lightrail("upload --commit-at 2000000000 --device " + server.uri() + " " +
                             example("awgr_doubling.json"));
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
  const std::string plan = std::string("plan --as-declared ") + LIGHTRAIL_EXPERIMENTS +
                           "/cnn-16.job.json --fabric " + LIGHTRAIL_EXPERIMENTS +
                           "/pas-64.fabric.json --out ";
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
  const CliRun big =
      lightrail(std::string("plan --as-declared ") + LIGHTRAIL_EXPERIMENTS + "/gpt-2048.job.json --fabric " +
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

// Writes `text` to a fresh file under the test's temp dir; returns its path.
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A valid reference-board schedule with `fields` spliced into its top level.
std::string schedule_with(const std::string& fields) {
  std::string ports = "[";
  for (int p = 0; p < 16; ++p) ports += std::string(p ? ", " : "") + "1";
  ports += "]";
  return R"({"lightrail_schedule": 1, )" + fields + R"("configs": [{"ports": )" + ports +
         R"(}], "steps": [{"config": 0, "duration_ps": 16000}]})";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Cli, NumbersBeyondDoubleRangeAreInvalidInputNamingTheField) {
  // These used to abort (exit 134) with an uncaught nlohmann exception.
  FakeBoard board;
  LoopbackServer server(board);
  const std::string exp = write_file("cli_1e400.json", schedule_with(R"("generation": 1e400, )"));
  const std::string digits =
      write_file("cli_digits.json", schedule_with(R"("guard_ps": )" + std::string(400, '9') + ", "));
  for (const auto& [path, field] : {std::pair{exp, "generation"}, std::pair{digits, "guard_ps"}}) {
    const CliRun v = lightrail("validate " + path);
    EXPECT_EQ(v.code, 1) << v.err;
    EXPECT_TRUE(contains(v.err, path + ": " + field + ": number")) << v.err;
    const CliRun u = lightrail("upload --device " + server.uri() + " " + path);
    EXPECT_EQ(u.code, 1) << u.err;
    EXPECT_TRUE(contains(u.err, field)) << u.err;
  }
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Cli, DuplicateKeysAreInvalidInput) {
  FakeBoard board;
  LoopbackServer server(board);
  const std::string path = write_file("cli_dup.json", schedule_with(R"("generation": 1, "generation": 2, )"));
  const CliRun v = lightrail("validate " + path);
  EXPECT_EQ(v.code, 1);
  EXPECT_TRUE(contains(v.err, path + ": generation: duplicate key")) << v.err;
  const CliRun u = lightrail("upload --device " + server.uri() + " " + path);
  EXPECT_EQ(u.code, 1);
  EXPECT_TRUE(board.write_log.empty());
  EXPECT_EQ(board.generation, 0u);
}

TEST(Cli, ContentAfterANulIsInvalidInput) {
  const std::string path = write_file("cli_nul.json", schedule_with("") + std::string(1, '\0') + "{}");
  const CliRun r = lightrail("validate " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "NUL")) << r.err;
}

TEST(Cli, ValidateReportsFormatAndValidationProblemsTogether) {
  // An unknown field and a step too short for the board: both, at once.
  std::string text = schedule_with(R"("colour": "blue", )");
  text.replace(text.find("16000"), 5, "100");
  const std::string path = write_file("cli_both.json", text);
  const CliRun r = lightrail("validate " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, path + ": colour: unknown field")) << r.err;
  EXPECT_TRUE(contains(r.err, path + ": steps[0].duration_ps: 100 ps is shorter")) << r.err;
  EXPECT_TRUE(contains(r.err, "2 problems against the reference board")) << r.err;
  const auto doc = nlohmann::json::parse(lightrail("validate --json " + path).out);
  ASSERT_EQ(doc["problems"].size(), 2u) << doc.dump();
  EXPECT_EQ(doc["problems"][0]["where"], "colour");
  EXPECT_EQ(doc["problems"][1]["where"], "steps[0].duration_ps");

  // A field that cannot be read: its format problem, and no guesses.
  const std::string gap = write_file("cli_gap.json", schedule_with(R"("guard_ps": "wide", )"));
  const CliRun g = lightrail("validate " + gap);
  EXPECT_EQ(g.code, 1);
  EXPECT_TRUE(contains(g.err, gap + ": guard_ps: must be an integer")) << g.err;
  EXPECT_TRUE(contains(g.err, "1 format problem")) << g.err;
}

TEST(Cli, ControlCharactersNeverSplitAProblem) {
  const std::string path = write_file(
      "cli_ctrl.json",
      R"({"lightrail_schedule": 1, "configs": [{"name": "a\nb: fake", "ports": [1]},)"
      R"( {"name": "a\nb: fake", "ports": [1]}], "steps": [{"config": "\u001b[31m", "duration_ps": 16000}]})");
  const CliRun r = lightrail("validate " + path);
  EXPECT_EQ(r.code, 1);
  std::istringstream lines(r.err);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    EXPECT_EQ(line.rfind(path + ": ", 0), 0u) << line;
    EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
  }
  EXPECT_EQ(n, 3) << r.err;  // two problems and the count
  EXPECT_TRUE(contains(r.err, R"("a\nb: fake")")) << r.err;
}

TEST(Cli, NamesThatAreNotUtf8StillGiveJson) {
  // nlohmann refuses to dump invalid UTF-8: this used to abort (exit 134).
  const std::string path = ::testing::TempDir() + "cli_bad\xff.json";
  const CliRun r = lightrail("validate --json '" + path + "'");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_FALSE(doc["ok"].get<bool>());
  EXPECT_TRUE(contains(r.err, "cli_bad\\xff.json")) << r.err;
}

TEST(Cli, NothingEndsInTerminate) {
  // eval's reader (host/planner) lets nlohmann's out_of_range escape: the
  // top level maps it to invalid input instead of std::terminate (134).
  const std::string path = write_file("cli_eval_1e400.json", R"({"experiment": 1e400})");
  const CliRun r = lightrail("eval " + path);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(contains(r.err, "terminate")) << r.err;
}

TEST(Cli, MalformedDeviceUrisAreInvalidInputNamingThePart) {
  // Port 70000 used to wrap silently to 4464.
  const CliRun port = lightrail("status --device sim://127.0.0.1:70000/0");
  EXPECT_EQ(port.code, 1) << port.err;
  EXPECT_TRUE(contains(port.err, "port \"70000\" is not a port number (1..65535)")) << port.err;
  const CliRun board = lightrail("sync status --device sim://127.0.0.1:7000/x");
  EXPECT_EQ(board.code, 1) << board.err;
  EXPECT_TRUE(contains(board.err, "board \"x\"")) << board.err;
  const CliRun scheme = lightrail("status --device tcp://127.0.0.1:7000/0");
  EXPECT_EQ(scheme.code, 1) << scheme.err;
  EXPECT_TRUE(contains(scheme.err, "unknown device URI scheme")) << scheme.err;
}

TEST(Cli, AServerThatIsNotABoardIsADeviceError) {
  FakeBoard board;
  board.poke(lightrail::hwdef::REG_CAP_MAGIC, 0);  // answers, but no capability block
  LoopbackServer server(board);
  for (const std::string& command :
       {"status --device " + server.uri(),
        "validate --device " + server.uri() + " " + example("awgr_doubling.json"),
        "upload --device " + server.uri() + " " + example("awgr_doubling.json"),
        "sync status --device " + server.uri()}) {
    const CliRun r = lightrail(command);
    EXPECT_EQ(r.code, 3) << command << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "not a lightrail board")) << r.err;
  }
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Cli, CommitAtIsParsedStrictlyBeforeAnythingIsWritten) {
  FakeBoard board;
  LoopbackServer server(board);
  for (const char* bad :
       {"now+9223372036854775807", "now+99999999999999999999", "9223372036854775807s", "1e3", "+5", "' 5'",
        "0x10", "now+", "now+-5", "now+5s5", "5xs", "'5 ps'", "NOW+5", "now+1000"}) {
    const CliRun r = lightrail(std::string("upload --commit-at ") + bad + " --device " + server.uri() + " " +
                               example("awgr_doubling.json"));
    EXPECT_EQ(r.code, 1) << bad << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "--commit-at")) << bad << "\n" << r.err;
  }
  EXPECT_TRUE(board.write_log.empty());
}

TEST(Cli, CommitTimeInThePastIsRefusedBeforeStaging) {
  FakeBoard board;
  board.time_ticks = 8'000'000;  // 1 ms
  LoopbackServer server(board);
  const CliRun past =
      lightrail("upload --commit-at 5 --device " + server.uri() + " " + example("awgr_doubling.json"));
  EXPECT_EQ(past.code, 1) << past.err;
  EXPECT_TRUE(contains(past.err, "--commit-at 5: 5 ps is before the board's time 1000000000 ps")) << past.err;
  const CliRun close = lightrail("upload --commit-at 1000000001 --device " + server.uri() + " " +
                                 example("awgr_doubling.json"));
  EXPECT_EQ(close.code, 1) << close.err;
  EXPECT_TRUE(contains(close.err, "too close after")) << close.err;
  // The file's own activation time is held to the same rule, by its field.
  const std::string path =
      write_file("cli_activation.json", schedule_with(R"("activation": {"at_ps": 5}, )"));
  const CliRun file = lightrail("upload --device " + server.uri() + " " + path);
  EXPECT_EQ(file.code, 1) << file.err;
  EXPECT_TRUE(contains(file.err, path + ": activation.at_ps: 5 ps is before")) << file.err;
  EXPECT_TRUE(board.write_log.empty());

  const CliRun ok = lightrail("upload --json --commit-at 2ms --device " + server.uri() + " " +
                              example("awgr_doubling.json"));
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(ok.out)["commit_at_ps"], 2'000'000'000);
}

}  // namespace
