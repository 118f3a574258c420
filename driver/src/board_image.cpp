#include "lightrail/board_image.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

bool is_uuid(const std::string& s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok = (i == 8 || i == 13 || i == 18 || i == 23)
                        ? c == '-'
                        : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!ok) return false;
  }
  return true;
}

}  // namespace

BoardImage read_board_image(const std::string& path) {
  const std::string shown = printable(path);
  std::ifstream in(path);
  if (!in) throw FormatError(fmt::format("{}: cannot read the board image descriptor", shown));
  // A descriptor is a few hundred bytes; a device file or a mistaken
  // multi-gigabyte path is refused instead of read whole.
  constexpr size_t kMaxBytes = 64 * 1024;
  std::string text(kMaxBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxBytes)
    throw FormatError(
        fmt::format("{}: larger than {} bytes: not a board image descriptor", shown, kMaxBytes));
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw FormatError(fmt::format("{}: not JSON: {}", shown, e.what()));
  }
  if (!doc.is_object()) throw FormatError(fmt::format("{}: expected a JSON object", shown));

  std::vector<Problem> problems;
  auto bad = [&](const std::string& where, const std::string& what) { problems.push_back({where, what}); };
  BoardImage out;
  out.path = path;
  const json& format = doc.contains("format") ? doc["format"] : json();
  if (format != "lightrail-board-image")
    bad("format", "expected \"lightrail-board-image\" (a descriptor the build writes beside the image)");
  const json& version = doc.contains("format_version") ? doc["format_version"] : json();
  if (version != 1) bad("format_version", "expected 1");
  if (doc.contains("target") && doc["target"].is_string() && !doc["target"].get<std::string>().empty()) {
    out.target = doc["target"].get<std::string>();
  } else {
    bad("target", "expected a non-empty string (\"cosim\" or the board)");
  }
  if (doc.contains("uuid") && doc["uuid"].is_string() && is_uuid(doc["uuid"].get<std::string>())) {
    out.uuid = doc["uuid"].get<std::string>();
  } else {
    bad("uuid", "expected a lower-case UUID, 8-4-4-4-12 hex digits");
  }
  const json build = doc.contains("build") && doc["build"].is_object() ? doc["build"] : json();
  if (build.is_null()) bad("build", "expected an object {source_hash, build_time, regmap_version}");
  if (!build.is_null()) {
    const json& h = build.contains("source_hash") ? build["source_hash"] : json();
    const std::string hs = h.is_string() ? h.get<std::string>() : "";
    if (hs.size() == 16 && hs.find_first_not_of("0123456789abcdef") == std::string::npos) {
      out.build.source_hash = std::stoull(hs, nullptr, 16);
    } else {
      bad("build.source_hash", "expected 16 lower-case hex digits (the commit's first 64 bits)");
    }
    const json& t = build.contains("build_time") ? build["build_time"] : json();
    if (t.is_number_unsigned() && t.get<uint64_t>() <= 0xFFFFFFFFu) {
      out.build.build_time = t.get<uint32_t>();
    } else {
      bad("build.build_time", "expected seconds since the epoch, 0..4294967295");
    }
    const json& v = build.contains("regmap_version") ? build["regmap_version"] : json();
    if (v.is_number_unsigned() && v.get<uint64_t>() >= 1 && v.get<uint64_t>() <= 0xFFFFFFFFu) {
      out.build.regmap_version = v.get<uint32_t>();
    } else {
      bad("build.regmap_version", "expected a register-map version, a positive integer");
    }
  }
  const json& x = doc.contains("xclbin") ? doc["xclbin"] : json();
  if (x.is_string() && !x.get<std::string>().empty()) {
    std::filesystem::path p(x.get<std::string>());
    if (p.is_relative()) p = std::filesystem::path(path).parent_path() / p;
    out.xclbin = p.string();
  } else if (!x.is_null()) {
    bad("xclbin", "expected the xclbin's path (relative to the descriptor) or null");
  }
  if (out.target == "cosim" && out.xclbin) bad("xclbin", "a cosim image has no xclbin (null)");
  for (const auto& [key, value] : doc.items()) {
    (void)value;
    if (key != "format" && key != "format_version" && key != "target" && key != "uuid" && key != "build" &&
        key != "xclbin")
      bad(key, "unknown field");
  }
  if (!problems.empty()) throw FormatError(shown, std::move(problems));
  return out;
}

std::vector<ImageMismatch> compare_image(const BoardImage& image, const BuildId& board,
                                         const std::optional<std::string>& board_uuid) {
  std::vector<ImageMismatch> out;
  if (!board_uuid || *board_uuid != image.uuid)
    out.push_back({"uuid", image.uuid, board_uuid ? *board_uuid : "(not reported)"});
  if (image.build.source_hash != board.source_hash)
    out.push_back({"build.source_hash", image.build.source_hash_hex(), board.source_hash_hex()});
  if (image.build.build_time != board.build_time)
    out.push_back(
        {"build.build_time", std::to_string(image.build.build_time), std::to_string(board.build_time)});
  if (image.build.regmap_version != board.regmap_version)
    out.push_back({"build.regmap_version", std::to_string(image.build.regmap_version),
                   std::to_string(board.regmap_version)});
  return out;
}

}  // namespace lightrail
