// vkc::Context: the Vulkan device a program computes on, its compute queue, and its buffers.
//
// A Context either owns a Vulkan instance and one logical device with a compute queue and, where
// the device has one, a second queue for host transfers (Context(ContextOptions)), or adopts an
// engine's own instance, device and queue (Context(AdoptedDevice), below), which it never
// destroys. Either way it owns command pools, timeline semaphores, a cache of compute pipelines
// and the memory that host transfers reuse (staging buffers, a few threads that fill them).
// Every object it hands out (Buffer) is a move-only owner that must not outlive
// it. A Context is not thread-safe: use one per thread, or guard it.
//
// The Vulkan loader (libvulkan.so.1) is opened at run time, so a program linked with vkc
// starts on a machine without Vulkan and reports that as an Error.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vkc {

/// Every failure in vkc is an Error whose message says what failed and, where a device is
/// involved, on which device ("vkAllocateMemory failed on 'NVIDIA H200': out of device memory").
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DeviceType { other, integrated_gpu, discrete_gpu, virtual_gpu, cpu };
const char* to_string(DeviceType type);

/// What `vkc info` prints: the facts about one physical device that the library uses.
struct DeviceInfo {
  struct Heap {
    std::uint64_t bytes = 0;
    bool device_local = false;
  };

  std::uint32_t index = 0;            ///< position in the loader's enumeration
  std::string name;                   ///< e.g. "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string driver_name;            ///< e.g. "NVIDIA", "llvmpipe"
  std::string driver_info;            ///< e.g. "580.95.05", "Mesa 22.3.6 (LLVM 15.0.6)"
  std::uint32_t api_version = 0;      ///< VK_MAKE_API_VERSION encoding
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  DeviceType type = DeviceType::other;

  std::uint32_t subgroup_size = 0;        ///< the default subgroup size of compute shaders
  std::uint32_t min_subgroup_size = 0;    ///< range available under subgroup-size control
  std::uint32_t max_subgroup_size = 0;
  bool subgroup_size_control = false;     ///< requiredSubgroupSize / full subgroups usable
  std::uint32_t max_workgroup_subgroups = 0;  ///< subgroups per workgroup under a required size (0: no limit)
  std::vector<std::string> subgroup_operations;  ///< "basic", "vote", "arithmetic", ...
  bool vulkan_memory_model_device_scope = false;  ///< device-scope atomics of the memory model (the radix look-back)

  std::uint32_t shared_memory_bytes = 0;          ///< maxComputeSharedMemorySize
  std::uint32_t max_workgroup_invocations = 0;    ///< maxComputeWorkGroupInvocations
  std::array<std::uint32_t, 3> max_workgroup_size{};
  std::array<std::uint32_t, 3> max_workgroup_count{};
  std::uint64_t max_storage_buffer_range = 0;     ///< the largest buffer one binding can see
  std::uint64_t storage_offset_alignment = 0;     ///< minStorageBufferOffsetAlignment
  std::uint64_t max_allocation_bytes = 0;         ///< maxMemoryAllocationSize
  std::uint64_t host_import_alignment = 0;        ///< VK_EXT_external_memory_host's; 0: cannot import
  std::vector<Heap> heaps;
  float timestamp_period_ns = 0;                  ///< nanoseconds per timestamp tick
  std::uint32_t timestamp_valid_bits = 0;         ///< 0: the compute queue has no timestamps
  bool shader_int64 = false;
  bool shader_float64 = false;
  /// 8- and 16-bit loads and stores in storage buffers (storageBuffer8BitAccess and
  /// storageBuffer16BitAccess): radix sorts narrow keys in place rather than through 32-bit images.
  bool narrow_storage = false;

  /// Where a device sits on the PCI bus, when its driver says (VK_EXT_pci_bus_info), and what the
  /// operating system tells of its link and NUMA node (Linux's sysfs). Devices that share a
  /// host's memory bandwidth or a PCIe switch show it here.
  struct Pci {
    bool known = false;  ///< the driver gave the address
    std::uint32_t domain = 0, bus = 0, device = 0, function = 0;
    int numa_node = -1;                         ///< -1: unknown, or one node
    std::string link_speed, max_link_speed;     ///< e.g. "32.0 GT/s PCIe"; empty: unknown
    std::uint32_t link_width = 0, max_link_width = 0;  ///< lanes; 0: unknown
    std::string address() const;                ///< "0000:1b:00.0"; empty when not known
  };
  Pci pci;

  /// Size of the largest device-local heap in bytes.
  std::uint64_t device_local_bytes() const;
  std::string api_version_string() const;
  bool is_software() const { return type == DeviceType::cpu; }
};

/// Lists every Vulkan device the loader reports. Throws Error when no loader can be opened.
std::vector<DeviceInfo> enumerate_devices();

