// vkc bench segments: GPU time of segmented sorts (the library's own recording, segmented.hpp,
// over device buffers; fresh input before every run; every output verified against a stable
// sort of each segment on the CPU), beside the whole-array radix sort of the same keys, for the
// segment shapes of CUB's benchmarks and rows (bench/segment_shapes.hpp, which the CUB peer
// shares, so that both sort the same offsets).
#include <algorithm>
#include <numeric>

#include "bench_commands.hpp"
#include "bench_internals.hpp"
#include "bench_sort_data.hpp"
#include "harness.hpp"
#include "segment_shapes.hpp"

namespace vkc::cli {
namespace {

struct SegmentArgs {
  std::string type = "i32";
  std::string output = "keys";  // keys, pairs (u32 values), argsort (u32 local indices)
  std::string order = "asc";
  std::vector<std::string> shapes;
  std::vector<std::uint64_t> sizes;
  int runs = 20;
  int warmup = 3;
  std::uint64_t seed = 1;
  std::string csv;
};

sorting::SegmentedOutput parse_output(const std::string& name) {
  if (name == "pairs") return sorting::SegmentedOutput::pairs;
  if (name == "argsort") return sorting::SegmentedOutput::local_indices;
  return sorting::SegmentedOutput::keys;
}

// The segments' offsets as the kernels take them: begins, then ends (uint32 each).
std::vector<std::uint32_t> device_offsets(const std::vector<std::uint64_t>& offsets) {
  const std::size_t s = offsets.size() - 1;
  std::vector<std::uint32_t> out(2 * s);
  for (std::size_t i = 0; i < s; ++i) {
    out[i] = static_cast<std::uint32_t>(offsets[i]);
    out[s + i] = static_cast<std::uint32_t>(offsets[i + 1]);
  }
  return out;
}

// Each segment's stable order on the CPU: the positions (local) of its keys, sorted.
std::vector<std::uint32_t> reference_order(KeyType type, bool descending, const std::vector<std::byte>& keys,
                                           const std::vector<std::uint64_t>& offsets) {
  std::vector<std::uint32_t> order(offsets.back());
  sorting::with_key_bits(type, [&](auto kb) {
    using Bits = decltype(kb.load(nullptr, 0));
    std::vector<Bits> rank(order.size());
    for (std::size_t i = 0; i < rank.size(); ++i) rank[i] = kb.rank(kb.load(keys.data(), i), descending);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
      const auto first = order.begin() + offsets[s], last = order.begin() + offsets[s + 1];
      std::iota(first, last, 0u);
      const Bits* r = rank.data() + offsets[s];
      std::stable_sort(first, last, [&](std::uint32_t a, std::uint32_t b) { return r[a] < r[b]; });
    }
  });
  return order;
}

void verify(const sorting::SegmentedJob& job, const std::vector<std::byte>& keys, const std::vector<std::uint64_t>& offsets,
            const std::vector<std::byte>& out_keys, const std::vector<std::uint32_t>& out_values) {
  const bool descending = job.order == SortOrder::descending;
  const std::vector<std::uint32_t> order = reference_order(job.key_type, descending, keys, offsets);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      const std::uint64_t from = offsets[s] + order[i];
      const bool keys_ok = job.output == sorting::SegmentedOutput::local_indices ||
                           sorting::with_key_bits(job.key_type, [&](auto b) {
                             return b.canonical(b.load(keys.data(), from)) == b.load(out_keys.data(), i);
                           });
      const bool values_ok = job.output == sorting::SegmentedOutput::keys ||
                             out_values[i] == (job.output == sorting::SegmentedOutput::pairs ? from : order[i]);
      if (!keys_ok || !values_ok) {
        throw Error("segmented sort: wrong " + std::string(keys_ok ? "value" : "key") + " at " + std::to_string(i) +
                    " (segment " + std::to_string(s) + ")");
      }
    }
  }
}

struct Measured {
  bench::Stats segmented, whole;
  std::uint64_t segments = 0;
};

