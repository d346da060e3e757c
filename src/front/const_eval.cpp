#include "front/const_eval.h"

#include <cstring>

namespace ptxvm::front {
namespace {

using namespace ast;
using Type = ConstValue::Type;

struct Failure {
  std::string message;
  SourceLoc loc;
};

ConstValue integer(Type t, uint64_t v) { return {t, v}; }
ConstValue signed_int(int64_t v) { return {Type::S64, static_cast<uint64_t>(v)}; }
ConstValue real(double d) {
  ConstValue v{Type::F64, 0};
  std::memcpy(&v.bits, &d, sizeof d);
  return v;
}

// Literals are signed unless they need 64 unsigned bits or carry a U suffix (§4.5.1).
ConstValue literal(const Expr& e) {
  bool is_unsigned = e.explicit_unsigned || e.value > static_cast<uint64_t>(INT64_MAX);
  return integer(is_unsigned ? Type::U64 : Type::S64, e.value);
}

class Evaluator {
public:
  ConstValue eval(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::Int: return literal(e);
    case Expr::Kind::Float:
      return e.is_f32 ? ConstValue{Type::F32, e.value} : ConstValue{Type::F64, e.value};
    case Expr::Kind::Symbol:
      if (e.name == "WARP_SZ" && e.component.empty()) return signed_int(32);
      throw Failure{"'" + e.name + "' is not a constant", e.loc};
    case Expr::Kind::Generic:
    case Expr::Kind::Mask:
      throw Failure{"an address operator is not a constant expression", e.loc};
    case Expr::Kind::Unary: return unary(e);
    case Expr::Kind::Cast: {
      ConstValue v = operand(*e.kids[0]);
      need_integer(v, e, "a cast");
      return integer(e.cast_unsigned ? Type::U64 : Type::S64, v.bits);
    }
    case Expr::Kind::Binary: return binary(e);
    case Expr::Kind::Conditional: {
      ConstValue c = operand(*e.kids[0]);
      need_integer(c, e, "the condition of ?:");
      ConstValue a = operand(*e.kids[1]), b = operand(*e.kids[2]);
      if (a.is_integer() != b.is_integer())
        throw Failure{"the arms of ?: mix integer and floating-point values (§4.5.5)", e.loc};
      if (a.is_integer()) {
        Type t = usual(a, b);
        return integer(t, c.bits ? a.bits : b.bits);
      }
      return c.bits ? a : b;
    }
    }
    throw Failure{"unknown expression", e.loc};
  }

private:
  // Operands of operators: a 0f literal keeps its exact single value and cannot take part.
  ConstValue operand(const Expr& e) {
    ConstValue v = eval(e);
    if (v.type == Type::F32)
      throw Failure{"a 0f single-precision literal cannot be used in a constant expression "
                    "(§4.5.2); write it as 0d or a decimal literal",
                    e.loc};
    return v;
  }
  static void need_integer(const ConstValue& v, const Expr& e, const char* what) {
    if (!v.is_integer())
      throw Failure{std::string(what) + " needs an integer operand (§4.5.5)", e.loc};
  }
  // The usual arithmetic conversions: unsigned if either operand is unsigned (§4.5.5).
  static Type usual(const ConstValue& a, const ConstValue& b) {
    return a.type == Type::U64 || b.type == Type::U64 ? Type::U64 : Type::S64;
  }

  ConstValue unary(const Expr& e) {
    ConstValue v = operand(*e.kids[0]);
    switch (e.uop) {
    case UnaryOp::Plus: return v;
    case UnaryOp::Minus:
      if (!v.is_integer()) return real(-v.as_double());
      return integer(v.type, 0 - v.bits);  // wraps modulo 2^64 for both signednesses
    case UnaryOp::Not:
      need_integer(v, e, "'!'");
      return signed_int(v.bits == 0);
    case UnaryOp::BitNot:
      need_integer(v, e, "'~'");
      return integer(Type::U64, ~v.bits);
    }
    return v;
  }

