// The RTL coverage counters of a finished simulation, written to a file of
// their own (docs/coverage.md). A model verilated with --coverage (the
// LIGHTRAIL_COVERAGE build) counts its lines, branches and toggles in its
// VerilatedContext. When LIGHTRAIL_COVERAGE_DIR names a folder, write() puts
// them there, one file per call, named by what ran, its MPI rank, its pid
// and the time, so `verilator_coverage --write` merges every process and
// rank. Otherwise, or in a build without the option, it does nothing.
//
// rtl_coverage.cpp is compiled into each target that verilates a model (it
// sees that target's VM_COVERAGE); this header needs no Verilator header, so
// SystemC code can include it.
#pragma once

class VerilatedContext;

namespace lightrail::rtl_coverage {

// Call it once, at the end, while the context's models are alive: the
// context points at the counters inside them. It then forgets those points,
// so a model destroyed later leaves nothing dangling behind.
void write(VerilatedContext& ctx, const char* what, int rank = 0);

// The same for the context of models built without one (Verilator's default).
void write_default(const char* what, int rank = 0);

}  // namespace lightrail::rtl_coverage
