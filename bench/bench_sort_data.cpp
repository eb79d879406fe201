// Inputs, CPU baselines, verification and plots of `vkc bench sort`. The transfer copy bound
// reads raw device state by design; bench_internals.hpp is its one door to library internals.
#include "bench_sort_data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execution>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <iterator>

#include <unistd.h>

#include "bench_internals.hpp"
#include "io/atomic_file.hpp"

namespace vkc::cli {
namespace {

// The order contract, written plainly: NaN last in both orders, -0 before +0 ascending.
template <class K>
bool contract_less(K a, K b, bool descending) {
  if constexpr (std::is_floating_point_v<K>) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    if (a == b) return descending ? (!std::signbit(a) && std::signbit(b)) : (std::signbit(a) && !std::signbit(b));
  }
  return descending ? b < a : a < b;
}

template <class K>
K draw(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<K>) return static_cast<K>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  else return static_cast<K>(rng());
}

template <class K>
std::vector<K> draw_keys(const std::string& dist, std::uint64_t n, bool descending) {
  std::mt19937_64 rng(0x5EED0000 + n);
  std::vector<K> keys(n);
  const K few[] = {draw<K>(rng), draw<K>(rng), draw<K>(rng), draw<K>(rng), draw<K>(rng), draw<K>(rng)};
  for (auto& k : keys) k = dist == "few" ? few[rng() % 6] : dist == "equal" ? few[0] : draw<K>(rng);
  auto asc = [](K a, K b) { return contract_less(a, b, false); };
  if (dist == "sorted") std::sort(std::execution::par, keys.begin(), keys.end(), asc);
  if (dist == "reverse") std::sort(std::execution::par, keys.rbegin(), keys.rend(), asc);
  (void)descending;
  return keys;
}

