// The tokens file: named tokens with roles, each in a token file of its own
// under the one token-file rule; every fault refuses the whole file naming
// the field.
#include "tokens.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "lightrail/errors.hpp"

namespace {

namespace fs = std::filesystem;
using namespace lightrail::daemon;

class TokensTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("lightrail_tokens_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("ops.token", "ops-token-0123456789abcdef\n");
    write("slurm.token", "slurm-token-0123456789abcdef\r\n");
    write("viewer.token", "viewer-token-0123456789abcdef");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text, unsigned mode = 0600) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    ::chmod(p.c_str(), mode);
    return p.string();
  }
  std::string list(const std::string& entries, unsigned mode = 0600) {
    return write("tokens.json", "{\"tokens\": [" + entries + "]}", mode);
  }
  // The refusal's message ("" if the file was taken).
  std::string refusal(const std::string& path) {
    try {
      read_tokens_file(path);
    } catch (const lightrail::FormatError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

const std::string kOps = R"({"name": "ops", "role": "admin", "token_file": "ops.token"})";
const std::string kSlurm = R"({"name": "slurm", "role": "manager", "token_file": "slurm.token"})";

TEST_F(TokensTest, EachEntryNamesATokenFileAndARole) {
  const std::string viewer =
      R"({"name": "viewer", "role": "reader", "token_file": ")" + (dir_ / "viewer.token").string() + "\"}";
  const auto tokens = read_tokens_file(list(kOps + "," + kSlurm + "," + viewer));
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].name, "ops");
  EXPECT_EQ(tokens[0].role, Role::kAdmin);
  EXPECT_EQ(tokens[0].token, "ops-token-0123456789abcdef");
  EXPECT_EQ(tokens[1].role, Role::kManager);
  EXPECT_EQ(tokens[1].token, "slurm-token-0123456789abcdef") << "the token-file rule: CRLF ends the line";
  EXPECT_EQ(tokens[2].role, Role::kReader);
  ASSERT_TRUE(find_token(tokens, "slurm-token-0123456789abcdef"));
  EXPECT_EQ(find_token(tokens, "slurm-token-0123456789abcdef")->name, "slurm");
  EXPECT_FALSE(find_token(tokens, "slurm-token-0123456789abcdeX"));
  EXPECT_FALSE(find_token(tokens, ""));
}

TEST_F(TokensTest, EveryFaultRefusesTheFileNamingTheField) {
  struct Case {
    const char* what;
    std::string entries;
    std::string expect;  // in the message
  };
  write("shared.token", "ops-token-0123456789abcdef\n");
  write("public.token", "public-token-0123456789abcdef\n", 0644);
  const Case cases[] = {
      {"an unknown role", R"({"name": "x", "role": "boss", "token_file": "ops.token"})", "tokens[0].role"},
      {"a name twice", kOps + "," + R"({"name": "ops", "role": "reader", "token_file": "slurm.token"})",
       "tokens[1].name"},
      {"a bad name", R"({"name": "a b", "role": "admin", "token_file": "ops.token"})", "tokens[0].name"},
      {"no token file", R"({"name": "x", "role": "admin"})", "tokens[0].token_file"},
      {"a missing token file", R"({"name": "x", "role": "admin", "token_file": "nope.token"})",
       "tokens[0].token_file"},
      {"a token others may read", R"({"name": "x", "role": "admin", "token_file": "public.token"})",
       "tokens[0].token_file"},
      {"one token twice", kOps + "," + R"({"name": "y", "role": "reader", "token_file": "shared.token"})",
       "tokens[1].token_file"},
      {"an unknown field", R"({"name": "x", "role": "admin", "token_file": "ops.token", "tls": 1})",
       "tokens[0].tls"},
      {"no tokens", "", "tokens"},
  };
  for (const Case& c : cases) {
    const std::string why = refusal(list(c.entries));
    EXPECT_NE(why.find(c.expect), std::string::npos) << c.what << ": " << why;
  }
  EXPECT_NE(refusal(list(kOps, 0620)).find("group or others may write it"), std::string::npos);
  EXPECT_NE(refusal(write("tokens.json", "{\"tokens\": [" + kOps + "],}")).find("tokens.json"),
            std::string::npos);
  EXPECT_EQ(refusal(list(kOps, 0644)), "") << "the list holds no secret: readable is fine";
}

}  // namespace
