#include "ir/attribute.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

namespace vkhlo::ir {
namespace {

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (std::isprint(c)) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\{:02X}", c);
    }
  }
  return out + "\"";
}

bool IsBareIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.')) return false;
  }
  return true;
}

std::string I64List(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", v[i]);
  return s + "]";
}

int64_t SignExtend(uint64_t bits, ElementType type) {
  int width = BitWidth(type);
  if (width >= 64 || !IsSignedInteger(type)) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (width - 1);
  bits &= (sign << 1) - 1;
  return static_cast<int64_t>((bits ^ sign) - sign);
}

// `[b, 0, 1, f]` for one of the three conv operands.
std::optional<std::string> ConvLayout(size_t rank, int64_t first, char first_name, int64_t second,
                                      char second_name, const std::vector<int64_t>& spatial) {
  if (spatial.size() + 2 != rank) return std::nullopt;
  std::vector<std::string> parts(rank);
  auto place = [&](int64_t dim, std::string name) {
    if (dim < 0 || dim >= static_cast<int64_t>(rank) || !parts[dim].empty()) return false;
    parts[dim] = std::move(name);
    return true;
  };
  if (!place(first, std::string(1, first_name)) || !place(second, std::string(1, second_name))) return std::nullopt;
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (!place(spatial[i], std::to_string(i))) return std::nullopt;
  }
  std::string s = "[";
  for (size_t i = 0; i < rank; ++i) s += (i ? ", " : "") + parts[i];
  return s + "]";
}

