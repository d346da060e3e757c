#include "check/directives.h"

#include <string>

namespace ptxvm::check {
namespace {

using namespace ast;

const char* kSpec = " (001_23fdd5978b24a3ed.txt)";

// One performance-tuning directive of a function header (§11.4), as ptxas 13.0 accepts it.
struct DirectiveRule {
  const char* name;
  const char* section;
  size_t min_values, max_values;
  bool positive;          // ptxas: "Positive non-zero value expected for <name>"
  uint32_t ptx_major, ptx_minor;  // minimum .version (0.0: any)
  uint32_t sm;            // minimum target (0: any)
};

// Every one of these is an `.entry` directive: ptxas rejects each on a `.func` with a syntax error
// (§11.4 lists .maxnreg, .maxntid and .minnctapersm for .func too; ptxas is the authority).
// .reqnctapercluster 0 and .maxclusterrank 0 are accepted by ptxas, so they are not `positive`.
constexpr DirectiveRule kDirectives[] = {
    {".maxnreg", "§11.4.1", 1, 1, true, 0, 0, 0},
    {".maxntid", "§11.4.2", 1, 3, true, 0, 0, 0},
    {".reqntid", "§11.4.3", 1, 3, true, 0, 0, 0},
    {".minnctapersm", "§11.4.4", 1, 1, true, 0, 0, 0},
    {".maxnctapersm", "§11.4.5", 1, 1, true, 0, 0, 0},
    {".explicitcluster", "§11.7.2", 0, 0, false, 7, 8, 90},
    {".reqnctapercluster", "§11.7.1", 1, 3, false, 7, 8, 90},
    {".maxclusterrank", "§11.7.3", 1, 1, false, 7, 8, 90},
    {".blocksareclusters", "§11.7 (003_6cc9a368d385caa7.txt)", 0, 0, false, 9, 0, 90},
};

// The directive's section with the spec file it is in.
std::string ref(const DirectiveRule& r) {
  std::string s = r.section;
  return s.find('(') == std::string::npos ? s + kSpec : s;
}

const DirectiveRule* find_rule(const std::string& name) {
  for (const DirectiveRule& r : kDirectives)
    if (name == r.name) return &r;
  return nullptr;
}

uint32_t target_sm(const Module& m) {
  for (const std::string& t : m.targets) {
    if (t.rfind("sm_", 0) != 0) continue;
    uint32_t sm = 0;
    for (size_t i = 3; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) sm = sm * 10 + (t[i] - '0');
    return sm;
  }
  return 0;
}

class DirectiveChecker {
public:
  DirectiveChecker(const Module& m, Diagnostics& d) : m_(m), diags_(d), sm_(target_sm(m)) {}

  void run() {
    for (const TopLevel& t : m_.items) {
      if (t.kind == TopLevel::Kind::Decl) module_decl(t.decl);
      if (t.kind != TopLevel::Kind::Function) continue;
      function(*t.func);
      if (t.func->body) block(*t.func->body);
    }
  }

private:
  bool version_below(uint32_t major, uint32_t minor) const {
    return m_.version_major < major || (m_.version_major == major && m_.version_minor < minor);
  }

