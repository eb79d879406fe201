"""What vkcompute takes: NumPy arrays of any layout and byte order, read-only memory, buffers;
what it refuses, and how."""

import array
import mmap

import numpy as np
import pytest

import vkcompute
from reference import assert_same_keys, random_keys, sorted_reference, stable_order


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint16])
def test_non_contiguous_slices_sort_like_numpy(dtype, rng):
    base = random_keys(rng, dtype, 3000)
    for view in (base[::3], base[::-1], base[5:2900:7]):
        before = base.copy()
        assert_same_keys(vkcompute.sort(view), sorted_reference(view))
        np.testing.assert_array_equal(vkcompute.argsort(view), stable_order(view))
        np.testing.assert_array_equal(base, before)


def test_non_contiguous_2d_slices_flatten_like_numpy(rng):
    a = rng.random((40, 50))[::2, 1::3]
    np.testing.assert_array_equal(vkcompute.sort(a, axis=None), np.sort(a, axis=None))
    np.testing.assert_array_equal(vkcompute.argsort(a, axis=None), np.argsort(a, axis=None, kind="stable"))


@pytest.mark.parametrize("dtype", [">u4", ">i4", ">f4", ">u8", ">i8", ">f8", ">i2", ">f2"])
def test_big_endian_arrays_sort_to_big_endian_results(dtype, rng):
    a = random_keys(rng, np.dtype(dtype).newbyteorder("="), 1000).astype(dtype)
    assert not a.dtype.isnative
    before = a.copy()
    result = vkcompute.sort(a)
    assert result.dtype == np.sort(a).dtype == np.dtype(dtype)
    assert_same_keys(result, sorted_reference(a))
    np.testing.assert_array_equal(result, np.sort(a))
    for descending in (False, True):
        np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), stable_order(a, descending))
    np.testing.assert_array_equal(a, before)


def test_read_only_arrays_are_never_written(rng):
    a = random_keys(rng, np.float64, 1000)
    a.flags.writeable = False
    before = a.copy()
    assert_same_keys(vkcompute.sort(a), sorted_reference(a))
    np.testing.assert_array_equal(vkcompute.argsort(a), stable_order(a))
    vkcompute.sort_pairs(a, np.arange(1000, dtype=np.int32))
    np.testing.assert_array_equal(a, before)


def test_read_only_memory_mapped_pages_are_only_read(rng, tmp_path):
    keys = rng.integers(0, 1 << 32, size=4096, dtype=np.uint64).astype(np.uint32)
    path = tmp_path / "keys.bin"
    keys.tofile(path)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        view = memoryview(m).cast("I")
        np.testing.assert_array_equal(vkcompute.sort(view), np.sort(keys))
        view.release()
    np.testing.assert_array_equal(np.fromfile(path, np.uint32), keys)


def test_bytes_through_a_memoryview_sort_as_their_format():
    data = np.array([5, -3, 7, 0, -3], np.int32).tobytes()
    view = memoryview(data).cast("i")
    np.testing.assert_array_equal(vkcompute.sort(view), [-3, -3, 0, 5, 7])
    np.testing.assert_array_equal(vkcompute.argsort(view), [1, 4, 3, 0, 2])
    assert data == np.array([5, -3, 7, 0, -3], np.int32).tobytes()
    np.testing.assert_array_equal(vkcompute.sort(memoryview(b"\x03\x01\x02")), [1, 2, 3])


def test_writable_memoryviews_and_array_module_arrays(rng):
    values = rng.random(100)
    a = array.array("d", values.tolist())
    np.testing.assert_array_equal(vkcompute.sort(memoryview(a)), np.sort(values))
    np.testing.assert_array_equal(vkcompute.sort(a), np.sort(values))
    vkcompute.sort(a, out=a)
    np.testing.assert_array_equal(np.frombuffer(a, np.float64), np.sort(values))


def test_objects_with_array_interface_are_viewed(rng):
    class Holder:
        def __init__(self, arr):
            self.arr = arr

        def __array__(self, dtype=None, copy=None):
            return self.arr

    a = rng.random(50).astype(np.float32)
    np.testing.assert_array_equal(vkcompute.sort(Holder(a)), np.sort(a))


def test_memmap_subclass_results_are_plain_arrays(tmp_path, rng):
    a = rng.random(100)
    m = np.memmap(tmp_path / "a.bin", dtype=np.float64, mode="w+", shape=(100,))
    m[:] = a
    result = vkcompute.sort(m)
    assert type(result) is np.ndarray
    np.testing.assert_array_equal(result, np.sort(a))
    del m


@pytest.mark.parametrize("a", [
    np.array([True, False]), np.array([1 + 2j, 3j]), np.array(["b", "a"]), np.array([b"b", b"a"]),
    np.array([object(), object()], dtype=object), np.array(["2020-01-01", "2019-01-01"], dtype="datetime64[D]"),
    np.array([1, 2], dtype="timedelta64[s]"), np.zeros(3, dtype=[("a", np.int32), ("b", np.float32)]),
    np.zeros(3, dtype=np.longdouble), np.zeros(3, dtype=np.complex64),
], ids=["bool", "complex", "str", "bytes", "object", "datetime", "timedelta", "structured", "longdouble", "complex64"])
def test_unsupported_dtypes_raise_type_error_naming_the_supported_ones(a):
    with pytest.raises(TypeError, match="uint32, int32, float32"):
        vkcompute.sort(a)
    with pytest.raises(TypeError, match="float64"):
        vkcompute.argsort(a)
    with pytest.raises(TypeError):
        vkcompute.sort_pairs(a, np.zeros(len(a), np.int32))


class _DeviceArray:
    """An array in GPU memory as DLPack describes it (device type 2: CUDA)."""

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        raise AssertionError("a GPU array must not be imported")


class _CudaInterfaceArray:
    __cuda_array_interface__ = {"shape": (3,), "typestr": "<f4", "data": (0, False), "version": 2}


@pytest.mark.parametrize("a", [_DeviceArray(), _CudaInterfaceArray()], ids=["dlpack-cuda", "cuda-array-interface"])
def test_gpu_arrays_raise_type_error_saying_how_to_get_a_host_array(a):
    with pytest.raises(TypeError, match=r"host arrays.*\.cpu\(\).*\.get\(\)"):
        vkcompute.sort(a)
    with pytest.raises(TypeError, match="host"):
        vkcompute.argsort(a)


def test_dlpack_objects_on_the_cpu_are_imported(rng):
    a = rng.random(64)

    class HostTensor:
        def __dlpack_device__(self):
            return a.__dlpack_device__()

        def __dlpack__(self, stream=None, **kwargs):
            return a.__dlpack__()

    np.testing.assert_array_equal(vkcompute.sort(HostTensor()), np.sort(a))


def test_gpu_values_of_pairs_raise_type_error_too():
    with pytest.raises(TypeError, match="host arrays"):
        vkcompute.sort_pairs(np.zeros(3, np.float32), _DeviceArray())
