#include "cli/candidate_environment.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "backend/flaggems_vendor.h"
#include "cli/candidate_caches.h"

namespace caliber {
namespace {

// What this process exported: a worker runs op after op, and on the second op the variable it
// set itself must not read as the user's.
std::map<std::string, std::string>& exported() {
  static std::map<std::string, std::string> values;
  return values;
}
std::mutex exported_mutex;

bool set_by_us(const std::string& name, const std::string& value) {
  std::lock_guard<std::mutex> lock(exported_mutex);
  auto it = exported().find(name);
  return it != exported().end() && it->second == value;
}

}  // namespace

CandidateEnvironment plan_candidate_environment(const Knobs& knobs, const std::string& backend,
                                                const EnvLookup& env) {
  CandidateEnvironment out;
  if (knobs.candidate.starts_with("python:")) out.caches = candidate_caches(env);
  auto source = knobs.sources.find("use_flagtune");
  if (source != knobs.sources.end() && source->second != "default") {
    // FlagGems accepts exactly 0 or 1; the knob also accepts true/false/yes/no/on/off.
    out.use_flagtune = knobs.use_flagtune ? "1" : "0";
    out.exports.emplace_back("USE_FLAGTUNE", out.use_flagtune);
  }
  for (const char* name : kFlagGemsVendorVariables) {
    auto value = env(name);
    if (value && !value->empty() && !set_by_us(name, *value)) {
      out.gems_vendor = *value;
      out.gems_vendor_source = name;
      return out;
    }
  }
  if (knobs.candidate.starts_with("python:")) {
    out.gems_vendor = flaggems_vendor(backend);
    if (!out.gems_vendor.empty()) {
      out.gems_vendor_source = "backend " + backend;
      out.exports.emplace_back("GEMS_VENDOR", out.gems_vendor);
    }
  }
  return out;
}

void export_candidate_environment(const CandidateEnvironment& environment) {
  std::lock_guard<std::mutex> lock(exported_mutex);
  for (const auto& [name, value] : environment.exports) {
    ::setenv(name.c_str(), value.c_str(), 1);
    exported()[name] = value;
  }
}

}  // namespace caliber
