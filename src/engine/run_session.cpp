#include "engine/run_session.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>

#include "core/error.h"
#include "core/process_memory.h"
#include "engine/case_runner.h"
#include "engine/device/device_context.h"

namespace caliber {

bool releases_cache_after_dtype(bool last_dtype, bool fatal,
                                const std::optional<DeviceMemory>& memory) {
  if (last_dtype || fatal || !memory) return true;
  return memory->free_bytes < memory->total_bytes / 2;
}

int RunSession::run(RunIdentity identity, const std::string& banner,
                    std::chrono::steady_clock::time_point started) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };
  const RunConfig& c = config_;
  const Clock::time_point begun = Clock::now();
  each_sink([&](RunSink& s) { s.begin(identity, banner); });

  std::unique_ptr<DeviceContext> own;
  if (c.fresh_device_context) {
    own =
        std::make_unique<DeviceContext>(*c.backend, c.device_index, c.device, c.generic_device_api);
  }
  DeviceContext& device =
      own ? *own
          : shared_device_context(*c.backend, c.device_index, c.device, c.generic_device_api);
  const Clock::time_point opened = Clock::now();
  // A warm pass's runs share the device with each other: peaks measured there would be wrong,
  // and a warm run keeps no rows to rate against them.
  if (!c.warm_only) {
    device.load_or_measure_peaks(c.peaks_file);
    // After the peaks: their 8192^3 probe product must not enter the tuner's records.
    device.configure_gemm_tuner(c.tuner, c.tuner_file);
  }
  const Clock::time_point tuned = Clock::now();

  CaseRunner::Setup setup;
  setup.plan = c.timers;
  setup.measure = c.measure;
  setup.state_dir = c.state_dir;
  setup.candidate = candidate_;
  CaseRunner runner(*c.op, device, setup);
  const Clock::time_point ready = Clock::now();
  double in_cases_s = 0;
  double releasing_s = 0;  // handing the allocator's cache back after each dtype

  const size_t total = c.dtypes.size() * c.case_indices.size();
  size_t done = 0;
  RunEnd end;
  size_t warm_failed = 0;
  size_t warm_not_covered = 0;
  std::string warm_first_failure;
  for (DType dtype : c.dtypes) {
    std::vector<ResultRow> dtype_rows;
    for (size_t index : c.case_indices) {
      if (runner.stopped()) break;
      const ShapeCase& shape = c.shapes.cases[index];
      each_sink([&](RunSink& s) {
        s.progress(fmt::format("{} {} {}/{}  {}", c.op->name(), dtype_name(dtype), done + 1, total,
                               shape.label()));
      });
      std::vector<ResultRow> rows;
      const Clock::time_point case_start = Clock::now();
      try {
        if (c.warm_only) {
          CaseRunner::Warmed warmed = runner.warm_case(shape, dtype);
          in_cases_s += seconds(case_start, Clock::now());
          ++done;
          if (!warmed.covered) ++warm_not_covered;
          if (warmed.failure.empty()) continue;
          if (warm_failed++ == 0) {
            warm_first_failure =
                fmt::format("{} {}: {}", dtype_name(dtype), shape.label(), warmed.failure);
          }
          continue;
        }
        rows = runner.run_case(shape, dtype, c.shapes.shape_desc);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::kDeviceFatal) throw;
        ResultRow row = runner.case_row(shape, dtype, c.shapes.shape_desc);
        row.status = RowStatus::kFailed;
        row.error = error_summary(e.what());
        row.markers.push_back("DEVICE_FATAL");
        rows.push_back(row);
        end.fatal = e.what();
      }
      in_cases_s += seconds(case_start, Clock::now());
      each_sink([&](RunSink& s) { s.case_rows(rows); });
      for (const auto& row : rows) {
        ++end.rows;
        if (row.status == RowStatus::kFailed) ++end.failed;
      }
      dtype_rows.insert(dtype_rows.end(), rows.begin(), rows.end());
      ++done;
      if (!end.fatal.empty()) break;
    }
    if (!c.warm_only) {
      DtypeRows table{c.op->name(), dtype_name(dtype), to_string(c.timers.primary), c.level,
                      dtype_rows};
      each_sink([&](RunSink& s) { s.dtype_done(table); });
    }
    if (releases_cache_after_dtype(dtype == c.dtypes.back(), !end.fatal.empty(),
                                   device.api().memory())) {
      const Clock::time_point release_start = Clock::now();
      device.release_cached_memory();
      releasing_s += seconds(release_start, Clock::now());
    }
    if (!end.fatal.empty()) break;
  }
  if (!end.fatal.empty()) {
    end.exit_code = 3;
  } else if (end.failed > 0) {
    end.exit_code = 1;
  }
  identity.end_time = utc_now_iso8601();
  const Clock::time_point finished = Clock::now();
  end.wall_s = seconds(started, finished);
  // A worker runs op after op in one process: these figures, op by op, show whether a sweep
  // grows host or device memory.
  const DeviceMemoryUse held = device.memory_in_use();
  end.host_rss_bytes = resident_set_bytes().value_or(0);
  end.device_allocated_bytes = held.allocated_bytes;
  end.device_reserved_bytes = held.reserved_bytes;
  end.text = fmt::format(
      "caliber run end {}: {} rows, {} failed, wall {:.1f} s, exit {}{}\n"
      "  memory after the run: host rss {:.1f} MiB, device allocated {:.1f} MiB, reserved {:.1f} "
      "MiB (pid {})\n"
      // Where an op's time goes besides its cases: a screen of a thousand ops pays it a thousand
      // times.
      "  time: {:.3f} s before the first case (plan and files {:.3f}, device {:.3f}, peaks and "
      "tuner {:.3f}, op {:.3f}), {:.3f} s in cases, {:.3f} s around them ({:.3f} releasing "
      "cached memory)\n"
      "{}"
      "  artifacts: {}\n",
      identity.end_time, end.rows, end.failed, end.wall_s, end.exit_code,
      end.fatal.empty() ? "" : "  DEVICE FATAL: " + error_summary(end.fatal),
      static_cast<double>(end.host_rss_bytes) / kMiB,
      static_cast<double>(end.device_allocated_bytes) / kMiB,
      static_cast<double>(end.device_reserved_bytes) / kMiB, getpid(), seconds(started, ready),
      seconds(started, begun), seconds(begun, opened), seconds(opened, tuned),
      seconds(tuned, ready), in_cases_s, seconds(ready, finished) - in_cases_s, releasing_s,
      c.warm_only ? fmt::format("  warm only: {} case(s) warmed, {} failed{}, {} not covered\n",
                                done - warm_not_covered, warm_failed,
                                warm_failed > 0 ? " (first: " + warm_first_failure + ")" : "",
                                warm_not_covered)
                  : "",
      c.artifacts.string());
  each_sink([&](RunSink& s) { s.end(identity, end); });
  return end.exit_code;
}

}  // namespace caliber
