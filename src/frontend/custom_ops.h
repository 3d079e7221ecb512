// Building blocks of the pretty (custom) op forms, shared by custom_ops.cc (table-driven forms)
// and custom_ops_special.cc (forms with their own grammar). Which form an op has, and its
// keywords, is a column of ir/op_table.def.
//
// Most pretty forms are `operands (, keyword = value)* attr-dict : types`, e.g.
//   stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2xf32>) -> tensor<3x2xf32>
// and are described by a SimpleForm: which keywords map to which attribute (with the value's
// syntax), and how the type list maps to operands and results.
#pragma once

#include <span>
#include <string_view>

#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {

using ValueKind = ir::KeywordValue;
using KeywordAttr = ir::PrettyKeyword;

struct SimpleForm {
  std::span<const KeywordAttr> keywords;
  TypeForm types = TypeForm::kSameOrFunctional;
};

// Parses `operands (, keyword = value)* attr-dict [: types]` per `form`.
Status ParseSimpleForm(Parser& parser, OpState& state, const SimpleForm& form);
// Parses one keyword's value into state.attributes.
Status ParseKeywordValue(Parser& parser, OpState& state, const KeywordAttr& keyword);
// The op's next region (creating the op on first use).
ir::Region& AddRegion(OpState& state);

// The forms with their own grammar (custom_ops_special.cc).
Status ParseConstantForm(Parser& parser, OpState& state);
Status ParseCompareForm(Parser& parser, OpState& state);
Status ParseSliceForm(Parser& parser, OpState& state);
Status ParseGetTupleElementForm(Parser& parser, OpState& state);
Status ParseDotGeneralForm(Parser& parser, OpState& state);
Status ParseConvolutionForm(Parser& parser, OpState& state);
Status ParseReduceForm(Parser& parser, OpState& state);
Status ParseWhileForm(Parser& parser, OpState& state);
Status ParseIfForm(Parser& parser, OpState& state);
Status ParseCustomCallForm(Parser& parser, OpState& state);
Status ParseCompositeForm(Parser& parser, OpState& state);
Status ParseCallForm(Parser& parser, OpState& state);
Status ParseTopKForm(Parser& parser, OpState& state);
Status ParseScanForm(Parser& parser, OpState& state);
Status ParseCheckConstForm(Parser& parser, OpState& state);

}  // namespace vkhlo::frontend::internal
