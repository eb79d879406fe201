"""vkcompute.nbody against fp64 NumPy computations from the state it returns."""

import numpy as np
import pytest

from vkcompute import nbody
import vkcompute


def _diagnostics(pos, vel, gravity, softening):
    """Mass, kinetic and potential energy, momentum and centre of mass in fp64 NumPy."""
    x = pos[:, :3].astype(np.float64)
    m = pos[:, 3].astype(np.float64)
    v = vel[:, :3].astype(np.float64)
    kinetic = 0.5 * np.sum(m * np.sum(v * v, axis=1))
    d = x[:, None, :] - x[None, :, :]
    r = np.sqrt(np.sum(d * d, axis=2) + softening * softening)
    i, j = np.triu_indices(len(m), 1)
    potential = -gravity * np.sum(m[i] * m[j] / r[i, j])
    momentum = np.sum(m[:, None] * v, axis=0)
    angular = np.sum(m[:, None] * np.cross(x, v), axis=0)
    return m.sum(), kinetic, potential, momentum, angular, np.sum(m[:, None] * x, axis=0) / m.sum()


@pytest.mark.parametrize("kind", ["plummer", "cube", "collision"])
def test_initial_conditions_are_reproducible_bodies_in_nbody_units(kind):
    pos, vel = nbody.initial_conditions(kind, 300, seed=7)
    assert pos.shape == vel.shape == (300, 4) and pos.dtype == vel.dtype == np.float32
    again = nbody.initial_conditions(kind, 300, seed=7)
    np.testing.assert_array_equal(pos, again[0])
    np.testing.assert_array_equal(vel, again[1])
    assert not np.array_equal(pos, nbody.initial_conditions(kind, 300, seed=8)[0])
    assert np.all(np.isfinite(pos)) and np.all(pos[:, 3] >= 0)
    mass, _, _, momentum, _, _ = _diagnostics(pos, vel, 1.0, 0.01)
    assert mass == pytest.approx(1.0, rel=1e-5)
    np.testing.assert_allclose(momentum, 0, atol=1e-5)


def test_bad_initial_conditions_raise_value_error():
    with pytest.raises(ValueError):
        nbody.initial_conditions("galaxy", 100)
    with pytest.raises(ValueError):
        nbody.initial_conditions("plummer", 1)
    with pytest.raises(ValueError):
        nbody.initial_conditions("collision", 3)


