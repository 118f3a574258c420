// Replays a collective's transfers over its circuits to prove that every
// rank ends with the data the collective promises it.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <string>

#include "lightrail/planner/collectives.hpp"

namespace lightrail::planner {

// Empty when correct; otherwise what went wrong, e.g. "round 3: rank 2 sends
// to rank 5 but its port 0 has a circuit to rank 3" or "rank 4 block 1 lacks
// the contribution of rank 7". Checks that every transfer rides a circuit of
// its round's configuration, that no partial sum is added twice, and the
// collective's postcondition. Needs a plan made with transfers; memory grows
// as ranks * blocks * ranks bits (std::invalid_argument beyond 128 MiB).
std::string check_data_movement(const CollectivePlan& plan);

}  // namespace lightrail::planner
