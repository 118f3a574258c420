// The fabric's times are typed (docs/driver.md, "Times"): a raw int64 of
// picoseconds, or a duration where a point is meant, does not compile where
// a BoardTime or a picoseconds is expected, so a unit or a time base cannot
// be mixed up silently. Checked at compile time: a header that takes int64
// again fails to build this file.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "lightrail/fabric.hpp"

namespace lightrail {
namespace {

using std::int64_t;

// Points: no implicit way in from a number or a duration, nor from a host clock.
static_assert(!std::is_convertible_v<int64_t, BoardTime>);
static_assert(!std::is_convertible_v<picoseconds, BoardTime>);
static_assert(!std::is_convertible_v<std::chrono::steady_clock::time_point, BoardTime>);
static_assert(!std::is_convertible_v<int64_t, std::optional<BoardTime>>);
// Durations: no implicit way in from a number; coarser units convert exactly.
static_assert(!std::is_convertible_v<int64_t, picoseconds>);
static_assert(std::is_convertible_v<std::chrono::microseconds, picoseconds>);

// Each of the fabric's times by its declared type.
static_assert(std::is_same_v<decltype(FabricSpec::commit_margin), picoseconds>);
static_assert(std::is_same_v<decltype(FabricSpec::trigger_margin), picoseconds>);
static_assert(std::is_same_v<decltype(FabricCommitOptions::at), std::optional<BoardTime>>);
static_assert(std::is_same_v<decltype(FabricCommitOptions::swap_timeout), std::chrono::milliseconds>);
static_assert(std::is_same_v<decltype(FabricCommitReport::commit_time), BoardTime>);
static_assert(std::is_same_v<decltype(BoardCommitReport::swap_time), std::optional<BoardTime>>);
static_assert(std::is_same_v<decltype(FabricTriggerReport::at), BoardTime>);
static_assert(std::is_same_v<decltype(FabricTriggerReport::boundary), std::optional<BoardTime>>);
static_assert(
    std::is_same_v<decltype(FabricTriggerReport::board_boundary), std::vector<std::optional<BoardTime>>>);
static_assert(std::is_same_v<decltype(FabricTriggerReport::margin), picoseconds>);
static_assert(std::is_same_v<decltype(FabricTriggerReport::window), std::optional<picoseconds>>);

// Fabric::trigger(boards, at): a BoardTime is accepted, a raw number or a
// duration is not. (A member-function test by expression SFINAE, C++17.)
template <typename At, typename = void>
struct TriggerTakes : std::false_type {};
template <typename At>
struct TriggerTakes<At, std::void_t<decltype(std::declval<Fabric&>().trigger(
                            std::declval<const std::vector<size_t>&>(), std::declval<At>()))>>
    : std::true_type {};
static_assert(TriggerTakes<BoardTime>::value);
static_assert(TriggerTakes<std::optional<BoardTime>>::value);
static_assert(!TriggerTakes<int64_t>::value);
static_assert(!TriggerTakes<std::optional<int64_t>>::value);
static_assert(!TriggerTakes<picoseconds>::value);

// A measured skew is a duration: with_pps_skew(c, 40) does not compile.
static_assert(std::is_invocable_v<decltype(&with_pps_skew), const SyncCalibration&, picoseconds>);
static_assert(!std::is_invocable_v<decltype(&with_pps_skew), const SyncCalibration&, int64_t>);

// The options and spec refuse a raw number by assignment too.
static_assert(!std::is_assignable_v<std::optional<BoardTime>&, int64_t>);
static_assert(!std::is_assignable_v<picoseconds&, int64_t>);

TEST(TypedTimes, ArithmeticKeepsPointsAndDurationsApart) {
  const BoardTime t = board_time_ps(1'000'000);
  FabricSpec spec;
  spec.trigger_margin = std::chrono::microseconds(3);
  const BoardTime at = t + spec.trigger_margin;  // point + duration: a point
  EXPECT_EQ(to_ps(at), 4'000'000);
  EXPECT_EQ(to_ps(at - t), 3'000'000);  // point - point: a duration
}

}  // namespace
}  // namespace lightrail
