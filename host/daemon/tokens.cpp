#include "tokens.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <set>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/token_file.hpp"

namespace lightrail::daemon {

using nlohmann::json;

namespace {

// The list holds no secret but decides who gets which role: it must be
// this user's and writable by nobody else.
std::string read_list(const std::string& path) {
  return read_owned_file(path, "tokens file", S_IWGRP | S_IWOTH, "group or others may write it",
                         ": chmod go-w", size_t{1} << 20, "larger than 1 MiB");
}

bool name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_';
}

}  // namespace

std::vector<NamedToken> read_tokens_file(const std::string& path) {
  const json doc = parse_json_text(read_list(path), "tokens file " + path);
  auto bad = [&](const std::string& where, const std::string& why) {
    return FormatError("tokens file " + path, {Problem{where, why}});
  };
  if (!doc.is_object() || !doc.contains("tokens") || !doc["tokens"].is_array())
    throw bad("tokens", "the file is {\"tokens\": [{\"name\", \"role\", \"token_file\"}, ...]}");
  for (const auto& [k, v] : doc.items())
    if (k != "tokens") throw bad(k, "unknown field (tokens)");
  if (doc["tokens"].empty()) throw bad("tokens", "no token: nobody could change anything");
  const std::string dir = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/') + 1);
  std::vector<NamedToken> out;
  std::set<std::string> names;
  for (size_t i = 0; i < doc["tokens"].size(); ++i) {
    const json& e = doc["tokens"][i];
    const std::string at = fmt::format("tokens[{}]", i);
    if (!e.is_object()) throw bad(at, "an object {\"name\", \"role\", \"token_file\"}");
    for (const auto& [k, v] : e.items())
      if (k != "name" && k != "role" && k != "token_file")
        throw bad(at + "." + k, "unknown field (name, role, token_file)");
    for (const char* k : {"name", "role", "token_file"})
      if (!e.contains(k) || !e[k].is_string()) throw bad(at + "." + k, "missing, or not a string");
    NamedToken t;
    t.name = e["name"].get<std::string>();
    if (t.name.empty() || t.name.size() > kMaxTokenNameBytes)
      throw bad(at + ".name", fmt::format("1..{} characters", kMaxTokenNameBytes));
    for (char c : t.name)
      if (!name_char(c)) throw bad(at + ".name", "A-Z a-z 0-9 - . _ only");
    if (!names.insert(t.name).second) throw bad(at + ".name", fmt::format("\"{}\" is named twice", t.name));
    const auto role = role_from_name(e["role"].get<std::string>());
    if (!role)
      throw bad(at + ".role", fmt::format("\"{}\" is not a role (admin, manager, reader)",
                                          printable(e["role"].get<std::string>().substr(0, 40))));
    t.role = *role;
    std::string file = e["token_file"].get<std::string>();
    if (file.empty()) throw bad(at + ".token_file", "empty");
    if (file.front() != '/') file = dir + file;
    try {
      t.token = read_token_file(file);
    } catch (const FormatError& err) {
      throw bad(at + ".token_file", err.what());
    }
    for (const NamedToken& o : out)
      if (o.token == t.token)
        throw bad(at + ".token_file", fmt::format("the same token as {}: a token names one caller", o.name));
    out.push_back(std::move(t));
  }
  return out;
}

std::optional<NamedToken> find_token(const std::vector<NamedToken>& tokens, std::string_view given) {
  std::optional<NamedToken> found;
  for (const NamedToken& t : tokens)  // no early exit: every entry is compared
    if (same_token(t.token, given) && !found) found = t;
  return found;
}

}  // namespace lightrail::daemon
