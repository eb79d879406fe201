// The low-level API as an engine uses it: the test's own buffers, the data of each at a chosen
// offset between guard words that a sort must leave alone, and a sort recorded with a host-side
// or a GPU-side count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/recorder.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {

/// Where each buffer's range starts (bytes of guard before it).
struct Offsets {
  VkDeviceSize keys = 0, values = 0, temporary = 0, count = 0;
};

/// A buffer holding `bytes` of data at `offset`, guard words before and after.
class GuardedBuffer {
 public:
  static constexpr std::uint32_t kGuard = 0xA5A5A5A5u;
  static constexpr std::uint64_t kTailBytes = 64;

  GuardedBuffer(Context& ctx, const char* name, VkDeviceSize offset, std::uint64_t bytes)
      : ctx_(&ctx),
        name_(name),
        offset_(offset),
        bytes_(bytes),
        buffer_(ctx.create_buffer(offset + bytes + kTailBytes)) {
    const std::vector<std::uint32_t> words(buffer_.bytes() / 4, kGuard);
    ctx.upload(buffer_, words.data(), words.size() * 4);
  }

  BufferRange range() const { return {buffer_.handle(), offset_}; }

  /// Sets every word of the data (not the guards) to `word`.
  void fill(std::uint32_t word) { write(std::vector<std::uint32_t>(bytes_ / 4, word)); }

  template <class T>
  void write(const std::vector<T>& data) {
    ctx_->upload(buffer_, data.data(), data.size() * sizeof(T), offset_);
  }

  template <class T>
  std::vector<T> read(std::size_t n) const {
    std::vector<T> data(n);
    ctx_->download(buffer_, data.data(), n * sizeof(T), offset_);
    return data;
  }

  /// Whether the words before the offset and after the data still hold kGuard.
  ::testing::AssertionResult guards_intact() const {
    std::vector<std::uint32_t> words(buffer_.bytes() / 4);
    ctx_->download(buffer_, words.data(), words.size() * 4);
    for (std::size_t w = 0; w < words.size(); ++w) {
      const std::uint64_t at = w * 4;
      const bool guard = at < offset_ || at >= offset_ + bytes_;
      if (guard && words[w] != kGuard) {
        return ::testing::AssertionFailure() << "the " << name_ << " buffer's guard word at byte " << at << " changed";
      }
    }
    return ::testing::AssertionSuccess();
  }

 private:
  Context* ctx_;
  const char* name_;
  VkDeviceSize offset_;
  std::uint64_t bytes_;
  Buffer buffer_;
};

/// Keys of type K (and values of type V when the description has a value type) in guarded
/// buffers, sorted by record_sort or record_sort_indirect.
template <class K, class V = std::uint32_t>
class RecordedSort {
 public:
  RecordedSort(Context& ctx, const SortDesc& desc, const Offsets& at = {})
      : ctx_(&ctx),
        desc_(desc),
        keys_(ctx, "keys", at.keys, desc.max_count * sizeof(K)),
        values_(ctx, "values", at.values, std::max<std::uint64_t>(4, desc.max_count * value_bytes(desc.value_type))),
        temporary_(ctx, "temporary", at.temporary, sort_temporary_bytes(ctx, desc)),
        count_(ctx, "count", at.count, 4) {}

  /// SortBuffers::temporary_is_clear for the sorts that follow.
  bool temporary_is_clear = false;

  /// Uploads max_count keys, and as many values when the description has a value type.
  void load(const std::vector<K>& keys, const std::vector<V>& values = {}) {
    keys_.write(keys);
    if (desc_.value_type != ValueType::none) values_.write(values);
  }

  /// Sorts the first `count` elements, the count known on the host.
  void sort(std::uint64_t count) {
    ctx_->run([&](Recorder& r) {
      record_sort(*ctx_, r.commands(), desc_, count, buffers());
      record_barrier_before_download(r.commands());
    });
  }

  /// Sorts the first `count` elements, the count read from a buffer on the GPU.
  void sort_indirect(std::uint32_t count) {
    count_.write(std::vector<std::uint32_t>{count});
    ctx_->run([&](Recorder& r) {
      record_sort_indirect(*ctx_, r.commands(), desc_, count_.range(), buffers());
      record_barrier_before_download(r.commands());
    });
  }

  std::vector<K> keys() const { return keys_.read<K>(desc_.max_count); }
  std::vector<V> values() const { return values_.read<V>(desc_.max_count); }
  GuardedBuffer& temporary() { return temporary_; }

  /// Whether the guards of every buffer held.
  ::testing::AssertionResult guards_intact() const {
    for (const GuardedBuffer* b : {&keys_, &values_, &temporary_, &count_}) {
      if (auto intact = b->guards_intact(); !intact) return intact;
    }
    return ::testing::AssertionSuccess();
  }

 private:
  SortBuffers buffers() const {
    const BufferRange values = desc_.value_type == ValueType::none ? BufferRange{} : values_.range();
    return {keys_.range(), values, temporary_.range(), temporary_is_clear};
  }
  Context* ctx_;
  SortDesc desc_;
  GuardedBuffer keys_, values_, temporary_, count_;
};

}  // namespace vkc::test
