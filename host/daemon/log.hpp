// The daemon's log (docs/lightraild.md, "Logs"): one line per event through
// spdlog, as text for a person or as one JSON object per line for a log
// collector, each with the event's fields (the request id of the request it
// belongs to, the peer, the status, ...).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace lightrail::daemon {

enum class LogLevel { kInfo, kWarn, kError };
enum class LogFormat { kText, kJson };

std::optional<LogFormat> log_format_from_name(std::string_view name);  // "text", "json"

struct LogEvent {
  LogLevel level = LogLevel::kInfo;
  std::string message;
  nlohmann::json fields = nlohmann::json::object();  // flat: names to strings or numbers
};

using LogSink = std::function<void(const LogEvent&)>;

// Writes events to `out` (std::cerr by default), flushed line by line; safe
// to call from any thread. Text: "TIME LEVEL message key=value ...";
// JSON: {"time", "level", "msg", fields...}. Control characters are escaped
// in both, so a client's bytes cannot forge a line.
class Log {
 public:
  explicit Log(LogFormat format, std::ostream* out = nullptr);
  ~Log();
  void operator()(const LogEvent& event) const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace lightrail::daemon
