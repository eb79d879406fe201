// PNG frames read back with stb_image for the n-body tests, and what a person would see in them.
#pragma once

// Static: each test program may include this in several files.
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <algorithm>
#include <filesystem>
#include <memory>

namespace vkc::test {

struct Image {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};

  /// The brightest channel of pixel (x, y), 0..255.
  int brightness(int x, int y) const {
    const unsigned char* p = pixels.get() + 4 * (y * width + x);
    return std::max({p[0], p[1], p[2]});
  }
  /// The brightest channel of the image.
  int brightest() const {
    int top = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) top = std::max(top, brightness(x, y));
    return top;
  }
  /// The share of pixels a person sees lit on black: a channel at 32/255 or more.
  double lit_fraction() const {
    int lit = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) lit += brightness(x, y) >= 32;
    return double(lit) / (double(width) * height);
  }
};

/// The PNG at `path` as RGBA8; `pixels` is null when it does not decode (stbi_failure_reason()).
inline Image decode(const std::filesystem::path& path) {
  Image im;
  int channels = 0;
  im.pixels.reset(stbi_load(path.c_str(), &im.width, &im.height, &channels, 4));
  return im;
}

}  // namespace vkc::test
