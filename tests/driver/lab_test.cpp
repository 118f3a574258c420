// Issue 11: the driver side of the lab commands: the build ID read from the
// capability block, the board image descriptor and its comparison with a
// board, the register-path self-test, health inputs, clearing sticky flags.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fake_board.hpp"
#include "lightrail/board_image.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using test::FakeBoard;
using test::FakeTransport;

Device open_fake(FakeBoard& board) { return Device(std::make_unique<FakeTransport>(board)); }

TEST(Lab, BuildIdComesFromTheCapabilityBlock) {
  FakeBoard board;
  board.write(hw::REG_CAP_BUILD_HASH_LO, 0x89abcdefu);
  board.write(hw::REG_CAP_BUILD_HASH_HI, 0x01234567u);
  board.write(hw::REG_CAP_BUILD_TIME, 1796523668u);
  Device dev = open_fake(board);
  EXPECT_EQ(dev.build_id().source_hash, 0x0123456789abcdefull);
  EXPECT_EQ(dev.build_id().source_hash_hex(), "0123456789abcdef");
  EXPECT_EQ(dev.build_id().build_time, 1796523668u);
  EXPECT_EQ(dev.build_id().regmap_version, hw::REGMAP_VERSION);
  EXPECT_EQ(dev.image_uuid(), std::nullopt) << "the fake board's platform reports no image";
}

TEST(Lab, SelfTestLeavesScratchAsItWasAndNeedsTheLease) {
  FakeBoard board;
  board.write(hw::REG_SCRATCH, 0x1234u);
  Device dev = open_fake(board);
  EXPECT_GE(dev.self_test(), 8);
  EXPECT_EQ(board.peek(hw::REG_SCRATCH), 0x1234u);
  dev.release();
  board.lease_owner = 0x77u;  // another writer holds the board
  EXPECT_THROW(dev.self_test(), LeaseError);
}

TEST(Lab, SelfTestCatchesAStuckBit) {
  FakeBoard board;
  board.stuck_addr = hw::REG_SCRATCH;  // bit 0 reads back set
  Device dev = open_fake(board);
  try {
    dev.self_test();
    FAIL() << "a stuck SCRATCH bit passed";
  } catch (const VerifyError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("SCRATCH"), std::string::npos) << what;
    EXPECT_NE(what.find("0x00000001"), std::string::npos) << what;
  }
}

TEST(Lab, HealthInputsAndClearingStickyFlags) {
  FakeBoard board;
  board.write(hw::REG_HEALTH, hw::HEALTH_MMCM_LOCKED_MASK);
  board.error = hw::ERROR_MISSED_DEADLINE_MASK;
  Device dev = open_fake(board);
  const HealthInputs in = dev.health_inputs();
  EXPECT_TRUE(in.mmcm_locked);
  EXPECT_FALSE(in.link_up);
  EXPECT_EQ(in.temperature_c, std::nullopt);
  const std::vector<std::string> cleared = dev.clear_sticky_errors();
  ASSERT_EQ(cleared.size(), 1u);
  EXPECT_EQ(cleared[0], "ERROR.MISSED_DEADLINE");
  EXPECT_TRUE(dev.status().errors.empty());
}

class Descriptor : public ::testing::Test {
 protected:
  std::string path = ::testing::TempDir() + "lab_test.image.json";
  void write(const std::string& text) { std::ofstream(path) << text; }
  void TearDown() override { std::remove(path.c_str()); }
  static std::string good() {
    return R"({"format": "lightrail-board-image", "format_version": 1, "target": "zcu102",
      "uuid": "4f08c2a1-1111-2222-3333-444455556666",
      "build": {"source_hash": "0123456789abcdef", "build_time": 1796523668, "regmap_version": 3},
      "xclbin": "lightrail.xclbin"})";
  }
};

TEST_F(Descriptor, ReadsAGoodOneAndResolvesTheXclbin) {
  write(good());
  const BoardImage im = read_board_image(path);
  EXPECT_EQ(im.target, "zcu102");
  EXPECT_EQ(im.uuid, "4f08c2a1-1111-2222-3333-444455556666");
  EXPECT_EQ(im.build.source_hash, 0x0123456789abcdefull);
  EXPECT_EQ(im.build.build_time, 1796523668u);
  EXPECT_EQ(im.build.regmap_version, 3u);
  ASSERT_TRUE(im.xclbin.has_value());
  EXPECT_EQ(*im.xclbin, (std::filesystem::path(path).parent_path() / "lightrail.xclbin").string());
}

TEST_F(Descriptor, NamesEveryBadField) {
  write(R"({"format": "lightrail-board-image", "format_version": 1, "target": "cosim",
    "uuid": "4F08C2A1-1111-2222-3333-444455556666",
    "build": {"source_hash": "0123", "build_time": -1, "regmap_version": 0},
    "xclbin": "x.xclbin", "extra": 1})");
  try {
    read_board_image(path);
    FAIL();
  } catch (const FormatError& e) {
    std::string where;
    for (const Problem& p : e.problems()) where += p.where + " ";
    EXPECT_EQ(where, "uuid build.source_hash build.build_time build.regmap_version xclbin extra ");
  }
  write("not json");
  EXPECT_THROW(read_board_image(path), FormatError);
  write(good() + std::string(70 * 1024, ' '));  // valid JSON, but no descriptor is that large
  try {
    read_board_image(path);
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_board_image(path + ".missing"), FormatError);
}

TEST_F(Descriptor, ComparesEveryFieldWithTheBoard) {
  write(good());
  const BoardImage im = read_board_image(path);
  BuildId board = im.build;
  EXPECT_TRUE(compare_image(im, board, im.uuid).empty());
  board.source_hash ^= 1;
  board.build_time += 1;
  board.regmap_version += 1;
  const std::vector<ImageMismatch> m = compare_image(im, board, std::nullopt);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].field, "uuid");
  EXPECT_EQ(m[0].board, "(not reported)");
  EXPECT_EQ(m[1].field, "build.source_hash");
  EXPECT_EQ(m[1].board, "0123456789abcdee");
  EXPECT_EQ(m[2].field, "build.build_time");
  EXPECT_EQ(m[3].field, "build.regmap_version");
}

}  // namespace
}  // namespace lightrail
