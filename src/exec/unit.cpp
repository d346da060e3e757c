#include "exec/unit.h"

#include <atomic>

namespace ptxvm::exec {

uint32_t Units::next_index() {
  static std::atomic<uint32_t> next{0};
  return next++;
}

void Units::exited(Warp& w, uint32_t lanes) {
  for (auto& u : slots_)
    if (u) u->exited(w, lanes);
}

std::string Units::waiting(const Warp& w, int lane) const {
  for (const auto& u : slots_)
    if (u) {
      if (std::string what = u->waiting(w, lane); !what.empty()) return what;
    }
  return {};
}

}  // namespace ptxvm::exec
