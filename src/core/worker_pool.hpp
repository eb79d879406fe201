// A fixed set of threads that run one job at a time, each thread with its own index: the host
// side of the transfers (filling and draining staging buffers, reading and writing files).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vkc::detail {

class WorkerPool {
 public:
  /// `threads` counts the caller: a pool of 1 runs every job on the calling thread.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }

  /// Runs job(0) .. job(count - 1) at once, job(0) on the calling thread, and returns when all
  /// have returned; rethrows the first exception any of them threw. count <= size().
  void run(unsigned count, const std::function<void(unsigned)>& job);

 private:
  void serve(unsigned index);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned count_ = 0;
  unsigned running_ = 0;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> threads_;
};

}  // namespace vkc::detail
