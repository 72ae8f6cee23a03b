#pragma once

namespace caliber {

// On SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, writes the signal and a backtrace of the
// crashing thread to stderr, then dies of the same signal, so that a parent still reads the
// signal from the exit status. A batch that crashes leaves where it crashed in its output;
// frames read `caliber(+0xOFFSET)`, which `addr2line -Cfe caliber 0xOFFSET` resolves on the build
// that crashed.
void install_fatal_signal_report();

}  // namespace caliber
