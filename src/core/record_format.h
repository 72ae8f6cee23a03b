#pragma once

#include "core/choice.h"

namespace caliber {

// FlagGems' --record: none, or its log or json record beside caliber's own artifacts
// (core/flaggems_record.h writes them).
enum class RecordFormat { kNone, kLog, kJson };

const Choice<RecordFormat>& record_format_choice();
inline const char* to_string(RecordFormat v) { return record_format_choice().name(v); }

}  // namespace caliber
