// Operations: the result list (`%a`, `%b:2, %c`), the op name (generic "quoted" or custom bare),
// the generic form, `: ...` type signatures, and finishing an op into its block.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/custom_ops.h"
#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {
namespace {

// Custom-form names that MLIR resolves through the enclosing func.func's default dialect.
std::string_view CanonicalOpName(std::string_view name) {
  if (name == "return") return "func.return";
  if (name == "call") return "func.call";
  return name;
}

}  // namespace

ir::Region& AddRegion(OpState& state) {
  if (state.op == nullptr) {
    state.op = ir::Operation::Create(state.code, {}, std::vector<ir::Type>(state.num_results), {}, 0,
                                     state.location);
  }
  return state.op->AddRegion();
}

Status Parser::ParseOperation(ir::Block& block) {
  const Token start = tok_;
  struct ResultGroup {
    Token name;
    uint32_t count;
  };
  std::vector<ResultGroup> groups;
  size_t total = 0;
  if (Is(TokenKind::kPercentId)) {
    do {
      if (!Is(TokenKind::kPercentId)) return ErrorExpected("result name");
      ResultGroup group{tok_, 1};
      Advance();
      if (ConsumeIf(TokenKind::kColon)) {
        const Token count_token = tok_;
        VKHLO_ASSIGN_OR_RETURN(int64_t count, ParseInt64());
        if (count < 1 || count > (1 << 20)) return ErrorAt(count_token, "invalid result count");
        group.count = static_cast<uint32_t>(count);
      }
      total += group.count;
      if (total > (1 << 20)) return ErrorAt(group.name, "too many results");
      groups.push_back(group);
    } while (ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kEqual, "'=' after result names"));
  }

  OpState state;
  state.location = LocationOf(start);
  state.num_results = total;
  state.name_token = tok_;
  if (Is(TokenKind::kString)) {
    VKHLO_ASSIGN_OR_RETURN(std::string name, ParseStringLiteral());
    auto code = ir::LookupOp(name);
    if (!code) return ErrorAt(state.name_token, fmt::format("unknown operation '{}'", name));
    state.code = *code;
    VKHLO_RETURN_IF_ERROR(ParseGenericBody(state));
  } else if (Is(TokenKind::kBareIdent)) {
    const std::string_view name = CanonicalOpName(tok_.text);
    auto code = ir::LookupOp(name);
    if (!code) return ErrorAt(state.name_token, fmt::format("unknown operation '{}'", tok_.text));
    state.code = *code;
    Advance();
    CustomOpParser custom = FindCustomOpParser(state.code);
    VKHLO_RETURN_IF_ERROR(custom != nullptr ? custom(*this, state) : ParseDefaultCustomForm(*this, state));
  } else {
    return ErrorExpected("operation");
  }
  VKHLO_RETURN_IF_ERROR(FinishOperation(state));
  ir::Operation* op = block.Append(std::move(state.op));
  uint32_t first = 0;
  for (const ResultGroup& group : groups) {
    VKHLO_RETURN_IF_ERROR(DefineValues(group.name, op, first, group.count));
    first += group.count;
  }
  return OkStatus();
}

Status Parser::ParseGenericBody(OpState& state) {
  VKHLO_RETURN_IF_ERROR(ParseParenOperandList(state.operands));
  if (Is(TokenKind::kLSquare)) return ErrorAt(tok_, "successor blocks are not supported");
  if (ConsumeIf(TokenKind::kLess)) {
    if (!Is(TokenKind::kLBrace)) return ErrorExpected("'{' of the op's properties");
    VKHLO_RETURN_IF_ERROR(ParseDictionary(state.attributes));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' after the op's properties"));
  }
  if (ConsumeIf(TokenKind::kLParen)) {
    do {
      VKHLO_RETURN_IF_ERROR(ParseRegion(AddRegion(state), {}));
    } while (ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "',' or ')' after the op's regions"));
  }
  VKHLO_RETURN_IF_ERROR(ParseOptionalAttrDict(state.attributes));
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' and the op's function type"));
  TypeSig sig;
  sig.at = tok_;
  sig.functional = true;
  VKHLO_RETURN_IF_ERROR(ParseFunctionType(sig.inputs, sig.results));
  return ResolveTypes(state, sig, TypeForm::kFunctional);
}

Status Parser::ParseColonTypeSig(TypeSig& sig) {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' and the op's types"));
  sig.at = tok_;
  if (Is(TokenKind::kLParen)) {
    sig.functional = true;
    return ParseFunctionType(sig.inputs, sig.results);
  }
  VKHLO_RETURN_IF_ERROR(ParseTypeList(sig.list));
  if (ConsumeIf(TokenKind::kArrow)) {
    // chlo style: `t -> t`.
    sig.functional = true;
    sig.inputs = std::move(sig.list);
    sig.list.clear();
    return ParseFunctionResults(sig.results);
  }
  return OkStatus();
}

