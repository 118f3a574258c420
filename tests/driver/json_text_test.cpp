// The one strict JSON reader every format goes through.
#include "lightrail/json_text.hpp"

#include <gtest/gtest.h>

#include <string>

#include "lightrail/errors.hpp"

namespace lightrail {
namespace {

std::string problem_of(const std::string& text) {
  try {
    parse_json_text(text, "doc");
  } catch (const FormatError& e) {
    return e.problems().empty() ? e.what() : e.problems()[0].where + ": " + e.problems()[0].message;
  }
  return "(parsed)";
}

TEST(JsonText, RefusesWhatWouldBeSilentlyWrongOrFatal) {
  EXPECT_EQ(problem_of(R"({"a": {"b": [1, {"d": 2, "d": 3}]}})"),
            "a.b[1].d: duplicate key (a key may appear once per object)");
  EXPECT_EQ(problem_of(R"({"a": [1, 2, 1e400]})"), "a[2]: number 1e400 is beyond the range of a double");
  EXPECT_EQ(problem_of(std::string("{\"a\": 1}\0{\"a\": 2}", 17)), "line 1, column 9: malformed JSON: a NUL byte");
  // 100,000 '[' overflowed the stack (found by fuzz_json_text).
  EXPECT_EQ(problem_of(std::string(100000, '[')),
            "line 1, column 257: malformed JSON: nested deeper than 256 levels");
  EXPECT_EQ(problem_of(std::string(256, '[') + std::string(256, ']')), "(parsed)");
  EXPECT_EQ(problem_of(R"({"s": "[[[[[[[[", "t": 1})"), "(parsed)") << "brackets in strings are text";
}

}  // namespace
}  // namespace lightrail
