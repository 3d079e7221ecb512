#include "codegen/elemental/emitter.h"

#include <fmt/format.h>

#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {

Index Index::Linear(std::vector<int64_t> dims, std::string linear) {
  Index index;
  index.dims = std::move(dims);
  index.linear = std::move(linear);
  if (index.dims.empty()) index.has_multi = true;
  return index;
}

Index Index::Multi(std::vector<int64_t> dims, std::vector<std::string> multi) {
  Index index;
  index.dims = std::move(dims);
  index.multi = std::move(multi);
  index.has_multi = true;
  if (index.dims.empty()) index.linear = "0u";
  return index;
}

Index Index::Scalar() { return Multi({}, {}); }

ElementalEmitter::InputLookup ElementalEmitter::InputsInOrder(const std::vector<const ir::Value*>& inputs) {
  std::unordered_map<const ir::Value*, InputBinding> bindings;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bindings[inputs[i]] = InputBinding{static_cast<int>(i), inputs[i]->type().element_type()};
  }
  return [bindings = std::move(bindings)](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = bindings.find(v);
    if (it == bindings.end()) return std::nullopt;
    return it->second;
  };
}

std::string OpLocation(const ir::Operation& op, const std::string& source_name) {
  return ir::FormatLocation(source_name, op.location());
}

ElementalEmitter::ElementalEmitter(const TargetInfo& target, ShaderPrelude& prelude, InputLookup inputs)
    : target_(target), prelude_(prelude), inputs_(std::move(inputs)) {
  memo_.emplace_back();
}

const TypeFacts& ElementalEmitter::Facts(ir::ElementType type) {
  auto it = facts_.find(static_cast<int>(type));
  if (it == facts_.end()) it = facts_.emplace(static_cast<int>(type), GetTypeFacts(type, target_)).first;
  return it->second;
}

Status ElementalEmitter::OpError(const ir::Operation& op, const std::string& what) const {
  std::string where = OpLocation(op, source_name_);
  return InvalidArgumentError(fmt::format("{}{}'{}' {}", where, where.empty() ? "" : ": error: ", op.name(), what));
}

void ElementalEmitter::Bind(const ir::Value* value, Expr expr) { bound_[value] = std::move(expr); }

void ElementalEmitter::Line(const std::string& text) {
  body_.append(static_cast<size_t>(indent_) * 2, ' ');
  body_ += text;
  body_ += '\n';
}

std::string ElementalEmitter::Var(std::string_view glsl_type, const std::string& init) {
  std::string name = fmt::format("v{}", next_var_++);
  // `precise`: no contraction of a * b + c into fma, whose single rounding would differ from the
  // interpreter's two.
  const bool is_float = glsl_type == "float" || glsl_type == "double" || glsl_type == "float16_t" ||
                        glsl_type == "vec2" || glsl_type == "dvec2";
  Line(fmt::format("{}{} {} = {};", is_float ? "precise " : "", glsl_type, name, init));
  return name;
}

Expr ElementalEmitter::Result(ir::ElementType type, const std::string& code) {
  const TypeFacts& f = Facts(type);
  RequireCompute(type);
  return Expr{Var(f.glsl, RoundToType(f, code)), type, false};
}

Expr ElementalEmitter::Exact(ir::ElementType type, const std::string& code) {
  RequireCompute(type);
  return Expr{Var(Facts(type).glsl, code), type, false};
}

void ElementalEmitter::Open(const std::string& header) {
  Line(header.empty() ? "{" : header + " {");
  ++indent_;
  memo_.emplace_back();
}

void ElementalEmitter::Else() {
  memo_.pop_back();
  --indent_;
  Line("} else {");
  ++indent_;
  memo_.emplace_back();
}

void ElementalEmitter::Close() {
  memo_.pop_back();
  --indent_;
  Line("}");
}

void ElementalEmitter::Include(const std::string& file) {
  prelude_.Extension("GL_GOOGLE_include_directive");
  prelude_.Include(file);
}

void ElementalEmitter::IncludeMath(ComputeKind kind) {
  switch (kind) {
    case ComputeKind::kDouble:
      Include("hlo_math_f64.glsl");
      break;
    case ComputeKind::kComplex64:
      Include("hlo_math_f32.glsl");
      Include("hlo_complex_f32.glsl");
      break;
    case ComputeKind::kComplex128:
      Include("hlo_math_f64.glsl");
      Include("hlo_complex_f64.glsl");
      break;
    default:
      Include("hlo_math_f32.glsl");
      break;
  }
}

const std::string* ElementalEmitter::Lookup(const std::string& key) const {
  for (auto scope = memo_.rbegin(); scope != memo_.rend(); ++scope) {
    auto it = scope->find(key);
    if (it != scope->end()) return &it->second;
  }
  return nullptr;
}

