// read_token_file: a token is only as secret as its file, so a file others
// may use, or that is not a token, is refused naming the file and the fault.
#include "lightrail/token_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "lightrail/errors.hpp"

namespace {

std::string write_file(const std::string& name, const std::string& text, mode_t mode) {
  const std::string path = ::testing::TempDir() + "lightrail_tok_" + std::to_string(getpid()) + "_" + name;
  std::remove(path.c_str());
  std::ofstream(path) << text;
  ::chmod(path.c_str(), mode);
  return path;
}

std::string refusal(const std::string& path) {
  try {
    lightrail::read_token_file(path);
  } catch (const lightrail::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(TokenFile, ReadsOneLineWithoutItsNewline) {
  const std::string p = write_file("ok", "0123456789abcdef-token\n", 0600);
  EXPECT_EQ(lightrail::read_token_file(p), "0123456789abcdef-token");
  const std::string q = write_file("crlf", "0123456789abcdef-token\r\n", 0400);
  EXPECT_EQ(lightrail::read_token_file(q), "0123456789abcdef-token");
}

TEST(TokenFile, RefusesFilesOthersMayUseAndNonTokens) {
  const std::string open = write_file("open", "0123456789abcdef-token\n", 0640);
  EXPECT_NE(refusal(open).find("token file " + open + ": group or others may use it (mode 0640)"),
            std::string::npos)
      << refusal(open);
  EXPECT_NE(refusal(write_file("short", "short\n", 0600)).find("the token must be 16..256 characters"),
            std::string::npos);
  EXPECT_NE(refusal(write_file("two", "0123456789 abcdef-token\n", 0600)).find("printable ASCII"),
            std::string::npos);
  EXPECT_NE(refusal(write_file("lines", "0123456789abcdef\nmore\n", 0600)).find("printable ASCII"),
            std::string::npos);
  EXPECT_NE(refusal(write_file("long", std::string(300, 'a'), 0600)).find("longer than a token"),
            std::string::npos);
  EXPECT_NE(refusal(::testing::TempDir()).find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal("/nonexistent/lightrail/token").find("cannot open"), std::string::npos);
}

TEST(TokenFile, SameTokenComparesWholeTokens) {
  EXPECT_TRUE(lightrail::same_token("0123456789abcdef", "0123456789abcdef"));
  EXPECT_FALSE(lightrail::same_token("0123456789abcdef", "0123456789abcdeF"));
  EXPECT_FALSE(lightrail::same_token("0123456789abcdef", "0123456789abcde"));
  EXPECT_FALSE(lightrail::same_token("0123456789abcdef", "0123456789abcdef0"));
  EXPECT_FALSE(lightrail::same_token("0123456789abcdef", ""));
}

}  // namespace
