#include "json_input.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "lightrail/json_text.hpp"

namespace lightrail::planner {

void Input::check() const {
  if (!problems.empty()) throw std::invalid_argument(to_string(problems));
}

std::string Input::path_of(const std::string& path, const std::string& key) {
  return json_path(path, printable(key));
}
std::string Input::path_of(const std::string& path, size_t index) { return json_path(path, index); }

void Input::known(const json& obj, const std::string& path, std::initializer_list<const char*> known,
                  const char* why) {
  if (!obj.is_object()) return;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) fail(path_of(path, it.key()), why ? why : "unknown field");
  }
}

bool Input::object(const json& v, const std::string& where) {
  if (v.is_object()) return true;
  fail(where, fmt::format("must be an object, not {}", json_type_name(v)));
  return false;
}

bool Input::array(const json& v, const std::string& where, bool allow_empty) {
  if (!v.is_array()) {
    fail(where, fmt::format("must be an array, not {}", json_type_name(v)));
    return false;
  }
  if (v.empty() && !allow_empty) {
    fail(where, "must not be empty");
    return false;
  }
  return true;
}

void Input::one_of(const json& obj, const std::string& path, const char* a, const char* b) {
  if (obj.is_object() && obj.contains(a) && obj.contains(b))
    fail(path_of(path, b), fmt::format("give {} or {}, not both", a, b));
}

const nlohmann::json* Input::field(const json& obj, const char* key, const std::string& path, bool required) {
  if (obj.is_object()) {
    const auto it = obj.find(key);
    if (it != obj.end()) return &*it;
  }
  if (required) fail(path_of(path, key), "is required");
  return nullptr;
}

std::optional<int64_t> Input::integer(const json& v, const std::string& where, int64_t lo, int64_t hi) {
  std::string why = integer_problem(v, lo, hi);
  if (!why.empty()) {
    fail(where, std::move(why));
    return std::nullopt;
  }
  return v.get<int64_t>();
}

std::optional<double> Input::number(const json& v, const std::string& where, double lo, double hi,
                                    bool above_lo) {
  if (!v.is_number()) {
    fail(where, fmt::format("must be a number, not {}", json_type_name(v)));
    return std::nullopt;
  }
  const double x = v.get<double>();
  const bool low = above_lo ? !(x > lo) : !(x >= lo);
  if (low || !(x <= hi)) {
    fail(where, above_lo ? fmt::format("{} is out of range (above {}, at most {})", x, lo, hi)
                         : fmt::format("{} is out of range ({}..{})", x, lo, hi));
    return std::nullopt;
  }
  return x;
}

std::optional<std::string> Input::string(const json& v, const std::string& where) {
  if (!v.is_string()) {
    fail(where, fmt::format("must be a string, not {}", json_type_name(v)));
    return std::nullopt;
  }
  return v.get<std::string>();
}

void Input::read_number(const json& obj, const char* key, const std::string& path, double& out, double lo,
                        double hi, bool above_lo) {
  if (const json* v = field(obj, key, path))
    if (auto x = number(*v, path_of(path, key), lo, hi, above_lo)) out = *x;
}

void Input::read_string(const json& obj, const char* key, const std::string& path, std::string& out,
                        bool required) {
  if (const json* v = field(obj, key, path, required))
    if (auto x = string(*v, path_of(path, key))) out = *x;
}

}  // namespace lightrail::planner
