// Runs the built `lightrail` binary as a user runs it and captures what it
// says. stderr goes to a file of this process's own, so tests running in
// parallel never read each other's.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace lightrail::test {

struct CliRun {
  int code;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline CliRun lightrail(const std::string& args) {
  const std::string err_file = ::testing::TempDir() + "lightrail_cli_" + std::to_string(getpid()) + ".txt";
  const std::string cmd = std::string(LIGHTRAIL_CLI) + " " + args + " 2>" + err_file;
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  std::ifstream in(err_file);
  std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(err_file.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err};
}

}  // namespace lightrail::test
