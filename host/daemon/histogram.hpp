// A latency histogram in Prometheus' shape (cumulative buckets, sum,
// count), for the HTTP layer's request durations and the journal's fsyncs.
// Not thread-safe: each owner keeps its own on one thread.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>

namespace lightrail::daemon {

// Bucket bounds, seconds: 0.5 ms .. 10 s.
inline constexpr std::array<double, 14> kLatencyBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                           0.1,    0.25,  0.5,    1,     2.5,  5,     10};

struct Histogram {
  std::array<uint64_t, kLatencyBuckets.size()> counts{};  // per bucket, not cumulative
  double sum = 0;
  uint64_t count = 0;

  void add(double seconds) {
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i)
      if (seconds <= kLatencyBuckets[i]) {
        ++counts[i];
        break;
      }
    sum += seconds;
    ++count;
  }

  // The exposition lines of series `name` ({labels} inside the braces,
  // "" for none); the HELP and TYPE lines are the caller's.
  std::string lines(const std::string& name, const std::string& labels = "") const {
    const std::string sep = labels.empty() ? "" : labels + ",";
    std::string m;
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kLatencyBuckets.size(); ++i) {
      cumulative += counts[i];
      m += fmt::format("{}_bucket{{{}le=\"{}\"}} {}\n", name, sep, kLatencyBuckets[i], cumulative);
    }
    m += fmt::format("{}_bucket{{{}le=\"+Inf\"}} {}\n", name, sep, count);
    const std::string braces = labels.empty() ? "" : "{" + labels + "}";
    m += fmt::format("{}_sum{} {}\n{}_count{} {}\n", name, braces, sum, name, braces, count);
    return m;
  }
};

}  // namespace lightrail::daemon
