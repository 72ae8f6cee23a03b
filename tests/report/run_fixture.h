#pragma once

// Small run and batch directories written by tests, in the layout `caliber run` and the batch
// driver produce (run_identity.json, results.jsonl, ops/<op>/, ops_status.csv).

#include <ftw.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/result_row.h"
#include "core/run_identity.h"
#include "core/stats.h"

namespace caliber::testing {

// Latency samples around `center` with relative spread `spread`: deterministic (a fixed
// generator and Box-Muller), so a test's verdict never depends on the standard library.
inline std::vector<double> synthetic_samples(double center, double spread, int n, uint64_t seed) {
  uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0;
  };
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    double z = std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
    out.push_back(center * (1 + spread * z));
  }
  return out;
}

inline RunIdentity test_identity() {
  RunIdentity id;
  id.backend = "cuda";
  id.device_model = "Test GPU";  // no shipped calibration answers to it
  id.timer = "graph";
  id.cache = "hot";
  id.repeat = 1;
  id.policy = "fixed";
  id.level = "core";
  id.shape_mode = "default";
  id.shape_set = "sha256:0123";
  id.tuner_mode = "off";
  id.provider = "baseline";
  id.dtypes = {"float16"};
  id.harness_version = "test";
  return id;
}

inline ResultRow test_row(const std::string& op, const std::string& family,
                          const std::vector<double>& samples,
                          const std::string& provider = "baseline") {
  ResultRow r;
  r.op = op;
  r.family = family;
  r.dtype = "float16";
  r.shape = {{1024, 1024}};
  r.size_detail = "[torch.Size([1024, 1024])]";
  r.provider = provider;
  r.timer_requested = "graph";
  r.timer_used = "graph";
  r.cache = "hot";
  r.policy = "fixed";
  r.samples_ms = samples;
  r.sample_count = static_cast<int>(samples.size());
  if (!samples.empty()) {
    r.median_ms = r.latency_ms = median(samples);
    r.mean_ms = mean(samples);
    r.noise = relative_noise_of_median(samples);
  }
  return r;
}

inline void write_run(const std::filesystem::path& dir, const RunIdentity& identity,
                      const std::vector<ResultRow>& rows) {
  std::filesystem::create_directories(dir);
  write_identity((dir / "run_identity.json").string(), identity);
  std::string lines;
  for (const auto& row : rows) lines += to_jsonl_line(row) + "\n";
  write_file_atomic(dir / "results.jsonl", lines);
}

// A small batch directory as the batch driver writes it: three families, baseline and candidate
// rows (each op's candidate has its own speed, times `candidate_scale`), one failed row, one
// dismissed op.
inline void write_sample_batch(const std::filesystem::path& dir, double candidate_scale,
                               uint64_t seed) {
  struct Op {
    const char* name;
    const char* family;
    double ms;
    double candidate;  // candidate latency / baseline latency in A
  };
  const Op ops[] = {{"mm", "blas", 0.21, 0.7},
                    {"bmm", "blas", 0.42, 0.9},
                    {"add", "pointwise", 0.03, 1.3},
                    {"mul", "pointwise", 0.031, 1.2},
                    {"sum", "reduction", 0.05, 1.0}};
  for (const Op& op : ops) {
    std::vector<ResultRow> rows;
    for (long n : {256L, 1024L, 4096L}) {
      double scale = static_cast<double>(n) / 1024.0;
      auto base = test_row(op.name, op.family, synthetic_samples(op.ms * scale, 0.01, 60, seed++));
      base.shape = {{n, n}};
      base.size_detail = "[torch.Size([" + std::to_string(n) + ", " + std::to_string(n) + "])]";
      base.gbps = 1200 * scale;
      auto cand = base;
      cand.provider = "python:flag_gems";
      cand.samples_ms =
          synthetic_samples(op.ms * scale * op.candidate * candidate_scale, 0.01, 60, seed++);
      cand.median_ms = cand.latency_ms = median(cand.samples_ms);
      cand.baseline_ms = base.median_ms;
      cand.speedup = base.median_ms / cand.median_ms;
      rows.push_back(base);
      rows.push_back(cand);
    }
    if (std::string(op.name) == "sum") {
      rows.back().status = RowStatus::kFailed;
      rows.back().error = "RuntimeError: triton compile failed <BLOCK_N=4096>";
      rows.back().samples_ms.clear();
    }
    RunIdentity id = test_identity();
    id.op_node = op.name;
    write_run(dir / "ops" / op.name, id, rows);
  }
  write_file_atomic(dir / "ops_status.csv",
                    "op,status,attempts,dtypes_passed,dtypes_failed,backend,device,timer_used,"
                    "wall_s,exit,signal,error\n"
                    "mm,ok,1,float16,,cuda,0,graph,3.2,0,,\n"
                    "sum,failed,1,,float16,cuda,0,graph,2.0,1,,one row failed\n"
                    "unique,dismissed,0,,,cuda,0,,0,,,\"host sync inside the op (verified on "
                    "H200)\"\n");
}

// A fresh directory under the system temp dir, removed when the object goes.
class TempDir {
 public:
  // mkdtemp rather than pid and counter: pids wrap (pid_max is 32768 on the test machine) and a
  // test process that crashed leaves its directory behind, which a later process with the same pid
  // then silently shared, stale files included.
  explicit TempDir(const std::string& name) {
    std::string pattern = (std::filesystem::temp_directory_path() / (name + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
    }
    path_ = pattern;
  }
  // nftw rather than std::filesystem::remove_all: binaries that link libtorch resolve the
  // latter to the copy libtorch exports, which crashes.
  ~TempDir() {
    ::nftw(
        path_.c_str(),
        [](const char* file, const struct stat*, int, struct FTW*) { return ::remove(file); }, 16,
        FTW_DEPTH | FTW_PHYS);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace caliber::testing
