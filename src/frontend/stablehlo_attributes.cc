// The structured StableHLO attributes (#stablehlo.dot<...>, conv, gather, scatter,
// channel_handle, output_operand_alias, result_accuracy, dot_algorithm) and the value sets of
// the #stablehlo<kind VALUE> enums.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {
namespace {

struct EnumKind {
  std::string_view kind;
  std::initializer_list<std::string_view> values;
};

const EnumKind kEnumKinds[] = {
    {"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {"comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {"precision", {"DEFAULT", "HIGH", "HIGHEST"}},
    {"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {"rng_distribution", {"UNIFORM", "NORMAL"}},
    {"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {"transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {"custom_call_api_version",
     {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
      "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
    {"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

using FieldNames = std::initializer_list<std::string_view>;

// The first of `required` that is not in `seen`, as an error at the attribute.
Status RequireFields(Parser& p, const Token& attr, FieldNames required, const std::vector<std::string_view>& seen) {
  for (std::string_view name : required) {
    if (std::find(seen.begin(), seen.end(), name) == seen.end()) {
      return p.ErrorAt(attr, fmt::format("missing field '{}' in {}", name, attr.text));
    }
  }
  return OkStatus();
}

// `name = value, ...` up to '>' (the '<' already consumed). `on_field(name_token)` parses the
// value and returns false in *known for fields it does not know. Each field may appear once;
// the `required` ones (those without a default the printer leaves out) must appear, so that
// what parses is exactly what the printer can write back.
template <typename OnField>
Status ParseFieldsBody(Parser& p, const Token& attr, FieldNames required, OnField&& on_field) {
  std::vector<std::string_view> seen;
  if (p.ConsumeIf(TokenKind::kGreater)) return RequireFields(p, attr, required, seen);
  do {
    if (!p.Is(TokenKind::kBareIdent)) return p.ErrorExpected(fmt::format("field name in {}", attr.text));
    const Token field = p.tok();
    if (std::find(seen.begin(), seen.end(), field.text) != seen.end()) {
      return p.ErrorAt(field, fmt::format("duplicate field '{}' in {}", field.text, attr.text));
    }
    seen.push_back(field.text);
    p.Advance();
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
    bool known = true;
    VKHLO_RETURN_IF_ERROR(on_field(field, &known));
    if (!known) return p.ErrorAt(field, fmt::format("unknown field '{}' in {}", field.text, attr.text));
  } while (p.ConsumeIf(TokenKind::kComma));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kGreater, fmt::format("',' or '>' in {}", attr.text)));
  return RequireFields(p, attr, required, seen);
}

template <typename OnField>
Status ParseFields(Parser& p, const Token& attr, FieldNames required, OnField&& on_field) {
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLess, "'<'"));
  return ParseFieldsBody(p, attr, required, std::forward<OnField>(on_field));
}

// Every field of the raw convolution form: the printer writes them all, and a missing one has
// no default that the pretty form could express.
const FieldNames kConvRawFields = {
    "input_batch_dimension",          "input_feature_dimension",         "input_spatial_dimensions",
    "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
    "output_batch_dimension",         "output_feature_dimension",        "output_spatial_dimensions"};
// A dot algorithm has no defaults (StableHLO's attribute has none either).
const FieldNames kDotAlgorithmFields = {
    "lhs_precision_type",  "rhs_precision_type",       "accumulation_type",           "lhs_component_count",
    "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"};

// Reads an i64 list field into `out` when `field` is `name`.
#define VKHLO_LIST_FIELD(name, out)                        \
  if (field.text == name) {                                \
    VKHLO_ASSIGN_OR_RETURN(out, p.ParseI64List());         \
    return OkStatus();                                     \
  }
#define VKHLO_INT_FIELD(name, out)                         \
  if (field.text == name) {                                \
    VKHLO_ASSIGN_OR_RETURN(out, p.ParseInt64());           \
    return OkStatus();                                     \
  }

// One operand's layout in convolution dimension numbers: `[b, 0, 1, f]`.
struct ConvLayout {
  int64_t first = -1, second = -1;
  std::vector<int64_t> spatial;  // spatial[k] = position of spatial dimension k
};

StatusOr<ConvLayout> ParseConvLayout(Parser& p, char first, char second) {
  const Token open = p.tok();
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLSquare, "'[' in convolution dimensions"));
  ConvLayout layout;
  std::vector<int64_t> spatial_position;  // indexed by spatial number, -1 unset
  int64_t position = 0;
  const std::string expected = fmt::format("'{}', '{}' or a spatial dimension number", first, second);
  if (!p.Is(TokenKind::kRSquare)) {
    do {
      const Token item = p.tok();
      if (item.kind == TokenKind::kBareIdent && item.text.size() == 1 &&
          (item.text[0] == first || item.text[0] == second)) {
        int64_t& slot = item.text[0] == first ? layout.first : layout.second;
        if (slot >= 0) return p.ErrorAt(item, fmt::format("dimension '{}' appears twice", item.text));
        slot = position;
        p.Advance();
      } else if (item.kind == TokenKind::kInteger) {
        VKHLO_ASSIGN_OR_RETURN(int64_t k, p.ParseInt64());
        if (k < 0 || k >= 1024) return p.ErrorAt(item, "spatial dimension number out of range");
        if (static_cast<size_t>(k) >= spatial_position.size()) spatial_position.resize(k + 1, -1);
        if (spatial_position[k] >= 0) {
          return p.ErrorAt(item, fmt::format("spatial dimension {} appears twice", k));
        }
        spatial_position[k] = position;
      } else {
        return p.ErrorExpected(expected);
      }
      ++position;
    } while (p.ConsumeIf(TokenKind::kComma));
  }
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRSquare, "',' or ']' in convolution dimensions"));
  if (layout.first < 0 || layout.second < 0) {
    return p.ErrorAt(open, fmt::format("convolution dimensions need both '{}' and '{}'", first, second));
  }
  for (size_t k = 0; k < spatial_position.size(); ++k) {
    if (spatial_position[k] < 0) return p.ErrorAt(open, fmt::format("spatial dimension {} is missing", k));
  }
  layout.spatial = std::move(spatial_position);
  return layout;
}

}  // namespace

