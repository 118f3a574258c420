#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

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
    open_sim_transport(uri, std::chrono::milliseconds(500));
    FAIL();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find(uri), std::string::npos) << e.what();
  }
}

TEST(SimTransport, MalformedUriIsAFormatError) {
  EXPECT_THROW(open_sim_transport("sim://localhost/0"), FormatError);
  EXPECT_THROW(open_sim_transport("sim://localhost:7000/x"), FormatError);
}

// The message of the FormatError opening `uri` throws ("" if none).
std::string uri_error(const std::string& uri) {
  try {
    open_sim_transport(uri, std::chrono::milliseconds(500));
  } catch (const FormatError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a FormatError: ") + e.what();
  }
  return "";
}

TEST(SimTransport, EveryUriPartIsCheckedAndNamed) {
  // Port 70000 used to wrap to 4464 and connect there.
  EXPECT_NE(uri_error("sim://127.0.0.1:70000/0").find("port \"70000\" is not a port number (1..65535)"),
            std::string::npos)
      << uri_error("sim://127.0.0.1:70000/0");
  EXPECT_NE(uri_error("sim://127.0.0.1:0/0").find("port \"0\""), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:+80/0").find("port \"+80\""), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:99999999999999999999999/0").find("port"), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:7000/-1").find("board \"-1\""), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:7000/2147483648").find("board \"2147483648\""), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:7000/0?x").find("board \"0?x\""), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:7000/").find("board \"\""), std::string::npos);
  EXPECT_NE(uri_error("sim://:7000/0").find("no host"), std::string::npos);
  EXPECT_NE(uri_error("sim://a b:7000/0").find("host \"a b\""), std::string::npos);
  EXPECT_NE(uri_error("sim://::1:7000/0").find("no host"), std::string::npos);
  EXPECT_NE(uri_error("sim://[::1:7000/0").find("no closing ']'"), std::string::npos);
  EXPECT_NE(uri_error("sim://[zz::1]:7000/0").find("not an IPv6 address"), std::string::npos);
  EXPECT_NE(uri_error("sim://127.0.0.1:7000").find("no /BOARD"), std::string::npos);
  // Control characters in a URI are escaped in the message.
  const std::string escaped = uri_error("sim://a\nb:7000/0");
  EXPECT_NE(escaped.find("a\\nb"), std::string::npos) << escaped;
  EXPECT_EQ(escaped.find('\n'), std::string::npos) << escaped;
}

TEST(SimTransport, Ipv6LoopbackInBrackets) {
  FakeBoard board;
  std::unique_ptr<LoopbackServer> server;
  try {
    server = std::make_unique<LoopbackServer>(board, "::1");
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no IPv6 loopback here: " << e.what();
  }
  ASSERT_EQ(server->uri().rfind("sim://[::1]:", 0), 0u) << server->uri();
  auto t = open_sim_transport(server->uri());
  EXPECT_EQ(t->read32(hw::REG_CAP_MAGIC), hw::CAP_MAGIC_VALUE);
}

// Sets LIGHTRAIL_SIM_TOKEN_FILE to a file holding `text` with `mode`, for
// the life of the object.
class TokenFile {
 public:
  TokenFile(const std::string& text, mode_t mode)
      : path_(::testing::TempDir() + "lightrail_token_" + std::to_string(getpid())) {
    std::ofstream(path_) << text;
    chmod(path_.c_str(), mode);
    setenv(kSimTokenFileEnv, path_.c_str(), 1);
  }
  ~TokenFile() {
    unsetenv(kSimTokenFileEnv);
    std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(SimTransport, TokenIsSentOnceAfterEveryHello) {
  FakeBoard board;
  LoopbackServer server(board);
  server.token = "s3cret-token-0123456789";
  {
    // Without the token the server refuses work: the driver says what it said.
    try {
      open_sim_transport(server.uri())->read32(hw::REG_CAP_MAGIC);
      FAIL() << "read without a token";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("AUTH"), std::string::npos) << e.what();
    }
  }
  TokenFile token("s3cret-token-0123456789\r\n", 0600);  // a final CRLF is not part of it
  auto t = open_sim_transport(server.uri());
  EXPECT_EQ(t->read32(hw::REG_CAP_MAGIC), hw::CAP_MAGIC_VALUE);
  auto lines = server.lines();
  ASSERT_GE(lines.size(), 5u);
  const size_t at = lines.size() - 3;  // this connection: HELLO, AUTH, RD
  EXPECT_EQ(lines[at], "HELLO 0");
  EXPECT_EQ(lines[at + 1], "AUTH s3cret-token-0123456789");
  EXPECT_EQ(lines[at + 2].rfind("RD ", 0), 0u) << lines[at + 2];

  // A dropped connection: the reconnect authenticates again.
  std::atomic<bool> dropped{false};
  server.drop_when = [&](const std::string& line) {
    return line.rfind("WR", 0) == 0 && !dropped.exchange(true);
  };
  EXPECT_THROW(t->write32(hw::MEM_BANK1_BASE, 1), TransportError);
  t->write32(hw::MEM_BANK1_BASE, 2);
  EXPECT_EQ(board.peek(hw::MEM_BANK1_BASE), 2u);
  lines = server.lines();
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[lines.size() - 3], "HELLO 0");
  EXPECT_EQ(lines[lines.size() - 2], "AUTH s3cret-token-0123456789");
}

