// Pretty forms with their own grammar: constants, compare, slice, get_tuple_element,
// dot_general, convolution, reduce, while, if, custom_call, composite, call, chlo.top_k,
// chlo.scan and the check dialect's *_const ops.
#include <fmt/format.h>

#include <cstring>
#include <limits>

#include "frontend/custom_ops.h"
#include "ir/literal.h"

namespace vkhlo::frontend::internal {
namespace {

StatusOr<ir::Attribute> I64Matrix(Parser& p, const Token& at, const std::vector<int64_t>& values, int64_t rows,
                                  int64_t cols) {
  std::vector<uint8_t> bytes(values.size() * 8);
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  auto literal = ir::Literal::FromBytes(ir::Type::Tensor(ir::ElementType::kS64, {rows, cols}), std::move(bytes));
  if (!literal.ok()) return p.ErrorAt(at, literal.status().message());
  return ir::Attribute::Dense(std::move(literal).value());
}

ir::Attribute I32Array(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  auto literal = ir::Literal::FromBytes(
      ir::Type::Tensor(ir::ElementType::kS32, {static_cast<int64_t>(values.size())}), std::move(bytes));
  return ir::Attribute(ir::Attribute::DenseArray{std::move(literal).value()});
}

// `: types` as a function type (or the `t -> t` form), for the results.
Status ParseFunctionalSig(Parser& p, OpState& state) {
  TypeSig sig;
  VKHLO_RETURN_IF_ERROR(p.ParseColonTypeSig(sig));
  return p.ResolveTypes(state, sig, TypeForm::kFunctional);
}

Status ParseAttrDictAndFunctionalSig(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDict(state.attributes));
  return ParseFunctionalSig(p, state);
}

Status ExpectOperand(Parser& p, OpState& state) {
  VKHLO_ASSIGN_OR_RETURN(OperandUse use, p.ParseOperandUse());
  state.operands.push_back(use);
  return OkStatus();
}

}  // namespace

Status ParseConstantForm(Parser& p, OpState& state) {
  if (p.Is(TokenKind::kLParen)) return p.ParseGenericBody(state);  // `stablehlo.constant() <{...}> : ...`
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDict(state.attributes));
  if (p.Is(TokenKind::kColon)) {
    // `{value = dense<...> : t} : t`
    TypeSig sig;
    VKHLO_RETURN_IF_ERROR(p.ParseColonTypeSig(sig));
    return p.ResolveTypes(state, sig, TypeForm::kResults);
  }
  const Token at = p.tok();
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, p.ParseAttribute());
  const ir::Literal* literal = value.AsDenseElements();
  if (literal == nullptr) return p.ErrorAt(at, "expected a dense<...> : tensor<...> constant value");
  const ir::Type type = literal->type();
  state.attributes.emplace_back("value", std::move(value));
  return p.SetResultTypes(state, {type});
}

