#include "core/caliber_options.h"

namespace caliber {

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

const Choice<Timer>& timer_choice() {
  static const Choice<Timer> c{{"auto", Timer::kAuto},     {"graph", Timer::kGraph},
                               {"direct", Timer::kDirect}, {"batch", Timer::kBatch},
                               {"kernel", Timer::kKernel}, {"host", Timer::kHost}};
  return c;
}
const Choice<CacheState>& cache_choice() {
  static const Choice<CacheState> c{{"hot", CacheState::kHot}, {"cold", CacheState::kCold}};
  return c;
}
const Choice<SamplePolicy>& policy_choice() {
  static const Choice<SamplePolicy> c{{"fixed", SamplePolicy::kFixed},
                                      {"adaptive", SamplePolicy::kAdaptive}};
  return c;
}
const Choice<TunerMode>& tuner_choice() {
  static const Choice<TunerMode> c{
      {"off", TunerMode::kOff}, {"record", TunerMode::kRecord}, {"replay", TunerMode::kReplay}};
  return c;
}
const Choice<Level>& level_choice() {
  static const Choice<Level> c{{"core", Level::kCore}, {"comprehensive", Level::kComprehensive}};
  return c;
}
const Choice<ShapeMode>& shape_mode_choice() {
  static const Choice<ShapeMode> c{{"file", ShapeMode::kFile}, {"builtin", ShapeMode::kBuiltin}};
  return c;
}
const Choice<ReturnMode>& return_mode_choice() {
  static const Choice<ReturnMode> c{{"median", ReturnMode::kMedian},
                                    {"mean", ReturnMode::kMean},
                                    {"min", ReturnMode::kMin},
                                    {"max", ReturnMode::kMax},
                                    {"all", ReturnMode::kAll}};
  return c;
}

const Choice<FlushMethod>& flush_method_choice() {
  static const Choice<FlushMethod> c{{"write", FlushMethod::kWrite},
                                     {"read", FlushMethod::kRead},
                                     {"write_read", FlushMethod::kWriteRead}};
  return c;
}

std::string cache_caliber(CacheState cache, double flush_mb, FlushMethod flush_method) {
  std::string text = to_string(cache);
  if (cache != CacheState::kCold) return text;
  if (flush_mb > 0) text += fmt::format(",flush_mb={}", flush_mb);
  if (flush_method != FlushMethod::kWrite)
    text += fmt::format(",flush={}", to_string(flush_method));
  return text;
}

}  // namespace caliber
