// The daemon's log lines: JSON ones parse as one object per line with the
// event's fields; text ones keep each event on one line whatever a client
// sent.
#include "log.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace lightrail::daemon;
using nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(LogTest, JsonLinesAreOneObjectEachWithTheEventsFields) {
  std::ostringstream out;
  Log log(LogFormat::kJson, &out);
  log({LogLevel::kInfo, "127.0.0.1:5 GET /v1/jobs 200", {{"request_id", "abc-1"}, {"status", 200}}});
  log({LogLevel::kWarn, "a client's bytes:\n{\"forged\": 1}\x01", {{"target", "/x\"y\n"}}});
  log({LogLevel::kError, "failed", json::object()});
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  const json a = json::parse(lines[0]), b = json::parse(lines[1]), c = json::parse(lines[2]);
  EXPECT_EQ(a.at("msg"), "127.0.0.1:5 GET /v1/jobs 200");
  EXPECT_EQ(a.at("level"), "info");
  EXPECT_EQ(a.at("request_id"), "abc-1");
  EXPECT_EQ(a.at("status"), 200);
  EXPECT_EQ(a.at("time").get<std::string>().back(), 'Z');
  EXPECT_EQ(b.at("msg"), "a client's bytes:\n{\"forged\": 1}\x01") << "escaped, not a second line";
  EXPECT_EQ(b.at("target"), "/x\"y\n");
  EXPECT_EQ(b.at("level"), "warning");
  EXPECT_EQ(c.at("level"), "error");
}

TEST(LogTest, TextLinesShowFieldsAndStayOneLine) {
  std::ostringstream out;
  Log log(LogFormat::kText, &out);
  log({LogLevel::kInfo, "GET /v1/jobs 200", {{"request_id", "abc-1"}, {"target", "/a b"}}});
  log({LogLevel::kWarn, "two\nlines", json::object()});
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  EXPECT_NE(lines[0].find(" info GET /v1/jobs 200 "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("request_id=abc-1"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("target=\"/a b\""), std::string::npos) << "a value with a space is quoted";
  EXPECT_NE(lines[1].find("two\\nlines"), std::string::npos) << lines[1];
}

TEST(LogTest, FormatsByName) {
  EXPECT_EQ(log_format_from_name("json"), LogFormat::kJson);
  EXPECT_EQ(log_format_from_name("text"), LogFormat::kText);
  EXPECT_FALSE(log_format_from_name("JSON"));
}

}  // namespace
