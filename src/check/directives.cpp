#include "check/directives.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

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
    order();
    for (const TopLevel& t : m_.items)
      if (t.kind == TopLevel::Kind::Function) functions_.emplace(t.func->name, t.func.get());
    for (const TopLevel& t : m_.items) {
      if (t.kind == TopLevel::Kind::Decl) module_decl(t.decl);
      if (t.kind == TopLevel::Kind::Alias) alias(t.alias);
      if (t.kind == TopLevel::Kind::Pragma)
        for (const std::string& p : t.pragmas) function_scope_pragma(t.loc, p, "at module scope");
      if (t.kind != TopLevel::Kind::Function) continue;
      function(*t.func);
      if (t.func->body) block(*t.func->body);
    }
  }

private:
  static bool before(SourceLoc a, SourceLoc b) {
    return a.line < b.line || (a.line == b.line && a.col < b.col);
  }

  // §11.1: `.version` first, then `.target`. ptxas: "Missing .version directive at start of file"
  // and "Missing .target directive at start of file". (.address_size keeps no location in the
  // tree, so its place is not checked here.)
  void order() {
    if (!m_.version_loc.valid() || !m_.target_loc.valid()) return;
    if (before(m_.target_loc, m_.version_loc)) {
      diags_.error(m_.target_loc, "directive-order: `.target` precedes `.version` — §11.1.1" +
                                      std::string(kSpec) + "; start the module with .version");
      return;
    }
    for (const TopLevel& t : m_.items)
      if (t.loc.valid() && before(t.loc, m_.target_loc)) {
        diags_.error(t.loc, "directive-order: a declaration precedes `.target` — §11.1.2" +
                                std::string(kSpec) + "; put .target right after .version");
        return;
      }
  }

  bool version_below(uint32_t major, uint32_t minor) const {
    return m_.version_major < major || (m_.version_major == major && m_.version_minor < minor);
  }

  void function(const Function& f) {
    const std::string kind = f.is_entry ? ".entry" : ".func";
    if (f.is_entry && f.noreturn)
      diags_.error(f.name_loc, "noreturn-placement: `.noreturn` on .entry `" + f.name +
                                   "` — ptxas accepts it only on a .func — §11.4.6" + kSpec +
                                   "; remove it");
    if (f.noreturn && version_below(6, 4))
      // ptxas: "Feature '.noreturn' requires PTX ISA .version 6.4 or later".
      diags_.error(f.name_loc, "`.noreturn` needs PTX ISA 6.4 (module has .version " +
                                   std::to_string(m_.version_major) + "." +
                                   std::to_string(m_.version_minor) + ") — §11.4.6" + kSpec +
                                   "; use .version 6.4");
    if (f.linkage == Linkage::Common)
      // ptxas: "Parsing error near '.func': syntax error".
      diags_.error(f.loc, "common-function: `.common` applies to .global variables only, not to "
                          "function `" + f.name + "` — §11.6.4" + std::string(kSpec) +
                          "; use .weak or .visible");
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
    for (const auto* list : {&f.returns, &f.params})
      for (const VarDecl& p : *list) {
        predicate(p);
        if (f.is_entry || p.space == Space::Param || p.space == Space::Reg) continue;
        for (const Declarator& n : p.names)
          // ptxas: "Function parameter 'a' has illegal state space".
          diags_.error(n.loc, "function-parameter-space: parameter `" + n.name + "` of .func `" +
                                  f.name + "` is in " + to_string(p.space) + " — §5.1.6.4" +
                                  kSpec + "; declare it .param (or .reg)");
      }
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
      function_scope_pragma(d.loc, s, "on the header of `" + f.name + "`");
  }

  // ptxas: "Pragma 'enable_smem_spilling' is allowed only within function scope", and the same
  // of "used_bytes_mask" (§14.2; enable_smem_spilling is a ptxas pragma the manual does not list).
  void function_scope_pragma(SourceLoc loc, const std::string& text, const std::string& where) {
    std::string word = pragma_word(text);
    if (word != "enable_smem_spilling" && word != "used_bytes_mask") return;
    diags_.error(loc, "pragma-placement: `.pragma \"" + text + "\"` " + where +
                          " — ptxas accepts it only inside a function body — §11.4.7" + kSpec +
                          "; move it into the body");
  }

  static std::string pragma_word(const std::string& text) {
    size_t b = text.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return text.substr(b, text.find_first_of(" \t", b) - b);
  }

  // ptxas: "Argument(s) to pragma 'used_bytes_mask' cannot be empty" (§14.2).
  void body_pragma(const Statement& s) {
    for (size_t i = 0; i < s.words.size(); ++i)
      if (pragma_word(s.words[i]) == "used_bytes_mask" &&
          s.words[i].find_first_not_of(" \t", s.words[i].find("used_bytes_mask") + 15) ==
              std::string::npos)
        diags_.error(s.loc, "pragma-argument: `.pragma \"used_bytes_mask\"` needs a mask — §14.2" +
                                std::string(kSpec) + "; write \"used_bytes_mask 0xf\"");
  }

  // `.alias a, f` (§11.2.3): `a` is a declaration only, neither is a .entry, and ptxas wants the
  // two prototypes identical — parameter count, state space, type, array size, alignment and
  // .noreturn (it accepts different parameter names).
  void alias(const Alias& al) {
    auto a = functions_.equal_range(al.alias);
    auto t = functions_.find(al.target);
    if (a.first == a.second) {
      // ptxas: "Unknown symbol 'g'" — the alias must be declared (as a prototype) before.
      diags_.error(al.loc, "alias-declaration: `.alias " + al.alias + ", " + al.target + "` but `" +
                               al.alias + "` is not a declared function — §11.2.3" + kSpec +
                               "; declare `" + al.alias + "` with the prototype of `" + al.target +
                               "` first");
      return;
    }
    if (t == functions_.end()) return;  // names.cpp reports an undeclared aliasee
    const Function& target = *t->second;
    for (auto it = a.first; it != a.second; ++it) {
      const Function& decl = *it->second;
      if (decl.body) {
        // ptxas: "Illegal redefinition of function 'g' as alias".
        diags_.error(al.loc, "alias-definition: `.alias " + al.alias + ", " + al.target + "` but `" +
                                 al.alias + "` has a body — §11.2.3" + kSpec +
                                 "; declare it without a body");
        return;
      }
      if (decl.is_entry || target.is_entry) {
        // ptxas: "Cannot define alias to entry function 'g'".
        diags_.error(al.loc, "alias-entry: `.alias " + al.alias + ", " + al.target +
                                 "` names a .entry — §11.2.3" + kSpec + "; alias .func only");
        return;
      }
    }
    const Function& decl = *a.first->second;
    std::string why = prototype_difference(decl, target);
    if (!why.empty())
      // ptxas: "Mismatch in prototype of alias 'g' and aliasee 'f'. <what> differ(s)".
      diags_.error(al.loc, "alias-prototype: `" + al.alias + "` and `" + al.target + "` differ in " +
                               why + " — §11.2.3" + kSpec + "; declare `" + al.alias +
                               "` with the prototype of `" + al.target + "`");
  }

  static std::string prototype_difference(const Function& a, const Function& b) {
    if (a.noreturn != b.noreturn) return ".noreturn";
    for (const auto& [x, y] : {std::pair{&a.returns, &b.returns}, std::pair{&a.params, &b.params}}) {
      std::vector<std::pair<const VarDecl*, const Declarator*>> px, py;
      for (const VarDecl& d : *x) for (const Declarator& n : d.names) px.push_back({&d, &n});
      for (const VarDecl& d : *y) for (const Declarator& n : d.names) py.push_back({&d, &n});
      if (px.size() != py.size()) return "the number of parameters";
      for (size_t i = 0; i < px.size(); ++i) {
        const VarDecl &dx = *px[i].first, &dy = *py[i].first;
        if (dx.space != dy.space) return "the state space of parameter " + std::to_string(i + 1);
        if (dx.type != dy.type || dx.vector != dy.vector ||
            dims_of(*px[i].second) != dims_of(*py[i].second))
          return "the type of parameter " + std::to_string(i + 1);
        // The alignment compared is the effective one: `.align 4 .b32` equals `.b32` for ptxas.
        if (dx.align.value_or(type_bytes(dx)) != dy.align.value_or(type_bytes(dy)))
          return "the alignment of parameter " + std::to_string(i + 1);
      }
    }
    return "";
  }

  static uint64_t type_bytes(const VarDecl& d) {
    size_t digits = d.type.find_first_of("0123456789");
    uint64_t bits = digits == std::string::npos ? 0 : std::stoull(d.type.substr(digits));
    return bits / 8 * (d.vector ? d.vector : 1);
  }

  static std::vector<uint64_t> dims_of(const Declarator& n) {
    std::vector<uint64_t> out;
    for (const auto& d : n.dims) out.push_back(d && (*d)->kind == Expr::Kind::Int ? (*d)->value : 0);
    return out;
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
      if (s.kind == Statement::Kind::Pragma) body_pragma(s);
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
  std::unordered_multimap<std::string, const Function*> functions_;
};

}  // namespace

void check_directives(const Module& m, Diagnostics& diags) { DirectiveChecker(m, diags).run(); }

}  // namespace ptxvm::check
