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

// A pending transaction, issued by lane `lane` of `w`, on the mbarrier at shared::cluster address
// `barrier` (a shared::cta address: w's own CTA; mem::cluster_shared_address): `land` writes the
// operation's bytes and returns how many it wrote, the tx-count it completes. `issuer` names the
// instruction in reports (a barrier that is no longer valid when it lands). `arrivals` is the
// count of an arrive-on the completion also performs (tcgen05.commit's .mbarrier::arrive::one);
// for racecheck it passes on what the issuing thread did before it, as an arrive-on does.
void expect_completion(exec::Warp& w, uint64_t barrier, int lane, std::string issuer,
                       std::function<uint32_t()> land, uint32_t arrivals = 0);

}  // namespace ptxvm::units::mbarrier
