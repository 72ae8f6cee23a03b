#include "cli/fatal_signal_report.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace caliber {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kMaxFrames = 64;

// A stack overflow leaves no stack for the handler: it runs on this one.
alignas(16) char alternate_stack[64 * 1024];

void write_text(const char* text) {
  // Only async-signal-safe calls from here on: write(2), backtrace after its first call.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, text, std::strlen(text));
}

void report(int signal) {
  const char* name = sigabbrev_np(signal);
  write_text("caliber: fatal signal SIG");
  write_text(name != nullptr ? name : "?");
  write_text("; backtrace of the crashing thread:\n");
  void* frames[kMaxFrames];
  int count = ::backtrace(frames, kMaxFrames);
  ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
  // SA_RESETHAND restored the default action: re-raising ends the process with this signal.
  ::raise(signal);
}

}  // namespace

void install_fatal_signal_report() {
  // backtrace() loads libgcc on its first call, which may allocate: never first in the handler.
  void* warm[1];
  ::backtrace(warm, 1);
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof(alternate_stack);
  ::sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = report;
  action.sa_flags = SA_RESETHAND | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal : kSignals) ::sigaction(signal, &action, nullptr);
}

}  // namespace caliber
