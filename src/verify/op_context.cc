#include "verify/op_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ir/tensor_bytes.h"

namespace vkhlo::verify {
namespace {

using ir::Attribute;
using ir::ElementType;
using ir::Type;

// Attribute lists longer than this are refused rather than expanded (a splat of a billion
// elements must not become a billion-element vector).
constexpr int64_t kMaxListAttribute = int64_t{1} << 22;

std::string Label(std::string_view label) {
  return label.empty() ? std::string() : fmt::format(" ({})", label);
}

std::string Shorten(std::string text) {
  constexpr size_t kMax = 160;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

// Element count of a dense list attribute, or -1 when it is not one.
int64_t DenseCount(const Attribute& attr) {
  if (auto* d = attr.as<Attribute::DenseArray>()) return d->values.num_elements();
  if (auto* d = attr.as<Attribute::DenseElements>()) return d->values.num_elements();
  return -1;
}

bool SameKind(ElementType a, ElementType b) {
  return (ir::IsBoolean(a) && ir::IsBoolean(b)) || (ir::IsInteger(a) && ir::IsInteger(b)) ||
         (ir::IsFloat(a) && ir::IsFloat(b)) || (ir::IsComplex(a) && ir::IsComplex(b));
}

std::string QuantizedDefect(const ir::QuantizedElement& q, const Type& type) {
  if (!ir::IsInteger(q.storage)) return "an integer storage type";
  if (!ir::IsFloat(q.expressed)) return "a floating-point expressed type";
  const int bits = ir::BitWidth(q.storage);
  int64_t low = 0, high = INT64_MAX;
  if (ir::IsSignedInteger(q.storage)) {
    low = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    high = bits >= 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
  } else if (bits < 64) {
    high = (int64_t{1} << bits) - 1;
  }
  if (q.storage_min < low || q.storage_max > high || q.storage_min >= q.storage_max) {
    return fmt::format("a storage range within [{}, {}] with min < max", low, high);
  }
  if (q.scales.empty() || q.scales.size() != q.zero_points.size()) {
    return "as many zero points as scales, at least one";
  }
  for (double scale : q.scales) {
    if (!(scale > 0) || !std::isfinite(scale)) return "positive finite scales";
  }
  for (int64_t zp : q.zero_points) {
    if (zp < q.storage_min || zp > q.storage_max) return "zero points within the storage range";
  }
  if (q.quantized_dimension) {
    const int64_t axis = *q.quantized_dimension;
    if (axis < 0 || axis >= type.rank()) return "a quantization dimension within the tensor's rank";
    if (static_cast<int64_t>(q.scales.size()) != type.dim(axis)) {
      return "one scale per slice along the quantization dimension";
    }
  } else if (q.scales.size() != 1) {
    return "one scale for a per-tensor quantized type";
  }
  return "";
}

}  // namespace

bool IsTensorOf(const Type& type, uint32_t classes) {
  if (!type.is_tensor()) return false;
  if (type.is_quantized()) return (classes & kQuantized) != 0;
  const ElementType e = type.element_type();
  if (ir::IsBoolean(e)) return (classes & kBoolean) != 0;
  if (ir::IsSignedInteger(e)) return (classes & kSignedInt) != 0;
  if (ir::IsUnsignedInteger(e)) return (classes & kUnsignedInt) != 0;
  if (ir::IsFloat(e)) return (classes & kFloat) != 0;
  if (ir::IsComplex(e)) return (classes & kComplex) != 0;
  return false;
}

std::string DescribeTensorOf(uint32_t classes) {
  if ((classes & kAnyElement) == kAnyElement) return "tensor";
  std::vector<std::string> parts;
  if (classes & kBoolean) parts.push_back("boolean");
  if ((classes & kInt) == kInt) {
    parts.push_back("integer");
  } else if (classes & kSignedInt) {
    parts.push_back("signed integer");
  } else if (classes & kUnsignedInt) {
    parts.push_back("unsigned integer");
  }
  if (classes & kFloat) parts.push_back("floating-point");
  if (classes & kComplex) parts.push_back("complex");
  if (classes & kQuantized) parts.push_back("quantized");
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) text += (i + 1 == parts.size()) ? " or " : ", ";
    text += parts[i];
  }
  return "tensor of " + text + " type";
}

