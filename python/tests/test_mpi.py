"""vkcompute.mpi with mpi4py: run alone (one rank) in the Python suite, and under mpirun with
several ranks by CTest (mpi/python_*). Every rank draws the same whole array, sorts its slice with
the others, and checks the gathered result against NumPy's stable sort under the contract."""

import numpy as np
import pytest

MPI = pytest.importorskip("mpi4py.MPI")

import vkcompute.mpi  # noqa: E402
from reference import random_keys, sorted_reference, stable_order  # noqa: E402

COMM = MPI.COMM_WORLD


def my_slice(a, everything_on=None):
    ranks, me = COMM.Get_size(), COMM.Get_rank()
    if everything_on is not None:
        return a if me == everything_on else a[:0]
    return a[a.size * me // ranks: a.size * (me + 1) // ranks]


def gathered(part):
    return np.concatenate(COMM.allgather(part))


@pytest.mark.parametrize("dtype", ["u1", "i2", "f2", "u4", "i4", "f4", "u8", "i8", "f8"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_pairs_against_numpy(dtype, descending):
    rng = np.random.default_rng(11)  # the same whole array on every rank
    keys = random_keys(rng, dtype, 20011)
    mine = vkcompute.mpi.sort(COMM, my_slice(keys), descending=descending)
    np.testing.assert_array_equal(gathered(mine), sorted_reference(keys, descending))
    positions = np.arange(keys.size, dtype=np.uint32)
    k, v = vkcompute.mpi.sort_pairs(COMM, my_slice(keys), my_slice(positions), descending=descending)
    np.testing.assert_array_equal(gathered(k), sorted_reference(keys, descending))
    np.testing.assert_array_equal(gathered(v), stable_order(keys, descending))


def test_skew_equal_keys_and_empty_ranks():
    rng = np.random.default_rng(12)
    equal = np.full(30000, 7, dtype=np.uint32)
    mine = vkcompute.mpi.sort(COMM, my_slice(equal))
    assert abs(mine.size - equal.size / COMM.Get_size()) <= 1, "all-equal keys split evenly"
    few = rng.integers(0, 3, size=30000).astype(np.int64)
    for on in (None, 0, COMM.Get_size() - 1):
        k, v = vkcompute.mpi.sort_pairs(COMM, my_slice(few, on), my_slice(np.arange(few.size, dtype=np.uint64), on))
        np.testing.assert_array_equal(gathered(k), np.sort(few, kind="stable"))
        np.testing.assert_array_equal(gathered(v), np.argsort(few, kind="stable"))
    two = np.array([3.0, -1.0])
    np.testing.assert_array_equal(gathered(vkcompute.mpi.sort(COMM, my_slice(two))), [-1.0, 3.0])


def test_bad_input():
    with pytest.raises(ValueError):
        vkcompute.mpi.sort(COMM, np.zeros((2, 2), dtype=np.float32))
    with pytest.raises(TypeError):
        vkcompute.mpi.sort(COMM, np.array(["a"]))
