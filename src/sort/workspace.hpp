// What the convenient sort functions keep in a Context between calls: the device buffers they
// reuse and the Context's own Sorter (record.hpp's SortDevice).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/state.hpp"
#include "sort/record.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

class SortWorkspace final : public detail::Attachment {
 public:
  explicit SortWorkspace(Context& ctx);

  /// The reusable device buffers, buffer i at least bytes[i] long (0: not needed, left as it
  /// is): each kept while large enough, else replaced by one a quarter larger than asked (so
  /// that growing sizes reallocate rarely). When an allocation fails, frees them all and the
  /// staging, and allocates each at its size once more. Handles stay valid until the next call.
  const std::vector<Buffer>& reusable_buffers(std::span<const std::uint64_t> bytes);
  /// The sizes the last reusable_buffers call asked for (tests: the plan's closed form allocates).
  const std::vector<std::uint64_t>& last_request() const { return last_request_; }

  Sorter& sorter() { return sorter_; }
  SortDevice target() const;

  void release_cached_memory() override { reusable_.clear(); }
  std::uint64_t held_bytes() const override;

 private:
  Context& ctx_;
  Sorter sorter_;
  std::vector<Buffer> reusable_;
  std::vector<std::uint64_t> last_request_;
};

/// The Context's sort workspace, made on first use.
SortWorkspace& workspace(Context& ctx);

/// Where a Context's sorts record: its device and its Sorter's count ceiling.
inline SortDevice sort_device(Context& ctx) { return workspace(ctx).target(); }

}  // namespace vkc::sorting

namespace vkc {

/// How the workspace reaches a Sorter's internals.
struct SorterAccess {
  /// A Sorter over the Context's own device and pipelines (no second pipeline cache).
  static Sorter over(detail::ComputeDevice& device);
  static sorting::SortDevice target(const Sorter& sorter);
};

}  // namespace vkc
