#include "cli/run_config.h"

#include <utility>

namespace caliber {

MeasureOptions measure_options_from_knobs(const Knobs& knobs, std::string op,
                                          FailureClassifier classifier, bool capture_denied) {
  MeasureOptions options;
  options.op = std::move(op);
  options.classifier = std::move(classifier);
  options.capture_denied = capture_denied;
  options.cache = knobs.cache;
  options.flush_mb = knobs.flush_mb;
  options.sampling = SamplingSettings{.policy = knobs.policy,
                                      .warmup_ms = knobs.warmup_ms,
                                      .rep_ms = knobs.rep_ms,
                                      .noise_target = knobs.noise_target,
                                      .min_samples = knobs.min_samples,
                                      .min_time_s = knobs.min_time_s,
                                      .max_time_s = knobs.max_time_s};
  options.return_mode = knobs.return_mode;
  options.quantiles = knobs.quantiles;
  options.repeat = knobs.repeat;
  options.throttle_fraction = knobs.throttle_fraction;
  options.graph.warmup_ms = knobs.warmup_ms;
  return options;
}

ShapeSources shape_sources(const Knobs& knobs, const std::string& backend) {
  ShapeSources sources;
  sources.level = knobs.level;
  sources.mode = knobs.shape_mode;
  sources.shape_file = knobs.shape_file;
  sources.backend = backend;
  return sources;
}

}  // namespace caliber
