// probe-narrow: GPU time of the radix sort for the narrow key types (u8 u16 i16 f16 bf16) beside
// u32 keys, whole and with end_bit = 16 (the bit range a 16-bit key's passes match), on one
// device. Each run copies a pristine input into the keys buffer (a separate, untimed submission)
// and times the recorded sort alone (the temporary buffer's clearing fill included); the median
// of the runs after warm-up (runs for at least 600 ms, so that the GPU's clock is up after the
// seconds of drawing the input: docs/perf-notes.md#python-package) is printed, and every output is checked for order (keys' ordered
// images non-decreasing) and for its multiset (the sum of the input's key bits).
//
//   probe-narrow [--sizes 24,26,28] [--runs 15] [--cases u32,u32b16,u16,i16,f16,bf16,u8] [--fresh 1]
// The buffers are made once, for the largest sort, and serve every case; --fresh 1 makes each
// case its own (allocation's effect on the sort's time). --clear 1 zero-fills the temporary
// buffer once per case and sorts with temporary_is_clear, as vkc bench sort does. --inline 1
// copies the input in the sort's own submission, before a barrier and the first timestamp (as
// vkc bench sort does), rather than in a submission of its own; --internal 1 records the sort
// with it through the library's internal recorder (as vkc bench sort does) rather than the public
// record_sort.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/recorder.hpp"
#include "sort/key_bits.hpp"
#include "sort/record.hpp"
#include "sort/workspace.hpp"
#include "vkc/vkc.hpp"

