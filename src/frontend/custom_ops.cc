// Table-driven pretty forms (the keywords of each op are a column of ir/op_table.def), and the
// dispatch from an op's form to its parser.
//
// Attribute names are those of the generic form (what stablehlo-opt prints with
// --mlir-print-op-generic), so that both spellings of an op give the same IR.
#include "frontend/custom_ops.h"

#include <fmt/format.h>

#include <bit>
#include <limits>

namespace vkhlo::frontend::internal {
using K = ValueKind;

Status ParseKeywordValue(Parser& p, OpState& state, const KeywordAttr& keyword) {
  auto& attrs = state.attributes;
  const std::string name(keyword.attribute);
  const Token at = p.tok();
  switch (keyword.value) {
    case K::kI64Array: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> values, p.ParseI64List());
      attrs.emplace_back(name, ir::Attribute::I64Array(values));
      return OkStatus();
    }
    case K::kI64: {
      VKHLO_ASSIGN_OR_RETURN(int64_t value, p.ParseInt64());
      attrs.emplace_back(name, ir::Attribute::Int(value, ir::ElementType::kS64));
      return OkStatus();
    }
    case K::kI32: {
      VKHLO_ASSIGN_OR_RETURN(int64_t value, p.ParseInt64());
      if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
        return p.ErrorAt(at, fmt::format("integer value {} is out of range for i32", value));
      }
      attrs.emplace_back(name, ir::Attribute::Int(value, ir::ElementType::kS32));
      return OkStatus();
    }
    case K::kBool: {
      VKHLO_ASSIGN_OR_RETURN(bool value, p.ParseBool());
      attrs.emplace_back(name, ir::Attribute::Bool(value));
      return OkStatus();
    }
    case K::kF64: {
      VKHLO_ASSIGN_OR_RETURN(double value, p.ParseDouble());
      attrs.emplace_back(name, ir::Attribute(ir::FloatValue{std::bit_cast<uint64_t>(value), ir::ElementType::kF64}));
      return OkStatus();
    }
    case K::kString: {
      VKHLO_ASSIGN_OR_RETURN(std::string value, p.ParseStringLiteral());
      attrs.emplace_back(name, ir::Attribute::String(std::move(value)));
      return OkStatus();
    }
    case K::kEnum: {
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, p.ParseEnumKeyword(keyword.enum_kind));
      attrs.emplace_back(name, std::move(value));
      return OkStatus();
    }
    case K::kPrecisionList: {
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, p.ParsePrecisionList());
      attrs.emplace_back(name, std::move(value));
      return OkStatus();
    }
    case K::kExpMantissa: {
      // e5m2: 5 exponent bits, 2 mantissa bits.
      const std::string_view text = at.text;
      int64_t exponent = 0, mantissa = 0;
      size_t i = 1;
      bool ok = at.kind == TokenKind::kBareIdent && text.size() >= 4 && text[0] == 'e';
      const auto digits = [&](int64_t& out) {
        const size_t begin = i;
        while (i < text.size() && IsDigit(text[i]) && i - begin < 9) out = out * 10 + (text[i++] - '0');
        return i > begin;
      };
      ok = ok && digits(exponent) && i < text.size() && text[i++] == 'm' && digits(mantissa) && i == text.size();
      if (!ok) return p.ErrorExpected("float format like 'e5m2'");
      p.Advance();
      attrs.emplace_back("exponent_bits", ir::Attribute::Int(exponent, ir::ElementType::kS32));
      attrs.emplace_back("mantissa_bits", ir::Attribute::Int(mantissa, ir::ElementType::kS32));
      return OkStatus();
    }
  }
  return p.ErrorAt(at, "unhandled keyword kind");
}

