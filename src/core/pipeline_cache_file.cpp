// The persistent pipeline cache: file name, validation, atomic writes, and the VkPipelineCache
// that a Context fills from the file and writes back.
#include "core/pipeline_cache_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string_view>
#include <system_error>

#include "core/loader.hpp"
#include "core/shaders.hpp"

namespace vkc::detail {
using namespace vk;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

std::uint64_t fnv1a64_more(std::uint64_t hash, std::span<const std::byte> bytes) {
  for (const std::byte b : bytes) hash = (hash ^ std::to_integer<std::uint64_t>(b)) * kFnvPrime;
  return hash;
}

// A new library version or any changed shader gives new file names: a new vkc never reads (and
// never grows) an old build's file.
std::uint64_t library_digest() {
  std::uint64_t hash = fnv1a64_more(kFnvOffset, std::as_bytes(std::span(std::string_view(VKC_LIBRARY_VERSION))));
  for (const shaders::Shader* shader : shaders::all()) {
    hash = fnv1a64_more(hash, std::as_bytes(std::span(shader->name)));
    hash = fnv1a64_more(hash, std::as_bytes(shader->spirv));
  }
  return hash;
}

std::string hex(std::uint64_t value, int digits) {
  char text[17];
  std::snprintf(text, sizeof text, "%0*llx", digits, static_cast<unsigned long long>(value));
  return text;
}

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// The whole file, or nothing when it cannot be read or is larger than any cache we write.
std::vector<std::byte> read_small_file(const fs::path& file) {
  // O_NONBLOCK: a FIFO in the file's place must not stop the program.
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  std::vector<std::byte> bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && std::uint64_t(st.st_size) <= kMaxPipelineCacheFileBytes) {
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
  }
  ::close(fd);
  return bytes;
}

bool write_all(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

// A temporary name no other process or thread picks: this process's id and random digits.
fs::path temporary_beside(const fs::path& file) {
  static thread_local std::mt19937_64 engine{std::random_device{}()};
  std::string name = ".";
  name += file.filename().string();
  name += ".tmp-" + std::to_string(::getpid()) + "-" + hex(engine(), 16);
  return file.parent_path() / name;
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::byte> bytes) { return fnv1a64_more(kFnvOffset, bytes); }

PipelineCacheKey pipeline_cache_key(VkPhysicalDevice physical) {
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(physical, &props);
  PipelineCacheKey key;
  key.vendor_id = props.vendorID;
  key.device_id = props.deviceID;
  key.driver_version = props.driverVersion;
  std::memcpy(key.uuid.data(), props.pipelineCacheUUID, VK_UUID_SIZE);
  key.library_digest = library_digest();
  return key;
}

fs::path pipeline_cache_directory(const std::string& option) {
  std::string chosen = option;
  if (chosen.empty()) {
    if (const char* env = non_empty_env("VKC_PIPELINE_CACHE")) chosen = env;
  }
  if (chosen == "off") return {};
  if (!chosen.empty()) return chosen;
  // The XDG base directory specification ignores a relative XDG_CACHE_HOME.
  if (const char* xdg = non_empty_env("XDG_CACHE_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "vkcompute";
  if (const char* home = non_empty_env("HOME")) return fs::path(home) / ".cache" / "vkcompute";
  return {};
}

std::string pipeline_cache_file_name(const PipelineCacheKey& key) {
  std::string uuid;
  for (const std::uint8_t byte : key.uuid) uuid += hex(byte, 2);
  return "pipelines-" + hex(key.vendor_id, 4) + "-" + hex(key.device_id, 4) + "-" + hex(key.driver_version, 8) + "-" +
         uuid + "-" + hex(key.library_digest, 16) + ".bin";
}

bool driver_header_matches(std::span<const std::byte> data, const PipelineCacheKey& key) {
  VkPipelineCacheHeaderVersionOne header{};
  if (data.size() < sizeof header) return false;
  std::memcpy(&header, data.data(), sizeof header);
  return header.headerSize >= sizeof header && header.headerSize <= data.size() &&
         header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && header.vendorID == key.vendor_id &&
         header.deviceID == key.device_id &&
         std::memcmp(header.pipelineCacheUUID, key.uuid.data(), VK_UUID_SIZE) == 0;
}

std::vector<std::byte> read_pipeline_cache_file(const fs::path& file, const PipelineCacheKey& key) {
  std::vector<std::byte> bytes = read_small_file(file);
  PipelineCacheFileHeader header;
  if (bytes.size() < sizeof header) return {};
  std::memcpy(&header, bytes.data(), sizeof header);
  const std::span<const std::byte> payload = std::span(bytes).subspan(sizeof header);
  if (header.magic != kPipelineCacheMagic || header.payload_bytes != payload.size() ||
      header.driver_version != key.driver_version || header.library_digest != key.library_digest ||
      header.payload_hash != fnv1a64(payload) || !driver_header_matches(payload, key)) {
    return {};
  }
  bytes.erase(bytes.begin(), bytes.begin() + sizeof header);
  return bytes;
}

bool write_pipeline_cache_file(const fs::path& file, const PipelineCacheKey& key,
                               std::span<const std::byte> payload) noexcept {
  try {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    PipelineCacheFileHeader header;
    header.payload_bytes = payload.size();
    header.payload_hash = fnv1a64(payload);
    header.driver_version = key.driver_version;
    header.library_digest = key.library_digest;
    const fs::path temp = temporary_beside(file);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    // No fsync: a crash that leaves the renamed file empty or short only costs one cold start,
    // since such a file is ignored.
    const bool written = write_all(fd, std::as_bytes(std::span(&header, 1))) && write_all(fd, payload);
    if (::close(fd) == 0 && written && ::rename(temp.c_str(), file.c_str()) == 0) return true;
    ::unlink(temp.c_str());
    return false;
  } catch (...) {  // a path or a string that could not be allocated: no cache this time
    return false;
  }
}

void PipelineCacheFile::open(VkDevice device, VkPhysicalDevice physical, const fs::path& directory) noexcept {
  close();
  device_ = device;
  if (directory.empty()) return;  // off: the driver compiles every pipeline, as without a cache
  try {
    key_ = pipeline_cache_key(physical);
    path_ = directory / pipeline_cache_file_name(key_);
    loaded_ = read_pipeline_cache_file(path_, key_);
  } catch (...) {  // out of memory: run without the file
    path_.clear();
    loaded_.clear();
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = loaded_.size();
  info.pInitialData = loaded_.data();
  if (vkCreatePipelineCache(device_, &info, nullptr, &cache_) == VK_SUCCESS) return;
  // The driver refused the data after all: start empty.
  loaded_.clear();
  info.initialDataSize = 0;
  info.pInitialData = nullptr;
  if (vkCreatePipelineCache(device_, &info, nullptr, &cache_) != VK_SUCCESS) cache_ = VK_NULL_HANDLE;
}

void PipelineCacheFile::save(bool pipelines_built) noexcept {
  if (!cache_ || path_.empty() || !pipelines_built) return;
  try {
    std::size_t size = 0;
    if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
    std::vector<std::byte> data(size);
    if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) != VK_SUCCESS) return;
    data.resize(size);
    // A run that only used pipelines the file already held leaves it as it is.
    if (data == loaded_ || !driver_header_matches(data, key_)) return;
    write_pipeline_cache_file(path_, key_, data);
  } catch (...) {  // out of memory: the file stays as it was
  }
}

void PipelineCacheFile::close() noexcept {
  if (cache_) vkDestroyPipelineCache(device_, cache_, nullptr);
  cache_ = VK_NULL_HANDLE;
}

}  // namespace vkc::detail
