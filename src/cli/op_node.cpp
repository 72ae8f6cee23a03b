#include "cli/op_node.h"

#include "core/error.h"
#include "ops/op_registry.h"

namespace caliber {
namespace {

std::string strip(std::string text, const std::string& prefix, const std::string& suffix) {
  if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
  if (text.size() > suffix.size() &&
      text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
    text = text.substr(0, text.size() - suffix.size());
  }
  return text;
}

std::string from_node(const std::string& node) {
  auto sep = node.find("::");
  if (sep == std::string::npos) return node;
  std::string head = node.substr(0, sep);
  std::string tail = node.substr(sep + 2);
  // A pytest node id names the test function last: test_mm.py::test_mm_perf -> mm.
  std::string test = strip(strip(tail, "test_", "_perf"), "", "_benchmark");
  if (find_op_or_null(test) != nullptr) return test;
  std::string file_op = strip(strip(head.substr(head.rfind('/') + 1), "test_", ".py"), "", "_perf");
  std::string variant = file_op + "_" + tail;
  if (find_op_or_null(variant) != nullptr) return variant;
  if (find_op_or_null(file_op) != nullptr && tail.empty()) return file_op;
  throw_usage(
      "--node (TEST_NODE): '{}' names no op (accepted: OP, OP::VARIANT for the op "
      "OP_VARIANT, or a FlagGems node such as test_mm.py::test_mm; caliber ops lists "
      "the ops)",
      node);
}

}  // namespace

std::string resolve_op_node(const std::string& op, const std::string& node) {
  if (op.empty() && node.empty()) {
    throw_usage(
        "--op: no op given (accepted: --op OP, --node OP::VARIANT, or OP / TEST_NODE in "
        "the environment)");
  }
  if (node.empty()) return op;
  std::string from = from_node(node);
  if (!op.empty() && op != from) {
    throw_usage("--op '{}' and --node '{}' name different ops", op, node);
  }
  return from;
}

}  // namespace caliber
