// Circuits kept in place: when a NIC has several ports on its rail, the
// circuits of several phases can stand at once, each on its own ports, so
// the rail need not reconfigure between those phases.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <vector>

#include "lightrail/planner/opus.hpp"

namespace lightrail::planner {

// The plan of plan_opus(job, fabric, electrical) with its rails replanned so
// that consecutive phases whose circuits fit the NIC's ports together share
// one rail configuration. Per rail, the iteration (cyclic) is cut into the
// fewest windows in which at most fabric.ports_per_nic distinct one-matching
// configurations occur (a ring, a pipeline direction); window item j of m
// gets ports {p : p mod m = j}, so its rounds carry bytes over fewer ports.
// A phase whose collective needs several matchings (recursive doubling,
// Bruck, ...) is a window of its own, striped over every port. Same errors
// as plan_opus.
OpusPlan keep_in_place(const Job& job, const Fabric& fabric, const std::vector<bool>& electrical = {});

// The windows keep_in_place cuts a rail's iteration into: items[i] is
// phase i's one-matching configuration (any id >= 0), kInPlaceAlone for a
// phase of several matchings, kInPlaceIdle for a phase off the rail.
// Returns the phases of each window, at most `ports` distinct items each.
inline constexpr int kInPlaceAlone = -1;
inline constexpr int kInPlaceIdle = -2;
std::vector<std::vector<size_t>> in_place_windows(const std::vector<int>& items, int ports);

// Boundary reconfigurations of a rail's phases against the configuration
// the rail held before each (cyclically: iterations repeat).
void mark_boundaries(RailPlan& rail);

}  // namespace lightrail::planner