struct Printer {
  std::string operator()(const UnitValue&) const { return "unit"; }
  std::string operator()(bool b) const { return b ? "true" : "false"; }
  std::string operator()(const IntegerValue& v) const {
    if (v.type == ElementType::kI1) return v.bits ? "true" : "false";
    return FormatScalar(v.type, v.bits) + " : " + std::string(ElementTypeName(v.type));
  }
  std::string operator()(const FloatValue& v) const {
    return FormatScalar(v.type, v.bits) + " : " + std::string(ElementTypeName(v.type));
  }
  std::string operator()(const std::string& s) const { return Quote(s); }
  std::string operator()(const SymbolRef& s) const {
    return "@" + (IsBareIdentifier(s.name) ? s.name : Quote(s.name));
  }
  std::string operator()(const Type& t) const { return t.ToString(); }
  std::string operator()(const Attribute::Array& a) const {
    std::string s = "[";
    for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i].ToString();
    return s + "]";
  }
  std::string operator()(const Attribute::DenseArray& d) const {
    const Literal& l = d.values;
    std::string s = fmt::format("array<{}", ElementTypeName(l.element_type()));
    for (int64_t i = 0; i < l.num_elements(); ++i) {
      s += i ? ", " : ": ";
      s += FormatScalar(l.element_type(), l.GetBits(i));
    }
    return s + ">";
  }
  std::string operator()(const Attribute::DenseElements& d) const {
    return "dense<" + d.values.ToString() + "> : " + d.values.type().ToString();
  }
  std::string operator()(const Attribute::Dictionary& d) const { return DictionaryToString(d); }
  std::string operator()(const EnumValue& e) const {
    return fmt::format("#{}<{} {}>", e.dialect, e.kind, e.value);
  }
  std::string operator()(const DotDimensionNumbers& d) const {
    std::vector<std::string> fields;
    auto add = [&](const char* name, const std::vector<int64_t>& v) {
      if (!v.empty()) fields.push_back(fmt::format("{} = {}", name, I64List(v)));
    };
    add("lhs_batching_dimensions", d.lhs_batching_dimensions);
    add("rhs_batching_dimensions", d.rhs_batching_dimensions);
    add("lhs_contracting_dimensions", d.lhs_contracting_dimensions);
    add("rhs_contracting_dimensions", d.rhs_contracting_dimensions);
    return fmt::format("#stablehlo.dot<{}>", fmt::join(fields, ", "));
  }
  std::string operator()(const ConvDimensionNumbers& c) const {
    const size_t rank = c.input_spatial_dimensions.size() + 2;
    auto in = ConvLayout(rank, c.input_batch_dimension, 'b', c.input_feature_dimension, 'f', c.input_spatial_dimensions);
    auto kernel = ConvLayout(c.kernel_spatial_dimensions.size() + 2, c.kernel_input_feature_dimension, 'i',
                             c.kernel_output_feature_dimension, 'o', c.kernel_spatial_dimensions);
    auto out = ConvLayout(c.output_spatial_dimensions.size() + 2, c.output_batch_dimension, 'b',
                          c.output_feature_dimension, 'f', c.output_spatial_dimensions);
    // The pretty form needs one number of spatial dimensions for all three operands.
    const bool same_spatial = c.kernel_spatial_dimensions.size() == c.input_spatial_dimensions.size() &&
                              c.output_spatial_dimensions.size() == c.input_spatial_dimensions.size();
    if (in && kernel && out && same_spatial) return fmt::format("#stablehlo.conv<{}x{}->{}>", *in, *kernel, *out);
    // Inconsistent numbers (the verifier reports them) still print, in the raw form.
    return fmt::format(
        "#stablehlo.conv<raw input_batch_dimension = {}, input_feature_dimension = {}, "
        "input_spatial_dimensions = {}, kernel_input_feature_dimension = {}, "
        "kernel_output_feature_dimension = {}, kernel_spatial_dimensions = {}, "
        "output_batch_dimension = {}, output_feature_dimension = {}, output_spatial_dimensions = {}>",
        c.input_batch_dimension, c.input_feature_dimension, I64List(c.input_spatial_dimensions),
        c.kernel_input_feature_dimension, c.kernel_output_feature_dimension,
        I64List(c.kernel_spatial_dimensions), c.output_batch_dimension, c.output_feature_dimension,
        I64List(c.output_spatial_dimensions));
  }
  std::string operator()(const GatherDimensionNumbers& g) const {
    std::vector<std::string> fields;
    auto add = [&](const char* name, const std::vector<int64_t>& v) {
      if (!v.empty()) fields.push_back(fmt::format("{} = {}", name, I64List(v)));
    };
    add("offset_dims", g.offset_dims);
    add("collapsed_slice_dims", g.collapsed_slice_dims);
    add("operand_batching_dims", g.operand_batching_dims);
    add("start_indices_batching_dims", g.start_indices_batching_dims);
    add("start_index_map", g.start_index_map);
    fields.push_back(fmt::format("index_vector_dim = {}", g.index_vector_dim));
    return fmt::format("#stablehlo.gather<{}>", fmt::join(fields, ", "));
  }
  std::string operator()(const ScatterDimensionNumbers& g) const {
    std::vector<std::string> fields;
    auto add = [&](const char* name, const std::vector<int64_t>& v) {
      if (!v.empty()) fields.push_back(fmt::format("{} = {}", name, I64List(v)));
    };
    add("update_window_dims", g.update_window_dims);
    add("inserted_window_dims", g.inserted_window_dims);
    add("input_batching_dims", g.input_batching_dims);
    add("scatter_indices_batching_dims", g.scatter_indices_batching_dims);
    add("scatter_dims_to_operand_dims", g.scatter_dims_to_operand_dims);
    fields.push_back(fmt::format("index_vector_dim = {}", g.index_vector_dim));
    return fmt::format("#stablehlo.scatter<{}>", fmt::join(fields, ", "));
  }
  std::string operator()(const ChannelHandle& c) const {
    return fmt::format("#stablehlo.channel_handle<handle = {}, type = {}>", c.handle, c.type);
  }
  std::string operator()(const OutputOperandAlias& a) const {
    return fmt::format("#stablehlo.output_operand_alias<output_tuple_indices = {}, operand_index = {}, "
                       "operand_tuple_indices = {}>",
                       I64List(a.output_tuple_indices), a.operand_index, I64List(a.operand_tuple_indices));
  }
  std::string operator()(const ResultAccuracy& r) const {
    uint64_t atol, rtol;
    std::memcpy(&atol, &r.atol, 8);
    std::memcpy(&rtol, &r.rtol, 8);
    return fmt::format("#stablehlo.result_accuracy<atol = {}, rtol = {}, ulps = {}, mode = "
                       "#stablehlo.result_accuracy_mode<{}>>",
                       FormatScalar(ElementType::kF64, atol), FormatScalar(ElementType::kF64, rtol), r.ulps, r.mode);
  }
  std::string operator()(const DotAlgorithm& a) const {
    auto elem = [](const Type& t) {
      return t.is_tensor() ? std::string(ElementTypeName(t.element_type())) : t.ToString();
    };
    return fmt::format("#stablehlo.dot_algorithm<lhs_precision_type = {}, rhs_precision_type = {}, "
                       "accumulation_type = {}, lhs_component_count = {}, rhs_component_count = {}, "
                       "num_primitive_operations = {}, allow_imprecise_accumulation = {}>",
                       elem(a.lhs_precision_type), elem(a.rhs_precision_type), elem(a.accumulation_type),
                       a.lhs_component_count, a.rhs_component_count, a.num_primitive_operations,
                       a.allow_imprecise_accumulation);
  }
  std::string operator()(const OpaqueValue& o) const { return o.text; }
};

}  // namespace

