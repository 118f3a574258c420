// A circuit configuration of a one-to-one switch: each transmitting port
// reaches at most one receiving port and each receiver hears at most one
// transmitter (Polatis-style: a NIC port's tx fibre is an OCS input, its rx
// fibre an OCS output).
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <string>
#include <vector>

namespace lightrail::planner {

inline constexpr int kIdle = -1;  // a port with no circuit in this configuration

struct Matching {
  std::vector<int> dest;  // dest[tx port] = rx port, or kIdle

  int ports() const { return static_cast<int>(dest.size()); }
  int circuits() const;  // ports that carry a circuit
  bool operator==(const Matching& o) const { return dest == o.dest; }
  bool operator!=(const Matching& o) const { return dest != o.dest; }
};

// i -> (i + k) mod n for every i (n >= 1, else std::invalid_argument).
Matching shift(int n, int k);

// Throws std::invalid_argument naming `what` and the offending port when the
// configuration is not one-to-one (a receiver used twice, a port out of
// range, or a port connected to itself).
void verify_one_to_one(const Matching& m, const std::string& what);

}  // namespace lightrail::planner
