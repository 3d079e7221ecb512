#include "frontend/bytecode/vhlo_attribute_rules.h"

#include <fmt/format.h>

#include <algorithm>

namespace vkhlo::frontend::bytecode {
namespace {

using ir::Attribute;

bool IsBool(const Attribute& a, bool value) { return a.is<bool>() && *a.as<bool>() == value; }
bool IsInt(const Attribute& a, int64_t value) { return a.is<ir::IntegerValue>() && a.AsInt() == value; }
bool IsEmptyArray(const Attribute& a) { return a.is<Attribute::Array>() && a.as<Attribute::Array>()->empty(); }
bool IsEmptyDictionary(const Attribute& a) {
  return a.is<Attribute::Dictionary>() && a.as<Attribute::Dictionary>()->empty();
}
bool IsEmptyString(const Attribute& a) { return a.AsString() != nullptr && a.AsString()->empty(); }
bool IsEmptyTensor(const Attribute& a) { return a.AsDenseElements() != nullptr && a.AsDenseElements()->num_elements() == 0; }
bool IsNone(const Attribute& a) { return a.is<ir::Type>() && !a.as<ir::Type>()->is_valid(); }

// MLIR's "splat equal to": at least one element, all equal to `value` (integers and booleans).
bool IsSplat(const Attribute& a, int64_t value) {
  const ir::Literal* literal = a.AsDenseElements();
  if (literal == nullptr || literal->num_elements() < 1) return false;
  if (!ir::IsInteger(literal->element_type()) && !ir::IsBoolean(literal->element_type())) return false;
  if (literal->is_splat()) return literal->GetInt(0) == value;
  for (int64_t i = 0; i < literal->num_elements(); ++i) {
    if (literal->GetInt(i) != value) return false;
  }
  return true;
}

// An array whose every element is #stablehlo<precision DEFAULT> (the empty array too).
bool AllDefaultPrecision(const Attribute& a) {
  const auto* array = a.as<Attribute::Array>();
  if (array == nullptr) return false;
  return std::all_of(array->begin(), array->end(), [](const Attribute& e) {
    const auto* value = e.as<ir::EnumValue>();
    return value != nullptr && value->kind == "precision" && value->value == "DEFAULT";
  });
}

bool IsDefaultAccuracy(const Attribute& a) {
  const auto* accuracy = a.as<ir::ResultAccuracy>();
  return accuracy != nullptr && accuracy->atol == 0 && accuracy->rtol == 0 && accuracy->ulps == 0 &&
         accuracy->mode == "DEFAULT";
}

class Converter {
 public:
  Converter(const VhloOp& op, const VhloAttributeMap& attributes) : op_(op), attributes_(attributes) {}

  StatusOr<std::vector<ir::NamedAttribute>> Run() {
    VKHLO_RETURN_IF_ERROR(ApplyOpRules());
    for (const auto& [name, value] : attributes_) {
      if (Taken(name)) continue;
      VKHLO_RETURN_IF_ERROR(CheckExpressible(name, *value));
      out_.emplace_back(std::string(name), value->value);
    }
    return std::move(out_);
  }

 private:
  const Attribute* Find(std::string_view name) const {
    for (const auto& [n, value] : attributes_) {
      if (n == name) return &value->value;
    }
    return nullptr;
  }
  const DecodedAttribute* FindDecoded(std::string_view name) const {
    for (const auto& [n, value] : attributes_) {
      if (n == name) return value;
    }
    return nullptr;
  }
  bool Taken(std::string_view name) const { return std::find(taken_.begin(), taken_.end(), name) != taken_.end(); }
  void Take(std::string_view name) { taken_.push_back(name); }
  void Set(std::string name, Attribute value) { out_.emplace_back(std::move(name), std::move(value)); }

  // Drops `name` when present and `is_default` holds for it.
  template <typename Predicate>
  void DropIf(std::string_view name, Predicate&& is_default) {
    const Attribute* a = Find(name);
    if (a != nullptr && is_default(*a)) Take(name);
  }

  Status Malformed(std::string_view name, std::string_view expected) const {
    const Attribute* a = Find(name);
    return InvalidArgumentError(fmt::format("attribute {} of vhlo.{} must be {}, found {}", name, op_.name, expected,
                                            a ? a->ToString() : "nothing"));
  }

