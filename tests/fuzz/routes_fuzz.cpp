// The daemon's request-target parser (host/daemon/routes.hpp): any target is
// a route or refused with a status and a reason, never a crash; a route
// accepted is exactly its pattern with a valid id put in.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "routes.hpp"

namespace lf = lightrail::fuzz;
namespace d = lightrail::daemon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view target(reinterpret_cast<const char*>(data), size);
  try {
    const d::Target t = d::parse_target(target);
    if (t.status != 0 && t.status != 400 && t.status != 404)
      lf::fail("parse_target gave status " + std::to_string(t.status));
    if (t.status != 0 && t.message.empty()) lf::fail("parse_target refused without a reason");
    if (t.status == 0) {
      std::string pattern = d::route_label(t.route);
      const auto at = pattern.find("{id}");
      if (at != std::string::npos) {
        if (!d::job_id_problem(t.id).empty()) lf::fail("parse_target accepted a bad id");
        pattern.replace(at, 4, t.id);
      } else if (!t.id.empty()) {
        lf::fail("an id on a route without one");
      }
      if (pattern != target) lf::fail("the route accepted is not the target given");
    }
  } catch (const std::exception& e) {
    lf::fail(std::string("parse_target threw ") + e.what());
  }
  return 0;
}
