#include "atomic_file.h"
#include "interrupt_cleanup.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fmt/format.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace ringsim {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string temp = (dir / fmt::format(".{}.XXXXXX", path.filename().string())).string();
  std::optional<RemovedOnInterrupt> temp_removed;  // an interruption never leaves the temporary file
  int fd = -1;
  {
    const InterruptsHeld held;
    fd = mkstemp(temp.data());
    if (fd >= 0) temp_removed.emplace(temp);
  }
  if (fd < 0)
    throw std::runtime_error(fmt::format("{}: cannot write ({})", path.string(), std::strerror(errno)));
  std::size_t written = 0;
  while (written < content.size()) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      throw std::runtime_error(fmt::format("{}: write failed ({})", path.string(), std::strerror(saved)));
    }
    written += static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; results are ordinary user files.
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0 || std::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error(fmt::format("{}: cannot write ({})", path.string(), std::strerror(saved)));
  }
}

}  // namespace ringsim
