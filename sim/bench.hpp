// `lightrail-cosim bench`: co-simulation speed beside the same RTL under
// Icarus Verilog, and the time to upload a full bank, measured in one run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace lightrail::sim {

struct BenchOptions {
  uint64_t cycles = 1000000;        // board cycles for each speed figure
  int sync_boards = 0;              // > 0: only the sync part for that many boards
  uint64_t sync_us = 1000;          // simulated time of each sync part
  std::string sync_link;  // the sync part's timing link (SyncOptions::link); "": the ports where they reach
  int rounds = 5;                   // board and bare-top rounds, alternating
  bool board_only = false;          // only one board round (what each round after the first runs)
};

nlohmann::json run_bench(const BenchOptions& options);
// One board on the bench's schedule: its speed once the upload is done, and
// the upload's time.
nlohmann::json run_board_bench(uint64_t cycles);
// One synchronised star of `boards` boards for `us` of simulated time, its
// exchange over `link` ("model" or "rtl").
nlohmann::json run_sync_bench(int boards, uint64_t us, const std::string& link = "model");

}  // namespace lightrail::sim