void ElementalEmitter::Remember(const std::string& key, const std::string& value) { memo_.back()[key] = value; }

std::string ElementalEmitter::Linear(const Index& index) {
  if (!index.linear.empty()) return index.linear;
  if (index.dims.empty()) return "0u";
  if (!FitsLinearIndex(index.dims)) {
    // A value beyond 2^32 - 1 elements is reached only through its per-dimension coordinates
    // (each below 2^31); its row-major position would wrap a uint.
    if (sticky_.ok()) {
      int64_t n = 1;
      for (int64_t d : index.dims) n *= d;
      const std::string what = fmt::format(
          "needs the linear position within a value of {} elements (beyond 4294967295): kernels index values past "
          "2^32 elements by per-dimension coordinates only (an element-wise op, broadcast, slice, transpose, pad, "
          "concatenate, reverse or a reshape that only adds or drops size-1 dimensions)",
          n);
      sticky_ = UnimplementedError(current_op() != nullptr ? std::string(OpError(*current_op(), what).message())
                                                           : "a kernel " + what);
    }
    return "0u";
  }
  const std::string key = fmt::format("lin:{}:{}", fmt::join(index.dims, "x"), fmt::join(index.multi, ","));
  if (const std::string* known = Lookup(key)) return *known;
  std::string sum;
  int64_t stride = 1;
  for (size_t d = index.dims.size(); d-- > 0;) {
    if (index.dims[d] != 1) {
      std::string term = stride == 1 ? fmt::format("uint({})", index.multi[d])
                                     : fmt::format("uint({}) * {}", index.multi[d], UintLiteral(stride));
      sum = sum.empty() ? term : term + " + " + sum;
    }
    stride *= index.dims[d];
  }
  std::string name = sum.empty() ? "0u" : Var("uint", sum);
  Remember(key, name);
  return name;
}

std::vector<std::string> ElementalEmitter::Multi(const Index& index) {
  if (index.has_multi) return index.multi;
  const size_t rank = index.dims.size();
  std::vector<std::string> multi(rank, "0");
  bool empty = false;
  for (int64_t d : index.dims) empty = empty || d == 0;
  if (empty) return multi;  // no element exists; the code is never reached
  if (!FitsLinearIndex(index.dims)) {
    if (sticky_.ok()) sticky_ = InternalError("a linear index of a value beyond 2^32 - 1 elements reached Multi()");
    return multi;
  }
  const std::string key = fmt::format("multi:{}:{}", fmt::join(index.dims, "x"), index.linear);
  if (const std::string* known = Lookup(key)) {
    size_t start = 0;
    for (size_t d = 0; d < rank; ++d) {
      size_t end = known->find(',', start);
      multi[d] = known->substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end + 1;
    }
    return multi;
  }
  // Peel dimensions from the last: m[d] = q % dims[d], q /= dims[d]. The outermost dimension
  // needs no modulo (the index is in range).
  std::string q = index.linear;
  size_t outer = 0;
  while (outer < rank && index.dims[outer] == 1) ++outer;
  for (size_t d = rank; d-- > 0;) {
    if (index.dims[d] == 1) continue;
    if (d == outer) {
      multi[d] = Var("int", fmt::format("int({})", q));
      break;
    }
    multi[d] = Var("int", fmt::format("int({} % {})", q, UintLiteral(static_cast<uint64_t>(index.dims[d]))));
    q = Var("uint", fmt::format("{} / {}", q, UintLiteral(static_cast<uint64_t>(index.dims[d]))));
  }
  Remember(key, fmt::format("{}", fmt::join(multi, ",")));
  return multi;
}

std::string ElementalEmitter::MemoKey(const ir::Value* value, const Index& index) {
  if (!index.linear.empty()) return fmt::format("{}@L{}", static_cast<const void*>(value), index.linear);
  return fmt::format("{}@M{}", static_cast<const void*>(value), fmt::join(index.multi, ","));
}

Status ElementalEmitter::MissingFeature(ir::ElementType type, std::string_view feature) const {
  const ir::Operation* op = current_op();
  std::string type_text(ir::ElementTypeName(type));
  if (op != nullptr) {
    for (size_t i = 0; i < op->num_results(); ++i) {
      if (op->result(i)->type().is_tensor() && op->result(i)->type().element_type() == type) {
        type_text = op->result(i)->type().ToString();
      }
    }
    if (type_text == ir::ElementTypeName(type)) {
      for (const ir::Value* operand : op->operands()) {
        if (operand->type().is_tensor() && operand->type().element_type() == type) {
          type_text = operand->type().ToString();
          break;
        }
      }
    }
  }
  std::string what = fmt::format("on {} needs {}, which {} lacks (profile {})", type_text, feature,
                                 target_.device_name, target_.profile);
  if (op == nullptr) return InvalidArgumentError(what);
  return OpError(*op, what);
}

