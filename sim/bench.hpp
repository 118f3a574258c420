// `lightrail-cosim bench`: co-simulation speed beside the same RTL under
// Icarus Verilog, and the time to upload a full bank, measured in one run.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace lightrail::sim {

struct BenchOptions {
  uint64_t cycles = 1000000;  // board cycles for each speed figure
};

nlohmann::json run_bench(const BenchOptions& options);

}  // namespace lightrail::sim
