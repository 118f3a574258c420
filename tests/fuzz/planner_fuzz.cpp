// Planner inputs: a job, a fabric, a job with a fabric (planned into board
// schedules) or an experiment, read by parse_json_text. A refusal is a
// std::invalid_argument or a lightrail::Error with a message; any other
// exception, a crash, UB or a hang (libFuzzer -timeout) is a finding.
//
// Inputs that are legitimately big are skipped rather than run (see
// docs/fuzzing.md): counts of GPUs, nodes and the like above the caps
// below, which the shipped plans stay within. -max_len bounds the length of
// lists (sizes swept by an experiment, phases, jobs).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_check.hpp"
#include "lightrail/capabilities.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"
#include "lightrail/validate.hpp"

namespace lf = lightrail::fuzz;
namespace lp = lightrail::planner;
using nlohmann::json;

namespace {

// The caps on sizes: twice the largest shipped plan (2048 GPUs, 8 rails,
// 256 switch ports, 6000 iterations of a FastConv job). Only values the
// field's type can hold are skipped: anything beyond (1e300 GPUs) must be
// refused, not cast.
struct Cap {
  const char* key;
  double max;
};
constexpr double kInt = 2147483647.0;
constexpr Cap kCaps[] = {{"gpus", 4096},   {"nodes", 512},      {"nodes_per_job", 512}, {"gpus_per_node", 64},
                         {"rails", 64},    {"ocs_radix", 4096}, {"ports_per_nic", 16},  {"iterations", 12000},
                         {"tensor", 4096}, {"context", 4096},   {"pipeline", 4096},     {"data", 4096},
                         {"expert", 4096}};

double limit_of(const char* key) {
  return std::string(key) == "iterations" ? 9223372036854775807.0 : kInt;  // int64_t, else int
}

bool over_one(const json& v, const Cap& cap) {
  if (!v.is_number()) return false;
  const double x = v.get<double>();
  return x > cap.max && x <= limit_of(cap.key);
}

// A number, or a list of numbers (the sizes an experiment sweeps).
bool over(const json& v, const Cap& cap) {
  if (over_one(v, cap)) return true;
  if (v.is_array()) {
    for (const json& e : v)
      if (over_one(e, cap)) return true;
  }
  return false;
}

// True when any capped key, anywhere in the document, holds a number (or a
// list of numbers) above its cap. A FastConv epoch below 0.1 s is also
// legitimately long (the simulation steps epoch/10 up to 1e7 s); zero and
// negative epochs are not skipped: they must be refused.
bool too_big(const json& j, int depth = 0) {
  if (depth > 16) return false;  // no plan field sits this deep; keeps this walk's stack small
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      for (const Cap& c : kCaps)
        if (key == c.key && over(value, c)) return true;
      if (key == "epoch_s" && value.is_number() && value.get<double>() > 0 && value.get<double>() < 0.1)
        return true;
      if (too_big(value, depth + 1)) return true;
    }
  } else if (j.is_array()) {
    for (const json& e : j)
      if (too_big(e, depth + 1)) return true;
  }
  return false;
}

template <typename F>
void refusal_ok(const char* who, F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    lf::check_message(e, who);
  } catch (const lightrail::Error& e) {
    lf::check_message(e, who);
  } catch (const std::exception& e) {
    lf::fail(std::string(who) + " threw neither std::invalid_argument nor lightrail::Error: " + e.what());
  }
}

void plan(const json& job_doc, const json& fabric_doc) {
  const lp::Job job = lp::job_from_json(job_doc);
  const lp::Fabric fabric = lp::fabric_from_json(fabric_doc);
  lp::check_fits(fabric, job);
  const lp::OpusPlan p = lp::plan_opus(job, fabric);
  static const auto caps = lightrail::DeviceCapabilities::reference();
  for (const auto& board : lp::to_schedules(p, caps)) (void)lightrail::validate(board.schedule, caps);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  json doc;
  try {
    doc = lightrail::parse_json_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const lightrail::FormatError&) {
    return 0;  // the reader's own target (json_text) checks its refusals
  }
  if (too_big(doc)) return 0;
  if (doc.is_object() && doc.contains("kind")) {
    // Relative file names ("parts") resolve in an empty place: the target
    // reads no files.
    refusal_ok("run_experiment", [&] { lp::run_experiment(doc, "/nonexistent"); });
  } else if (doc.is_object() && (doc.contains("job") || doc.contains("fabric"))) {
    // By reference: a copy of a deeply nested value would recurse here.
    static const json absent;
    refusal_ok("plan", [&] {
      plan(doc.contains("job") ? doc.at("job") : absent, doc.contains("fabric") ? doc.at("fabric") : absent);
    });
  } else {
    refusal_ok("job_from_json", [&] { lp::job_from_json(doc); });
    refusal_ok("fabric_from_json", [&] { lp::fabric_from_json(doc); });
  }
  return 0;
}