Status Parser::CheckOperandTypes(const OpState& state, std::span<const ir::Type> types, const Token& at) {
  if (types.size() != state.operands.size()) {
    return ErrorAt(at, fmt::format("{} operand types given for {} operands", types.size(), state.operands.size()));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const OperandUse& use = state.operands[i];
    if (use.value->type() != types[i]) {
      return ErrorAt(use.token, fmt::format("use of value '{}' expects different type than prior uses: {} vs {}",
                                            use.token.text, types[i].ToString(), use.value->type().ToString()));
    }
  }
  return OkStatus();
}

Status Parser::SetResultTypes(OpState& state, std::vector<ir::Type> types) {
  state.result_types = std::move(types);
  state.has_result_types = true;
  return OkStatus();
}

Status Parser::ResolveTypes(OpState& state, const TypeSig& sig, TypeForm form) {
  if (sig.functional) {
    VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, sig.inputs, sig.at));
    return SetResultTypes(state, sig.results);
  }
  const std::vector<ir::Type>& list = sig.list;
  const size_t n = state.operands.size();
  const auto expect_count = [&](size_t count, std::string_view what) -> Status {
    if (list.size() == count) return OkStatus();
    return ErrorAt(sig.at, fmt::format("expected {} or a function type '(operands) -> results', found {} types", what,
                                       list.size()));
  };
  switch (form) {
    case TypeForm::kFunctional:
      return ErrorAt(sig.at, "expected a function type '(operand types) -> result types'");
    case TypeForm::kSameOrFunctional: {
      VKHLO_RETURN_IF_ERROR(expect_count(1, "one type"));
      std::vector<ir::Type> operands(n, list[0]);
      VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, operands, sig.at));
      return SetResultTypes(state, {list[0]});
    }
    case TypeForm::kResults:
      return SetResultTypes(state, list);
    case TypeForm::kOperands: {
      if (list.size() == 1 && n > 1) {
        std::vector<ir::Type> operands(n, list[0]);
        VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, operands, sig.at));
      } else {
        VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, list, sig.at));
      }
      return SetResultTypes(state, {});
    }
    case TypeForm::kPairwise:
      VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, list, sig.at));
      return SetResultTypes(state, list);
    case TypeForm::kSelect: {
      VKHLO_RETURN_IF_ERROR(expect_count(2, "two types (predicate, result)"));
      const ir::Type operands[] = {list[0], list[1], list[1]};
      VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, operands, sig.at));
      return SetResultTypes(state, {list[1]});
    }
    case TypeForm::kComplex: {
      VKHLO_RETURN_IF_ERROR(expect_count(1, "the complex result type"));
      const ir::Type& result = list[0];
      if (!result.is_tensor() || !ir::IsComplex(result.element_type())) {
        return ErrorAt(sig.at, fmt::format("expected a complex tensor type, found {}", result.ToString()));
      }
      const ir::Type part = result.WithElementType(ir::ComplexPartType(result.element_type()));
      const ir::Type operands[] = {part, part};
      VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, std::span<const ir::Type>(operands, n == 2 ? 2 : 0), sig.at));
      return SetResultTypes(state, {result});
    }
    case TypeForm::kTuple: {
      VKHLO_RETURN_IF_ERROR(expect_count(1, "the tuple type"));
      if (!list[0].is_tuple()) return ErrorAt(sig.at, fmt::format("expected a tuple type, found {}", list[0].ToString()));
      VKHLO_RETURN_IF_ERROR(CheckOperandTypes(state, list[0].tuple_elements(), sig.at));
      return SetResultTypes(state, {list[0]});
    }
  }
  return ErrorAt(sig.at, "unhandled type form");
}

Status Parser::FinishOperation(OpState& state) {
  if (!state.has_result_types) return ErrorAtLocation(state.location, "internal error: op without result types");
  if (state.result_types.size() != state.num_results) {
    return ErrorAtLocation(state.location,
                           fmt::format("operation defines {} results but was provided {} to bind",
                                       state.result_types.size(), state.num_results));
  }
  // One canonical order (MLIR keeps attribute dictionaries sorted), so that the pretty and the
  // generic form of an op give the same IR.
  std::stable_sort(state.attributes.begin(), state.attributes.end(),
                   [](const ir::NamedAttribute& a, const ir::NamedAttribute& b) { return a.first < b.first; });
  for (size_t i = 1; i < state.attributes.size(); ++i) {
    if (state.attributes[i].first == state.attributes[i - 1].first) {
      return ErrorAt(state.name_token, fmt::format("duplicate attribute '{}'", state.attributes[i].first));
    }
  }
  std::vector<ir::Value*> operands;
  operands.reserve(state.operands.size());
  for (const OperandUse& use : state.operands) operands.push_back(use.value);
  if (state.op == nullptr) {
    state.op = ir::Operation::Create(state.code, std::move(operands), state.result_types,
                                     std::move(state.attributes), 0, state.location);
    return OkStatus();
  }
  state.op->set_operands(std::move(operands));
  for (size_t i = 0; i < state.result_types.size(); ++i) state.op->result(i)->set_type(state.result_types[i]);
  for (auto& [name, value] : state.attributes) state.op->SetAttribute(name, std::move(value));
  return OkStatus();
}

}  // namespace vkhlo::frontend::internal
