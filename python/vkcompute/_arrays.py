"""Array handling: any host array NumPy can view, the key types, and results of the input's kind."""

from __future__ import annotations

import numpy as np

__all__ = ["as_host_array", "as_writable_array", "refuse_device_array", "key_plan", "wrap_result", "AxisError", "KEY_TYPES_TEXT"]

try:  # NumPy 2
    AxisError = np.exceptions.AxisError
except AttributeError:  # NumPy 1.x
    AxisError = np.AxisError

# vkc_key_type for each native key dtype (kind, itemsize).
_KEY_TYPES = {("u", 4): 0, ("i", 4): 1, ("f", 4): 2, ("u", 8): 3, ("i", 8): 4, ("f", 8): 5}
# Narrow keys, widened on the host to the 32-bit type that orders them the same (exactly).
_WIDENED = {("u", 1): np.uint32, ("u", 2): np.uint32, ("i", 1): np.int32, ("i", 2): np.int32, ("f", 2): np.float32}

KEY_TYPES_TEXT = (
    "uint32, int32, float32, uint64, int64, float64, and uint8, int8, uint16, int16, float16 "
    "(sorted as 32-bit keys)"
)

# DLPack device types that hold host memory NumPy can read.
_DL_HOST_DEVICES = (1, 3, 11)  # kDLCPU, kDLCUDAHost, kDLROCMHost
_DL_DEVICE_NAMES = {2: "a CUDA GPU", 4: "an OpenCL device", 7: "a Vulkan device", 8: "a Metal device", 9: "a VPI device",
                    10: "a ROCm GPU", 12: "an external device", 13: "CUDA managed memory", 14: "a oneAPI device",
                    15: "a WebGPU device", 16: "a Hexagon device"}

_GPU_HINT = (
    "vkcompute sorts host arrays (it moves them to the GPU itself); this one is on {where}. "
    "Copy it to the host first: tensor.cpu() in PyTorch, array.get() or cupy.asnumpy(array) in CuPy"
)


class Kind:
    """What the caller gave, so that the result can come back as the same kind where cheap."""

    NUMPY = 0
    TORCH = 1


def _is_torch(obj) -> bool:
    return type(obj).__module__.startswith("torch") and hasattr(obj, "is_cuda")


def refuse_device_array(obj) -> None:
    """TypeError for arrays in GPU memory (torch CUDA tensors, CuPy arrays, other DLPack devices)."""
    if _is_torch(obj):
        device = getattr(obj, "device", None)
        if obj.is_cuda or (device is not None and getattr(device, "type", "cpu") != "cpu"):
            raise TypeError(_GPU_HINT.format(where=f"torch device {device}"))
        return
    module = type(obj).__module__
    if module.startswith("cupy") or hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(_GPU_HINT.format(where="a CUDA GPU"))
    dlpack_device = getattr(obj, "__dlpack_device__", None)
    if dlpack_device is not None:
        try:
            device_type = int(dlpack_device()[0])
        except Exception:
            return
        if device_type not in _DL_HOST_DEVICES:
            where = _DL_DEVICE_NAMES.get(device_type, f"DLPack device type {device_type}")
            raise TypeError(_GPU_HINT.format(where=where))


def as_host_array(obj):
    """(ndarray viewing obj without a copy where NumPy can, the Kind of obj).

    NumPy arrays come through as they are; torch CPU tensors through DLPack; anything else
    through np.asarray (the buffer protocol, __array__, __array_interface__, sequences).
    Arrays on a GPU raise TypeError."""
    if type(obj) is np.ndarray:
        return obj, Kind.NUMPY
    if isinstance(obj, np.ndarray):  # subclasses (np.memmap, ...): the plain array view
        return obj.view(np.ndarray), Kind.NUMPY
    refuse_device_array(obj)
    if _is_torch(obj):
        tensor = obj.detach()
        try:
            return _from_dlpack(tensor), Kind.TORCH
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError):
            # a dtype DLPack or NumPy cannot carry (bool, bfloat16, complex with conj bit...)
            raise TypeError(f"vkcompute sorts {KEY_TYPES_TEXT} keys; got a torch tensor of {obj.dtype}") from None
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array_interface__") and not hasattr(obj, "__array__"):
        try:
            return _from_dlpack(obj), Kind.NUMPY
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError):
            pass
    return np.asarray(obj), Kind.NUMPY


def _from_dlpack(obj):
    from_dlpack = getattr(np, "from_dlpack", None)
    if from_dlpack is None:  # NumPy < 1.22
        return np.asarray(obj)
    return from_dlpack(obj)


def as_writable_array(obj, name: str = "out"):
    """A writeable ndarray viewing obj (for out=); ValueError if it cannot be written."""
    if isinstance(obj, np.ndarray):
        arr = obj.view(np.ndarray) if type(obj) is not np.ndarray else obj
    elif _is_torch(obj):
        refuse_device_array(obj)
        if obj.requires_grad:
            raise ValueError(f"{name}: a tensor that requires grad cannot be written in place")
        try:
            arr = obj.numpy()  # writeable and zero copy, unlike DLPack under NumPy 1.x
        except (TypeError, RuntimeError) as e:
            raise TypeError(f"{name}: {e}") from None
    else:
        refuse_device_array(obj)
        try:
            arr = np.asarray(memoryview(obj))
        except TypeError:
            raise TypeError(f"{name} must be a NumPy array, a torch CPU tensor or a writeable buffer, "
                            f"not {type(obj).__name__}") from None
    if not arr.flags.writeable:
        raise ValueError(f"{name} is read-only")
    return arr


class KeyPlan:
    """How keys of one dtype are sorted: the vkc_key_type, and the dtype the library sees."""

    __slots__ = ("key_type", "work_dtype", "widened", "swapped")

    def __init__(self, key_type, work_dtype, widened, swapped):
        self.key_type = key_type
        self.work_dtype = work_dtype  # native-order dtype the library sorts
        self.widened = widened  # narrow keys sorted as 32-bit ones
        self.swapped = swapped  # the input is not in native byte order


_plans = {}


def key_plan(dtype: np.dtype) -> KeyPlan:
    """The KeyPlan for keys of `dtype`; TypeError naming the supported dtypes otherwise."""
    plan = _plans.get(dtype)
    if plan is not None:
        return plan
    k = (dtype.kind, dtype.itemsize)
    swapped = not dtype.isnative
    if dtype.fields is not None or dtype.subdtype is not None:
        k = None
    if k in _KEY_TYPES:
        plan = KeyPlan(_KEY_TYPES[k], dtype.newbyteorder("=") if swapped else dtype, False, swapped)
    elif k in _WIDENED:
        wide = np.dtype(_WIDENED[k])
        plan = KeyPlan(_KEY_TYPES[(wide.kind, wide.itemsize)], wide, True, swapped)
    else:
        raise TypeError(f"vkcompute sorts {KEY_TYPES_TEXT} keys, not {dtype}")
    _plans[dtype] = plan
    return plan


def wrap_result(arr, kind):
    """The result as the kind the caller gave: a torch tensor for a torch tensor (zero copy)."""
    if kind == Kind.TORCH:
        import torch

        try:
            return torch.from_numpy(arr)
        except TypeError:  # a dtype torch.from_numpy lacks (uint16 before torch 2.3, ...)
            return torch.from_dlpack(arr)
    return arr
