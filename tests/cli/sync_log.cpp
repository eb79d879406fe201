// Preloaded into vkc by the CLI tests: appends "<call> <path>" to the file VKC_SYNC_LOG names for
// every fsync, fdatasync and sync_file_range, then makes the real call. It shows which files a
// run asked the kernel to put on the disk.
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

void log_call(const char* call, int fd) {
  const char* log = std::getenv("VKC_SYNC_LOG");
  if (!log) return;
  char link[64], path[4096];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = ::readlink(link, path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  char line[4200];
  const int length = std::snprintf(line, sizeof line, "%s %s\n", call, path);
  const int out = ::open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return;
  if (::write(out, line, static_cast<size_t>(length)) < 0) {
    // A lost line makes the test that reads the log fail; nothing else to do here.
  }
  ::close(out);
}

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" int fsync(int fd) {
  log_call("fsync", fd);
  return real<int (*)(int)>("fsync")(fd);
}

extern "C" int fdatasync(int fd) {
  log_call("fdatasync", fd);
  return real<int (*)(int)>("fdatasync")(fd);
}

extern "C" int sync_file_range(int fd, off_t offset, off_t bytes, unsigned int flags) {
  log_call("sync_file_range", fd);
  return real<int (*)(int, off_t, off_t, unsigned int)>("sync_file_range")(fd, offset, bytes, flags);
}
