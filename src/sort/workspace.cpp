#include "sort/workspace.hpp"

#include <algorithm>
#include <string>

namespace vkc::sorting {
namespace {

std::string bytes_text(std::uint64_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

}  // namespace

SortWorkspace::SortWorkspace(Context& ctx)
    : ctx_(ctx), sorter_(SorterAccess::over(detail::compute_device(ctx))) {}

SortDevice SortWorkspace::target() const { return SorterAccess::target(sorter_); }

std::uint64_t SortWorkspace::held_bytes() const {
  std::uint64_t bytes = 0;
  for (const Buffer& b : reusable_) bytes += b.bytes();
  return bytes;
}

const std::vector<Buffer>& SortWorkspace::reusable_buffers(std::span<const std::uint64_t> bytes) {
  detail::ContextState& s = detail::state_of(ctx_);
  const DeviceInfo& info = s.info();
  last_request_.assign(bytes.begin(), bytes.end());
  std::vector<Buffer>& reusable = reusable_;
  if (reusable.size() < bytes.size()) reusable.resize(bytes.size());
  const std::uint64_t limit = s.device_memory_limit();
  const std::uint64_t per_buffer = detail::largest_buffer_bytes(info);
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
    s.release_cached_memory();
    reusable.resize(bytes.size());
  }
  try {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (!missing(i)) continue;
      reusable[i] = Buffer();
      reusable[i] = detail::create_device_buffer(s.device(), exact ? bytes[i] : grown(i));
    }
  } catch (const Error&) {
    // Memory held for the other buffers' slack and for staging may be what is missing: free it
    // all, and allocate each buffer at its size once more.
    s.release_cached_memory();
    reusable.resize(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i]) reusable[i] = detail::create_device_buffer(s.device(), bytes[i]);
    }
  }
  return reusable;
}

SortWorkspace& workspace(Context& ctx) { return detail::attachment<SortWorkspace>(ctx); }

}  // namespace vkc::sorting
