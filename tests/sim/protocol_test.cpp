// The board server's request parser (sim/server/protocol.hpp): strict
// grammar, the address map enforced before anything reaches a bus, the line
// limit derived from the longest legal request.
#include "server/protocol.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace lightrail::sim::protocol {
namespace {

std::string error_of(const std::string& line) {
  const Parsed p = parse_request(line);
  EXPECT_FALSE(p.ok) << line;
  return p.error;
}

Request ok(const std::string& line) {
  const Parsed p = parse_request(line);
  EXPECT_TRUE(p.ok) << line << ": " << p.error;
  return p.request;
}

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(Protocol, ParsesEveryRequest) {
  EXPECT_EQ(ok("HELLO 3").verb, Verb::kHello);
  EXPECT_EQ(ok("HELLO 3").board, 3u);
  const Request rd = ok("RD 3fffc 1");
  EXPECT_EQ(rd.verb, Verb::kRead);
  EXPECT_EQ(rd.addr, 0x3FFFCu);
  EXPECT_EQ(rd.count, 1u);
  const Request wr = ok("WR 40 1 FFFFFFFF 0");
  EXPECT_EQ(wr.verb, Verb::kWrite);
  EXPECT_EQ(wr.addr, 0x40u);
  EXPECT_EQ(wr.words, (std::vector<uint32_t>{1, 0xFFFFFFFF, 0}));
  EXPECT_EQ(ok("TIME").verb, Verb::kTime);
  EXPECT_EQ(ok("REPORT\r").verb, Verb::kReport);
  EXPECT_EQ(ok("SHUTDOWN").verb, Verb::kShutdown);
  EXPECT_EQ(ok("AUTH s3cret-token-0123").token, "s3cret-token-0123");
}

// Before the fix: `RD 40000 1` read the capability magic, `WR 40040 ...`
// wrote CTRL (the address wrapped into the 18-bit map).
TEST(Protocol, AddressesOutsideTheMapAreDecerrWithoutReachingTheBus) {
  const std::string end = fmt::format("{:x}", kMapBytes);
  EXPECT_TRUE(
      starts(error_of("RD " + end + " 1"), "DECERR at word 0 (0x40000): outside the 18-bit address map"))
      << error_of("RD " + end + " 1");
  EXPECT_TRUE(starts(error_of("WR 40040 4"), "DECERR at word 0 (0x40040)"));
  EXPECT_TRUE(starts(error_of("RD fffffffc 1"), "DECERR at word 0"));
  // The last word passes the end: refused whole, naming the first word out.
  EXPECT_TRUE(starts(error_of("WR 3fff8 1 2 3"), "DECERR at word 2 (0x40000)")) << error_of("WR 3fff8 1 2 3");
  EXPECT_TRUE(starts(error_of("RD 3f000 1025"), "DECERR at word 1024 (0x40000)"));
  EXPECT_NE(error_of("WR 3fff8 1 2 3").find("nothing was written"), std::string::npos);
  EXPECT_EQ(ok("RD 3f000 1024").count, 1024u);  // ends exactly at the map's end
}

TEST(Protocol, NumbersAreStrict) {
  EXPECT_TRUE(starts(error_of("RD -4 1"), "RD: address '-4' is not 1..8 hex digits"));
  EXPECT_TRUE(starts(error_of("RD +4 1"), "RD: address"));
  EXPECT_TRUE(starts(error_of("RD 0x4 1"), "RD: address"));
  EXPECT_TRUE(starts(error_of("RD 100000000 1"), "RD: address"));  // nine digits
  EXPECT_TRUE(starts(error_of("RD 60 1e3"), "RD: count '1e3'"));
  EXPECT_TRUE(starts(error_of("RD 60 0"), "RD: count"));
  EXPECT_TRUE(starts(error_of("RD 60 4097"), "RD: count"));
  EXPECT_TRUE(starts(error_of("RD 60 -1"), "RD: count"));
  EXPECT_TRUE(starts(error_of("RD 62 1"), "RD: address 0x62 is not word-aligned"));
  EXPECT_TRUE(starts(error_of("WR 60 1 2g"), "WR: word 1 '2g' is not 1..8 hex digits"));
  EXPECT_TRUE(starts(error_of("WR 60 -1"), "WR: word 0"));
  EXPECT_TRUE(starts(error_of("WR 60 123456789"), "WR: word 0"));
  EXPECT_TRUE(starts(error_of("HELLO x"), "HELLO: board 'x' is not a board number"));
  EXPECT_TRUE(starts(error_of("HELLO -1"), "HELLO: board"));
  EXPECT_TRUE(starts(error_of("HELLO 1234567890"), "HELLO: board"));
}

TEST(Protocol, NoTrailingOrMissingFields) {
  EXPECT_TRUE(starts(error_of("RD 60 1 junk"), "RD takes two arguments"));
  EXPECT_TRUE(starts(error_of("RD 60"), "RD takes two arguments"));
  EXPECT_TRUE(starts(error_of("HELLO 0 1"), "HELLO takes one argument"));
  EXPECT_TRUE(starts(error_of("HELLO"), "HELLO takes one argument"));
  EXPECT_TRUE(starts(error_of("TIME now"), "TIME takes no arguments"));
  EXPECT_TRUE(starts(error_of("SHUTDOWN please"), "SHUTDOWN takes no arguments"));
  EXPECT_TRUE(starts(error_of("WR 60"), "WR takes an address and 1..4096 words (got 0)"));
  EXPECT_TRUE(starts(error_of("AUTH"), "AUTH takes one argument"));
  EXPECT_TRUE(starts(error_of("AUTH a b"), "AUTH takes one argument"));
  EXPECT_TRUE(starts(error_of("RD 60 1 "), "malformed request: fields are separated by single spaces"));
  EXPECT_TRUE(starts(error_of("RD  60 1"), "malformed request"));
  EXPECT_TRUE(starts(error_of(" TIME"), "malformed request"));
  EXPECT_EQ(error_of(""), "empty request");
  EXPECT_TRUE(starts(error_of("rd 60 1"), "unknown request 'rd'"));
}

TEST(Protocol, ControlBytesAreRefusedAndNotEchoed) {
  EXPECT_TRUE(starts(error_of(std::string("TIME\0", 5)), "request has a byte 0x00 at column 5"));
  EXPECT_TRUE(starts(error_of("RD\t60 1"), "request has a byte 0x09 at column 3"));
  EXPECT_TRUE(starts(error_of("TIME\r\r"), "request has a byte 0x0D"));
  EXPECT_TRUE(starts(error_of("\x1b[2J"), "request has a byte 0x1B"));
  // A long unknown verb is cut in the message.
  const std::string e = error_of(std::string(1000, 'X'));
  EXPECT_LT(e.size(), 150u) << e;
}

TEST(Protocol, TheLongestLegalWriteFitsTheLineLimitAndOneMoreByteDoesNot) {
  std::string line = "WR 00020000";
  for (size_t i = 0; i < kMaxWords; ++i) line += " ffffffff";
  line += "\r";
  EXPECT_EQ(line.size(), kMaxLineBytes);
  const Request r = ok(line);
  EXPECT_EQ(r.words.size(), kMaxWords);
  EXPECT_EQ(r.words.back(), 0xFFFFFFFFu);
  EXPECT_TRUE(starts(error_of(line + "\r"), "request longer than"));
  // 4097 short words fit in the line but not in a request.
  std::string many = "WR 20000";
  for (size_t i = 0; i <= kMaxWords; ++i) many += " 1";
  EXPECT_TRUE(starts(error_of(many), "WR takes an address and 1..4096 words (got 4097)"));
}

TEST(Protocol, ARefusedWordSaysHowFarTheRequestWent) {
  EXPECT_EQ(refused_at(true, 0x13FF8, 2, 2),
            "SLVERR at word 2 (0x14000): the board refused it; words 0..1 were written, none after");
  EXPECT_EQ(refused_at(true, 0x0, 2, 0),
            "SLVERR at word 0 (0x00000): the board refused it; nothing was written");
  EXPECT_EQ(refused_at(false, 0x100, 3, 1),
            "DECERR at word 1 (0x00104): the board refused it; nothing was read");
}

TEST(Protocol, Tokens) {
  EXPECT_EQ(token_problem("0123456789abcdef"), "");
  EXPECT_NE(token_problem("short"), "");
  EXPECT_NE(token_problem("0123456789 abcdef"), "");
  EXPECT_NE(token_problem(std::string(kMaxTokenBytes + 1, 'a')), "");
  EXPECT_TRUE(same_token("0123456789abcdef", "0123456789abcdef"));
  EXPECT_FALSE(same_token("0123456789abcdef", "0123456789abcdeF"));
  EXPECT_FALSE(same_token("0123456789abcdef", "0123456789abcde"));
  EXPECT_FALSE(same_token("0123456789abcdef", "0123456789abcdef0"));
  EXPECT_FALSE(same_token("0123456789abcdef", ""));
  EXPECT_TRUE(starts(error_of("AUTH " + std::string(kMaxTokenBytes + 1, 'a')), "AUTH: token longer than"));
}

}  // namespace
}  // namespace lightrail::sim::protocol
