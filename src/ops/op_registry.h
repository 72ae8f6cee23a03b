#pragma once

#include <string>
#include <vector>

#include "ops/family.h"
#include "ops/op_def.h"

namespace caliber {

// Every op caliber knows, family by family (src/ops/). The selftest fault ops are present only
// when the environment has CALIBER_SELFTEST=1.
const std::vector<OpDef>& all_ops();

// A usage error naming the knob that gave the name, the op and the closest names when it is
// unknown.
const OpDef& find_op(const std::string& name, const std::string& knob = "--op");
const OpDef* find_op_or_null(const std::string& name);
// The op with that name or alias (FlagGems' mark names), or nullptr.
const OpDef* find_op_answering(const std::string& name);
std::vector<const OpDef*> ops_in_family(Family family);
std::vector<Family> families_present();

}  // namespace caliber