def test_diagnostics_match_fp64_numpy_from_the_state():
    pos, vel = nbody.initial_conditions("plummer", 512, seed=3)
    with nbody.Simulation(pos, vel, gravity=1.0, softening=0.05) as sim:
        sim.step(0.005, steps=10)
        p, v, t = sim.state()
        assert t == pytest.approx(0.05, rel=1e-6)
        d = sim.diagnostics()
    mass, kinetic, potential, momentum, angular, com = _diagnostics(p, v, 1.0, 0.05)
    assert d.mass == pytest.approx(mass, rel=1e-12)
    assert d.kinetic == pytest.approx(kinetic, rel=1e-9)
    assert d.potential == pytest.approx(potential, rel=1e-9)
    assert d.energy == pytest.approx(kinetic + potential, rel=1e-9)
    np.testing.assert_allclose(d.momentum, momentum, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(d.angular_momentum, angular, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(d.centre_of_mass, com, rtol=1e-9, atol=1e-12)


def test_leapfrog_conserves_energy_and_momentum():
    pos, vel = nbody.initial_conditions("plummer", 1024, seed=1)
    sim = nbody.Simulation(pos, vel, softening=0.05)
    _, k0, w0, p0, _, _ = _diagnostics(pos, vel, 1.0, 0.05)
    e0 = k0 + w0
    sim.step(0.01, steps=50)
    p, v, t = sim.state()
    _, k, w, momentum, _, _ = _diagnostics(p, v, 1.0, 0.05)
    assert t == pytest.approx(0.5, rel=1e-6)
    assert abs((k + w - e0) / e0) < 1e-3
    np.testing.assert_allclose(momentum, p0, atol=1e-5)
    assert not np.array_equal(p, pos)  # it moved
    sim.close()


def test_one_step_matches_a_numpy_leapfrog():
    pos, vel = nbody.initial_conditions("cube", 64, seed=2)
    dt, eps, g = 0.01, 0.1, 0.5

    def accel(x, m):
        d = x[None, :, :] - x[:, None, :]  # x_j - x_i
        r2 = np.sum(d * d, axis=2) + eps * eps
        return g * np.sum(m[None, :, None] * d / r2[:, :, None] ** 1.5, axis=1)

    x = pos[:, :3].astype(np.float64)
    m = pos[:, 3].astype(np.float64)
    v = vel[:, :3].astype(np.float64)
    v = v + accel(x, m) * dt / 2
    x = x + v * dt
    v = v + accel(x, m) * dt / 2
    with nbody.Simulation(pos, vel, gravity=g, softening=eps) as sim:
        sim.step(dt)
        p, vv, _ = sim.state()
    np.testing.assert_allclose(p[:, :3], x, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(vv[:, :3], v, rtol=1e-3, atol=1e-5)
    np.testing.assert_array_equal(p[:, 3], pos[:, 3])


def test_set_state_replaces_the_state_and_keeps_the_time():
    pos, vel = nbody.initial_conditions("plummer", 128, seed=4)
    with nbody.Simulation(pos, vel) as sim:
        sim.step(0.01, steps=3)
        other_pos, other_vel = nbody.initial_conditions("cube", 128, seed=5)
        sim.set_state(other_pos, other_vel)
        p, v, t = sim.state()
        np.testing.assert_array_equal(p, other_pos)
        np.testing.assert_array_equal(v, other_vel)
        assert t == pytest.approx(0.03, rel=1e-6) and sim.time == t
        with pytest.raises(ValueError):
            sim.set_state(other_pos[:10], other_vel[:10])


def test_render_gives_an_rgba_frame_with_the_bodies_lit():
    pos, vel = nbody.initial_conditions("plummer", 2000, seed=6)
    with nbody.Simulation(pos, vel) as sim:
        view = sim.fit_view()
        assert view.extent > 0
        frame = sim.render(96, 64)
        assert frame.shape == (64, 96, 4) and frame.dtype == np.uint8
        lit = frame[:, :, :3].max(axis=2) > 0
        assert 0 < lit.sum() < lit.size
        # a view far from every body shows nothing
        empty = sim.render(32, 32, nbody.View(centre_x=1e4, centre_y=1e4, extent=1.0))
        assert not empty[:, :, :3].any()


def test_bad_simulation_arguments_raise_value_error():
    pos, vel = nbody.initial_conditions("plummer", 16, seed=1)
    with pytest.raises(ValueError):
        nbody.Simulation(pos[:, :3], vel)
    with pytest.raises(ValueError):
        nbody.Simulation(pos, vel[:8])
    with pytest.raises(ValueError):
        nbody.Simulation(pos, vel, softening=0)
    with nbody.Simulation(pos, vel) as sim:
        with pytest.raises(ValueError):
            sim.step(-0.1)
        with pytest.raises(ValueError):
            sim.render(0, 10)
    with pytest.raises(ValueError, match="closed"):
        sim.step(0.1)


def test_a_bad_state_the_library_checks_raises_error():
    pos, vel = nbody.initial_conditions("plummer", 16, seed=1)
    pos[3, 0] = np.nan
    with pytest.raises(vkcompute.Error, match="non-finite") as info:
        nbody.Simulation(pos, vel)
    assert info.value.status in (vkcompute.Status.INVALID_ARGUMENT, vkcompute.Status.FAILED)


def test_closing_the_context_closes_its_simulations():
    pos, vel = nbody.initial_conditions("plummer", 16, seed=1)
    ctx = vkcompute.Context(quiet=True)
    sim = nbody.Simulation(pos, vel, context=ctx)
    sim.step(0.01)
    ctx.close()
    with pytest.raises(ValueError, match="closed"):
        sim.state()
