#include "lightrail/json_text.hpp"

#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "lightrail/errors.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

constexpr int kMaxJsonDepth = 256;

// Line and column of byte offset `byte` (0-based) of text.
std::string line_column(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("line {}, column {}", line, column);
}

// Tracks where the parser is, for the duplicate-key check and its message.
struct Frame {
  bool object = false;
  std::set<std::string> keys;
  std::string key;       // object: the key whose value is being read
  size_t index = 0;      // array: the element being read
  bool started = false;  // array: an element has begun
};

std::string path_of(const std::vector<Frame>& frames) {
  std::string path;
  for (const Frame& f : frames) {
    if (f.object) {
      if (!f.key.empty() || !f.keys.empty()) path = json_path(path, printable(f.key));
    } else if (f.started) {
      path = json_path(path, f.index);
    }
  }
  return path;
}

struct DuplicateKey {
  std::string path;
};

}  // namespace

const char* json_type_name(const nlohmann::json& v) {
  if (v.is_number_float()) return "a fractional number";
  if (v.is_number()) return "an integer";
  return v.type_name();
}

std::string integer_problem(const nlohmann::json& v, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) {
    return fmt::format("must be an integer, not {}", v.is_number_float() ? v.dump() : json_type_name(v));
  }
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi)) {
    return fmt::format("{} is out of range ({}..{})", v.get<uint64_t>(), lo, hi);
  }
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi) return fmt::format("{} is out of range ({}..{})", x, lo, hi);
  return {};
}

std::string json_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string json_path(const std::string& path, size_t index) { return fmt::format("{}[{}]", path, index); }

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    // Well-formed multi-byte UTF-8 sequences pass; anything else is escaped.
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!ok) {
      out += fmt::format("\\x{:02x}", c);
      continue;
    }
    if (len > 1) {
      out.append(text, i, len);
      i += len - 1;
      continue;
    }
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& what) {
  std::vector<Frame> frames;
  auto element_begins = [&] {
    if (frames.empty() || frames.back().object) return;
    Frame& f = frames.back();
    f.index = f.started ? f.index + 1 : 0;
    f.started = true;
  };
  json::parser_callback_t cb = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        element_begins();
        frames.push_back(Frame{true});
        break;
      case json::parse_event_t::array_start:
        element_begins();
        frames.push_back(Frame{false});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames.empty()) frames.pop_back();
        break;
      case json::parse_event_t::key: {
        Frame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) throw DuplicateKey{path_of(frames)};
        break;
      }
      case json::parse_event_t::value:
        element_begins();
        break;
    }
    return true;
  };
  // nlohmann stops at a NUL as at the end of input: what follows would be
  // ignored unseen.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    throw FormatError(what, std::vector<Problem>{{line_column(text, nul), "malformed JSON: a NUL byte"}});
  }
  // Deep nesting would exhaust the stack of a recursive reader (the fuzz
  // target found 100,000 '[' do): no format of ours nests past a few levels.
  {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (++depth > kMaxJsonDepth) {
          throw FormatError(
              what, std::vector<Problem>{
                        {line_column(text, i),
                         fmt::format("malformed JSON: nested deeper than {} levels", kMaxJsonDepth)}});
        }
      } else if (c == ']' || c == '}') {
        --depth;
      }
    }
  }
  try {
    return json::parse(text, cb);
  } catch (const DuplicateKey& d) {
    throw FormatError(what,
                      std::vector<Problem>{{d.path, "duplicate key (a key may appear once per object)"}});
  } catch (const json::parse_error& e) {
    std::string message = e.what();
    const auto colon = message.find(": ");
    if (colon != std::string::npos) message = message.substr(colon + 2);
    const size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    throw FormatError(
        what, std::vector<Problem>{{line_column(text, byte), "malformed JSON: " + printable(message)}});
  } catch (const json::out_of_range& e) {
    // nlohmann: "number overflow parsing '1e400'"; name the place of the literal.
    std::string message = e.what();
    std::string where = "(document)";
    const auto q = message.find('\'');
    const auto q2 = q == std::string::npos ? q : message.find('\'', q + 1);
    if (q2 != std::string::npos) {
      const std::string literal = message.substr(q + 1, q2 - q - 1);
      const auto at = text.find(literal);
      // The value event of the literal has not fired: an array element is the next one.
      element_begins();
      const std::string path = path_of(frames);
      where = path.empty() ? line_column(text, at) : path;
      message = fmt::format("number {} is beyond the range of a double",
                            literal.size() > 40 ? literal.substr(0, 37) + "..." : literal);
    }
    throw FormatError(what, std::vector<Problem>{{where, message}});
  } catch (const json::exception& e) {
    throw FormatError(what, std::vector<Problem>{{"(document)", printable(e.what())}});
  }
}

nlohmann::json read_json_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(fmt::format("{}: cannot open {}", what, path));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw FormatError(fmt::format("{}: cannot read {}", what, path));
  return parse_json_text(text.str(), what);
}

}  // namespace lightrail
