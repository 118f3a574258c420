#include "lightrail/planner/matching.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace lightrail::planner {

int Matching::circuits() const {
  int c = 0;
  for (int d : dest) c += d != kIdle;
  return c;
}

Matching shift(int n, int k) {
  if (n < 1) throw std::invalid_argument(fmt::format("shift: {} ports", n));
  Matching m;
  m.dest.resize(n);
  for (int i = 0; i < n; ++i) m.dest[i] = ((i + k) % n + n) % n;
  return m;
}

void verify_one_to_one(const Matching& m, const std::string& what) {
  std::vector<int> source(m.dest.size(), kIdle);
  for (int tx = 0; tx < m.ports(); ++tx) {
    const int rx = m.dest[tx];
    if (rx == kIdle) continue;
    if (rx < 0 || rx >= m.ports()) {
      throw std::invalid_argument(
          fmt::format("{}: port {} goes to port {}, outside 0..{}", what, tx, rx, m.ports() - 1));
    }
    if (rx == tx) throw std::invalid_argument(fmt::format("{}: port {} is connected to itself", what, tx));
    if (source[rx] != kIdle) {
      throw std::invalid_argument(
          fmt::format("{}: receiver {} hears both port {} and port {}", what, rx, source[rx], tx));
    }
    source[rx] = tx;
  }
}

}  // namespace lightrail::planner
