// The writer's lease and the commands it guards (docs/registers.md, LEASE_*,
// COMMIT, CANCEL): claim, renew, refusal of another token, release, break,
// expiry in board time, and COMMIT / CANCEL only for the live holder.
#include <gtest/gtest.h>

#include <cstdint>

#include "regfile_bench.hpp"

namespace lightrail::hw_bench {
namespace {

constexpr uint32_t kAlice = 0xA11CE001u;
constexpr uint32_t kBob = 0xB0B00002u;

uint64_t ReadExpires(RegfileBench& b) {
  const uint64_t lo = b.ReadOk(hwdef::REG_LEASE_EXPIRES_LO);
  return (static_cast<uint64_t>(b.ReadOk(hwdef::REG_LEASE_EXPIRES_HI)) << 32) | lo;
}

TEST(Lease, ClaimRenewRefuseReleaseAndBreak) {
  RegfileBench b;
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), 0u);
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_TTL_MS), hwdef::LEASE_DEFAULT_TTL_MS);
  const uint64_t ttl = hwdef::LEASE_DEFAULT_TTL_MS * kTicksPerMs;

  b.set_now(0x1'2345'6789ull);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), kAlice);
  EXPECT_EQ(ReadExpires(b), 0x1'2345'6789ull + ttl);

  EXPECT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kBob), kSlvErr) << "another token while the lease lives";
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), kAlice);

  b.set_now(0x2'0000'0000ull);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay) << "renewal";
  EXPECT_EQ(ReadExpires(b), 0x2'0000'0000ull + ttl);

  EXPECT_EQ(b.Write(hwdef::REG_LEASE_RELEASE, kBob), kSlvErr) << "release by a non-holder";
  EXPECT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, 0), kSlvErr) << "token 0";
  EXPECT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice, 0x7), kSlvErr) << "a token needs all four byte lanes";
  EXPECT_EQ(b.Write(hwdef::REG_LEASE_RELEASE, kAlice, 0xE), kSlvErr) << "a token needs all four byte lanes";
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), kAlice);

  ASSERT_EQ(b.Write(hwdef::REG_LEASE_RELEASE, kAlice), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), 0u);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kBob), kOkay) << "a released lease is free";

  b.set_now(0x3'0000'0000ull);
  EXPECT_EQ(b.Write(hwdef::REG_LEASE_BREAK, 0), kSlvErr);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_BREAK, kAlice), kOkay) << "a break takes a live lease";
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_OWNER), kAlice);
  EXPECT_EQ(ReadExpires(b), 0x3'0000'0000ull + ttl);
  EXPECT_EQ(b.Write(hwdef::REG_COMMIT, kBob), kSlvErr) << "the broken holder's token";
  EXPECT_TRUE(b.commits().empty());
}

TEST(Lease, TheTtlIsClampedToOneMillisecondUpToTheMaximum) {
  RegfileBench b;
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_TTL_MS, 0), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_TTL_MS), 1u);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_TTL_MS, hwdef::LEASE_TTL_MAX_MS + 1), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_LEASE_TTL_MS), hwdef::LEASE_TTL_MAX_MS);
  b.set_now(1000);
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay);
  EXPECT_EQ(ReadExpires(b), 1000 + uint64_t{hwdef::LEASE_TTL_MAX_MS} * kTicksPerMs);
}

// Board time, not cycles, ends a lease: the last tick before LEASE_EXPIRES
// still holds it, LEASE_EXPIRES itself does not.
class LeaseExpiry : public testing::Test {
 protected:
  static constexpr uint64_t kClaimedAt = 0x5'0000'0123ull;
  static constexpr uint64_t kExpires = kClaimedAt + 2 * kTicksPerMs;
  RegfileBench b_;
  void SetUp() override {
    ASSERT_EQ(b_.Write(hwdef::REG_LEASE_TTL_MS, 2), kOkay);
    b_.set_now(kClaimedAt);
    ASSERT_EQ(b_.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay);
    ASSERT_EQ(ReadExpires(b_), kExpires);
  }
};

TEST_F(LeaseExpiry, OneTickBeforeExpiryTheHolderStillCommitsAndCancels) {
  b_.set_now(kExpires - 1);
  EXPECT_EQ(b_.ReadOk(hwdef::REG_LEASE_OWNER), kAlice);
  EXPECT_EQ(b_.Write(hwdef::REG_CANCEL, kAlice), kOkay);
  EXPECT_EQ(b_.Write(hwdef::REG_COMMIT, kAlice), kOkay);
  EXPECT_EQ(b_.cancels().size(), 1u);
  EXPECT_EQ(b_.commits().size(), 1u);
  EXPECT_EQ(b_.Write(hwdef::REG_LEASE_CLAIM, kBob), kSlvErr);
}

