// The public sorting API: argument checks and the hand-off to the host path or the recording spine.
#include "vkc/sort.hpp"

#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "sort/host_sort.hpp"
#include "sort/key_types.hpp"
#include "sort/planner.hpp"
#include "sort/workspace.hpp"

namespace vkc {

std::string_view to_string(SortAlgorithm algorithm) {
  switch (algorithm) {
    case SortAlgorithm::automatic: return "auto";
    case SortAlgorithm::bitonic: return "bitonic";
    case SortAlgorithm::bitonic_transpose: return "bitonic_transpose";
    case SortAlgorithm::odd_even: return "odd_even";
    case SortAlgorithm::radix: return "radix";
  }
  return "?";
}

std::string_view to_string(KeyType type) {
  return sorting::with_key_type(type, [](auto row) { return row.name; });
}

SortAlgorithm parse_algorithm(std::string_view name) {
  for (SortAlgorithm a : {SortAlgorithm::automatic, SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose,
                          SortAlgorithm::odd_even, SortAlgorithm::radix}) {
    if (name == to_string(a)) return a;
  }
  throw Error("unknown sort algorithm '" + std::string(name) +
              "' (expected auto, bitonic, bitonic_transpose, odd_even or radix)");
}

std::size_t key_bytes(KeyType type) {
  return sorting::with_key_type(type, [](auto row) { return row.bytes; });
}

std::uint32_t key_bits(KeyType type) {
  return sorting::with_key_type(type, [](auto row) { return row.width; });
}

std::size_t value_bytes(ValueType type) { return sorting::value_words(type) * 4; }

std::uint64_t sort_temporary_bytes(Context& ctx, const SortDesc& desc) {
  sorting::check_recordable_count(desc.max_count);
  return sorting::device_bytes(ctx.info(), desc).temporary;
}

Sorter& sorter(Context& ctx) { return sorting::workspace(ctx).sorter(); }

void record_sort(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, std::uint64_t count,
                 const SortBuffers& buffers) {
  sorter(ctx).record_sort(commands, desc, count, buffers);
}

void record_sort_indirect(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, BufferRange count,
                          const SortBuffers& buffers) {
  sorter(ctx).record_sort_indirect(commands, desc, count, buffers);
}

void sort(Context& ctx, KeyType type, void* keys, std::uint64_t count, const SortOptions& options) {
  sorting::sort_host(ctx, {type, ValueType::none, count, options}, sorting::in_place(keys), nullptr, false);
}

void sort_to(Context& ctx, KeyType type, const void* keys, void* sorted_keys, std::uint64_t count,
             const SortOptions& options) {
  sorting::sort_host(ctx, {type, ValueType::none, count, options}, sorting::copied(keys, sorted_keys), nullptr, false);
}

void sort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& keys_out,
                   std::uint64_t count, const SortOptions& options) {
  sorting::sort_host(ctx, {type, ValueType::none, count, options}, {keys_in, keys_out}, nullptr, false);
}

void sort_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values, std::uint64_t count,
                const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const sorting::HostArray value_array = sorting::in_place(values);
  sorting::sort_host(ctx, {key_type, value_type, count, options}, sorting::in_place(keys), &value_array, false);
}

void sort_pairs_to(Context& ctx, KeyType key_type, const void* keys, void* sorted_keys, ValueType value_type,
                   const void* values, void* sorted_values, std::uint64_t count, const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const sorting::HostArray value_array = sorting::copied(values, sorted_values);
  sorting::sort_host(ctx, {key_type, value_type, count, options}, sorting::copied(keys, sorted_keys), &value_array,
                     false);
}

void sort_pairs_streamed(Context& ctx, KeyType key_type, const HostRead& keys_in, const HostWrite& keys_out,
                         ValueType value_type, const HostRead& values_in, const HostWrite& values_out,
                         std::uint64_t count, const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const sorting::HostArray value_array{values_in, values_out};
  sorting::sort_host(ctx, {key_type, value_type, count, options}, {keys_in, keys_out}, &value_array, false);
}

namespace {
// argsort's one path: the keys go up only (their sorted order is not wanted back), the indices,
// of `index_type`, are made on the device or, out of core, on the host, and come back.
void sort_indices(Context& ctx, KeyType type, const HostRead& keys_in, const void* keys_memory,
                  const HostWrite& indices_out, void* indices_memory, ValueType index_type, std::uint64_t count,
                  const SortOptions& options) {
  const sorting::HostArray keys{keys_in, {}, keys_memory, nullptr};
  const sorting::HostArray indices{{}, indices_out, nullptr, indices_memory};
  sorting::sort_host(ctx, {type, index_type, count, sorting::options_for_argsort(options)}, keys, &indices, true);
}

void check_32_bit_indices(std::uint64_t count) {
  if (count > UINT32_MAX) {
    throw Error("argsort of " + std::to_string(count) +
                " keys: more than 32-bit indices can number (use argsort64, which gives 64-bit ones)");
  }
}
}  // namespace

void argsort_to(Context& ctx, KeyType type, const void* keys, std::uint32_t* indices, std::uint64_t count,
                const SortOptions& options) {
  check_32_bit_indices(count);
  sort_indices(ctx, type, detail::read_memory(keys), keys, detail::write_memory(indices), indices, ValueType::u32,
               count, options);
}

void argsort64_to(Context& ctx, KeyType type, const void* keys, std::uint64_t* indices, std::uint64_t count,
                  const SortOptions& options) {
  sort_indices(ctx, type, detail::read_memory(keys), keys, detail::write_memory(indices), indices, ValueType::u64,
               count, options);
}

std::vector<std::uint32_t> argsort(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                   const SortOptions& options) {
  check_32_bit_indices(count);
  std::vector<std::uint32_t> permutation(count);
  argsort_to(ctx, type, keys, permutation.data(), count, options);
  return permutation;
}

std::vector<std::uint64_t> argsort64(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                     const SortOptions& options) {
  std::vector<std::uint64_t> permutation(count);
  argsort64_to(ctx, type, keys, permutation.data(), count, options);
  return permutation;
}

void argsort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                      std::uint64_t count, const SortOptions& options) {
  check_32_bit_indices(count);
  sort_indices(ctx, type, keys_in, nullptr, indices_out, nullptr, ValueType::u32, count, options);
}

void argsort64_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                        std::uint64_t count, const SortOptions& options) {
  sort_indices(ctx, type, keys_in, nullptr, indices_out, nullptr, ValueType::u64, count, options);
}

}  // namespace vkc
