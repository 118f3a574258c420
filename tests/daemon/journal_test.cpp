// The write-ahead journal: what append() returned for is there after a
// crash; a torn last line is dropped; rewrite() is all or nothing.
#include "journal.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using lightrail::daemon::Journal;
using nlohmann::json;
namespace fs = std::filesystem;

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("lightrail_journal_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "journal.jsonl").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string text() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void write_text(const std::string& t) const { std::ofstream(path_, std::ios::binary) << t; }

  fs::path dir_;
  std::string path_;
};

TEST_F(JournalTest, CreatesPrivateFileAndReadsBackWhatWasAppended) {
  {
    Journal j(path_);
    EXPECT_TRUE(j.records().empty());
    j.append({{"op", "submit"}, {"id", "a"}});
    j.append({{"op", "phase"}, {"id", "a"}, {"text", "line\nbreak \xc3\xa9"}});
  }
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  Journal j(path_);
  ASSERT_EQ(j.records().size(), 2u);
  EXPECT_EQ(j.records()[0]["op"], "submit");
  EXPECT_EQ(j.records()[1]["text"], "line\nbreak \xc3\xa9");
  // One record per line.
  const std::string t = text();
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 2);
}

TEST_F(JournalTest, TornLastLineIsDroppedAndTruncatedAway) {
  write_text("{\"n\":0}\n{\"n\":1}\n{\"n\":2,\"half");
  {
    Journal j(path_);
    ASSERT_EQ(j.records().size(), 2u);
    EXPECT_EQ(j.records()[1]["n"], 1);
    EXPECT_EQ(text(), "{\"n\":0}\n{\"n\":1}\n");
    j.append({{"n", 3}});
  }
  Journal j(path_);
  ASSERT_EQ(j.records().size(), 3u);
  EXPECT_EQ(j.records()[2]["n"], 3);
}

TEST_F(JournalTest, TornLastLineThatParsesIsStillDropped) {
  // Its newline never reached the disk, so its append() never returned.
  write_text("{\"n\":0}\n{\"n\":1}");
  Journal j(path_);
  ASSERT_EQ(j.records().size(), 1u);
  EXPECT_EQ(text(), "{\"n\":0}\n");
}

TEST_F(JournalTest, BadCompleteLineIsAnErrorNamingIt) {
  write_text("{\"n\":0}\n{\"n\":1,\"n\":2}\n{\"n\":3}\n");
  try {
    Journal j(path_);
    FAIL() << "a duplicate key was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2 is not a record"), std::string::npos) << e.what();
  }
  write_text("{\"n\":0}\n\n");
  EXPECT_THROW(Journal{path_}, std::runtime_error);
  // Nothing was truncated by a refused open.
  EXPECT_EQ(text(), "{\"n\":0}\n\n");
}

TEST_F(JournalTest, KilledProcessKeepsEveryRecordAppendedBefore) {
  constexpr int kRecords = 50;
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Journal j(path_);
    for (int i = 0; i < kRecords; ++i) j.append({{"n", i}, {"pad", std::string(100, 'x')}});
    // Dies in the middle of the next record's write.
    const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND);
    const char half[] = "{\"n\":50,\"pad\":\"xx";
    if (::write(fd, half, sizeof half - 1) < 0) _exit(3);
    ::kill(getpid(), SIGKILL);
    _exit(2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  Journal j(path_);
  ASSERT_EQ(j.records().size(), size_t(kRecords));
  for (int i = 0; i < kRecords; ++i) EXPECT_EQ(j.records()[i]["n"], i);
}

TEST_F(JournalTest, SecondOpenOfAJournalInUseIsRefused) {
  Journal a(path_);
  try {
    Journal b(path_);
    FAIL() << "two journals on one file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another process"), std::string::npos) << e.what();
  }
  a.rewrite({json{{"n", 1}}});
  // The lock moves with the rewritten file.
  EXPECT_THROW(Journal{path_}, std::runtime_error);
}

TEST_F(JournalTest, RewriteReplacesEverythingAndAppendsFollowIt) {
  {
    Journal j(path_);
    for (int i = 0; i < 5; ++i) j.append({{"n", i}});
    j.rewrite({json{{"snapshot", 4}}});
    EXPECT_EQ(j.records().size(), 0u);  // records() is what was read at open
    j.append({{"n", 5}});
  }
  EXPECT_FALSE(fs::exists(path_ + ".tmp"));
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  Journal j(path_);
  ASSERT_EQ(j.records().size(), 2u);
  EXPECT_EQ(j.records()[0]["snapshot"], 4);
  EXPECT_EQ(j.records()[1]["n"], 5);
}

TEST_F(JournalTest, FailedRewriteLeavesTheJournalAsItWas) {
  Journal j(path_);
  j.append({{"n", 0}});
  // The temporary's name is taken by a directory: nothing can be written.
  fs::create_directories(path_ + ".tmp");
  EXPECT_THROW(j.rewrite({json{{"n", 9}}}), std::runtime_error);
  fs::remove_all(path_ + ".tmp");
  j.append({{"n", 1}});
  EXPECT_EQ(text(), "{\"n\":0}\n{\"n\":1}\n");
}

TEST_F(JournalTest, UnopenableJournalNamesThePath) {
  try {
    Journal j((dir_ / "missing" / "journal.jsonl").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing/journal.jsonl: cannot open"), std::string::npos)
        << e.what();
  }
}

}  // namespace

// Appends to a journal whose file was deleted (its state directory removed)
// would be lost: linked() tells, and rewrite() makes it linked again.
TEST_F(JournalTest, LinkedTellsWhenTheFileWasDeletedOrReplaced) {
  Journal j(path_);
  j.append({{"n", 1}});
  EXPECT_TRUE(j.linked());
  fs::remove_all(dir_);
  EXPECT_FALSE(j.linked());
  fs::create_directories(dir_);
  write_text("{\"other\":1}\n");  // another file at its name
  EXPECT_FALSE(j.linked());
  fs::remove(path_);
  // Moved aside: the file lives on elsewhere, its name holds nothing.
  const fs::path aside = dir_.string() + ".aside";
  fs::remove_all(aside);
  j.rewrite({{{"n", 1}}});
  fs::rename(dir_, aside);
  EXPECT_FALSE(j.linked());
  fs::create_directories(dir_);
  write_text("{\"other\":1}\n");
  EXPECT_FALSE(j.linked());
  fs::remove(path_);
  fs::remove_all(aside);
  j.rewrite({{{"n", 1}}});
  EXPECT_TRUE(j.linked());
  j.append({{"n", 2}});
  EXPECT_EQ(text(), "{\"n\":1}\n{\"n\":2}\n");
}
