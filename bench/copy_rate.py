"""Prints the device's copy rate: a device-to-device copy of 1 GiB through PyTorch, bytes read plus
written, median of 20 (the copy bound of BENCHMARKS.md's Method). Exits non-zero without CUDA."""
import torch

a = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
b = torch.empty_like(a)
for _ in range(20):
    b.copy_(a)
times = []
for _ in range(20):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    b.copy_(a)
    end.record()
    end.synchronize()
    times.append(start.elapsed_time(end))
times.sort()
print("copy_tbps: %.2f (device-to-device copy of 1 GiB through PyTorch, read + write, median of 20)"
      % (2 * (1 << 30) / (times[10] * 1e-3) / 1e12))