  ConstValue binary(const Expr& e) {
    ConstValue a = operand(*e.kids[0]), b = operand(*e.kids[1]);
    BinaryOp op = e.bop;
    bool floats = !a.is_integer() || !b.is_integer();
    if (floats && a.is_integer() != b.is_integer())
      throw Failure{"constant expression mixes integer and floating-point operands (§4.5.5)", e.loc};
    if (floats) return float_binary(e, a.as_double(), b.as_double());
    Type t = usual(a, b);
    bool u = t == Type::U64;
    int64_t sa = a.as_signed(), sb = b.as_signed();
    switch (op) {
    case BinaryOp::Add: return integer(t, a.bits + b.bits);
    case BinaryOp::Sub: return integer(t, a.bits - b.bits);
    case BinaryOp::Mul: return integer(t, a.bits * b.bits);
    case BinaryOp::Div:
      if (b.bits == 0) throw Failure{"division by zero in constant expression", e.loc};
      if (u) return integer(t, a.bits / b.bits);
      if (sa == INT64_MIN && sb == -1) return signed_int(INT64_MIN);  // wraps
      return signed_int(sa / sb);
    case BinaryOp::Rem:  // operands read as .u64, result .s64 (Table 5)
      if (b.bits == 0) throw Failure{"division by zero in constant expression", e.loc};
      return integer(Type::S64, a.bits % b.bits);
    case BinaryOp::Shl:  // result has the type of the first operand; the count is .u64
      return integer(a.type, b.bits >= 64 ? 0 : a.bits << b.bits);
    case BinaryOp::Shr:
      if (a.type == Type::S64) return signed_int(b.bits >= 64 ? (sa < 0 ? -1 : 0) : sa >> b.bits);
      return integer(Type::U64, b.bits >= 64 ? 0 : a.bits >> b.bits);
    case BinaryOp::Lt: return signed_int(u ? a.bits < b.bits : sa < sb);
    case BinaryOp::Gt: return signed_int(u ? a.bits > b.bits : sa > sb);
    case BinaryOp::Le: return signed_int(u ? a.bits <= b.bits : sa <= sb);
    case BinaryOp::Ge: return signed_int(u ? a.bits >= b.bits : sa >= sb);
    case BinaryOp::Eq: return signed_int(a.bits == b.bits);
    case BinaryOp::Ne: return signed_int(a.bits != b.bits);
    case BinaryOp::BitAnd: return integer(t, a.bits & b.bits);
    case BinaryOp::BitXor: return integer(t, a.bits ^ b.bits);
    case BinaryOp::BitOr: return integer(t, a.bits | b.bits);
    case BinaryOp::LogAnd: return signed_int(a.bits && b.bits);
    case BinaryOp::LogOr: return signed_int(a.bits || b.bits);
    }
    throw Failure{"unknown operator", e.loc};
  }

  ConstValue float_binary(const Expr& e, double a, double b) {
    switch (e.bop) {
    case BinaryOp::Add: return real(a + b);
    case BinaryOp::Sub: return real(a - b);
    case BinaryOp::Mul: return real(a * b);
    case BinaryOp::Div: return real(a / b);
    case BinaryOp::Lt: return signed_int(a < b);
    case BinaryOp::Gt: return signed_int(a > b);
    case BinaryOp::Le: return signed_int(a <= b);
    case BinaryOp::Ge: return signed_int(a >= b);
    case BinaryOp::Eq: return signed_int(a == b);
    case BinaryOp::Ne: return signed_int(a != b);
    default:
      throw Failure{"this operator needs integer operands (§4.5.6, Table 5)", e.loc};
    }
  }
};

}  // namespace

double ConstValue::as_double() const {
  if (type == Type::F32) {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
  if (type == Type::F64) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  return type == Type::U64 ? static_cast<double>(bits) : static_cast<double>(as_signed());
}

EvalResult evaluate(const ast::Expr& e) {
  try {
    return {Evaluator().eval(e), {}, e.loc};
  } catch (Failure& f) {
    return {std::nullopt, std::move(f.message), f.loc};
  }
}

}  // namespace ptxvm::front
