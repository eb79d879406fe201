// A Context's buffers and host transfers, and the memory it keeps between calls.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>

#include "core/state.hpp"

namespace vkc {
namespace detail {

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

detail::TransferEngine& Context::State::transfers() {
  if (!transfers_) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    // 8 lanes of two 4 MiB buffers: the best of 8 and 16 lanes, 1, 2 and 4 MiB on an H200
    // (docs/perf-notes.md#host-path); a CPU device's "copies" are memcpys that want small pieces.
    const unsigned threads = host_transfer.threads ? host_transfer.threads : std::min(8u, cores);
    const std::uint64_t default_chunk = info().is_software() ? (1u << 20) : (4u << 20);
    const std::uint64_t chunk = host_transfer.chunk_bytes ? host_transfer.chunk_bytes : default_chunk;
    transfers_ = std::make_unique<detail::TransferEngine>(device(), transfer_queue(), threads, chunk);
  }
  return *transfers_;
}

std::uint64_t Context::State::device_memory_limit() const {
  return memory_limit ? memory_limit : info().device_local_bytes() / 10 * 9;
}

void Context::State::release_cached_memory() {
  if (transfers_) transfers_->release_staging();
  for (auto& [type, attachment] : attachments) attachment->release_cached_memory();
}

Buffer Context::create_buffer(std::uint64_t bytes) { return detail::create_device_buffer(state_->device(), bytes); }

PinnedBlocks& Context::State::pinned_blocks() {
  if (!pinned) pinned = std::make_shared<PinnedBlocks>(device());
  return *pinned;
}

PinnedMemory Context::allocate_pinned(std::uint64_t bytes) {
  PinnedBlocks& blocks = state_->pinned_blocks();
  void* data = blocks.allocate(bytes);
  return PinnedMemory(state_->pinned, data, bytes);
}

PinnedMemory::PinnedMemory(PinnedMemory&& other) noexcept
    : owner_(std::move(other.owner_)), data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PinnedMemory& PinnedMemory::operator=(PinnedMemory&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

PinnedMemory::~PinnedMemory() { release(); }

void PinnedMemory::release() noexcept {
  if (owner_ && data_) owner_->free(data_);
  owner_.reset();
  data_ = nullptr;
  bytes_ = 0;
}

void Context::upload(const Buffer& dst, const void* src, std::uint64_t bytes, std::uint64_t dst_offset) {
  detail::check_buffer_range(dst, dst_offset, bytes, "upload");
  if (bytes == 0) return;
  detail::TransferEngine& engine = state_->transfers();
  const detail::UploadPart part{detail::read_memory(src), dst.handle(), dst_offset, bytes};
  state_->uploaded = engine.upload({&part, 1});
  engine.queue().wait(state_->uploaded);
}

void Context::download(const Buffer& src, void* dst, std::uint64_t bytes, std::uint64_t src_offset) {
  detail::check_buffer_range(src, src_offset, bytes, "download");
  if (bytes == 0) return;
  const detail::DownloadPart part{src.handle(), src_offset, bytes, detail::write_memory(dst)};
  state_->transfers().download({&part, 1}, state_->compute->last());
}

void Context::release_cached_memory() { state_->release_cached_memory(); }

HostTransferStats Context::host_transfer_stats() const {
  const State& s = *state_;
  HostTransferStats stats;
  if (s.transfers_) {
    stats.staged_bytes = s.transfers_->staged_bytes();
    stats.imported_bytes = s.transfers_->imported_bytes();
    stats.staging_bytes = s.transfers_->staging_bytes_held();
  }
  for (const auto& [type, attachment] : s.attachments) stats.reusable_bytes += attachment->held_bytes();
  return stats;
}

}  // namespace vkc
