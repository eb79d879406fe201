#include "verify.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "sort/key_bits.hpp"

namespace vkc::sorting {
namespace {

// ---- Splitting the work -------------------------------------------------------------------

unsigned chunk_count(std::uint64_t count, const VerifyParallelism& parallelism) {
  const unsigned hardware = std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
  const unsigned threads = parallelism.threads ? parallelism.threads : hardware;
  const std::uint64_t by_size = count / std::max<std::uint64_t>(parallelism.min_chunk, 1);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(by_size, 1, threads));
}

// Calls chunk(c, begin, end) for contiguous ranges covering [0, count), one thread each, the last
// on the calling thread; returns when all are done.
template <class F>
void for_each_chunk(unsigned chunks, std::uint64_t count, F&& chunk) {
  auto bounds = [&](unsigned c) { return count / chunks * c + std::min<std::uint64_t>(c, count % chunks); };
  std::vector<std::jthread> threads;
  threads.reserve(chunks - 1);
  for (unsigned c = 0; c + 1 < chunks; ++c) threads.emplace_back([&, c] { chunk(c, bounds(c), bounds(c + 1)); });
  chunk(chunks - 1, bounds(chunks - 1), count);
}

// The smallest position any chunk reports, each chunk reporting its first.
template <class F>
std::optional<std::uint64_t> first_position(std::uint64_t count, const VerifyParallelism& parallelism, F&& find) {
  const unsigned chunks = chunk_count(count, parallelism);
  std::vector<std::optional<std::uint64_t>> found(chunks);
  auto search = [&](unsigned c, std::uint64_t begin, std::uint64_t end) { found[c] = find(begin, end); };
  for_each_chunk(chunks, count, search);
  for (const auto& f : found) {
    if (f) return f;  // chunks are in index order
  }
  return std::nullopt;
}

std::uint64_t load_index(const void* indices, std::size_t index_bytes, std::uint64_t i) {
  if (index_bytes == 4) return KeyBits<std::uint32_t>::load(indices, i);
  return KeyBits<std::uint64_t>::load(indices, i);
}

void check_index_bytes(std::size_t index_bytes) {
  if (index_bytes != 4 && index_bytes != 8) throw Error("indices are 4 or 8 bytes, not " + std::to_string(index_bytes));
}

// ---- Mixing -------------------------------------------------------------------------------

// SplitMix64's finalizer.
std::uint64_t mix_a(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// MurmurHash3's fmix64.
std::uint64_t mix_b(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

// The value goes through a mix before it meets the key, so each element's contribution depends on
// key and value together (not on each alone, which would let values trade places between keys).
void add_element(Fingerprint& f, std::uint64_t key, std::uint64_t value) {
  f.sum_a += mix_a(key ^ mix_a(value ^ 0x243F6A8885A308D3ull));
  f.sum_b += mix_b(key + mix_b(value ^ 0x13198A2E03707344ull) + 0xA4093822299F31D0ull);
}

}  // namespace

Fingerprint fingerprint(KeyType key_type, const void* keys, ValueType value_type, const void* values,
                        std::uint64_t count, const VerifyParallelism& parallelism) {
  const std::size_t value_width = value_bytes(value_type);
  const unsigned chunks = chunk_count(count, parallelism);
  std::vector<Fingerprint> parts(chunks);
  with_key_bits(key_type, [&](auto bits) {
    for_each_chunk(chunks, count, [&](unsigned c, std::uint64_t begin, std::uint64_t end) {
      Fingerprint part{end - begin};
      for (std::uint64_t i = begin; i < end; ++i) {
        std::uint64_t value = 0;
        if (value_width) value = load_index(values, value_width, i);
        add_element(part, bits.canonical(bits.load(keys, i)), value);
      }
      parts[c] = part;
    });
    return 0;
  });
  Fingerprint total;
  for (const auto& part : parts) {
    total.count += part.count;
    total.sum_a += part.sum_a;
    total.sum_b += part.sum_b;
  }
  return total;
}

namespace {

// The options of a sort in `order` by every bit of the key.
SortOptions in_order(SortOrder order) {
  SortOptions options;
  options.order = order;
  return options;
}

}  // namespace

std::optional<std::uint64_t> check_sorted(KeyType key_type, SortOrder order, const void* keys, std::uint64_t count,
                                          const VerifyParallelism& parallelism) {
  return check_sorted(key_type, in_order(order), keys, count, parallelism);
}

std::optional<std::uint64_t> check_sorted(KeyType key_type, const SortOptions& options, const void* keys,
                                          std::uint64_t count, const VerifyParallelism& parallelism) {
  const bool descending = options.order == SortOrder::descending;
  return with_key_bits(key_type, options, [&](auto bits) {
    auto rank_at = [&](std::uint64_t i) { return bits.rank(bits.canonical(bits.load(keys, i)), descending); };
    auto first_break = [&](std::uint64_t begin, std::uint64_t end) -> std::optional<std::uint64_t> {
      for (std::uint64_t i = begin; i < end; ++i) {
        const auto key = bits.load(keys, i);
        if (key != bits.canonical(key)) return i;
        if (i > 0 && rank_at(i) < rank_at(i - 1)) return i;
      }
      return std::nullopt;
    };
    return first_position(count, parallelism, first_break);
  });
}

std::optional<std::uint64_t> check_permutation(const void* indices, std::size_t index_bytes, std::uint64_t count,
                                               const VerifyParallelism& parallelism) {
  check_index_bytes(index_bytes);
  const auto seen = std::make_unique<std::atomic<std::uint64_t>[]>((count + 63) / 64);
  auto first_break = [&](std::uint64_t begin, std::uint64_t end) -> std::optional<std::uint64_t> {
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::uint64_t index = load_index(indices, index_bytes, i);
      if (index >= count) return i;
      const std::uint64_t bit = std::uint64_t{1} << (index % 64);
      if (seen[index / 64].fetch_or(bit, std::memory_order_relaxed) & bit) return i;
    }
    return std::nullopt;
  };
  return first_position(count, parallelism, first_break);
}

std::optional<std::uint64_t> check_argsorted(KeyType key_type, SortOrder order, const void* keys, const void* indices,
                                             std::size_t index_bytes, std::uint64_t count, bool stable,
                                             const VerifyParallelism& parallelism) {
  return check_argsorted(key_type, in_order(order), keys, indices, index_bytes, count, stable, parallelism);
}

std::optional<std::uint64_t> check_argsorted(KeyType key_type, const SortOptions& options, const void* keys,
                                             const void* indices, std::size_t index_bytes, std::uint64_t count,
                                             bool stable, const VerifyParallelism& parallelism) {
  check_index_bytes(index_bytes);
  const bool descending = options.order == SortOrder::descending;
  return with_key_bits(key_type, options, [&](auto bits) {
    auto rank_at = [&](std::uint64_t index) { return bits.rank(bits.canonical(bits.load(keys, index)), descending); };
    auto first_break = [&](std::uint64_t begin, std::uint64_t end) -> std::optional<std::uint64_t> {
      for (std::uint64_t i = std::max<std::uint64_t>(begin, 1); i < end; ++i) {
        const std::uint64_t previous = load_index(indices, index_bytes, i - 1);
        const std::uint64_t index = load_index(indices, index_bytes, i);
        const auto before = rank_at(previous), here = rank_at(index);
        if (here < before || (stable && here == before && index <= previous)) return i;
      }
      return std::nullopt;
    };
    return first_position(count, parallelism, first_break);
  });
}

}  // namespace vkc::sorting
