#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace caliber {

// Everything that says what a run's numbers mean and where they came from. Written as
// run_identity.json; the compare gate refuses two runs that differ in a number-changing field.
struct RunIdentity {
  std::string backend;
  std::string device_model;
  int device_index = 0;
  std::string driver_version;
  std::string runtime_version;
  std::string torch_version;
  std::string timer;  // as requested; rows record the timer actually used
  std::string cache;
  // The cold cache's flush (write, read, write_read); empty for a hot run, which never flushes.
  std::string flush_method;
  int graph_captures = 1;        // graph timer: graphs per measurement (1 before it was a knob)
  bool graph_upload = false;     // graph timer: each graph uploaded as captured (--graph-upload)
  bool graph_warm_each = false;  // graph timer: each graph warmed before its timed replays
  std::string selftest_delay;    // empty: none; "0.05": graph rows made 5% slower on purpose
  int repeat = 1;
  std::string policy;
  std::string level;
  std::string shape_mode;
  std::string shape_set;            // digest of the resolved shapes
  std::string shape_source;         // the shape file that answered ("builtin" when none)
  std::string shape_source_sha256;  // of that file's bytes, so an edited file shows
  // Handed to the candidate's environment before its import: "0", "1" or "unset" (FlagGems
  // routes differently when it is unset than with 0).
  std::string use_flagtune = "unset";
  std::string gems_vendor;         // GEMS_VENDOR the candidate saw; empty: none
  std::string gems_vendor_source;  // the variable the user set, or "backend <name>"
  // A python: candidate's on-disk caches when the run began (cli/candidate_caches.h): whether its
  // autotuner's winners came from an earlier process. Empty for the baseline and a library.
  std::map<std::string, std::string> candidate_caches;
  std::string tuner_mode;
  std::string tuner_file;
  std::string provider;  // "baseline" or the candidate spec
  std::string provider_version;
  std::string op_node;
  std::vector<std::string> dtypes;
  std::string harness_version;
  std::string host;
  std::string command_line;
  std::string start_time;  // ISO 8601, UTC
  std::string end_time;
  // "generic" when PyTorch's device-generic runtime drove the device; empty for the backend's
  // native glue (and the host), which is what every run before the generic path used.
  std::string device_api;
  // What the generic runtime was found to offer (events, synchronisation, graphs, cache size)
  // and the timer plan derived from it; empty for the native path.
  std::map<std::string, std::string> device_runtime;
};

// The fields that change a number: two runs must agree on these to be compared.
const std::vector<std::string>& number_changing_fields();

nlohmann::json to_json(const RunIdentity& identity);
RunIdentity identity_from_json(const nlohmann::json& json);
RunIdentity read_identity(const std::string& path);
void write_identity(const std::string& path, const RunIdentity& identity);

// Names of the fields in `fields` (every field when empty) whose values differ.
std::vector<std::string> identity_differences(const RunIdentity& a, const RunIdentity& b,
                                              const std::vector<std::string>& fields = {});

std::string utc_now_iso8601();
std::string host_name();

}  // namespace caliber
