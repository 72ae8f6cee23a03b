#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "batch/op_selection.h"

namespace caliber {

// One shard of a batch's op list: `caliber batch --shard I/N` runs the ops whose stable hash
// falls on I modulo N, the same split the local lanes use (home_lane), so that a shard is the
// same set of ops on every host and on every resubmission.
struct ShardSpec {
  int index = 0;
  int count = 1;
};

// Parses "I/N" with 0 <= I < N; throws a usage error naming `knob` otherwise.
ShardSpec parse_shard_spec(const std::string& knob, const std::string& text);
std::string to_string(const ShardSpec& shard);

// The shard an op belongs to among `count`.
int shard_of(std::string_view op, int count);

// The part of `selection` (ops to run and dismissed ones) that belongs to `shard`.
Selection shard_selection(const Selection& selection, const ShardSpec& shard);

}  // namespace caliber
