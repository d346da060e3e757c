// The bulk-copy unit (PTX §9.7.9.25.4, §9.7.9.25.6): what other units ask of it. Every
// asynchronous operation that completes on a bulk async-group (bulk copies and reductions into
// global memory, tensor stores) joins the issuing thread's bulk groups here, so that one
// cp.async.bulk.commit_group / wait_group covers them all.
#pragma once

#include <cstdint>
#include <functional>

namespace ptxvm::exec {
class Warp;
}

namespace ptxvm::units::bulk_copy {

// Lane `lane` of `w` issues an operation into its open bulk group: `effect` moves its bytes when
// a wait retires the group or the thread exits.
void issue(exec::Warp& w, int lane, std::function<void()> effect);

}  // namespace ptxvm::units::bulk_copy
