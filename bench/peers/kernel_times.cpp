// libvkc-kernel-times.so: a CUDA injection library (CUDA_INJECTION64_PATH) that records the GPU
// start and duration of every kernel and memset a CUDA program launches, through CUPTI's activity
// API, and writes one line per record to $KERNEL_TIMES_OUT (default /tmp/kernel_times.txt) when the
// program exits:
//   <mangled kernel name> <grid x> <start ns> <duration ns>
//   memset <bytes> <start ns> <duration ns>
// It splits a peer's timed region into its kernels (CUB's radix sort: the histogram, the exclusive
// sum, one onesweep kernel per pass), so that each can be set beside the matching step of ours
// (probe-radix --policy steps=N); kernel_times.py summarises the file. The program itself is not changed.
#include <cupti.h>

#include <cstdio>
#include <cstdlib>

namespace {

FILE* out = nullptr;
constexpr size_t kBufferBytes = size_t{8} << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      std::fprintf(out, "%s %d %llu %llu\n", k->name, k->gridX, static_cast<unsigned long long>(k->start),
                   static_cast<unsigned long long>(k->end - k->start));
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      std::fprintf(out, "memset %llu %llu %llu\n", static_cast<unsigned long long>(m->bytes),
                   static_cast<unsigned long long>(m->start), static_cast<unsigned long long>(m->end - m->start));
    }
  }
  std::free(buffer);
}

void flush_at_exit() {
  cuptiActivityFlushAll(1);
  std::fclose(out);
}

}  // namespace

// Called by the CUDA driver when it initialises, in every program started with
// CUDA_INJECTION64_PATH pointing at this library.
extern "C" int InitializeInjection(void) {
  const char* path = std::getenv("KERNEL_TIMES_OUT");
  out = std::fopen(path ? path : "/tmp/kernel_times.txt", "w");
  if (!out) {
    std::fprintf(stderr, "vkc-kernel-times: cannot write %s\n", path ? path : "/tmp/kernel_times.txt");
    return 0;
  }
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "vkc-kernel-times: CUPTI refused the activity records\n");
    return 0;
  }
  std::atexit(flush_at_exit);
  return 1;
}