  void function(const Function& f) {
    const std::string kind = f.is_entry ? ".entry" : ".func";
    if (f.is_entry && f.noreturn)
      diags_.error(f.name_loc, "noreturn-placement: `.noreturn` on .entry `" + f.name +
                                   "` — ptxas accepts it only on a .func — §11.4.6" + kSpec +
                                   "; remove it");
    if (f.linkage == Linkage::Extern && f.body)
      // ptxas: "Function definition conflicts with '.extern' declaration for function 'f'".
      diags_.error(f.name_loc, "extern-definition: `.extern` function `" + f.name +
                                   "` has a body — §11.6.1" + kSpec +
                                   "; drop .extern (or the body, to declare it)");
    const FuncDirective* maxntid = nullptr;
    const FuncDirective* reqntid = nullptr;
    const FuncDirective* reqncta = nullptr;
    const FuncDirective* blocks = nullptr;
    for (const FuncDirective& d : f.directives) {
      if (d.name == ".pragma") {
        pragma_on_header(f, d);
        continue;
      }
      const DirectiveRule* r = find_rule(d.name);
      if (!r) {
        diags_.error(d.loc, "unknown-directive: `" + d.name + "` on " + kind + " `" + f.name +
                                "` is no performance-tuning directive — §11.4" + kSpec);
        continue;
      }
      if (!f.is_entry) {
        diags_.error(d.loc, "directive-placement: `" + d.name + "` on .func `" + f.name +
                                "` — ptxas accepts it only on a .entry — " + ref(*r) +
                                "; move it to the kernel");
        continue;
      }
      values(d, *r);
      if (d.name == ".maxnctapersm")
        // ptxas: "Deprecated feature: '.maxnctapersm directive' not supported as of PTX version 2.1".
        diags_.error(d.loc, "deprecated-directive: `.maxnctapersm` is not supported as of PTX ISA "
                            "2.1 — §11.4.5" + std::string(kSpec) + "; use .minnctapersm");
      if (r->ptx_major && version_below(r->ptx_major, r->ptx_minor))
        diags_.error(d.loc, "`" + d.name + "` needs PTX ISA " + std::to_string(r->ptx_major) + "." +
                                std::to_string(r->ptx_minor) + " (module has .version " +
                                std::to_string(m_.version_major) + "." +
                                std::to_string(m_.version_minor) + ") — " + ref(*r) +
                                "; use .version " + std::to_string(r->ptx_major) + "." +
                                std::to_string(r->ptx_minor));
      if (r->sm && sm_ && sm_ < r->sm)
        diags_.error(d.loc, "`" + d.name + "` needs sm_" + std::to_string(r->sm) +
                                " or later (not sm_" + std::to_string(sm_) + ") — " + ref(*r) + "; use .target sm_" + std::to_string(r->sm));
      if (d.name == ".maxntid") maxntid = &d;
      if (d.name == ".reqntid") reqntid = &d;
      if (d.name == ".reqnctapercluster") reqncta = &d;
      if (d.name == ".blocksareclusters") blocks = &d;
    }
    if (maxntid && reqntid)
      // ptxas: "Conflicting directives: .maxntid and .reqntid cannot both be specified".
      diags_.error(reqntid->loc, "directive-conflict: `.maxntid` and `.reqntid` on .entry `" +
                                     f.name + "` — ptxas accepts only one of them — §11.4.3" +
                                     kSpec + "; keep .reqntid");
    if (blocks && (!reqntid || !reqncta))
      // ptxas: ".reqntid and .reqnctapercluster directive(s) required for directive
      // '.blocksareclusters'".
      diags_.error(blocks->loc, "directive-requires: `.blocksareclusters` on .entry `" + f.name +
                                    "` needs `.reqntid` and `.reqnctapercluster` — §11.7 (003_6cc9a368d385caa7.txt)" +
                                    std::string(kSpec) + "; add both");
    for (const VarDecl& p : f.params)
      if (f.is_entry && p.space != Space::Param)
        for (const Declarator& n : p.names)
          // ptxas: "Entry parameter 'a' must have .param state space".
          diags_.error(n.loc, "entry-parameter-space: kernel parameter `" + n.name + "` is in " +
                                  to_string(p.space) + " — §5.1.6" + kSpec +
                                  "; declare it .param");
    for (const VarDecl& p : f.params) predicate(p);
  }

  void values(const FuncDirective& d, const DirectiveRule& r) {
    size_t n = d.values.size();
    if (n < r.min_values || n > r.max_values) {
      std::string want = r.min_values == r.max_values
                             ? std::to_string(r.min_values)
                             : std::to_string(r.min_values) + " to " + std::to_string(r.max_values);
      diags_.error(d.loc, "directive-values: `" + d.name + "` takes " + want + " value(s), not " +
                              std::to_string(n) + " — " + ref(r));
      return;
    }
    if (!r.positive) return;
    for (uint64_t v : d.values)
      if (v == 0)
        diags_.error(d.loc, "directive-values: `" + d.name + "` needs positive values, not 0 — " +
                                ref(r) + "; use 1 for an unused dimension");
  }