namespace {

struct Case {
  std::string name;
  vkc::KeyType type;
  std::uint32_t end_bit = UINT32_MAX;
};

Case parse_case(const std::string& name) {
  if (name == "u32b16") return {name, vkc::KeyType::u32, 16};
  for (vkc::KeyType t : vkc::sorting::kKeyTypes) {
    if (vkc::to_string(t) == name) return {name, t};
  }
  throw vkc::Error("unknown case " + name);
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

// Random bytes that are keys of any type (NaN patterns included for floats).
std::vector<std::uint8_t> random_keys(std::uint64_t bytes, std::uint64_t seed) {
  std::vector<std::uint8_t> data(bytes);
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i + 8 <= bytes; i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(data.data() + i, &r, 8);
  }
  return data;
}

// Whether `out` holds `in`'s keys (as the sort returns them) in non-decreasing order of their
// images cut to the range.
bool verified(const Case& c, const std::vector<std::uint8_t>& in, const std::vector<std::uint8_t>& out, std::uint64_t n) {
  vkc::SortOptions range;
  range.end_bit = c.end_bit;
  return vkc::sorting::with_key_bits(c.type, range, [&](auto bits) {
    std::uint64_t sum_in = 0, sum_out = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      sum_in += bits.canonical(bits.load(in.data(), i));
      sum_out += bits.load(out.data(), i);
      if (i > 0 && bits.rank(bits.load(out.data(), i), false) < bits.rank(bits.load(out.data(), i - 1), false)) return false;
    }
    return sum_in == sum_out;
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> sizes = {"24", "26", "28"}, cases = {"u32", "u32b16", "u16", "i16", "f16", "bf16", "u8"};
  int runs = 15;
  bool fresh = false, clear = false, inline_copy = false, internal = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--sizes") sizes = split(argv[i + 1]);
    else if (flag == "--runs") runs = std::stoi(argv[i + 1]);
    else if (flag == "--cases") cases = split(argv[i + 1]);
    else if (flag == "--fresh") fresh = std::stoi(argv[i + 1]) != 0;
    else if (flag == "--clear") clear = std::stoi(argv[i + 1]) != 0;
    else if (flag == "--inline") inline_copy = std::stoi(argv[i + 1]) != 0;
    else if (flag == "--internal") internal = std::stoi(argv[i + 1]) != 0;
  }
  vkc::Context ctx;
  std::printf("%s\ncase,n,ms,g_keys_per_s,verified,min_ms,max_ms\n", ctx.info().name.c_str());
  // The shared buffers: the most bytes of keys and of temporary storage any case needs.
  std::uint64_t most_keys = 4, most_temporary = 16;
  for (const std::string& size : sizes) {
    for (const std::string& name : cases) {
      const Case c = parse_case(name);
      const std::uint64_t n = std::uint64_t{1} << std::stoi(size);
      vkc::SortDesc desc{c.type, vkc::ValueType::none, n, {.algorithm = vkc::SortAlgorithm::radix}};
      desc.options.end_bit = c.end_bit;
      most_keys = std::max<std::uint64_t>(most_keys, n * vkc::key_bytes(c.type));
      most_temporary = std::max(most_temporary, vkc::sort_temporary_bytes(ctx, desc));
    }
  }
  vkc::Buffer shared_pristine, shared_keys, shared_temporary;
  if (!fresh) {
    shared_pristine = ctx.create_buffer(most_keys);
    shared_keys = ctx.create_buffer(most_keys);
    shared_temporary = ctx.create_buffer(most_temporary);
  }
  for (const std::string& size : sizes) {
    const std::uint64_t n = std::uint64_t{1} << std::stoi(size);
    for (const std::string& name : cases) {
      const Case c = parse_case(name);
      const std::uint64_t bytes = n * vkc::key_bytes(c.type);
      const std::vector<std::uint8_t> input = random_keys(bytes, n + bytes);
      vkc::SortDesc desc{c.type, vkc::ValueType::none, n, {.algorithm = vkc::SortAlgorithm::radix}};
      desc.options.end_bit = c.end_bit;
      vkc::Buffer own_pristine, own_keys, own_temporary;
      if (fresh) {
        own_pristine = ctx.create_buffer(bytes);
        own_keys = ctx.create_buffer(bytes);
        own_temporary = ctx.create_buffer(vkc::sort_temporary_bytes(ctx, desc));
      }
      const vkc::Buffer& pristine = fresh ? own_pristine : shared_pristine;
      const vkc::Buffer& keys = fresh ? own_keys : shared_keys;
      const vkc::Buffer& temporary = fresh ? own_temporary : shared_temporary;
      ctx.upload(pristine, input.data(), bytes);
      if (clear) ctx.run([&](vkc::Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0); });
      vkc::SortBuffers buffers{{keys.handle()}, {}, {temporary.handle()}};
      buffers.temporary_is_clear = clear;
      std::vector<double> ms;
      bool ok = true;
      const auto warm_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
      int warmup = 0;
      for (int r = 0; r < warmup + runs; ++r) {
        double ns = 0;
        if (inline_copy) {
          vkc::TimestampQueries queries(ctx, 2);
          ctx.run([&](vkc::Recorder& rec) {
            ctx.record_copy(rec, pristine, keys, bytes);
            rec.barrier_all();
            rec.reset_queries(queries.pool(), 0, 2);
            rec.write_timestamp(queries.pool(), 0);
            if (internal) {
              vkc::sorting::record(vkc::sorting::sort_device(ctx), rec, desc, n, buffers);
            } else {
              vkc::record_sort(ctx, rec.commands(), desc, n, buffers);
            }
            rec.write_timestamp(queries.pool(), 1);
          });
          ns = queries.elapsed_ns(0, 1);
        } else {
          ctx.copy(pristine, keys, bytes);
          ns = ctx.run_timed([&](vkc::Recorder& rec) { vkc::record_sort(ctx, rec.commands(), desc, n, buffers); });
        }
        if (warmup == r && (r < 3 || std::chrono::steady_clock::now() < warm_until)) {
          ++warmup;
        } else {
          ms.push_back(ns / 1e6);
        }
        if (r == 0 || r == warmup + runs - 1) {
          std::vector<std::uint8_t> out(bytes);
          ctx.download(keys, out.data(), bytes);
          ok = ok && verified(c, input, out, n);
        }
      }
      const double m = median(ms);
      std::printf("%s,%llu,%.4f,%.2f,%s,%.4f,%.4f\n", name.c_str(), static_cast<unsigned long long>(n), m, n / m / 1e6,
                  ok ? "yes" : "NO", *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()));
      std::fflush(stdout);
    }
  }
}
