// `lightrail job ...` as a user runs it, against lightraild's HTTP layer
// over the fake service (lightraild-fake): replies, errors naming the
// daemon's field, and the exit codes.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using lightrail::test::lightrail;
using nlohmann::json;

constexpr const char* kToken = "cli-test-token-0123456789abcdef";

class JobCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("lightrail_jobcli_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    token_ = write_token("token", kToken, 0600);
    const std::string port_file = (dir_ / "port").string();
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      execl(LIGHTRAILD_FAKE, LIGHTRAILD_FAKE, "--token-file", token_.c_str(), "--port-file",
            port_file.c_str(), nullptr);
      _exit(127);
    }
    for (int i = 0; i < 2000 && !fs::exists(port_file); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(port_file);
    int port = 0;
    in >> port;
    ASSERT_GT(port, 0) << "the fake daemon did not start";
    url_ = "http://127.0.0.1:" + std::to_string(port);
  }
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
    fs::remove_all(dir_);
  }
  std::string write_token(const std::string& name, const std::string& text, mode_t mode) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text << "\n";
    ::chmod(p.c_str(), mode);
    return p;
  }
  lightrail::test::CliRun job(const std::string& args, bool with_token = true) {
    return lightrail("job " + args + " --daemon " + url_ + (with_token ? " --token-file " + token_ : ""));
  }
  std::string submit() {
    const auto r = job("submit " LIGHTRAIL_EXPERIMENTS "/cnn-16.job.json --json");
    EXPECT_EQ(r.code, 0) << r.err;
    return json::parse(r.out).at("id").get<std::string>();
  }

  fs::path dir_;
  std::string token_, url_;
  pid_t pid_ = -1;
};

TEST_F(JobCli, EveryCommandReachesTheDaemon) {
  auto r = job("submit " LIGHTRAIL_EXPERIMENTS
               "/cnn-16.job.json --target-accuracy 0.9 --wait-for-circuits --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json submitted = json::parse(r.out);
  const std::string id = submitted.at("id");
  EXPECT_EQ(submitted.at("job").at("name"), "cnn-16");  // the job file, sent as it is
  EXPECT_EQ(submitted.at("target_accuracy"), 0.9);
  EXPECT_EQ(submitted.at("wait_for_circuits"), true);
  r = job("phase " + id + " gradients");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("boundary_ps=1000000"), std::string::npos) << r.out;  // one line without --json
  r = job("phase " + id + " 0 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("phase"), 0);  // an index is sent as a number
  // A job file's phases replace the job's ({"phases": [...]} is sent).
  r = job("phases " + id + " " LIGHTRAIL_EXPERIMENTS "/cnn-16.job.json --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("phases"), submitted.at("job").at("phases"));
  r = job("progress " + id + " 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  r = job("list", false);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, id + "  state=running  phase=0\n");
  r = job("show " + id + " --json", false);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("accuracy"), 0.5);
  EXPECT_EQ(json::parse(r.out).at("schema"), "lightrail.job/1");
  r = job("delete " + id);
  ASSERT_EQ(r.code, 0) << r.err;
  r = job("show " + id, false);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("daemon refused GET /v1/jobs/" + id + " (HTTP 404) at id: no job " + id),
            std::string::npos)
      << r.err;
  r = job("list", false);
  EXPECT_EQ(r.out, "no jobs\n");
}

TEST_F(JobCli, RefusalsNameTheDaemonsFieldAndMapToExitCodes) {
  const std::string id = submit();
  auto r = job("phase " + id + " 0 --timeout-ms 5000");
  ASSERT_EQ(r.code, 0);
  // The Service's own 400 and its field.
  const std::string bad = (dir_ / "bad.json").string();
  std::ofstream(bad) << R"({"name": "conflict"})";
  r = job("submit " + bad);
  EXPECT_EQ(r.code, 4) << r.err;  // 409: a conflict, nothing done
  EXPECT_NE(r.err.find("(HTTP 409) at job.name: a job of that name holds the circuits"), std::string::npos)
      << r.err;
  // The job file's own faults never reach the daemon.
  std::ofstream(bad) << R"({"name": "a", "name": "b"})";
  r = job("submit " + bad);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("duplicate key"), std::string::npos) << r.err;
  r = job("phase a/b 0");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("job id"), std::string::npos) << r.err;
  r = job("progress " + id + " 1.5");
  EXPECT_EQ(r.code, 2);  // out of range: the command line's
}

TEST_F(JobCli, TokenIsNeededForStateChangesOnly) {
  const std::string id = submit();
  auto r = job("phase " + id + " 0");
  ASSERT_EQ(r.code, 0) << r.err;
  r = job("phase " + id + " 1", false);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--token-file"), std::string::npos) << r.err;
  const std::string wrong = write_token("wrong", "wrong-token-0123456789abcdef", 0600);
  r = lightrail("job phase " + id + " 1 --daemon " + url_ + " --token-file " + wrong);
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.err.find("(HTTP 401) at Authorization: wrong token"), std::string::npos) << r.err;
  const std::string open = write_token("open", kToken, 0644);
  r = lightrail("job delete " + id + " --daemon " + url_ + " --token-file " + open);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("group or others may use it"), std::string::npos) << r.err;
  // Nothing changed: the phase is still the one set with the token.
  r = job("show " + id + " --json", false);
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(json::parse(r.out).at("phase"), 0);
}

TEST_F(JobCli, UrlAndTokenFromTheEnvironment) {
  setenv("LIGHTRAILD_URL", url_.c_str(), 1);
  setenv("LIGHTRAILD_TOKEN_FILE", token_.c_str(), 1);
  auto r = lightrail("job submit " LIGHTRAIL_EXPERIMENTS "/cnn-16.job.json --json");
  EXPECT_EQ(r.code, 0) << r.err;
  r = lightrail("job list");
  EXPECT_EQ(r.code, 0) << r.err;
  unsetenv("LIGHTRAILD_URL");
  unsetenv("LIGHTRAILD_TOKEN_FILE");
  r = lightrail("job list");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("LIGHTRAILD_URL"), std::string::npos) << r.err;
}

TEST_F(JobCli, UnreachableSilentOrMalformedDaemon) {
  for (const char* url : {"https://127.0.0.1:1", "http://127.0.0.1", "http://127.0.0.1:0",
                          "http://127.0.0.1:1/x", "http://::1:80", "127.0.0.1:80"}) {
    const auto r = lightrail(std::string("job list --daemon ") + url);
    EXPECT_EQ(r.code, 2) << url << ": " << r.err;
  }
  // A port nobody listens on: bind one, then close it.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string port = std::to_string(ntohs(a.sin_port));
  auto r = lightrail("job list --daemon http://127.0.0.1:" + port);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("cannot connect to lightraild at 127.0.0.1:" + port), std::string::npos) << r.err;
  // Listening but never answering: the deadline ends it.
  ASSERT_EQ(::listen(fd, 4), 0);
  r = lightrail("job list --timeout-ms 300 --daemon http://127.0.0.1:" + port);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("no answer within 300 ms"), std::string::npos) << r.err;
  ::close(fd);
}

}  // namespace
