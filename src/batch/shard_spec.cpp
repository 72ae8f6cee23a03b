#include "batch/shard_spec.h"

#include <fmt/format.h>

#include "batch/work_queue.h"
#include "core/error.h"

namespace caliber {

ShardSpec parse_shard_spec(const std::string& knob, const std::string& text) {
  ShardSpec shard;
  size_t slash = text.find('/');
  bool ok = false;
  if (slash != std::string::npos && slash > 0 && slash + 1 < text.size()) {
    try {
      size_t used_i = 0;
      size_t used_n = 0;
      shard.index = std::stoi(text.substr(0, slash), &used_i);
      shard.count = std::stoi(text.substr(slash + 1), &used_n);
      ok = used_i == slash && used_n == text.size() - slash - 1 && shard.index >= 0 &&
           shard.count >= 1 && shard.index < shard.count;
    } catch (const std::exception&) {
    }
  }
  if (!ok) throw_usage("{}: '{}' is not a shard (accepted: I/N with 0 <= I < N)", knob, text);
  return shard;
}

std::string to_string(const ShardSpec& shard) {
  return fmt::format("{}/{}", shard.index, shard.count);
}

int shard_of(std::string_view op, int count) {
  return static_cast<int>(home_lane(op, static_cast<size_t>(count < 1 ? 1 : count)));
}

Selection shard_selection(const Selection& selection, const ShardSpec& shard) {
  Selection out;
  for (const auto& op : selection.ops) {
    if (shard_of(op.name, shard.count) == shard.index) out.ops.push_back(op);
  }
  for (const auto& entry : selection.dismissed) {
    if (shard_of(entry.first.name, shard.count) == shard.index) out.dismissed.push_back(entry);
  }
  return out;
}

}  // namespace caliber
