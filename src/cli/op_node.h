#pragma once

#include <string>

namespace caliber {

// The op a run names: --op / OP, or --node / TEST_NODE as "OP", "OP::VARIANT" (the op named
// OP_VARIANT) or a FlagGems pytest node ("test_mm.py::test_mm" -> mm). Throws a usage error
// when neither is given or both disagree.
std::string resolve_op_node(const std::string& op, const std::string& node);

}  // namespace caliber
