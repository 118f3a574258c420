#include "lightrail/schedule_json.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json_value.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

// A schedule of the largest board is well under a megabyte even pretty-
// printed; the bound stops a mistaken path (/dev/zero, a FIFO, a disk
// image) from being read without end.
constexpr size_t kMaxScheduleFileBytes = 64u << 20;

// A string from the document, quoted for a message: control characters
// escaped so that a name cannot split a problem over lines.
std::string quote_text(const std::string& text) { return "\"" + printable(text) + "\""; }

// Collects every problem of one document; the parse goes on after each so
// the user sees them all at once.
class Parser {
 public:
  std::vector<Problem> problems;
  bool complete = true;  // no problem but unknown fields so far

  void fail(const std::string& where, const std::string& message) {
    problems.push_back({where, message});
    complete = false;
  }

  // An unknown field is ignored: the schedule stays what the rest says.
  void reject_unknown(const json& obj, const std::string& path, std::initializer_list<const char*> known) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (const char* k : known) ok = ok || it.key() == k;
      if (!ok) problems.push_back({json_path(path, printable(it.key())), "unknown field"});
    }
  }

  // An integer in [lo, hi]; nullopt (and a problem) otherwise.
  std::optional<int64_t> integer(const json& v, const std::string& where, int64_t lo, int64_t hi) {
    std::string why = integer_problem(v, lo, hi);
    if (!why.empty()) {
      fail(where, std::move(why));
      return std::nullopt;
    }
    return v.get<int64_t>();
  }

  std::optional<bool> boolean(const json& v, const std::string& where) {
    if (!v.is_boolean()) {
      fail(where, fmt::format("must be true or false, not {}", json_type_name(v)));
      return std::nullopt;
    }
    return v.get<bool>();
  }

  Schedule parse(const json& doc) {
    Schedule s;
    if (!doc.is_object()) {
      fail("(document)", fmt::format("must be an object, not {}", json_type_name(doc)));
      return s;
    }
    reject_unknown(
        doc, "",
        {"lightrail_schedule", "generation", "cyclic", "guard_ps", "activation", "configs", "steps"});
    if (!doc.contains("lightrail_schedule")) {
      fail("lightrail_schedule",
           fmt::format("missing: not a lightrail schedule (expected \"lightrail_schedule\": {})",
                       Schedule::kFormatVersion));
    } else if (auto v = integer(doc["lightrail_schedule"], "lightrail_schedule", 0,
                                std::numeric_limits<int64_t>::max())) {
      if (*v != Schedule::kFormatVersion) {
        fail("lightrail_schedule", fmt::format("format version {} is not supported (this build reads {})", *v,
                                               Schedule::kFormatVersion));
      }
    }
    if (doc.contains("generation")) {
      if (auto v = integer(doc["generation"], "generation", 0, std::numeric_limits<uint32_t>::max())) {
        s.generation = static_cast<uint32_t>(*v);
      }
    }
    if (doc.contains("cyclic")) {
      if (auto v = boolean(doc["cyclic"], "cyclic")) s.cyclic = *v;
    }
    if (doc.contains("guard_ps")) {
      // Negative guards are a validation problem, reported with the others.
      if (auto v = integer(doc["guard_ps"], "guard_ps", std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max())) {
        s.guard_ps = *v;
      }
    }
    if (doc.contains("activation")) parse_activation(doc["activation"], s);
    if (!doc.contains("configs")) {
      fail("configs", "missing: a schedule needs at least one configuration");
    } else {
      parse_configs(doc["configs"], s);
    }
    if (!doc.contains("steps")) {
      fail("steps", "missing: a schedule needs at least one step");
    } else {
      parse_steps(doc["steps"], s);
    }
    return s;
  }

 private:
  std::map<std::string, uint32_t> names_;

  void parse_activation(const json& v, Schedule& s) {
    if (v.is_string()) {
      if (v.get<std::string>() != "epoch") {
        fail("activation",
             fmt::format("{} is not \"epoch\" or {{\"at_ps\": TIME}}", quote_text(v.get<std::string>())));
      }
      return;
    }
    if (!v.is_object()) {
      fail("activation", fmt::format("must be \"epoch\" or {{\"at_ps\": TIME}}, not {}", json_type_name(v)));
      return;
    }
    reject_unknown(v, "activation", {"at_ps"});
    if (!v.contains("at_ps")) {
      fail("activation.at_ps", "missing");
      return;
    }
    if (auto t = integer(v["at_ps"], "activation.at_ps", std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max())) {
      s.activation_ps = *t;
    }
  }

  void parse_configs(const json& v, Schedule& s) {
    if (!v.is_array()) {
      fail("configs", fmt::format("must be an array, not {}", json_type_name(v)));
      return;
    }
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string path = json_path("configs", i);
      const json& c = v[i];
      Configuration config;
      if (!c.is_object()) {
        fail(path, fmt::format("must be an object, not {}", json_type_name(c)));
        s.configs.push_back(config);
        continue;
      }
      reject_unknown(c, path, {"name", "ports"});
      if (c.contains("name")) {
        if (!c["name"].is_string()) {
          fail(path + ".name", fmt::format("must be a string, not {}", json_type_name(c["name"])));
        } else {
          config.name = c["name"].get<std::string>();
          auto [it, fresh] = names_.emplace(config.name, static_cast<uint32_t>(i));
          if (!fresh) {
            fail(path + ".name",
                 fmt::format("duplicate name {} (also configs[{}])", quote_text(config.name), it->second));
          }
        }
      }
      if (!c.contains("ports")) {
        fail(path + ".ports", "missing");
      } else if (!c["ports"].is_array()) {
        fail(path + ".ports", fmt::format("must be an array, not {}", json_type_name(c["ports"])));
      } else {
        const json& ports = c["ports"];
        for (size_t p = 0; p < ports.size(); ++p) {
          const std::string where = json_path(path + ".ports", p);
          const json& w = ports[p];
          int value = kDark;
          if (w.is_string()) {
            if (w.get<std::string>() != "dark") {
              fail(where,
                   fmt::format("{} is not a wavelength index or \"dark\"", quote_text(w.get<std::string>())));
            }
          } else if (!w.is_number_integer()) {
            fail(where, fmt::format("must be a wavelength index or \"dark\", not {}", json_type_name(w)));
          } else if (auto x = integer(w, where, 0, std::numeric_limits<int>::max())) {
            value = static_cast<int>(*x);
          }
          config.wavelength.push_back(value);
        }
      }
      s.configs.push_back(std::move(config));
    }
  }

  void parse_steps(const json& v, Schedule& s) {
    if (!v.is_array()) {
      fail("steps", fmt::format("must be an array, not {}", json_type_name(v)));
      return;
    }
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string path = json_path("steps", i);
      const json& j = v[i];
      Step step;
      if (!j.is_object()) {
        fail(path, fmt::format("must be an object, not {}", json_type_name(j)));
        s.steps.push_back(step);
        continue;
      }
      reject_unknown(j, path, {"config", "duration_ps", "event"});
      if (!j.contains("config")) {
        fail(path + ".config", "missing");
      } else if (j["config"].is_string()) {
        const std::string name = j["config"].get<std::string>();
        auto it = names_.find(name);
        if (it == names_.end()) {
          fail(path + ".config", fmt::format("no configuration is named {}", quote_text(name)));
        } else {
          step.config = it->second;
        }
      } else if (j["config"].is_number_integer()) {
        // Range against the configs is validate()'s job (it knows the board).
        if (auto x = integer(j["config"], path + ".config", 0, std::numeric_limits<uint32_t>::max())) {
          step.config = static_cast<uint32_t>(*x);
        }
      } else {
        fail(path + ".config",
             fmt::format("must be a configuration index or name, not {}", json_type_name(j["config"])));
      }
      if (!j.contains("duration_ps")) {
        fail(path + ".duration_ps", "missing");
      } else if (auto x = integer(j["duration_ps"], path + ".duration_ps",
                                  std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max())) {
        step.duration_ps = *x;
      }
      if (j.contains("event")) {
        if (auto e = boolean(j["event"], path + ".event")) step.event_triggered = *e;
      }
      s.steps.push_back(step);
    }
  }
};

