// Buffers and their memory on one device: allocation, memory types, the host-written constants.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>

#include "core/check.hpp"
#include "core/loader.hpp"
#include "core/access.hpp"
#include "core/device.hpp"

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

}  // namespace

namespace detail {

void allocate_buffer(const Device& s, std::uint64_t bytes, VkBufferUsageFlags usage,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, bool shared, VkBuffer& buffer,
                     VkDeviceMemory& memory) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<std::uint64_t>(bytes, 16);
  info.usage = usage;
  // Buffers that both the compute and a transfer-only queue family touch are shared by both
  // (no ownership transfers to record).
  const bool concurrent = shared && s.buffer_families.size() > 1;
  info.sharingMode = concurrent ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE;
  info.queueFamilyIndexCount = concurrent ? static_cast<std::uint32_t>(s.buffer_families.size()) : 0;
  info.pQueueFamilyIndices = concurrent ? s.buffer_families.data() : nullptr;
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

std::uint32_t Device::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                                  VkMemoryPropertyFlags preferred) const {
  for (const VkMemoryPropertyFlags want : {required | preferred, required}) {
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) return i;
    }
  }
  throw Error("'" + info.name + "' has no memory type with the needed properties");
}

void check_buffer_range(const Buffer& b, std::uint64_t offset, std::uint64_t bytes, const char* what) {
  if (offset > b.bytes() || bytes > b.bytes() - offset) {
    throw Error(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " does not fit a buffer of " + std::to_string(b.bytes()) + " bytes");
  }
}

std::uint64_t largest_buffer_bytes(const DeviceInfo& info) {
  return std::min<std::uint64_t>(info.max_storage_buffer_range,
                                 info.max_allocation_bytes ? info.max_allocation_bytes : ~0ull);
}

}  // namespace detail

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

namespace detail {

Buffer create_device_buffer(const Device& s, std::uint64_t bytes) {
  check_buffer_size(s.info, bytes);
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  allocate_buffer(s, bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, true, buffer, memory);
  return ContextAccess::make_buffer(s.device, buffer, memory, bytes);
}

Buffer create_host_written_buffer(const Device& s, const void* data, std::uint64_t bytes,
                                  VkMemoryPropertyFlags required) {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  allocate_buffer(s, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, required | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0, true, buffer, memory);
  Buffer b = ContextAccess::make_buffer(s.device, buffer, memory, bytes);
  void* mapped = nullptr;
  check(vkMapMemory(s.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory", s.info.name);
  std::memcpy(mapped, data, bytes);
  vkUnmapMemory(s.device, memory);
  return b;
}

}  // namespace detail

}  // namespace vkc
