"""Sorting one array split across MPI ranks (mpi4py), each rank sorting on its own GPU.

    from mpi4py import MPI
    import vkcompute.mpi
    mine = vkcompute.mpi.sort(MPI.COMM_WORLD, my_slice)   # this rank's range of the sorted whole

The ranks' arrays, in rank order, form one array. A sample sort with one all-to-all exchange, as
the C++ vkc::mpi (include/vkc/mpi.hpp): samples of every rank's keys, in proportion to its share,
give splitters that cut the sorted whole into one balanced, contiguous range per rank (equal keys
that straddle a boundary are divided by their global position, so that even all-equal keys split
evenly); each rank sends every key to the rank whose range holds it, then sorts what it received
with vkcompute.sort (radix: stable, so equal keys keep their global input order). The order
contract is vkcompute's: NaN last in both orders, -0.0 before +0.0 ascending.

Keys of every NumPy dtype vkcompute sorts (8 to 64-bit integers, float16, float32, float64).
Each rank sends and receives fewer than 2^31 bytes of keys (and as many of values): MPI's counts.
"""

import numpy as np

from ._sort import sort as _local_sort, sort_pairs as _local_sort_pairs

__all__ = ["sort", "sort_pairs"]

_SAMPLES_PER_RANK = 256


def _ordered(keys, descending):
    """uint64 numbers in the order vkcompute's contract puts the keys (the library's ordered
    images: key_bits.hpp)."""
    width = keys.dtype.itemsize * 8
    mask = np.uint64((1 << width) - 1)
    sign = np.uint64(1 << (width - 1))
    bits = keys.view(f"u{keys.dtype.itemsize}").astype(np.uint64)
    kind = keys.dtype.kind
    if kind == "f":
        nan = np.isnan(keys)
        bits = np.where(nan, bits & ~sign, bits)  # NaN without its sign, as the sort returns it
        image = np.where(bits & sign, ~bits & mask, bits | sign)
        return np.where(nan, image, ~image & mask) if descending else image
    image = bits ^ sign if kind == "i" else bits
    return ~image & mask if descending else image


def _check(keys):
    keys = np.ascontiguousarray(keys)
    if keys.ndim != 1:
        raise ValueError(f"vkcompute.mpi sorts 1-D arrays, not {keys.ndim}-D")
    if keys.dtype.kind not in "uif" or keys.dtype.itemsize not in (1, 2, 4, 8) or \
            (keys.dtype.kind == "f" and keys.dtype.itemsize == 1):
        raise TypeError(f"vkcompute.mpi sorts integers and floats of 8 to 64 bits, not {keys.dtype}")
    return keys if keys.dtype.isnative else keys.astype(keys.dtype.newbyteorder("="))


def _destinations(comm, image):
    """The send order of this rank's keys and how many go to each rank."""
    ranks, me = comm.Get_size(), comm.Get_rank()
    n = image.size
    total = comm.allreduce(n)
    wanted = min(total, _SAMPLES_PER_RANK * ranks)
    mine = min(n, -(-wanted * n // total)) if total else 0
    sample = image[(n * np.arange(mine, dtype=np.uint64)) // max(mine, 1)] if mine else image[:0]
    gathered = np.sort(np.concatenate(comm.allgather(sample)))
    splitters = [gathered[gathered.size * j // ranks] for j in range(1, ranks)] if gathered.size else []
    values = np.unique(np.array(splitters, dtype=np.uint64))
    # Slot 2u + 1: keys equal to splitter value u; slot 2u: those between values u - 1 and u.
    below = np.searchsorted(values, image, side="left")
    equal = (below < values.size) & (values[np.minimum(below, max(values.size - 1, 0))] == image) if values.size \
        else np.zeros(n, dtype=bool)
    slot = 2 * below + equal
    slots = 2 * values.size + 1
    every = np.array(comm.allgather(np.bincount(slot, minlength=slots)), dtype=np.uint64).reshape(ranks, slots)
    slot_first = np.concatenate([[0], np.cumsum(every.sum(axis=0))]).astype(np.uint64)
    first_place = slot_first[:-1] + every[:me].sum(axis=0)
    bounds = [0]
    for j in range(ranks - 1):
        even = total * (j + 1) // ranks
        if j >= len(splitters):
            bounds.append(total)
            continue
        at = 2 * int(np.searchsorted(values, splitters[j])) + 1
        bounds.append(min(max(even, int(slot_first[at])), int(slot_first[at + 1])))
    bounds.append(total)
    order = np.argsort(slot, kind="stable")  # slot by slot, input order within: place order
    in_order = slot[order]
    local_first = np.concatenate([[0], np.cumsum(every[me])]).astype(np.uint64)
    places = first_place[in_order] + (np.arange(n, dtype=np.uint64) - local_first[in_order])
    destination = np.searchsorted(np.array(bounds, dtype=np.uint64), places, side="right") - 1
    return order, np.bincount(destination, minlength=ranks)


def _exchange(comm, send, counts):
    """send (in destination order, counts[d] to rank d) all-to-all: what this rank receives, in
    source-rank order."""
    from mpi4py import MPI

    width = send.dtype.itemsize
    received = np.array(comm.alltoall([int(c) for c in counts]), dtype=np.int64)
    if (counts.sum() * width) >= 2**31 or (received.sum() * width) >= 2**31:
        raise ValueError("vkcompute.mpi: a rank sends or receives 2 GiB or more; split the array over more ranks")
    out = np.empty(int(received.sum()), dtype=send.dtype)
    send_counts = [int(c) * width for c in counts]
    recv_counts = [int(c) * width for c in received]
    send_at = np.concatenate([[0], np.cumsum(send_counts)[:-1]]).astype(int).tolist()
    recv_at = np.concatenate([[0], np.cumsum(recv_counts)[:-1]]).astype(int).tolist()
    comm.Alltoallv([send.view(np.uint8), (send_counts, send_at), MPI.BYTE],
                   [out.view(np.uint8), (recv_counts, recv_at), MPI.BYTE])
    return out


def sort(comm, keys, *, descending=False, context=None):
    """This rank's range of the sorted whole that the ranks' `keys` form (collective)."""
    keys = _check(keys)
    order, counts = _destinations(comm, _ordered(keys, descending))
    return _local_sort(_exchange(comm, keys[order], counts), descending=descending, context=context)


def sort_pairs(comm, keys, values, *, descending=False, context=None):
    """sort() moving `values` (one per key, of any 4- or 8-byte dtype) with the keys: this rank's
    (keys, values) (collective)."""
    keys = _check(keys)
    values = np.ascontiguousarray(values)
    if values.shape != keys.shape:
        raise ValueError(f"values have shape {values.shape}, keys {keys.shape}")
    order, counts = _destinations(comm, _ordered(keys, descending))
    return _local_sort_pairs(_exchange(comm, keys[order], counts), _exchange(comm, values[order], counts),
                             descending=descending, context=context)
