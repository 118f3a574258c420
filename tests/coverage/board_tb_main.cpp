// The Icarus bench of the board top (hw/tb/board_tb.sv) under Verilator
// --timing, built only with LIGHTRAIL_COVERAGE: hw.icarus_tb judges the RTL,
// and this runs the same bench so that its lines, branches and toggles count
// in the coverage figures (docs/coverage.md). Arguments are plusargs
// (+cycles=N); the bench prints "TB_DONE cycles=<N> errors=<E>".
#include "Vcoverage_board_tb.h"
#include "rtl_coverage.hpp"
#include "verilated.h"

int main(int argc, char** argv) {
  VerilatedContext ctx;
  ctx.commandArgs(argc, argv);
  Vcoverage_board_tb tb{&ctx};
  while (!ctx.gotFinish()) {
    tb.eval();
    if (!tb.eventsPending()) break;
    ctx.time(tb.nextTimeSlot());
  }
  tb.final();
  lightrail::rtl_coverage::write(ctx, "board_tb");
  return ctx.gotFinish() ? 0 : 1;
}