Status ValidateEnumValue(std::string_view dialect, std::string_view kind, std::string_view value,
                         bool* known_kind) {
  *known_kind = false;
  if (dialect != "stablehlo" && dialect != "chlo") return OkStatus();
  for (const EnumKind& e : kEnumKinds) {
    if (e.kind != kind) continue;
    *known_kind = true;
    for (std::string_view v : e.values) {
      if (v == value) return OkStatus();
    }
    std::string choices;
    for (std::string_view v : e.values) choices += fmt::format("{}{}", choices.empty() ? "" : ", ", v);
    return InvalidArgumentError(fmt::format("invalid {} '{}' (expected one of {})", kind, value, choices));
  }
  return OkStatus();
}

StatusOr<ir::ConvDimensionNumbers> Parser::ParseConvDimensions() {
  ir::ConvDimensionNumbers c;
  const Token start = tok_;
  VKHLO_ASSIGN_OR_RETURN(ConvLayout input, ParseConvLayout(*this, 'b', 'f'));
  VKHLO_RETURN_IF_ERROR(ExpectKeyword("x"));
  VKHLO_ASSIGN_OR_RETURN(ConvLayout kernel, ParseConvLayout(*this, 'i', 'o'));
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kArrow, "'->' in convolution dimensions"));
  VKHLO_ASSIGN_OR_RETURN(ConvLayout output, ParseConvLayout(*this, 'b', 'f'));
  if (input.spatial.size() != kernel.spatial.size() || input.spatial.size() != output.spatial.size()) {
    return ErrorAt(start, "input, kernel and output of convolution dimensions have different numbers of "
                          "spatial dimensions");
  }
  c.input_batch_dimension = input.first;
  c.input_feature_dimension = input.second;
  c.input_spatial_dimensions = std::move(input.spatial);
  c.kernel_input_feature_dimension = kernel.first;
  c.kernel_output_feature_dimension = kernel.second;
  c.kernel_spatial_dimensions = std::move(kernel.spatial);
  c.output_batch_dimension = output.first;
  c.output_feature_dimension = output.second;
  c.output_spatial_dimensions = std::move(output.spatial);
  return c;
}

