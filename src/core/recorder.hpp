// Recording compute work into a command buffer, with the barriers placed for the caller.
//
// The Recorder tracks, per VkBuffer, the byte ranges that commands since the last barrier wrote
// and read. Before a command that reads or writes a range overlapping one written since the last
// barrier (read-after-write, write-after-write), or writes one overlapping a range read since then
// (write-after-read), it records one global pipeline barrier from every stage used so far to every
// stage the library uses. Commands over disjoint buffers, or disjoint ranges of one buffer (a
// sort's count and its state, both filled before its first dispatch), stay unordered, so they may
// overlap on the GPU. A binding's range must cover every byte its shader touches.
//
// What comes before the recorder's first command is the caller's: see the barrier contract of
// the operation that uses it (sort.hpp). After the last command, call finish_for_host() before
// the host reads a buffer, or barrier to your own stages.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/device.hpp"
#include "vkc/context.hpp"

namespace vkc {

class Pipeline;

enum class Access : std::uint8_t { read = 1, write = 2, read_write = 3 };

struct Binding {
  VkBuffer buffer = VK_NULL_HANDLE;
  Access access = Access::read;
  VkDeviceSize offset = 0;
  VkDeviceSize range = VK_WHOLE_SIZE;
};

inline Binding reads(const Buffer& b) { return {b.handle(), Access::read}; }
inline Binding writes(const Buffer& b) { return {b.handle(), Access::write}; }
inline Binding updates(const Buffer& b) { return {b.handle(), Access::read_write}; }

/// The grid Recorder::dispatch uses for `groups` workgroups: as many along x as the device
/// allows, then rows of that width (shaders take linear_workgroup_id() from common/grid.glsl).
/// For indirect dispatches whose grid a shader writes. Throws when the grid does not fit.
struct Grid {
  std::uint32_t x = 0, y = 0;
};
Grid grid_for(const DeviceInfo& device, std::uint64_t groups);

class Recorder {
 public:
  /// Records into `commands`; a null `commands` records nothing (a dry run: the recording code
  /// runs, asks for its pipelines and places its barriers, but no command is written).
  Recorder(const detail::Device& device, VkCommandBuffer commands);

  VkCommandBuffer commands() const { return commands_; }
  const DeviceInfo& device() const;

  /// Dispatches `groups` workgroups. Past the device's x limit the grid becomes 2-D; shaders
  /// get their linear workgroup index from linear_workgroup_id() in common/grid.glsl and must
  /// return when it is at or past the count they were given. 0 groups records nothing.
  void dispatch(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
                std::uint32_t push_bytes, std::uint64_t groups);

  template <class Push>
  void dispatch(const Pipeline& pipeline, std::initializer_list<Binding> bindings, const Push& push,
                std::uint64_t groups) {
    dispatch(pipeline, std::span(bindings.begin(), bindings.size()), &push, sizeof(Push), groups);
  }

  /// Dispatches the workgroup counts stored in `args` at `offset` (a VkDispatchIndirectCommand).
  void dispatch_indirect(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
                         std::uint32_t push_bytes, VkBuffer args, VkDeviceSize offset);

  void copy_buffer(VkBuffer src, VkBuffer dst, const VkBufferCopy& region);
  void fill_buffer(VkBuffer dst, VkDeviceSize offset, VkDeviceSize bytes, std::uint32_t value);

  /// A timestamp after every earlier command has finished.
  void write_timestamp(VkQueryPool pool, std::uint32_t query);
  void reset_queries(VkQueryPool pool, std::uint32_t first, std::uint32_t count);

  /// Makes every write recorded so far visible to the host after the submission completes.
  void finish_for_host();

  /// A global barrier from every stage the library uses to every stage it uses, whatever the
  /// tracking says: brackets commands recorded into the same command buffer by other code.
  void barrier_all();

  /// Pipeline barriers recorded so far (for tests of the hazard tracking).
  std::uint32_t barriers_recorded() const { return barriers_; }
  /// The shader of each dispatch recorded so far, in order (for tests of what an operation records).
  const std::vector<std::string_view>& shaders_dispatched() const { return dispatched_; }

 private:
  /// Bytes [begin, end) of a buffer.
  struct Range {
    VkDeviceSize begin = 0, end = 0;
    bool overlaps(const Range& other) const { return begin < other.end && other.begin < end; }
  };
  struct Use {
    VkBuffer buffer;
    Range range;
    VkPipelineStageFlags stage;
    bool write;
    VkAccessFlags access;
  };
  /// What commands since the last barrier did to one buffer.
  struct Tracked {
    VkPipelineStageFlags stages = 0;
    VkAccessFlags write_access = 0;
    std::vector<Range> written, read;
    bool conflicts_with(const Use& use) const;
  };
  static Range range_of(VkDeviceSize offset, VkDeviceSize bytes);
  void prepare(std::span<const Use> uses);
  void barrier(VkPipelineStageFlags dst_stages, VkAccessFlags dst_access);
  /// One global memory barrier; everything tracked so far is then ordered and forgotten.
  void record_global_barrier(VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
                             VkAccessFlags src_access, VkAccessFlags dst_access);
  void bind(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
            std::uint32_t push_bytes);
  std::vector<Use> uses_of(std::span<const Binding> bindings) const;

  bool dry() const { return commands_ == VK_NULL_HANDLE; }

  const detail::Device& device_;
  VkCommandBuffer commands_;
  std::unordered_map<VkBuffer, Tracked> tracked_;
  std::uint32_t barriers_ = 0;
  std::vector<std::string_view> dispatched_;
};

/// A pool of GPU timestamps, read back in nanoseconds.
class TimestampQueries {
 public:
  TimestampQueries(const detail::Device& device, std::uint32_t count);
  TimestampQueries(Context& ctx, std::uint32_t count);
  ~TimestampQueries();
  TimestampQueries(const TimestampQueries&) = delete;
  TimestampQueries& operator=(const TimestampQueries&) = delete;

  VkQueryPool pool() const { return pool_; }
  std::uint32_t count() const { return count_; }
  /// Waits for the results and returns every query's time in nanoseconds (device clock).
  std::vector<double> read_ns() const;
  /// Nanoseconds between queries `first` and `last`.
  double elapsed_ns(std::uint32_t first, std::uint32_t last) const;

 private:
  std::vector<std::uint64_t> read_ticks() const;
  std::uint64_t tick_mask() const;
  const detail::Device& device_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  std::uint32_t count_;
};

}  // namespace vkc
