#pragma once

#include <string>
#include <string_view>

#include "core/choice.h"

namespace caliber {

// The settings that change what a number means. Each is part of the run identity, so two
// runs that differ in one of them are never compared silently.
enum class Timer { kAuto, kGraph, kDirect, kBatch, kKernel, kHost };
enum class CacheState { kHot, kCold };
enum class SamplePolicy { kFixed, kAdaptive };
enum class TunerMode { kOff, kRecord, kReplay };
enum class Level { kCore, kComprehensive };
enum class ShapeMode { kFile, kBuiltin };
enum class ReturnMode { kMedian, kMean, kMin, kMax, kAll };
// How the cold cache is made before each sample. `write` overwrites a buffer larger than the
// cache (a memset, as triton's do_bench zeroes one): the cache is left full of dirty lines that
// the timed call's own traffic must write back. `read` reads such a buffer, leaving clean lines
// that are dropped for free. `write_read` writes, then reads, so the write-backs happen during
// the flush. docs/measurement.md, "Cache state".
enum class FlushMethod { kWrite, kRead, kWriteRead };

// The flush a cold run uses when none is asked for: `read`, chosen on an H200 against ncu's
// cold cache (docs/measurement.md, "Flush methods"). Changing it changes every cold number (the
// compare gate keeps runs of different methods apart through `flush_method`).
constexpr FlushMethod kDefaultFlushMethod = FlushMethod::kRead;

// Graphs the graph timer captures per measurement (docs/measurement.md, "Graph captures"): eight
// kept every case's CV across repeats within issue 22's limits on the H200, where one capture
// missed them. They share one graph's replay target and are bounded by device memory, so eight
// cost about what one did.
constexpr int kDefaultGraphCaptures = 8;

const Choice<Timer>& timer_choice();
const Choice<CacheState>& cache_choice();
const Choice<SamplePolicy>& policy_choice();
const Choice<TunerMode>& tuner_choice();
const Choice<Level>& level_choice();
const Choice<ShapeMode>& shape_mode_choice();
const Choice<ReturnMode>& return_mode_choice();
const Choice<FlushMethod>& flush_method_choice();

inline const char* to_string(Timer v) { return timer_choice().name(v); }
inline const char* to_string(CacheState v) { return cache_choice().name(v); }
inline const char* to_string(SamplePolicy v) { return policy_choice().name(v); }
inline const char* to_string(TunerMode v) { return tuner_choice().name(v); }
inline const char* to_string(Level v) { return level_choice().name(v); }
inline const char* to_string(ShapeMode v) { return shape_mode_choice().name(v); }
inline const char* to_string(ReturnMode v) { return return_mode_choice().name(v); }
inline const char* to_string(FlushMethod v) { return flush_method_choice().name(v); }

// The cache state as a caliber: "hot", "cold", "cold,flush_mb=256" when the flush size was
// chosen (it changes host-bound numbers, so the compare gate must see it), and
// ",flush=read" / ",flush=write_read" for a flush other than `write`. A bare "cold" means the
// write flush whatever the default is, because that is what it meant in every artifact written
// before the flush had a method.
std::string cache_caliber(CacheState cache, double flush_mb, FlushMethod flush_method);

}  // namespace caliber