bool CompatibleDim(int64_t a, int64_t b) { return a == b || ir::IsDynamicDim(a) || ir::IsDynamicDim(b); }

bool CompatibleDims(std::span<const int64_t> a, std::span<const int64_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!CompatibleDim(a[i], b[i])) return false;
  }
  return true;
}

int64_t MergeDim(int64_t a, int64_t b) { return ir::IsDynamicDim(a) ? b : a; }

bool SameShape(const Type& a, const Type& b) {
  return a.is_tensor() && b.is_tensor() && CompatibleDims(a.dims(), b.dims());
}

bool CompatibleExact(const Type& a, const Type& b) {
  if (a.kind() != b.kind()) return false;
  if (a.is_tuple()) {
    const auto& x = a.tuple_elements();
    const auto& y = b.tuple_elements();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!CompatibleExact(x[i], y[i])) return false;
    }
    return true;
  }
  if (!a.is_tensor()) return a == b;
  if (a.is_static() && b.is_static()) return a == b;
  return CompatibleDims(a.dims(), b.dims()) && a.WithDims(b.dims()) == b.WithBounds({});
}

bool CompatibleElement(const Type& a, const Type& b) {
  if (a.is_quantized() != b.is_quantized()) return false;
  if (!a.is_quantized()) return a.element_type() == b.element_type();
  const ir::QuantizedElement& qa = *a.quantization();
  const ir::QuantizedElement& qb = *b.quantization();
  return qa.storage == qb.storage && qa.expressed == qb.expressed && qa.storage_min == qb.storage_min &&
         qa.storage_max == qb.storage_max;
}

bool CompatibleType(const Type& a, const Type& b) {
  if (!a.is_tensor() || !b.is_tensor()) return a == b;
  return CompatibleDims(a.dims(), b.dims()) && CompatibleElement(a, b);
}

bool IsPromotable(const Type& from, const Type& to) {
  if (!from.is_tensor() || !to.is_tensor()) return false;
  if (from.is_quantized() || to.is_quantized()) {
    if (!from.is_quantized() || !to.is_quantized()) return false;
    const auto& qf = *from.quantization();
    const auto& qt = *to.quantization();
    return qf.expressed == qt.expressed && SameKind(qf.storage, qt.storage) &&
           ir::BitWidth(qf.storage) <= ir::BitWidth(qt.storage);
  }
  return SameKind(from.element_type(), to.element_type()) &&
         ir::BitWidth(from.element_type()) <= ir::BitWidth(to.element_type());
}

Type ScalarOf(const Type& type) {
  if (type.is_quantized()) {
    ir::QuantizedElement q = *type.quantization();
    if (q.quantized_dimension) {  // a scalar has no axis: keep the first slice's parameters
      q.quantized_dimension.reset();
      if (q.scales.size() > 1) q.scales = {q.scales.front()};
      if (q.zero_points.size() > 1) q.zero_points = {q.zero_points.front()};
    }
    return Type::QuantizedTensor(std::move(q), {});
  }
  return type.is_index() ? Type::IndexTensor({}) : Type::Scalar(type.element_type());
}

std::string ElementName(const Type& type) {
  if (!type.is_tensor()) return type.ToString();
  if (type.is_quantized()) return ir::QuantizedElementToString(*type.quantization());
  return std::string(ir::ElementTypeName(type.element_type()));
}

