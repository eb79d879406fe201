// Headless frames: splat and tone-map on the GPU, then PNG encoding written atomically.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "vkc/nbody.hpp"

// splat.comp's and tone_map.comp's specialization-constant ids (macros only).
#include "nbody_layout.h"

namespace vkc::nbody {
namespace {

struct SplatPush {
  std::uint32_t n, width, height;
  float centre_x, centre_y, pixels_per_unit;
  std::int32_t radius;
};
struct ToneMapPush {
  std::uint32_t pixels;
  float white;
};

// View::body_radius: bodies spread evenly would each have a square of pixels / n pixels; a
// disc a quarter of its side fills a frame without blurring a crowded one.
std::int32_t body_radius(const View& view, std::size_t n, std::uint32_t pixels) {
  if (view.body_radius >= 0) return view.body_radius;
  return static_cast<std::int32_t>(std::min(8.0, std::floor(std::sqrt(double(pixels) / double(n)) / 4)));
}

// View::white when 0: the 99th percentile of the lit pixels' counts (1 when none is lit).
float white_point(std::vector<std::uint32_t> counts) {
  const auto lit_end = std::partition(counts.begin(), counts.end(), [](std::uint32_t c) { return c > 0; });
  const auto lit = lit_end - counts.begin();
  if (lit == 0) return 1.0f;
  const auto rank = static_cast<std::ptrdiff_t>(std::ceil(0.99 * double(lit)));  // the nearest-rank percentile
  const auto at = counts.begin() + rank - 1;
  std::nth_element(counts.begin(), at, lit_end);
  return float(*at);
}

}  // namespace

struct Renderer::Impl {
  Context& ctx;
  std::uint32_t width, height;
  Buffer counts, pixels;

  Impl(Context& c, std::uint32_t w, std::uint32_t h)
      : ctx(c), width(w), height(h), counts(c.create_buffer(4ull * w * h)), pixels(c.create_buffer(4ull * w * h)) {}

  const Pipeline& stage(const shaders::Shader& shader, std::uint32_t push_bytes) const {
    std::vector<std::uint32_t> c(NBODY_STREAMING_CONSTANTS);
    c[NBODY_SC_WORKGROUP] = streaming_workgroup_size(ctx.info());
    return pipeline(ctx, {.shader = shader,
                          .specialization = std::move(c),
                          .bindings = 2,
                          .push_bytes = push_bytes});
  }
};

Renderer::Renderer(Context& ctx, std::uint32_t width, std::uint32_t height) {
  if (width == 0 || height == 0 || width > 16384 || height > 16384) {
    throw Error("nbody: frame size must be 1..16384 pixels a side");
  }
  impl_ = std::make_unique<Impl>(ctx, width, height);
}

Renderer::~Renderer() = default;
Renderer::Renderer(Renderer&&) noexcept = default;
std::uint32_t Renderer::width() const { return impl_->width; }
std::uint32_t Renderer::height() const { return impl_->height; }

std::vector<std::uint8_t> Renderer::render(const Simulation& sim, const View& view) {
  Impl& m = *impl_;
  if (&sim.context() != &m.ctx) throw Error("nbody: render needs a Renderer on the simulation's (first) device");
  const std::uint32_t pixels = m.width * m.height;
  const std::uint32_t wg = streaming_workgroup_size(m.ctx.info());
  const SplatPush splat{static_cast<std::uint32_t>(sim.size()), m.width, m.height, view.centre_x, view.centre_y,
                        0.5f * float(std::min(m.width, m.height)) / view.extent, body_radius(view, sim.size(), pixels)};
  m.ctx.run([&](Recorder& r) {
    r.fill_buffer(m.counts.handle(), 0, VK_WHOLE_SIZE, 0);
    r.dispatch(m.stage(shaders::nbody_splat, sizeof splat), {reads(sim.positions()), updates(m.counts)}, splat,
               groups_for(sim.size(), wg));
    r.finish_for_host();
  });
  float white = view.white;
  if (!(white > 0)) {
    std::vector<std::uint32_t> counts(pixels);
    m.ctx.download(m.counts, counts.data(), 4ull * pixels);
    white = white_point(std::move(counts));
  }
  const ToneMapPush tone{pixels, white};
  m.ctx.run([&](Recorder& r) {
    r.dispatch(m.stage(shaders::nbody_tone_map, sizeof tone), {reads(m.counts), writes(m.pixels)}, tone, groups_for(pixels, wg));
    r.finish_for_host();
  });
  std::vector<std::uint8_t> rgba(4ull * pixels);
  m.ctx.download(m.pixels, rgba.data(), rgba.size());
  return rgba;
}

View fit_view(const State& s) {
  double m = 0, cx = 0, cy = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double mi = s.positions[4 * i + 3];
    m += mi, cx += mi * s.positions[4 * i], cy += mi * s.positions[4 * i + 1];
  }
  if (m > 0) cx /= m, cy /= m;
  std::vector<double> d(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) d[i] = std::hypot(s.positions[4 * i] - cx, s.positions[4 * i + 1] - cy);
  const auto at = d.begin() + static_cast<std::ptrdiff_t>(0.9 * double(d.size() - 1));
  std::nth_element(d.begin(), at, d.end());
  View v;
  v.centre_x = float(cx), v.centre_y = float(cy);
  v.extent = float(std::max(1.5 * *at, 1e-3));
  return v;
}

void write_png(const std::filesystem::path& path, const std::vector<std::uint8_t>& rgba, std::uint32_t width,
               std::uint32_t height) {
  if (rgba.size() != 4ull * width * height) throw Error("write_png: pixel count does not match the size");
  std::vector<std::byte> encoded;
  auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::byte>*>(context);
    const auto* bytes = static_cast<const std::byte*>(data);
    out->insert(out->end(), bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &encoded, int(width), int(height), 4, rgba.data(), int(4 * width))) {
    throw io::FormatError(path.string() + ": PNG encoding failed");
  }
  io::AtomicFile file(path);
  file.write(encoded);
  file.commit();
}

}  // namespace vkc::nbody
