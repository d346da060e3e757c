// The selector registry against the ISA table: every registered key names a row (a key that
// drifted from its row's "mnemonic §section" would leave that row unexecuted, silently), and
// every row is either executed or has a stated reason (program/unsupported.h) — never both.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "isa/table.h"
#include "program/registry.h"
#include "program/unsupported.h"
#include "ptxvm/ptxvm.h"

namespace ptxvm::test {
namespace {

TEST(Registry, EveryKeyNamesARow) {
  std::set<std::string> rows;
  for (const isa::Family& f : isa::families()) rows.insert(f.key());
  const auto keys = program::registered_keys();
  EXPECT_GT(keys.size(), 100u);  // the semantics libraries were linked whole
  for (const std::string& k : keys) EXPECT_TRUE(rows.count(k)) << "registered key '" << k << "' names no ISA row";
}

TEST(Registry, EveryRowIsExecutedOrHasAReason) {
  for (const isa::Family& f : isa::families()) {
    const std::string reason = program::unsupported_reason(f);
    if (program::find_selector(f))
      EXPECT_EQ(reason, "") << f.key() << " executes; drop its reason from program/unsupported.cpp";
    else
      EXPECT_NE(reason, "") << f.key() << " has no selector and no reason in program/unsupported.cpp";
  }
}

// Lowering's diagnostic carries the reason (§9.7.9.12 st.async).
TEST(Registry, UnsupportedDiagnosticGivesTheReason) {
  Device dev;
  std::string diags;
  auto m = dev.load_module(".version 8.7\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
                           ".reg .b32 %r<3>;\nst.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r0], %r1, [%r2];\n}\n",
                           "w.ptx", &diags);
  EXPECT_FALSE(m);
  EXPECT_NE(diags.find("unsupported: st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 (PTX §9.7.9.12): "
                       "ptxvm does not execute st.async yet: clusters (issue 16)"),
            std::string::npos)
      << diags;
}

}  // namespace
}  // namespace ptxvm::test