std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::string TypeDefect(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kInvalid:
      return "a tensor, tuple or token type";
    case Type::Kind::kToken:
      return "";
    case Type::Kind::kTuple:
      for (const Type& element : type.tuple_elements()) {
        std::string defect = TypeDefect(element);
        if (!defect.empty()) return defect;
      }
      return "";
    case Type::Kind::kTensor:
      for (int64_t d : type.dims()) {
        if (d < 0 && !ir::IsDynamicDim(d)) return "non-negative dimension sizes";
      }
      if (!type.bounds().empty()) {
        if (type.bounds().size() != type.dims().size()) return "one bound per dimension";
        for (int64_t i = 0; i < type.rank(); ++i) {
          const int64_t b = type.bounds()[static_cast<size_t>(i)];
          if (ir::IsDynamicDim(b)) continue;
          if (b < 0) return "non-negative dimension bounds";
          if (!type.is_dynamic_dim(i)) return "bounds on dynamic dimensions only";
        }
      }
      if (type.is_quantized() && !type.is_static()) {
        const auto& q = *type.quantization();
        if (q.quantized_dimension && *q.quantized_dimension < type.rank() && type.is_dynamic_dim(*q.quantized_dimension)) {
          return "a static quantization dimension";
        }
      }
      if (type.is_static() && type.num_elements() < 0) return "at most 9223372036854775807 elements";
      {
        // Strides (products of trailing sizes) must fit too, zero-element tensors included; the
        // static dims of a dynamic shape are checked alone (its sizes are checked once known).
        int64_t extent = 1;
        for (int64_t d : type.dims()) {
          if (d > 0 && __builtin_mul_overflow(extent, d, &extent)) {
            return "sizes whose product, zero sizes left out, fits in int64";
          }
        }
      }
      if (!type.is_static()) return type.is_quantized() ? QuantizedDefect(*type.quantization(), type) : "";
      // Every size computed from a type (literals, buffers, transfers) then fits in int64.
      if (!ir::TensorStorageBytes(type)) return "at most 9223372036854775807 bytes of elements";
      if (type.is_quantized()) return QuantizedDefect(*type.quantization(), type);
      return "";
  }
  return "a valid type";
}

std::string SignatureToString(std::span<const Type> arguments, std::span<const Type> results) {
  ir::FunctionType f{std::vector<Type>(arguments.begin(), arguments.end()),
                     std::vector<Type>(results.begin(), results.end())};
  return f.ToString();
}

std::string RegionSignature::ToString() const { return SignatureToString(arguments, results); }

// ---------------------------------------------------------------------------------------------

OpContext::OpContext(ir::OpCode code, std::span<const Type> operands, std::span<const Type> results,
                     const std::vector<ir::NamedAttribute>& attributes,
                     std::span<const ir::Region* const> regions, const ir::Operation* op, std::string prefix)
    : code_(code),
      operands_(operands),
      results_(results),
      attributes_(attributes),
      regions_(regions),
      op_(op),
      prefix_(std::move(prefix)) {}

std::string_view OpContext::name() const { return ir::GetOpInfo(code_).name; }

Status OpContext::Error(std::string_view what, std::string_view expected, std::string_view found) const {
  return MakeError(prefix_, name(), what, expected, found);
}

Status OpContext::RequireTensor(size_t i, uint32_t classes, std::string_view label) const {
  if (i >= operands_.size() || IsTensorOf(operands_[i], classes)) return OkStatus();
  return Error(fmt::format("{} has an invalid type", label), DescribeTensorOf(classes), operands_[i].ToString());
}

Status OpContext::RequireTensors(size_t first, size_t last, uint32_t classes, std::string_view label) const {
  for (size_t i = first; i < last && i < operands_.size(); ++i) {
    VKHLO_RETURN_IF_ERROR(RequireTensor(i, classes, label));
  }
  return OkStatus();
}

Status OpContext::RequireResultTensor(size_t i, uint32_t classes, std::string_view label) const {
  if (i >= results_.size() || IsTensorOf(results_[i], classes)) return OkStatus();
  return Error(fmt::format("{} has an invalid type", label), DescribeTensorOf(classes), results_[i].ToString());
}

Status OpContext::RequireToken(const Type& type, std::string_view label) const {
  if (type.is_token()) return OkStatus();
  return Error(fmt::format("{} has an invalid type", label), "!stablehlo.token", type.ToString());
}

Status OpContext::RequireScalar(size_t i, uint32_t classes, std::string_view label) const {
  if (i >= operands_.size()) return OkStatus();
  const Type& t = operands_[i];
  if (IsTensorOf(t, classes) && t.rank() == 0) return OkStatus();
  return Error(fmt::format("{} has an invalid type", label), "0-dimensional " + DescribeTensorOf(classes),
               t.ToString());
}

Status OpContext::MissingAttribute(std::string_view name, std::string_view description) const {
  return Error(fmt::format("requires attribute '{}'", name), description, "none");
}

Status OpContext::WrongAttributeKind(std::string_view name, std::string_view description,
                                     const Attribute& found) const {
  return Error(fmt::format("attribute '{}' has the wrong kind", name), description, Shorten(found.ToString()));
}

