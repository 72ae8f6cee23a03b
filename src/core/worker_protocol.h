#pragma once

#include <optional>
#include <string>

#include "core/knobs.h"

namespace caliber {

// The protocol between `caliber batch --isolation worker` and its `caliber worker`: one JSON
// request per line on the worker's stdin, one JSON reply per line on its stdout. Both sides read
// and write it through these functions only.
struct WorkerRequest {
  std::string op;
  std::string out_dir;  // the run directory of the op
  std::string log;      // where the run's output goes; empty: out_dir/worker.log
  FlagValues flags;     // knob name -> value, without op and out_dir
};

struct WorkerReply {
  std::string op;
  int exit_code = 0;  // what `caliber run` would have exited with
  std::string error;  // empty unless the request itself was refused or failed
};

std::string worker_request_line(const WorkerRequest& request);  // one line, '\n' included
// A malformed request is a usage error whose message says what a request is.
WorkerRequest parse_worker_request(const std::string& line);

std::string worker_reply_line(const WorkerReply& reply);  // one line, '\n' included
// nullopt for a line that is not a reply (stray output the client skips).
std::optional<WorkerReply> parse_worker_reply(const std::string& line);

}  // namespace caliber