Status ParseCompareForm(Parser& p, OpState& state) {
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute direction, p.ParseEnumKeyword("comparison_direction"));
  state.attributes.emplace_back("comparison_direction", std::move(direction));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  if (p.ConsumeIf(TokenKind::kComma)) {
    VKHLO_ASSIGN_OR_RETURN(ir::Attribute type, p.ParseEnumKeyword("comparison_type"));
    state.attributes.emplace_back("compare_type", std::move(type));
  }
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseSliceForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  std::vector<int64_t> starts, limits, strides;
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLSquare, "'[' and the slice ranges"));
  if (!p.ConsumeIf(TokenKind::kRSquare)) {
    do {
      VKHLO_ASSIGN_OR_RETURN(int64_t start, p.ParseInt64());
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kColon, "':' in slice range"));
      VKHLO_ASSIGN_OR_RETURN(int64_t limit, p.ParseInt64());
      int64_t stride = 1;
      if (p.ConsumeIf(TokenKind::kColon)) {
        VKHLO_ASSIGN_OR_RETURN(stride, p.ParseInt64());
      }
      starts.push_back(start);
      limits.push_back(limit);
      strides.push_back(stride);
    } while (p.ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRSquare, "',' or ']' in slice ranges"));
  }
  state.attributes.emplace_back("start_indices", ir::Attribute::I64Array(starts));
  state.attributes.emplace_back("limit_indices", ir::Attribute::I64Array(limits));
  state.attributes.emplace_back("strides", ir::Attribute::I64Array(strides));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseGetTupleElementForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLSquare, "'[' and the element index"));
  const Token at = p.tok();
  VKHLO_ASSIGN_OR_RETURN(int64_t index, p.ParseInt64());
  if (index < 0 || index > std::numeric_limits<int32_t>::max()) return p.ErrorAt(at, "tuple index out of range");
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRSquare, "']'"));
  state.attributes.emplace_back("index", ir::Attribute::Int(index, ir::ElementType::kS32));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseDotGeneralForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  ir::DotDimensionNumbers d;
  const auto dims_pair = [&](std::vector<int64_t>& lhs, std::vector<int64_t>& rhs) -> Status {
    p.Advance();
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
    VKHLO_ASSIGN_OR_RETURN(lhs, p.ParseI64List());
    VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("x"));
    VKHLO_ASSIGN_OR_RETURN(rhs, p.ParseI64List());
    return OkStatus();
  };
  bool batching = false, contracting = false;  // each given at most once
  while (p.ConsumeIf(TokenKind::kComma)) {
    if ((p.IsKeyword("batching_dims") && batching) || (p.IsKeyword("contracting_dims") && contracting)) {
      return p.ErrorAt(p.tok(), fmt::format("'{}' given twice", p.tok().text));
    }
    batching = batching || p.IsKeyword("batching_dims");
    contracting = contracting || p.IsKeyword("contracting_dims");
    if (p.IsKeyword("batching_dims")) {
      VKHLO_RETURN_IF_ERROR(dims_pair(d.lhs_batching_dimensions, d.rhs_batching_dimensions));
    } else if (p.IsKeyword("contracting_dims")) {
      VKHLO_RETURN_IF_ERROR(dims_pair(d.lhs_contracting_dimensions, d.rhs_contracting_dimensions));
    } else if (p.ConsumeKeywordIf("precision")) {
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute precision, p.ParsePrecisionList());
      state.attributes.emplace_back("precision_config", std::move(precision));
    } else if (p.ConsumeKeywordIf("algorithm")) {
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute algorithm, p.ParseDotAlgorithmBody());
      state.attributes.emplace_back("algorithm", std::move(algorithm));
    } else {
      return p.ErrorExpected("'batching_dims', 'contracting_dims', 'precision' or 'algorithm'");
    }
  }
  state.attributes.emplace_back("dot_dimension_numbers", ir::Attribute(std::move(d)));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseConvolutionForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(p.ParseParenOperandList(state.operands));
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("dim_numbers"));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
  VKHLO_ASSIGN_OR_RETURN(ir::ConvDimensionNumbers dims, p.ParseConvDimensions());
  state.attributes.emplace_back("dimension_numbers", ir::Attribute(std::move(dims)));
  if (p.ConsumeIf(TokenKind::kComma)) {
    VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("window"));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLBrace, "'{' and the window attributes"));
    std::vector<std::string_view> seen;
    if (!p.ConsumeIf(TokenKind::kRBrace)) {
      do {
        const Token key = p.tok();
        if (!p.Is(TokenKind::kBareIdent)) return p.ErrorExpected("window attribute name");
        for (std::string_view s : seen) {
          if (s == key.text) return p.ErrorAt(key, fmt::format("window attribute '{}' given twice", key.text));
        }
        seen.push_back(key.text);
        p.Advance();
        VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
        if (key.text == "stride" || key.text == "lhs_dilate" || key.text == "rhs_dilate") {
          VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> values, p.ParseI64List());
          const char* name = key.text == "stride" ? "window_strides" : key.text == "lhs_dilate" ? "lhs_dilation" : "rhs_dilation";
          state.attributes.emplace_back(name, ir::Attribute::I64Array(values));
        } else if (key.text == "pad") {
          // [[low, high], ...] -> dense<...> : tensor<Nx2xi64>
          const Token at = p.tok();
          VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLSquare, "'['"));
          std::vector<int64_t> values;
          if (!p.ConsumeIf(TokenKind::kRSquare)) {
            do {
              VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> pair, p.ParseI64List());
              if (pair.size() != 2) return p.ErrorAt(at, "each padding entry must be [low, high]");
              values.insert(values.end(), pair.begin(), pair.end());
            } while (p.ConsumeIf(TokenKind::kComma));
            VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRSquare, "',' or ']'"));
          }
          VKHLO_ASSIGN_OR_RETURN(ir::Attribute padding,
                                 I64Matrix(p, at, values, static_cast<int64_t>(values.size() / 2), 2));
          state.attributes.emplace_back("padding", std::move(padding));
        } else if (key.text == "reverse") {
          VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLSquare, "'['"));
          std::vector<bool> values;
          if (!p.ConsumeIf(TokenKind::kRSquare)) {
            do {
              if (p.Is(TokenKind::kInteger)) {
                const Token at = p.tok();
                VKHLO_ASSIGN_OR_RETURN(int64_t v, p.ParseInt64());
                if (v != 0 && v != 1) return p.ErrorAt(at, "expected 0 or 1 in window reversal");
                values.push_back(v != 0);
              } else {
                VKHLO_ASSIGN_OR_RETURN(bool v, p.ParseBool());
                values.push_back(v);
              }
            } while (p.ConsumeIf(TokenKind::kComma));
            VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRSquare, "',' or ']'"));
          }
          state.attributes.emplace_back("window_reversal", ir::Attribute::BoolArray(values));
        } else {
          return p.ErrorAt(key, fmt::format("unknown window attribute '{}' (expected stride, pad, lhs_dilate, "
                                            "rhs_dilate or reverse)",
                                            key.text));
        }
      } while (p.ConsumeIf(TokenKind::kComma));
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRBrace, "',' or '}' in window attributes"));
    }
  }
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseReduceForm(Parser& p, OpState& state) {
  std::vector<OperandUse> inputs, inits;
  do {
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLParen, "'(' and an operand with its 'init:' value"));
    VKHLO_ASSIGN_OR_RETURN(OperandUse input, p.ParseOperandUse());
    VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("init"));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kColon, "':'"));
    VKHLO_ASSIGN_OR_RETURN(OperandUse init, p.ParseOperandUse());
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRParen, "')'"));
    inputs.push_back(input);
    inits.push_back(init);
  } while (p.ConsumeIf(TokenKind::kComma));
  state.operands = inputs;
  state.operands.insert(state.operands.end(), inits.begin(), inits.end());

  // Compact form: `applies stablehlo.add`, the body is that one op on the block arguments.
  Token applied;
  std::optional<ir::OpCode> applied_code;
  if (p.ConsumeKeywordIf("applies")) {
    applied = p.tok();
    if (!p.Is(TokenKind::kBareIdent)) return p.ErrorExpected("op name after 'applies'");
    applied_code = ir::LookupOp(applied.text);
    if (!applied_code) return p.ErrorAt(applied, fmt::format("unknown operation '{}'", applied.text));
    p.Advance();
  }
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("across"));
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("dimensions"));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
  VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, p.ParseI64List());
  state.attributes.emplace_back("dimensions", ir::Attribute::I64Array(dims));
  VKHLO_RETURN_IF_ERROR(ParseAttrDictAndFunctionalSig(p, state));

  if (applied_code) {
    ir::Region& region = AddRegion(state);
    ir::Block& block = region.AddBlock();
    std::vector<ir::Value*> args;
    std::vector<ir::Type> scalar_types;
    for (int side = 0; side < 2; ++side) {
      for (const OperandUse& init : inits) {
        const ir::Type& t = init.value->type();
        if (!t.is_tensor()) return p.ErrorAt(init.token, "reduce init values must be tensors");
        const ir::Type scalar = t.WithDims({});
        args.push_back(block.AddArgument(scalar));
        if (side == 0) scalar_types.push_back(scalar);
      }
    }
    ir::Operation* inner =
        block.Append(ir::Operation::Create(*applied_code, args, scalar_types, {}, 0, p.LocationOf(applied)));
    block.Append(ir::Operation::Create(ir::OpCode::kReturn, inner->results(), {}, {}, 0, p.LocationOf(applied)));
    return OkStatus();
  }

  // Region form: `reducer(%a: t, %b: t) (%c: t, %d: t) { ... }`; pair k is (arg k, arg k + N).
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("reducer"));
  std::vector<BlockArgDef> firsts, seconds;
  while (p.ConsumeIf(TokenKind::kLParen)) {
    VKHLO_ASSIGN_OR_RETURN(BlockArgDef a, p.ParseBlockArgDef());
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
    VKHLO_ASSIGN_OR_RETURN(BlockArgDef b, p.ParseBlockArgDef());
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRParen, "')'"));
    firsts.push_back(a);
    seconds.push_back(b);
  }
  firsts.insert(firsts.end(), seconds.begin(), seconds.end());
  return p.ParseRegion(AddRegion(state), firsts);
}