StatusOr<int64_t> OpContext::Int(std::string_view name, std::optional<int64_t> default_value) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) {
    if (default_value) return *default_value;
    return MissingAttribute(name, "an integer");
  }
  if (auto v = attr->AsInt()) return *v;
  // A one-element dense integer tensor (dense<1> : tensor<i64>) is an integer too.
  if (DenseCount(*attr) == 1) {
    if (auto v = attr->AsI64Vector(); v && v->size() == 1) return (*v)[0];
  }
  return WrongAttributeKind(name, "an integer", *attr);
}

StatusOr<bool> OpContext::Bool(std::string_view name, bool default_value) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) return default_value;
  if (attr->is_unit()) return true;
  if (auto v = attr->AsBool()) return *v;
  if (DenseCount(*attr) == 1) {
    if (auto v = attr->AsBoolVector(); v && v->size() == 1) return static_cast<bool>((*v)[0]);
  }
  return WrongAttributeKind(name, "a boolean", *attr);
}

StatusOr<double> OpContext::Float(std::string_view name, std::optional<double> default_value) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) {
    if (default_value) return *default_value;
    return MissingAttribute(name, "a floating-point number");
  }
  if (auto v = attr->AsFloat()) return *v;
  return WrongAttributeKind(name, "a floating-point number", *attr);
}

StatusOr<std::optional<std::vector<int64_t>>> OpContext::OptionalInts(std::string_view name) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) return std::optional<std::vector<int64_t>>();
  const int64_t count = DenseCount(*attr);
  if (count > kMaxListAttribute) {
    return Error(fmt::format("attribute '{}' is too long", name), fmt::format("at most {} values", kMaxListAttribute),
                 fmt::format("{} values", count));
  }
  if (auto* d = attr->as<Attribute::DenseElements>(); d != nullptr && d->values.type().rank() > 1) {
    return WrongAttributeKind(name, "a 1-dimensional list of integers", *attr);
  }
  auto values = attr->AsI64Vector();
  if (!values) return WrongAttributeKind(name, "a 1-dimensional list of integers", *attr);
  return std::optional<std::vector<int64_t>>(std::move(*values));
}

StatusOr<std::vector<int64_t>> OpContext::Ints(std::string_view name,
                                               std::optional<std::vector<int64_t>> default_value) const {
  VKHLO_ASSIGN_OR_RETURN(auto values, OptionalInts(name));
  if (values) return std::move(*values);
  if (default_value) return std::move(*default_value);
  return MissingAttribute(name, "a 1-dimensional list of integers");
}

StatusOr<std::optional<std::vector<bool>>> OpContext::OptionalBools(std::string_view name) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) return std::optional<std::vector<bool>>();
  const int64_t count = DenseCount(*attr);
  if (count > kMaxListAttribute) {
    return Error(fmt::format("attribute '{}' is too long", name), fmt::format("at most {} values", kMaxListAttribute),
                 fmt::format("{} values", count));
  }
  if (auto* a = attr->as<Attribute::Array>()) {
    std::vector<bool> out;
    for (const Attribute& e : *a) {
      auto b = e.AsBool();
      if (!b) return WrongAttributeKind(name, "a list of booleans", *attr);
      out.push_back(*b);
    }
    return std::optional<std::vector<bool>>(std::move(out));
  }
  auto values = attr->AsBoolVector();
  if (!values) return WrongAttributeKind(name, "a list of booleans", *attr);
  return std::optional<std::vector<bool>>(std::move(*values));
}

