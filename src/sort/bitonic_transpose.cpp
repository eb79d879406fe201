// Bitonic sort by the DirectX SDK's ComputeShaderSort11 method, kept as a reference and a
// benchmark row: one dispatch per stage sorts rows of B elements in shared memory (one element
// per invocation, two barriers per step); a stage's strides from B to B*B/2 run as row sorts on
// the transposed B x B blocks (16 x 16-tile transposes turn long strides into short ones).
//
// Where the seed stopped, this goes on: any count (positions past it are virtual padding that
// never moves, see shaders/common/compare_exchange.glsl, so no power of two is allocated),
// strides of B*B and more as one global compare-exchange dispatch each, keys of every type in
// both orders, and values moved with their keys. The transposes need a scratch copy of the
// array (rounded up to a multiple of B elements).
#include <algorithm>
#include <bit>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "sort/algorithm.hpp"

// The kernels' specialization-constant ids (macros only).
#include "bitonic_transpose_layout.h"

namespace vkc::sorting {
namespace {

std::uint32_t ceil_log2(std::uint64_t x) { return x <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(x - 1)); }

// Row length: one element per invocation, at most 1024 (as the seed's 512, grown to today's
// limit), and a whole row of keys and values in shared memory.
std::uint32_t row_bits(const DeviceInfo& device, const Job& job) {
  const std::uint32_t invocations = std::min({device.max_workgroup_invocations, device.max_workgroup_size[0], 1024u});
  std::uint32_t bits = std::bit_width(invocations) - 1;
  while ((std::uint64_t{4} << bits) * (job.key_words() + job.value_words()) > device.shared_memory_bytes) --bits;
  return bits;
}

std::uint64_t scratch_elements(std::uint64_t max_count, std::uint32_t b_bits) {
  return groups_for(max_count, std::uint64_t{1} << b_bits) << b_bits;
}

class Recording {
 public:
  Recording(detail::ComputeDevice& ctx, Recorder& r, const Job& job)
      : ctx_(ctx), r_(r), job_(job), b_bits_(row_bits(ctx.info(), job)) {}

  void sort() {
    const std::uint32_t stages = ceil_log2(job_.max_count);
    for (std::uint32_t k = 1; k <= stages; ++k) {
      if (k > b_bits_) {
        for (std::uint32_t bit = k - 1; bit >= 2 * b_bits_; --bit) global_step(k, bit);
        transpose(true);
        rows(k, std::min(k - 1, 2 * b_bits_ - 1) - b_bits_, true);
        transpose(false);
      }
      rows(k, std::min(k, b_bits_) - 1, false);
    }
  }

 private:
  Binding values() const { return job_.has_values() ? job_.values : job_.count; }
  Binding scratch_keys() const { return {job_.temporary.buffer, Access::read_write, job_.temporary.offset}; }
  Binding scratch_values() const {
    if (!job_.has_values()) return job_.count;
    const std::uint64_t key_bytes = scratch_elements(job_.max_count, b_bits_) * job_.key_words() * 4;
    return {job_.temporary.buffer, Access::read_write, job_.temporary.offset + key_bytes};
  }

  // One stage's strides 2^j_bit .. 1 along rows (of the array, or of the transposed blocks).
  void rows(std::uint32_t stage, std::uint32_t j_bit, bool transposed) {
    std::vector<std::uint32_t> c(BITONIC_TRANSPOSE_ROWS_CONSTANTS);
    c[BITONIC_TRANSPOSE_SC_WORKGROUP] = 1u << b_bits_;
    c[BITONIC_TRANSPOSE_ROWS_KEY_WORDS] = job_.key_words();
    c[BITONIC_TRANSPOSE_ROWS_VALUE_WORDS] = job_.value_words();
    c[BITONIC_TRANSPOSE_ROWS_KEY_KIND] = key_kind(job_.key_type);
    c[BITONIC_TRANSPOSE_ROWS_DESCENDING] = job_.descending();
    c[BITONIC_TRANSPOSE_ROWS_B_BITS] = b_bits_;
    const Pipeline& p = pipeline(ctx_, {.shader = shaders::sort_bitonic_transpose_rows,
                                        .specialization = std::move(c),
                                        .bindings = 3,
                                        .push_bytes = 12});
    const std::uint32_t push[] = {stage, 1u << j_bit, transposed ? 1u : 0u};
    const std::uint64_t groups = transposed ? groups_for(job_.max_count, std::uint64_t{1} << (2 * b_bits_)) << b_bits_
                                            : groups_for(job_.max_count, std::uint64_t{1} << b_bits_);
    if (transposed) {
      const Binding bindings[] = {job_.count, scratch_keys(), scratch_values()};
      r_.dispatch(p, bindings, push, sizeof push, groups);
    } else {
      const Binding bindings[] = {job_.count, job_.keys, values()};
      r_.dispatch(p, bindings, push, sizeof push, groups);
    }
  }