Status ParseWhileForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLParen, "'(' and the loop variables"));
  std::vector<Token> names;
  if (!p.ConsumeIf(TokenKind::kRParen)) {
    do {
      if (!p.Is(TokenKind::kPercentId)) return p.ErrorExpected("loop variable (%name = %init)");
      names.push_back(p.tok());
      p.Advance();
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
      VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
    } while (p.ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRParen, "',' or ')'"));
  }
  std::vector<ir::Type> types;
  if (p.ConsumeIf(TokenKind::kColon)) {
    const Token at = p.tok();
    VKHLO_RETURN_IF_ERROR(p.ParseTypeList(types));
    VKHLO_RETURN_IF_ERROR(p.CheckOperandTypes(state, types, at));
  } else if (!names.empty()) {
    return p.ErrorExpected("':' and the loop variable types");
  }
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDictWithKeyword(state.attributes));
  std::vector<BlockArgDef> args;
  for (size_t i = 0; i < names.size(); ++i) args.push_back({names[i], types[i]});
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("cond"));
  VKHLO_RETURN_IF_ERROR(p.ParseRegion(AddRegion(state), args));
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("do"));
  VKHLO_RETURN_IF_ERROR(p.ParseRegion(AddRegion(state), args));
  return p.SetResultTypes(state, std::move(types));
}