  // A dimension list (a tensor of integers); absent is empty (an upgraded older version).
  StatusOr<std::vector<int64_t>> Ints(std::string_view name) {
    Take(name);
    const Attribute* a = Find(name);
    if (a == nullptr) return std::vector<int64_t>{};
    auto values = a->AsDenseElements() != nullptr ? a->AsI64Vector() : std::nullopt;
    if (!values) return Malformed(name, "a tensor of integers");
    return *values;
  }
  StatusOr<int64_t> Int(std::string_view name, int64_t absent = 0) {
    Take(name);
    const Attribute* a = Find(name);
    if (a == nullptr) return absent;
    if (!a->is<ir::IntegerValue>()) return Malformed(name, "an integer");
    return *a->AsInt();
  }

  // `name` as array<i64: ...> (or array<i1: ...>) when present.
  Status DenseArray(std::string_view name, bool booleans = false) {
    const Attribute* a = Find(name);
    if (a == nullptr || Taken(name)) return OkStatus();
    Take(name);
    if (booleans) {
      auto values = a->AsDenseElements() != nullptr ? a->AsBoolVector() : std::nullopt;
      if (!values) return Malformed(name, "a tensor of booleans");
      Set(std::string(name), Attribute::BoolArray(*values));
      return OkStatus();
    }
    auto values = a->AsDenseElements() != nullptr ? a->AsI64Vector() : std::nullopt;
    if (!values) return Malformed(name, "a tensor of integers");
    Set(std::string(name), Attribute::I64Array(*values));
    return OkStatus();
  }

  // A string naming a function, as @name.
  Status Symbol(std::string_view name) {
    const Attribute* a = Find(name);
    if (a == nullptr) return OkStatus();
    Take(name);
    if (a->AsString() == nullptr) return Malformed(name, "a string");
    Set(std::string(name), Attribute::Symbol(*a->AsString()));
    return OkStatus();
  }

  // channel_id (and channel_type, for send/recv) into channel_handle, unless the id is 0.
  Status ChannelHandle(bool with_type) {
    if (with_type) {
      ir::ChannelHandle handle;
      VKHLO_ASSIGN_OR_RETURN(handle.handle, Int("channel_id"));
      VKHLO_ASSIGN_OR_RETURN(handle.type, Int("channel_type"));
      Set("channel_handle", Attribute(handle));
      return OkStatus();
    }
    const Attribute* id = Find("channel_id");
    if (id == nullptr || IsInt(*id, 0)) {
      Take("channel_id");
      return OkStatus();
    }
    VKHLO_ASSIGN_OR_RETURN(int64_t handle, Int("channel_id"));
    Set("channel_handle", Attribute(ir::ChannelHandle{handle, 0}));
    return OkStatus();
  }

  // A boolean that StableHLO writes as a unit attribute when true and leaves out when false.
  Status UnitFlag(std::string_view name) {
    const Attribute* a = Find(name);
    if (a == nullptr) return OkStatus();
    Take(name);
    if (!a->is<bool>()) return Malformed(name, "a boolean");
    if (*a->as<bool>()) Set(std::string(name), Attribute::Unit());
    return OkStatus();
  }