TEST(SimTransport, RefusedTokenIsATransportErrorThatDoesNotShowIt) {
  FakeBoard board;
  LoopbackServer server(board);
  server.token = "right-token-0123456789";
  TokenFile token("wrong-secret-0123456789", 0600);
  try {
    open_sim_transport(server.uri());
    FAIL() << "a wrong token was accepted";
  } catch (const TransportError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("board server refused the token of " + std::string(kSimTokenFileEnv) + " " +
                        token.path() + ": wrong token"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find("wrong-secret-0123456789"), std::string::npos) << what;
  }
}

// The rule of every token file (read_token_file, docs/driver.md "Token
// files"), the daemon's and `lightrail job`'s too.
TEST(SimTransport, TokenFileMustBePrivateAndOneWord) {
  FakeBoard board;
  LoopbackServer server(board);
  server.token = "token-0123456789";
  auto refusal = [&] {
    try {
      open_sim_transport(server.uri());
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  {
    TokenFile token("token-0123456789", 0640);
    EXPECT_NE(refusal().find("group or others may use it (mode 0640)"), std::string::npos) << refusal();
  }
  {
    TokenFile token("two words, more than 16", 0600);
    EXPECT_NE(refusal().find("printable ASCII without spaces"), std::string::npos) << refusal();
  }
  {
    TokenFile token("token-0123456789\nRD 0 1", 0600);  // would inject a request line
    EXPECT_NE(refusal().find("printable ASCII without spaces"), std::string::npos) << refusal();
  }
  {
    TokenFile token("token-0123456789\n\n", 0600);  // one final newline only
    EXPECT_NE(refusal().find("printable ASCII without spaces"), std::string::npos) << refusal();
  }
  {
    TokenFile token("short-token\n", 0600);
    EXPECT_NE(refusal().find("16..256 characters (it has 11)"), std::string::npos) << refusal();
  }
  {
    TokenFile token("", 0600);
    EXPECT_NE(refusal().find("(it has 0)"), std::string::npos) << refusal();
  }
  setenv(kSimTokenFileEnv, "/nonexistent/token", 1);
  EXPECT_NE(refusal().find(std::string(kSimTokenFileEnv) + ": token file /nonexistent/token: cannot open"),
            std::string::npos)
      << refusal();
  unsetenv(kSimTokenFileEnv);
  EXPECT_EQ(server.requests, 0);  // nothing was sent without a usable token
}

TEST(SimTransport, OverlongReplyIsNamedWithItsLimit) {
  FakeBoard board;
  LoopbackServer server(board);
  auto t = open_sim_transport(server.uri());
  server.reply_when = [](const std::string& line) -> std::optional<std::string> {
    if (line.rfind("RD", 0) == 0) return "OK " + std::string(100000, '1');
    return std::nullopt;
  };
  try {
    t->read32(hw::REG_CAP_MAGIC);
    FAIL() << "an endless reply was accepted";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("reply longer than 65536 bytes from 127.0.0.1:" +
                                         std::to_string(server.port())),
              std::string::npos)
        << e.what();
  }
  server.reply_when = nullptr;
  EXPECT_EQ(t->read32(hw::REG_CAP_MAGIC), hw::CAP_MAGIC_VALUE);  // reconnected
}

TEST(SimTransport, GarbageRepliesAreRefused) {
  FakeBoard board;
  LoopbackServer server(board);
  auto t = open_sim_transport(server.uri());
  std::string reply;
  server.reply_when = [&](const std::string& line) -> std::optional<std::string> {
    if (line.rfind("RD", 0) == 0) return reply;
    return std::nullopt;
  };
  auto error = [&](const std::string& r) {
    reply = r;
    try {
      t->read32(hw::REG_CAP_MAGIC);
    } catch (const TransportError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error("OK 123456789").find("\"123456789\" is not a 32-bit hex word"), std::string::npos);
  EXPECT_NE(error("OK -1").find("\"-1\" is not"), std::string::npos);
  EXPECT_NE(error("OK +5").find("\"+5\" is not"), std::string::npos);
  EXPECT_NE(error("OK 1 2").find("more than the 1 words"), std::string::npos);
  EXPECT_NE(error("OK 1\nOK 2").find("more than one reply line"), std::string::npos);
  EXPECT_NE(error("ERRATIC").find("unexpected reply \"ERRATIC\""), std::string::npos);
  EXPECT_NE(error("OK \x1b[2J").find("\\u001b[2J"), std::string::npos) << error("OK \x1b[2J");
  reply = "OK 0xFFFFFFFF";
  EXPECT_EQ(t->read32(hw::REG_CAP_MAGIC), 0xFFFFFFFFu);
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
    open_sim_transport(uri, std::chrono::milliseconds(300));
    FAIL();
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lightrail
