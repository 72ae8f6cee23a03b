#pragma once

namespace caliber {

// What a backend's runtime can do for the timers. The timer plan is derived from these flags
// alone, never from a vendor name.
struct Capabilities {
  bool device_events = false;           // device-side events around a call (direct timer)
  bool graph_capture = false;           // capture and replay a device graph (graph timer)
  bool blocking_kernel_batch = false;   // queue calls behind a blocking kernel (batch timer)
  bool kernel_activity = false;         // per-kernel durations from activity tracing
  bool l2_flush = false;                // flush the device cache between samples
  bool default_rng_generators = false;  // torch keeps default generators a capture could wedge
  bool clock_query = false;             // SM clocks readable during a run (throttle guard)
  bool device_delay = false;            // a fixed device-side delay (the selftest slowdown)
};

}  // namespace caliber
