#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "backend/capabilities.h"

namespace caliber {

// How the generic device API waits for the device: the stream's own synchronisation, the
// device's, or (a runtime that offers neither) reading one element back to the host, which an
// in-order queue returns only after the work queued before it.
enum class SyncMethod { kStream, kDevice, kReadback };
const char* to_string(SyncMethod method);

// What PyTorch's device-generic runtime was found to offer on one device: each feature was
// exercised, not assumed, and a missing one carries the runtime's own words.
struct AcceleratorFeatures {
  std::string torch_device_type;  // as c10 names it once the backend is loaded ("opencl")
  int device_count = 0;
  bool pool_stream = false;  // a stream from the backend's pool (else its current stream)
  bool events = false;       // timed events recorded on a stream, elapsed time read back
  std::string events_detail;
  SyncMethod sync = SyncMethod::kReadback;
  std::string sync_detail;
  bool graph = false;
  std::string graph_detail;
  bool allocator_stats = false;  // the device allocator's statistics (peak memory per row)
  bool fill = false;             // the cache flush writes a device buffer with fill_
  uint64_t l2_cache_bytes = 0;   // 0: unknown
  std::string l2_source;         // where l2_cache_bytes came from
  uint64_t flush_bytes = 0;      // what a cold-cache flush overwrites by default

  // The capability flags the timer plan is derived from.
  Capabilities capabilities() const;
  // One line per feature, for run_identity.json and `caliber devices`.
  std::map<std::string, std::string> record() const;
};

// The flush size when the runtime does not report its cache: triton's do_bench overwrites
// 256 MB, larger than the last-level cache of any accelerator torch drives today.
constexpr uint64_t kDefaultFlushBytes = uint64_t{256} << 20;

}  // namespace caliber
