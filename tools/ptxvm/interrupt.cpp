#include "interrupt.h"

#include <csignal>

namespace ptxvm::tool {
namespace {

std::atomic<bool> interrupted{false};
volatile std::sig_atomic_t received = 0;
struct sigaction previous_int, previous_term;

extern "C" void on_signal(int sig) {
  received = sig;
  interrupted.store(true);
}

}  // namespace

InterruptScope::InterruptScope() {
  static_assert(std::atomic<bool>::is_always_lock_free);  // safe in a signal handler
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGTERM, &sa, &previous_term);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const { return &interrupted; }
int InterruptScope::signal() const { return received; }

}  // namespace ptxvm::tool
