// Where `vkc sort` of a .npy file into a .npy file spends its time, phase by phase, in one
// process: opening the input, creating the Context, the streamed sort (pread into staging, sort,
// pwrite from staging), the commit (fsync, rename) and the Context's destruction; then, on a
// second Context kept warm, the same streamed sort twice, and the same keys sorted between host
// arrays. Checks the output is sorted. Prints CSV (phase,ms).
//   probe-cli_file INPUT.npy OUTPUT.npy
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "vkc/sort.hpp"

using namespace vkc;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void row(const char* phase, double ms) { std::printf("%s,%.2f\n", phase, ms); }

// The CLI's file-to-file path: header, then the streamed sort writing after it.
void sort_file(Context& ctx, const io::ArrayReader& reader, io::AtomicFile& out) {
  const std::uint64_t n = *reader.count();
  const std::vector<std::size_t> shape{static_cast<std::size_t>(n)};
  const std::string header = io::npy_header(reader.dtype(), shape);
  out.write_at(0, std::as_bytes(std::span(header)));
  const HostRead read = [&](std::uint64_t offset, void* dst, std::uint64_t bytes) { reader.read_at(offset, dst, bytes); };
  const HostWrite write = [&](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    out.write_at(header.size() + offset, std::span(static_cast<const std::byte*>(src), bytes));
  };
  sort_streamed(ctx, KeyType::u32, read, write, n, {});
}

void check_sorted(const std::string& path) {
  io::ArrayReader reader(path, io::InputFormat::detect);
  std::vector<std::uint32_t> keys(*reader.count());
  reader.read_at(0, keys.data(), keys.size() * sizeof(std::uint32_t));
  if (!std::is_sorted(keys.begin(), keys.end())) throw Error("probe-cli_file: " + path + " is not sorted");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: probe-cli_file INPUT.npy OUTPUT.npy (u32 keys)\n");
    return 2;
  }
  try {
    std::printf("phase,ms\n");
    auto start = Clock::now();
    io::ArrayReader reader(argv[1], io::InputFormat::detect);
    if (reader.dtype() != io::DType::u32 || !reader.seekable()) throw Error("probe-cli_file: needs a u32 .npy file");
    auto out = std::make_unique<io::AtomicFile>(argv[2]);
    row("open_input_and_output", ms_since(start));
    start = Clock::now();
    auto ctx = std::make_unique<Context>(ContextOptions{.quiet = true});
    row("create_context", ms_since(start));
    start = Clock::now();
    sort_file(*ctx, reader, *out);
    row("cold_streamed_sort", ms_since(start));
    start = Clock::now();
    out->commit();
    row("commit", ms_since(start));
    start = Clock::now();
    ctx.reset();
    row("destroy_context", ms_since(start));
    check_sorted(argv[2]);

    Context warm(ContextOptions{.quiet = true});
    for (const char* phase : {"warm_streamed_sort_1", "warm_streamed_sort_2"}) {
      io::AtomicFile again(argv[2]);
      start = Clock::now();
      sort_file(warm, reader, again);
      row(phase, ms_since(start));
      again.commit();
    }
    std::vector<std::uint32_t> keys(*reader.count());
    reader.read_at(0, keys.data(), keys.size() * sizeof(std::uint32_t));
    std::vector<std::uint32_t> copy = keys;
    start = Clock::now();
    sort(warm, std::span(copy));
    row("warm_host_array_sort", ms_since(start));
    if (!std::is_sorted(copy.begin(), copy.end())) throw Error("probe-cli_file: the host array sort is not sorted");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
