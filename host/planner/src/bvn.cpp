#include "lightrail/planner/bvn.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lightrail::planner {
namespace {

size_t check_square(const TrafficMatrix& t) {
  const size_t n = t.size();
  if (n == 0) throw std::invalid_argument("traffic: the matrix is empty");
  for (size_t i = 0; i < n; ++i) {
    if (t[i].size() != n) {
      throw std::invalid_argument(
          fmt::format("traffic[{}]: has {} entries, the matrix is {} x {}", i, t[i].size(), n, n));
    }
    for (size_t j = 0; j < n; ++j) {
      if (t[i][j] < 0)
        throw std::invalid_argument(fmt::format("traffic[{}][{}]: negative bytes {}", i, j, t[i][j]));
    }
  }
  // Padding balances every row and column to the largest line sum, which
  // must itself be a byte count.
  std::vector<int64_t> col(n, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t row = 0;
    for (size_t j = 0; j < n; ++j) {
      if (__builtin_add_overflow(row, t[i][j], &row)) {
        throw std::invalid_argument(fmt::format(
            "traffic[{}]: the row's bytes sum beyond {} (int64); such a matrix cannot be balanced", i,
            std::numeric_limits<int64_t>::max()));
      }
      if (__builtin_add_overflow(col[j], t[i][j], &col[j])) {
        throw std::invalid_argument(fmt::format(
            "traffic[][{}]: the column's bytes sum beyond {} (int64); such a matrix cannot be balanced", j,
            std::numeric_limits<int64_t>::max()));
      }
    }
  }
  return n;
}

void check_cost(const CircuitCost& c) {
  if (c.reconfiguration_ps < 0) {
    throw std::invalid_argument(
        fmt::format("cost.reconfiguration_ps: negative time {}", c.reconfiguration_ps));
  }
  if (!(c.circuit_bytes_per_ps > 0) || !std::isfinite(c.circuit_bytes_per_ps)) {
    throw std::invalid_argument(
        fmt::format("cost.circuit_bytes_per_ps: must be positive and finite, is {}", c.circuit_bytes_per_ps));
  }
  if (!(c.packet_bytes_per_ps >= 0) || !std::isfinite(c.packet_bytes_per_ps)) {
    throw std::invalid_argument(fmt::format(
        "cost.packet_bytes_per_ps: must be finite and not negative (0: none), is {}", c.packet_bytes_per_ps));
  }
}

// The matrix being peeled, with the real and padding bytes kept apart so the
// residual left to a packet switch is real traffic only.
struct Work {
  TrafficMatrix real, pad, pad_used;
  int64_t at(size_t i, size_t j) const { return real[i][j] + pad[i][j]; }
};

Work pad_to_balanced(const TrafficMatrix& t) {
  const size_t n = t.size();
  Work w{t, TrafficMatrix(n, std::vector<int64_t>(n, 0)), TrafficMatrix(n, std::vector<int64_t>(n, 0))};
  std::vector<int64_t> row(n, 0), col(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      row[i] += t[i][j];
      col[j] += t[i][j];
    }
  const int64_t line =
      std::max(*std::max_element(row.begin(), row.end()), *std::max_element(col.begin(), col.end()));
  // Greedy filling keeps every line at or under `line` and ends with all at it.
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      const int64_t add = std::min(line - row[i], line - col[j]);
      if (add > 0) {
        w.pad[i][j] += add;
        row[i] += add;
        col[j] += add;
      }
    }
  return w;
}

// Kuhn's augmenting paths over the entries >= threshold.
class Matcher {
 public:
  Matcher(const Work& w, size_t n) : w_(w), n_(n), row_(n, -1), col_(n, -1) {}
  bool augment(size_t i, int64_t threshold) {
    seen_.assign(n_, false);
    return try_row(i, threshold);
  }
  bool perfect(int64_t threshold) {
    std::fill(row_.begin(), row_.end(), -1);
    std::fill(col_.begin(), col_.end(), -1);
    for (size_t i = 0; i < n_; ++i)
      if (!augment(i, threshold)) return false;
    return true;
  }
  void unmatch(size_t i) {
    col_[row_[i]] = -1;
    row_[i] = -1;
  }
  int row(size_t i) const { return row_[i]; }

 private:
  bool try_row(size_t i, int64_t threshold) {
    for (size_t j = 0; j < n_; ++j) {
      if (seen_[j] || w_.at(i, j) < threshold || w_.at(i, j) == 0) continue;
      seen_[j] = true;
      if (col_[j] < 0 || try_row(col_[j], threshold)) {
        row_[i] = int(j);
        col_[j] = int(i);
        return true;
      }
    }
    return false;
  }
  const Work& w_;
  size_t n_;
  std::vector<int> row_, col_;
  std::vector<bool> seen_;
};

WeightedMatching peel(Work& w, const Matcher& m, size_t n) {
  WeightedMatching term;
  term.matching.dest.resize(n);
  term.bytes = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < n; ++i) {
    term.matching.dest[i] = m.row(i);
    term.bytes = std::min(term.bytes, w.at(i, m.row(i)));
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t j = m.row(i);
    const int64_t r = std::min(w.real[i][j], term.bytes);
    w.real[i][j] -= r;
    w.pad[i][j] -= term.bytes - r;
    w.pad_used[i][j] += term.bytes - r;
  }
  return term;
}

