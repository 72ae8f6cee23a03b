#pragma once

namespace caliber {

// On SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, writes the signal and a backtrace of the
// crashing thread to stderr, then dies of the same signal, so that a parent still reads the
// signal from the exit status. A batch that crashes leaves where it crashed in its output;
// frames read `caliber(+0xOFFSET)`, which `addr2line -Cfe caliber 0xOFFSET` resolves on the build
// that crashed. Then, from the registers, the fault address and the faulting instruction, and
// when that instruction lies outside every loaded module (a call through a null or dangling
// function pointer, where the backtrace stops at the handler) the caller it was called from.
void install_fatal_signal_report();

}  // namespace caliber
