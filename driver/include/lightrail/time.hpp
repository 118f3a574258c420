// Time in the driver's API: durations in picoseconds and points of a board's
// synchronised time (docs/driver.md, "Times"). Board time is what the
// sequencer's TIME register counts from the board's epoch; boards that follow
// one sync master share it. Host-side waits are std::chrono durations on the
// host's steady clock.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <ratio>

namespace lightrail {

// The unit of every register time and schedule time.
using picoseconds = std::chrono::duration<std::int64_t, std::pico>;

// The clock of a board's synchronised time. It has no now(): board time is
// read from a board (Device::time()), so only its types are used, for
// BoardTime to be a time point that cannot be mixed up with a host clock's.
struct BoardClock {
  using rep = std::int64_t;
  using period = std::pico;
  using duration = picoseconds;
  using time_point = std::chrono::time_point<BoardClock, picoseconds>;
  static constexpr bool is_steady = true;  // it never steps back (a servo slews it)
};

// A point in board time; time_since_epoch() is the TIME register in ps.
using BoardTime = BoardClock::time_point;

// The plain numbers, for JSON, printing and registers.
constexpr std::int64_t to_ps(picoseconds d) { return d.count(); }
constexpr std::int64_t to_ps(BoardTime t) { return t.time_since_epoch().count(); }
constexpr BoardTime board_time_ps(std::int64_t ps) { return BoardTime(picoseconds(ps)); }

// "123456 ps": messages, logs and test failures print board times readably.
inline std::ostream& operator<<(std::ostream& out, BoardTime t) { return out << to_ps(t) << " ps"; }

}  // namespace lightrail
