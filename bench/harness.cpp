#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "common.hpp"
#include "core/recorder.hpp"
#include "io/atomic_file.hpp"

namespace vkc::bench {

Stats summarize(std::vector<double> ms) {
  if (ms.empty()) throw Error("no measurements to summarise");
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  const double median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return {median, ms.front(), ms.back(), static_cast<int>(n)};
}

Stats time_gpu(Context& ctx, int warmup, int runs, const std::function<void(Recorder&)>& prepare,
               const std::function<void(Recorder&)>& work) {
  TimestampQueries queries(ctx, 2);
  // One submission: `prepare`, a barrier, then `work` `repeat` times between the timestamps.
  // The barrier that makes `prepare`'s writes (the fresh input) visible belongs to the input, as
  // the barrier contract of sort.hpp makes it the caller's: it stays out of the timed region, as
  // the stream order after CUB's untimed input copy does. (On an H100 it cost ~3 us inside.)
  auto run = [&](int repeat) {
    ctx.run([&](Recorder& r) {
      if (prepare) prepare(r);
      r.barrier_all();
      r.reset_queries(queries.pool(), 0, 2);
      r.write_timestamp(queries.pool(), 0);
      for (int k = 0; k < repeat; ++k) work(r);
      r.write_timestamp(queries.pool(), 1);
    });
    return queries.elapsed_ns(0, 1) / 1e6;
  };
  // A GPU idles at a low clock between bursts (an H200's SMs near 345 MHz) and needs tens of
  // milliseconds of steady work to reach its full clock, so the warm-up lasts `warmup` runs and
  // at least 300 ms of GPU time, the work repeated within a submission (up to 1024 times) until
  // each submission keeps the GPU busy for about a millisecond. CPU devices skip the time floor.
  const double warm_floor_ms = warmup > 0 && !ctx.info().is_software() ? 300 : 0;
  double warm_ms = 0;
  int repeat = 1;
  for (int i = 0; i < warmup || (warm_ms < warm_floor_ms && i < 2000); ++i) {
    const double ms = run(repeat);
    warm_ms += ms;
    if (ms < 1.0 && repeat < 1024) repeat *= 2;
  }
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) ms.push_back(run(1));
  return summarize(ms);
}

Stats time_wall(int runs, const std::function<void()>& f) {
  f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(ms);
}

RunInfo run_info(const Context& ctx) {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  return {ctx.info().name, ctx.info().driver_name + " " + ctx.info().driver_info, ctx.info().api_version_string(),
          cli::build_commit(), date};
}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void Table::print_markdown(std::FILE* out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::fputs("|", out);
    for (std::size_t c = 0; c < cells.size(); ++c) std::fprintf(out, " %*s |", static_cast<int>(width[c]), cells[c].c_str());
    std::fputs("\n", out);
  };
  print_row(columns_);
  std::fputs("|", out);
  for (std::size_t c = 0; c < columns_.size(); ++c) std::fprintf(out, "%s|", std::string(width[c] + 1, '-').append(":").c_str());
  std::fputs("\n", out);
  for (const auto& row : rows_) print_row(row);
}

namespace {
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}
}  // namespace

void Table::write_csv(const std::filesystem::path& path, const RunInfo& info) const {
  std::ostringstream csv;
  for (const auto& c : columns_) csv << csv_cell(c) << ",";
  csv << "device,driver,api,commit,date\n";
  for (const auto& row : rows_) {
    for (const auto& cell : row) csv << csv_cell(cell) << ",";
    csv << csv_cell(info.device) << "," << csv_cell(info.driver) << "," << info.api << "," << info.commit << ","
        << info.date << "\n";
  }
  const std::string text = csv.str();
  io::AtomicFile file(path);
  file.write(std::as_bytes(std::span(text.data(), text.size())));
  file.commit();
}

std::string fixed(double value, int digits) {
  if (value < 0) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

std::string significant(double value, int digits) {
  if (value < 0 || !std::isfinite(value)) return "";
  const int magnitude = value > 0 ? static_cast<int>(std::floor(std::log10(value))) : 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(digits - 1 - magnitude, 0, 30), value);
  return buf;
}

}  // namespace vkc::bench