bool empty(const Work& w) {
  for (size_t i = 0; i < w.real.size(); ++i)
    for (size_t j = 0; j < w.real.size(); ++j)
      if (w.at(i, j) != 0) return false;
  return true;
}

}  // namespace

Decomposition bvn_decompose(const TrafficMatrix& traffic) {
  const size_t n = check_square(traffic);
  Work w = pad_to_balanced(traffic);
  Decomposition d;
  Matcher m(w, n);
  if (!empty(w) && !m.perfect(1)) throw std::logic_error("bvn: balanced matrix without a perfect matching");
  while (!empty(w)) {
    d.terms.push_back(peel(w, m, n));
    // Only rows whose circuit ran dry need a new partner.
    std::vector<size_t> broken;
    for (size_t i = 0; i < n; ++i)
      if (w.at(i, m.row(i)) == 0) broken.push_back(i);
    for (size_t i : broken) m.unmatch(i);
    if (empty(w)) break;
    for (size_t i : broken)
      if (!m.augment(i, 1)) throw std::logic_error("bvn: balanced matrix without a perfect matching");
  }
  d.padding = w.pad_used;
  d.residual = TrafficMatrix(n, std::vector<int64_t>(n, 0));
  return d;
}

namespace {
// Time in whole picoseconds, held as a double so that no sum of large byte
// counts over a slow rate overflows (infinity: never served).
double combine(double circuit_ps, const TrafficMatrix& residual, const CircuitCost& cost) {
  int64_t busiest = 0;  // residual <= traffic, whose line sums fit (check_square)
  const size_t n = residual.size();
  for (size_t i = 0; i < n; ++i) {
    int64_t row = 0, col = 0;
    for (size_t j = 0; j < n; ++j) {
      row += residual[i][j];
      col += residual[j][i];
    }
    busiest = std::max({busiest, row, col});
  }
  double packet = 0;
  if (busiest > 0) {
    if (cost.packet_bytes_per_ps <= 0) return std::numeric_limits<double>::infinity();
    packet = busiest / cost.packet_bytes_per_ps;
  }
  return std::floor(std::max(circuit_ps, packet) + 0.5);
}
double term_ps(const WeightedMatching& t, const CircuitCost& cost) {
  return cost.reconfiguration_ps + t.bytes / cost.circuit_bytes_per_ps;
}
}  // namespace

int64_t total_time_ps(const Decomposition& d, const CircuitCost& cost) {
  check_cost(cost);
  double circuit = 0;
  for (const auto& t : d.terms) circuit += term_ps(t, cost);
  const double total = combine(circuit, d.residual, cost);
  if (std::isinf(total)) return std::numeric_limits<int64_t>::max();  // residual and no packet switch
  if (!(total < 0x1p63)) {
    throw std::invalid_argument(fmt::format(
        "traffic: serving it takes {:.4g} ps, beyond the int64 range of the result (too many bytes for the "
        "cost's rates)",
        total));
  }
  return static_cast<int64_t>(total);
}

Decomposition greedy_decompose(const TrafficMatrix& traffic, const CircuitCost& cost) {
  const size_t n = check_square(traffic);
  check_cost(cost);
  Work w = pad_to_balanced(traffic);
  const Work start = w;
  Matcher m(w, n);
  auto state = [&](size_t k, const std::vector<WeightedMatching>& terms) {
    Decomposition d;
    d.terms.assign(terms.begin(), terms.begin() + k);
    d.padding = w.pad_used;
    d.residual = w.real;
    return d;
  };
  // The whole largest-first sequence; keep the prefix with the least time.
  std::vector<WeightedMatching> terms;
  size_t best = 0;
  double circuit = 0;
  double best_time = combine(0, w.real, cost);
  while (!empty(w) && terms.size() < n * n) {
    std::vector<int64_t> values;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        if (w.at(i, j) > 0) values.push_back(w.at(i, j));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    // Largest threshold that still has a perfect matching (bottleneck matching).
    size_t lo = 0, hi = values.size() - 1;
    while (lo < hi) {
      const size_t mid = (lo + hi + 1) / 2;
      if (m.perfect(values[mid])) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (!m.perfect(values[lo])) throw std::logic_error("greedy: balanced matrix without a perfect matching");
    terms.push_back(peel(w, m, n));
    circuit += term_ps(terms.back(), cost);
    const double t = combine(circuit, w.real, cost);
    if (t < best_time) {
      best_time = t;
      best = terms.size();
    }
  }
  // Replay the chosen prefix to recover its residual.
  w = start;
  for (size_t k = 0; k < best; ++k) {
    for (size_t i = 0; i < n; ++i) {
      const size_t j = terms[k].matching.dest[i];
      const int64_t r = std::min(w.real[i][j], terms[k].bytes);
      w.real[i][j] -= r;
      w.pad[i][j] -= terms[k].bytes - r;
      w.pad_used[i][j] += terms[k].bytes - r;
    }
  }
  return state(best, terms);
}

TrafficMatrix reconstruct(const Decomposition& d) {
  const size_t n = d.padding.size();
  TrafficMatrix t = d.residual;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) t[i][j] -= d.padding[i][j];
  for (const auto& term : d.terms)
    for (size_t i = 0; i < n; ++i) t[i][term.matching.dest[i]] += term.bytes;
  return t;
}

}  // namespace lightrail::planner
