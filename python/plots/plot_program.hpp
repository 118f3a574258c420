// Starting lightrail-plot (python/plots/lightrail_plot.py, Debian's python3
// and matplotlib) from the C++ programs: `lightrail-cosim run|serve --plot`
// and `lightrail eval --plot` (docs/plots.md).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace lightrail::plots {

// Where lightrail-plot is: $LIGHTRAIL_PLOT if set, else beside the running
// executable (the build copies it beside lightrail and lightrail-cosim;
// `cmake --install` puts all three in bin/), else in ../share/lightrail from
// it. Throws std::runtime_error naming every place it looked.
std::string find_plot_program();

// Runs lightrail-plot with `args` (its output and errors go to ours) and
// waits for it. Throws std::runtime_error saying why it could not run or how
// it failed (matplotlib missing: exit 3, with Debian's package named).
void run_plot_program(const std::vector<std::string>& args);

}  // namespace lightrail::plots
