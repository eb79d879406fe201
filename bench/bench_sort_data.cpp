// Inputs, CPU baselines, verification and plots of `vkc bench sort`. The transfer copy bound
// reads raw device state by design; bench_internals.hpp is its one door to library internals.
#include "bench_sort_data.hpp"

#include <algorithm>
#include <bit>
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
#include <type_traits>
#include <iterator>

#include <unistd.h>

#include "bench_internals.hpp"
#include "io/atomic_file.hpp"
#include "key_distributions.hpp"

namespace vkc::cli {
namespace {

// 16-bit floats as the float of the same value (every binary16 and bfloat16 value is one), so that
// the reference compares them as numbers, apart from the key table's bit maps.
float widen(Float16 h) {
  const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
  const std::uint32_t exponent = (h.bits >> 10) & 0x1Fu, mantissa = h.bits & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24, exact in a float
    const float magnitude = float(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  const std::uint32_t float_exponent = exponent == 0x1F ? 0xFFu : exponent + (127 - 15);  // inf and NaN stay so
  return std::bit_cast<float>(sign | (float_exponent << 23) | (mantissa << 13));
}
float widen(BFloat16 b) { return std::bit_cast<float>(std::uint32_t(b.bits) << 16); }
template <class K>
K widen(K key) {
  return key;
}

template <class K>
constexpr bool kIsFloat16 = std::is_same_v<K, Float16> || std::is_same_v<K, BFloat16>;

// The order contract, written plainly: NaN last in both orders, -0 before +0 ascending.
template <class K>
bool contract_less(K key_a, K key_b, bool descending) {
  const auto a = widen(key_a), b = widen(key_b);
  if constexpr (std::is_floating_point_v<decltype(a)>) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    if (a == b) return descending ? (!std::signbit(a) && std::signbit(b)) : (std::signbit(a) && !std::signbit(b));
  }
  return descending ? b < a : a < b;
}

// A 16-bit float's exponent field (all ones: infinities and NaNs), from the key table.
template <class K>
constexpr std::uint16_t kExponent16 =
    std::uint16_t(sorting::with_key_type(key_type_of<K>(), [](auto row) { return std::uint64_t(row.exponent); }));

template <class K>
K draw(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<K>) {
    return static_cast<K>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  } else if constexpr (kIsFloat16<K>) {
    // Every finite bit pattern equally likely (both zeros and the subnormals among them): [-1e6,
    // 1e6] is past binary16's range, and uniform bits spread every digit as the integers' do. The
    // CUB peer draws its __half and __nv_bfloat16 keys the same way.
    std::uint16_t bits;
    do bits = static_cast<std::uint16_t>(rng());
    while ((bits & kExponent16<K>) == kExponent16<K>);
    return K{bits};
  } else {
    return static_cast<K>(rng());
  }
}

// The key type's facts as the shared distributions (key_distributions.hpp) take them, from the key table.
template <class K>
bench::KeyFormat key_format() {
  return {unsigned(sizeof(K)),
          sorting::with_key_type(key_type_of<K>(), [](auto row) { return std::uint64_t(row.exponent); })};
}

// Keys of a distribution the CUB peer draws too, from the seed it takes (its --seed).
template <class K>
std::vector<K> draw_shared_keys(const bench::KeyDist& dist, std::uint64_t n, std::uint64_t seed) {
  const bench::KeyFormat format = key_format<K>();
  std::vector<K> keys(n);
  std::uint64_t state = seed;
  for (auto& k : keys) {
    const std::uint64_t bits = bench::draw_key_bits(dist, format, state);
    std::memcpy(&k, &bits, sizeof(K));  // the low bytes: little-endian hosts only, as every file format here
  }
  return keys;
}

template <class K>
std::vector<K> draw_keys(const std::string& dist, std::uint64_t n, bool descending) {
  if (const auto shared = bench::parse_key_dist(dist)) {
    const std::string refusal = bench::key_dist_refusal(*shared, key_format<K>());
    if (!refusal.empty()) throw Error("--dist " + dist + ": " + refusal);
    return draw_shared_keys<K>(*shared, n, kSharedDistSeed);
  }
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

// Whether the options sort by a bit range narrower than the key (SortOptions::begin_bit, end_bit).
bool cuts_bits(const SortDesc& desc) {
  const std::uint32_t width = key_bits(desc.key_type);
  return sorting::bit_range_mask(desc.options.begin_bit, desc.options.end_bit, width) !=
         sorting::bit_range_mask(0, width, width);
}

// The key table's ordered image of K's keys cut to desc's bit range (key_bits.hpp).
template <class K>
auto range_bits(const SortDesc& desc) {
  using Bits = sorting::KeyBits<sorting::UnsignedOf<sizeof(K)>>;
  return sorting::with_key_bits(desc.key_type, desc.options, [](auto bits) -> Bits {
    if constexpr (std::is_same_v<decltype(bits), Bits>) return bits;
    else throw Error("the key type is not " + std::to_string(sizeof(K)) + " bytes wide");
  });
}

// Sorts as the contract orders, or, with a bit range, stably by the range-cut ranks: keys equal
// under the range keep their input order, as the radix sort (the one algorithm that takes a
// range) keeps them.
template <class K>
void sort_keys(std::vector<K>& keys, const SortDesc& desc, bool parallel) {
  const bool descending = desc.options.order == SortOrder::descending;
  if (!cuts_bits(desc)) {
    auto less = [descending](K a, K b) { return contract_less(a, b, descending); };
    if (parallel) std::sort(std::execution::par, keys.begin(), keys.end(), less);
    else std::sort(keys.begin(), keys.end(), less);
    return;
  }
  const auto bits = range_bits<K>(desc);
  auto rank = [&](K key) {
    return bits.rank(bits.canonical(std::bit_cast<sorting::UnsignedOf<sizeof(K)>>(key)), descending);
  };
  auto before = [&](K a, K b) { return rank(a) < rank(b); };
  if (parallel) std::stable_sort(std::execution::par, keys.begin(), keys.end(), before);
  else std::stable_sort(keys.begin(), keys.end(), before);
}

// f(K{}) with the C++ type of the key type's row of the key table.
template <class F>
auto with_key_type(KeyType type, F&& f) {
  return sorting::with_key_type(type, [&](auto row) { return f(typename decltype(row)::type{}); });
}

std::uint64_t value_at(const std::vector<std::byte>& values, std::size_t i, std::size_t width) {
  std::uint64_t v = 0;
  std::memcpy(&v, values.data() + i * width, width);
  return v;
}

}  // namespace

KeyType parse_key_type(const std::string& name) {
  for (KeyType t : sorting::kKeyTypes) {
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
      sort_keys(keys, desc, true);
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
// order (by the options' bit range, where they have one), and the same multiset of keys (or of
// pairs) as the input.
void verify_by_fingerprints(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& keys,
                            const std::vector<std::byte>& values, const std::string& what) {
  const std::uint64_t count = keys.size() / key_bytes(desc.key_type);
  if (const auto at = sorting::check_sorted(desc.key_type, desc.options, keys.data(), count)) {
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

// Values are the input's indices: with a stable sort, among keys equal by the order (the bit
// range's, where there is one) they must rise. Checks the order too.
void verify_stable_pairs(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& values,
                         const std::string& what) {
  const std::size_t width = value_bytes(desc.value_type);
  const std::uint64_t count = desc.max_count;
  if (values.size() != count * width) {
    throw Error("verification failed: " + std::to_string(values.size()) + " bytes of values (" + what + ")");
  }
  if (sorting::check_permutation(values.data(), width, count)) {
    throw Error("verification failed: the values are not a permutation of the indices (" + what + ")");
  }
  if (const auto at = sorting::check_argsorted(desc.key_type, desc.options, data.keys.data(), values.data(), width,
                                               count, /*stable=*/true)) {
    throw Error("verification failed: pairs out of order or equal keys reordered at " + std::to_string(*at) + " (" +
                what + ")");
  }
}

// Whether the algorithm promises a stable order: the radix sort, the one that takes a bit range.
bool sorts_stably(const SortDesc& desc) { return desc.options.algorithm == SortAlgorithm::radix || cuts_bits(desc); }

}  // namespace

void verify_sorted(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& keys,
                   const std::vector<std::byte>& values) {
  const std::string what = std::string(to_string(desc.options.algorithm)) + " at n=" + std::to_string(desc.max_count);
  const std::size_t width = value_bytes(desc.value_type), kb = key_bytes(desc.key_type);
  if (width && sorts_stably(desc)) verify_stable_pairs(desc, data, values, what);
  if (!has_reference(data)) return verify_by_fingerprints(desc, data, keys, values, what);
  if (keys != data.reference) throw Error("verification failed: keys out of order (" + what + ")");
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
  return with_key_type(desc.key_type, [&](auto k) {
    using K = decltype(k);
    const auto input = typed<K>(data.keys);
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      auto copy = input;
      const auto start = std::chrono::steady_clock::now();
      sort_keys(copy, desc, parallel);
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

std::uint64_t radix_bytes_per_key(const SortDesc& desc) {
  const std::uint64_t k = key_bytes(desc.key_type), v = value_bytes(desc.value_type);
  const std::uint32_t width = key_bits(desc.key_type);
  const std::uint64_t range = sorting::bit_range_mask(desc.options.begin_bit, desc.options.end_bit, width);
  std::uint64_t passes = 0;  // the aligned 8-bit digits the range overlaps, as the radix sort passes over them
  for (std::uint32_t digit = 0; digit < width; digit += 8) passes += ((range >> digit) & 0xFFu) != 0;
  return passes * 2 * (k + v) + k;
}

template <class Devices>
double time_host_to_host(Devices& ctx, const SortDesc& desc, const SortData& data, int runs) {
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
template double time_host_to_host(Context&, const SortDesc&, const SortData&, int);
template double time_host_to_host(DeviceSet&, const SortDesc&, const SortData&, int);

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