Status ParseIfForm(Parser& p, OpState& state) {
  // `stablehlo.if %pred -> (types) { ... } else { ... }`
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  std::vector<ir::Type> types;
  if (p.ConsumeIf(TokenKind::kArrow)) VKHLO_RETURN_IF_ERROR(p.ParseFunctionResults(types));
  VKHLO_RETURN_IF_ERROR(p.ParseRegion(AddRegion(state), {}));
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("else"));
  VKHLO_RETURN_IF_ERROR(p.ParseRegion(AddRegion(state), {}));
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDict(state.attributes));
  return p.SetResultTypes(state, std::move(types));
}

Status ParseCustomCallForm(Parser& p, OpState& state) {
  std::string target;
  if (p.Is(TokenKind::kString)) {
    VKHLO_ASSIGN_OR_RETURN(target, p.ParseStringLiteral());
  } else {
    VKHLO_ASSIGN_OR_RETURN(target, p.ParseSymbolName());
  }
  state.attributes.emplace_back("call_target_name", ir::Attribute::String(std::move(target)));
  VKHLO_RETURN_IF_ERROR(p.ParseParenOperandList(state.operands));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseCompositeForm(Parser& p, OpState& state) {
  VKHLO_ASSIGN_OR_RETURN(std::string name, p.ParseStringLiteral());
  state.attributes.emplace_back("name", ir::Attribute::String(std::move(name)));
  bool trailing_comma = false;
  VKHLO_RETURN_IF_ERROR(p.ParseOperandList(state.operands, &trailing_comma));
  if (trailing_comma) return p.ErrorExpected("operand");
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseCallForm(Parser& p, OpState& state) {
  VKHLO_ASSIGN_OR_RETURN(std::string callee, p.ParseSymbolName());
  state.attributes.emplace_back("callee", ir::Attribute::Symbol(std::move(callee)));
  VKHLO_RETURN_IF_ERROR(p.ParseParenOperandList(state.operands));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseTopKForm(Parser& p, OpState& state) {
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kLParen, "'('"));
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("k"));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
  VKHLO_ASSIGN_OR_RETURN(int64_t k, p.ParseInt64());
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kRParen, "')'"));
  state.attributes.emplace_back("k", ir::Attribute::Int(k, ir::ElementType::kS64));
  return ParseAttrDictAndFunctionalSig(p, state);
}

Status ParseScanForm(Parser& p, OpState& state) {
  // chlo.scan(%inputs) inits(%inits) dimension=0 [attributes {...}] { body } : (types) -> (types)
  VKHLO_RETURN_IF_ERROR(p.ParseParenOperandList(state.operands));
  const size_t num_inputs = state.operands.size();
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("inits"));
  VKHLO_RETURN_IF_ERROR(p.ParseParenOperandList(state.operands));
  const size_t num_inits = state.operands.size() - num_inputs;
  VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("dimension"));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, p.ParseInt64());
  state.attributes.emplace_back("dimension", ir::Attribute::Int(dimension, ir::ElementType::kS64));
  state.attributes.emplace_back(
      "operandSegmentSizes",
      I32Array({static_cast<int32_t>(num_inputs), static_cast<int32_t>(num_inits)}));
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDictWithKeyword(state.attributes));
  VKHLO_RETURN_IF_ERROR(p.ParseRegion(AddRegion(state), {}));
  return ParseFunctionalSig(p, state);
}

Status ParseCheckConstForm(Parser& p, OpState& state) {
  // check.expect_eq_const %x, dense<...> : tensor<...> [{tolerance = ...}]
  VKHLO_RETURN_IF_ERROR(ExpectOperand(p, state));
  VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kComma, "','"));
  const Token at = p.tok();
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, p.ParseAttribute());
  if (value.AsDenseElements() == nullptr) return p.ErrorAt(at, "expected a dense<...> : tensor<...> value");
  state.attributes.emplace_back("value", std::move(value));
  if (p.ConsumeIf(TokenKind::kComma)) {
    VKHLO_RETURN_IF_ERROR(p.ExpectKeyword("tolerance"));
    VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
    static constexpr KeywordAttr kTolerance{"tolerance", "tolerance", ValueKind::kF64};
    VKHLO_RETURN_IF_ERROR(ParseKeywordValue(p, state, kTolerance));
  }
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDict(state.attributes));
  return p.SetResultTypes(state, {});
}

}  // namespace vkhlo::frontend::internal
