#include "journal_records.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <vector>

#include "lightrail/json_text.hpp"

namespace lightrail::daemon {

using nlohmann::json;

namespace {

enum class Kind {
  kId,
  kString,
  kObject,
  kBool,
  kNumberOrNull,
  kNumber,
  kInteger,
  kGeneration,
  kPositive,
  kBoards
};

bool is(const json& v, Kind k, size_t boards) {
  switch (k) {
    case Kind::kId:
      return v.is_string() && !v.get<std::string>().empty();
    case Kind::kString:
      return v.is_string();
    case Kind::kObject:
      return v.is_object();
    case Kind::kBool:
      return v.is_boolean();
    case Kind::kNumberOrNull:
      return v.is_null() || v.is_number();
    case Kind::kNumber:
      return v.is_number();
    case Kind::kInteger:
      return v.is_number_integer();
    case Kind::kGeneration:  // 32 bits, as the boards' GENERATION register
      return v.is_number_unsigned() && v.get<uint64_t>() <= UINT32_MAX;
    case Kind::kPositive:
      return v.is_number_unsigned() && v.get<uint64_t>() >= 1;
    case Kind::kBoards:
      if (!v.is_array()) return false;
      for (const json& b : v)
        if (!b.is_number_unsigned() || b.get<uint64_t>() >= boards) return false;
      return true;
  }
  return false;
}

const char* name_of(Kind k) {
  switch (k) {
    case Kind::kId:
      return "a job id";
    case Kind::kString:
      return "a string";
    case Kind::kObject:
      return "an object";
    case Kind::kBool:
      return "true or false";
    case Kind::kNumberOrNull:
      return "a number or null";
    case Kind::kNumber:
      return "a number";
    case Kind::kInteger:
      return "an integer";
    case Kind::kGeneration:
      return "a 32-bit generation";
    case Kind::kPositive:
      return "an integer of at least 1";
    case Kind::kBoards:
      return "a list of board indices of this fabric";
  }
  return "?";
}

struct Field {
  const char* name;
  Kind kind;
  bool optional = false;
};

const std::map<std::string, std::vector<Field>>& shapes() {
  static const std::map<std::string, std::vector<Field>> s{
      {"commit_intent",
       {{"id", Kind::kId},
        {"job", Kind::kObject},
        {"target_accuracy", Kind::kNumberOrNull},
        {"wait_for_circuits", Kind::kBool},
        {"generation", Kind::kGeneration},
        {"boards", Kind::kBoards},
        {"owner", Kind::kString, true},
        {"idempotency_key", Kind::kId, true},
        {"submitted_ms", Kind::kInteger, true}}},
      {"commit_done",
       {{"id", Kind::kId},
        {"generation", Kind::kGeneration},
        {"ok", Kind::kBool},
        {"commit_ps", Kind::kNumber, true},
        {"stopped", Kind::kBoards, true}}},
      {"admit",
       {{"id", Kind::kId},
        {"job", Kind::kObject},
        {"target_accuracy", Kind::kNumberOrNull},
        {"wait_for_circuits", Kind::kBool},
        {"owner", Kind::kString, true},
        {"idempotency_key", Kind::kId, true},
        {"submitted_ms", Kind::kInteger, true}}},
      {"idempotency_key",
       {{"owner", Kind::kString}, {"key", Kind::kId}, {"id", Kind::kId}, {"at_ms", Kind::kInteger}}},
      {"release", {{"id", Kind::kId}}},
      {"delete", {{"id", Kind::kId}}},
      {"progress", {{"id", Kind::kId}, {"accuracy", Kind::kNumber}}},
      {"phases", {{"id", Kind::kId}, {"job", Kind::kObject}}},
      {"generation", {{"next", Kind::kPositive}, {"next_job", Kind::kPositive}}},
  };
  return s;
}

}  // namespace

std::string record_problem(const json& record, size_t boards) {
  if (!record.is_object()) return "not a JSON object";
  if (!record.contains("type") || !record["type"].is_string()) return "no \"type\"";
  const auto it = shapes().find(record["type"].get<std::string>());
  if (it == shapes().end()) return fmt::format("unknown type {}", printable(record["type"].dump()));
  for (const Field& f : it->second) {
    if (!record.contains(f.name)) {
      if (f.optional) continue;
      return fmt::format("no \"{}\"", f.name);
    }
    if (!is(record[f.name], f.kind, boards))
      return fmt::format("\"{}\" is {}, not {}", f.name, printable(record[f.name].dump().substr(0, 60)),
                         name_of(f.kind));
  }
  return "";
}

}  // namespace lightrail::daemon