  void transpose(bool forward) {
    std::vector<std::uint32_t> c(BITONIC_TRANSPOSE_TRANSPOSE_CONSTANTS);
    c[BITONIC_TRANSPOSE_TRANSPOSE_KEY_WORDS] = job_.key_words();
    c[BITONIC_TRANSPOSE_TRANSPOSE_VALUE_WORDS] = job_.value_words();
    c[BITONIC_TRANSPOSE_TRANSPOSE_B_BITS] = b_bits_;
    const Pipeline& p = pipeline(ctx_, {.shader = shaders::sort_bitonic_transpose_transpose,
                                        .specialization = std::move(c),
                                        .bindings = 5,
                                        .push_bytes = 4});
    const std::uint32_t push = forward ? 1u : 0u;
    const std::uint64_t tile_rows = groups_for(groups_for(job_.max_count, std::uint64_t{1} << b_bits_), 16);
    const std::uint64_t groups = tile_rows * ((1u << b_bits_) / 16);
    Binding array[] = {job_.keys, values()}, scratch[] = {scratch_keys(), scratch_values()};
    Binding* src = forward ? array : scratch;
    Binding* dst = forward ? scratch : array;
    const Binding bindings[] = {job_.count, {src[0].buffer, Access::read, src[0].offset},
                                {src[1].buffer, Access::read, src[1].offset},
                                {dst[0].buffer, Access::write, dst[0].offset},
                                {dst[1].buffer, job_.has_values() ? Access::write : Access::read, dst[1].offset}};
    r_.dispatch(p, bindings, &push, sizeof push, groups);
  }

  void global_step(std::uint32_t stage, std::uint32_t bit) {
    const std::uint32_t wg = streaming_workgroup_size(ctx_.info());
    std::vector<std::uint32_t> c(BITONIC_TRANSPOSE_STEP_CONSTANTS);
    c[BITONIC_TRANSPOSE_SC_WORKGROUP] = wg;
    c[BITONIC_TRANSPOSE_STEP_KEY_WORDS] = job_.key_words();
    c[BITONIC_TRANSPOSE_STEP_VALUE_WORDS] = job_.value_words();
    c[BITONIC_TRANSPOSE_STEP_KEY_KIND] = key_kind(job_.key_type);
    c[BITONIC_TRANSPOSE_STEP_DESCENDING] = job_.descending();
    const Pipeline& p = pipeline(ctx_, {.shader = shaders::sort_bitonic_transpose_step,
                                        .specialization = std::move(c),
                                        .bindings = 3,
                                        .push_bytes = 8});
    const std::uint32_t push[] = {stage, bit};
    const Binding bindings[] = {job_.count, job_.keys, values()};
    r_.dispatch(p, bindings, push, sizeof push, groups_for(job_.max_count, wg));
  }

  detail::ComputeDevice& ctx_;
  Recorder& r_;
  const Job& job_;
  std::uint32_t b_bits_;
};

class BitonicTranspose final : public SimpleAlgorithm {
 public:
  SortAlgorithm id() const override { return SortAlgorithm::bitonic_transpose; }
  bool stable() const override { return false; }
  std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const override {
    Job job;
    job.key_type = desc.key_type;
    job.value_type = desc.value_type;
    const std::uint32_t b_bits = row_bits(device, job);
    if (desc.max_count <= (std::uint64_t{1} << b_bits)) return 0;
    return scratch_elements(desc.max_count, b_bits) * (job.key_words() + job.value_words()) * 4;
  }
  // The scratch holds the count rounded up to whole rows: at most one row more than the count.
  std::vector<TemporaryBound> temporary_bounds(const DeviceInfo& device, const SortDesc& desc) const override {
    Job job;
    job.key_type = desc.key_type;
    job.value_type = desc.value_type;
    const std::uint64_t element = (job.key_words() + job.value_words()) * 4;
    return {{UINT32_MAX, element, 1, (std::uint64_t{1} << row_bits(device, job)) * element}};
  }
  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override { Recording(ctx, r, job).sort(); }
};

}  // namespace

const Algorithm* bitonic_transpose_algorithm() {
  static const BitonicTranspose instance;
  return &instance;
}

}  // namespace vkc::sorting
