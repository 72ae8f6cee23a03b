#include "cli/run_config.h"

#include <gtest/gtest.h>

#include "backend/registry.h"

namespace caliber {
namespace {

TEST(MeasureOptionsFromKnobs, CarriesSamplingAndCaliberKnobs) {
  Knobs knobs;
  knobs.cache = CacheState::kCold;
  knobs.flush_method = FlushMethod::kWriteRead;
  knobs.policy = SamplePolicy::kAdaptive;
  knobs.repeat = 4;
  knobs.noise_target = 0.01;
  knobs.quantiles = {0.2};
  knobs.graph_upload = true;
  knobs.graph_warm_each = true;
  MeasureOptions options =
      measure_options_from_knobs(knobs, "softmax", find_backend("", "cuda").classifier, true);
  EXPECT_EQ(options.op, "softmax");
  EXPECT_TRUE(options.capture_denied);
  EXPECT_EQ(options.cache, CacheState::kCold);
  EXPECT_EQ(options.flush_method, FlushMethod::kWriteRead);
  EXPECT_EQ(options.sampling.policy, SamplePolicy::kAdaptive);
  EXPECT_DOUBLE_EQ(options.sampling.noise_target, 0.01);
  EXPECT_EQ(options.repeat, 4);
  EXPECT_EQ(options.quantiles, (std::vector<double>{0.2}));
  EXPECT_TRUE(options.graph.upload);
  EXPECT_TRUE(options.graph.warm_each);
  EXPECT_EQ(options.classifier.classify("cudaErrorStreamCaptureUnjoined"),
            CaptureVerdict::kPoisoned);
}

TEST(ShapeSourcesFromKnobs, CarryLevelModeFileAndBackend) {
  Knobs knobs;
  knobs.level = Level::kComprehensive;
  knobs.shape_mode = ShapeMode::kBuiltin;
  knobs.shape_file = "my.yaml";
  ShapeSources sources = shape_sources(knobs, "cpu");
  EXPECT_EQ(sources.level, Level::kComprehensive);
  EXPECT_EQ(sources.mode, ShapeMode::kBuiltin);
  EXPECT_EQ(sources.shape_file, "my.yaml");
  EXPECT_EQ(sources.backend, "cpu");
}

}  // namespace
}  // namespace caliber