Attribute::Attribute() : storage_(std::make_shared<const Storage>(UnitValue{})) {}

Attribute Attribute::Int(int64_t value, ElementType type) {
  int width = BitWidth(type);
  uint64_t bits = static_cast<uint64_t>(value);
  if (width < 64) bits &= (uint64_t{1} << width) - 1;
  return Attribute(IntegerValue{bits, type});
}

Attribute Attribute::Float(double value, ElementType type) {
  return Attribute(FloatValue{EncodeFloat(type, value), type});
}

Attribute Attribute::I64Array(const std::vector<int64_t>& values) {
  auto literal = Literal::Create(Type::Tensor(ElementType::kS64, {static_cast<int64_t>(values.size())}));
  Literal l = std::move(literal).value();
  for (size_t i = 0; i < values.size(); ++i) l.SetInt(static_cast<int64_t>(i), values[i]);
  return Attribute(DenseArray{std::move(l)});
}

Attribute Attribute::BoolArray(const std::vector<bool>& values) {
  auto literal = Literal::Create(Type::Tensor(ElementType::kI1, {static_cast<int64_t>(values.size())}));
  Literal l = std::move(literal).value();
  for (size_t i = 0; i < values.size(); ++i) l.SetInt(static_cast<int64_t>(i), values[i] ? 1 : 0);
  return Attribute(DenseArray{std::move(l)});
}

std::optional<int64_t> Attribute::AsInt() const {
  if (auto* v = as<IntegerValue>()) {
    if (v->type == ElementType::kI1) return v->bits ? 1 : 0;
    return SignExtend(v->bits, v->type);
  }
  if (auto* b = as<bool>()) return *b ? 1 : 0;
  return std::nullopt;
}

std::optional<double> Attribute::AsFloat() const {
  if (auto* v = as<FloatValue>()) return DecodeFloat(v->type, v->bits);
  if (auto i = AsInt()) return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<bool> Attribute::AsBool() const {
  if (auto* b = as<bool>()) return *b;
  if (auto* v = as<IntegerValue>(); v && v->type == ElementType::kI1) return v->bits != 0;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Attribute::AsI64Vector() const {
  const Literal* literal = nullptr;
  if (auto* d = as<DenseArray>()) literal = &d->values;
  if (auto* d = as<DenseElements>()) literal = &d->values;
  if (literal != nullptr) {
    if (!IsInteger(literal->element_type()) && !IsBoolean(literal->element_type())) return std::nullopt;
    std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(literal->num_elements(), 0)));
    for (size_t i = 0; i < out.size(); ++i) out[i] = literal->GetInt(static_cast<int64_t>(i));
    return out;
  }
  if (auto* a = as<Array>()) {
    std::vector<int64_t> out;
    for (const Attribute& e : *a) {
      auto v = e.AsInt();
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    return out;
  }
  return std::nullopt;
}

std::optional<std::vector<bool>> Attribute::AsBoolVector() const {
  auto ints = AsI64Vector();
  if (!ints) return std::nullopt;
  std::vector<bool> out;
  for (int64_t v : *ints) out.push_back(v != 0);
  return out;
}

const Literal* Attribute::AsDenseElements() const {
  if (auto* d = as<DenseElements>()) return &d->values;
  return nullptr;
}

std::optional<std::string> Attribute::AsEnum(std::string_view kind) const {
  if (auto* e = as<EnumValue>()) {
    if (e->kind == kind) return e->value;
    return std::nullopt;
  }
  if (auto* s = as<std::string>()) return *s;
  return std::nullopt;
}

std::string Attribute::ToString() const { return std::visit(Printer{}, *storage_); }

bool Attribute::operator==(const Attribute& other) const {
  return storage_ == other.storage_ || *storage_ == *other.storage_;
}

const Attribute* FindAttribute(const std::vector<NamedAttribute>& attributes, std::string_view name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string DictionaryToString(const std::vector<NamedAttribute>& attributes) {
  std::string s = "{";
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (i) s += ", ";
    const auto& [name, value] = attributes[i];
    s += IsBareIdentifier(name) ? name : Quote(name);
    if (!value.is_unit()) s += " = " + value.ToString();
  }
  return s + "}";
}

}  // namespace vkhlo::ir
