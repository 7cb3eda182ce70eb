// Preloaded by tests/cli/interruptions.py into ringsim only: fsync() of a file whose path contains
// $RINGSIM_SLOW_FSYNC_OF first creates $RINGSIM_SLOW_FSYNC_MARK, then sleeps 30 s. That holds ringsim
// at a known late moment (results written to the temporary file, not yet renamed) for a signal to hit.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

extern "C" int fsync(int fd) {
  const char* wanted = getenv("RINGSIM_SLOW_FSYNC_OF");
  const char* mark = getenv("RINGSIM_SLOW_FSYNC_MARK");
  char link[64], path[PATH_MAX] = {0};
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  if (wanted && mark && readlink(link, path, sizeof path - 1) > 0 && strstr(path, wanted)) {
    close(open(mark, O_WRONLY | O_CREAT, 0644));
    sleep(30);
  }
  auto real_fsync = reinterpret_cast<int (*)(int)>(dlsym(RTLD_NEXT, "fsync"));
  return real_fsync(fd);
}
