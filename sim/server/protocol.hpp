// The board server's request line (docs/cosim.md, "Board server protocol"):
// one line in, one parsed request or the reason it is refused out. Pure (no
// sockets, no SystemC), so it can be unit-tested and fuzzed on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lightrail/hwdef.hpp"
#include "lightrail/token_file.hpp"

namespace lightrail::sim::protocol {

inline constexpr size_t kMaxWords = 4096;     // per RD or WR
inline constexpr size_t kMaxHexDigits = 8;    // one address or word
inline constexpr size_t kMaxBoardDigits = 9;  // HELLO's board number
// AUTH tokens are token files' tokens (lightrail/token_file.hpp).
using lightrail::kMaxTokenBytes;
using lightrail::kMinTokenBytes;
inline constexpr uint64_t kMapBytes = uint64_t(1) << hwdef::AXI_ADDR_BITS;
// The longest legal line, "WR <addr> <w0> ... <w4095>" with every number at
// its widest, plus an optional '\r' (the '\n' not counted): a longer line
// cannot be a request.
inline constexpr size_t kMaxLineBytes = 2 + (1 + kMaxHexDigits) * (1 + kMaxWords) + 1;

enum class Verb { kHello, kAuth, kRead, kWrite, kTime, kReport, kShutdown, kImage };

struct Request {
  Verb verb = Verb::kTime;
  uint32_t board = 0;           // HELLO
  std::string token;            // AUTH
  uint32_t addr = 0;            // RD, WR: byte address of the first word
  uint32_t count = 0;           // RD: words to read
  std::vector<uint32_t> words;  // WR: words to write at addr + 4i
};

struct Parsed {
  bool ok = false;
  Request request;    // when ok
  std::string error;  // otherwise: the reply after "ERR ", e.g. "DECERR at word 0 (0x40000): ..."
};

// `line` without its '\n'; one trailing '\r' is allowed. Numbers: hex
// without sign or prefix (1..8 digits), counts and boards decimal; fields
// separated by single spaces. RD and WR are refused whole (DECERR) when any
// of their words lies outside the AXI address map, and when unaligned.
Parsed parse_request(std::string_view line);

// The reply text (after "ERR ") for a request the board refused at word
// `word` with AXI response `resp` (2 SLVERR, 3 DECERR): the bus stops at the
// first refused word, so the client learns exactly how far a write went.
std::string refused_at(bool write, uint32_t addr, uint32_t resp, uint32_t word);

using lightrail::same_token;
using lightrail::token_problem;

}  // namespace lightrail::sim::protocol
