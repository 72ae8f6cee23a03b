#include "core/knobs.h"

#include <cstdlib>
#include <filesystem>

#include "core/error.h"
#include "core/flaggems_record.h"

namespace caliber {
namespace {

int parse_int(const std::string& label, const std::string& value, int min) {
  try {
    size_t used = 0;
    long parsed = std::stol(value, &used);
    if (used == value.size() && parsed >= min && parsed <= 1'000'000'000) {
      return static_cast<int>(parsed);
    }
  } catch (const std::exception&) {
  }
  throw_usage("{}: '{}' is not accepted (accepted: an integer >= {})", label, value, min);
}

double parse_double(const std::string& label, const std::string& value, double min, double max) {
  try {
    size_t used = 0;
    double parsed = std::stod(value, &used);
    if (used == value.size() && parsed >= min && parsed <= max) return parsed;
  } catch (const std::exception&) {
  }
  throw_usage("{}: '{}' is not accepted (accepted: a number in [{}, {}])", label, value, min, max);
}

bool parse_bool(const std::string& label, const std::string& value) {
  std::string v = to_lower(value);
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off" || v.empty()) return false;
  throw_usage("{}: '{}' is not accepted (accepted: 1, 0, true, false, yes, no, on, off)", label,
              value);
}

std::vector<double> parse_quantiles(const std::string& label, const std::string& value) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(',', start);
    if (end == std::string::npos) end = value.size();
    std::string item = value.substr(start, end - start);
    if (!item.empty()) out.push_back(parse_double(label, item, 0.0, 1.0));
    start = end + 1;
  }
  return out;
}

template <typename E>
KnobDef choice_knob(std::string name, std::string flag, std::string env, const Choice<E>& choice,
                    E Knobs::*field) {
  return {std::move(name), std::move(flag), std::move(env), choice.accepted(),
          [&choice, field](Knobs& k, const std::string& label, const std::string& v) {
            k.*field = choice.parse(label, v);
          }};
}

KnobDef string_knob(std::string name, std::string flag, std::string env, std::string accepted,
                    std::string Knobs::*field) {
  return {std::move(name), std::move(flag), std::move(env), std::move(accepted),
          [field](Knobs& k, const std::string&, const std::string& v) { k.*field = v; }};
}

KnobDef int_knob(std::string name, std::string flag, std::string env, int min, int Knobs::*field) {
  return {std::move(name), std::move(flag), std::move(env), fmt::format("an integer >= {}", min),
          [field, min](Knobs& k, const std::string& label, const std::string& v) {
            k.*field = parse_int(label, v, min);
          }};
}

KnobDef double_knob(std::string name, std::string flag, double min, double max,
                    double Knobs::*field) {
  return {std::move(name), std::move(flag), "", fmt::format("a number in [{}, {}]", min, max),
          [field, min, max](Knobs& k, const std::string& label, const std::string& v) {
            k.*field = parse_double(label, v, min, max);
          }};
}

KnobDef bool_knob(std::string name, std::string flag, std::string env, bool Knobs::*field) {
  return {std::move(name), std::move(flag), std::move(env), "1, 0, true, false",
          [field](Knobs& k, const std::string& label, const std::string& v) {
            k.*field = parse_bool(label, v);
          }};
}

