// A tiny coverage-counting model (hw/pps_out.sv, verilated with --coverage)
// run for a given number of cycles, whose counters the hook then writes
// (sim/rtl_coverage.hpp): check_hook.py runs it as two ranks and merges.
// Usage: coverage_hook_probe CYCLES RANK
#include <cstdint>
#include <cstdlib>

#include "Vcoverage_probe.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const long cycles = std::atol(argv[1]);
  const int rank = std::atoi(argv[2]);
  VerilatedContext ctx;
  Vcoverage_probe m{&ctx};
  m.rst_ni = 0;
  m.enable_i = 1;
  m.period_i = 10 * lightrail::hwdef::FINE_STEPS;  // a pulse every 10 cycles
  uint64_t t = 0;
  for (long c = 0; c < cycles; ++c) {
    if (c == 2) m.rst_ni = 1;
    m.time_i = t;
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    t += lightrail::hwdef::FINE_STEPS;
  }
  m.final();
  lightrail::rtl_coverage::write(ctx, "probe", rank);
  return 0;
}
