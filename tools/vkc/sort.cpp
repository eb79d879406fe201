// vkc sort: sorts a .npy or raw binary file of keys on the GPU; writes the sorted keys, or with
// --argsort the sorting permutation, atomically to OUTPUT. The input is never modified.
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>

#include "commands.hpp"
#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "harness.hpp"
#include "io/npy.hpp"
#include "sort/algorithm.hpp"
#include "vkc/sort.hpp"

namespace vkc::cli {
namespace {

struct SortArgs {
  std::string algorithm = "auto";
  std::string order = "asc";
  std::string type;
  bool argsort = false;
  std::filesystem::path input;
  std::filesystem::path output;
};

KeyType key_type_of(io::DType d) {
  switch (d) {
    case io::DType::u32: return KeyType::u32;
    case io::DType::i32: return KeyType::i32;
    case io::DType::f32: return KeyType::f32;
    case io::DType::u64: return KeyType::u64;
    case io::DType::i64: return KeyType::i64;
    case io::DType::f64: return KeyType::f64;
  }
  return KeyType::u32;
}

// Reads INPUT as .npy (by its magic) or as raw keys of --type; checks it is one-dimensional.
io::Array load_keys(const SortArgs& args, bool& is_npy) {
  std::optional<io::DType> type;
  if (!args.type.empty()) type = io::parse_dtype(args.type);
  if (!args.type.empty() && !type) throw Error("unknown --type '" + args.type + "' (u32, i32, f32, u64, i64, f64)");
  if (!std::filesystem::exists(args.input)) throw Error(args.input.string() + ": no such file");
  is_npy = io::looks_like_npy(args.input);
  if (!is_npy && !type) throw Error(args.input.string() + ": not a .npy file; give --type for raw binary input");
  io::Array keys = is_npy ? io::read_npy(args.input) : io::read_raw(args.input, *type);
  if (is_npy && type && *type != keys.dtype) {
    throw Error(args.input.string() + ": holds " + std::string(io::dtype_name(keys.dtype)) + ", not --type " +
                args.type);
  }
  if (keys.shape.size() != 1) {
    throw Error(args.input.string() + ": expected a one-dimensional array, got " +
                std::to_string(keys.shape.size()) + " dimensions");
  }
  return keys;
}

void check_output(const SortArgs& args) {
  std::error_code ec;
  if (std::filesystem::equivalent(args.input, args.output, ec)) {
    throw Error(args.output.string() + ": is the input file; vkc never modifies its input");
  }
  const auto dir = args.output.has_parent_path() ? args.output.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir)) throw Error(args.output.string() + ": directory " + dir.string() + " does not exist");
}

// Sorts on the device with a progress line per phase; returns the permutation for --argsort.
std::vector<std::uint32_t> sort_on_gpu(Context& ctx, const SortDesc& desc, std::vector<std::byte>& keys, bool argsort) {
  const std::uint64_t n = desc.max_count;
  std::vector<std::uint32_t> permutation(argsort ? n : 0);
  if (n == 0) return permutation;
  Buffer key_buffer = ctx.create_buffer(keys.size());
  Buffer value_buffer;
  if (argsort) value_buffer = ctx.create_buffer(n * 4);
  Buffer temporary = ctx.create_buffer(sort_temporary_bytes(ctx, desc));
  bench::progress("vkc sort: uploading " + std::to_string(n) + " keys");
  ctx.upload(key_buffer, keys.data(), keys.size());
  bench::progress("vkc sort: sorting on " + ctx.info().name);
  const SortBuffers buffers{{key_buffer.handle()}, {value_buffer.handle()}, {temporary.handle()}};
  ctx.run([&](Recorder& r) {
    if (argsort) sorting::record_iota(ctx, r, value_buffer, n);
    sorting::record(ctx, r, desc, n, buffers);
  });
  bench::progress("vkc sort: downloading");
  if (argsort) {
    ctx.download(value_buffer, permutation.data(), n * 4);
  } else {
    ctx.download(key_buffer, keys.data(), keys.size());
  }
  bench::progress("");
  return permutation;
}

void write_result(const SortArgs& args, bool is_npy, const io::Array& keys, const std::vector<std::uint32_t>& perm) {
  if (args.argsort) {
    const std::vector<std::uint64_t> wide(perm.begin(), perm.end());
    io::write_npy(args.output, io::DType::u64, std::as_bytes(std::span(wide)), {wide.size()});
  } else if (is_npy) {
    io::write_npy(args.output, keys.dtype, keys.bytes, keys.shape);
  } else {
    io::write_raw(args.output, keys.bytes);
  }
}

void run_sort(const SortArgs& args, const Common& common) {
  SortOptions options;
  options.algorithm = parse_algorithm(args.algorithm);
  options.order = args.order == "desc" ? SortOrder::descending : SortOrder::ascending;
  bool is_npy = false;
  io::Array keys = load_keys(args, is_npy);
  check_output(args);
  if (args.argsort) options = sorting::options_for_argsort(options);
  Context ctx(ContextOptions{.device = common.device});
  const SortDesc desc{key_type_of(keys.dtype), args.argsort ? ValueType::u32 : ValueType::none, keys.count(), options};
  if (desc.max_count > UINT32_MAX) throw Error(args.input.string() + ": more than 2^32 - 1 keys");
  const auto perm = sort_on_gpu(ctx, desc, keys.bytes, args.argsort);
  write_result(args, is_npy, keys, perm);
}

}  // namespace

void register_sort(CLI::App& app, Common& common) {
  auto args = std::make_shared<SortArgs>();
  auto* cmd = app.add_subcommand("sort", "sort a .npy or raw binary file of keys on the GPU");
  cmd->add_option("--algo", args->algorithm, "auto, bitonic, bitonic_transpose, odd_even or radix")
      ->check(CLI::IsMember({"auto", "bitonic", "bitonic_transpose", "odd_even", "radix"}));
  cmd->add_option("--order", args->order, "asc or desc")->check(CLI::IsMember({"asc", "desc"}));
  cmd->add_flag("--argsort", args->argsort, "write the sorting permutation (uint64 .npy) instead of the keys");
  cmd->add_option("--type", args->type, "key type of raw input: u32, i32, f32, u64, i64, f64")
      ->check(CLI::IsMember({"u32", "i32", "f32", "u64", "i64", "f64"}));
  cmd->add_option("INPUT", args->input, "keys: .npy (<u4 <i4 <f4 <u8 <i8 <f8, 1-D) or raw little-endian")->required();
  cmd->add_option("-o,--output", args->output, "where to write the result (same format as INPUT)")->required();
  cmd->callback([args, &common] { run_sort(*args, common); });
}

}  // namespace vkc::cli
