// Parsing of the row notations of family.h.
#include "isa/family.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ptxvm::isa {

const char* spec_file(Spec s) {
  switch (s) {
  case Spec::Tcgen05:
    return "000_70a4b524dfe259fa.txt";
  case Spec::Manual:
    return "001_23fdd5978b24a3ed.txt";
  case Spec::WgmmaSp:
    return "002_fd7b654cd2816116.txt";
  case Spec::Digest:
    return "003_6cc9a368d385caa7.txt";
  case Spec::Wmma:
    return "004_8b65a6cd58917981.txt";
  }
  return "";
}

int Family::axis(std::string_view name) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

std::vector<std::string> words(std::string_view s, char sep = ' ') {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep || (sep == ' ' && (c == '\t' || c == '\n'))) {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// Value sets shared by many rows (PTX §5.2.1 fundamental types).
const std::map<std::string, std::string>& value_sets() {
  static const std::map<std::string, std::string> sets = {
      {"u", ".u16 .u32 .u64"},
      {"s", ".s16 .s32 .s64"},
      {"int", ".u16 .u32 .u64 .s16 .s32 .s64"},
      {"int32_64", ".u32 .u64 .s32 .s64"},
      {"b", ".b16 .b32 .b64"},
      {"bits", ".b16 .b32 .b64 .u16 .u32 .u64 .s16 .s32 .s64"},
      {"f", ".f32 .f64"},
      {"ldst",
       ".b8 .b16 .b32 .b64 .b128 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f16 .f16x2 .f32 .f64"},
      {"scope", ".cta .cluster .gpu .sys"},
      {"sem", ".relaxed .acquire .release .acq_rel"},
  };
  return sets;
}

} // namespace

// ---- predicates ------------------------------------------------------------------------------

class PredParser {
public:
  PredParser(const Family& f, Pred& p, std::string_view text) : f_(f), p_(p), s_(text) {}
  void run() {
    p_.root_ = implies();
    skip();
    if (i_ != s_.size()) fail("unexpected text");
  }

private:
  const Family& f_;
  Pred& p_;
  std::string_view s_;
  size_t i_ = 0;

  [[noreturn]] void fail(const std::string& why) {
    throw std::invalid_argument("predicate '" + std::string(s_) + "' of " + f_.mnemonic + ": " +
                                why);
  }
  void skip() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(i_, tok.size()) == tok) {
      i_ += tok.size();
      return true;
    }
    return false;
  }
  int add(Pred::Node n) {
    p_.nodes_.push_back(n);
    return static_cast<int>(p_.nodes_.size() - 1);
  }
  int node(Pred::Node::Kind k, int l, int r) {
    Pred::Node n;
    n.kind = k;
    n.lhs = l, n.rhs = r;
    return add(n);
  }
  int implies() {
    int l = orx();
    if (eat("=>")) return node(Pred::Node::Implies, l, orx());
    return l;
  }
  int orx() {
    int l = andx();
    while (eat("||")) l = node(Pred::Node::Or, l, andx());
    return l;
  }
  int andx() {
    int l = notx();
    while (eat("&&")) l = node(Pred::Node::And, l, notx());
    return l;
  }
  int notx() {
    if (eat("!")) return node(Pred::Node::Not, notx(), -1);
    if (eat("(")) {
      int e = implies();
      if (!eat(")")) fail("missing ')'");
      return e;
    }
    return atom();
  }
  static bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  int atom() {
    skip();
    size_t b = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    std::string name(s_.substr(b, i_ - b));
    int ax = f_.axis(name);
    if (ax < 0) fail("no axis '" + name + "'");
    Pred::Node::Kind k = Pred::Node::Has;
    if (eat("!="))
      k = Pred::Node::NotIn;
    else if (skip(), s_.substr(i_, 2) != "=>" && eat("="))
      k = Pred::Node::In;
    if (k == Pred::Node::Has) {
      Pred::Node n;
      n.kind = k;
      n.axis = ax;
      return add(n);
    }
    std::bitset<kMaxValues> set;
    do {
      skip();
      size_t vb = i_;
      while (i_ < s_.size() && (name_char(s_[i_]) || s_[i_] == '.' || s_[i_] == ':')) ++i_;
      std::string v(s_.substr(vb, i_ - vb));
      const auto& vals = f_.axes[ax].values;
      size_t idx = 0;
      while (idx < vals.size() && vals[idx] != v) ++idx;
      if (idx == vals.size()) fail("axis '" + name + "' has no value '" + v + "'");
      set.set(idx);
    } while (eat(","));
    Pred::Node n;
    n.kind = k;
    n.axis = ax, n.set = set;
    return add(n);
  }
};

