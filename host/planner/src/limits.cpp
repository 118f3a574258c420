#include "lightrail/planner/limits.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace lightrail::planner {

double check_ps(double ps, const std::string& what) {
  if (!representable_ps(ps)) {
    throw std::invalid_argument(
        fmt::format("{}: {:.4g} ps is beyond the model's limit of {:.0e} ps ({:.0e} s)", what, ps,
                    double(kMaxPs), kMaxPs / 1e12));
  }
  return ps;
}

}  // namespace lightrail::planner
