#include "state_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "lightrail/json_text.hpp"

namespace lightrail::daemon {

namespace {

std::runtime_error fault(const std::string& path, const std::string& what) {
  return std::runtime_error(fmt::format("{}: {} ({})", path, what, std::strerror(errno)));
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text, unsigned mode) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw fault(tmp, "cannot create");
  try {
    if (::fchmod(fd, mode) != 0) throw fault(tmp, "cannot chmod");  // whatever the umask
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw fault(tmp, "cannot write");
      done += size_t(n);
    }
    if (::fsync(fd) != 0) throw fault(tmp, "cannot fsync");
    if (::close(fd) != 0) {
      ::unlink(tmp.c_str());
      throw fault(tmp, "cannot close");
    }
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const auto e = fault(path, "cannot rename " + tmp + " over it");
    ::unlink(tmp.c_str());
    throw e;
  }
  const std::string dir = directory_of(path);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) throw fault(dir, "cannot open the directory");
  const int rc = ::fsync(dfd);
  ::close(dfd);
  if (rc != 0) throw fault(dir, "cannot fsync the directory");
}

void write_lease_token(const std::string& path, uint32_t token) {
  write_file_atomically(path, fmt::format("0x{:08x}\n", token), 0600);
}

uint32_t load_or_create_lease_token(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && errno != ENOENT) throw fault(path, "cannot open the lease token file");
  if (fd < 0) {
    uint32_t token = 0;
    while (token == 0) {
      if (::getrandom(&token, sizeof token, 0) != ssize_t(sizeof token)) {
        if (errno == EINTR) continue;
        throw fault(path, "cannot draw a random lease token");
      }
    }
    write_lease_token(path, token);
    return token;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  auto bad = [&](const std::string& why) {
    return std::runtime_error("lease token file " + path + ": " + why);
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw fault(path, "cannot stat the lease token file");
  if (!S_ISREG(st.st_mode)) throw bad("not a regular file");
  if (st.st_uid != ::geteuid()) throw bad(fmt::format("owned by uid {}, not by this user", st.st_uid));
  // Not a secret (every board shows its lease holder, and so does GET
  // /v1/fabric): only who may change it matters, since the daemon claims
  // whatever lease it names.
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    throw bad(fmt::format("group or others may write it (mode {:04o}); chmod 600 it", st.st_mode & 07777));
  char buf[32];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0) throw fault(path, "cannot read the lease token file");
  std::string text(buf, size_t(n));
  if (!text.empty() && text.back() == '\n') text.pop_back();
  const bool hex = text.size() == 10 && text.compare(0, 2, "0x") == 0 &&
                   text.find_first_not_of("0123456789abcdef", 2) == std::string::npos;
  if (!hex)
    throw bad(fmt::format("\"{}\" is not a lease token (0x and 8 lower-case hex digits)", printable(text)));
  const uint32_t token = uint32_t(std::stoul(text.substr(2), nullptr, 16));
  if (token == 0) throw bad("the token 0 means \"no holder\": it cannot be one");
  return token;
}

void ensure_state_dir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return;
  if (errno != EEXIST) throw fault(dir, "cannot create the state directory");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) throw fault(dir, "cannot stat the state directory");
  if (!S_ISDIR(st.st_mode)) throw std::runtime_error(dir + ": the state directory is not a directory");
}

}  // namespace lightrail::daemon