/// The device that ContextOptions::device = `wanted` picks, as its position in `devices` (the
/// list enumerate_devices() returns, whose DeviceInfo::index is each device's position):
/// - an index ("1") picks that device;
/// - any other text picks the first device whose name contains it, ignoring case;
/// - empty means the VKC_DEVICE environment variable, and when that is unset or empty too, the
///   first discrete GPU, else the first integrated GPU, virtual GPU, other device, CPU device.
/// Throws Error when `devices` is empty or nothing matches ("no Vulkan device with index 4").
std::uint32_t choose_device(const std::vector<DeviceInfo>& devices, std::string_view wanted = {});

/// The Vulkan version the loader offers for instances (VK_MAKE_API_VERSION encoding; 1.0 from a
/// loader older than vkEnumerateInstanceVersion). Throws Error when no loader can be opened.
std::uint32_t vulkan_loader_version();

/// A host array that is not one block of memory (a file, a socket, a generator), in pieces:
/// HostRead fills `dst` with the array's bytes [offset, offset + bytes); HostWrite takes them
/// from `src`. vkc calls them from several threads at once, for disjoint ranges in no
/// particular order; an exception thrown by one ends the operation and is rethrown.
using HostRead = std::function<void(std::uint64_t offset, void* dst, std::uint64_t bytes)>;
using HostWrite = std::function<void(std::uint64_t offset, const void* src, std::uint64_t bytes)>;

/// How the convenient functions that take host arrays (sort, sort_pairs, argsort, upload,
/// download) move them to and from the device.
enum class HostPath {
  automatic,  ///< the path measured fastest: staged on every device measured so far
              ///< (docs/perf-notes.md#host-path)
  staged,     ///< through the Context's pinned staging buffers, filled and drained by several
              ///< threads while the device copies the previous chunk
  imported,   ///< sort functions import the caller's memory (VK_EXT_external_memory_host) and the
              ///< device copies it directly; staged where the device or that memory cannot import
};

struct HostTransferOptions {
  HostPath path = HostPath::automatic;
  /// Threads that fill and drain staging buffers, the caller's included; 0: 8, or the
  /// machine's cores where fewer.
  unsigned threads = 0;
  /// Bytes of each staging buffer (each thread has two); 0: the device class's default.
  std::uint64_t chunk_bytes = 0;
};

/// What a Context's host transfers have moved, and the memory they hold now.
struct HostTransferStats {
  std::uint64_t staged_bytes = 0;    ///< moved through staging buffers, both ways, since creation
  std::uint64_t imported_bytes = 0;  ///< copied straight from or into imported host memory
  std::uint64_t staging_bytes = 0;   ///< pinned staging memory held now
  std::uint64_t reusable_bytes = 0;  ///< device memory held now for the convenient sort functions
};

struct ContextOptions {
  /// Which device: an index into enumerate_devices() or a case-insensitive substring of its
  /// name. Empty: the VKC_DEVICE environment variable, else the first discrete GPU, else the
  /// first integrated or virtual GPU, else a CPU implementation such as lavapipe (said on stderr).
  std::string device;
  /// Enables the Khronos validation layer with synchronization validation and records every
  /// message it emits (see Context::validation_messages()). The VKC_VALIDATION=1 environment
  /// variable turns it on too.
  bool validation = false;
  /// Suppresses the note on stderr when the choice falls back to a CPU device.
  bool quiet = false;
  /// Where compiled pipelines are kept between runs (a persistent VkPipelineCache), so that a
  /// program's first sort does not wait for the driver to compile what an earlier run compiled:
  /// - a directory: the cache lives there (created when missing);
  /// - "off": no file is read or written (a directory named off is "./off");
  /// - empty: the VKC_PIPELINE_CACHE environment variable (a directory, or "off"), else
  ///   $XDG_CACHE_HOME/vkcompute, else $HOME/.cache/vkcompute.
  /// The directory holds one file per device, driver version and vkc build
  /// ("pipelines-<vendor>-<device>-<driver>-<pipelineCacheUUID>-<build>.bin"), so a new driver
  /// or vkc never reads an old file. The file is read when the Context is created, and handed to
  /// the driver only when it is complete and its header names this device; any other file is
  /// ignored. When the Context is destroyed, if it built pipelines and the driver's cache data
  /// changed, the file is replaced atomically (a temporary file in the same directory, then a
  /// rename): processes that share the directory never see a partial file; the last to finish
  /// wins. No failure to read or write the cache is an error. An adopted device never has a
  /// file: it uses AdoptedDevice::pipeline_cache.
  std::string pipeline_cache_dir;
  /// How host arrays travel; see HostTransferOptions.
  HostTransferOptions host_transfer;
  /// The most device memory, in bytes, that the convenient sort functions hold at once (their
  /// keys, values and temporary buffers); arrays that need more are sorted in parts (sort.hpp,
  /// Sizes). 0: the VKC_DEVICE_MEMORY_LIMIT environment variable (bytes, or a number with a K,
  /// M, G or T suffix, powers of 1024), else nine tenths of the largest device-local heap.
  std::uint64_t device_memory_limit = 0;
};

