// The board server's AUTH token, read from a file only its owner can read:
// the token is as secret as that file.
#pragma once

#include <string>

namespace lightrail::sim {

// The token in `path` (one line; a final newline is not part of it). Throws
// std::runtime_error naming the file and the fault: cannot be read, not a
// regular file, not owned by this user, readable or writable by group or
// others, or not a token (protocol::token_problem).
std::string read_token_file(const std::string& path);

}  // namespace lightrail::sim
