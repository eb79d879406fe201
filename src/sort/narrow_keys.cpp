#include "sort/narrow_keys.hpp"

#include <array>
#include <memory>
#include <vector>

#include "core/kernels.hpp"
#include "sort/key_types.hpp"

// narrow_keys/*.comp's specialization-constant ids (macros only).
#include "sort_layout.h"

namespace vkc::sorting {
namespace {

constexpr std::uint64_t kAlign = 256;  // every storage-buffer offset alignment
constexpr std::uint64_t align_up(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

std::uint64_t image_bytes(std::uint64_t count) { return std::max<std::uint64_t>(4, 4 * count); }

// Records widen.comp or narrow.comp between the packed keys and their images.
void record_map(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const Binding& images, bool widen) {
  const std::uint32_t wg = streaming_workgroup_size(ctx.info());
  std::vector<std::uint32_t> c(NARROW_CONSTANTS);
  c[SORT_SC_WORKGROUP] = wg;
  with_key_type(job.key_type, [&](auto row) {
    c[NARROW_KEY_BITS] = row.width;
    c[NARROW_EXPONENT] = static_cast<std::uint32_t>(row.exponent);  // narrow rows' fit
  });
  c[NARROW_KEY_KIND] = key_kind(job.key_type);
  c[NARROW_DESCENDING] = job.descending();
  const Pipeline& pipe = pipeline(ctx, {.shader = widen ? shaders::sort_narrow_keys_widen : shaders::sort_narrow_keys_narrow,
                                        .specialization = std::move(c),
                                        .bindings = 3,
                                        .push_bytes = 4});
  const std::uint64_t words = groups_for(job.max_count * key_bytes(job.key_type), 4);
  const Binding packed{job.keys.buffer, widen ? Access::read : Access::read_write, job.keys.offset, words * 4};
  const Binding bindings[] = {job.count, packed, {images.buffer, widen ? Access::write : Access::read, images.offset, images.range}};
  const auto push = static_cast<std::uint32_t>(job.max_count);
  r.dispatch(pipe, bindings, &push, sizeof push, groups_for(words, wg));
}

class NarrowKeysPlan final : public SortPlan {
 public:
  NarrowKeysPlan(std::unique_ptr<SortPlan> inner, std::uint64_t max_count)
      : inner_(std::move(inner)), images_at_(align_up(inner_->temporary_bytes())), max_count_(max_count) {}

  std::uint64_t temporary_bytes() const override { return images_at_ + image_bytes(max_count_); }
  bool clamps_count() const override { return inner_->clamps_count(); }  // widen and narrow clamp it

  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override {
    Job images = job;
    images.key_type = KeyType::u32;
    images.order = SortOrder::ascending;
    images.keys = {job.temporary.buffer, Access::read_write, job.temporary.offset + images_at_, image_bytes(job.max_count)};
    record_map(ctx, r, job, images.keys, /*widen=*/true);
    inner_->record(ctx, r, images);
    record_map(ctx, r, job, images.keys, /*widen=*/false);
  }

 private:
  std::unique_ptr<SortPlan> inner_;
  std::uint64_t images_at_;  // where the images start, past the inner sort's storage
  std::uint64_t max_count_;
};

class NarrowKeys final : public Algorithm {
 public:
  explicit NarrowKeys(const Algorithm& inner) : inner_(inner) {}
  SortAlgorithm id() const override { return inner_.id(); }
  bool stable() const override { return inner_.stable(); }
  std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const override {
    return align_up(inner_.temporary_bytes(device, image_desc(desc))) + image_bytes(desc.max_count);
  }
  // The inner bounds, each with 4 more bytes per element and the alignment's slack.
  std::vector<TemporaryBound> temporary_bounds(const DeviceInfo& device, const SortDesc& desc) const override {
    std::vector<TemporaryBound> bounds = inner_.temporary_bounds(device, image_desc(desc));
    for (TemporaryBound& b : bounds) {
      b.numerator += 4 * b.denominator;
      b.fixed += (kAlign - 1) + 4;
    }
    return bounds;
  }
  std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc) const override {
    return std::make_unique<NarrowKeysPlan>(inner_.plan(device, image_desc(desc)), desc.max_count);
  }

 private:
  const Algorithm& inner_;
};

}  // namespace

SortDesc image_desc(SortDesc desc) {
  const std::uint32_t width = key_bits(desc.key_type);
  desc.key_type = KeyType::u32;
  desc.options.order = SortOrder::ascending;
  if (desc.options.end_bit > width) desc.options.end_bit = UINT32_MAX;  // the images' high bits are zero
  return desc;
}

const Algorithm& for_narrow_keys(const Algorithm& inner) {
  static const std::array<std::unique_ptr<NarrowKeys>, 5> wrapped = [] {
    std::array<std::unique_ptr<NarrowKeys>, 5> a;
    for (const Algorithm* algorithm : {bitonic_algorithm(), bitonic_transpose_algorithm(), odd_even_algorithm(), radix_algorithm()}) {
      if (algorithm) a[static_cast<std::size_t>(algorithm->id())] = std::make_unique<NarrowKeys>(*algorithm);
    }
    return a;
  }();
  return *wrapped[static_cast<std::size_t>(inner.id())];
}

}  // namespace vkc::sorting
