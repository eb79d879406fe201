// The SPIR-V of every shader under shaders/, compiled and embedded at build time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace vkc::shaders {
/// Words of the shader named by its path under shaders/ without ".comp" ("core/copy").
/// Throws Error for an unknown name.
std::span<const std::uint32_t> spirv(std::string_view name);
std::vector<std::string_view> names();
}  // namespace vkc::shaders
