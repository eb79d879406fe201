// Shared pieces of the CUDA peer programs: error checks, RAII device memory and
// events, command-line parsing, timing summaries and JSON output.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../splitmix64.hpp"

namespace peer {

// Thrown for every failure; main() prints what() as one line and exits non-zero.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw Error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
  }
}

#define PEER_CUDA(call) ::peer::check_cuda((call), #call, __FILE__, __LINE__)

// Owns `count` elements of device memory.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) PEER_CUDA(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);
  }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

template <typename T>
void upload(DeviceBuffer<T>& dst, const std::vector<T>& src) {
  PEER_CUDA(cudaMemcpy(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
std::vector<T> download(const T* src, std::size_t count) {
  std::vector<T> out(count);
  PEER_CUDA(cudaMemcpy(out.data(), src, count * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

class Stream {
 public:
  Stream() { PEER_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Times the work enqueued on a stream between start() and stop().
class EventTimer {
 public:
  EventTimer() {
    PEER_CUDA(cudaEventCreate(&start_));
    PEER_CUDA(cudaEventCreate(&stop_));
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(cudaStream_t stream) { PEER_CUDA(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream) { PEER_CUDA(cudaEventRecord(stop_, stream)); }
  // Waits for the stop event and returns the elapsed GPU time in milliseconds.
  float elapsed_ms() {
    PEER_CUDA(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    PEER_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

struct Summary {
  double median_ms = 0.0;
  double min_ms = 0.0;
};

// Median (mean of the two middle values for an even count) and minimum.
inline Summary summarize(std::vector<float> samples) {
  if (samples.empty()) throw Error("no timed runs");
  std::sort(samples.begin(), samples.end());
  const std::size_t mid = samples.size() / 2;
  Summary s;
  s.median_ms = samples.size() % 2 == 1 ? samples[mid] : 0.5 * (double(samples[mid - 1]) + samples[mid]);
  s.min_ms = samples.front();
  return s;
}

// Deterministic 64-bit generator (splitmix64, bench/splitmix64.hpp): the same seed gives the same
// data on every platform, unlike the std:: distributions.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return vkc::bench::splitmix64(state_); }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += esc;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Seven significant digits: finer than cudaEvent resolution, and valid JSON.
inline std::string json_number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", value);
  return buf;
}

inline std::string device_name(int device) {
  cudaDeviceProp prop{};
  PEER_CUDA(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

inline int runtime_version() {
  int version = 0;
  PEER_CUDA(cudaRuntimeGetVersion(&version));
  return version;
}

// Minimal "--name value" command-line reader.
class Args {
 public:
  Args(int argc, char** argv) : args_(argv + 1, argv + argc) {}

  bool has_flag(const std::string& name) const {
    return std::find(args_.begin(), args_.end(), name) != args_.end();
  }

  // Prints `usage` to stdout when the command line holds --help or -h, and says whether it did.
  bool printed_help(const char* usage) const {
    if (!has_flag("--help") && !has_flag("-h")) return false;
    std::fputs(usage, stdout);
    return true;
  }

  // The value after --name, or `fallback` when the option is absent.
  std::string get(const std::string& name, const std::string& fallback) {
    for (std::size_t i = 0; i < args_.size(); ++i) {
      if (args_[i] != name) continue;
      if (i + 1 >= args_.size()) throw Error("option " + name + " needs a value");
      used_.push_back(name);
      return args_[i + 1];
    }
    return fallback;
  }

  std::string require(const std::string& name) {
    const std::string value = get(name, "");
    if (value.empty()) throw Error("option " + name + " is required (see --help)");
    return value;
  }

  // Call after every get(): rejects options that no one asked for.
  void reject_unknown() const {
    for (std::size_t i = 0; i < args_.size(); i += 2) {
      if (std::find(used_.begin(), used_.end(), args_[i]) == used_.end()) {
        throw Error("unknown option or missing value: " + args_[i]);
      }
    }
  }

 private:
  std::vector<std::string> args_;
  std::vector<std::string> used_;
};

inline std::uint64_t parse_u64(const std::string& text, const std::string& what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw Error(what + ": not a non-negative integer: '" + text + "'");
  }
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) throw Error(what + ": out of range: '" + text + "'");
  return value;
}

inline double parse_double(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) throw Error(what + ": not a number: '" + text + "'");
  return value;
}

// "1024,65536" -> {1024, 65536}; every entry must be at least 1.
inline std::vector<std::uint64_t> parse_sizes(const std::string& text, const std::string& what) {
  std::vector<std::uint64_t> sizes;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::uint64_t n = parse_u64(text.substr(begin, comma - begin), what);
    if (n == 0) throw Error(what + ": sizes must be at least 1");
    sizes.push_back(n);
    begin = comma + 1;
  }
  return sizes;
}

// Runs body() and turns any exception into one line on stderr and exit code 1.
template <typename Body>
int guarded_main(const char* program, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return 1;
  }
}

}  // namespace peer
