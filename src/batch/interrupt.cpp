#include "batch/interrupt.h"

#include <signal.h>

#include <cstring>
#include <initializer_list>

namespace caliber {
namespace {

std::atomic<bool> g_requested{false};
volatile sig_atomic_t g_signal = 0;

void on_signal(int signal) {
  g_signal = signal;
  g_requested.store(true);
}

}  // namespace

static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

std::atomic<bool>& interrupt_requested() { return g_requested; }

int interrupt_signal() { return g_signal; }

void install_interrupt_handlers() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

}  // namespace caliber
