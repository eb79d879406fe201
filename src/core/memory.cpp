// Device-local buffers, staging transfers and the shader copy.
#include <algorithm>
#include <cstring>
#include <utility>

#include "core/check.hpp"
#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "core/pipeline.hpp"
#include "core/state.hpp"

namespace vkc {
using namespace vk;

namespace {

std::string bytes_text(std::uint64_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

void check_buffer_size(const DeviceInfo& info, std::uint64_t bytes) {
  if (bytes > info.max_storage_buffer_range) {
    throw Error("cannot create a buffer of " + bytes_text(bytes) + " on '" + info.name +
                "': larger than its maxStorageBufferRange of " + bytes_text(info.max_storage_buffer_range));
  }
  if (info.max_allocation_bytes && bytes > info.max_allocation_bytes) {
    throw Error("cannot create a buffer of " + bytes_text(bytes) + " on '" + info.name +
                "': larger than its maxMemoryAllocationSize of " + bytes_text(info.max_allocation_bytes));
  }
  if (bytes > info.device_local_bytes()) {
    throw Error("cannot create a buffer of " + bytes_text(bytes) + " on '" + info.name +
                "': larger than its device-local memory of " + bytes_text(info.device_local_bytes()));
  }
}

// A buffer of `bytes` bound to fresh memory of the given properties; fills the raw handles.
void allocate(const detail::ContextState& s, std::uint64_t bytes, VkBufferUsageFlags usage,
              VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, VkBuffer& buffer, VkDeviceMemory& memory) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<std::uint64_t>(bytes, 16);
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(s.device, &info, nullptr, &buffer), "vkCreateBuffer", s.info.name);
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(s.device, buffer, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  try {
    alloc.memoryTypeIndex = s.memory_type(req.memoryTypeBits, required, preferred);
    check(vkAllocateMemory(s.device, &alloc, nullptr, &memory), "vkAllocateMemory(" + bytes_text(bytes) + ")",
          s.info.name);
  } catch (...) {
    vkDestroyBuffer(s.device, buffer, nullptr);
    buffer = VK_NULL_HANDLE;
    throw;
  }
  check(vkBindBufferMemory(s.device, buffer, memory, 0), "vkBindBufferMemory", s.info.name);
}

// A host-visible buffer for one transfer, mapped for its lifetime.
class Staging {
 public:
  Staging(const detail::ContextState& s, std::uint64_t bytes, bool for_download) : device_(s.device) {
    const VkMemoryPropertyFlags required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    // Reads by the host are far faster from cached memory.
    const VkMemoryPropertyFlags preferred = for_download ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0;
    allocate(s, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, required, preferred,
             buffer_, memory_);
    check(vkMapMemory(s.device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory", s.info.name);
  }
  ~Staging() {
    vkUnmapMemory(device_, memory_);
    vkDestroyBuffer(device_, buffer_, nullptr);
    vkFreeMemory(device_, memory_, nullptr);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  VkBuffer buffer() const { return buffer_; }
  void* data() const { return mapped_; }

 private:
  VkDevice device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
};

void check_range(const Buffer& b, std::uint64_t offset, std::uint64_t bytes, const char* what) {
  if (offset > b.bytes() || bytes > b.bytes() - offset) {
    throw Error(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " does not fit a buffer of " + std::to_string(b.bytes()) + " bytes");
  }
}

}  // namespace

Buffer::Buffer(Buffer&& other) noexcept
    : device_(std::exchange(other.device_, VK_NULL_HANDLE)),
      buffer_(std::exchange(other.buffer_, VK_NULL_HANDLE)),
      memory_(std::exchange(other.memory_, VK_NULL_HANDLE)),
      bytes_(std::exchange(other.bytes_, 0)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

Buffer Context::create_buffer(std::uint64_t bytes) {
  const detail::ContextState& s = *state_;
  check_buffer_size(s.info, bytes);
  Buffer b;
  b.device_ = s.device;
  b.bytes_ = bytes;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  allocate(s, bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, b.buffer_, b.memory_);
  return b;
}

void Context::upload(const Buffer& dst, const void* src, std::uint64_t bytes, std::uint64_t dst_offset) {
  check_range(dst, dst_offset, bytes, "upload");
  if (bytes == 0) return;
  Staging staging(*state_, bytes, false);
  std::memcpy(staging.data(), src, bytes);
  run([&](Recorder& r) { r.copy_buffer(staging.buffer(), dst.handle(), {0, dst_offset, bytes}); });
}

void Context::download(const Buffer& src, void* dst, std::uint64_t bytes, std::uint64_t src_offset) {
  check_range(src, src_offset, bytes, "download");
  if (bytes == 0) return;
  Staging staging(*state_, bytes, true);
  run([&](Recorder& r) { r.copy_buffer(src.handle(), staging.buffer(), {src_offset, 0, bytes}); });
  std::memcpy(dst, staging.data(), bytes);
}

void Context::copy(const Buffer& src, const Buffer& dst, std::uint64_t bytes) {
  if (bytes % 4 != 0) throw Error("Context::copy needs a multiple of 4 bytes, got " + std::to_string(bytes));
  check_range(src, 0, bytes, "copy source");
  check_range(dst, 0, bytes, "copy destination");
  run([&](Recorder& r) { record_copy(*this, r, src.handle(), dst.handle(), bytes / 4); });
}

}  // namespace vkc
