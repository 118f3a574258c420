#include "log.hpp"

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/ostream_sink.h>

#include <atomic>
#include <iostream>

#include "lightrail/json_text.hpp"

namespace lightrail::daemon {

using nlohmann::json;

std::optional<LogFormat> log_format_from_name(std::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

namespace {

spdlog::level::level_enum to_spdlog(LogLevel l) {
  switch (l) {
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// A value shown bare in a text line: no space, quote, = or control character.
bool plain(const std::string& v) {
  if (v.empty()) return false;
  for (char c : v)
    if (c <= ' ' || c == '"' || c == '=' || c == 0x7f) return false;
  return true;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

struct Log::Impl {
  LogFormat format;
  std::shared_ptr<spdlog::logger> logger;
};

Log::Log(LogFormat format, std::ostream* out) : impl_(std::make_shared<Impl>()) {
  impl_->format = format;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out ? *out : std::cerr, true);
  // spdlog gives the time (UTC) and the level; the rest is the event's,
  // rendered here so that JSON stays JSON.
  const std::string pattern = format == LogFormat::kJson
                                  ? R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v})"
                                  : "%Y-%m-%dT%H:%M:%S.%eZ %l %v";
  sink->set_formatter(std::make_unique<spdlog::pattern_formatter>(pattern, spdlog::pattern_time_type::utc));
  static std::atomic<int> serial{0};  // spdlog names loggers; ours are not registered
  impl_->logger = std::make_shared<spdlog::logger>("lightraild-" + std::to_string(serial++), sink);
  impl_->logger->set_level(spdlog::level::info);
  impl_->logger->flush_on(spdlog::level::info);
}

Log::~Log() = default;

void Log::operator()(const LogEvent& e) const {
  std::string body;
  if (impl_->format == LogFormat::kJson) {
    json j = {{"msg", e.message}};
    if (e.fields.is_object())
      for (const auto& [k, v] : e.fields.items()) j[k] = v;
    body = dump(j);
    body = body.substr(1, body.size() - 2);  // inside the pattern's braces
  } else {
    body = printable(e.message);
    if (e.fields.is_object())
      for (const auto& [k, v] : e.fields.items())
        body +=
            " " + k + "=" + (v.is_string() && plain(v.get<std::string>()) ? v.get<std::string>() : dump(v));
  }
  impl_->logger->log(to_spdlog(e.level), "{}", body);
}

}  // namespace lightrail::daemon
