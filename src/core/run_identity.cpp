#include "core/run_identity.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"

namespace caliber {

using nlohmann::json;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(
    RunIdentity, backend, device_model, device_index, driver_version, runtime_version,
    torch_version, timer, cache, flush_method, graph_captures, graph_upload, graph_warm_each,
    selftest_delay, repeat, policy, level, shape_mode, shape_set, shape_source, shape_source_sha256,
    use_flagtune, gems_vendor, gems_vendor_source, candidate_caches, tuner_mode, tuner_file,
    provider, provider_version, op_node, dtypes, harness_version, host, command_line, start_time,
    end_time, device_api, device_runtime)

const std::vector<std::string>& number_changing_fields() {
  static const std::vector<std::string> fields = {
      "backend",      "device_model",   "timer",        "cache",          "repeat",
      "policy",       "level",          "tuner_mode",   "dtypes",         "shape_set",
      "shape_mode",   "use_flagtune",   "flush_method", "selftest_delay", "graph_captures",
      "graph_upload", "graph_warm_each"};
  return fields;
}

json to_json(const RunIdentity& identity) { return identity; }

RunIdentity identity_from_json(const json& j) {
  RunIdentity identity = j.get<RunIdentity>();
  // Written before the flush had a method: a cold run then always flushed by writing.
  if (identity.flush_method.empty() && identity.cache.starts_with("cold")) {
    identity.flush_method = "write";
  }
  return identity;
}

RunIdentity read_identity(const std::string& path) {
  try {
    return identity_from_json(json::parse(read_file(path)));
  } catch (const json::exception& e) {
    throw_usage("{}: not a run identity ({})", path, e.what());
  }
}

void write_identity(const std::string& path, const RunIdentity& identity) {
  write_file_atomic(path, to_json(identity).dump(2) + "\n");
}

std::vector<std::string> identity_differences(const RunIdentity& a, const RunIdentity& b,
                                              const std::vector<std::string>& fields) {
  json ja = to_json(a);
  json jb = to_json(b);
  std::vector<std::string> out;
  if (fields.empty()) {
    for (const auto& [key, value] : ja.items()) {
      if (value != jb[key]) out.push_back(key);
    }
  } else {
    for (const auto& key : fields) {
      if (!ja.contains(key)) throw Error(ErrorKind::kInternal, "identity has no field " + key);
      if (ja[key] != jb[key]) out.push_back(key);
    }
  }
  return out;
}

std::string utc_now_iso8601() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

}  // namespace caliber
