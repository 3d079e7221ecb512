#include "interp/library_common.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vkhlo::interp::lib {

std::optional<std::vector<int64_t>> AttrInts(const ir::Operation& op, std::string_view name) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return std::nullopt;
  return a->AsI64Vector();
}

std::optional<std::string> AttrEnum(const ir::Operation& op, std::string_view name, std::string_view kind) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return std::nullopt;
  if (auto v = a->AsEnum(kind)) return v;
  // An enum written with another kind spelling: take its value.
  if (auto* e = a->as<ir::EnumValue>()) return e->value;
  return std::nullopt;
}

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    if (++index[i] < dims[i]) return true;
    index[i] = 0;
  }
  return false;
}

std::vector<int64_t> OffsetTable(const std::vector<int64_t>& axes, const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& strides) {
  std::vector<int64_t> table{0};
  for (int64_t axis : axes) {
    std::vector<int64_t> next;
    next.reserve(table.size() * static_cast<size_t>(dims[axis]));
    for (int64_t base : table) {
      for (int64_t i = 0; i < dims[axis]; ++i) next.push_back(base + i * strides[axis]);
    }
    table = std::move(next);
  }
  return table;
}

Domain DomainOf(ir::ElementType type) {
  if (ir::IsBoolean(type)) return Domain::kBool;
  if (ir::IsInteger(type)) return Domain::kInt;
  if (ir::IsComplex(type)) return Domain::kComplex;
  return Domain::kFloat;
}

bool UsesF64(std::initializer_list<ir::ElementType> types) {
  for (ir::ElementType t : types) {
    if (t == ir::ElementType::kF64 || t == ir::ElementType::kC128) return true;
  }
  return false;
}

std::vector<float> ToFloats(const ir::Literal& literal) {
  const std::vector<double> d = ToDoubles(literal);
  return std::vector<float>(d.begin(), d.end());
}

std::vector<ComplexF> ToComplexF(const ir::Literal& literal) {
  const std::vector<Complex> d = ToComplex(literal);
  std::vector<ComplexF> out(d.size());
  for (size_t i = 0; i < d.size(); ++i) out[i] = ComplexF(static_cast<float>(d[i].real()), static_cast<float>(d[i].imag()));
  return out;
}

std::vector<double> ToDoubles(const ir::Literal& literal) {
  std::vector<double> out(static_cast<size_t>(literal.num_elements()));
  if (literal.is_splat()) {
    std::fill(out.begin(), out.end(), literal.num_elements() > 0 ? literal.GetFloat(0) : 0.0);
    return out;
  }
  for (size_t i = 0; i < out.size(); ++i) out[i] = literal.GetFloat(static_cast<int64_t>(i));
  return out;
}

std::vector<Complex> ToComplex(const ir::Literal& literal) {
  std::vector<Complex> out(static_cast<size_t>(literal.num_elements()));
  if (literal.is_splat()) {
    std::fill(out.begin(), out.end(), literal.num_elements() > 0 ? literal.GetComplex(0) : Complex());
    return out;
  }
  for (size_t i = 0; i < out.size(); ++i) out[i] = literal.GetComplex(static_cast<int64_t>(i));
  return out;
}

std::vector<int64_t> ToInts(const ir::Literal& literal) {
  std::vector<int64_t> out(static_cast<size_t>(literal.num_elements()));
  const ir::ElementType t = literal.element_type();
  const bool is_float = ir::IsFloat(t) || ir::IsComplex(t);
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t index = literal.is_splat() ? 0 : static_cast<int64_t>(i);
    if (is_float) {
      double v = literal.GetFloat(index);
      out[i] = std::isfinite(v) ? static_cast<int64_t>(std::trunc(std::clamp(v, -9.2e18, 9.2e18))) : 0;
    } else {
      out[i] = literal.GetInt(index);
    }
  }
  return out;
}