StatusOr<ir::Attribute> Parser::ParseDotAlgorithmBody() {
  ir::DotAlgorithm a;
  Token attr = tok_;  // '<': errors point there and name the attribute
  attr.text = "#stablehlo.dot_algorithm";
  Parser& p = *this;
  bool representable = true;
  const auto element_type = [&](ir::Type& out) -> Status {
    if (IsKeyword("tf32")) {
      // No vkhlo element type; the attribute is kept as text for later stages to reject.
      representable = false;
      Advance();
      return OkStatus();
    }
    VKHLO_ASSIGN_OR_RETURN(ir::ElementType element, ParseElementTypeName());
    out = ir::Type::Scalar(element);
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(ParseFields(*this, attr, kDotAlgorithmFields, [&](const Token& field, bool* known) -> Status {
    if (field.text == "lhs_precision_type") return element_type(a.lhs_precision_type);
    if (field.text == "rhs_precision_type") return element_type(a.rhs_precision_type);
    if (field.text == "accumulation_type") return element_type(a.accumulation_type);
    VKHLO_INT_FIELD("lhs_component_count", a.lhs_component_count)
    VKHLO_INT_FIELD("rhs_component_count", a.rhs_component_count)
    VKHLO_INT_FIELD("num_primitive_operations", a.num_primitive_operations)
    if (field.text == "allow_imprecise_accumulation") {
      VKHLO_ASSIGN_OR_RETURN(a.allow_imprecise_accumulation, p.ParseBool());
      return OkStatus();
    }
    *known = false;
    return OkStatus();
  }));
  if (!representable) {
    return ir::Attribute(ir::OpaqueValue{
        "#stablehlo.dot_algorithm" + std::string(source().substr(attr.offset, prev_end() - attr.offset))});
  }
  return ir::Attribute(std::move(a));
}

StatusOr<ir::Attribute> Parser::ParseStructuredAttribute(const Token& name, bool* handled) {
  *handled = true;
  Parser& p = *this;
  const std::string_view n = name.text;
  if (n == "#stablehlo.dot") {
    ir::DotDimensionNumbers d;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {}, [&](const Token& field, bool* known) -> Status {
      VKHLO_LIST_FIELD("lhs_batching_dimensions", d.lhs_batching_dimensions)
      VKHLO_LIST_FIELD("rhs_batching_dimensions", d.rhs_batching_dimensions)
      VKHLO_LIST_FIELD("lhs_contracting_dimensions", d.lhs_contracting_dimensions)
      VKHLO_LIST_FIELD("rhs_contracting_dimensions", d.rhs_contracting_dimensions)
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(std::move(d));
  }
  if (n == "#stablehlo.gather") {
    ir::GatherDimensionNumbers g;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {}, [&](const Token& field, bool* known) -> Status {
      VKHLO_LIST_FIELD("offset_dims", g.offset_dims)
      VKHLO_LIST_FIELD("collapsed_slice_dims", g.collapsed_slice_dims)
      VKHLO_LIST_FIELD("operand_batching_dims", g.operand_batching_dims)
      VKHLO_LIST_FIELD("start_indices_batching_dims", g.start_indices_batching_dims)
      VKHLO_LIST_FIELD("start_index_map", g.start_index_map)
      VKHLO_INT_FIELD("index_vector_dim", g.index_vector_dim)
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(std::move(g));
  }
  if (n == "#stablehlo.scatter") {
    ir::ScatterDimensionNumbers s;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {}, [&](const Token& field, bool* known) -> Status {
      VKHLO_LIST_FIELD("update_window_dims", s.update_window_dims)
      VKHLO_LIST_FIELD("inserted_window_dims", s.inserted_window_dims)
      VKHLO_LIST_FIELD("input_batching_dims", s.input_batching_dims)
      VKHLO_LIST_FIELD("scatter_indices_batching_dims", s.scatter_indices_batching_dims)
      VKHLO_LIST_FIELD("scatter_dims_to_operand_dims", s.scatter_dims_to_operand_dims)
      VKHLO_INT_FIELD("index_vector_dim", s.index_vector_dim)
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(std::move(s));
  }
  if (n == "#stablehlo.channel_handle") {
    ir::ChannelHandle c;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {"handle", "type"}, [&](const Token& field, bool* known) -> Status {
      VKHLO_INT_FIELD("handle", c.handle)
      VKHLO_INT_FIELD("type", c.type)
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(c);
  }
  if (n == "#stablehlo.output_operand_alias") {
    ir::OutputOperandAlias a;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {"operand_index"}, [&](const Token& field, bool* known) -> Status {
      VKHLO_LIST_FIELD("output_tuple_indices", a.output_tuple_indices)
      VKHLO_INT_FIELD("operand_index", a.operand_index)
      VKHLO_LIST_FIELD("operand_tuple_indices", a.operand_tuple_indices)
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(std::move(a));
  }
  if (n == "#stablehlo.result_accuracy") {
    ir::ResultAccuracy r;
    VKHLO_RETURN_IF_ERROR(ParseFields(*this, name, {"mode"}, [&](const Token& field, bool* known) -> Status {
      if (field.text == "atol" || field.text == "rtol") {
        const Token at = p.tok();
        VKHLO_ASSIGN_OR_RETURN(double v, p.ParseDouble());
        if (std::isnan(v)) return p.ErrorAt(at, fmt::format("{} must be a number, found NaN", field.text));
        (field.text == "atol" ? r.atol : r.rtol) = v;
        return OkStatus();
      }
      VKHLO_INT_FIELD("ulps", r.ulps)
      if (field.text == "mode") {
        const Token at = p.tok();
        VKHLO_ASSIGN_OR_RETURN(ir::Attribute mode, p.ParseAttribute());
        auto value = mode.AsEnum("result_accuracy_mode");
        if (!value) return p.ErrorAt(at, "expected #stablehlo.result_accuracy_mode<...>");
        r.mode = *value;
        return OkStatus();
      }
      *known = false;
      return OkStatus();
    }));
    return ir::Attribute(std::move(r));
  }
  if (n == "#stablehlo.result_accuracy_mode") {
    Advance();  // '<'
    VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, ParseEnumKeyword("result_accuracy_mode"));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>'"));
    return value;
  }
  if (n == "#stablehlo.dot_algorithm") {
    return ParseDotAlgorithmBody();
  }
  if (n == "#stablehlo.conv") {
    Advance();  // '<'
    if (ConsumeKeywordIf("raw")) {
      ir::ConvDimensionNumbers c;
      VKHLO_RETURN_IF_ERROR(ParseFieldsBody(*this, name, kConvRawFields, [&](const Token& field, bool* known) -> Status {
        VKHLO_INT_FIELD("input_batch_dimension", c.input_batch_dimension)
        VKHLO_INT_FIELD("input_feature_dimension", c.input_feature_dimension)
        VKHLO_LIST_FIELD("input_spatial_dimensions", c.input_spatial_dimensions)
        VKHLO_INT_FIELD("kernel_input_feature_dimension", c.kernel_input_feature_dimension)
        VKHLO_INT_FIELD("kernel_output_feature_dimension", c.kernel_output_feature_dimension)
        VKHLO_LIST_FIELD("kernel_spatial_dimensions", c.kernel_spatial_dimensions)
        VKHLO_INT_FIELD("output_batch_dimension", c.output_batch_dimension)
        VKHLO_INT_FIELD("output_feature_dimension", c.output_feature_dimension)
        VKHLO_LIST_FIELD("output_spatial_dimensions", c.output_spatial_dimensions)
        *known = false;
        return OkStatus();
      }));
      return ir::Attribute(std::move(c));
    }
    VKHLO_ASSIGN_OR_RETURN(ir::ConvDimensionNumbers c, ParseConvDimensions());
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' after convolution dimensions"));
    return ir::Attribute(std::move(c));
  }
  if (n == "#stablehlo.bounds" || n == "#stablehlo.type_extensions") {
    return ErrorAt(name, fmt::format("{} (dynamic shape bounds) is not supported", n));
  }
  *handled = false;
  return ir::Attribute();
}

}  // namespace vkhlo::frontend::internal
