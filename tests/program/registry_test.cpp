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

// Lowering's diagnostic carries the reason (§9.7.9.14 multimem.st).
TEST(Registry, UnsupportedDiagnosticGivesTheReason) {
  Device dev;
  std::string diags;
  auto m = dev.load_module(".version 8.7\n.target sm_90a\n.address_size 64\n.entry k()\n{\n"
                           ".reg .b64 %rd<3>;\n.reg .f32 %f<3>;\nmultimem.st.global.f32 [%rd0], %f1;\n}\n",
                           "w.ptx", &diags);
  EXPECT_FALSE(m);
  EXPECT_NE(diags.find("unsupported: multimem.st.global.f32 (PTX §9.7.9.14): ptxvm does not execute multimem.st "
                       "yet: multimem addresses span GPUs; ptxvm runs one device"),
            std::string::npos)
      << diags;
}

}  // namespace
}  // namespace ptxvm::test
