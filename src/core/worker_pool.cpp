#include "core/worker_pool.hpp"

namespace vkc::detail {

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) threads_.emplace_back([this, i] { serve(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(unsigned count, const std::function<void(unsigned)>& job) {
  if (count == 0) return;
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    count_ = count;
    running_ = count - 1;
    failure_ = nullptr;
    ++generation_;
  }
  if (count > 1) wake_.notify_all();
  std::exception_ptr own;
  try {
    job(0);
  } catch (...) {
    own = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return running_ == 0; });
  job_ = nullptr;
  if (own) std::rethrow_exception(own);
  if (failure_) std::rethrow_exception(failure_);
}

void WorkerPool::serve(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    if (index >= count_) continue;
    const auto* job = job_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      (*job)(index);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure && !failure_) failure_ = failure;
    if (--running_ == 0) done_.notify_one();
  }
}

}  // namespace vkc::detail
