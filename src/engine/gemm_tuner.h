#pragma once

#include <string>

#include "core/caliber_options.h"

namespace caliber {

// The baseline's GEMM tuner (PyTorch TunableOp). record: tune every new GEMM and append the
// results to `results_file` as they are found; replay: load `results_file` and never tune;
// off: TunableOp disabled. The caller has made check_gemm_tuner() first; a replay file that
// TunableOp rejects is a usage error.
void configure_gemm_tuner(TunerMode mode, const std::string& results_file,
                          const std::string& torch_device_type);

// The usage checks of configure_gemm_tuner() alone, touching no device: `caliber run` makes them
// before it creates the run directory.
void check_gemm_tuner(TunerMode mode, const std::string& results_file,
                      const std::string& torch_device_type);

// Number of tuned GEMM solutions TunableOp holds now (0 without CUDA).
size_t gemm_tuner_result_count();

}  // namespace caliber