/// What a VkDevice must enable for vkc to run on it, for engines that create the device
/// themselves and then adopt it (Context(AdoptedDevice)). It is exactly what a Context that
/// creates its own device enables: features the device offers and vkc's shaders may use
/// (64-bit integers and floats, the Vulkan memory model with device scope, subgroup size
/// control with full subgroups, timeline semaphores, ...), never one the device lacks. Enable
/// at least these; more is fine. The instance must have been created with apiVersion 1.2 or
/// later.
struct DeviceRequirements {
  /// Device extensions to enable (VK_KHR_push_descriptor, VK_EXT_subgroup_size_control on 1.2
  /// devices that offer it, VK_EXT_external_memory_host where offered). Static strings.
  std::vector<const char*> extensions;
  VkPhysicalDeviceFeatures features{};
  /// pNext is null; chain it yourself.
  VkPhysicalDeviceVulkan11Features vulkan11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  /// pNext is null; chain it yourself.
  VkPhysicalDeviceVulkan12Features vulkan12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  /// pNext is null; chain it yourself (only where the device offers subgroup size control).
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
};

/// The extensions and features vkc needs on `physical`, a device of `instance`, asked through
/// `get_instance_proc_addr` (the engine's loader; null: vkc opens libvulkan.so.1). Throws Error
/// when the device cannot run vkc at all (Vulkan before 1.2, no VK_KHR_push_descriptor).
DeviceRequirements device_requirements(VkInstance instance, VkPhysicalDevice physical,
                                       PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr);

/// An engine's Vulkan objects, for a Context that computes on them (as vk_radix_sort and
/// Fuchsia's radix_sort_vk take the caller's device). Nothing here is owned by vkc: the Context
/// never destroys the instance, the device or the pipeline cache, and they must outlive it.
///
/// - `instance` (apiVersion 1.2 or later) must come from the loader whose vkGetInstanceProcAddr
///   is `get_instance_proc_addr`, through which vkc then binds every function it calls; where that
///   is null, from the system's loader (libvulkan.so.1, or the file that VKC_VULKAN_LIBRARY
///   names), which vkc opens too. With it, no environment variable changes what vkc does here.
/// - `device` must have been created on `physical_device` with at least
///   device_requirements(instance, physical_device) enabled, and with a queue of
///   `queue_family`, which must support compute.
/// - `queue` is used only by the Context's own submissions: upload, download, copy, run, and the
///   convenient sort functions that take host data (they wait for their work to finish). Those
///   calls need the queue externally synchronized: no other thread may submit to it meanwhile.
///   record_sort and record_sort_indirect submit nothing; they only record into your command
///   buffer.
/// - `pipeline_cache`, optional, is passed to every vkCreateComputePipelines the Context makes.
/// - Destroy the Context only after the GPU has finished every command buffer into which it
///   recorded (it destroys its pipelines and buffers then, without waiting for the device).
/// - validation messages: the engine installs its own messenger; take_validation_messages()
///   returns nothing for an adopted device.
struct AdoptedDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  /// The engine's vkGetInstanceProcAddr; null: vkc opens the system's loader.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  /// How host arrays travel. Host memory is never imported on an adopted device (vkc cannot
  /// tell whether VK_EXT_external_memory_host was enabled): `imported` means staged there.
  HostTransferOptions host_transfer;
  /// As ContextOptions::device_memory_limit, but never read from the environment: 0 means nine
  /// tenths of the largest device-local heap. (No environment variable changes what vkc does on
  /// an adopted device.)
  std::uint64_t device_memory_limit = 0;
};

class Context;
/// How the library's own modules reach the internals of a Context and make Buffers (defined in
/// the library's sources; nothing a user calls).
struct ContextAccess;

/// A device-local storage buffer. Move-only; freed when destroyed.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  VkBuffer handle() const { return buffer_; }
  std::uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

 private:
  friend struct ContextAccess;
  Buffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, std::uint64_t bytes)
      : device_(device), buffer_(buffer), memory_(memory), bytes_(bytes) {}
  void release() noexcept;
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint64_t bytes_ = 0;
};

class PinnedBlocks;  // a Context's pinned memory (defined in the library's sources)

/// Host memory that the device's copies read and write directly (pinned and mapped, from
/// Context::allocate_pinned). The host sort functions move arrays that lie in it with the
/// device's copies alone, without the staging copies that pageable memory needs
/// (docs/perf-notes.md#host-path). Move-only; freed when destroyed, or when its Context is
/// destroyed, whichever comes first (its memory is gone then).
class PinnedMemory {
 public:
  PinnedMemory() = default;
  PinnedMemory(PinnedMemory&& other) noexcept;
  PinnedMemory& operator=(PinnedMemory&& other) noexcept;
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;
  ~PinnedMemory();

