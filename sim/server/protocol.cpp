#include "server/protocol.hpp"

#include <fmt/format.h>

#include "lightrail/json_text.hpp"

namespace lightrail::sim::protocol {
namespace {

Parsed refuse(std::string why) {
  Parsed p;
  p.error = std::move(why);
  return p;
}

// A field as shown in a message: escaped, and cut so a hostile line cannot
// make the reply long.
std::string shown(std::string_view field) {
  constexpr size_t kShown = 32;
  std::string s = printable(std::string(field.substr(0, kShown)));
  if (field.size() > kShown) s += "...";
  return "'" + s + "'";
}

bool hex(std::string_view s, uint32_t& out) {
  if (s.empty() || s.size() > kMaxHexDigits) return false;
  uint32_t v = 0;
  for (char c : s) {
    uint32_t d;
    if (c >= '0' && c <= '9')
      d = uint32_t(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = uint32_t(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = uint32_t(c - 'A' + 10);
    else
      return false;
    v = v << 4 | d;
  }
  out = v;
  return true;
}

bool decimal(std::string_view s, size_t max_digits, uint64_t& out) {
  if (s.empty() || s.size() > max_digits) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
  }
  out = v;
  return true;
}

// Every word of [addr, addr + 4 words) inside the map, else the DECERR reply
// for the first one outside it: nothing of the request reaches the bus.
std::string out_of_map(uint32_t addr, uint64_t words, const char* nothing) {
  if (uint64_t(addr) + 4 * words <= kMapBytes) return "";
  const uint64_t first = addr >= kMapBytes ? 0 : (kMapBytes - addr) / 4;
  return fmt::format("DECERR at word {} (0x{:05X}): outside the {}-bit address map 0x00000..0x{:05X}; {}",
                     first, uint64_t(addr) + 4 * first, hwdef::AXI_ADDR_BITS, kMapBytes - 1, nothing);
}

}  // namespace

Parsed parse_request(std::string_view line) {
  if (line.size() > kMaxLineBytes)
    return refuse(fmt::format("request longer than {} bytes (the longest legal one)", kMaxLineBytes));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c < 0x20 || c > 0x7E)
      return refuse(fmt::format("request has a byte 0x{:02X} at column {}", c, i + 1));
  }
  if (line.empty()) return refuse("empty request");

  std::vector<std::string_view> f;
  for (size_t at = 0;;) {
    const size_t sp = line.find(' ', at);
    f.push_back(line.substr(at, sp == std::string_view::npos ? std::string_view::npos : sp - at));
    if (f.back().empty()) return refuse("malformed request: fields are separated by single spaces");
    if (sp == std::string_view::npos) break;
    at = sp + 1;
  }
  const std::string_view verb = f[0];
  const size_t args = f.size() - 1;
  Parsed p;
  Request& r = p.request;

  if (verb == "HELLO") {
    uint64_t b = 0;
    if (args != 1) return refuse("HELLO takes one argument: HELLO <board>");
    if (!decimal(f[1], kMaxBoardDigits, b))
      return refuse("HELLO: board " + shown(f[1]) + " is not a board number");
    r.verb = Verb::kHello;
    r.board = uint32_t(b);
  } else if (verb == "AUTH") {
    if (args != 1) return refuse("AUTH takes one argument: AUTH <token>");
    if (f[1].size() > kMaxTokenBytes)
      return refuse(fmt::format("AUTH: token longer than {} bytes", kMaxTokenBytes));
    r.verb = Verb::kAuth;
    r.token = std::string(f[1]);
  } else if (verb == "RD") {
    uint64_t n = 0;
    if (args != 2)
      return refuse(fmt::format("RD takes two arguments: RD <addr_hex> <count 1..{}>", kMaxWords));
    if (!hex(f[1], r.addr)) return refuse("RD: address " + shown(f[1]) + " is not 1..8 hex digits");
    if (!decimal(f[2], 4, n) || n == 0 || n > kMaxWords)
      return refuse(fmt::format("RD: count {} is not a decimal number 1..{}", shown(f[2]), kMaxWords));
    if (r.addr % 4) return refuse(fmt::format("RD: address 0x{:X} is not word-aligned", r.addr));
    if (auto e = out_of_map(r.addr, n, "nothing was read"); !e.empty()) return refuse(e);
    r.verb = Verb::kRead;
    r.count = uint32_t(n);
  } else if (verb == "WR") {
    if (args < 2 || args - 1 > kMaxWords)
      return refuse(fmt::format("WR takes an address and 1..{} words (got {}): WR <addr_hex> <w0_hex> ...",
                                kMaxWords, args == 0 ? 0 : args - 1));
    if (!hex(f[1], r.addr)) return refuse("WR: address " + shown(f[1]) + " is not 1..8 hex digits");
    r.words.resize(args - 1);
    for (size_t i = 0; i < r.words.size(); ++i)
      if (!hex(f[2 + i], r.words[i]))
        return refuse(
            fmt::format("WR: word {} {} is not 1..8 hex digits; nothing was written", i, shown(f[2 + i])));
    if (r.addr % 4) return refuse(fmt::format("WR: address 0x{:X} is not word-aligned", r.addr));
    if (auto e = out_of_map(r.addr, r.words.size(), "nothing was written"); !e.empty()) return refuse(e);
    r.verb = Verb::kWrite;
  } else if (verb == "TIME" || verb == "REPORT" || verb == "SHUTDOWN" || verb == "IMAGE") {
    if (args != 0) return refuse(std::string(verb) + " takes no arguments");
    r.verb = verb == "TIME"     ? Verb::kTime
             : verb == "REPORT" ? Verb::kReport
             : verb == "IMAGE"  ? Verb::kImage
                                : Verb::kShutdown;
  } else {
    return refuse("unknown request " + shown(verb) + " (HELLO, AUTH, RD, WR, TIME, REPORT, SHUTDOWN, IMAGE)");
  }
  p.ok = true;
  return p;
}

std::string refused_at(bool write, uint32_t addr, uint32_t resp, uint32_t word) {
  return fmt::format("{} at word {} (0x{:05X}): the board refused it; {}", resp == 3 ? "DECERR" : "SLVERR",
                     word, uint64_t(addr) + 4 * uint64_t(word),
                     !write      ? "nothing was read"
                     : word == 0 ? "nothing was written"
                                 : fmt::format("words 0..{} were written, none after", word - 1));
}

}  // namespace lightrail::sim::protocol