Measured measure(Context& ctx, const SegmentArgs& args, const bench::SegmentShape& shape, std::uint64_t n) {
  const KeyType type = parse_key_type(args.type);
  const sorting::SegmentedOutput output = parse_output(args.output);
  const SortDesc desc{type, output == sorting::SegmentedOutput::pairs ? ValueType::u32 : ValueType::none, n,
                      {.order = args.order == "desc" ? SortOrder::descending : SortOrder::ascending}};
  const SortData data = make_sort_data(desc, "uniform", n);
  const std::vector<std::uint64_t> offsets = bench::segment_offsets(shape, n, args.seed);
  const bool rows = shape.kind == bench::SegmentKind::rows;
  sorting::SegmentedJob job{.key_type = type,
                            .value_type = output == sorting::SegmentedOutput::keys ? ValueType::none : ValueType::u32,
                            .order = desc.options.order,
                            .output = output,
                            .count = static_cast<std::uint32_t>(n),
                            .segments = static_cast<std::uint32_t>(offsets.size() - 1),
                            .rows = rows,
                            .columns = rows ? static_cast<std::uint32_t>(shape.parameter) : 0};
  const std::vector<std::uint32_t> device_ranges = device_offsets(offsets);
  Buffer pristine = ctx.create_buffer(data.keys.size()), keys = ctx.create_buffer(data.keys.size());
  Buffer values = ctx.create_buffer(std::max<std::uint64_t>(4, n * 4)), pristine_values = ctx.create_buffer(std::max<std::uint64_t>(4, n * 4));
  const std::uint64_t half = std::max<std::uint64_t>(4, device_ranges.size() * 2);
  Buffer begins = ctx.create_buffer(half), ends = ctx.create_buffer(half);
  Buffer temporary = ctx.create_buffer(sorting::segmented_temporary_bytes(ctx.info(), job));
  ctx.upload(pristine, data.keys.data(), data.keys.size());
  if (!data.values.empty()) ctx.upload(pristine_values, data.values.data(), data.values.size());
  if (!rows) {
    ctx.upload(begins, device_ranges.data(), half);
    ctx.upload(ends, device_ranges.data() + device_ranges.size() / 2, half);
  }
  job.keys = {keys.handle(), Access::read_write};
  if (job.value_type != ValueType::none) job.values = {values.handle(), Access::read_write};
  job.begins = {begins.handle(), Access::read};
  job.ends = {ends.handle(), Access::read};
  job.temporary = {temporary.handle(), Access::read_write};
  const auto fresh = [&](Recorder& r) {
    record_copy(ctx, r, pristine.handle(), keys.handle(), data.keys.size() / 4);
    if (!data.values.empty()) record_copy(ctx, r, pristine_values.handle(), values.handle(), n);
  };
  Measured m;
  m.segments = job.segments;
  m.segmented = bench::time_gpu(ctx, args.warmup, args.runs, fresh, [&](Recorder& r) { sorting::record_segmented(sorting::sort_device(ctx), r, job); });
  std::vector<std::byte> out_keys(data.keys.size());
  std::vector<std::uint32_t> out_values(n);
  ctx.download(keys, out_keys.data(), out_keys.size());
  if (job.value_type != ValueType::none) ctx.download(values, out_values.data(), n * 4);
  verify(job, data.keys, offsets, out_keys, out_values);
  // The whole array sorted as one (radix), the floor the longest rows aim at.
  SortDesc whole = desc;
  whole.value_type = job.value_type;
  whole.options.algorithm = SortAlgorithm::radix;
  Buffer whole_temp = ctx.create_buffer(sort_temporary_bytes(ctx, whole));
  const SortBuffers buffers{{keys.handle()}, {job.value_type != ValueType::none ? values.handle() : VK_NULL_HANDLE},
                            {whole_temp.handle()}};
  m.whole = bench::time_gpu(ctx, args.warmup, args.runs, fresh,
                            [&](Recorder& r) { sorting::record(sorting::sort_device(ctx), r, whole, n, buffers); });
  return m;
}

void run(Common& common, const SegmentArgs& args) {
  Context ctx(ContextOptions{.device = common.device});
  bench::Table table({"shape", "n", "segments", "type", "output", "order", "segmented_ms", "whole_radix_ms",
                      "segmented_keys_per_s", "ratio_to_whole"});
  for (const std::string& text : args.shapes) {
    const bench::SegmentShape shape = bench::parse_segment_shape(text);
    for (std::uint64_t n : args.sizes) {
      const Measured m = measure(ctx, args, shape, n);
      table.add_row({text, std::to_string(n), std::to_string(m.segments), args.type, args.output, args.order,
                     bench::significant(m.segmented.median_ms), bench::significant(m.whole.median_ms),
                     bench::significant(n / (m.segmented.median_ms * 1e-3)),
                     bench::fixed(m.segmented.median_ms / m.whole.median_ms, 3)});
    }
  }
  table.print_markdown(stdout);
  if (!args.csv.empty()) table.write_csv(args.csv, bench::run_info(ctx));
}

}  // namespace

void register_bench_segments(CLI::App& bench, Common& common) {
  auto args = std::make_shared<SegmentArgs>();
  auto* cmd = bench.add_subcommand("segments", "GPU time of segmented sorts (CUB's shapes and rows), verified");
  cmd->add_option("--type", args->type, "key type (32- or 64-bit)")
      ->check(CLI::IsMember({"u32", "i32", "f32", "u64", "i64", "f64"}));
  cmd->add_option("--output", args->output, "keys, pairs (u32 values) or argsort (u32 local indices)")
      ->check(CLI::IsMember({"keys", "pairs", "argsort"}));
  cmd->add_option("--order", args->order, "asc or desc")->check(CLI::IsMember({"asc", "desc"}));
  cmd->add_option("--shapes", args->shapes, "uniform:MAX, power:SEGMENTS or rows:COLUMNS (bench/segment_shapes.hpp)")
      ->delimiter(',')
      ->required();
  cmd->add_option("--n", args->sizes, "element counts")->delimiter(',')->required();
  cmd->add_option("--runs", args->runs, "timed runs (median reported)")->check(CLI::Range(3, 1000));
  cmd->add_option("--warmup", args->warmup, "untimed runs first")->check(CLI::Range(0, 100));
  cmd->add_option("--seed", args->seed, "the offsets' seed (the CUB peer's --seed)");
  cmd->add_option("--csv", args->csv, "also write the table as CSV");
  cmd->callback([&common, args] { run(common, *args); });
}

}  // namespace vkc::cli
