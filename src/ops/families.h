#pragma once

#include <vector>

#include "ops/family.h"
#include "ops/op_def.h"

namespace caliber {

// One function per file of src/ops/, each returning that family's table of ops (the list is
// CALIBER_FAMILIES in ops/family.h).
#define CALIBER_FAMILY_TABLE(value, name, table) std::vector<OpDef> table();
CALIBER_FAMILIES(CALIBER_FAMILY_TABLE)
#undef CALIBER_FAMILY_TABLE

}  // namespace caliber
