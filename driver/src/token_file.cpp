#include "lightrail/token_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lightrail/errors.hpp"

namespace lightrail {

std::string token_problem(std::string_view token) {
  if (token.size() < kMinTokenBytes || token.size() > kMaxTokenBytes)
    return fmt::format("the token must be {}..{} characters (it has {})", kMinTokenBytes, kMaxTokenBytes,
                       token.size());
  for (char c : token)
    if (c <= ' ' || c > '~') return "the token must be printable ASCII without spaces";
  return "";
}

bool same_token(std::string_view expected, std::string_view given) {
  // Every byte of `given` is looked at, whatever matched before.
  unsigned diff = expected.size() == given.size() ? 0u : 1u;
  for (size_t i = 0; i < given.size(); ++i) {
    const unsigned char e = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
    diff |= e ^ static_cast<unsigned char>(given[i]);
  }
  return diff == 0;
}

std::string read_owned_file(const std::string& path, const std::string& what, unsigned forbidden,
                            const std::string& mode_fault, const std::string& advice, size_t max_bytes,
                            const std::string& too_long) {
  auto fault = [&](const std::string& why) { return FormatError(what + " " + path + ": " + why); };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw fault(std::string("cannot open (") + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw fault(std::string("cannot stat (") + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) throw fault("not a regular file");
  if (st.st_uid != ::geteuid())
    throw fault(fmt::format("owned by uid {}, not by this user (uid {})", st.st_uid, ::geteuid()));
  if (st.st_mode & forbidden)
    throw fault(fmt::format("{} (mode {:04o}){} {}", mode_fault, st.st_mode & 07777, advice, path));
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fault(std::string("cannot read (") + std::strerror(errno) + ")");
    if (n == 0) break;
    text.append(buf, size_t(n));
    if (text.size() > max_bytes) throw fault(too_long);
  }
  return text;
}

std::string read_token_file(const std::string& path) {
  // A token and a line end (\r\n) at most.
  std::string text =
      read_owned_file(path, "token file", S_IRWXG | S_IRWXO, "group or others may use it",
                      "; make it yours alone: chmod 600", kMaxTokenBytes + 2,
                      fmt::format("longer than a token ({}..{} characters)", kMinTokenBytes, kMaxTokenBytes));
  if (!text.empty() && text.back() == '\n') text.pop_back();
  if (!text.empty() && text.back() == '\r') text.pop_back();
  if (const std::string why = token_problem(text); !why.empty())
    throw FormatError("token file " + path + ": " + why);
  return text;
}

}  // namespace lightrail
