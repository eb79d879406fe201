// vkc bench sort: the seeds' CPU-versus-GPU table, honestly. For each n: std::sort, a parallel
// std::sort, every GPU algorithm's GPU time (timestamps, median, fresh input per run, output
// verified), the default sort with uploads and downloads (wall clock), and optionally CUB.
// It times library internals by design; bench_internals.hpp is its one door to them.
#include <algorithm>
#include <cstdio>
#include <execution>
#include <filesystem>
#include <map>
#include <random>
#include <tuple>
#include <utility>

#include "bench_internals.hpp"
#include "bench_sort_data.hpp"
#include "key_distributions.hpp"
#include "bench_commands.hpp"
#include "harness.hpp"
#include "peers.hpp"

namespace vkc::cli {
namespace {

constexpr std::uint64_t kTransposeMaxN = 1u << 26;
// The largest size measured: 64 GiB of u32 keys, past the device memory of an 80 GB GPU.
constexpr std::uint64_t kMaxBenchN = std::uint64_t{1} << 34;

struct BenchArgs {
  std::uint64_t min_n = 1u << 9;
  std::uint64_t max_n = 0;
  bool max_n_given = false;  // otherwise max_n comes from the device
  std::string type = "u32";
  std::string values = "none";
  std::string dist = "uniform";
  std::string order = "asc";
  std::string bits;  // --bits BEGIN:END, empty for every bit
  std::vector<std::string> algorithms;
  std::uint64_t odd_even_max_n = 1u << 16;
  std::uint64_t transpose_max_n = kTransposeMaxN;
  std::uint64_t cpu_max_n = 1u << 26;
  std::uint64_t cpu_serial_max_n = ~std::uint64_t{0};  // std::sort on one thread: up to cpu_max_n unless less
  int runs = 15;
  int warmup = 3;
  bool peers = false;
  std::vector<std::string> peer_algos = {"cub_radix", "cub_merge", "torch"};
  bool no_transfer = false;
  std::string host_path = "auto";
  std::string devices;  // --devices LIST: the host-to-host sort split across them too
  unsigned host_threads = 0;
  std::uint64_t host_chunk_kib = 0;
  std::string csv;
  std::string plot;
};

// The largest power of two whose keys, values and scratch fit comfortably on the device.
std::uint64_t default_max_n(Context& ctx, const SortDesc& desc) {
  if (ctx.info().is_software()) return 1u << 22;
  const std::uint64_t per = key_bytes(desc.key_type) * 3 + value_bytes(desc.value_type) * 3 + 8;
  const std::uint64_t limit = std::min(ctx.info().max_storage_buffer_range / key_bytes(desc.key_type),
                                       ctx.info().device_local_bytes() / 2 / per);
  std::uint64_t n = 1;
  while (n * 2 <= limit && n < (1u << 28)) n *= 2;
  return n;
}

std::vector<SortAlgorithm> algorithms_to_run(const BenchArgs& args) {
  std::vector<SortAlgorithm> out;
  if (!args.bits.empty()) {  // only the radix sort takes a bit range (SortOptions::begin_bit)
    for (const auto& name : args.algorithms) {
      if (name != "radix") throw Error("--bits: only the radix sort sorts by a bit range, not " + name);
    }
    return {SortAlgorithm::radix};
  }
  if (args.algorithms.empty()) {
    for (SortAlgorithm a : {SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even,
                            SortAlgorithm::radix}) {
      if (sorting::available(a)) out.push_back(a);
    }
  } else {
    for (const auto& name : args.algorithms) out.push_back(parse_algorithm(name));
  }
  return out;
}

bool runs_at(const BenchArgs& args, SortAlgorithm a, std::uint64_t n) {
  if (a == SortAlgorithm::odd_even) return n <= args.odd_even_max_n;
  if (a == SortAlgorithm::bitonic_transpose) return n <= args.transpose_max_n;
  return true;
}

HostPath parse_host_path(const std::string& name) {
  if (name == "staged") return HostPath::staged;
  if (name == "imported") return HostPath::imported;
  return HostPath::automatic;
}

// GPU time of one algorithm at one size; verifies the result before returning it. The runs share
// one temporary buffer, zero-filled once and then marked clear (SortBuffers::temporary_is_clear),
// as an engine that sorts every frame keeps its own: the radix sort then records no clearing fill.
bench::Stats time_algorithm(Context& ctx, const BenchArgs& args, const SortDesc& desc, const SortData& data) {
  const std::uint64_t n = desc.max_count;
  // 8- and 16-bit keys lie packed; the buffer holds whole 32-bit words (SortBuffers::keys).
  const std::uint64_t key_words = (data.keys.size() + 3) / 4;
  Buffer pristine_keys = ctx.create_buffer(key_words * 4);
  Buffer keys = ctx.create_buffer(key_words * 4);
  Buffer pristine_values, values;
  if (desc.value_type != ValueType::none) {
    pristine_values = ctx.create_buffer(data.values.size());
    values = ctx.create_buffer(data.values.size());
    ctx.upload(pristine_values, data.values.data(), data.values.size());
  }
  Buffer temporary = ctx.create_buffer(sort_temporary_bytes(ctx, desc));
  ctx.upload(pristine_keys, data.keys.data(), data.keys.size());
  ctx.run([&](Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0); });
  SortBuffers buffers{{keys.handle()}, {values.handle()}, {temporary.handle()}};
  buffers.temporary_is_clear = true;
  auto fresh_input = [&](Recorder& r) {
    record_copy(ctx, r, pristine_keys.handle(), keys.handle(), key_words);
    if (values) record_copy(ctx, r, pristine_values.handle(), values.handle(), data.values.size() / 4);
  };
  const auto stats = bench::time_gpu(ctx, args.warmup, args.runs, fresh_input,
                                     [&](Recorder& r) { sorting::record(sorting::sort_device(ctx), r, desc, n, buffers); });
  std::vector<std::byte> out_keys(data.keys.size()), out_values(data.values.size());
  ctx.download(keys, out_keys.data(), out_keys.size());
  if (values) ctx.download(values, out_values.data(), out_values.size());
  verify_sorted(desc, data, out_keys, out_values);
  return stats;
}

// Whether the device sorts desc's arrays in its own buffers (the GPU-time columns); larger ones are
// measured host to host only, sorted in parts (sort.hpp, Sizes).
bool fits_one_buffer(Context& ctx, const SortDesc& desc) {
  const std::uint64_t range = ctx.info().max_storage_buffer_range;
  return desc.max_count <= UINT32_MAX && desc.max_count * key_bytes(desc.key_type) <= range &&
         desc.max_count * value_bytes(desc.value_type) <= range && sort_temporary_bytes(ctx, desc) <= range;
}

struct Row {
  std::uint64_t n;
  double cpu_ms = -1, cpu_par_ms = -1;
  double host_ms = -1;   // the default sort on a host array, host to host
  double devices_host_ms = -1;  // the same split across --devices
  double partition_ms = -1;     // of that: the keys' partition alone, on the host
  std::size_t devices = 0;      // how many --devices names
  double bound_ms = -1;  // the same bytes up and down at pinned-copy speed, no sort
  std::map<SortAlgorithm, double> gpu_ms;
  std::map<std::string, double> peer_ms;  // cub_radix, cub_merge, torch_host_to_host, torch_gpu
  std::string cub_count_type;             // of CUB's fastest radix call (CubTime)
};

// Median wall-clock milliseconds of the partition that a sort on `devices` devices begins with:
// the keys' pass that counts and the pass that moves them (the values, for pairs, move in the
// second pass too and are not timed here).
double time_partition(DeviceSet& devices, const SortDesc& desc, const SortData& data, int runs) {
  const std::uint64_t n = data.keys.size() / key_bytes(desc.key_type);
  std::vector<std::uint64_t> bounds;
  return bench::time_wall(runs, [&] {
    sorting::partition_keys(devices, desc.key_type, desc.options, data.keys.data(), n, bounds);
    if (bounds.back() != n) throw std::runtime_error("bench sort: partition lost keys");
  }).median_ms;
}

void measure_row(Context& ctx, DeviceSet* devices, const BenchArgs& args, const SortDesc& base,
                 const std::vector<SortAlgorithm>& algos, Row& row) {
  SortDesc desc = base;
  desc.max_count = row.n;
  const SortData data = make_sort_data(desc, args.dist, row.n);
  if (row.n <= args.cpu_max_n) {
    progress("vkc bench sort: std::sort n=" + std::to_string(row.n));
    const int cpu_runs = row.n <= (1u << 20) ? 5 : 1;
    if (row.n <= args.cpu_serial_max_n) row.cpu_ms = time_cpu_sort(desc, data, cpu_runs, false);
    row.cpu_par_ms = time_cpu_sort(desc, data, cpu_runs, true);
  }
  for (SortAlgorithm a : algos) {
    if (!runs_at(args, a, row.n) || !fits_one_buffer(ctx, desc)) continue;
    progress("vkc bench sort: " + std::string(to_string(a)) + " n=" + std::to_string(row.n));
    desc.options.algorithm = a;
    row.gpu_ms[a] = time_algorithm(ctx, args, desc, data).median_ms;
  }
  if (!args.no_transfer) {
    progress("vkc bench sort: host to host n=" + std::to_string(row.n));
    desc.options.algorithm = SortAlgorithm::automatic;
    row.host_ms = time_host_to_host(ctx, desc, data, args.runs);
    if (devices) {
      progress("vkc bench sort: host to host on " + std::to_string(devices->size()) + " devices n=" + std::to_string(row.n));
      row.devices_host_ms = time_host_to_host(*devices, desc, data, args.runs);
      row.devices = devices->size();
      row.partition_ms = time_partition(*devices, desc, data, args.runs);
    }
    progress("vkc bench sort: copy bound n=" + std::to_string(row.n));
    row.bound_ms = copy_bound_ms(ctx, data.keys.size() + data.values.size(), args.runs);
  }
  progress("");
}

// Keys per second in G keys/s, with significant digits (a slow device's rate must not round to 0).
std::string keys_per_s(std::uint64_t n, double ms) { return ms > 0 ? bench::significant(n / ms / 1e6) : ""; }

// The printed table's rate unit: M keys/s when even the fastest rate is below 1 G keys/s.
struct RateUnit {
  const char* name;
  double per_gkeys;
};
RateUnit rate_unit(const std::vector<Row>& rows) {
  double best = 0;
  for (const Row& row : rows) {
    for (const auto& [a, ms] : row.gpu_ms) best = std::max(best, row.n / ms / 1e6);
  }
  return best > 0 && best < 1 ? RateUnit{"M keys/s", 1e3} : RateUnit{"G keys/s", 1};
}

// The key types bench/peers/torch_sort.py sorts.
bool torch_sorts(const std::string& type) {
  for (const char* t : {"u32", "i32", "f32", "u64", "i64", "f64"}) {
    if (type == t) return true;
  }
  return false;
}

// The bit range as the CSV records it and the CUB peer takes it, "BEGIN:END", the end at most the
// key's width (the default range: 0 to the width).
std::string bit_range_text(const SortDesc& desc) {
  const std::uint32_t end = std::min(desc.options.end_bit, key_bits(desc.key_type));
  return std::to_string(std::min(desc.options.begin_bit, end)) + ":" + std::to_string(end);
}

// The peers that take part, in --peer-algos order: CUB's merge sort and PyTorch have no bit range,
// and PyTorch's peer only some key types; each one left out is said once.
std::vector<std::string> peers_to_run(const BenchArgs& args, bool torch_available) {
  std::vector<std::string> out;
  for (const auto& name : args.peer_algos) {
    std::string why;
    if (name != "cub_radix" && !args.bits.empty()) why = "no bit range (--bits)";
    else if (name == "torch" && !torch_sorts(args.type)) why = "no " + args.type + " keys in torch_sort.py";
    else if (name == "torch" && !torch_available) why = "python3 cannot import torch with CUDA";
    if (why.empty()) out.push_back(name);
    else std::fprintf(stderr, "vkc bench sort: no %s peer: %s\n", name.c_str(), why.c_str());
  }
  return out;
}

// CUB's radix and merge sorts at the row's size, each in a process of its own (bench/peers),
// and PyTorch's, as `peers` names them (peers_to_run).
void measure_peers(const BenchArgs& args, const SortDesc& desc, const std::vector<std::string>& peers, Row& row) {
  for (const char* algo : {"radix", "merge"}) {
    const std::string name = std::string("cub_") + algo;
    if (std::find(peers.begin(), peers.end(), name) == peers.end()) continue;
    const std::string bits = name == "cub_radix" && !args.bits.empty() ? bit_range_text(desc) : "";
    const auto times = run_cub_peer(algo, args.type, args.values, args.order, args.dist, {row.n}, bits);
    if (!times.count(row.n)) continue;
    row.peer_ms[name] = times.at(row.n).ms;
    if (name == "cub_radix") row.cub_count_type = times.at(row.n).count_type;
  }
  if (std::find(peers.begin(), peers.end(), "torch") == peers.end()) return;
  const auto times = run_torch_peer(args.type, args.values, args.order, {row.n});
  if (!times.count(row.n)) return;
  row.peer_ms["torch_host_to_host"] = times.at(row.n).host_to_host_ms;
  row.peer_ms["torch_gpu"] = times.at(row.n).gpu_ms;
}

// The printed table (one row per n) and the CSV's (one row per measurement).
struct Tables {
  bench::Table wide, tall;
};

double peer(const Row& row, const std::string& name) { return row.peer_ms.count(name) ? row.peer_ms.at(name) : -1; }

// "1.23x" for a ratio of two present times, else "".
std::string ratio(double numerator, double denominator, int digits = 3) {
  return numerator > 0 && denominator > 0 ? bench::significant(numerator / denominator, digits) + "x" : "";
}

std::vector<std::string> wide_columns(const BenchArgs& args, const std::vector<SortAlgorithm>& algos,
                                      const RateUnit& unit) {
  std::vector<std::string> columns = {"n", "std::sort ms", "std::sort par ms"};
  for (SortAlgorithm a : algos) columns.push_back(std::string(to_string(a)) + " GPU ms");
  columns.push_back(std::string("fastest ") + unit.name);
  if (!args.no_transfer) {
    columns.insert(columns.end(), {"host to host ms", "copy bound ms", "of bound", "vs std::sort par"});
    if (!args.devices.empty()) columns.insert(columns.end(), {"on --devices ms", "vs one device", "partition ms"});
  }
  if (args.peers) {
    columns.insert(columns.end(), {"CUB radix ms", "CUB merge ms", "radix / CUB", "torch host to host ms",
                                   "torch GPU ms", "vs torch"});
  }
  return columns;
}

Tables tabulate(const BenchArgs& args, const SortDesc& desc, const std::vector<SortAlgorithm>& algos,
                const std::vector<Row>& rows) {
  const RateUnit unit = rate_unit(rows);
  bench::Table wide(wide_columns(args, algos, unit));
  bench::Table tall({"algorithm", "key_type", "value_type", "order", "dist", "n", "gpu_ms", "wall_ms", "gkeys_per_s",
                     "cub_ms", "ratio_to_cub", "host_to_host_ms", "copy_bound_ms", "torch_host_to_host_ms",
                     "verified", "begin_bit", "end_bit", "bytes_per_key", "cub_count_type"});
  const std::string kt(to_string(desc.key_type)), vt = args.values;
  // Every row records the bit range sorted by (0 to the key's width without --bits) and the bytes
  // a radix sort of it must move per key, the copy bound's divisor (BENCHMARKS.md, "Method").
  const std::string range = bit_range_text(desc);
  const std::string begin_bit = range.substr(0, range.find(':')), end_bit = range.substr(range.find(':') + 1);
  const std::string bytes_per_key = std::to_string(radix_bytes_per_key(desc));
  for (const Row& row : rows) {
    const double cub = peer(row, "cub_radix"), torch = peer(row, "torch_host_to_host");
    // Every CSV row carries its size's host-to-host time, copy bound and PyTorch time, so that
    // each GPU time sits beside what a user with host arrays meets.
    const auto add_row = [&](const std::string& name, double gpu_ms, double wall_ms) {
      const double ms = gpu_ms > 0 ? gpu_ms : wall_ms;
      tall.add_row({name, kt, vt, args.order, args.dist, std::to_string(row.n), bench::significant(gpu_ms, 6),
                    bench::significant(wall_ms, 6), keys_per_s(row.n, ms), bench::significant(cub, 6),
                    gpu_ms > 0 && cub > 0 ? bench::significant(cub / gpu_ms) : "", bench::significant(row.host_ms, 6),
                    bench::significant(row.bound_ms, 6), bench::significant(torch, 6), "yes", begin_bit, end_bit,
                    bytes_per_key, row.cub_count_type});
    };
    std::vector<std::string> cells = {std::to_string(row.n), bench::significant(row.cpu_ms),
                                      bench::significant(row.cpu_par_ms)};
    double fastest = -1;
    for (SortAlgorithm a : algos) {
      const double ms = row.gpu_ms.count(a) ? row.gpu_ms.at(a) : -1;
      cells.push_back(bench::significant(ms));
      if (ms > 0 && (fastest < 0 || ms < fastest)) fastest = ms;
      if (ms > 0) add_row(std::string(to_string(a)), ms, -1);
    }
    cells.push_back(fastest > 0 ? bench::significant(row.n / fastest / 1e6 * unit.per_gkeys) : "");
    if (!args.no_transfer) {
      cells.insert(cells.end(), {bench::significant(row.host_ms), bench::significant(row.bound_ms),
                                 row.host_ms > 0 && row.bound_ms > 0
                                     ? bench::significant(100 * row.bound_ms / row.host_ms, 3) + "%"
                                     : "",
                                 ratio(row.cpu_par_ms, row.host_ms)});
      if (!args.devices.empty()) {
        cells.insert(cells.end(), {bench::significant(row.devices_host_ms), ratio(row.host_ms, row.devices_host_ms),
                                   bench::significant(row.partition_ms)});
      }
    }
    for (const auto& [name, ms] : std::map<std::string, double>{{"std_sort", row.cpu_ms},
                                                                {"std_sort_par", row.cpu_par_ms},
                                                                {"host_to_host", row.host_ms}}) {
      if (ms > 0) add_row(name, -1, ms);
    }
    // "host_to_host_on_D_devices": --devices' sort, D the number of devices in the list.
    if (row.devices_host_ms > 0) add_row("host_to_host_on_" + std::to_string(row.devices) + "_devices", -1, row.devices_host_ms);
    // "partition_for_D_devices": the host partition those sorts begin with, alone.
    if (row.partition_ms > 0) add_row("partition_for_" + std::to_string(row.devices) + "_devices", -1, row.partition_ms);
    if (args.peers) {
      const double radix = row.gpu_ms.count(SortAlgorithm::radix) ? row.gpu_ms.at(SortAlgorithm::radix) : -1;
      cells.insert(cells.end(), {bench::significant(cub), bench::significant(peer(row, "cub_merge")),
                                 ratio(cub, radix), bench::significant(torch),
                                 bench::significant(peer(row, "torch_gpu")), ratio(torch, row.host_ms)});
      for (const char* name : {"cub_radix", "cub_merge", "torch_gpu"}) {
        if (peer(row, name) > 0) add_row(name, peer(row, name), -1);
      }
      if (torch > 0) add_row("torch_host_to_host", -1, torch);
    }
    wide.add_row(cells);
  }
  return {std::move(wide), std::move(tall)};
}

void report(const BenchArgs& args, const bench::RunInfo& info, const SortDesc& desc, const Tables& tables) {
  const std::string kt(to_string(desc.key_type)), vt = args.values;
  const std::string bits = args.bits.empty() ? "" : ", bits " + bit_range_text(desc);
  std::printf("vkc bench sort: %s keys%s, values %s, %s, %s; %s (%s), commit %s, %s\n\n", kt.c_str(), bits.c_str(),
              vt.c_str(), args.dist.c_str(), args.order.c_str(), info.device.c_str(), info.driver.c_str(),
              info.commit.c_str(), info.date.c_str());
  tables.wide.print_markdown(stdout);
  if (!args.csv.empty()) tables.tall.write_csv(args.csv, info);
  if (!args.plot.empty()) plot_keys_per_second(tables.tall, args.plot, info);
}

// "BEGIN:END" (--bits) as SortOptions::begin_bit and end_bit; END may pass the key's width.
std::pair<std::uint32_t, std::uint32_t> parse_bits(const std::string& text) {
  const auto number = [&](const std::string& part) {
    if (part.empty() || part.size() > 10 || part.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(part) > UINT32_MAX) {
      throw Error("--bits: expected BEGIN:END, two numbers up to 4294967295, got '" + text + "'");
    }
    return static_cast<std::uint32_t>(std::stoull(part));
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw Error("--bits: expected BEGIN:END, got '" + text + "'");
  const std::uint32_t begin = number(text.substr(0, colon)), end = number(text.substr(colon + 1));
  if (begin > end) throw Error("--bits: BEGIN is past END in '" + text + "'");
  return {begin, end};
}

bool wants_torch(const BenchArgs& args) {
  return std::find(args.peer_algos.begin(), args.peer_algos.end(), "torch") != args.peer_algos.end();
}

// Nonsensical ranges and unwritable outputs, refused before the device is touched.
void check(const BenchArgs& args, const Common& common) {
  if (args.max_n_given && args.max_n == 0) throw Error("--max-n must be at least 1");
  if (args.max_n_given && args.min_n > args.max_n) {
    throw Error("--min-n " + std::to_string(args.min_n) + " is larger than --max-n " + std::to_string(args.max_n));
  }
  if (args.max_n > kMaxBenchN) throw Error("--max-n " + std::to_string(args.max_n) + " is more than 2^34 keys");
  if (!args.bits.empty()) parse_bits(args.bits);
  if (!args.plot.empty() && std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    throw Error("--plot needs gnuplot (Debian: apt-get install gnuplot-nox)");
  }
  check_output_path(args.csv, common);
  check_output_path(args.plot, common);
}

void run_bench(BenchArgs args, const Common& common) {
  check(args, common);
  ContextOptions options{.device = common.device};
  options.host_transfer = {parse_host_path(args.host_path), args.host_threads, args.host_chunk_kib << 10};
  Context ctx(options);
  SortDesc desc;
  desc.key_type = parse_key_type(args.type);
  desc.value_type = parse_value_type(args.values);
  desc.options.order = args.order == "desc" ? SortOrder::descending : SortOrder::ascending;
  if (!args.bits.empty()) std::tie(desc.options.begin_bit, desc.options.end_bit) = parse_bits(args.bits);
  const std::uint64_t max_n = args.max_n_given ? args.max_n : default_max_n(ctx, desc);
  if (ctx.info().is_software() && args.transpose_max_n == kTransposeMaxN) {
    args.transpose_max_n = 1u << 20;  // the reference method takes minutes past this on a CPU
  }
  const auto algos = algorithms_to_run(args);
  const auto info = bench::run_info(ctx);
  std::unique_ptr<DeviceSet> devices;
  if (!args.devices.empty()) devices = std::make_unique<DeviceSet>(args.devices, options);
  std::vector<std::string> peers;
  if (args.peers) peers = peers_to_run(args, wants_torch(args) && torch_peer_available());
  std::vector<Row> rows;
  for (std::uint64_t n = args.min_n; n <= max_n; n *= 2) {
    rows.push_back({n});
    measure_row(ctx, devices.get(), args, desc, algos, rows.back());
    if (args.peers) measure_peers(args, desc, peers, rows.back());
    // The CSV grows a row at a time, so that a run cut short (a device call's time limit) keeps
    // the sizes it finished; each write replaces the file whole.
    if (!args.csv.empty()) tabulate(args, desc, algos, rows).tall.write_csv(args.csv, info);
  }
  report(args, info, desc, tabulate(args, desc, algos, rows));
}

// Every key type's name, from the key table: what --type takes.
std::vector<std::string> key_type_names() {
  std::vector<std::string> names;
  for (KeyType type : sorting::kKeyTypes) names.emplace_back(to_string(type));
  return names;
}

}  // namespace

void register_bench_sort(CLI::App& bench, Common& common) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = bench.add_subcommand("sort", "CPU versus GPU sorting table, every GPU algorithm, optionally CUB");
  cmd->add_option("--min-n", args->min_n, "smallest size (doubles up to --max-n)")->check(CLI::Range(std::uint64_t{1}, kMaxBenchN));
  cmd->add_option("--max-n", args->max_n, "largest size (default: what the device holds, 2^22 on lavapipe)")
      ->each([args](const std::string&) { args->max_n_given = true; })
      ->always_capture_default(false);
  cmd->add_option("--type", args->type, "key type")->check(CLI::IsMember(key_type_names()));
  cmd->add_option("--bits", args->bits,
                  "BEGIN:END: sort by bits [BEGIN, END) of the ordered key alone (SortOptions::begin_bit, end_bit; "
                  "radix only, and CUB's radix sort alone among the peers)");
  cmd->add_option("--values", args->values, "value type: none, u32, u64")->check(CLI::IsMember({"none", "u32", "u64"}));
  cmd->add_option("--dist", args->dist,
                  std::string("uniform, sorted, reverse, few, equal, or as the CUB peer draws them: ") +
                      bench::kKeyDistNames + " (entropy ladder: keys ANDed 2-5 times)")
      ->check(CLI::Validator(
          [](const std::string& name) {
            const bool own = name == "uniform" || name == "sorted" || name == "reverse" || name == "few" || name == "equal";
            return own || bench::parse_key_dist(name) ? std::string() : "unknown distribution '" + name + "'";
          },
          "DIST"));
  cmd->add_option("--order", args->order, "asc or desc")->check(CLI::IsMember({"asc", "desc"}));
  cmd->add_option("--algos", args->algorithms, "GPU algorithms to time, e.g. bitonic,radix (default: all in this build)")
      ->delimiter(',')
      ->check(CLI::IsMember({"bitonic", "bitonic_transpose", "odd_even", "radix"}));
  cmd->add_option("--odd-even-max-n", args->odd_even_max_n, "largest n for odd_even (its cost is O(n^2/B))");
  cmd->add_option("--transpose-max-n", args->transpose_max_n, "largest n for bitonic_transpose");
  cmd->add_option("--cpu-max-n", args->cpu_max_n, "largest n for the CPU sorts");
  cmd->add_option("--cpu-serial-max-n", args->cpu_serial_max_n,
                  "largest n for the one-thread std::sort (default: --cpu-max-n)");
  cmd->add_option("--runs", args->runs, "timed runs per cell (median reported)")->check(CLI::Range(10, 1000));
  cmd->add_option("--warmup", args->warmup, "untimed runs first")->check(CLI::Range(0, 100));
  cmd->add_flag("--peers", args->peers, "also run the CUB peer (built with nvcc) and compare");
  cmd->add_option("--peer-algos", args->peer_algos, "which peers --peers runs: cub_radix, cub_merge, torch")
      ->delimiter(',')
      ->check(CLI::IsMember({"cub_radix", "cub_merge", "torch"}));
  cmd->add_flag("--no-transfer", args->no_transfer, "skip the host-to-host and copy-bound columns");
  cmd->add_option("--host-path", args->host_path, "how host arrays travel: auto, staged, imported")
      ->check(CLI::IsMember({"auto", "staged", "imported"}));
  cmd->add_option("--devices", args->devices,
                  "also time the host-to-host sort split across these devices (all, or a list such as 0,1; a device "
                  "may repeat), beside one device's")
      ->type_name("LIST");
  cmd->add_option("--host-threads", args->host_threads, "threads that fill and drain staging (0: automatic)");
  cmd->add_option("--host-chunk-kib", args->host_chunk_kib, "staging buffer size in KiB (0: automatic)");
  cmd->add_option("--csv", args->csv, "write every measurement as CSV");
  cmd->add_option("--plot", args->plot, "write a PNG plot of keys/s against n (needs gnuplot)");
  cmd->callback([args, &common] { run_bench(*args, common); });
}

}  // namespace vkc::cli
