// parse_json_text, the one JSON reader: every input is a document or a
// FormatError with a message; a document never holds a duplicate key (the
// reader refuses them) and its dump reads back to the same value.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lf = lightrail::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc;
  try {
    doc = lightrail::parse_json_text(text, "fuzz");
  } catch (const lightrail::FormatError& e) {
    lf::check_message(e, "parse_json_text");
    return 0;
  } catch (const std::exception& e) {
    lf::fail(std::string("parse_json_text threw other than FormatError: ") + e.what());
  }
  // What was accepted must survive the way the project writes JSON back.
  try {
    const std::string again = doc.dump();
    if (lightrail::parse_json_text(again, "fuzz (dumped)") != doc) lf::fail("dump() does not read back");
  } catch (const std::exception& e) {
    lf::fail(std::string("an accepted document does not dump and read back: ") + e.what());
  }
  return 0;
}