  Status Convolution() {
    ir::ConvDimensionNumbers d;
    VKHLO_ASSIGN_OR_RETURN(d.input_batch_dimension, Int("input_batch_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.input_feature_dimension, Int("input_feature_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.input_spatial_dimensions, Ints("input_spatial_dimensions"));
    VKHLO_ASSIGN_OR_RETURN(d.kernel_input_feature_dimension, Int("kernel_input_feature_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.kernel_output_feature_dimension, Int("kernel_output_feature_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.kernel_spatial_dimensions, Ints("kernel_spatial_dimensions"));
    VKHLO_ASSIGN_OR_RETURN(d.output_batch_dimension, Int("output_batch_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.output_feature_dimension, Int("output_feature_dimension"));
    VKHLO_ASSIGN_OR_RETURN(d.output_spatial_dimensions, Ints("output_spatial_dimensions"));
    Set("dimension_numbers", Attribute(std::move(d)));
    DropIf("window_strides", [](const Attribute& a) { return IsSplat(a, 1); });
    if (op_.stablehlo == "stablehlo.convolution") {
      DropIf("padding", [](const Attribute& a) { return IsSplat(a, 0); });
    } else {
      Take("padding");  // dynamic_conv_v1's static padding: v2 takes it from the operand
    }
    DropIf("lhs_dilation", [](const Attribute& a) { return IsSplat(a, 1); });
    DropIf("rhs_dilation", [](const Attribute& a) { return IsSplat(a, 1); });
    DropIf("window_reversal", [](const Attribute& a) { return IsSplat(a, 0); });
    DropIf("precision_config", AllDefaultPrecision);
    VKHLO_RETURN_IF_ERROR(DenseArray("window_strides"));
    VKHLO_RETURN_IF_ERROR(DenseArray("lhs_dilation"));
    VKHLO_RETURN_IF_ERROR(DenseArray("rhs_dilation"));
    return DenseArray("window_reversal", /*booleans=*/true);
  }

  // A dot algorithm's precision type: an element type (tf32 has none in vkhlo).
  StatusOr<std::string> PrecisionTypeSpelling(std::string_view name, ir::Type* type) {
    Take(name);
    const DecodedAttribute* a = FindDecoded(name);
    if (a == nullptr || a->type == nullptr) return Malformed(name, "a type");
    if (a->type->kind == DecodedType::Kind::kElement) *type = ir::Type::Scalar(a->type->element);
    return a->type->spelling;
  }

  Status DotGeneral() {
    ir::DotDimensionNumbers d;
    VKHLO_ASSIGN_OR_RETURN(d.lhs_batching_dimensions, Ints("lhs_batching_dimensions"));
    VKHLO_ASSIGN_OR_RETURN(d.rhs_batching_dimensions, Ints("rhs_batching_dimensions"));
    VKHLO_ASSIGN_OR_RETURN(d.lhs_contracting_dimensions, Ints("lhs_contracting_dimensions"));
    VKHLO_ASSIGN_OR_RETURN(d.rhs_contracting_dimensions, Ints("rhs_contracting_dimensions"));
    Set("dot_dimension_numbers", Attribute(std::move(d)));
    DropIf("precision_config", AllDefaultPrecision);
    static constexpr std::string_view kAlgorithm[] = {"lhs_precision_type", "rhs_precision_type", "accumulation_type",
                                                      "lhs_component_count", "rhs_component_count",
                                                      "num_primitive_operations", "allow_imprecise_accumulation"};
    const Attribute* lhs_count = Find("lhs_component_count");
    if (lhs_count == nullptr || IsNone(*lhs_count)) {  // no algorithm: all of its parts none
      for (std::string_view name : kAlgorithm) {
        const Attribute* a = Find(name);
        if (a != nullptr && !IsNone(*a)) return Malformed(name, "none like the algorithm's other parts");
        Take(name);
      }
      return OkStatus();
    }
    ir::DotAlgorithm algorithm;
    VKHLO_ASSIGN_OR_RETURN(std::string lhs, PrecisionTypeSpelling("lhs_precision_type", &algorithm.lhs_precision_type));
    VKHLO_ASSIGN_OR_RETURN(std::string rhs, PrecisionTypeSpelling("rhs_precision_type", &algorithm.rhs_precision_type));
    VKHLO_ASSIGN_OR_RETURN(std::string accumulation,
                           PrecisionTypeSpelling("accumulation_type", &algorithm.accumulation_type));
    VKHLO_ASSIGN_OR_RETURN(algorithm.lhs_component_count, Int("lhs_component_count"));
    VKHLO_ASSIGN_OR_RETURN(algorithm.rhs_component_count, Int("rhs_component_count"));
    VKHLO_ASSIGN_OR_RETURN(algorithm.num_primitive_operations, Int("num_primitive_operations"));
    Take("allow_imprecise_accumulation");
    const Attribute* imprecise = Find("allow_imprecise_accumulation");
    if (imprecise == nullptr || !imprecise->is<bool>()) return Malformed("allow_imprecise_accumulation", "a boolean");
    algorithm.allow_imprecise_accumulation = *imprecise->as<bool>();
    if (algorithm.lhs_precision_type.is_valid() && algorithm.rhs_precision_type.is_valid() &&
        algorithm.accumulation_type.is_valid()) {
      Set("algorithm", Attribute(std::move(algorithm)));
      return OkStatus();
    }
    // A precision type vkhlo has no element type for (tf32): kept as text, as the parser does.
    Set("algorithm", Attribute(ir::OpaqueValue{fmt::format(
                         "#stablehlo.dot_algorithm<lhs_precision_type = {}, rhs_precision_type = {}, accumulation_type = "
                         "{}, lhs_component_count = {}, rhs_component_count = {}, num_primitive_operations = {}, "
                         "allow_imprecise_accumulation = {}>",
                         lhs, rhs, accumulation, algorithm.lhs_component_count, algorithm.rhs_component_count,
                         algorithm.num_primitive_operations, algorithm.allow_imprecise_accumulation)}));
    return OkStatus();
  }

  Status Gather() {
    ir::GatherDimensionNumbers g;
    VKHLO_ASSIGN_OR_RETURN(g.offset_dims, Ints("offset_dims"));
    VKHLO_ASSIGN_OR_RETURN(g.collapsed_slice_dims, Ints("collapsed_slice_dims"));
    VKHLO_ASSIGN_OR_RETURN(g.operand_batching_dims, Ints("operand_batching_dims"));
    VKHLO_ASSIGN_OR_RETURN(g.start_indices_batching_dims, Ints("start_indices_batching_dims"));
    VKHLO_ASSIGN_OR_RETURN(g.start_index_map, Ints("start_index_map"));
    VKHLO_ASSIGN_OR_RETURN(g.index_vector_dim, Int("index_vector_dim"));
    Set("dimension_numbers", Attribute(std::move(g)));
    DropIf("indices_are_sorted", [](const Attribute& a) { return IsBool(a, false); });
    return DenseArray("slice_sizes");
  }

  Status Scatter() {
    ir::ScatterDimensionNumbers s;
    VKHLO_ASSIGN_OR_RETURN(s.update_window_dims, Ints("update_window_dims"));
    VKHLO_ASSIGN_OR_RETURN(s.inserted_window_dims, Ints("inserted_window_dims"));
    VKHLO_ASSIGN_OR_RETURN(s.input_batching_dims, Ints("input_batching_dims"));
    VKHLO_ASSIGN_OR_RETURN(s.scatter_indices_batching_dims, Ints("scatter_indices_batching_dims"));
    VKHLO_ASSIGN_OR_RETURN(s.scatter_dims_to_operand_dims, Ints("scatter_dims_to_operand_dims"));
    VKHLO_ASSIGN_OR_RETURN(s.index_vector_dim, Int("index_vector_dim"));
    Set("scatter_dimension_numbers", Attribute(std::move(s)));
    DropIf("indices_are_sorted", [](const Attribute& a) { return IsBool(a, false); });
    DropIf("unique_indices", [](const Attribute& a) { return IsBool(a, false); });
    return OkStatus();
  }

  Status CustomCall() {
    DropIf("has_side_effect", [](const Attribute& a) { return IsBool(a, false); });
    DropIf("backend_config", [](const Attribute& a) { return IsEmptyString(a) || IsEmptyDictionary(a); });
    DropIf("api_version", [](const Attribute& a) { return IsInt(a, 1); });  // API_VERSION_ORIGINAL
    DropIf("called_computations", IsEmptyArray);
    const Attribute* operand_layouts = Find("operand_layouts");
    const Attribute* result_layouts = Find("result_layouts");
    if ((operand_layouts == nullptr || IsEmptyArray(*operand_layouts)) &&
        (result_layouts == nullptr || IsEmptyArray(*result_layouts))) {
      Take("operand_layouts");
      Take("result_layouts");
    }
    DropIf("output_operand_aliases", IsEmptyArray);
    DropIf("result_tilings", IsEmptyArray);
    const Attribute* called = Find("called_computations");
    if (called != nullptr && !Taken("called_computations")) {
      Take("called_computations");
      const auto* names = called->as<Attribute::Array>();
      if (names == nullptr) return Malformed("called_computations", "an array of strings");
      Attribute::Array symbols;
      for (const Attribute& name : *names) {
        if (name.AsString() == nullptr) return Malformed("called_computations", "an array of strings");
        symbols.push_back(Attribute::Symbol(*name.AsString()));
      }
      Set("called_computations", Attribute(std::move(symbols)));
    }
    return OkStatus();
  }

  Status Collective(std::string_view base) {
    const bool global_ids = base == "all_gather" || base == "all_reduce" || base == "reduce_scatter" ||
                            base == "collective_reduce";
    VKHLO_RETURN_IF_ERROR(ChannelHandle(/*with_type=*/false));
    if (global_ids) VKHLO_RETURN_IF_ERROR(UnitFlag("use_global_device_ids"));
    return UnitFlag("has_dynamic_root");
  }

  Status ApplyOpRules() {
    std::string_view base = op_.stablehlo;
    base.remove_prefix(base.find('.') + 1);
    const auto splat = [](int64_t value) { return [value](const Attribute& a) { return IsSplat(a, value); }; };
    if (base == "convolution" || base == "dynamic_conv") return Convolution();
    if (base == "dot_general") return DotGeneral();
    if (base == "gather" || base == "dynamic_gather") return Gather();
    if (base == "scatter") return Scatter();
    if (base == "custom_call") return CustomCall();
    if (base == "all_gather" || base == "all_reduce" || base == "reduce_scatter" || base == "all_to_all" ||
        base == "collective_permute" || base == "collective_broadcast" || base == "collective_reduce") {
      return Collective(base);
    }
    if (base == "send" || base == "recv") {
      VKHLO_RETURN_IF_ERROR(ChannelHandle(/*with_type=*/true));
      DropIf("is_host_transfer", [](const Attribute& a) { return IsBool(a, false); });
      DropIf("source_target_pairs", IsEmptyTensor);
      return OkStatus();
    }
    if (base == "call") return Symbol("callee");
    if (base == "composite") {
      DropIf("version", [](const Attribute& a) { return IsInt(a, 0); });
      DropIf("composite_attributes", IsEmptyDictionary);
      return Symbol("decomposition");
    }
    if (base == "cholesky") DropIf("lower", [](const Attribute& a) { return IsBool(a, false); });
    if (base == "compare") {
      DropIf("compare_type", [](const Attribute& a) {
        const auto* e = a.as<ir::EnumValue>();
        return e != nullptr && e->value == "NOTYPE";
      });
    }
    if (base == "dot") DropIf("precision_config", AllDefaultPrecision);
    if (base == "dynamic_broadcast_in_dim") {
      DropIf("known_expanding_dimensions", IsEmptyTensor);
      DropIf("known_nonexpanding_dimensions", IsEmptyTensor);
      VKHLO_RETURN_IF_ERROR(DenseArray("known_expanding_dimensions"));
      VKHLO_RETURN_IF_ERROR(DenseArray("known_nonexpanding_dimensions"));
    }
    // infeed_config and outfeed_config stay: MLIR drops the empty strings, then fills them back
    // in as StableHLO's default values, and prints them.
    if (base == "infeed") DropIf("layout", IsEmptyArray);
    if (base == "reduce_window") {
      DropIf("window_strides", splat(1));
      DropIf("base_dilations", splat(1));
      DropIf("window_dilations", splat(1));
      DropIf("padding", splat(0));
      for (std::string_view name : {"window_dimensions", "window_strides", "base_dilations", "window_dilations"}) {
        VKHLO_RETURN_IF_ERROR(DenseArray(name));
      }
    }
    if (base == "select_and_scatter") {
      DropIf("window_strides", splat(1));
      DropIf("padding", splat(0));
      VKHLO_RETURN_IF_ERROR(DenseArray("window_dimensions"));
      VKHLO_RETURN_IF_ERROR(DenseArray("window_strides"));
    }
    if (base == "sort") {
      DropIf("dimension", [](const Attribute& a) { return IsInt(a, -1); });
      DropIf("is_stable", [](const Attribute& a) { return IsBool(a, false); });
    }
    DropIf("result_accuracy", IsDefaultAccuracy);
    // Dimension lists that StableHLO keeps as dense arrays.
    static constexpr std::pair<std::string_view, std::string_view> kDenseArrays[] = {
        {"fft", "fft_length"},         {"broadcast", "broadcast_sizes"},   {"dynamic_slice", "slice_sizes"},
        {"reverse", "dimensions"},     {"transpose", "permutation"},       {"pad", "edge_padding_low"},
        {"pad", "edge_padding_high"},  {"pad", "interior_padding"},        {"slice", "start_indices"},
        {"slice", "limit_indices"},    {"slice", "strides"},               {"broadcast_in_dim", "broadcast_dimensions"},
        {"dynamic_broadcast_in_dim", "broadcast_dimensions"},              {"map", "dimensions"},
        {"reduce", "dimensions"},
    };
    for (const auto& [op, name] : kDenseArrays) {
      if (op == base) VKHLO_RETURN_IF_ERROR(DenseArray(name));
    }
    return OkStatus();
  }

  const VhloOp& op_;
  const VhloAttributeMap& attributes_;
  std::vector<ir::NamedAttribute> out_;
  std::vector<std::string_view> taken_;
};

}  // namespace

StatusOr<std::vector<ir::NamedAttribute>> ConvertVhloAttributes(const VhloOp& op, const VhloAttributeMap& attributes) {
  return Converter(op, attributes).Run();
}

}  // namespace vkhlo::frontend::bytecode
