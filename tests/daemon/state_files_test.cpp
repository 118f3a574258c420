// The lease token file and atomic small files.
#include "state_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace lightrail::daemon;

class StateFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("lightrail_state_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read(const fs::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

std::string refusal(const std::string& path) {
  try {
    load_or_create_lease_token(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST_F(StateFilesTest, LeaseTokenIsMadeOnceAndReusedAfter) {
  ensure_state_dir(dir_.string());
  struct stat st {};
  ASSERT_EQ(::stat(dir_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  const std::string path = (dir_ / "lease-token").string();
  const uint32_t a = load_or_create_lease_token(path);
  EXPECT_NE(a, 0u);
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read(path).size(), 11u);  // 0x + 8 digits + newline
  EXPECT_EQ(load_or_create_lease_token(path), a);
  EXPECT_EQ(load_or_create_lease_token(path), a);
  // Nothing else left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(StateFilesTest, BadLeaseTokenFilesAreRefusedNamingTheFault) {
  ensure_state_dir(dir_.string());
  const std::string path = (dir_ / "lease-token").string();
  auto write = [&](const std::string& text, mode_t mode) {
    fs::remove(path);
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
  };
  write("0x0000abcd\n", 0600);
  EXPECT_EQ(load_or_create_lease_token(path), 0xabcdu);
  write("0x0000abcd\n", 0644);  // readable: the lease token is no secret
  EXPECT_EQ(load_or_create_lease_token(path), 0xabcdu);
  write("0x0000abcd\n", 0620);  // writable by another: it could choose whose lease the daemon claims
  EXPECT_NE(refusal(path).find("group or others may write it (mode 0620)"), std::string::npos)
      << refusal(path);
  write("0x00000000\n", 0600);
  EXPECT_NE(refusal(path).find("cannot be one"), std::string::npos);
  for (const char* text : {"", "abcd", "0xABCD0000", "0x1234567", "0x123456789", "0x1234567g"}) {
    write(text, 0600);
    EXPECT_NE(refusal(path).find("is not a lease token"), std::string::npos) << text;
  }
  fs::remove(path);
  fs::create_directory(path);
  EXPECT_NE(refusal(path).find("not a regular file"), std::string::npos) << refusal(path);
  // A state directory that is a file.
  std::ofstream((dir_ / "file").string()) << "x";
  EXPECT_THROW(ensure_state_dir((dir_ / "file").string()), std::runtime_error);
}

TEST_F(StateFilesTest, AtomicWriteReplacesWholeFiles) {
  ensure_state_dir(dir_.string());
  const fs::path p = dir_ / "port";
  write_file_atomically(p.string(), "8080\n", 0644);
  EXPECT_EQ(read(p), "8080\n");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  write_file_atomically(p.string(), "9090\n", 0644);
  EXPECT_EQ(read(p), "9090\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  EXPECT_THROW(write_file_atomically((dir_ / "missing" / "port").string(), "1"), std::runtime_error);
}

}  // namespace