  void* data() const { return data_; }
  std::uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  friend class Context;
  PinnedMemory(std::shared_ptr<PinnedBlocks> owner, void* data, std::uint64_t bytes)
      : owner_(std::move(owner)), data_(data), bytes_(bytes) {}
  void release() noexcept;
  std::shared_ptr<PinnedBlocks> owner_;
  void* data_ = nullptr;
  std::uint64_t bytes_ = 0;
};

/// An opaque handle to the command buffer that Context::run records, with the barriers the
/// library places between its own commands. Its definition is not public: a Recorder is only
/// passed on to the library's record functions that take one (nbody::Simulation::record_steps,
/// record_forces), so that several of them share one submission. To record vkc's work into your
/// own command buffers, use record_sort and record_sort_indirect (sort.hpp) with a VkCommandBuffer.
class Recorder;

class Context {
 public:
  /// Creates an instance and a device, as `options` says.
  explicit Context(const ContextOptions& options = {});
  /// Computes on an engine's instance, device and queue; see AdoptedDevice for the contract.
  /// Throws Error when a handle is null, the device is not one of the instance's, or
  /// `queue_family` has no compute.
  explicit Context(const AdoptedDevice& adopted);
  ~Context();
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& info() const;

  /// A device-local storage buffer of `bytes` bytes (0 is allowed and gives a small buffer).
  /// Throws Error naming the limit when `bytes` exceeds maxStorageBufferRange, the largest
  /// allocation, or the device-local heap.
  Buffer create_buffer(std::uint64_t bytes);

  /// Pinned host memory of `bytes` bytes (PinnedMemory). Throws Error when the device cannot
  /// give that much.
  PinnedMemory allocate_pinned(std::uint64_t bytes);

  /// Host-to-device and device-to-host copies through the Context's staging buffers; both wait
  /// for the transfer to finish. Ranges must lie inside the buffer.
  void upload(const Buffer& dst, const void* src, std::uint64_t bytes, std::uint64_t dst_offset = 0);
  void download(const Buffer& src, void* dst, std::uint64_t bytes, std::uint64_t src_offset = 0);

  template <class T>
  void upload(const Buffer& dst, std::span<const T> src) {
    upload(dst, src.data(), src.size_bytes());
  }
  template <class T>
  void download(const Buffer& src, std::span<T> dst) {
    download(src, dst.data(), dst.size_bytes());
  }

  /// Device-to-device copy of `bytes` (a multiple of 4) by a compute shader, which moves data
  /// several times faster than vkCmdCopyBuffer on some drivers. Waits for completion.
  void copy(const Buffer& src, const Buffer& dst, std::uint64_t bytes);

  /// Records commands through `record` (called with a Recorder&), submits them to the compute
  /// queue and waits.
  template <class F>
  void run(F&& record) {
    Recorder* r = begin_commands();
    try {
      record(*r);
    } catch (...) {
      abandon_commands();
      throw;
    }
    submit_and_wait();
  }

  /// Records into `r` what copy() does: `bytes` (a multiple of 4) from the start of `src` to the
  /// start of `dst` by a compute shader, ordered after the commands recorded before it that
  /// touch either buffer. For a copy inside the submission of run() or run_timed().
  void record_copy(Recorder& r, const Buffer& src, const Buffer& dst, std::uint64_t bytes);

  /// As run(), and returns the time the device spent on the recorded commands in nanoseconds:
  /// from a timestamp written before the first of them to one written after the last has
  /// finished. Throws Error when the compute queue has no timestamps (timestamp_valid_bits 0).
  double run_timed(const std::function<void(Recorder&)>& record);

  /// Frees the memory the Context keeps between calls: the device buffers that the convenient
  /// sort functions reuse, and the pinned staging buffers. They come back, as large as needed,
  /// on the next call that needs them. The Context also frees them by itself, and retries once,
  /// when an allocation fails for lack of memory.
  void release_cached_memory();
  HostTransferStats host_transfer_stats() const;

  /// Every message the validation layer emitted since the last call, which clears them (always
  /// empty for an adopted device, whose messages go to the engine's messenger).
  std::vector<std::string> take_validation_messages();

  // Raw handles, for code that records into its own command buffers (an adopted device's own).
  VkInstance instance() const;
  VkPhysicalDevice physical_device() const;
  VkDevice device() const;
  VkQueue queue() const;
  std::uint32_t queue_family() const;

 private:
  friend struct ContextAccess;
  struct State;
  Recorder* begin_commands();
  void abandon_commands() noexcept;
  void submit_and_wait();
  std::unique_ptr<State> state_;
};

}  // namespace vkc