template <class K>
std::vector<std::byte> bytes_of(const std::vector<K>& v) {
  std::vector<std::byte> out(v.size() * sizeof(K));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

template <class K>
std::vector<K> typed(const std::vector<std::byte>& bytes) {
  std::vector<K> out(bytes.size() / sizeof(K));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

template <class K>
void sort_keys(std::vector<K>& keys, bool descending, bool parallel) {
  auto less = [descending](K a, K b) { return contract_less(a, b, descending); };
  if (parallel) std::sort(std::execution::par, keys.begin(), keys.end(), less);
  else std::sort(keys.begin(), keys.end(), less);
}

template <class F>
auto with_key_type(KeyType type, F&& f) {
  switch (type) {
    case KeyType::u32: return f(std::uint32_t{});
    case KeyType::i32: return f(std::int32_t{});
    case KeyType::f32: return f(float{});
    case KeyType::u64: return f(std::uint64_t{});
    case KeyType::i64: return f(std::int64_t{});
    case KeyType::f64: return f(double{});
  }
  throw Error("unknown key type");
}

std::uint64_t value_at(const std::vector<std::byte>& values, std::size_t i, std::size_t width) {
  std::uint64_t v = 0;
  std::memcpy(&v, values.data() + i * width, width);
  return v;
}

}  // namespace

KeyType parse_key_type(const std::string& name) {
  for (KeyType t : {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64}) {
    if (to_string(t) == name) return t;
  }
  throw Error("unknown key type '" + name + "'");
}

ValueType parse_value_type(const std::string& name) {
  if (name == "none") return ValueType::none;
  if (name == "u32") return ValueType::u32;
  if (name == "u64") return ValueType::u64;
  throw Error("unknown value type '" + name + "'");
}

SortData make_sort_data(const SortDesc& desc, const std::string& dist, std::uint64_t n) {
  const bool descending = desc.options.order == SortOrder::descending;
  SortData data;
  with_key_type(desc.key_type, [&](auto k) {
    using K = decltype(k);
    auto keys = draw_keys<K>(dist, n, descending);
    data.keys = bytes_of(keys);
    if (n <= kReferenceMaxCount) {
      sort_keys(keys, descending, true);
      data.reference = bytes_of(keys);
    }
    return 0;
  });
  const std::size_t width = value_bytes(desc.value_type);
  data.values.resize(n * width);
  for (std::uint64_t i = 0; i < n && width; ++i) std::memcpy(data.values.data() + i * width, &i, width);
  if (n > kReferenceMaxCount) {
    data.keys_fingerprint = sorting::fingerprint(desc.key_type, data.keys.data(), ValueType::none, nullptr, n);
    if (width) {
      data.pairs_fingerprint =
          sorting::fingerprint(desc.key_type, data.keys.data(), desc.value_type, data.values.data(), n);
    }
  }
  return data;
}

namespace {

// Whether make_sort_data sorted the keys on the CPU (up to kReferenceMaxCount) or fingerprinted them.
bool has_reference(const SortData& data) { return data.keys_fingerprint.count == 0; }

// verify_sorted past kReferenceMaxCount, with no sort on the CPU: the keys in the contract's
// order, and the same multiset of keys (or of pairs) as the input.
void verify_by_fingerprints(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& keys,
                            const std::vector<std::byte>& values, const std::string& what) {
  const std::uint64_t count = keys.size() / key_bytes(desc.key_type);
  if (const auto at = sorting::check_sorted(desc.key_type, desc.options.order, keys.data(), count)) {
    throw Error("verification failed: keys out of order at " + std::to_string(*at) + " (" + what + ")");
  }
  const bool pairs = desc.value_type != ValueType::none;
  if (pairs && values.size() != count * value_bytes(desc.value_type)) {
    throw Error("verification failed: keys and values differ in length (" + what + ")");
  }
  const auto expected = pairs ? data.pairs_fingerprint : data.keys_fingerprint;
  if (sorting::fingerprint(desc.key_type, keys.data(), desc.value_type, values.data(), count) != expected) {
    throw Error(pairs ? "verification failed: the (key, value) pairs are not the input's (" + what + ")"
                      : "verification failed: the keys are not the input's (" + what + ")");
  }
}

}  // namespace

void verify_sorted(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& keys,
                   const std::vector<std::byte>& values) {
  const std::string what = std::string(to_string(desc.options.algorithm)) + " at n=" + std::to_string(desc.max_count);
  if (!has_reference(data)) return verify_by_fingerprints(desc, data, keys, values, what);
  if (keys != data.reference) throw Error("verification failed: keys out of order (" + what + ")");
  const std::size_t width = value_bytes(desc.value_type), kb = key_bytes(desc.key_type);
  if (!width) return;
  std::vector<bool> seen(desc.max_count);
  for (std::size_t i = 0; i < desc.max_count; ++i) {
    const std::uint64_t v = value_at(values, i, width);
    if (v >= desc.max_count || seen[v] || std::memcmp(keys.data() + i * kb, data.keys.data() + v * kb, kb) != 0) {
      throw Error("verification failed: a value left its key (" + what + ")");
    }
    seen[v] = true;
  }
}

double time_cpu_sort(const SortDesc& desc, const SortData& data, int runs, bool parallel) {
  const bool descending = desc.options.order == SortOrder::descending;
  return with_key_type(desc.key_type, [&](auto k) {
    using K = decltype(k);
    const auto input = typed<K>(data.keys);
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      auto copy = input;
      const auto start = std::chrono::steady_clock::now();
      sort_keys(copy, descending, parallel);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (!has_reference(data)) {
        SortDesc keys_only = desc;
        keys_only.value_type = ValueType::none;
        verify_by_fingerprints(keys_only, data, bytes_of(copy), {}, "std::sort at n=" + std::to_string(desc.max_count));
      } else if (bytes_of(copy) != data.reference) {
        throw Error("std::sort disagrees with the reference");
      }
    }
    return bench::summarize(ms).median_ms;
  });
}

double time_host_to_host(Context& ctx, const SortDesc& desc, const SortData& data, int runs) {
  std::vector<std::byte> keys, values;
  std::vector<double> ms;
  for (int run = -2; run < runs; ++run) {  // two warm-up calls: buffers and staging are kept
    keys = data.keys;  // a fresh input, copied outside the timed region
    values = data.values;
    const auto start = std::chrono::steady_clock::now();
    if (desc.value_type == ValueType::none) {
      sort(ctx, desc.key_type, keys.data(), desc.max_count, desc.options);
    } else {
      sort_pairs(ctx, desc.key_type, keys.data(), desc.value_type, values.data(), desc.max_count, desc.options);
    }
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (run >= 0) ms.push_back(took.count());
  }
  verify_sorted(desc, data, keys, values);
  return bench::summarize(ms).median_ms;
}