namespace {

Status CheckCount(const ir::Type& type, size_t count) {
  if (!type.is_tensor()) return InvalidArgumentError("result type " + type.ToString() + " is not a tensor");
  if (static_cast<size_t>(type.num_elements()) != count) {
    return InternalError(fmt::format("{} values for a result of type {}", count, type.ToString()));
  }
  return OkStatus();
}

}  // namespace

StatusOr<ir::Literal> FromDoubles(const ir::Type& type, const std::vector<double>& values) {
  VKHLO_RETURN_IF_ERROR(CheckCount(type, values.size()));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(type));
  const ir::ElementType t = type.element_type();
  const Domain d = DomainOf(t);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t index = static_cast<int64_t>(i);
    switch (d) {
      case Domain::kBool: out.SetInt(index, values[i] != 0 ? 1 : 0); break;
      case Domain::kInt: {
        double v = values[i];
        out.SetInt(index, std::isfinite(v) ? static_cast<int64_t>(std::trunc(std::clamp(v, -9.2e18, 9.2e18))) : 0);
        break;
      }
      case Domain::kFloat: out.SetFloat(index, values[i]); break;
      case Domain::kComplex: out.SetComplex(index, Complex(values[i], 0.0)); break;
    }
  }
  return out;
}

StatusOr<ir::Literal> FromComplex(const ir::Type& type, const std::vector<Complex>& values) {
  VKHLO_RETURN_IF_ERROR(CheckCount(type, values.size()));
  if (DomainOf(type.element_type()) != Domain::kComplex) {
    std::vector<double> real(values.size());
    for (size_t i = 0; i < values.size(); ++i) real[i] = values[i].real();
    return FromDoubles(type, real);
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(type));
  for (size_t i = 0; i < values.size(); ++i) out.SetComplex(static_cast<int64_t>(i), values[i]);
  return out;
}

StatusOr<ir::Literal> FromFloats(const ir::Type& type, const std::vector<float>& values) {
  return FromDoubles(type, std::vector<double>(values.begin(), values.end()));
}

StatusOr<ir::Literal> FromComplexF(const ir::Type& type, const std::vector<ComplexF>& values) {
  std::vector<Complex> d(values.size());
  for (size_t i = 0; i < values.size(); ++i) d[i] = Complex(values[i].real(), values[i].imag());
  return FromComplex(type, d);
}

StatusOr<ir::Literal> FromInts(const ir::Type& type, const std::vector<int64_t>& values) {
  VKHLO_RETURN_IF_ERROR(CheckCount(type, values.size()));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(type));
  const Domain d = DomainOf(type.element_type());
  const bool is_unsigned = ir::IsUnsignedInteger(type.element_type());
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t index = static_cast<int64_t>(i);
    switch (d) {
      case Domain::kBool: out.SetInt(index, values[i] != 0 ? 1 : 0); break;
      case Domain::kInt: out.SetInt(index, values[i]); break;
      case Domain::kFloat:
        out.SetFloat(index, is_unsigned ? static_cast<double>(static_cast<uint64_t>(values[i]))
                                        : static_cast<double>(values[i]));
        break;
      case Domain::kComplex: out.SetComplex(index, Complex(static_cast<double>(values[i]), 0.0)); break;
    }
  }
  return out;
}

StatusOr<const ir::Literal*> TensorOperand(EvalContext& context, const ir::Operation& op,
                                           const InterpValues& operands, size_t i) {
  if (i >= operands.size() || !operands[i].is_tensor()) {
    return context.OpError(op, fmt::format("operand {} is not a tensor", i));
  }
  if (operands[i].literal().type().is_quantized()) {
    return context.Unimplemented(op, "quantized operands");
  }
  return &operands[i].literal();
}

StatusOr<ir::Type> TensorResultType(EvalContext& context, const ir::Operation& op, size_t i) {
  if (i >= op.num_results() || !op.result(i)->type().is_tensor()) {
    return context.OpError(op, fmt::format("result {} is not a tensor", i));
  }
  const ir::Type& type = op.result(i)->type();
  if (type.is_quantized()) return context.Unimplemented(op, "quantized results");
  return type;
}

}  // namespace vkhlo::interp::lib