void ElementalEmitter::RequireCompute(ir::ElementType type) {
  const TypeFacts& f = Facts(type);
  std::string_view feature = RequiredFeature(f);
  if (!TargetHas(target_, feature)) {
    if (sticky_.ok()) sticky_ = MissingFeature(type, feature);
    return;
  }
  if (f.emulated) {
    Include("hlo_i64.glsl");
  } else if (f.kind == ComputeKind::kInt64 || f.kind == ComputeKind::kUint64) {
    prelude_.Extension("GL_EXT_shader_explicit_arithmetic_types_int64");
  }
  if (f.kind == ComputeKind::kHalf) prelude_.Extension("GL_EXT_shader_explicit_arithmetic_types_float16");
  if (f.kind == ComputeKind::kNarrowFloat) Include("hlo_float_codec.glsl");
}

StatusOr<Expr> ElementalEmitter::Compute(const Expr& e) {
  if (!e.raw) return e;
  const TypeFacts& f = Facts(e.type);
  std::string_view feature = RequiredFeature(f);
  if (!TargetHas(target_, feature)) return MissingFeature(e.type, feature);
  RequireCompute(e.type);
  return Expr{Var(f.glsl, RawToCompute(f, e.code)), e.type, false};
}

Expr ElementalEmitter::Raw(const Expr& e) {
  if (e.raw) return e;
  const TypeFacts& f = Facts(e.type);
  if (f.kind == ComputeKind::kNarrowFloat) Include("hlo_float_codec.glsl");
  return Expr{Var(f.raw_glsl, ComputeToRaw(f, e.code)), e.type, true};
}

Expr ElementalEmitter::LoadWords(const std::string& buffer, ir::ElementType type, const Index& index) {
  const TypeFacts& f = Facts(type);
  const std::string l = Linear(index);
  std::string code;
  switch (f.storage_bits) {
    case 8: code = fmt::format("(({0}[{1} >> 2u] >> (({1} & 3u) << 3u)) & 0xffu)", buffer, l); break;
    case 16: code = fmt::format("(({0}[{1} >> 1u] >> (({1} & 1u) << 4u)) & 0xffffu)", buffer, l); break;
    case 32: code = fmt::format("{}[{}]", buffer, l); break;
    case 64: code = fmt::format("uvec2({0}[2u * {1}], {0}[2u * {1} + 1u])", buffer, l); break;
    default:
      code = fmt::format("uvec4({0}[4u * {1}], {0}[4u * {1} + 1u], {0}[4u * {1} + 2u], {0}[4u * {1} + 3u])",
                         buffer, l);
      break;
  }
  return Expr{Var(f.raw_glsl, code), type, true};
}

StatusOr<Expr> ElementalEmitter::Emit(const ir::Value* value, const Index& index) {
  if (auto it = bound_.find(value); it != bound_.end()) return it->second;
  const std::string key = MemoKey(value, index);
  if (const std::string* known = Lookup(key)) {
    // "<code>|<raw>|<type>"
    const size_t a = known->find('|'), b = known->rfind('|');
    return Expr{known->substr(0, a), static_cast<ir::ElementType>(std::stoi(known->substr(b + 1))),
                known->substr(a + 1, b - a - 1) == "1"};
  }
  VKHLO_ASSIGN_OR_RETURN(Expr expr, EmitUncached(value, index));
  Remember(key, fmt::format("{}|{}|{}", expr.code, expr.raw ? 1 : 0, static_cast<int>(expr.type)));
  return expr;
}

StatusOr<Expr> ElementalEmitter::EmitUncached(const ir::Value* value, const Index& index) {
  if (std::optional<InputBinding> input = inputs_(value)) {
    return LoadWords(fmt::format("in{}", input->binding), input->type, index);
  }
  const ir::Operation* op = value->defining_op();
  if (op == nullptr) {
    return InternalError("elemental emitter: a block argument is not among the kernel's inputs");
  }
  OpEmitFn fn = OpEmitters().Find(op->code());
  if (fn == nullptr) return OpError(*op, "cannot be emitted elementally");
  op_stack_.push_back(op);
  StatusOr<Expr> result = fn(*this, *op, index);
  op_stack_.pop_back();
  if (result.ok() && !sticky_.ok()) return sticky_;
  return result;
}

}  // namespace vkhlo::codegen
