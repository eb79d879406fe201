// vkc::DeviceSet: several devices driven together from one process, a Context each (its own
// queues, staging memory, pipelines and reused buffers). The same device may be opened more than
// once, each time as a Context of its own: that is how the multi-device paths run on one GPU or
// on lavapipe. The sorts over a DeviceSet are in sort.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "vkc/context.hpp"

namespace vkc {

/// The devices a DeviceSet opens, as positions in `devices` (the list enumerate_devices()
/// returns), in the order given:
/// - "all": every device of the kind that choose_device prefers among those present (every
///   discrete GPU if there is one; else every integrated GPU; and so on, CPU devices last);
/// - a comma-separated list of what ContextOptions::device takes ("0,2", "H200,1"); an item may
///   repeat ("0,0,0" opens device 0 three times);
/// - empty: the VKC_DEVICES environment variable, and when that is unset or empty too, the one
///   device that choose_device picks.
/// Throws Error for an empty item or one that matches no device.
std::vector<std::uint32_t> choose_devices(const std::vector<DeviceInfo>& devices, std::string_view wanted = {});

class DeviceSet {
 public:
  /// Opens the devices that choose_devices(enumerate_devices(), devices) lists, each with
  /// `options` (its `device` field is ignored).
  explicit DeviceSet(std::string_view devices = {}, const ContextOptions& options = {});
  DeviceSet(DeviceSet&&) noexcept;
  DeviceSet& operator=(DeviceSet&&) noexcept;
  ~DeviceSet();

  std::size_t size() const { return contexts_.size(); }
  /// The i-th device's Context (i < size()). A Context is not thread-safe: the multi-device
  /// functions drive each from a thread of its own.
  Context& operator[](std::size_t i) { return *contexts_.at(i); }

 private:
  std::vector<std::unique_ptr<Context>> contexts_;
};

}  // namespace vkc
