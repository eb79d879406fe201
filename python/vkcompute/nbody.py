"""N-body simulation on the GPU: all-pairs gravity, kick-drift-kick leapfrog, Plummer softening,
fp64 diagnostics and frames rendered on the GPU (include/vkc/nbody.hpp, docs/nbody.md).

Bodies are rows of float32: positions (n, 4) = (x, y, z, mass), velocities (n, 4) =
(vx, vy, vz, 0). Units are N-body units by default (G = 1, total mass 1).

    from vkcompute import nbody
    pos, vel = nbody.initial_conditions("plummer", 4096, seed=1)
    with nbody.Simulation(pos, vel) as sim:
        sim.step(0.01, steps=100)
        print(sim.diagnostics().energy)
        frame = sim.render(512, 512)   # (512, 512, 4) uint8
"""

from __future__ import annotations

import dataclasses
import math
from ctypes import byref, c_double, c_void_p
from typing import Optional, Tuple

import numpy as np

from ._capi import NbodyDiagnosticsStruct, NbodyViewStruct, check, lib
from ._context import Context, Handle, default_context

__all__ = ["initial_conditions", "Simulation", "Diagnostics", "View", "INITIAL_CONDITIONS"]

#: The kinds of initial conditions the library generates (vkc_initial_conditions).
INITIAL_CONDITIONS = {"plummer": 0, "cube": 1, "collision": 2}


def _ptr(arr) -> int:
    return arr.__array_interface__["data"][0]


def _count(n, name="n") -> int:
    try:
        n = int(n.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"{name} must be an integer, not {type(n).__name__}") from None
    return n