StatusOr<std::optional<IntMatrix>> OpContext::Matrix(std::string_view name, bool flat_as_pairs) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) return std::optional<IntMatrix>();
  const char* description = "a 2-dimensional integer tensor constant";
  const int64_t count = DenseCount(*attr);
  if (count > kMaxListAttribute) {
    return Error(fmt::format("attribute '{}' is too long", name), fmt::format("at most {} values", kMaxListAttribute),
                 fmt::format("{} values", count));
  }
  IntMatrix m;
  if (auto* d = attr->as<Attribute::DenseElements>(); d != nullptr && d->values.type().rank() == 2) {
    auto values = attr->AsI64Vector();
    if (!values) return WrongAttributeKind(name, description, *attr);
    m.rows = d->values.type().dim(0);
    m.cols = d->values.type().dim(1);
    m.values = std::move(*values);
    return std::optional<IntMatrix>(std::move(m));
  }
  if (auto* a = attr->as<Attribute::Array>(); a != nullptr && !a->empty() && a->front().as<Attribute::Array>()) {
    m.rows = static_cast<int64_t>(a->size());
    for (size_t r = 0; r < a->size(); ++r) {
      auto row = (*a)[r].AsI64Vector();
      if (!row || (r > 0 && static_cast<int64_t>(row->size()) != m.cols)) {
        return WrongAttributeKind(name, description, *attr);
      }
      m.cols = static_cast<int64_t>(row->size());
      m.values.insert(m.values.end(), row->begin(), row->end());
    }
    return std::optional<IntMatrix>(std::move(m));
  }
  if (auto* d = attr->as<Attribute::DenseElements>(); d != nullptr && d->values.type().rank() != 1) {
    return WrongAttributeKind(name, description, *attr);
  }
  auto flat = attr->AsI64Vector();
  if (!flat) return WrongAttributeKind(name, description, *attr);
  if (flat->empty()) return std::optional<IntMatrix>(IntMatrix{});
  if (!flat_as_pairs || flat->size() % 2 != 0) return WrongAttributeKind(name, description, *attr);
  m.rows = static_cast<int64_t>(flat->size() / 2);
  m.cols = 2;
  m.values = std::move(*flat);
  return std::optional<IntMatrix>(std::move(m));
}

StatusOr<std::string> OpContext::Enum(std::string_view name, std::string_view kind,
                                      std::span<const std::string_view> allowed,
                                      std::optional<std::string_view> default_value) const {
  std::string choices;
  for (size_t i = 0; i < allowed.size(); ++i) choices += (i ? ", " : "") + std::string(allowed[i]);
  const Attribute* attr = Attr(name);
  std::string value;
  if (attr == nullptr) {
    if (!default_value) return MissingAttribute(name, fmt::format("#stablehlo<{} {}>", kind, choices));
    value = std::string(*default_value);
  } else if (auto* e = attr->as<ir::EnumValue>()) {
    value = e->value;  // the enum's kind is redundant with the attribute's name
  } else if (auto* s = attr->AsString()) {
    value = *s;
  } else {
    return WrongAttributeKind(name, fmt::format("#stablehlo<{} ...>", kind), *attr);
  }
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    return Error(fmt::format("attribute '{}' has an unknown value", name), "one of " + choices, value);
  }
  return value;
}

StatusOr<std::string> OpContext::String(std::string_view name, std::optional<std::string_view> default_value) const {
  const Attribute* attr = Attr(name);
  if (attr == nullptr) {
    if (default_value) return std::string(*default_value);
    return MissingAttribute(name, "a string");
  }
  if (auto* s = attr->AsString()) return *s;
  return WrongAttributeKind(name, "a string", *attr);
}

Status OpContext::CheckPrecisionConfig(std::string_view label) const {
  const Attribute* attr = Attr("precision_config");
  if (attr == nullptr) return OkStatus();
  const auto* list = attr->as<Attribute::Array>();
  if (list == nullptr) return WrongAttributeKind("precision_config", "a list of #stablehlo<precision ...>", *attr);
  for (const Attribute& element : *list) {
    std::optional<std::string> value;
    if (auto* e = element.as<ir::EnumValue>()) value = e->value;
    if (auto* s = element.AsString()) value = *s;
    if (!value || (*value != "DEFAULT" && *value != "HIGH" && *value != "HIGHEST")) {
      return Error(fmt::format("precision_config values must be DEFAULT, HIGH or HIGHEST{}", Label(label)),
                   "one of DEFAULT, HIGH, HIGHEST", Shorten(element.ToString()));
    }
  }
  if (!list->empty() && list->size() != 2) {
    return Error(fmt::format("precision_config must have 2 values{}", Label(label)), "0 or 2 values",
                 fmt::format("{} values", list->size()));
  }
  return OkStatus();
}

