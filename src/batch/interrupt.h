#pragma once

#include <atomic>

namespace caliber {

// Set by SIGINT, SIGTERM or SIGHUP once install_interrupt_handlers() ran: every lane polls it,
// kills its child's process group and leaves the op unfinished (to be redone on resume).
std::atomic<bool>& interrupt_requested();
void install_interrupt_handlers();
// The signal that set interrupt_requested(), 0 when none.
int interrupt_signal();

}  // namespace caliber
