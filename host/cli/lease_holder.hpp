// Who holds a board's lease when a command is refused for it (exit 4). The
// board knows only a token; a lightraild shows its own per board (GET
// /v1/fabric: lease.owner, mine), so with LIGHTRAILD_URL set the refusal
// names that daemon, and without it says how to find out.
#pragma once

#include <cstdint>
#include <string>

namespace lightrail::cli {

// One sentence to append to the refusal of `device` (its URI) whose lease
// token `owner` holds; never throws (a daemon that cannot be asked is said
// so).
std::string lease_holder_note(const std::string& device, uint32_t owner);

}  // namespace lightrail::cli
