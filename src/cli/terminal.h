#pragma once

namespace caliber {

// Colours only for a person at a terminal: stdout is a TTY and NO_COLOR is unset.
bool stdout_wants_color();

}  // namespace caliber
