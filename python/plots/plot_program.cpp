#include "plot_program.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

extern char** environ;

namespace lightrail::plots {

namespace fs = std::filesystem;

namespace {

bool runnable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_plot_program() {
  if (const char* env = std::getenv("LIGHTRAIL_PLOT"); env && *env) {
    if (runnable(env)) return env;
    throw std::runtime_error(std::string("LIGHTRAIL_PLOT=") + env + " is not an executable file");
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find lightrail-plot: /proc/self/exe: " + ec.message());
  const fs::path candidates[] = {exe.parent_path() / "lightrail-plot",
                                 exe.parent_path().parent_path() / "share" / "lightrail" / "lightrail-plot"};
  std::string looked;
  for (const fs::path& p : candidates) {
    if (runnable(p)) return p.string();
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  throw std::runtime_error("cannot find lightrail-plot (looked at " + looked +
                           "; set LIGHTRAIL_PLOT to its path)");
}

void run_plot_program(const std::vector<std::string>& args) {
  const std::string program = find_plot_program();
  std::vector<std::string> words{program};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::cout.flush();  // what we printed comes before what it prints
  std::fflush(stdout);
  pid_t pid;
  if (const int err = ::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ))
    throw std::runtime_error(
        "cannot run " + program + ": " + std::strerror(err) +
        (err == ENOENT ? " (its interpreter is /usr/bin/python3: apt-get install python3)" : ""));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waiting for " + program + ": " + std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
    throw std::runtime_error(program + ": matplotlib is missing (apt-get install python3-matplotlib)");
  throw std::runtime_error(program + (WIFEXITED(status)
                                          ? " failed with exit status " + std::to_string(WEXITSTATUS(status))
                                          : " was killed by signal " + std::to_string(WTERMSIG(status))));
}

}  // namespace lightrail::plots