namespace {

// A pinned, host-visible buffer, as the staging of a transfer uses.
struct PinnedBuffer {
  PinnedBuffer(const detail::Device& s, std::uint64_t bytes) : device(s.device) {
    detail::allocate_buffer(s, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                            VK_MEMORY_PROPERTY_HOST_CACHED_BIT, false, buffer, memory);
  }
  ~PinnedBuffer() {
    vk::vkDestroyBuffer(device, buffer, nullptr);
    vk::vkFreeMemory(device, memory, nullptr);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  VkDevice device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

}  // namespace

double copy_bound_ms(Context& ctx, std::uint64_t bytes, int runs) {
  // Past 1 GiB, the same buffers copied again for each further GiB: a buffer's size is capped
  // (maxStorageBufferRange, maxMemoryAllocationSize), the copy engines' rate is not.
  const std::uint64_t piece = std::min<std::uint64_t>(bytes, std::uint64_t{1} << 30);
  const PinnedBuffer host(detail::compute_device(ctx).device, piece);
  const Buffer device = ctx.create_buffer(piece);
  double total = 0;
  for (const bool up : {true, false}) {
    const VkBuffer src = up ? host.buffer : device.handle(), dst = up ? device.handle() : host.buffer;
    total += bench::time_gpu(ctx, 2, runs, nullptr, [&](Recorder& r) {
               for (std::uint64_t at = 0; at < bytes; at += piece) r.copy_buffer(src, dst, {0, 0, std::min(piece, bytes - at)});
             }).median_ms;
  }
  return total;
}

namespace {

// A string as a gnuplot single-quoted literal ('' stands for ').
std::string gp_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The series of a CSV table (algorithm -> (n, G keys/s)), GPU sorts first, then the CPU and
// transfer baselines.
std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> series_of(const bench::Table& tall) {
  std::map<std::string, std::vector<std::pair<double, double>>> by_name;
  for (const auto& row : tall.rows()) {
    if (!row[8].empty()) by_name[row[0]].emplace_back(std::stod(row[5]), std::stod(row[8]));  // n, gkeys_per_s
  }
  std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> out;
  for (bool baseline : {false, true}) {
    for (auto& [name, points] : by_name) {
      const bool is_baseline = name.starts_with("std_sort") || name.ends_with("host_to_host");
      if (is_baseline == baseline) out.emplace_back(name, points);
    }
  }
  return out;
}

}  // namespace

void plot_keys_per_second(const bench::Table& tall, const std::string& png, const bench::RunInfo& info) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    throw Error("--plot needs gnuplot (Debian: apt-get install gnuplot-nox)");
  }
  const auto series = series_of(tall);
  double best = 0;
  for (const auto& [name, points] : series) {
    for (const auto& [n, rate] : points) best = std::max(best, rate);
  }
  // M keys/s when every rate is below 1 G keys/s (lavapipe), so the axis reads 10, 100, ...
  const double scale = best < 1 ? 1e3 : 1;
  const std::string unit = best < 1 ? "M keys/s" : "G keys/s";
  const auto dir = std::filesystem::temp_directory_path() / ("vkc-plot-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream script(dir / "plot.gp");
  // Text is literal (noenhanced): algorithm and device names hold underscores. Only the x tick
  // labels use enhanced text, for the exponent of 2^k.
  script << "set terminal pngcairo size 1200,720 font 'sans,11'\n"
         << "set output " << gp_quote((dir / "plot.png").string()) << "\n"
         << "set title " << gp_quote("vkc bench sort on " + info.device + " (" + info.commit + ", " + info.date + ")")
         << " noenhanced\n"
         << "set logscale x 2\nset format x '2^{%L}'\nset xlabel 'n (keys)' noenhanced\n"
         << "set logscale y 10\nset format y '%g'\nset ylabel " << gp_quote("throughput (" + unit + ")")
         << " noenhanced\nunset y2label\nset grid xtics ytics mytics\n"
         << "set key outside right top vertical noenhanced box\nset offsets graph 0.02, graph 0.02, 0, 0\nplot ";
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& [name, points] = series[i];
    std::ofstream data(dir / (std::to_string(i) + ".dat"));
    data.precision(9);
    for (const auto& [n, rate] : points) data << n << " " << rate * scale << "\n";
    script << (i ? ", " : "") << gp_quote((dir / (std::to_string(i) + ".dat")).string())
           << " using 1:2 with linespoints linewidth 2 pointsize 1.2 title " << gp_quote(name) << " noenhanced";
  }
  script << "\n";
  script.close();
  const int rc = std::system(("gnuplot " + (dir / "plot.gp").string() + " 2>/dev/null").c_str());
  std::ifstream in(dir / "plot.png", std::ios::binary);
  const std::string image{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::filesystem::remove_all(dir);
  if (rc != 0 || image.empty()) throw Error("gnuplot failed to draw " + png);
  io::AtomicFile file(png);
  file.write(std::as_bytes(std::span(image.data(), image.size())));
  file.commit();
}

}  // namespace vkc::cli
