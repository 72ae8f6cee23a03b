#include "engine/gemm_tuner.h"

#include <filesystem>

#include "core/error.h"

#ifdef CALIBER_HAVE_CUDA
#include <ATen/cuda/tunable/Tunable.h>
#endif

namespace caliber {

void check_gemm_tuner(TunerMode mode, const std::string& results_file,
                      const std::string& torch_device_type) {
  if (mode == TunerMode::kOff) return;
  if (torch_device_type != "cuda") {
    throw_usage(
        "--tuner: '{}' needs a backend with a GEMM tuner (PyTorch TunableOp runs on cuda "
        "and rocm); accepted here: off",
        to_string(mode));
  }
  if (mode == TunerMode::kReplay && !std::filesystem::exists(results_file)) {
    throw_usage(
        "--tuner-file: '{}' does not exist (replay needs a TunableOp results file from "
        "a --tuner record run)",
        results_file);
  }
#ifndef CALIBER_HAVE_CUDA
  throw_usage("--tuner: this build of caliber has no CUDA support");
#endif
}

void configure_gemm_tuner(TunerMode mode, const std::string& results_file,
                          const std::string& torch_device_type) {
  if (mode == TunerMode::kOff) {
#ifdef CALIBER_HAVE_CUDA
    if (torch_device_type == "cuda") at::cuda::tunable::getTuningContext()->EnableTunableOp(false);
#endif
    return;
  }
  // check_gemm_tuner() was made when the run was configured.
#ifdef CALIBER_HAVE_CUDA
  auto* context = at::cuda::tunable::getTuningContext();
  context->EnableTunableOp(true);
  context->SetFilename(results_file);
  if (mode == TunerMode::kRecord) {
    context->EnableTuning(true);
  } else {
    context->EnableTuning(false);
    if (!context->ReadFile(results_file)) {
      throw_usage(
          "--tuner-file: '{}' was rejected by TunableOp (another torch or library "
          "version wrote it?)",
          results_file);
    }
  }
#endif
}

size_t gemm_tuner_result_count() {
#ifdef CALIBER_HAVE_CUDA
  size_t count = 0;
  for (const auto& [op, kernels] :
       at::cuda::tunable::getTuningContext()->GetTuningResultsManager().Dump()) {
    count += kernels.size();
  }
  return count;
#else
  return 0;
#endif
}

}  // namespace caliber
