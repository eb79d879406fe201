// Device-local buffers, staging transfers and the shader copy.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <span>
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

void check_range(const Buffer& b, std::uint64_t offset, std::uint64_t bytes, const char* what) {
  if (offset > b.bytes() || bytes > b.bytes() - offset) {
    throw Error(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " does not fit a buffer of " + std::to_string(b.bytes()) + " bytes");
  }
}

}  // namespace

namespace detail {

void allocate_buffer(const ContextState& s, std::uint64_t bytes, VkBufferUsageFlags usage,
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

std::uint64_t ContextState::device_memory_limit() const {
  return memory_limit ? memory_limit : info.device_local_bytes() / 10 * 9;
}

const std::vector<Buffer>& ContextState::reusable_buffers(std::span<const std::uint64_t> bytes) {
  if (reusable.size() < bytes.size()) reusable.resize(bytes.size());
  const std::uint64_t limit = device_memory_limit();
  const std::uint64_t per_buffer = largest_buffer_bytes(info);
  const auto missing = [&](std::size_t i) { return bytes[i] && !(reusable[i] && reusable[i].bytes() >= bytes[i]); };
  // A quarter past the request, so that growing sizes reallocate rarely.
  const auto grown = [&](std::size_t i) { return std::max(bytes[i], std::min(bytes[i] + bytes[i] / 4, per_buffer)); };
  std::uint64_t exact_total = 0, total = 0;
  for (std::size_t i = 0; i < reusable.size(); ++i) {
    if (i < bytes.size()) exact_total += bytes[i];
    total += i < bytes.size() && missing(i) ? grown(i) : reusable[i].bytes();
  }
  if (exact_total > limit) {
    throw Error("a sort needing " + bytes_text(exact_total) + " of device memory on '" + info.name +
                "' passes the device memory limit of " + bytes_text(limit));
  }
  // Over the limit with the slack and the buffers kept: start afresh at the exact sizes.
  const bool exact = total > limit;
  if (exact) {
    release_cached_memory();
    reusable.resize(bytes.size());
  }
  try {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (!missing(i)) continue;
      reusable[i] = Buffer();
      reusable[i] = create_device_buffer(*this, exact ? bytes[i] : grown(i));
    }
  } catch (const Error&) {
    // Memory held for the other buffers' slack and for staging may be what is missing: free it
    // all, and allocate each buffer at its size once more.
    release_cached_memory();
    reusable.resize(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i]) reusable[i] = create_device_buffer(*this, bytes[i]);
    }
  }
  return reusable;
}

std::uint64_t largest_buffer_bytes(const DeviceInfo& info) {
  return std::min<std::uint64_t>(info.max_storage_buffer_range,
                                 info.max_allocation_bytes ? info.max_allocation_bytes : ~0ull);
}

std::uint64_t resolve_memory_limit(std::uint64_t option) {
  if (option) return option;
  const char* text = std::getenv("VKC_DEVICE_MEMORY_LIMIT");
  if (!text || !*text) return 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long long number = std::strtoull(text, &end, 10);
  const std::string suffix = end;
  static const std::string units = "KMGT";
  const auto unit = suffix.size() == 1 ? units.find(static_cast<char>(std::toupper(suffix[0]))) : std::string::npos;
  const unsigned shift = unit == std::string::npos ? 0 : 10 * static_cast<unsigned>(unit + 1);
  if (!std::isdigit(static_cast<unsigned char>(text[0])) || errno || !(suffix.empty() || unit != std::string::npos) || number == 0 ||
      number > (~0ull >> shift)) {
    throw Error(std::string("VKC_DEVICE_MEMORY_LIMIT='") + text +
                "' is not a size (a positive number of bytes, or one with a K, M, G or T suffix)");
  }
  return number << shift;
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

Buffer detail::create_device_buffer(const ContextState& s, std::uint64_t bytes) {
  check_buffer_size(s.info, bytes);
  Buffer b;
  b.device_ = s.device;
  b.bytes_ = bytes;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  detail::allocate_buffer(s, bytes, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, true, b.buffer_, b.memory_);
  return b;
}

Buffer Context::create_buffer(std::uint64_t bytes) { return detail::create_device_buffer(*state_, bytes); }

void Context::upload(const Buffer& dst, const void* src, std::uint64_t bytes, std::uint64_t dst_offset) {
  check_range(dst, dst_offset, bytes, "upload");
  if (bytes == 0) return;
  detail::TransferEngine& engine = state_->transfers();
  const detail::UploadPart part{detail::read_memory(src), dst.handle(), dst_offset, bytes};
  state_->uploaded = engine.upload({&part, 1});
  engine.queue().wait(state_->uploaded);
}

void Context::download(const Buffer& src, void* dst, std::uint64_t bytes, std::uint64_t src_offset) {
  check_range(src, src_offset, bytes, "download");
  if (bytes == 0) return;
  const detail::DownloadPart part{src.handle(), src_offset, bytes, detail::write_memory(dst)};
  state_->transfers().download({&part, 1}, state_->compute->last());
}

void Context::copy(const Buffer& src, const Buffer& dst, std::uint64_t bytes) {
  run([&](Recorder& r) { record_copy(r, src, dst, bytes); });
}

void Context::record_copy(Recorder& r, const Buffer& src, const Buffer& dst, std::uint64_t bytes) {
  if (bytes % 4 != 0) throw Error("Context::copy needs a multiple of 4 bytes, got " + std::to_string(bytes));
  check_range(src, 0, bytes, "copy source");
  check_range(dst, 0, bytes, "copy destination");
  vkc::record_copy(*this, r, src.handle(), dst.handle(), bytes / 4);
}

}  // namespace vkc
