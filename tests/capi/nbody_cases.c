/* N-body through the C ABI: initial conditions, a few steps, diagnostics checked against this
 * file's own fp64 sums over get_state's arrays, frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

enum { BODIES = 256 };
static const float gravity = 1.0f, softening = 0.05f;

/* Kinetic and potential energy, momentum and mass of a state, in fp64 (nbody.hpp's formulas). */
typedef struct {
  double mass, kinetic, potential, momentum[3];
} Sums;

static Sums sums_of(const float* positions, const float* velocities, size_t n) {
  Sums s = {0, 0, 0, {0, 0, 0}};
  const double eps2 = (double)softening * softening;
  for (size_t i = 0; i < n; ++i) {
    const double m = positions[4 * i + 3];
    s.mass += m;
    double v2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double v = velocities[4 * i + k];
      v2 += v * v;
      s.momentum[k] += m * v;
    }
    s.kinetic += 0.5 * m * v2;
    for (size_t j = i + 1; j < n; ++j) {
      double r2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = (double)positions[4 * j + k] - positions[4 * i + k];
        r2 += d * d;
      }
      s.potential -= gravity * m * positions[4 * j + 3] / sqrt(r2 + eps2);
    }
  }
  return s;
}

static int close_to(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

/* The library's diagnostics against the sums of the state it hands back. */
static void check_diagnostics(vkc_nbody* simulation, const float* positions, const float* velocities,
                              vkc_nbody_diagnostics* d) {
  CHECK_OK(vkc_nbody_diagnose(simulation, d));
  const Sums s = sums_of(positions, velocities, BODIES);
  CHECK(close_to(d->mass, s.mass, 1e-9));
  CHECK(close_to(d->kinetic, s.kinetic, 1e-9 * fabs(s.kinetic)));
  CHECK(close_to(d->potential, s.potential, 1e-9 * fabs(s.potential)));
  CHECK(close_to(d->energy, d->kinetic + d->potential, 1e-12));
  for (int k = 0; k < 3; ++k) CHECK(close_to(d->momentum[k], s.momentum[k], 1e-9));
}

/* Lit pixels of a frame; every alpha must be opaque. */
static size_t lit_pixels(const uint8_t* rgba, size_t pixels) {
  size_t lit = 0;
  for (size_t p = 0; p < pixels; ++p) {
    CHECK(rgba[4 * p + 3] == 255);
    lit += rgba[4 * p] | rgba[4 * p + 1] | rgba[4 * p + 2] ? 1 : 0;
  }
  return lit;
}

static void check_frames(vkc_nbody* simulation) {
  uint8_t* frame = checked_malloc(64 * 64 * 4);
  CHECK_OK(vkc_nbody_render(simulation, 64, 64, NULL, frame));
  CHECK(lit_pixels(frame, 64 * 64) > 0);
  vkc_nbody_view view;
  CHECK_OK(vkc_nbody_fit_view(simulation, &view));
  CHECK(view.extent > 0 && isfinite(view.extent) && fabsf(view.centre_x) < 1 && fabsf(view.centre_y) < 1);
  /* Another size (the renderer is remade), an explicit view and exposure. */
  view.body_radius = 1;
  view.white = 4;
  uint8_t* other = checked_malloc(32 * 48 * 4);
  CHECK_OK(vkc_nbody_render(simulation, 32, 48, &view, other));
  CHECK(lit_pixels(other, 32 * 48) > 0);
  /* A view that frames nothing. */
  view.centre_x = 1000;
  CHECK_OK(vkc_nbody_render(simulation, 32, 48, &view, other));
  CHECK(lit_pixels(other, 32 * 48) == 0);
  free(frame);
  free(other);
}

void case_nbody(void) {
  vkc_context* context = test_context();
  float* initial = checked_malloc(2 * 4 * BODIES * sizeof(float));
  float* initial_velocities = initial + 4 * BODIES;
  float* positions = checked_malloc(2 * 4 * BODIES * sizeof(float));
  float* velocities = positions + 4 * BODIES;
  CHECK_OK(vkc_nbody_initial_conditions(VKC_IC_PLUMMER, BODIES, 7, initial, initial_velocities));
  CHECK_OK(vkc_nbody_initial_conditions(VKC_IC_PLUMMER, BODIES, 7, positions, velocities));
  CHECK(memcmp(initial, positions, 2 * 4 * BODIES * sizeof(float)) == 0); /* reproducible */
  CHECK_OK(vkc_nbody_initial_conditions(VKC_IC_COLLISION, BODIES, 7, positions, velocities));
  CHECK(memcmp(initial, positions, 4 * BODIES * sizeof(float)) != 0);

  vkc_nbody* simulation = NULL;
  CHECK_OK(vkc_nbody_create(context, initial, initial_velocities, BODIES, gravity, softening, &simulation));
  if (!simulation) return;
  vkc_nbody_diagnostics before, after;
  check_diagnostics(simulation, initial, initial_velocities, &before);
  CHECK(close_to(before.mass, 1.0, 1e-6)); /* N-body units */

  CHECK_OK(vkc_nbody_step(simulation, 0.001f, 10));
  double time = 0;
  CHECK_OK(vkc_nbody_get_state(simulation, positions, velocities, &time));
  CHECK(close_to(time, 0.01, 1e-6));
  CHECK(memcmp(initial, positions, 4 * BODIES * sizeof(float)) != 0); /* the bodies moved */
  check_diagnostics(simulation, positions, velocities, &after);
  CHECK(fabs(after.energy - before.energy) / fabs(before.energy) < 1e-5); /* 3e-8 measured */
  CHECK_OK(vkc_nbody_get_state(simulation, NULL, velocities, NULL)); /* either array may be left out */

  check_frames(simulation);

  /* Back to the start; the time goes on. */
  CHECK_OK(vkc_nbody_set_state(simulation, initial, initial_velocities));
  CHECK_OK(vkc_nbody_get_state(simulation, positions, velocities, &time));
  CHECK(memcmp(initial, positions, 2 * 4 * BODIES * sizeof(float)) == 0);
  CHECK(close_to(time, 0.01, 1e-6));
  vkc_nbody_destroy(simulation);
  free(initial);
  free(positions);
}
