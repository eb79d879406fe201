// How fast this machine puts 1 GiB into a file, the way `vkc sort` writes its output: 4 MiB
// ranges from 1 or more threads, then fsync. Modes: 0 pwrite; 1 a shared mapping after
// posix_fallocate; 2 pwrite with each range's write-back started at once (sync_file_range, as
// AtomicFile::write_at does); 3 a shared mapping after ftruncate; 4 pread of the same GiB (the
// file must exist: run mode 0 with KEEP=1 first). Prints one line of milliseconds.
//   probe-file_write PATH MODE THREADS
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kTotal = std::size_t(1) << 30, kRange = 4 << 20;

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// Opens the file for the mode and, for the mapped modes, maps it whole.
char* prepare(int fd, int mode) {
  if (mode == 1) posix_fallocate(fd, 0, kTotal);
  if (mode == 3 && ftruncate(fd, kTotal) != 0) std::perror("ftruncate");
  if (mode != 1 && mode != 3) return nullptr;
  void* map = mmap(nullptr, kTotal, PROT_WRITE, MAP_SHARED, fd, 0);
  return map == MAP_FAILED ? nullptr : static_cast<char*>(map);
}

void move_range(int fd, int mode, char* map, char* buffer, std::size_t offset) {
  if (map) {
    std::memcpy(map + offset, buffer, kRange);
  } else if (mode == 4) {
    if (pread(fd, buffer, kRange, static_cast<off_t>(offset)) < 0) std::perror("pread");
  } else {
    if (pwrite(fd, buffer, kRange, static_cast<off_t>(offset)) < 0) std::perror("pwrite");
    if (mode == 2) sync_file_range(fd, static_cast<off_t>(offset), kRange, SYNC_FILE_RANGE_WRITE);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: probe-file_write PATH MODE(0-4) THREADS\n");
    return 2;
  }
  const char* path = argv[1];
  const int mode = std::atoi(argv[2]), threads = std::max(1, std::atoi(argv[3]));
  std::vector<std::vector<char>> buffers(threads, std::vector<char>(kRange, 7));
  const auto start = Clock::now();
  const int fd = mode == 4 ? open(path, O_RDONLY) : open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    std::perror(path);
    return 1;
  }
  char* map = prepare(fd, mode);
  const auto prepared = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (std::size_t offset = t * kRange; offset < kTotal; offset += threads * kRange) {
        move_range(fd, mode, map, buffers[t].data(), offset);
      }
    });
  }
  for (auto& worker : workers) worker.join();
  const auto moved = Clock::now();
  if (map) munmap(map, kTotal);
  if (mode != 4) fsync(fd);
  close(fd);
  const auto synced = Clock::now();
  std::printf("%s mode %d threads %2d: prepare %6.1f ms, copy %6.1f ms, sync %6.1f ms\n", path, mode, threads,
              ms(start, prepared), ms(prepared, moved), ms(moved, synced));
  if (mode != 4 && !std::getenv("KEEP")) unlink(path);
  return 0;
}
