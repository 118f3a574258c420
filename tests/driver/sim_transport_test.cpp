#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>

#include "fake_board.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "loopback_server.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;
using test::FakeBoard;
using test::LoopbackServer;

TEST(SimTransport, ReadsAndWritesBlocksInChunks) {
  FakeBoard board;
  LoopbackServer server(board);
  auto t = open_sim_transport(server.uri());
  std::vector<uint32_t> words(5000);
  for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint32_t>(i * 2654435761u);
  t->write_block(hw::MEM_BANK1_BASE, words);
  EXPECT_EQ(board.peek(hw::MEM_BANK1_BASE + 4 * 4999), words[4999]);
  const int before = server.requests;
  EXPECT_EQ(t->read_block(hw::MEM_BANK1_BASE, 5000), words);
  EXPECT_EQ(server.requests - before, 2);  // 4096 + 904
  EXPECT_EQ(t->read32(hw::REG_CAP_MAGIC), hw::CAP_MAGIC_VALUE);
}

TEST(SimTransport, DeviceStagesAndCommitsOverTheSocket) {
  FakeBoard board;
  LoopbackServer server(board);
  Device dev = Device::open(server.uri());
  EXPECT_EQ(dev.capabilities().ports, hw::PORTS);
  dev.stage(test::two_shifts());
  dev.commit(CommitAt::epoch());
  EXPECT_EQ(board.active_bank, 1u);
  EXPECT_EQ(dev.status().generation, 7u);
}

TEST(SimTransport, UnknownBoardIsRefused) {
  FakeBoard board;
  LoopbackServer server(board);
  try {
    open_sim_transport(server.uri(3));
    FAIL();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("no board 3"), std::string::npos) << e.what();
  }
}

TEST(SimTransport, ConnectionRefusedNamesTheUri) {
  FakeBoard board;
  unsigned short port = 0;
  {
    LoopbackServer server(board);
    port = server.port();
  }
  const std::string uri = "sim://127.0.0.1:" + std::to_string(port) + "/0";
  try {
    open_sim_transport(uri, 500);
    FAIL();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find(uri), std::string::npos) << e.what();
  }
}

TEST(SimTransport, MalformedUriIsAFormatError) {
  EXPECT_THROW(open_sim_transport("sim://localhost/0"), FormatError);
  EXPECT_THROW(open_sim_transport("sim://localhost:7000/x"), FormatError);
}

TEST(SimTransport, DroppedConnectionMidBlockThenRecovery) {
  FakeBoard board;
  LoopbackServer server(board);
  Device dev = Device::open(server.uri());
  // Die once on the step-table write of the next stage.
  std::atomic<bool> dropped{false};
  const std::string step_write = "WR " + fmt::format("{:x}", hw::MEM_BANK1_BASE + 4 * hw::IMG_STEP_BASE_WORD);
  server.drop_when = [&](const std::string& line) {
    return line.rfind(step_write, 0) == 0 && !dropped.exchange(true);
  };
  EXPECT_THROW(dev.stage(test::two_shifts()), TransportError);
  // The same device reconnects; a fresh one works as well once the first
  // lets go of the board.
  dev.stage(test::two_shifts());
  dev.release();
  Device again = Device::open(server.uri());
  again.stage(test::two_shifts());
  again.commit(CommitAt::epoch());
  EXPECT_EQ(board.active_bank, 1u);
}

TEST(SimTransport, SilentServerTimesOut) {
  // A server that accepts but never answers: a raw acceptor with no reads.
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor mute(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  const std::string uri = "sim://127.0.0.1:" + std::to_string(mute.local_endpoint().port()) + "/0";
  try {
    open_sim_transport(uri, 300);
    FAIL();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lightrail
