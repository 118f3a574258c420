#include "caller.hpp"

#include <fmt/format.h>

namespace lightrail::daemon {

const char* role_name(Role role) {
  switch (role) {
    case Role::kReader:
      return "reader";
    case Role::kManager:
      return "manager";
    case Role::kAdmin:
      return "admin";
  }
  return "?";
}

std::optional<Role> role_from_name(std::string_view name) {
  for (Role r : {Role::kReader, Role::kManager, Role::kAdmin})
    if (name == role_name(r)) return r;
  return std::nullopt;
}

std::string may_change(const Caller& caller, const std::string& owner) {
  if (caller.role == Role::kAdmin) return "";
  if (caller.role == Role::kManager && !owner.empty() && caller.name == owner) return "";
  if (caller.role == Role::kReader)
    return fmt::format("token {} is a reader: it may change nothing", caller.name);
  if (owner.empty())
    return fmt::format(
        "the job has no recorded owner: only an admin may change it, and token {} is a manager", caller.name);
  return fmt::format("the job's owner is {}: token {} is a manager and may change only its own jobs", owner,
                     caller.name);
}

}  // namespace lightrail::daemon
