// The benchmark harness: GPU time from timestamps (warm-up, median of many runs, an untimed
// preparation before every run so each sees a fresh copy of its input), run metadata, and
// Markdown/CSV output. Verifying results is the caller's job, before it reports a time.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "vkc/context.hpp"  // Recorder, declared: its definition is the benchmarks' own include

namespace vkc::bench {

struct Stats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int runs = 0;
};

/// Median, min and max of a non-empty sample (milliseconds).
Stats summarize(std::vector<double> ms);

/// Times `work` on the GPU. Each run is one submission: `prepare` (not timed; e.g. copy the
/// pristine input into the working buffer), a barrier, a timestamp, `work`, a timestamp. A
/// warm-up of `warmup` runs, extended on GPUs to at least 300 ms of GPU time (so that clocks
/// leave idle), comes first; the next `runs` are summarised.
Stats time_gpu(Context& ctx, int warmup, int runs, const std::function<void(Recorder&)>& prepare,
               const std::function<void(Recorder&)>& work);

/// Wall-clock median of `runs` calls of `f` after one warm-up call (milliseconds).
Stats time_wall(int runs, const std::function<void()>& f);

/// Who ran where and when: device, driver, API version, commit, UTC date.
struct RunInfo {
  std::string device;
  std::string driver;
  std::string api;
  std::string commit;
  std::string date;
};
RunInfo run_info(const Context& ctx);

/// A table that prints as Markdown and saves as CSV (the same columns, with RunInfo appended).
class Table {
 public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells);
  void print_markdown(std::FILE* out) const;
  /// Writes atomically (temporary file renamed over the target).
  void write_csv(const std::filesystem::path& path, const RunInfo& info) const;
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return columns_; }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// "1.234" with `digits` decimals, or "" for a negative (absent) value.
std::string fixed(double value, int digits = 3);

/// `value` with `digits` significant digits in plain decimal notation ("0.0001234", "12346",
/// "1.500"), so that neither a small nor a large value rounds away; "" for a negative value.
std::string significant(double value, int digits = 4);

}  // namespace vkc::bench