TEST_F(LeaseExpiry, AtExpiryTheLeaseIsFreeAndTheOldTokenIsRefused) {
  b_.set_now(kExpires);
  EXPECT_EQ(b_.ReadOk(hwdef::REG_LEASE_OWNER), 0u);
  EXPECT_EQ(b_.Write(hwdef::REG_COMMIT, kAlice), kSlvErr);
  EXPECT_EQ(b_.Write(hwdef::REG_CANCEL, kAlice), kSlvErr);
  EXPECT_TRUE(b_.commits().empty());
  EXPECT_TRUE(b_.cancels().empty());
  // Nothing was locked by the refused COMMIT.
  EXPECT_EQ(b_.Write(BankBase(b_.inactive_bank()), 1), kOkay);
  // The expired lease is free for anyone.
  b_.set_now(kExpires + 1'000'000);
  ASSERT_EQ(b_.Write(hwdef::REG_LEASE_CLAIM, kBob), kOkay);
  EXPECT_EQ(b_.ReadOk(hwdef::REG_LEASE_OWNER), kBob);
  EXPECT_EQ(b_.Write(hwdef::REG_COMMIT, kBob), kOkay);
  EXPECT_EQ(b_.commits().size(), 1u);
}

// ---------------------------------------------------------------- COMMIT and CANCEL
TEST(Commit, ThePulseCarriesCrcTimeAndModeAsWrittenForOneCycle) {
  RegfileBench b;
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_CRC, 0xC0FFEE11u), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_CRC, 0x0000AB00u, 0x2), kOkay);  // byte 1 only
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_TIME_LO, 0x89ABCDEFu), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_TIME_HI, 0x01234567u), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_MODE, hwdef::COMMIT_MODE_AT_TIME_MASK), kOkay);
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT_CRC), 0xC0FFAB11u);
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT_MODE), hwdef::COMMIT_MODE_AT_TIME_MASK);

  ASSERT_EQ(b.Write(hwdef::REG_COMMIT, kAlice), kOkay);
  b.Idle(4);
  ASSERT_EQ(b.commits().size(), 1u) << "one pulse, one cycle wide";
  EXPECT_EQ(b.commits()[0].cycle, b.last_write_cycle() + 1);
  EXPECT_EQ(b.commits()[0].crc, 0xC0FFAB11u);
  EXPECT_EQ(b.commits()[0].ticks, 0x01234567'89ABCDEFull);
  EXPECT_TRUE(b.commits()[0].at_time);

  b.EndCommit();
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT_MODE, 0), kOkay);
  ASSERT_EQ(b.Write(hwdef::REG_COMMIT, kAlice), kOkay);
  b.Idle(4);
  ASSERT_EQ(b.commits().size(), 2u);
  EXPECT_FALSE(b.commits()[1].at_time);
  EXPECT_EQ(b.ReadOk(hwdef::REG_COMMIT), 0u) << "a token register reads 0";
}

TEST(Cancel, OnlyTheLiveHolderPulsesCancel) {
  RegfileBench b;
  EXPECT_EQ(b.Write(hwdef::REG_CANCEL, kAlice), kSlvErr) << "no lease";
  ASSERT_EQ(b.Write(hwdef::REG_LEASE_CLAIM, kAlice), kOkay);
  EXPECT_EQ(b.Write(hwdef::REG_CANCEL, kBob), kSlvErr) << "not the holder";
  EXPECT_EQ(b.Write(hwdef::REG_CANCEL, kAlice, 0x7), kSlvErr) << "three byte lanes of the token";
  EXPECT_TRUE(b.cancels().empty());
  ASSERT_EQ(b.Write(hwdef::REG_CANCEL, kAlice), kOkay);
  b.Idle(4);
  ASSERT_EQ(b.cancels().size(), 1u) << "one pulse, one cycle wide";
  EXPECT_EQ(b.cancels()[0], b.last_write_cycle() + 1);
  EXPECT_TRUE(b.commits().empty());
  EXPECT_EQ(b.ReadOk(hwdef::REG_CANCEL), 0u) << "a token register reads 0";
}

}  // namespace
}  // namespace lightrail::hw_bench
