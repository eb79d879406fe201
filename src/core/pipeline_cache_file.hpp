// The persistent pipeline cache: the driver's VkPipelineCache data kept in a file between runs,
// so that a short program does not spend its time compiling the same pipelines again.
//
// One file per device, driver and library build, in a directory (ContextOptions::pipeline_cache_dir).
// A file is handed to the driver only when it is complete and was written for this device: a
// missing, short, corrupt, foreign or unreadable file is ignored, and no failure to read or write
// one is ever an error.
//
// The file: a vkc header (kPipelineCacheMagic, the payload's size and FNV-1a hash, the driver
// version and the library digest), then the payload, which is vkGetPipelineCacheData's output and
// begins with the driver's VkPipelineCacheHeaderVersionOne.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace vkc::detail {

/// What a cache file must have been written for: the device, its driver and this library build.
struct PipelineCacheKey {
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t driver_version = 0;
  std::array<std::uint8_t, VK_UUID_SIZE> uuid{};  ///< VkPhysicalDeviceProperties::pipelineCacheUUID
  std::uint64_t library_digest = 0;               ///< the library's version and every embedded shader
};

constexpr std::array<char, 8> kPipelineCacheMagic = {'v', 'k', 'c', 'p', 'i', 'p', 'e', '1'};

/// The vkc header in front of the driver's data.
struct PipelineCacheFileHeader {
  std::array<char, 8> magic = kPipelineCacheMagic;
  std::uint64_t payload_bytes = 0;
  std::uint64_t payload_hash = 0;  ///< FNV-1a 64 of the payload
  std::uint32_t driver_version = 0;
  std::uint32_t reserved = 0;
  std::uint64_t library_digest = 0;
};
static_assert(sizeof(PipelineCacheFileHeader) == 40);

/// Files larger than this are not read (no cache of vkc's pipelines comes near it).
constexpr std::uint64_t kMaxPipelineCacheFileBytes = std::uint64_t{256} << 20;

PipelineCacheKey pipeline_cache_key(VkPhysicalDevice physical);

/// The directory that `option` (ContextOptions::pipeline_cache_dir) selects: itself; "" the
/// VKC_PIPELINE_CACHE variable, else $XDG_CACHE_HOME/vkcompute, else $HOME/.cache/vkcompute;
/// empty when the cache is off ("off", or no home to put it in).
std::filesystem::path pipeline_cache_directory(const std::string& option);

/// "pipelines-<vendor>-<device>-<driver>-<uuid>-<library digest>.bin", all hexadecimal.
std::string pipeline_cache_file_name(const PipelineCacheKey& key);

std::uint64_t fnv1a64(std::span<const std::byte> bytes);

/// Whether `data` begins with a VkPipelineCacheHeaderVersionOne for the device of `key`.
bool driver_header_matches(std::span<const std::byte> data, const PipelineCacheKey& key);

/// The payload of `file` when it is a complete, intact cache file written for `key`; empty
/// otherwise (never throws).
std::vector<std::byte> read_pipeline_cache_file(const std::filesystem::path& file, const PipelineCacheKey& key);

/// Writes `payload` behind its header to `file` atomically: a temporary file in the same
/// directory, then a rename, so that a reader (or a concurrent process) sees the old file or
/// the new one, never a part. Creates the directory. Returns false on any failure (never throws).
bool write_pipeline_cache_file(const std::filesystem::path& file, const PipelineCacheKey& key,
                               std::span<const std::byte> payload) noexcept;

/// The VkPipelineCache of a Context that created its own device, filled from its file when
/// opened and written back when closed, if pipelines were built meanwhile and the driver's data
/// changed.
class PipelineCacheFile {
 public:
  PipelineCacheFile() = default;
  PipelineCacheFile(const PipelineCacheFile&) = delete;
  PipelineCacheFile& operator=(const PipelineCacheFile&) = delete;
  ~PipelineCacheFile() { close(); }

  /// Creates the VkPipelineCache, with the file's data when it is valid. `directory` empty (the
  /// cache is off): none. Never throws: without a cache, handle() stays VK_NULL_HANDLE.
  void open(VkDevice device, VkPhysicalDevice physical, const std::filesystem::path& directory) noexcept;
  /// Writes the file when `pipelines_built` and the driver's data differ from what was loaded.
  void save(bool pipelines_built) noexcept;
  /// Destroys the VkPipelineCache (without saving).
  void close() noexcept;

  VkPipelineCache handle() const { return cache_; }
  /// The file this cache reads and writes; empty when it has none.
  const std::filesystem::path& path() const { return path_; }
  /// Bytes of driver data loaded from the file (0: there was none, or it was ignored).
  std::size_t loaded_bytes() const { return loaded_.size(); }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  PipelineCacheKey key_;
  std::filesystem::path path_;
  std::vector<std::byte> loaded_;
};

}  // namespace vkc::detail
