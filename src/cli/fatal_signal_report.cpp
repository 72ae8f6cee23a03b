#include "cli/fatal_signal_report.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
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

void write_hex(std::uintptr_t value) {
  char text[2 + 2 * sizeof(value) + 1];
  char* end = text + sizeof(text) - 1;
  *end = '\0';
  char* p = end;
  do {
    *--p = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  *--p = 'x';
  *--p = '0';
  write_text(p);
}

// The frame backtrace_symbols_fd would print for `address`: "module(+0xOFFSET)[0xADDRESS]".
void write_frame(void* address) { ::backtrace_symbols_fd(&address, 1, STDERR_FILENO); }

#if defined(__x86_64__) || defined(__aarch64__)
constexpr bool kKnowsRegisters = true;
#else
constexpr bool kKnowsRegisters = false;
#endif

void* instruction_pointer(const ucontext_t* context) {
#if defined(__x86_64__)
  return reinterpret_cast<void*>(context->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return reinterpret_cast<void*>(context->uc_mcontext.pc);
#else
  (void)context;
  return nullptr;
#endif
}

// Where a call through a bad function pointer came from: the call pushed its return address and
// jumped, so the word at the stack pointer names the caller (x86-64 only; aarch64 keeps it in lr).
void* return_address_of_bad_call(const ucontext_t* context) {
#if defined(__x86_64__)
  return *reinterpret_cast<void* const*>(context->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return reinterpret_cast<void*>(context->uc_mcontext.regs[30]);
#else
  (void)context;
  return nullptr;
#endif
}

void report(int signal, siginfo_t* info, void* raw_context) {
  const char* name = sigabbrev_np(signal);
  write_text("caliber: fatal signal SIG");
  write_text(name != nullptr ? name : "?");
  write_text("; backtrace of the crashing thread:\n");
  void* frames[kMaxFrames];
  int count = ::backtrace(frames, kMaxFrames);
  ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
  // The unwinder stops at a frame it has no unwind tables for, so a jump to an address outside
  // any loaded module (a null or dangling function pointer, a destroyed object's vtable) leaves
  // the backtrace at the handler: the registers still say where it happened.
  const auto* context = static_cast<const ucontext_t*>(raw_context);
  // Only for a fault the kernel raised: after raise() or abort() the registers are those of the
  // kill syscall, which the backtrace already shows.
  if (kKnowsRegisters && info != nullptr && info->si_code > 0 && context != nullptr) {
    if (signal == SIGSEGV || signal == SIGBUS) {
      write_text("caliber: fault address ");
      write_hex(reinterpret_cast<std::uintptr_t>(info->si_addr));
      write_text("\n");
    }
    void* pc = instruction_pointer(context);
    write_text("caliber: faulting instruction ");
    write_frame(pc);
    Dl_info where;
    if (::dladdr(pc, &where) == 0) {
      write_text("caliber: outside any loaded module; called from ");
      write_frame(return_address_of_bad_call(context));
    }
  }
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
  action.sa_sigaction = report;
  action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal : kSignals) ::sigaction(signal, &action, nullptr);
}

}  // namespace caliber