std::vector<KnobDef> make_table() {
  return {
      string_knob("backend", "--backend", "ZL_BACKEND", "a backend name or alias", &Knobs::backend),
      choice_knob("level", "--level", "BENCH_LEVEL", level_choice(), &Knobs::level),
      {"dtypes", "--dtypes", "DTYPES", accepted_dtypes(),
       [](Knobs& k, const std::string& label, const std::string& v) {
         k.dtypes = parse_dtype_list(label, v);
       }},
      {"shape_mode", "--shape-mode", "SHAPE_MODE", shape_mode_choice().accepted() + ", upstream",
       [](Knobs& k, const std::string& label, const std::string& v) {
         k.shape_upstream = to_lower(v) == "upstream";
         if (k.shape_upstream) {
           k.shape_mode = ShapeMode::kFile;
           return;
         }
         try {
           k.shape_mode = shape_mode_choice().parse(label, v);
         } catch (const Error&) {
           throw_usage("{}: '{}' is not accepted (accepted: {}, upstream)", label, v,
                       shape_mode_choice().accepted());
         }
       }},
      string_knob("shape_file", "--shape-file", "", "a YAML shape file", &Knobs::shape_file),
      string_knob("op", "--op", "OP", "an op name (caliber ops lists them)", &Knobs::op),
      string_knob("node", "--node", "TEST_NODE", "OP or OP::VARIANT", &Knobs::node),
      choice_knob("timer", "--timer", "", timer_choice(), &Knobs::timer),
      bool_knob("enable_graph", "--enable-graph", "ZL_ENABLE_CUDAGRAPH", &Knobs::enable_graph),
      choice_knob("cache", "--cache", "", cache_choice(), &Knobs::cache),
      choice_knob("policy", "--policy", "", policy_choice(), &Knobs::policy),
      choice_knob("return_mode", "--return-mode", "", return_mode_choice(), &Knobs::return_mode),
      {"quantiles", "--quantiles", "", "comma-separated numbers in [0, 1]",
       [](Knobs& k, const std::string& label, const std::string& v) {
         k.quantiles = parse_quantiles(label, v);
       }},
      int_knob("repeat", "--repeat", "ZL_DIRECT_REPEAT", 1, &Knobs::repeat),
      double_knob("warmup_ms", "--warmup-ms", 0, 600000, &Knobs::warmup_ms),
      double_knob("rep_ms", "--rep-ms", 0.001, 600000, &Knobs::rep_ms),
      double_knob("noise_target", "--noise-target", 0.0001, 1, &Knobs::noise_target),
      int_knob("min_samples", "--min-samples", "", 1, &Knobs::min_samples),
      double_knob("min_time_s", "--min-time", 0, 3600, &Knobs::min_time_s),
      double_knob("max_time_s", "--max-time", 0.001, 3600, &Knobs::max_time_s),
      double_knob("throttle_fraction", "--throttle-fraction", 0, 1, &Knobs::throttle_fraction),
      double_knob("flush_mb", "--flush-mb", 0, 65536, &Knobs::flush_mb),
      choice_knob("flush_method", "--flush-method", "CALIBER_FLUSH_METHOD", flush_method_choice(),
                  &Knobs::flush_method),
      double_knob("selftest_delay", "--selftest-delay", 0, 1, &Knobs::selftest_delay),
      int_knob("graph_captures", "--graph-captures", "", 1, &Knobs::graph_captures),
      bool_knob("graph_upload", "--graph-upload", "CALIBER_GRAPH_UPLOAD", &Knobs::graph_upload),
      bool_knob("graph_warm_each", "--graph-warm-each", "CALIBER_GRAPH_WARM_EACH",
                &Knobs::graph_warm_each),
      choice_knob("tuner", "--tuner", "", tuner_choice(), &Knobs::tuner),
      string_knob("tuner_file", "--tuner-file", "", "a TunableOp results file", &Knobs::tuner_file),
      bool_knob("isolate_tuner_cache", "--isolate-tuner-cache", "ZL_ISOLATE_TUNER_CACHE",
                &Knobs::isolate_tuner_cache),
      bool_knob("use_flagtune", "--flagtune", "USE_FLAGTUNE", &Knobs::use_flagtune),
      bool_knob("warm_only", "--warm-only", "", &Knobs::warm_only),
      int_knob("parallel_warmup_gpus", "--parallel-warmup-gpus", "PARALLEL_WARMUP_GPUS", 0,
               &Knobs::parallel_warmup_gpus),
      string_knob("replay_from", "--replay-from", "REPLAY_FROM", "a batch directory",
                  &Knobs::replay_from),
      int_knob("device", "--device", "", 0, &Knobs::device),
      string_knob("out_dir", "--out", "", "a directory", &Knobs::out_dir),
      string_knob("candidate", "--candidate", "", "python:MODULE[:CONTEXT] or library:PATH.so",
                  &Knobs::candidate),
      string_knob("shard", "--shard", "", "I/N with 0 <= I < N", &Knobs::shard),
      choice_knob("record", "--record", "", record_format_choice(), &Knobs::record),
      {"metrics", "--metrics", "",
       fmt::format("comma-separated, of {}", fmt::join(flaggems_metric_names(), ", ")),
       [](Knobs& k, const std::string& label, const std::string& v) {
         k.metrics = parse_flaggems_metrics(label, v);
       }},
      {"op_file", "--op-file", "OP_FILE", "a FlagGems benchmark file name, test_<op>.py",
       [](Knobs& k, const std::string& label, const std::string& v) {
         k.op_file = v;
         op_of_test_file(label, v);  // validated here, before any device work
       }},
      choice_knob("device_api", "--device-api", "CALIBER_DEVICE_API", device_api_choice(),
                  &Knobs::device_api),
      string_knob("backend_library", "--backend-library", "CALIBER_BACKEND_LIBRARY",
                  "PATH.so or python:MODULE", &Knobs::backend_library),
  };
}

}  // namespace