Status ParseSimpleForm(Parser& p, OpState& state, const SimpleForm& form) {
  bool trailing_comma = false;
  VKHLO_RETURN_IF_ERROR(p.ParseOperandList(state.operands, &trailing_comma));
  const bool keyword_next = p.Is(TokenKind::kBareIdent) && p.PeekNext().is(TokenKind::kEqual);
  if (trailing_comma || (state.operands.empty() && keyword_next)) {
    std::vector<std::string_view> seen;
    do {
      if (!p.Is(TokenKind::kBareIdent)) {
        return p.ErrorExpected(p.Is(TokenKind::kPercentId) ? "keyword (operands come first)" : "keyword");
      }
      const Token word = p.tok();
      const KeywordAttr* match = nullptr;
      for (const KeywordAttr& k : form.keywords) {
        if (k.keyword == word.text) match = &k;
      }
      if (match == nullptr) {
        std::string choices;
        for (const KeywordAttr& k : form.keywords) choices += fmt::format("{}'{}'", choices.empty() ? "" : ", ", k.keyword);
        return p.ErrorAt(word, fmt::format("unexpected keyword '{}' in {}{}", word.text, state.name_token.text,
                                           choices.empty() ? "" : " (expected " + choices + ")"));
      }
      for (std::string_view s : seen) {
        if (s == word.text) return p.ErrorAt(word, fmt::format("keyword '{}' given twice", word.text));
      }
      seen.push_back(word.text);
      p.Advance();
      VKHLO_RETURN_IF_ERROR(p.Expect(TokenKind::kEqual, "'='"));
      VKHLO_RETURN_IF_ERROR(ParseKeywordValue(p, state, *match));
    } while (p.ConsumeIf(TokenKind::kComma));
  }
  VKHLO_RETURN_IF_ERROR(p.ParseOptionalAttrDict(state.attributes));
  if (!p.Is(TokenKind::kColon) && state.operands.empty() && state.num_results == 0 &&
      form.types != TypeForm::kResults) {
    return p.SetResultTypes(state, {});
  }
  TypeSig sig;
  VKHLO_RETURN_IF_ERROR(p.ParseColonTypeSig(sig));
  return p.ResolveTypes(state, sig, form.types);
}

Status ParseDefaultCustomForm(Parser& parser, OpState& state) {
  return ParseSimpleForm(parser, state, SimpleForm{{}, TypeForm::kSameOrFunctional});
}

namespace {

Status ParseTableForm(Parser& parser, OpState& state) {
  const ir::PrettyForm& form = ir::GetOpInfo(state.code).pretty;
  return ParseSimpleForm(parser, state, SimpleForm{form.keywords(), form.types});
}

}  // namespace

CustomOpParser FindCustomOpParser(ir::OpCode code) {
  const ir::PrettyForm& form = ir::GetOpInfo(code).pretty;
  switch (form.special) {
    case ir::SpecialForm::kNone: return ParseTableForm;
    case ir::SpecialForm::kConstant: return ParseConstantForm;
    case ir::SpecialForm::kCompare: return ParseCompareForm;
    case ir::SpecialForm::kSlice: return ParseSliceForm;
    case ir::SpecialForm::kGetTupleElement: return ParseGetTupleElementForm;
    case ir::SpecialForm::kDotGeneral: return ParseDotGeneralForm;
    case ir::SpecialForm::kConvolution: return ParseConvolutionForm;
    case ir::SpecialForm::kReduce: return ParseReduceForm;
    case ir::SpecialForm::kWhile: return ParseWhileForm;
    case ir::SpecialForm::kIf: return ParseIfForm;
    case ir::SpecialForm::kCustomCall: return ParseCustomCallForm;
    case ir::SpecialForm::kComposite: return ParseCompositeForm;
    case ir::SpecialForm::kCall: return ParseCallForm;
    case ir::SpecialForm::kTopK: return ParseTopKForm;
    case ir::SpecialForm::kScan: return ParseScanForm;
    case ir::SpecialForm::kCheckConst: return ParseCheckConstForm;
  }
  return ParseTableForm;
}

}  // namespace vkhlo::frontend::internal
