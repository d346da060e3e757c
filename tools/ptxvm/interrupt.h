// SIGINT and SIGTERM during a launch: while an InterruptScope lives, either signal sets a flag
// (the launch's LaunchConfig::cancel) instead of killing the process, so that the launch stops
// with a report of where the kernel was and no outputs are written.
#pragma once

#include <atomic>

namespace ptxvm::tool {

class InterruptScope {
public:
  InterruptScope();   // installs the handlers
  ~InterruptScope();  // restores the previous ones
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  const std::atomic<bool>* flag() const;
  int signal() const;  // the signal received, 0 when none
};

}  // namespace ptxvm::tool