std::string op_of_test_file(const std::string& label, const std::string& file) {
  std::string name = std::filesystem::path(file).filename().string();
  if (name.size() > 8 && name.starts_with("test_") && name.ends_with(".py")) {
    return name.substr(5, name.size() - 8);
  }
  throw_usage("{}: '{}' is not a FlagGems benchmark file (accepted: test_<op>.py, e.g. test_mm.py)",
              label, file);
}

const std::vector<KnobDef>& knob_table() {
  static const std::vector<KnobDef> table = make_table();
  return table;
}

const KnobDef& knob_def(const std::string& name) {
  for (const auto& def : knob_table()) {
    if (def.name == name) return def;
  }
  throw Error(ErrorKind::kInternal, "no knob named " + name);
}

EnvLookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

Knobs resolve_knobs(const FlagValues& flags, const EnvLookup& env,
                    const std::vector<std::string>& names) {
  for (const auto& [name, value] : flags) knob_def(name);  // an unknown name is a bug
  Knobs knobs;
  for (const auto& def : knob_table()) {
    if (!names.empty() && std::find(names.begin(), names.end(), def.name) == names.end()) continue;
    auto flag = flags.find(def.name);
    if (flag != flags.end()) {
      def.apply(knobs, def.flag, flag->second);
      knobs.sources[def.name] = def.flag;
      continue;
    }
    if (!def.env.empty()) {
      if (auto value = env(def.env); value && !value->empty()) {
        def.apply(knobs, def.env, *value);
        knobs.sources[def.name] = def.env;
        continue;
      }
    }
    knobs.sources[def.name] = "default";
  }
  if (!knobs.op_file.empty() && knobs.op.empty() && knobs.node.empty()) {
    // The old harness ran `pytest benchmark/$OP_FILE`: the file names the op.
    knobs.op = op_of_test_file(knobs.sources["op_file"], knobs.op_file);
    knobs.sources["op"] = knobs.sources["op_file"];
  }
  if (knobs.flush_mb > 0 && knobs.cache != CacheState::kCold) {
    throw_usage(
        "--flush-mb: '{}' sizes the flush of the cold cache (accepted with --cache cold only)",
        knobs.flush_mb);
  }
  // The flag asks for a flush that a hot run never does; the environment name is a default for
  // the cold runs of a script, so it may stay set around hot ones.
  auto method_source = knobs.sources.find("flush_method");
  if (method_source != knobs.sources.end() && method_source->second == "--flush-method" &&
      knobs.cache != CacheState::kCold) {
    throw_usage(
        "--flush-method: '{}' chooses the flush of the cold cache (accepted with --cache cold "
        "only)",
        to_string(knobs.flush_method));
  }
  if (knobs.sources["policy"] == "default") {
    for (const char* sizing : {"rep_ms", "warmup_ms"}) {
      if (auto it = knobs.sources.find(sizing);
          it != knobs.sources.end() && it->second != "default") {
        knobs.policy = SamplePolicy::kFixed;
        knobs.sources["policy"] = it->second;
        break;
      }
    }
  }
  if (knobs.policy == SamplePolicy::kAdaptive && knobs.sources["warmup_ms"] == "default") {
    knobs.warmup_ms = kAdaptiveWarmupMs;
  }
  if (knobs.max_time_s < knobs.min_time_s) {
    throw_usage("--max-time: {} is below --min-time {} (accepted: max >= min)", knobs.max_time_s,
                knobs.min_time_s);
  }
  return knobs;
}

}  // namespace caliber
