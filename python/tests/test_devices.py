"""Several devices in one context (Context(devices=...)): the default context's device opened
two and three times; sort, argsort and sort_pairs split across them, against NumPy's stable
sorts under the contract (reference.py); an n-body simulation shared among them, against the
same simulation on one device."""

import numpy as np
import pytest

import vkcompute
import vkcompute.nbody
from reference import random_keys, sorted_reference, stable_order


@pytest.fixture(scope="module", params=[2, 3])
def devices(request):
    index = vkcompute.default_context().device.index
    with vkcompute.Context(devices=[index] * request.param, quiet=True) as ctx:
        yield ctx
        messages = ctx.take_validation_messages()
        assert not messages, f"{len(messages)} validation message(s), the first: {messages[0]}"


@pytest.mark.parametrize("dtype", ["f4", "i8", "u1", "f2"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort_and_pairs_split_across_devices(devices, rng, dtype, descending):
    keys = random_keys(rng, dtype, 40009)
    before = keys.copy()
    np.testing.assert_array_equal(vkcompute.sort(keys, descending=descending, context=devices),
                                  sorted_reference(keys, descending))
    np.testing.assert_array_equal(vkcompute.argsort(keys, descending=descending, context=devices),
                                  stable_order(keys, descending))
    values = np.arange(keys.size, dtype=np.uint32)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, descending=descending, context=devices)
    np.testing.assert_array_equal(sorted_keys, sorted_reference(keys, descending))
    np.testing.assert_array_equal(sorted_values, stable_order(keys, descending))
    assert before.tobytes() == keys.tobytes(), "the input changed"


def test_in_place_with_out(devices, rng):
    keys = rng.integers(0, 7, size=30000).astype(np.uint32)  # long runs of equal keys
    expected = np.sort(keys, kind="stable")
    vkcompute.sort(keys, out=keys, context=devices)
    np.testing.assert_array_equal(keys, expected)


def test_the_first_device_runs_everything_else(devices, rng):
    rows = random_keys(rng, "f4", 12 * 50).reshape(12, 50)
    np.testing.assert_array_equal(vkcompute.sort(rows, context=devices),
                                  np.stack([sorted_reference(r) for r in rows]))
    assert devices.device.index == vkcompute.default_context().device.index


def test_bad_device_lists_are_refused():
    with pytest.raises(vkcompute.Error) as info:
        vkcompute.Context(devices="0,,0")
    assert info.value.status == vkcompute.Status.NO_DEVICE
    for bad in ([], 3, [None], [1.5]):
        with pytest.raises(TypeError):
            vkcompute.Context(devices=bad)


def test_nbody_shares_the_bodies_with_one_devices_result(devices):
    positions, velocities = vkcompute.nbody.initial_conditions("plummer", 901, seed=3)
    with vkcompute.nbody.Simulation(positions, velocities, softening=0.05, context=devices) as together, \
            vkcompute.nbody.Simulation(positions, velocities, softening=0.05) as alone:
        together.step(0.01, 9)
        alone.step(0.01, 9)
        got, want = together.state(), alone.state()
        assert not np.array_equal(got[0], positions), "the bodies moved"
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        assert together.render(48, 48).shape == (48, 48, 4)
