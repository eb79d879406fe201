"""vkcompute.mpi with mpi4py (through libvkcompute_mpi.so): run alone (one rank) in the Python
suite, and under mpirun with several ranks by CTest (mpi/python_*). Every rank draws the same whole
array, sorts its slice with the others, and checks the gathered result against NumPy's stable sort
under the contract; bad input on one rank raises on every rank."""

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


def test_bad_input_on_one_rank_raises_on_every_rank():
    last = COMM.Get_size() - 1
    mine = COMM.Get_rank() == last
    with pytest.raises(TypeError, match=f"rank {last}: .*complex64"):
        vkcompute.mpi.sort(COMM, np.zeros(3, dtype=np.complex64 if mine else np.float32))
    with pytest.raises(ValueError, match=f"rank {last}: values have shape"):
        vkcompute.mpi.sort_pairs(COMM, np.zeros(3, dtype=np.uint32), np.zeros(2 if mine else 3, dtype=np.uint32))
    np.testing.assert_array_equal(gathered(vkcompute.mpi.sort(COMM, my_slice(np.array([2, 1, 0])))), [0, 1, 2])


@pytest.mark.skipif(COMM.Get_size() < 2, reason="needs ranks that disagree")
def test_ranks_that_disagree_raise_the_library_error_on_every_rank():
    with pytest.raises(vkcompute.Error, match="the ranks disagree on the order"):
        vkcompute.mpi.sort(COMM, np.arange(5, dtype=np.uint32), descending=COMM.Get_rank() == 0)
    with pytest.raises(vkcompute.Error, match="disagree on the key type"):
        vkcompute.mpi.sort(COMM, np.arange(5, dtype=np.uint32 if COMM.Get_rank() else np.int32))


def test_a_missing_library_is_an_import_error_naming_it(monkeypatch, tmp_path):
    mpi = vkcompute.mpi
    monkeypatch.setattr(mpi, "_lib", None)
    monkeypatch.setattr(mpi._capi, "library_path", str(tmp_path / "libvkcompute.so.1"))
    monkeypatch.setattr(mpi.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(ImportError, match="libvkcompute_mpi.so.1"):
        vkcompute.mpi.sort(COMM, np.arange(3, dtype=np.uint32))


def test_comm_must_be_a_communicator():
    with pytest.raises(TypeError, match="mpi4py communicator"):
        vkcompute.mpi.sort(object(), np.arange(3, dtype=np.uint32))
