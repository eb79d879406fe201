// N-body: initial conditions, simulations on a context's device, diagnostics and frames.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "capi/errors.hpp"
#include "capi/handles.hpp"

namespace vkc::capi {
namespace {

namespace nb = vkc::nbody;

static_assert(VKC_IC_PLUMMER == int(nb::InitialConditions::plummer) && VKC_IC_CUBE == int(nb::InitialConditions::cube) &&
              VKC_IC_COLLISION == int(nb::InitialConditions::collision));

// nbody::Simulation's own bound; above it, and below 2, the count is a bad argument here.
constexpr std::uint64_t kMaxBodies = std::uint64_t{1} << 31;

void require_bodies(std::uint64_t bodies, std::uint64_t at_least) {
  if (bodies < at_least || bodies > kMaxBodies) {
    invalid("bodies is " + std::to_string(bodies) + " (" + std::to_string(at_least) + " to 2^31)");
  }
}

void require_config(float gravity, float softening) {
  require(std::isfinite(gravity) && gravity > 0, "gravity must be finite and > 0");
  require(std::isfinite(softening) && softening >= 1e-6f, "softening must be finite and >= 1e-6");
}

nb::State state_from(const float* positions, const float* velocities, std::uint64_t bodies, double time) {
  nb::State s;
  s.positions.assign(positions, positions + 4 * bodies);
  s.velocities.assign(velocities, velocities + 4 * bodies);
  s.time = time;
  return s;
}

// Runs `body` on a checked simulation; the body takes the context's lock for its device work.
template <class Body>
vkc_status on_simulation(const char* function, vkc_nbody* simulation, Body&& body) {
  return guarded(function, [&] {
    require_pointer(simulation, "simulation");
    body(*simulation);
  });
}

// The state, downloaded under the context's lock (the host work on it needs no lock).
nb::State current_state(vkc_nbody& n) {
  const auto held = lock(*n.owner);
  return n.simulation->state();
}

nb::View view_from(const vkc_nbody_view& v) {
  require(std::isfinite(v.extent) && v.extent > 0, "view->extent must be finite and > 0");
  nb::View view;
  view.centre_x = v.centre_x;
  view.centre_y = v.centre_y;
  view.extent = v.extent;
  view.body_radius = v.body_radius;
  view.white = v.white;
  return view;
}

vkc_nbody_view c_view(const nb::View& v) { return {v.centre_x, v.centre_y, v.extent, v.body_radius, v.white}; }

void copy3(double (&to)[3], const std::array<double, 3>& from) { std::memcpy(to, from.data(), sizeof to); }

}  // namespace
}  // namespace vkc::capi

using namespace vkc::capi;
namespace nb = vkc::nbody;