Pred::Pred(const Family& f, std::string_view text) : text_(text) {
  if (trim(text).empty()) return;
  PredParser(f, *this, text).run();
}

bool Pred::eval(const Binding& b) const {
  return nodes_.empty() || eval(root_, b);
}

bool Pred::eval(int n, const Binding& b) const {
  const Node& x = nodes_[n];
  switch (x.kind) {
  case Node::Has:
    return b.value[x.axis] >= 0;
  case Node::In:
    return b.value[x.axis] >= 0 && x.set.test(b.value[x.axis]);
  case Node::NotIn:
    return b.value[x.axis] < 0 || !x.set.test(b.value[x.axis]);
  case Node::Not:
    return !eval(x.lhs, b);
  case Node::And:
    return eval(x.lhs, b) && eval(x.rhs, b);
  case Node::Or:
    return eval(x.lhs, b) || eval(x.rhs, b);
  case Node::Implies:
    return !eval(x.lhs, b) || eval(x.rhs, b);
  }
  return false;
}

std::vector<int> Pred::axes_mentioned() const {
  std::vector<int> out;
  for (const Node& n : nodes_)
    if (n.axis >= 0 && std::find(out.begin(), out.end(), n.axis) == out.end())
      out.push_back(n.axis);
  return out;
}

// ---- rows ------------------------------------------------------------------------------------

static std::vector<Axis> parse_axes(const std::string& mnem, std::string_view text) {
  std::vector<Axis> axes;
  for (const std::string& part : words(text, ';')) {
    std::vector<std::string> w = words(part);
    if (w.empty()) continue;
    Axis a;
    a.name = w[0];
    a.required = true;
    if (a.name.back() == '?') a.name.pop_back(), a.required = false;
    for (size_t i = 1; i < w.size(); ++i) {
      std::string v = w[i];
      if (v[0] == '@') {
        auto it = value_sets().find(v.substr(1));
        if (it == value_sets().end()) throw std::invalid_argument(mnem + ": no value set " + v);
        for (const std::string& x : words(it->second)) a.values.push_back(x);
        continue;
      }
      if (v.back() == '*') v.pop_back(), a.default_index = static_cast<int>(a.values.size());
      if (v[0] != '.') throw std::invalid_argument(mnem + ": value without dot: " + v);
      a.values.push_back(v);
    }
    if (a.values.empty() || a.values.size() > kMaxValues)
      throw std::invalid_argument(mnem + ": axis " + a.name + " needs 1..256 values");
    axes.push_back(std::move(a));
  }
  return axes;
}

// Splits at commas outside `[...]` conditions.
static std::vector<std::string> operand_parts(std::string_view text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c == ',' && depth == 0)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

