// Preloaded into vkc by the CLI tests: appends "<call> <path>" to the file VKC_FILE_LOG names for
// every fsync, fdatasync and sync_file_range (which files a run asked the kernel to put on the
// disk) and every unnamed file opened (O_TMPFILE: "tmpfile <directory>", or "tmpfile-refused").
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {

void log_line(const char* call, const char* path) {
  const char* log = std::getenv("VKC_FILE_LOG");
  if (!log) return;
  char line[4200];
  const int length = std::snprintf(line, sizeof line, "%s %s\n", call, path);
  const int out = ::open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return;
  if (::write(out, line, static_cast<size_t>(length)) < 0) {
    // A lost line makes the test that reads the log fail; nothing else to do here.
  }
  ::close(out);
}

void log_call(const char* call, int fd) {
  char link[64], path[4096];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = ::readlink(link, path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  log_line(call, path);
}

// open's mode argument, present when it creates a file.
mode_t mode_of(int flags, va_list args) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

// open or open64 (which one depends on how the caller was compiled), made and logged.
int logged_open(const char* name, const char* path, int flags, va_list args) {
  const mode_t mode = mode_of(flags, args);
  const int fd = real<int (*)(const char*, int, ...)>(name)(path, flags, mode);
  if ((flags & O_TMPFILE) == O_TMPFILE) log_line(fd >= 0 ? "tmpfile" : "tmpfile-refused", path);
  return fd;
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

extern "C" int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const int fd = logged_open("open", path, flags, args);
  va_end(args);
  return fd;
}

extern "C" int open64(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const int fd = logged_open("open64", path, flags, args);
  va_end(args);
  return fd;
}
