// Idempotency keys: which keys are taken, which requests find a key again,
// and the bounds on what is kept (docs/lightraild.md, "Safe retries").
#include "idempotency.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace lightrail::daemon;

constexpr int64_t kHour = 3600 * 1000;

TEST(IdempotencyTest, KeysArePrintableWordsUpTo128Characters) {
  EXPECT_EQ(idempotency_key_problem("8e03978e-40d5-43e8-bc93-6894a57f9324"), "");
  EXPECT_EQ(idempotency_key_problem("slurm:1234/prolog+0="), "");
  EXPECT_EQ(idempotency_key_problem(std::string(128, 'k')), "");
  EXPECT_NE(idempotency_key_problem(""), "");
  EXPECT_NE(idempotency_key_problem(std::string(129, 'k')), "");
  for (const char* bad : {"a b", "a\"b", "a\\b", "a\tb", "caf\xc3\xa9"})
    EXPECT_NE(idempotency_key_problem(bad), "") << bad;
}

TEST(IdempotencyTest, AKeyIsFoundByItsOwnerOnlyUntilItExpires) {
  IdempotencyKeys keys(24 * kHour, 100);
  keys.remember({"alice", "k1", "j1", 1000}, 1000);
  ASSERT_TRUE(keys.find("alice", "k1", 1000 + kHour));
  EXPECT_EQ(keys.find("alice", "k1", 1000 + kHour)->id, "j1");
  EXPECT_FALSE(keys.find("bob", "k1", 1000)) << "another owner's key of the same name is another key";
  EXPECT_FALSE(keys.find("alice", "k2", 1000));
  EXPECT_TRUE(keys.find("alice", "k1", 1000 + 24 * kHour - 1));
  EXPECT_FALSE(keys.find("alice", "k1", 1000 + 24 * kHour)) << "kept for the retention time only";
}

TEST(IdempotencyTest, BeyondTheCountTheOldestKeysGoFirst) {
  IdempotencyKeys keys(24 * kHour, 3);
  for (int i = 0; i < 5; ++i) keys.remember({"m", "k" + std::to_string(i), "j" + std::to_string(i), i}, 10);
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_FALSE(keys.find("m", "k0", 10));
  EXPECT_FALSE(keys.find("m", "k1", 10));
  for (int i = 2; i < 5; ++i) EXPECT_TRUE(keys.find("m", "k" + std::to_string(i), 10)) << i;
  // Expired keys are dropped when another is remembered.
  keys.remember({"m", "late", "j9", 24 * kHour + 3}, 24 * kHour + 3);
  EXPECT_EQ(keys.size(), 2u);
}

TEST(IdempotencyTest, ARecordReadsBackAsTheKeyItWasMadeOf) {
  const RememberedKey k{"slurm", "job-42", "j7", 1765000000000};
  const auto back = IdempotencyKeys::from_record(IdempotencyKeys::record(k));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->owner, k.owner);
  EXPECT_EQ(back->key, k.key);
  EXPECT_EQ(back->id, k.id);
  EXPECT_EQ(back->at_ms, k.at_ms);
  EXPECT_FALSE(IdempotencyKeys::from_record({{"type", "delete"}, {"id", "j7"}}));
}

}  // namespace