Status OpContext::CheckInRange(std::span<const int64_t> values, int64_t low, int64_t high, std::string_view what,
                               std::string_view label) const {
  for (int64_t v : values) {
    if (v < low || v >= high) {
      return Error(fmt::format("{} must be in range{}", what, Label(label)),
                   fmt::format("values in [{}, {})", low, high), Shorten(IntListToString(values)));
    }
  }
  return OkStatus();
}

Status OpContext::CheckUnique(std::span<const int64_t> values, std::string_view what, std::string_view label) const {
  std::vector<int64_t> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return Error(fmt::format("{} must be unique{}", what, Label(label)), "unique values",
                 Shorten(IntListToString(values)));
  }
  return OkStatus();
}

Status OpContext::CheckSorted(std::span<const int64_t> values, std::string_view what, std::string_view label) const {
  if (!std::is_sorted(values.begin(), values.end())) {
    return Error(fmt::format("{} must be sorted{}", what, Label(label)), "values in ascending order",
                 Shorten(IntListToString(values)));
  }
  return OkStatus();
}

Status OpContext::CheckSize(std::span<const int64_t> values, int64_t size, std::string_view what,
                            std::string_view label) const {
  if (static_cast<int64_t>(values.size()) == size) return OkStatus();
  return Error(fmt::format("{} has the wrong size{}", what, Label(label)), fmt::format("{} values", size),
               fmt::format("{} values", values.size()));
}

StatusOr<RegionSignature> OpContext::Region(size_t index, std::string_view what) const {
  if (index >= regions_.size() || regions_[index] == nullptr) {
    return Error(fmt::format("requires region '{}'", what), "a region", "none");
  }
  const ir::Region& region = *regions_[index];
  if (region.blocks().size() != 1) {
    return Error(fmt::format("region '{}' must have one block", what), "1 block",
                 fmt::format("{} blocks", region.blocks().size()));
  }
  const ir::Block& block = region.front();
  const ir::Operation* terminator = block.back();
  if (terminator == nullptr || terminator->code() != ir::OpCode::kReturn) {
    return Error(fmt::format("region '{}' must end with 'stablehlo.return'", what), "stablehlo.return",
                 terminator == nullptr ? std::string("an empty block") : std::string(terminator->name()));
  }
  RegionSignature signature;
  for (const auto& argument : block.arguments()) signature.arguments.push_back(argument->type());
  for (const ir::Value* value : terminator->operands()) {
    if (value == nullptr) {
      return Error(fmt::format("region '{}' returns a missing value", what), "a value", "none");
    }
    signature.results.push_back(value->type());
  }
  return signature;
}

Status OpContext::CheckRegionType(const RegionSignature& signature, std::span<const Type> arguments,
                                  std::span<const Type> results, std::string_view what,
                                  std::string_view label) const {
  const bool same = std::equal(signature.arguments.begin(), signature.arguments.end(), arguments.begin(),
                               arguments.end()) &&
                    std::equal(signature.results.begin(), signature.results.end(), results.begin(), results.end());
  if (same) return OkStatus();
  return Error(fmt::format("{} must have type{}", what, Label(label)), SignatureToString(arguments, results),
               signature.ToString());
}

StatusOr<std::vector<Type>> OpContext::CheckReducerType(const RegionSignature& signature,
                                                        std::span<const Type> inputs, std::string_view what,
                                                        std::string_view label) const {
  const size_t n = inputs.size();
  std::vector<Type> expected_args, expected_results;
  for (int copy = 0; copy < 2; ++copy) {
    for (const Type& input : inputs) expected_args.push_back(ScalarOf(input));
  }
  for (const Type& input : inputs) expected_results.push_back(ScalarOf(input));
  auto fail = [&]() {
    return Error(fmt::format("{} must have type{}", what, Label(label)),
                 SignatureToString(expected_args, expected_results), signature.ToString());
  };
  if (signature.arguments.size() != 2 * n || signature.results.size() != n) return fail();
  std::vector<Type> accumulators;
  for (size_t k = 0; k < n; ++k) {
    const Type& e = signature.arguments[k];
    if (!e.is_tensor() || e.rank() != 0 || signature.arguments[k + n] != e || signature.results[k] != e ||
        !IsPromotable(inputs[k], e)) {
      return fail();
    }
    accumulators.push_back(e);
  }
  return accumulators;
}

}  // namespace vkhlo::verify
