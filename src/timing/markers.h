#pragma once

#include <string>
#include <string_view>

namespace caliber {

// The words a measurement leaves in a row's `markers`; grep scripts and the report key on them,
// so their text is made in one place.

// The requested timer could not be used for this shape; `phase` is where it failed (warmup,
// capture, replay), `denied` for the capture deny list, `deadlock` when a batch call waited on
// the host. `repeat` is the repeat the fallback measurement used.
std::string fallback_marker(std::string_view phase, int repeat);

// repeat=N was asked but a median of per-repeat sequences is undefined for `reason`
// (return_mode=all, quantiles), so one repeat was taken.
std::string repeat_skipped_marker(int requested, std::string_view reason);

// How many samples ran below the throttle threshold.
std::string throttled_marker(int samples);

// The graph timer captured fewer graphs than asked or wanted: another would not have fitted in
// the device's memory ("memory"), or growing them for their spread would have run past the
// adaptive policy's time ceiling ("time").
std::string captures_bounded_marker(int captured, int asked, std::string_view reason);

// The graph timer captured more graphs than asked because the captures' spread left their
// median less precise than the adaptive policy's target.
std::string captures_grown_marker(int captured, int asked);

// The graph timer's first replay read less than any device node takes per call: the call launched
// no device work, and its graphs were not sized up to the replay target.
std::string no_device_work_marker();

// The error text (and row marker) for an op whose capture left the context unusable; named as
// the old harness named it, so its logs and grep scripts keep working.
std::string capture_poisoned_text(std::string_view op);

}  // namespace caliber