  // ptxas: "Pragma 'enable_smem_spilling' is allowed only within function scope" — on a header
  // it must move into the body. Unknown pragma strings draw only a ptxas warning (§11.4.7).
  void pragma_on_header(const Function& f, const FuncDirective& d) {
    if (!f.is_entry) {
      diags_.error(d.loc, "directive-placement: `.pragma` on .func `" + f.name +
                              "` — ptxas accepts a header .pragma only on a .entry — §11.4.7" +
                              kSpec + "; move it into the body");
      return;
    }
    for (const std::string& s : d.strings)
      if (s == "enable_smem_spilling")
        diags_.error(d.loc, "pragma-placement: `.pragma \"enable_smem_spilling\"` is allowed only "
                            "inside a function body — §11.4.7" + std::string(kSpec) +
                            "; move it into the body of `" + f.name + "`");
  }

  void module_decl(const VarDecl& d) {
    if (d.space == Space::Reg)
      // ptxas: "Module-scoped variables in .reg state space are not allowed with ABI".
      diags_.error(d.loc, "module-register: `.reg` variables may not be declared at module scope — "
                          "§5.1.1" + std::string(kSpec) + "; declare them inside a function");
    if (d.space == Space::Param)
      // ptxas: "Parameter variables may not be declared at module scope".
      diags_.error(d.loc, "module-param: `.param` variables may not be declared at module scope — "
                          "§5.1.6" + std::string(kSpec) + "; declare them inside a function or "
                          "as parameters");
    if (d.linkage == Linkage::Common && d.space != Space::Global)
      // ptxas: ".common variables must be declared in .global space".
      diags_.error(d.loc, "common-space: `.common` variables must be in .global, not " +
                              std::string(to_string(d.space)) + " — §11.6.4" + kSpec);
    if (d.linkage == Linkage::Extern)
      for (const Declarator& n : d.names)
        if (n.init)
          // ptxas: "No initial value is allowed for external symbol 'g'".
          diags_.error(n.loc, "extern-initializer: `.extern` variable `" + n.name +
                                  "` has an initializer — §11.6.1" + kSpec +
                                  "; initialize it where it is defined");
    decl(d, d.linkage != Linkage::Extern);
  }

  void block(const Block& b) {
    for (const Statement& s : b.body) {
      if (s.kind == Statement::Kind::Decl) local_decl(s.decl);
      if (s.kind == Statement::Kind::Block) block(*s.block);
    }
  }

  // ptxas rejects a linkage directive inside a function with a syntax error (§11.6 gives them
  // for module-scope names only).
  void local_decl(const VarDecl& d) {
    if (d.linkage != Linkage::None)
      diags_.error(d.loc, "linkage-scope: `" + std::string(to_string(d.linkage)) +
                              "` inside a function — linking directives apply to module-scope "
                              "names only — §11.6" + kSpec + "; move the declaration to module "
                              "scope or drop it");
    decl(d, true);
  }

  void decl(const VarDecl& d, bool check_init) {
    predicate(d);
    if (!check_init || d.space == Space::Global || d.space == Space::Const) return;
    for (const Declarator& n : d.names)
      if (n.init)
        // ptxas: "No initial value is allowed for 'x' in this state space".
        diags_.error(n.loc, "initializer-space: `" + n.name + "` in " + to_string(d.space) +
                                " has an initializer, which only .global and .const variables "
                                "may have — §5.4.4" + kSpec + "; initialize it with instructions");
  }

  void predicate(const VarDecl& d) {
    if (d.type != ".pred" || d.space == Space::Reg) return;
    for (const Declarator& n : d.names)
      // ptxas: "Predicate variable 'p' must be in register state space".
      diags_.error(n.loc, "predicate-space: predicate `" + n.name + "` is in " +
                              to_string(d.space) + " — §5.2.1" + kSpec + "; declare it .reg .pred");
  }

  const Module& m_;
  Diagnostics& diags_;
  uint32_t sm_;
};

}  // namespace

void check_directives(const Module& m, Diagnostics& diags) { DirectiveChecker(m, diags).run(); }

}  // namespace ptxvm::check
