#include "lease_holder.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>

#include "daemon_client.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail::cli {

std::string lease_holder_note(const std::string& device, uint32_t owner) {
  const char* env = std::getenv("LIGHTRAILD_URL");
  if (env == nullptr || *env == '\0')
    return fmt::format(
        "If a lightraild runs this board, its GET /v1/fabric shows lease.owner 0x{:08X} for it; with "
        "LIGHTRAILD_URL set, lightrail asks it and names it",
        owner);
  const std::string url = env;
  try {
    // A read: no token. Short: the refusal is the answer, this only explains it.
    const DaemonReply r =
        daemon_request(parse_daemon_url(url), "GET", "/v1/fabric", std::nullopt, "", std::chrono::seconds(2));
    if (r.status == 200 && r.body.contains("boards") && r.body["boards"].is_array())
      for (const auto& b : r.body["boards"]) {
        if (!b.is_object() || b.value("uri", "") != device || !b.contains("lease")) continue;
        const auto& l = b["lease"];
        if (l.value("mine", false) && l.value("owner", uint32_t{0}) == owner) {
          const std::string job =
              b.contains("job") && b["job"].is_string() ? b["job"].get<std::string>() : "";
          return fmt::format(
              "It is held by lightraild at {} (its board {}{}): ask the daemon (lightrail job ...), "
              "not the board",
              printable(url), printable(b.value("name", "")),
              job.empty() ? ", no job on it" : ", job " + printable(job));
        }
      }
    return fmt::format("Not the lightraild at {} (LIGHTRAILD_URL): it does not hold this board",
                       printable(url));
  } catch (const std::exception& e) {
    return fmt::format("The lightraild at {} (LIGHTRAILD_URL) could not be asked who holds it: {}",
                       printable(url), printable(e.what()));
  }
}

}  // namespace lightrail::cli
