// vkc sort: sorts a .npy or raw binary file of keys on the GPU; writes the sorted keys, or with
// --argsort the sorting permutation, to OUTPUT (io::AtomicFile: a file is replaced only once the
// result is complete). The input is never modified. Every check that the arguments and the
// header allow comes before the device is touched. The rows of an N-D .npy and the segments of
// --segments are sorted in memory by the segmented API (sort_segments.cpp); everything else is
// streamed where the input and the output allow.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <map>
#include <numeric>
#include <thread>

#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "io/scratch_file.hpp"
#include "sort_segments.hpp"
#include "vkc/device_set.hpp"
#include "vkc/sort.hpp"

namespace vkc::cli {
namespace {

struct SortArgs {
  std::string algorithm = "auto";
  std::string order = "asc";
  std::string type;
  std::string bits;  // "BEGIN:END", or empty: every bit
  bool argsort = false;
  bool no_sync = false;
  bool flatten = false;              // an N-D .npy sorted as one array (NumPy's axis=None)
  std::filesystem::path segments;    // --segments OFFSETS.npy, or empty
  std::string indices = "local";     // argsort's numbering in segmented sorts
  std::string devices;               // --devices LIST, or empty: $VKC_DEVICES, else one device
  bool mpi = false;                  // one rank of `mpirun ... vkc sort --mpi`: vkc-mpi sorts
  bool verbose = false;              // --mpi: the time of each phase
  bool json = false;                 // --mpi: the same as JSON
  std::filesystem::path input;
  std::filesystem::path output;
};

// The key types --type names, in the order of the help text.
constexpr KeyType kKeyTypes[] = {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64,
                                 KeyType::u8,  KeyType::i8,  KeyType::u16, KeyType::i16, KeyType::f16, KeyType::bf16};

std::vector<std::string> key_type_names() {
  std::vector<std::string> names;
  for (const KeyType type : kKeyTypes) names.emplace_back(to_string(type));
  return names;
}

KeyType parse_key_type(const std::string& name) {
  for (const KeyType type : kKeyTypes) {
    if (to_string(type) == name) return type;
  }
  throw Error("--type " + name + ": not a key type");  // CLI11's check comes first
}

// The element type of files of `type` keys: its own, or for bf16, which NumPy lacks, its bits as u16.
io::DType file_dtype(KeyType type) {
  return type == KeyType::bf16 ? io::DType::u16 : *io::parse_dtype(to_string(type));
}

KeyType key_type_of(io::DType d) {
  switch (d) {
    case io::DType::u32: return KeyType::u32;
    case io::DType::i32: return KeyType::i32;
    case io::DType::f32: return KeyType::f32;
    case io::DType::u64: return KeyType::u64;
    case io::DType::i64: return KeyType::i64;
    case io::DType::f64: return KeyType::f64;
    case io::DType::u8: return KeyType::u8;
    case io::DType::i8: return KeyType::i8;
    case io::DType::u16: return KeyType::u16;
    case io::DType::i16: return KeyType::i16;
    case io::DType::f16: return KeyType::f16;
  }
  return KeyType::u32;
}

// What the keys are: --type where given (checked against a .npy file's dtype by open_keys),
// else the .npy file's dtype.
KeyType keys_type(const SortArgs& args, const io::ArrayReader& reader) {
  return args.type.empty() ? key_type_of(reader.dtype()) : parse_key_type(args.type);
}

// A .npy file of `dtype` holds keys of --type `type`: its own dtype, or 16-bit integers for
// bf16 (the bits of bfloat16 keys, as NumPy users keep them).
bool npy_holds(io::DType dtype, KeyType type) {
  if (type == KeyType::bf16) return dtype == io::DType::u16 || dtype == io::DType::i16;
  return dtype == file_dtype(type);
}

// The two decimal bit positions of --bits "BEGIN:END".
std::pair<std::uint32_t, std::uint32_t> parse_bits(const std::string& text) {
  const auto colon = text.find(':');
  std::uint32_t begin = 0, end = 0;
  const auto number = [](std::string_view digits, std::uint32_t& value) {
    const auto [at, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return !digits.empty() && error == std::errc{} && at == digits.data() + digits.size();
  };
  const std::string_view all(text);
  if (colon == std::string::npos || !number(all.substr(0, colon), begin) || !number(all.substr(colon + 1), end)) {
    throw Error("--bits '" + text + "': expected BEGIN:END, two bit positions such as 0:16");
  }
  return {begin, end};
}

// Sets the range of --bits, given, after checking it against the key's width and the
// algorithm (ranges are radix sorts only) before any work.
void apply_bits(const SortArgs& args, KeyType type, SortOptions& options) {
  if (args.bits.empty()) return;
  const auto [begin, end] = parse_bits(args.bits);
  const std::uint32_t width = key_bits(type);
  if (begin > end || end > width) {
    throw Error("--bits " + args.bits + ": " + std::string(to_string(type)) + " keys have " + std::to_string(width) +
                " bits (0 <= BEGIN <= END <= " + std::to_string(width) + ")");
  }
  if (options.algorithm != SortAlgorithm::automatic && options.algorithm != SortAlgorithm::radix) {
    throw Error("--bits sorts by radix only, not --algo " + args.algorithm + " (use auto or radix)");
  }
  options.begin_bit = begin;
  options.end_bit = end;
}

// odd_even's merge-split rounds grow with n / B: past this it is the wrong tool (bench's default).
constexpr std::uint64_t kOddEvenLargeN = 1u << 16;

std::uint64_t host_memory_bytes() {
  return std::uint64_t(::sysconf(_SC_PHYS_PAGES)) * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return a != "-" && b != "-" && std::filesystem::equivalent(a, b, ec);
}

// Opens INPUT ("-": standard input) and reads its .npy header, or notes raw input of --type;
// checks what the header says before any data is read.
std::unique_ptr<io::ArrayReader> open_keys(const SortArgs& args) {
  const bool typed = !args.type.empty();
  const KeyType type = typed ? parse_key_type(args.type) : KeyType::u32;
  auto reader = std::make_unique<io::ArrayReader>(args.input, io::InputFormat::detect, file_dtype(type));
  const std::string name = args.input.string();
  if (!reader->is_npy() && !typed) throw Error(name + ": not a .npy file; give --type for raw binary input");
  if (reader->is_npy() && typed && !npy_holds(reader->dtype(), type)) {
    throw Error(name + ": holds " + std::string(io::dtype_name(reader->dtype())) + ", not --type " + args.type);
  }
  if (reader->is_npy() && reader->shape().empty()) {
    throw Error(name + ": a 0-dimensional array; vkc sort takes arrays of one dimension or more");
  }
  if (!args.segments.empty() && !args.flatten && reader->shape().size() > 1) {
    throw Error("--segments sorts a one-dimensional array, and " + name + " has " +
                std::to_string(reader->shape().size()) + " dimensions (--flatten sorts it as one)");
  }
  return reader;
}

// The rows of an N-D array (as np.sort along the last axis), or the segments of --segments.
bool sorts_segments(const SortArgs& args, const io::ArrayReader& reader) {
  return !args.segments.empty() || (reader.shape().size() > 1 && !args.flatten);
}

// Segmented sorts choose their own kernels and sort by the whole key.
void check_segmented_options(const SortArgs& args) {
  const std::string which = args.segments.empty() ? "the rows of an N-D array" : "--segments";
  if (args.algorithm != "auto" && args.algorithm != "radix") {
    throw Error("--algo " + args.algorithm + ": a segmented sort (" + which +
                ") chooses its own kernels; use auto or radix");
  }
  if (!args.bits.empty()) throw Error("--bits: a segmented sort (" + which + ") takes no bit range yet");
}

// The limits a count of keys must meet; raw data from a stream is checked once read. The sort
// holds at most one more copy of the keys (and of argsort's indices) in host memory: the scratch
// of a sort larger than the device takes at once.
void check_count(const SortArgs& args, const Common& common, io::DType type, std::uint64_t n) {
  const std::string name = args.input.string();
  const std::uint64_t host = n * (io::dtype_size(type) + (args.argsort ? 8 : 0));
  if (host > host_memory_bytes()) {
    throw Error(name + ": " + std::to_string(n) + " keys need " + std::to_string(host >> 20) +
                " MiB of host memory, more than this machine has (" + std::to_string(host_memory_bytes() >> 20) + " MiB)");
  }
  if (args.algorithm == "odd_even" && n > kOddEvenLargeN && !common.force) {
    throw Error("--algo odd_even takes O(n^2/B) time, far too long for " + std::to_string(n) +
                " keys (radix or auto: O(n)); --force runs it anyway");
  }
}

// The .npy header the output starts with (none for raw output).
std::string output_header(const SortArgs& args, const io::ArrayReader& reader) {
  const std::vector<std::size_t> shape{static_cast<std::size_t>(*reader.count())};
  if (args.argsort) return io::npy_header(io::DType::u64, shape);
  return reader.is_npy() ? io::npy_header(reader.dtype(), shape) : std::string();
}

std::uint64_t payload_bytes(const SortArgs& args, const io::ArrayReader& reader) {
  return *reader.count() * (args.argsort ? sizeof(std::uint64_t) : io::dtype_size(reader.dtype()));
}

// Sorts the input's keys without holding them in memory (beyond the scratch of a sort larger
// than the device): the transfer threads take its chunks from `read` and hand the sorted chunks,
// or argsort's uint64 indices, to `write` at their offsets in the output's payload.
void sort_keys(Context& ctx, const SortArgs& args, const io::ArrayReader& reader, const HostRead& read,
               const HostWrite& write, const SortOptions& options) {
  const std::uint64_t n = *reader.count();
  if (args.argsort) {
    argsort64_streamed(ctx, keys_type(args, reader), read, write, n, options);
  } else {
    sort_streamed(ctx, keys_type(args, reader), read, write, n, options);
  }
}

// Into a regular output: the threads write the sorted chunks into its temporary file with pwrite.
void sort_to_file(Context& ctx, const SortArgs& args, const io::ArrayReader& reader, const HostRead& read,
                  io::AtomicFile& out, const SortOptions& options) {
  const std::string header = output_header(args, reader);
  out.write_at(0, std::as_bytes(std::span(header)));
  sort_keys(ctx, args, reader, read, [&](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    out.write_at(header.size() + offset, std::span(static_cast<const std::byte*>(src), bytes));
  }, options);
}

// Into an output that takes its bytes in order (a FIFO, a device, standard output): the threads
// finish their chunks out of order, so the chunks wait in an unnamed scratch file rather than in
// memory, and then go out in order.
void sort_through_scratch(Context& ctx, const SortArgs& args, const io::ArrayReader& reader, const HostRead& read,
                          io::ScratchFile& scratch, io::AtomicFile& out, const SortOptions& options) {
  sort_keys(ctx, args, reader, read, [&](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    scratch.write_at(offset, std::span(static_cast<const std::byte*>(src), bytes));
  }, options);
  const std::string header = output_header(args, reader);
  out.write(std::as_bytes(std::span(header)));
  io::copy_in_order(scratch, payload_bytes(args, reader), out);
  out.commit();
}

// A scratch file of `bytes` where $TMPDIR (or /tmp) takes one and has the room; else none, and
// the keys are held in memory instead.
std::unique_ptr<io::ScratchFile> scratch_file(std::uint64_t bytes) {
  try {
    return std::make_unique<io::ScratchFile>(bytes);
  } catch (const io::FormatError&) {
    return nullptr;
  }
}

// A stream's keys (a pipe cannot be read at offsets by several threads) copied into a scratch
// file, when the header gives their count and there is room for them; else none.
std::unique_ptr<io::ScratchFile> copy_of_stream(io::ArrayReader& reader, const std::string& name) {
  if (!reader.count()) return nullptr;
  auto copy = scratch_file(*reader.count() * io::dtype_size(reader.dtype()));
  if (!copy) return nullptr;
  progress("vkc sort: reading " + name);
  std::uint64_t at = 0;
  reader.read_in_pieces([&](std::span<const std::byte> piece) {
    copy->write_at(at, piece);
    at += piece.size();
  });
  return copy;
}

// Puts the output in place while the Context is destroyed: the fsync waits for the disk and the
// teardown for the driver, independent of each other, and both only cost the user time.
void commit_while_releasing(io::AtomicFile& out, std::unique_ptr<Context> ctx) {
  std::thread release([ctx = std::move(ctx)]() mutable { ctx.reset(); });
  try {
    out.commit();
  } catch (...) {
    release.join();
    throw;
  }
  release.join();
}

// Sorts keys read whole into memory, on one Context or a DeviceSet (`where` names it): input
// from a stream, output to one where no scratch file can be had, or several devices.
template <class Devices>
void sort_in_memory(Devices& on, const std::string& where, const SortArgs& args, const Common& common,
                    io::ArrayReader& reader, io::AtomicFile& out, const SortOptions& options) {
  const io::DType type = reader.dtype();
  const bool counted = reader.count().has_value();
  io::Array keys = reader.read(host_memory_bytes());
  if (!counted) check_count(args, common, type, keys.count());
  progress("vkc sort: sorting " + std::to_string(keys.count()) + " keys on " + where);
  if (args.argsort) {
    const auto perm = argsort64(on, keys_type(args, reader), keys.bytes.data(), keys.count(), options);
    io::write_npy(out, io::DType::u64, std::as_bytes(std::span(perm)), {perm.size()});
  } else {
    sort(on, keys_type(args, reader), keys.bytes.data(), keys.count(), options);
    if (reader.is_npy()) {
      io::write_npy(out, keys.dtype, keys.bytes, {keys.count()});
    } else {
      io::write_raw(out, keys.bytes);
    }
  }
}

// On a terminal, a status line for the sort: bytes of the input done, rate, time left.
std::function<void(const SortProgress&)> terminal_progress(std::uint64_t input_bytes) {
  if (!isatty(STDERR_FILENO)) return nullptr;
  const auto start = std::chrono::steady_clock::now();
  return [input_bytes, start](const SortProgress& p) {
    if (p.total == 0 || p.done == 0) return;
    const double fraction = static_cast<double>(p.done) / p.total;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double gib = 1024.0 * 1024 * 1024, done = fraction * input_bytes / gib;
    char line[160];
    std::snprintf(line, sizeof line, "vkc sort: %.2f of %.2f GiB, %.2f GiB/s, %.0f s left", done, input_bytes / gib,
                  done / std::max(seconds, 1e-9), seconds * (1 - fraction) / fraction);
    progress(line);
  };
}

// Sorts by the route the input and the output allow: file to file; a file into an output that
// takes its bytes in order, through a scratch file; a .npy stream into a file, through a scratch
// copy; else in memory.
void sort_by_route(std::unique_ptr<Context> ctx, const SortArgs& args, const Common& common,
                   io::ArrayReader& reader, io::AtomicFile& out, const SortOptions& options) {
  const std::string sorting = "vkc sort: sorting " + args.input.string() + " on " + ctx->info().name;
  const HostRead from_file = [&](std::uint64_t offset, void* dst, std::uint64_t bytes) {
    reader.read_at(offset, dst, bytes);
  };
  std::unique_ptr<io::ScratchFile> scratch;
  if (reader.seekable() && out.seekable()) {
    progress(sorting);
    sort_to_file(*ctx, args, reader, from_file, out, options);
  } else if (reader.seekable() && (scratch = scratch_file(payload_bytes(args, reader)))) {
    progress(sorting);
    sort_through_scratch(*ctx, args, reader, from_file, *scratch, out, options);
  } else if (out.seekable() && (scratch = copy_of_stream(reader, args.input.string()))) {
    progress(sorting);
    sort_to_file(*ctx, args, reader, [&](std::uint64_t offset, void* dst, std::uint64_t bytes) {
      scratch->read_at(offset, std::span(static_cast<std::byte*>(dst), bytes));
    }, out, options);
  } else {
    progress("vkc sort: reading " + args.input.string());
    sort_in_memory(*ctx, ctx->info().name, args, common, reader, out, options);
  }
  progress("");
  // A regular output that sort_to_file wrote is still open: it is committed here.
  if (out.seekable()) commit_while_releasing(out, std::move(ctx));
}

// Sorts the rows or segments of keys read whole into memory; `offsets` are those of --segments.
void sort_segments_in_memory(std::unique_ptr<Context> ctx, const SortArgs& args, const Common& common,
                             io::ArrayReader& reader, io::AtomicFile& out, const SortOptions& options,
                             std::vector<std::uint64_t> offsets) {
  progress("vkc sort: reading " + args.input.string());
  io::Array keys = reader.read(host_memory_bytes());
  if (!reader.count()) check_count(args, common, keys.dtype, keys.count());
  if (!offsets.empty()) check_offsets_fit(offsets, keys.count(), args.segments, args.input.string());
  if (args.flatten) keys.shape = {keys.count()};
  progress("vkc sort: sorting " + std::to_string(keys.count()) + " keys on " + ctx->info().name);
  const SegmentedSort what{.type = keys_type(args, reader), .offsets = std::move(offsets), .argsort = args.argsort,
                           .global_indices = args.indices == "global", .npy = reader.is_npy()};
  sort_segmented(*ctx, what, keys, options, out);
  progress("");
}

// --mpi: this rank becomes vkc-mpi (tools/vkc-mpi), built beside vkc, with the arguments it
// takes; the options it does not take are refused first.
[[noreturn]] void run_mpi_sort(const SortArgs& args, const Common& common) {
  if (args.argsort || args.flatten || !args.segments.empty() || !args.bits.empty() || !args.devices.empty()) {
    throw Error("--mpi sorts keys of 1-D arrays: no --argsort, --flatten, --segments, --bits or --devices");
  }
  if (args.input == "-" || args.output == "-") throw Error("--mpi reads and writes files, not standard streams");
  std::vector<std::string> rest = {"sort", args.input.string(), "-o", args.output.string(), "--order", args.order,
                                   "--algo", args.algorithm};
  if (!args.type.empty()) rest.insert(rest.end(), {"--type", args.type});
  if (args.verbose) rest.push_back("--verbose");
  if (args.json) rest.push_back("--json");
  if (common.force) rest.push_back("--force");
  exec_beside("vkc-mpi", rest, "--mpi: vkc was built without MPI");
}

void run_sort(const SortArgs& args, const Common& common) {
  if (args.mpi) run_mpi_sort(args, common);
  SortOptions options;
  options.algorithm = parse_algorithm(args.algorithm);
  options.order = args.order == "desc" ? SortOrder::descending : SortOrder::ascending;
  if (same_file(args.input, args.output)) {
    throw Error(args.output.string() + ": is the input file; vkc never modifies its input");
  }
  if (same_file(args.segments, args.output)) {
    throw Error(args.output.string() + ": is the offsets file; vkc never modifies its input");
  }
  io::check_output(args.output, common.force);
  const auto reader = open_keys(args);
  const bool segmented = sorts_segments(args, *reader);
  if (segmented) check_segmented_options(args);
  apply_bits(args, keys_type(args, *reader), options);
  std::vector<std::uint64_t> offsets;
  if (!args.segments.empty()) offsets = read_offsets(args.segments);
  if (!offsets.empty() && reader->count()) {
    check_offsets_fit(offsets, *reader->count(), args.segments, args.input.string());
  }
  const io::DType type = reader->dtype();
  if (reader->count()) check_count(args, common, type, *reader->count());
  if (reader->count()) options.progress = terminal_progress(*reader->count() * io::dtype_size(type));
  if (args.argsort && (options.algorithm == SortAlgorithm::bitonic || options.algorithm == SortAlgorithm::bitonic_transpose)) {
    std::fprintf(stderr, "vkc sort: note: %s is not stable, so equal keys' indices may come in any order "
                 "(radix or auto gives the stable permutation)\n", args.algorithm.c_str());
  }
  using Durability = io::AtomicFile::Durability;
  // Its temporary file exists from now until the result is in place.
  io::AtomicFile out(args.output, args.no_sync ? Durability::unsynced : Durability::synced);
  if (const std::string list = device_list(args.devices); !list.empty()) {
    if (segmented) throw Error("--devices: rows and segments are sorted on one device (use --flatten for one array)");
    DeviceSet devices(list);
    progress("vkc sort: reading " + args.input.string());
    sort_in_memory(devices, std::to_string(devices.size()) + " devices", args, common, *reader, out, options);
    return;
  }
  auto ctx = std::make_unique<Context>(ContextOptions{.device = common.device});
  if (segmented) {
    sort_segments_in_memory(std::move(ctx), args, common, *reader, out, options, std::move(offsets));
  } else {
    sort_by_route(std::move(ctx), args, common, *reader, out, options);
  }
}

}  // namespace

void register_sort(CLI::App& app, Common& common) {
  auto args = std::make_shared<SortArgs>();
  auto* cmd = app.add_subcommand("sort", "sort a .npy or raw binary file of keys on the GPU");
  cmd->add_option("--algo", args->algorithm,
                  "auto, bitonic, bitonic_transpose, odd_even (refused past 65536 keys without --force) or radix")
      ->check(CLI::IsMember({"auto", "bitonic", "bitonic_transpose", "odd_even", "radix"}));
  cmd->add_option("--order", args->order, "asc or desc")->check(CLI::IsMember({"asc", "desc"}));
  cmd->add_flag("--argsort", args->argsort,
                "write the sorting permutation (uint64 .npy) instead of the keys; for rows and segments, each "
                "one's positions as --indices says");
  cmd->add_flag("--flatten", args->flatten,
                "sort an N-D .npy as one array (NumPy's axis=None) and write it 1-D; without it, each row along the "
                "last axis is sorted on its own");
  cmd->add_option("--segments", args->segments,
                  "a 1-D integer .npy of S + 1 non-decreasing offsets: sort each segment [offsets[i], offsets[i + 1]) "
                  "of a 1-D INPUT on its own, leaving the keys outside them as they are (auto or radix, no --bits)")
      ->type_name("OFFSETS.npy");
  cmd->add_option("--indices", args->indices,
                  "argsort of rows or segments: local (positions within each, 0 outside every segment, as "
                  "np.argsort along an axis) or global (positions in the whole array, outside ones their own)")
      ->check(CLI::IsMember({"local", "global"}));
  cmd->add_option("--devices", args->devices,
                  "sort on several devices at once: all (every GPU of the best kind) or a list of indices or names, "
                  "a device may repeat (0,2; 0,0); the keys are read into memory (default: $VKC_DEVICES, else one "
                  "device, --device)")
      ->type_name("LIST");
  cmd->add_flag("--mpi", args->mpi,
                "one rank of `mpirun -np R vkc sort --mpi`: the ranks read their slices of INPUT, sort together "
                "(each on its host's GPU by its local rank) and write one sorted OUTPUT, whole or not at all");
  cmd->add_flag("--verbose", args->verbose, "with --mpi: the slowest rank's time per phase on stderr");
  cmd->add_flag("--json", args->json, "with --mpi: the same as one JSON object on stdout");
  cmd->add_flag("--no-sync", args->no_sync,
                "do not wait for the output to reach the disk before renaming it into place (after a power "
                "loss the output may be empty or old)");
  cmd->add_option("--type", args->type,
                  "key type: u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16 or bf16 (bfloat16); needed for raw "
                  "input; for .npy it must be the file's dtype, except bf16, which reads <u2 or <i2 as bfloat16 bits")
      ->check(CLI::IsMember(key_type_names()));
  cmd->add_option("--bits", args->bits,
                  "BEGIN:END: sort by bits [BEGIN, END) of each key's ordered image alone, as CUB's begin_bit and "
                  "end_bit (include/vkc/sort.hpp says what the image is for signed and float keys); radix only")
      ->type_name("BEGIN:END");
  cmd->add_option("INPUT", args->input,
                  "keys: .npy (<u4 <i4 <f4 <u8 <i8 <f8 |u1 |i1 <u2 <i2 <f2; N-D: each row along the last axis sorted, "
                  "as np.sort) or raw little-endian; - reads standard input")
      ->required();
  cmd->add_option("-o,--output", args->output,
                  "where to write the result (same format as INPUT); - is standard output; a file is replaced "
                  "only on success, a device or FIFO written directly, a symlink's target replaced")
      ->required();
  cmd->callback([args, &common] { run_sort(*args, common); });
}

}  // namespace vkc::cli