static std::vector<Operand> parse_operands(const Family& f, std::string_view text) {
  std::vector<Operand> ops;
  for (const std::string& part : operand_parts(text)) {
    std::string s = trim(part);
    if (s.empty()) continue;
    Operand o;
    size_t close = s.find(']');
    size_t colon = s.find(':', close == std::string::npos ? 0 : close);
    std::string kind = s.substr(0, colon);
    std::string type = colon == std::string::npos ? "*" : s.substr(colon + 1);
    o.kind = kind[0];
    if (std::string("darpimvxltsez_").find(o.kind) == std::string::npos)
      throw std::invalid_argument(f.mnemonic + ": bad operand kind '" + kind + "'");
    for (size_t i = 1; i < kind.size(); ++i) {
      if (kind[i] == '?' && i + 1 < kind.size()) { // a condition: `?axis` or `?[predicate]`
        std::string cond = kind.substr(i + 1);
        bool required = cond.front() == '+';
        if (required) cond.erase(0, 1);
        if (cond.front() == '[' && cond.back() == ']') cond = cond.substr(1, cond.size() - 2);
        o.optional = true;
        (required ? o.required_if : o.present_if) = Pred(f, cond);
        break;
      }
      if (kind[i] == '?')
        o.optional = true;
      else if (kind[i] == '*')
        o.any_size = true;
      else if (kind[i] == '-')
        o.negatable = true;
      else if (kind[i] == '&')
        o.address_of = true;
      else if (std::isdigit(static_cast<unsigned char>(kind[i])))
        o.vec = static_cast<uint8_t>(o.vec * 10 + (kind[i] - '0'));
      else
        throw std::invalid_argument(f.mnemonic + ": bad operand '" + s + "'");
    }
    if (!type.empty() && type[0] == '=') {
      for (const std::string& v : words(type.substr(1), '|'))
        o.values.push_back(std::stoull(v, nullptr, 0));
      type = "*";
    }
    if (!type.empty() && type[0] == '~') o.relaxed = true, type.erase(0, 1);
    if (!type.empty() && type[0] == '+') o.wide = true, type.erase(0, 1);
    if (type != "*") {
      if (type[0] == '.')
        o.types = words(type, '|');
      else if ((o.type_axis = f.axis(type)) < 0)
        throw std::invalid_argument(f.mnemonic + ": operand type axis '" + type + "' unknown");
    }
    ops.push_back(std::move(o));
  }
  return ops;
}

static Variant parse_variant(const Family& f, const std::string& when, const std::string& req,
                             const std::string& note) {
  std::vector<std::string> w = words(req);
  if (w.empty()) throw std::invalid_argument(f.mnemonic + ": empty variant requirement");
  Variant v;
  v.when = Pred(f, when);
  size_t dot = w[0].find('.');
  if (dot == std::string::npos)
    throw std::invalid_argument(f.mnemonic + ": bad PTX version " + w[0]);
  v.ptx = {static_cast<uint8_t>(std::stoi(w[0].substr(0, dot))),
           static_cast<uint8_t>(std::stoi(w[0].substr(dot + 1)))};
  std::string targets;
  for (size_t i = 1; i < w.size(); ++i) targets += (i > 1 ? " " : "") + w[i];
  v.target = TargetReq(targets);
  v.note = note;
  return v;
}

Family build_family(const Row& row) {
  Family f;
  f.mnemonic = row.mnemonic;
  std::vector<std::string> parts = words(f.mnemonic, '.');
  f.head = parts.at(0);
  for (size_t i = 1; i < parts.size(); ++i) f.fixed.push_back("." + parts[i]);
  f.section = row.section;
  f.spec = row.spec;
  f.axes = parse_axes(f.mnemonic, row.axes);
  // A fixed qualifier that is also the one value of a required axis is placed by the axes (the
  // syntax puts it between them: `mad.lo.cc.u32`), not matched as a leading qualifier.
  std::erase_if(f.fixed, [&](const std::string& q) {
    for (const Axis& a : f.axes)
      if (a.required && a.values.size() == 1 && a.values[0] == q) return true;
    return false;
  });
  f.operands = parse_operands(f, row.operands);
  f.variants.push_back(parse_variant(f, "", row.since, ""));
  for (const auto& v : row.variants) {
    if (v.size() < 2 || v.size() > 3) throw std::invalid_argument(f.mnemonic + ": bad variant");
    f.variants.push_back(parse_variant(f, v[0], v[1], v.size() > 2 ? v[2] : ""));
  }
  if (!row.removed.empty()) {
    Variant v = parse_variant(f, "", row.removed, "");
    f.removed_ptx = v.ptx;
    f.removed_sm = std::stoul(v.target.text().substr(3));
    f.replacement = row.replacement;
  }
  if (!row.address_axis.empty() && (f.address_axis = f.axis(row.address_axis)) < 0)
    throw std::invalid_argument(f.mnemonic + ": no address axis " + row.address_axis);
  for (const auto& r : row.rules) {
    if (r.size() < 3 || r.size() > 4) throw std::invalid_argument(f.mnemonic + ": bad rule");
    f.rules.push_back({r[0], Pred(f, r[1]), r[2], r.size() > 3 ? r[3] : f.section});
  }
  return f;
}

} // namespace ptxvm::isa
