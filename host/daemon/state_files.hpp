// The daemon's small files besides the journal: written whole or not at
// all (temporary, fsync, rename, directory fsync), private to the user.
#pragma once

#include <cstdint>
#include <string>

namespace lightrail::daemon {

// Replaces `path` with `text` atomically: a reader sees the old file or the
// new one, never a part. Throws std::runtime_error naming the path.
void write_file_atomically(const std::string& path, const std::string& text, unsigned mode = 0600);

// The daemon's board lease token in `path` ("0x%08x\n"), so boards leased
// before a restart stay the daemon's: read if the file exists (it must be a
// regular file of this user's that group and others cannot write, holding a
// non-zero token; it is no secret: docs/lightraild.md, "Leases"), else a random non-zero token is made and
// written (mode 0600). Throws std::runtime_error naming the file and the fault.
uint32_t load_or_create_lease_token(const std::string& path);

// Writes the lease token file as load_or_create_lease_token() reads it
// (atomically, mode 0600).
void write_lease_token(const std::string& path, uint32_t token);

// Creates `dir` (mode 0700) if it is missing; throws if it cannot, or if it
// exists and is not a directory.
void ensure_state_dir(const std::string& dir);

}  // namespace lightrail::daemon
