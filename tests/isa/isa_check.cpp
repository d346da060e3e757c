// isa_check [--verdicts] FILE...: runs the whole `ptxvm check` pipeline (check::check_source:
// parse, names, declarations, ISA table) on each PTX file, printing its diagnostics; exit status
// 1 when any file is rejected. With --verdicts it prints `FILE<TAB>accept|reject<TAB>first
// message` per file on stdout instead, for the differential test (differential.py).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "check/check.h"

int main(int argc, char** argv) {
  int status = 0;
  bool verdicts = argc > 1 && std::string(argv[1]) == "--verdicts";
  for (int i = verdicts ? 2 : 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: error: cannot read file\n", argv[i]);
      status = 1;
      continue;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    ptxvm::SourceFile file(argv[i], ss.str());
    ptxvm::Diagnostics diags(file);
    ptxvm::check::check_source(file, diags);
    if (diags.has_errors()) status = 1;
    if (!verdicts) {
      std::fputs(diags.render().c_str(), stderr);
      continue;
    }
    std::string first = diags.all().empty() ? "" : diags.all().front().message;
    std::printf("%s\t%s\t%s\n", argv[i], diags.has_errors() ? "reject" : "accept", first.c_str());
  }
  return status;
}