// The whole file, bounded; FormatError naming the file and the reason.
std::string read_file(const std::string& path, const std::string& shown) {
  errno = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    throw FormatError(fmt::format("{}: cannot open the schedule file: {}", shown, std::strerror(errno)));
  }
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const size_t n = std::fread(buf, 1, sizeof buf, f.get());
    text.append(buf, n);
    if (text.size() > kMaxScheduleFileBytes) {
      throw FormatError(fmt::format("{}: the schedule file is larger than {} bytes; not a schedule", shown,
                                    kMaxScheduleFileBytes));
    }
    if (n < sizeof buf) break;
  }
  if (std::ferror(f.get())) {
    throw FormatError(fmt::format("{}: cannot read the schedule file: {}", shown, std::strerror(errno)));
  }
  return text;
}

}  // namespace

ScheduleDocument read_schedule_document(const nlohmann::json& doc) {
  Parser parser;
  ScheduleDocument out;
  out.schedule = parser.parse(doc);
  out.complete = parser.complete;
  out.problems = std::move(parser.problems);
  return out;
}

Schedule schedule_from_json(const nlohmann::json& doc) {
  ScheduleDocument d = read_schedule_document(doc);
  if (!d.problems.empty()) throw FormatError("schedule", std::move(d.problems));
  return std::move(d.schedule);
}