extern "C" {

vkc_status vkc_nbody_initial_conditions(vkc_initial_conditions kind, uint64_t bodies, uint64_t seed, float* positions,
                                        float* velocities) {
  return guarded("vkc_nbody_initial_conditions", [&] {
    require_enum(static_cast<int>(kind), VKC_IC_PLUMMER, VKC_IC_COLLISION, "initial conditions");
    require_bodies(bodies, kind == VKC_IC_COLLISION ? 4 : 2);
    require_pointer(positions, "positions");
    require_pointer(velocities, "velocities");
    const nb::State s = nb::make_initial_conditions(static_cast<nb::InitialConditions>(static_cast<int>(kind)),
                                                    bodies, seed);
    std::memcpy(positions, s.positions.data(), s.positions.size() * sizeof(float));
    std::memcpy(velocities, s.velocities.data(), s.velocities.size() * sizeof(float));
  });
}

vkc_status vkc_nbody_create(vkc_context* context, const float* positions, const float* velocities, uint64_t bodies,
                            float gravity, float softening, vkc_nbody** simulation) {
  return guarded("vkc_nbody_create", [&] {
    require_pointer(simulation, "simulation");
    *simulation = nullptr;
    require_pointer(context, "context");
    require_pointer(positions, "positions");
    require_pointer(velocities, "velocities");
    require_bodies(bodies, 2);
    require_config(gravity, softening);
    auto made = std::make_unique<vkc_nbody>();
    made->owner = context;
    made->config.gravity = gravity;
    made->config.softening = softening;
    const nb::State initial = state_from(positions, velocities, bodies, 0);
    const auto held = lock(*context);
    made->simulation = context->devices
                           ? std::make_unique<nb::Simulation>(*context->devices, initial, made->config)
                           : std::make_unique<nb::Simulation>(context->context, initial, made->config);
    *simulation = made.release();
  });
}

void vkc_nbody_destroy(vkc_nbody* simulation) {
  if (!simulation) return;
  const auto held = lock(*simulation->owner);
  delete simulation;
}

vkc_status vkc_nbody_step(vkc_nbody* simulation, float dt, uint32_t steps) {
  return on_simulation("vkc_nbody_step", simulation, [&](vkc_nbody& n) {
    require(std::isfinite(dt) && dt > 0, "dt must be finite and > 0");
    const auto held = lock(*n.owner);
    n.simulation->step(dt, steps);
  });
}

vkc_status vkc_nbody_get_state(vkc_nbody* simulation, float* positions, float* velocities, double* time) {
  return on_simulation("vkc_nbody_get_state", simulation, [&](vkc_nbody& n) {
    const nb::State s = current_state(n);
    if (positions) std::memcpy(positions, s.positions.data(), s.positions.size() * sizeof(float));
    if (velocities) std::memcpy(velocities, s.velocities.data(), s.velocities.size() * sizeof(float));
    if (time) *time = s.time;
  });
}

vkc_status vkc_nbody_set_state(vkc_nbody* simulation, const float* positions, const float* velocities) {
  return on_simulation("vkc_nbody_set_state", simulation, [&](vkc_nbody& n) {
    require_pointer(positions, "positions");
    require_pointer(velocities, "velocities");
    const auto held = lock(*n.owner);
    n.simulation->set_state(state_from(positions, velocities, n.simulation->size(), n.simulation->time()));
  });
}

vkc_status vkc_nbody_diagnose(vkc_nbody* simulation, vkc_nbody_diagnostics* diagnostics) {
  return on_simulation("vkc_nbody_diagnose", simulation, [&](vkc_nbody& n) {
    require_pointer(diagnostics, "diagnostics");
    const nb::Diagnostics d = nb::diagnose(current_state(n), n.config);
    vkc_nbody_diagnostics c{};
    c.mass = d.mass;
    c.kinetic = d.kinetic;
    c.potential = d.potential;
    c.energy = d.energy;
    copy3(c.momentum, d.momentum);
    copy3(c.angular_momentum, d.angular_momentum);
    copy3(c.centre_of_mass, d.centre_of_mass);
    *diagnostics = c;
  });
}

vkc_status vkc_nbody_fit_view(vkc_nbody* simulation, vkc_nbody_view* view) {
  return on_simulation("vkc_nbody_fit_view", simulation, [&](vkc_nbody& n) {
    require_pointer(view, "view");
    *view = c_view(nb::fit_view(current_state(n)));
  });
}

vkc_status vkc_nbody_render(vkc_nbody* simulation, uint32_t width, uint32_t height, const vkc_nbody_view* view,
                            uint8_t* rgba) {
  return on_simulation("vkc_nbody_render", simulation, [&](vkc_nbody& n) {
    require(width >= 1 && width <= 16384 && height >= 1 && height <= 16384,
            "width and height must be 1 to 16384 pixels");
    require_pointer(rgba, "rgba");
    const nb::View chosen = view ? view_from(*view) : nb::fit_view(current_state(n));
    const auto held = lock(*n.owner);
    if (!n.renderer || n.renderer->width() != width || n.renderer->height() != height) {
      n.renderer.reset();  // its memory first: the new one may need it
      n.renderer = std::make_unique<nb::Renderer>(n.owner->context, width, height);
    }
    const std::vector<std::uint8_t> pixels = n.renderer->render(*n.simulation, chosen);
    std::memcpy(rgba, pixels.data(), pixels.size());
  });
}

}  // extern "C"
