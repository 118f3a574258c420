// The daemon's bearer tokens and their roles (docs/lightraild.md, "Tokens
// and roles"). Each token lives in a token file of its own, read by the one
// rule for token files (lightrail/token_file.hpp); a tokens file lists them:
//
//   {"tokens": [{"name": "ops", "role": "admin", "token_file": "ops.token"},
//               {"name": "slurm", "role": "manager", "token_file": "/etc/lightraild/slurm.token"}]}
//
// A relative token_file is taken from the tokens file's directory.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caller.hpp"

namespace lightrail::daemon {

// A token's name may be shown (job owners, logs); the token never is.
inline constexpr size_t kMaxTokenNameBytes = 64;

struct NamedToken {
  std::string name;  // 1..64 of A-Z a-z 0-9 - . _
  Role role = Role::kReader;
  std::string token;
};

// Reads a tokens file. Throws FormatError naming the file and the field
// (`tokens[2].role`) on any fault: the file is not a regular file of this
// user's, group or others may write it (they could add a token or raise a
// role), it is not the shape above, a name is repeated or malformed, a role
// unknown, a token file breaks the token-file rule, two entries share a
// token. Nothing is half read: a fault refuses the whole file.
std::vector<NamedToken> read_tokens_file(const std::string& path);

// The entry whose token is `given`, compared with every entry in constant
// time (same_token), so the reply time does not tell which matched.
std::optional<NamedToken> find_token(const std::vector<NamedToken>& tokens, std::string_view given);

}  // namespace lightrail::daemon
