// Shared secrets read from a file only its owner can use (the board server's
// AUTH token, the daemon's bearer token): the token is as secret as that
// file. In the driver so that both sim/ and host/ can use it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lightrail {

inline constexpr size_t kMinTokenBytes = 16;
inline constexpr size_t kMaxTokenBytes = 256;

// Whether a token file's content may serve as a token: "" if so, else why
// not (kMinTokenBytes..kMaxTokenBytes printable ASCII characters, no spaces).
std::string token_problem(std::string_view token);

// Compares in time that depends only on the length of `given`, so the reply
// time tells a guesser nothing about how much of the token matched.
bool same_token(std::string_view expected, std::string_view given);

// The content of `path`, at most `max_bytes`, checked on the open file (so
// what is checked is what is read): a regular file owned by this user with
// none of the `forbidden` mode bits. Throws FormatError naming `what` and
// the file: cannot be read, not regular, another owner, "<mode_fault> (mode
// NNNN)<advice> <path>", or `too_long`.
std::string read_owned_file(const std::string& path, const std::string& what, unsigned forbidden,
                            const std::string& mode_fault, const std::string& advice, size_t max_bytes,
                            const std::string& too_long);

// The token in `path` (one line; a final newline is not part of it). Throws
// FormatError naming the file and the fault: cannot be read, not a regular
// file, not owned by this user, readable or writable by group or others, or
// not a token (token_problem).
std::string read_token_file(const std::string& path);

}  // namespace lightrail
