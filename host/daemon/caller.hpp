// Who sent a request (docs/lightraild.md, "Tokens and roles"): the name of
// the token it carried, never the token, and that token's role. The HTTP
// layer fills it in; the Service decides what the caller may do to a job.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lightrail::daemon {

enum class Role {
  kReader,   // reads only (GETs need a token only beyond loopback)
  kManager,  // submits jobs; changes and deletes the jobs it submitted
  kAdmin,    // anything, every job
};

const char* role_name(Role role);
std::optional<Role> role_from_name(std::string_view name);

struct Caller {
  std::string name;  // the token's name ("" for a request without a token)
  Role role = Role::kReader;
  // POST /v1/jobs: the client's Idempotency-Key ("" when it sent none).
  std::string idempotency_key;
};

// "" when `caller` may change a job owned by `owner` (a token name; "" for a
// job no token is recorded for), else why not: an admin may change any job,
// a manager its own.
std::string may_change(const Caller& caller, const std::string& owner);

}  // namespace lightrail::daemon
