// A crash of a caliber process (a batch's parent, a worker, a run) leaves the signal and a
// backtrace on its stderr and still dies of that signal, which is how a batch classifies a child.

#include "cli/fatal_signal_report.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace caliber {
namespace {

// Deep enough to overflow any thread stack; the array keeps each frame from being folded away.
int overflow(int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  if (depth < 0) return 0;  // never: 4 KiB a frame ends any stack long before
  return overflow(depth + 1) + frame[0];
}

TEST(FatalSignalReportDeathTest, ASegfaultPrintsItsBacktraceAndStillDiesOfTheSignal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_fatal_signal_report();
        ::raise(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV),
      "caliber: fatal signal SIGSEGV; backtrace of the crashing thread:\n"
      ".*cli_tests\\(\\+0x[0-9a-f]+\\)\\[0x");
}

// The backtrace of a jump to address 0 ends at the handler, since the unwinder knows no frame
// there; the report still names the call's site from the return address it pushed.
void (*volatile null_function)() = nullptr;

__attribute__((noinline)) void call_through_null() {
  null_function();
  ::_exit(0);  // keeps the call from being a tail jump, which would push no return address
}

TEST(FatalSignalReportDeathTest, ACallThroughANullPointerNamesTheCallSite) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_fatal_signal_report();
        call_through_null();
      },
      ::testing::KilledBySignal(SIGSEGV),
      "caliber: fault address 0x0\n"
      "caliber: faulting instruction \\[0x0\\]\n"
      "caliber: outside any loaded module; called from .*cli_tests\\([^)]*\\+0x[0-9a-f]+\\)");
}

TEST(FatalSignalReportDeathTest, ABadWriteNamesItsAddressAndInstruction) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_fatal_signal_report();
        int* volatile pointer = reinterpret_cast<int*>(0x40);
        *pointer = 1;
      },
      ::testing::KilledBySignal(SIGSEGV),
      "caliber: fault address 0x40\n"
      "caliber: faulting instruction .*cli_tests\\([^)]*\\+0x[0-9a-f]+\\)");
}

TEST(FatalSignalReportDeathTest, AnAbortIsReportedToo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_fatal_signal_report();
        std::abort();
      },
      ::testing::KilledBySignal(SIGABRT), "caliber: fatal signal SIGABRT; backtrace");
}

TEST(FatalSignalReportDeathTest, AStackOverflowIsReportedFromTheAlternateStack) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_fatal_signal_report();
        overflow(0);
      },
      ::testing::KilledBySignal(SIGSEGV), "caliber: fatal signal SIGSEGV; backtrace");
}

TEST(FatalSignalReportDeathTest, WithoutTheReportASegfaultSaysNothing) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(::raise(SIGSEGV), ::testing::KilledBySignal(SIGSEGV), "^$");
}

}  // namespace
}  // namespace caliber
