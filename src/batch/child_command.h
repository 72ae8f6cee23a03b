#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend_descriptor.h"
#include "core/knobs.h"
#include "core/worker_protocol.h"

namespace caliber {

// A slice of an op's shapes: shape k (in the op's resolved order) belongs to shard k mod count.
struct Shard {
  int index = 0;
  int count = 1;
};

// One child run of one op, as the batch decides it.
struct RunRequest {
  std::string op;
  std::vector<std::string> dtypes;  // empty: the batch's --dtypes, else the op's own
  std::filesystem::path out_dir;
  std::filesystem::path log_path;  // the child's stdout and stderr
  std::string tuner;               // empty: as the batch was told
  std::string tuner_file;
  std::optional<Shard> shard;
  double timeout_s = 0;
};

// The knobs of one child: the batch's child flags with the request's op, output, dtypes and
// tuner settings on top.
FlagValues run_flags(const FlagValues& child_flags, const RunRequest& request);

// `BINARY run --op mm --out DIR --device 0 ...` with each knob under its flag name.
std::vector<std::string> run_argv(const std::filesystem::path& binary, const FlagValues& flags,
                                  const std::optional<Shard>& shard);

// The worker-protocol request (core/worker_protocol.h) of one op.
WorkerRequest worker_request(const FlagValues& flags, const RunRequest& request);

// The environment of a child on `device`: the backend's visibility variable narrowed to that one
// device (mapped through the parent's own list when the parent was itself narrowed), the
// batch-only environment names removed.
std::vector<std::pair<std::string, std::optional<std::string>>> lane_environment(
    const BackendDescriptor& backend, int device, const EnvLookup& env);

}  // namespace caliber
