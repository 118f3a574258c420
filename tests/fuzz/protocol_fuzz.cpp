// The board server's request line parser (sim/server/protocol.hpp), a pure
// function: any line is parsed into a request or refused, never a crash.
// Built only once that header exists (tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "lightrail/errors.hpp"
#include "server/protocol.hpp"

namespace lf = lightrail::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    [[maybe_unused]] const auto request = lightrail::sim::parse_request_line(line);
  } catch (const std::invalid_argument& e) {
    lf::check_message(e, "parse_request_line");
  } catch (const lightrail::Error& e) {
    lf::check_message(e, "parse_request_line");
  } catch (const std::exception& e) {
    lf::fail(std::string("parse_request_line threw ") + e.what());
  }
  return 0;
}
