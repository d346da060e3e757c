// Checking PTX text with the ISA checker alone, for tests.
#pragma once

#include <string>
#include <vector>

#include "front/parser.h"
#include "isa/check.h"

namespace ptxvm::isa::testing {

// The registers every test kernel declares.
inline constexpr const char* kRegisters =
    "  .reg .pred %p<8>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<16>;\n"
    "  .reg .f32 %f<16>;\n  .reg .f64 %fd<8>;\n  .reg .u32 %u<8>;\n  .reg .s32 %s<8>;\n"
    "  .reg .u64 %ud<8>;\n  .reg .s64 %sd<8>;\n  .reg .f16 %hf<8>;\n";

// A whole module around `body`; the ISA checker's messages (empty when it accepts).
inline std::vector<std::string> check_ptx(const std::string& body,
                                          const std::string& target = "sm_90",
                                          const std::string& version = "8.8") {
  std::string text = ".version " + version + "\n.target " + target +
                     "\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n" + kRegisters +
                     body + "\n  ret;\n}\n";
  SourceFile file("test.ptx", text);
  Diagnostics diags(file);
  auto module = front::parse_module(file, diags);
  std::vector<std::string> out;
  if (module) check_module(*module, diags);
  for (const Diagnostic& d : diags.all()) out.push_back(d.message);
  if (!module) out.push_back("<parse error>");
  return out;
}

} // namespace ptxvm::isa::testing
