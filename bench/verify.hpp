// Verification of sort outputs too large to check against a CPU sort of the same size: the order
// contract of include/vkc/sort.hpp checked element by element, an order-independent digest of the
// multiset of keys (or of (key, value) pairs) to compare input and output, and checks of argsort
// permutations. Every check runs over contiguous chunks on several threads (std::thread).
// Benchmark code (vkc bench sort and tests/sort/verify_test.cpp use it), not part of the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "vkc/sort.hpp"

namespace vkc::sorting {

/// How a check splits its work: up to `threads` threads (0: hardware_concurrency, at most 64),
/// each given at least `min_chunk` elements, so that small arrays stay on the calling thread.
/// Tests lower both to cross chunk boundaries with small arrays.
struct VerifyParallelism {
  unsigned threads = 0;
  std::uint64_t min_chunk = std::uint64_t{1} << 16;
};

/// An order-independent digest of a multiset: the element count and two wrapping sums of two
/// independent 64-bit mixes of each element. Equal multisets give equal fingerprints; a change
/// goes unnoticed with a probability of about 2^-128.
struct Fingerprint {
  std::uint64_t count = 0;
  std::uint64_t sum_a = 0;
  std::uint64_t sum_b = 0;
  bool operator==(const Fingerprint&) const = default;
};

/// The fingerprint of `count` keys, or with `value_type` other than none of the (key, value)
/// pairs: key and value are mixed together, so a value moved to another key changes it. A NaN key
/// counts without its sign bit, as the sort returns it, so the input's and the sorted output's
/// fingerprints agree.
Fingerprint fingerprint(KeyType key_type, const void* keys, ValueType value_type, const void* values,
                        std::uint64_t count, const VerifyParallelism& parallelism = {});

/// The first index i whose key breaks the order contract, that is, orders before key i - 1
/// (integers by value; floats with -0.0 before +0.0 ascending and after it descending, NaNs last
/// in both orders and among themselves ascending by their bits), or is a NaN with its sign bit
/// set, which the sort never returns; nullopt when the keys are in the contract's order.
std::optional<std::uint64_t> check_sorted(KeyType key_type, SortOrder order, const void* keys, std::uint64_t count,
                                          const VerifyParallelism& parallelism = {});
/// check_sorted in the order of a radix sort by a bit range: keys compared by the bits
/// [options.begin_bit, options.end_bit) of their ordered image (SortOptions) alone, in
/// options.order; with the default range, the same as the overload above.
std::optional<std::uint64_t> check_sorted(KeyType key_type, const SortOptions& options, const void* keys,
                                          std::uint64_t count, const VerifyParallelism& parallelism = {});

/// The first index i at which `indices` (`index_bytes` 4 or 8 bytes each) stops being a
/// permutation of 0 .. count - 1: an index out of range, or one seen before (the later of the two
/// occurrences when one thread holds both, otherwise the occurrence that was marked second);
/// nullopt when it is a permutation.
std::optional<std::uint64_t> check_permutation(const void* indices, std::size_t index_bytes, std::uint64_t count,
                                               const VerifyParallelism& parallelism = {});

/// The first position i of an argsort result at which keys[indices[i]] orders before
/// keys[indices[i - 1]] by the contract (input keys: a NaN orders by its bits without the sign),
/// or, with `stable`, is equal to it while indices[i] < indices[i - 1]; nullopt when the keys in
/// the permutation's order are sorted (and stable). Checks the order only: call
/// check_permutation first, as an index out of range is read.
std::optional<std::uint64_t> check_argsorted(KeyType key_type, SortOrder order, const void* keys, const void* indices,
                                             std::size_t index_bytes, std::uint64_t count, bool stable,
                                             const VerifyParallelism& parallelism = {});
/// check_argsorted with keys compared by the bits of options' range of their ordered image alone
/// (SortOptions::begin_bit, end_bit), in options.order: with `stable`, keys equal under the range
/// must keep their input order.
std::optional<std::uint64_t> check_argsorted(KeyType key_type, const SortOptions& options, const void* keys,
                                             const void* indices, std::size_t index_bytes, std::uint64_t count,
                                             bool stable, const VerifyParallelism& parallelism = {});

}  // namespace vkc::sorting
