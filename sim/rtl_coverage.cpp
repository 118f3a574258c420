#include "rtl_coverage.hpp"

#include <verilated.h>

#if VM_COVERAGE
#include <unistd.h>
#include <verilated_cov.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#endif

namespace lightrail::rtl_coverage {

void write(VerilatedContext& ctx, const char* what, int rank) {
#if VM_COVERAGE
  const char* dir = std::getenv("LIGHTRAIL_COVERAGE_DIR");
  if (!dir || !*dir) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);  // a failure shows as the write's
  const long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  const std::string file = std::string(dir) + "/" + what + "-r" + std::to_string(rank) + "-p" +
                           std::to_string(getpid()) + "-" + std::to_string(ns) + ".dat";
  ctx.coveragep()->write(file.c_str());
  ctx.coveragep()->clear();
#else
  (void)ctx;
  (void)what;
  (void)rank;
#endif
}

void write_default(const char* what, int rank) { write(*Verilated::threadContextp(), what, rank); }

}  // namespace lightrail::rtl_coverage
