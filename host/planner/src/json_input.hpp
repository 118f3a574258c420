// Reading the planner's input documents (jobs, fabrics, experiments) the
// way the driver reads schedules: every problem is collected with its JSON
// path and the numbers, unknown fields are refused, and a number must fit
// its field exactly (no truncation of 16.7 or 4294967312 to 16).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/planner/fabric.hpp"
#include "lightrail/validate.hpp"

namespace lightrail::planner {

class Input {
 public:
  using json = nlohmann::json;

  std::vector<Problem> problems;

  void fail(const std::string& where, const std::string& message) { problems.push_back({where, message}); }
  bool ok() const { return problems.empty(); }
  // Throws std::invalid_argument listing every problem, one per line.
  void check() const;

  // A problem for each key of `obj` not in `known` ("unknown field", or
  // `why` when given).
  void known(const json& obj, const std::string& path, std::initializer_list<const char*> known,
             const char* why = nullptr);
  // A problem unless `v` is an object / a non-empty array.
  bool object(const json& v, const std::string& where);
  bool array(const json& v, const std::string& where, bool allow_empty = false);
  // A problem when both keys are given (one quantity in two units).
  void one_of(const json& obj, const std::string& path, const char* a, const char* b);
  // The value of `key`, or nullptr (a problem when `required`).
  const json* field(const json& obj, const char* key, const std::string& path, bool required = false);

  // Values: nullopt and a problem when `v` has the wrong type or range.
  std::optional<int64_t> integer(const json& v, const std::string& where, int64_t lo, int64_t hi);
  // A finite number in lo..hi (above lo when `above_lo`).
  std::optional<double> number(const json& v, const std::string& where, double lo, double hi,
                               bool above_lo = false);
  std::optional<std::string> string(const json& v, const std::string& where);

  // Fields: `out` is set only when `key` is present and valid.
  template <typename T>
  void read_integer(const json& obj, const char* key, const std::string& path, T& out, int64_t lo, int64_t hi,
                    bool required = false) {
    if (const json* v = field(obj, key, path, required))
      if (auto x = integer(*v, path_of(path, key), lo, hi)) out = static_cast<T>(*x);
  }
  void read_number(const json& obj, const char* key, const std::string& path, double& out, double lo,
                   double hi, bool above_lo = false);
  void read_string(const json& obj, const char* key, const std::string& path, std::string& out,
                   bool required = false);

  static std::string path_of(const std::string& path, const std::string& key);
  static std::string path_of(const std::string& path, size_t index);
};

// A fabric document at `path` ("fabric", or "experiment.fabric" inside an
// experiment); validated when `in` has no problems after reading it.
Fabric parse_fabric(Input& in, const nlohmann::json& j, const std::string& path);

}  // namespace lightrail::planner
