// What the planner's model can represent. Inputs beyond these are refused
// naming the field and the limit, so no value wraps, truncates or is
// silently dropped, and no plan outgrows the machine planning it.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <string>

namespace lightrail::planner {

// GPUs of a job: plan time and memory grow linearly with them (rounds of a
// ring, the ranks of every group).
inline constexpr int kMaxGpus = 1 << 20;
// Ranks x phases planned or evaluated in one run (a job's phases, an
// experiment's sweep): the planner's time grows with both.
inline constexpr int64_t kMaxRankPhases = int64_t{1} << 28;
// Switch ports one NIC has on its rail; with kMaxGpus a rail's port count
// stays an int.
inline constexpr int kMaxPortsPerNic = 1 << 10;
// Configuration entries (switch ports x configurations) a plan holds at
// once, its collectives' and its rails' together: 128 MiB of port numbers.
// Quadratic patterns (a direct all-to-all over n ranks has n-1
// configurations of n ports) are refused before they are built.
inline constexpr int64_t kMaxPlanEntries = int64_t{1} << 25;
// Any modelled time, an input or a result (10^6 s, about 11.6 days); sums of
// a few stay far from the int64 range.
inline constexpr int64_t kMaxPs = 1'000'000'000'000'000'000;
// A rank's buffer in one collective (1 PB).
inline constexpr int64_t kMaxBytes = 1'000'000'000'000'000;
// Port bandwidths, Gb/s (1 Mb/s .. 1 Pb/s).
inline constexpr double kMinGbps = 1e-3;
inline constexpr double kMaxGbps = 1e6;
// A shared EPS core: 1 (non-blocking) .. this.
inline constexpr double kMaxOversubscription = 1e6;

// A time the model represents: 0..kMaxPs (not NaN), so its conversion to
// int64 is exact.
inline bool representable_ps(double ps) { return ps >= 0 && ps <= double(kMaxPs); }
// Returns `ps` when representable_ps; throws std::invalid_argument "<what>:
// ... beyond the model's limit" otherwise. Hot loops test representable_ps
// first and build `what` only for the message.
double check_ps(double ps, const std::string& what);

}  // namespace lightrail::planner