std::string to_json_text(const Schedule& schedule, int indent) { return to_json(schedule).dump(indent); }

Schedule parse_schedule(const std::string& text) {
  return schedule_from_json(parse_json_text(text, "schedule"));
}

ScheduleDocument read_schedule_file(const std::string& path) {
  const std::string shown = printable(path);
  return read_schedule_document(parse_json_text(read_file(path, shown), shown));
}

Schedule load_schedule_file(const std::string& path) {
  ScheduleDocument d = read_schedule_file(path);
  if (!d.problems.empty()) throw FormatError(printable(path), std::move(d.problems));
  return std::move(d.schedule);
}

nlohmann::json to_json(const Schedule& schedule) {
  std::map<std::string, int> name_count;
  for (const Configuration& c : schedule.configs) ++name_count[c.name];
  json configs = json::array();
  for (const Configuration& c : schedule.configs) {
    json ports = json::array();
    for (int w : c.wavelength) {
      if (w == kDark) {
        ports.push_back("dark");
      } else {
        ports.push_back(w);
      }
    }
    json entry = json::object();
    if (!c.name.empty()) entry["name"] = c.name;
    entry["ports"] = std::move(ports);
    configs.push_back(std::move(entry));
  }
  json steps = json::array();
  for (const Step& step : schedule.steps) {
    json entry = json::object();
    const bool by_name = step.config < schedule.configs.size() &&
                         !schedule.configs[step.config].name.empty() &&
                         name_count[schedule.configs[step.config].name] == 1;
    if (by_name) {
      entry["config"] = schedule.configs[step.config].name;
    } else {
      entry["config"] = step.config;
    }
    entry["duration_ps"] = step.duration_ps;
    if (step.event_triggered) entry["event"] = true;
    steps.push_back(std::move(entry));
  }
  json doc = json::object();
  doc["lightrail_schedule"] = Schedule::kFormatVersion;
  doc["generation"] = schedule.generation;
  doc["cyclic"] = schedule.cyclic;
  doc["guard_ps"] = schedule.guard_ps;
  if (schedule.activation_ps) {
    doc["activation"] = json{{"at_ps", *schedule.activation_ps}};
  } else {
    doc["activation"] = "epoch";
  }
  doc["configs"] = std::move(configs);
  doc["steps"] = std::move(steps);
  return doc;
}

}  // namespace lightrail
