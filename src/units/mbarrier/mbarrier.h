// The mbarrier unit (PTX §9.7.13.15): what other units ask of it. An asynchronous operation that
// completes on an mbarrier (the complete-tx of bulk copies and TMA, §9.7.9.25.4) is handed to it
// pending: it lands — writes its bytes and performs complete-tx on the barrier — when a thread
// next observes that barrier's phase (test_wait/try_wait), the latest moment the ISA allows.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::units::mbarrier {

// A pending transaction on the mbarrier at shared offset `barrier` of w's CTA: `land` writes the
// operation's bytes and returns how many it wrote, the tx-count it completes. `issuer` names the
// instruction in reports (a barrier that is no longer valid when it lands).
void expect_completion(exec::Warp& w, uint32_t barrier, std::string issuer, std::function<uint32_t()> land);

}  // namespace ptxvm::units::mbarrier
