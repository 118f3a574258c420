// The board server's request line parser (sim/server/protocol.hpp), a pure
// function: any line is parsed into a request or refused, never a crash.
// Built only once that header exists (tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "server/protocol.hpp"

namespace lf = lightrail::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    const lightrail::sim::protocol::Parsed parsed = lightrail::sim::protocol::parse_request(line);
    // A refusal names what is wrong; a request never exceeds the protocol.
    if (!parsed.ok && parsed.error.empty()) lf::fail("parse_request refused a line without a reason");
    if (parsed.ok && parsed.request.words.size() > lightrail::sim::protocol::kMaxWords)
      lf::fail("parse_request accepted more words than a request may hold");
  } catch (const std::exception& e) {
    lf::fail(std::string("parse_request threw ") + e.what());
  }
  return 0;
}
