// The `ptxvm` command.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "check/check.h"
#include "front/printer.h"
#include "run.h"

namespace {

constexpr const char* kUsage =
    "usage: ptxvm <command> [args]\n"
    "\n"
    "commands:\n"
    "  check FILE.ptx...   parse and check PTX; exit 0 if every file is valid, 1 otherwise\n"
    "  run LAUNCH.json|- [--out DIR] [--timeout SECONDS] [--max-input-mb N]\n"
    "      [--check=memcheck,racecheck,synccheck,initcheck,async,tcgen05|all] [--check-report=FILE.json]\n"
    "                      run one kernel launch described by a manifest\n"
    "                      (docs/LaunchManifest.md), with the sanitizer's checks\n"
    "                      (docs/Sanitizer.md); exit 0 ok, 1 invalid input, 2 guest fault,\n"
    "                      timeout or a check's report, 130/143 interrupted\n"
    "  print FILE.ptx      print the canonical form of a valid module on stdout\n"
    "  opcodes FILE.ptx... count the instructions of valid modules per opcode\n"
    "  help                this text\n";

bool read_file(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

// Loads and checks one file, printing its diagnostics; the module when it is valid.
std::optional<ptxvm::ast::Module> load(const char* path) {
  std::string text;
  if (!read_file(path, text)) {
    std::fprintf(stderr, "%s: error: cannot read file: %s\n", path, std::strerror(errno));
    return std::nullopt;
  }
  ptxvm::SourceFile file(path, std::move(text));
  ptxvm::Diagnostics diags(file);
  auto m = ptxvm::check::check_source(file, diags);
  std::fputs(diags.render().c_str(), stderr);
  return m;
}

int cmd_check(int argc, char** argv) {
  if (argc < 1) {
    std::fputs("ptxvm check: no input files\n", stderr);
    return 1;
  }
  int status = 0;
  for (int i = 0; i < argc; ++i)
    if (!load(argv[i])) status = 1;
  return status;
}

int cmd_print(int argc, char** argv) {
  if (argc != 1) {
    std::fputs("usage: ptxvm print FILE.ptx\n", stderr);
    return 1;
  }
  auto m = load(argv[0]);
  if (!m) return 1;
  std::fputs(ptxvm::front::print_module(*m).c_str(), stdout);
  return 0;
}

// The family of an instruction for counting: mnemonics such as `cp`, `wgmma` and `tcgen05` and
// qualifiers such as `.sp` and `.async` name distinct families (`cp.async`, `mma.sp`).
std::string family_key(const ptxvm::ast::Instruction& in) {
  static const std::set<std::string> kByFirstQualifier = {"cp",       "tcgen05",  "wgmma",
                                                          "mbarrier", "multimem", "tensormap"};
  static const std::set<std::string> kFamilyQualifiers = {
      ".cluster", ".proxy", ".sp", ".sp::ordered_metadata", ".async", ".pack", ".bulk", ".warp"};
  if (in.qualifiers.empty()) return in.opcode;
  const std::string& q = in.qualifiers[0];
  if (kByFirstQualifier.count(in.opcode) || kFamilyQualifiers.count(q)) return in.opcode + q;
  return in.opcode;
}

void count_block(const ptxvm::ast::Block& b, std::map<std::string, size_t>& counts) {
  for (const auto& s : b.body) {
    if (s.kind == ptxvm::ast::Statement::Kind::Instruction) ++counts[family_key(s.inst)];
    if (s.kind == ptxvm::ast::Statement::Kind::Block) count_block(*s.block, counts);
  }
}

int cmd_opcodes(int argc, char** argv) {
  std::map<std::string, size_t> counts;
  int status = 0;
  for (int i = 0; i < argc; ++i) {
    auto m = load(argv[i]);
    if (!m) {
      status = 1;
      continue;
    }
    for (const auto& t : m->items)
      if (t.kind == ptxvm::ast::TopLevel::Kind::Function && t.func->body)
        count_block(*t.func->body, counts);
  }
  for (const auto& [name, n] : counts) std::printf("%8zu  %s\n", n, name.c_str());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  std::string cmd = argv[1];
  if (cmd == "check") return cmd_check(argc - 2, argv + 2);
  if (cmd == "print") return cmd_print(argc - 2, argv + 2);
  if (cmd == "run") return ptxvm::tool::run_manifest(argc - 2, argv + 2);
  if (cmd == "opcodes") return cmd_opcodes(argc - 2, argv + 2);
  std::fprintf(stderr, "ptxvm: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
  return 1;
}
