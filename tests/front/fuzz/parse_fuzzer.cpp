// libFuzzer target: any byte string through the whole front end (lexer, parser, name checks,
// printer) must end in a module or diagnostics, never a crash, hang or runaway allocation.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check/check.h"
#include "front/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ptxvm::SourceFile file("fuzz.ptx", std::string(reinterpret_cast<const char*>(data), size));
  ptxvm::Diagnostics diags(file);
  if (auto m = ptxvm::check::check_source(file, diags)) {
    // A valid module's canonical print must itself be valid and print identically.
    std::string once = ptxvm::front::print_module(*m);
    ptxvm::SourceFile again("fuzz.print.ptx", once);
    ptxvm::Diagnostics diags2(again);
    auto m2 = ptxvm::check::check_source(again, diags2);
    if (!m2 || ptxvm::front::print_module(*m2) != once) __builtin_trap();
  }
  (void)diags.render();
  return 0;
}