def initial_conditions(kind: str, n: int, seed: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """A standard initial state of `n` bodies, the same for the same (kind, n, seed).

    kind: "plummer" (a Plummer sphere in virial equilibrium), "cube" (equal masses at rest,
    uniform in [-1, 1]^3: a cold collapse) or "collision" (two disk galaxies on a collision
    course; n >= 4). All in N-body units, centred on the origin with zero total momentum.
    Returns (positions, velocities), each a new (n, 4) float32 array.
    """
    if kind not in INITIAL_CONDITIONS:
        raise ValueError(f"initial_conditions: kind must be one of {', '.join(INITIAL_CONDITIONS)}, not {kind!r}")
    n = _count(n)
    least = 4 if kind == "collision" else 2
    if n < least:
        raise ValueError(f"initial_conditions: {kind!r} needs at least {least} bodies, not {n}")
    seed = _count(seed, "seed")
    if not 0 <= seed < 1 << 64:
        raise ValueError("initial_conditions: seed must be between 0 and 2^64 - 1")
    positions = np.empty((n, 4), np.float32)
    velocities = np.empty((n, 4), np.float32)
    check(lib.vkc_nbody_initial_conditions(INITIAL_CONDITIONS[kind], n, seed, _ptr(positions), _ptr(velocities)))
    return positions, velocities


@dataclasses.dataclass(frozen=True)
class Diagnostics:
    """Conserved quantities of a state, computed in fp64 on the host."""

    mass: float
    kinetic: float  #: sum m v^2 / 2
    potential: float  #: -G sum_{i<j} m_i m_j / sqrt(r^2 + eps^2) (O(N^2))
    energy: float  #: kinetic + potential
    momentum: Tuple[float, float, float]  #: sum m v
    angular_momentum: Tuple[float, float, float]  #: sum m x cross v
    centre_of_mass: Tuple[float, float, float]  #: sum m x / M


@dataclasses.dataclass
class View:
    """What a frame shows: the square [centre_x +- extent] x [centre_y +- extent] of the x-y
    plane, seen along -z. body_radius: the disc each body lights, in pixels (-1: chosen from the
    frame and the bodies); white: the count of bodies on a pixel that shows as full white (0:
    the 99th percentile of the lit pixels)."""

    centre_x: float = 0.0
    centre_y: float = 0.0
    extent: float = 2.0
    body_radius: int = -1
    white: float = 0.0

    def _struct(self) -> NbodyViewStruct:
        return NbodyViewStruct(self.centre_x, self.centre_y, self.extent, self.body_radius, self.white)


def _bodies(arr, name: str, n: Optional[int] = None) -> np.ndarray:
    a = np.ascontiguousarray(arr, dtype=np.float32)
    if a.ndim != 2 or a.shape[1] != 4:
        raise ValueError(f"{name} must have shape (n, 4), not {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} has {a.shape[0]} bodies, the simulation {n}")
    return a


class Simulation(Handle):
    """A simulation whose state lives on the GPU of a Context.

    Simulation(positions, velocities, gravity=1.0, softening=0.01, context=None)

    positions (n, 4) = (x, y, z, mass) and velocities (n, 4) = (vx, vy, vz, 0) are copied (as
    float32); n >= 2, finite, masses >= 0. gravity is G, softening the Plummer softening
    length (used in both the force and the potential). The context (default_context() when
    omitted) must stay open while the simulation lives; closing the context closes it. On a
    context of several devices (Context(devices=...)) the bodies are shared among them, with one
    device's result bit for bit on devices of one kind. Use it as a context manager, or call
    close(), to free its GPU memory at once.
    """

    _public_name = "vkcompute.nbody.Simulation"

    def __init__(self, positions, velocities, gravity: float = 1.0, softening: float = 0.01, context: Optional[Context] = None):
        self._init_handle()
        pos = _bodies(positions, "positions")
        n = pos.shape[0]
        vel = _bodies(velocities, "velocities", n)
        if n < 2:
            raise ValueError(f"a simulation needs at least 2 bodies, not {n}")
        gravity, softening = float(gravity), float(softening)
        if not (math.isfinite(gravity) and gravity > 0):
            raise ValueError(f"gravity must be finite and positive, not {gravity}")
        if not (math.isfinite(softening) and softening >= 1e-6):
            raise ValueError(f"softening must be finite and at least 1e-6, not {softening}")
        self._n = n
        self._gravity = gravity
        self._softening = softening
        self._context = context if context is not None else default_context()
        handle = c_void_p()
        ctx = self._context._enter()
        try:
            check(lib.vkc_nbody_create(ctx, _ptr(pos), _ptr(vel), n, gravity, softening, byref(handle)))
        finally:
            self._context._leave()
        self._handle = handle.value
        self._context._simulations.add(self)

    # -- lifetime

    def close(self) -> None:
        """Frees the simulation's GPU memory; using it afterwards raises ValueError. Raises
        RuntimeError while another thread is in a call on it."""
        self._close_handle(lib.vkc_nbody_destroy)

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        self._destroy_unused(lib.vkc_nbody_destroy)

    # -- facts

    def __len__(self) -> int:
        return self._n

    @property
    def size(self) -> int:
        """The number of bodies."""
        return self._n

    @property
    def gravity(self) -> float:
        return self._gravity

    @property
    def softening(self) -> float:
        return self._softening

    @property
    def context(self) -> Context:
        return self._context

    @property
    def time(self) -> float:
        """The simulation time (the sum of every step's dt)."""
        t = c_double()
        self._call(lib.vkc_nbody_get_state, None, None, byref(t))
        return t.value

    # -- operations

    def step(self, dt: float, steps: int = 1) -> None:
        """Advances `steps` kick-drift-kick leapfrog steps of `dt` (finite, > 0) in one
        submission, and waits for them."""
        dt = float(dt)
        if not (math.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be finite and positive, not {dt}")
        steps = _count(steps, "steps")
        if not 0 <= steps < 1 << 32:
            raise ValueError(f"steps must be between 0 and 2^32 - 1, not {steps}")
        if steps:
            self._call(lib.vkc_nbody_step, dt, steps)

    def state(self) -> Tuple[np.ndarray, np.ndarray, float]:
        """(positions (n, 4) float32, velocities (n, 4) float32, time): a copy of the state."""
        pos = np.empty((self._n, 4), np.float32)
        vel = np.empty((self._n, 4), np.float32)
        t = c_double()
        self._call(lib.vkc_nbody_get_state, _ptr(pos), _ptr(vel), byref(t))
        return pos, vel, t.value

    def set_state(self, positions, velocities) -> None:
        """Replaces the state (same number of bodies; the time is kept) and recomputes the
        accelerations."""
        pos = _bodies(positions, "positions", self._n)
        vel = _bodies(velocities, "velocities", self._n)
        self._call(lib.vkc_nbody_set_state, _ptr(pos), _ptr(vel))

    def diagnostics(self) -> Diagnostics:
        """Mass, energies, momentum, angular momentum and centre of mass of the current state,
        in fp64 on the host (the potential costs N^2/2 pair terms)."""
        d = NbodyDiagnosticsStruct()
        self._call(lib.vkc_nbody_diagnose, byref(d))
        return Diagnostics(d.mass, d.kinetic, d.potential, d.energy, tuple(d.momentum), tuple(d.angular_momentum),
                           tuple(d.centre_of_mass))

    def fit_view(self) -> View:
        """A View centred on the centre of mass that frames most of the bodies."""
        v = NbodyViewStruct()
        self._call(lib.vkc_nbody_fit_view, byref(v))
        return View(v.centre_x, v.centre_y, v.extent, v.body_radius, v.white)

    def render(self, width: int, height: int, view: Optional[View] = None) -> np.ndarray:
        """Renders the x-y plane on the GPU: a new (height, width, 4) uint8 RGBA array (alpha
        255), row 0 at the top; width and height from 1 to 16384. view None: fit_view()'s."""
        width, height = _count(width, "width"), _count(height, "height")
        if not (0 < width <= 16384 and 0 < height <= 16384):
            raise ValueError(f"render: width and height must be between 1 and 16384, not {width} x {height}")
        if view is not None and not (math.isfinite(view.extent) and view.extent > 0):
            raise ValueError(f"render: the view's extent must be finite and positive, not {view.extent}")
        if view is not None and not isinstance(view, View):
            raise TypeError(f"view must be a vkcompute.nbody.View or None, not {type(view).__name__}")
        rgba = np.empty((height, width, 4), np.uint8)
        view_struct = byref(view._struct()) if view is not None else None
        self._call(lib.vkc_nbody_render, width, height, view_struct, _ptr(rgba))
        return rgba

    def __repr__(self) -> str:
        state = "closed" if self._handle is None else f"{self._n} bodies"
        return f"<vkcompute.nbody.Simulation {state}>"
