// Table-driven pretty forms, and the dispatch from op code to pretty-form parser.
//
// Attribute names are those of the generic form (what stablehlo-opt prints with
// --mlir-print-op-generic), so that both spellings of an op give the same IR.
#include "frontend/custom_ops.h"

#include <fmt/format.h>

#include <bit>
#include <limits>

namespace vkhlo::frontend::internal {
namespace {

using K = ValueKind;
using ir::OpCode;

constexpr KeywordAttr kBroadcastInDim[] = {{"dims", "broadcast_dimensions", K::kI64Array}};
constexpr KeywordAttr kBroadcast[] = {{"sizes", "broadcast_sizes", K::kI64Array}};
constexpr KeywordAttr kDynamicBroadcastInDim[] = {
    {"dims", "broadcast_dimensions", K::kI64Array},
    {"known_expanding_dimensions", "known_expanding_dimensions", K::kI64Array},
    {"known_nonexpanding_dimensions", "known_nonexpanding_dimensions", K::kI64Array}};
constexpr KeywordAttr kTranspose[] = {{"dims", "permutation", K::kI64Array}};
constexpr KeywordAttr kReverse[] = {{"dims", "dimensions", K::kI64Array}};
constexpr KeywordAttr kIota[] = {{"dim", "iota_dimension", K::kI64}};
constexpr KeywordAttr kConcatenate[] = {{"dim", "dimension", K::kI64}};
constexpr KeywordAttr kPad[] = {{"low", "edge_padding_low", K::kI64Array},
                                {"high", "edge_padding_high", K::kI64Array},
                                {"interior", "interior_padding", K::kI64Array}};
constexpr KeywordAttr kDynamicSlice[] = {{"sizes", "slice_sizes", K::kI64Array}};
constexpr KeywordAttr kGetDimensionSize[] = {{"dim", "dimension", K::kI64}};
constexpr KeywordAttr kFft[] = {{"type", "fft_type", K::kEnum, "fft_type"},
                                {"length", "fft_length", K::kI64Array}};
constexpr KeywordAttr kRngBitGenerator[] = {{"algorithm", "rng_algorithm", K::kEnum, "rng_algorithm"}};
constexpr KeywordAttr kRng[] = {{"distribution", "rng_distribution", K::kEnum, "rng_distribution"}};
constexpr KeywordAttr kReducePrecision[] = {{"format", "", K::kExpMantissa}};
constexpr KeywordAttr kCholesky[] = {{"lower", "lower", K::kBool}};
constexpr KeywordAttr kDot[] = {{"precision", "precision_config", K::kPrecisionList}};
constexpr KeywordAttr kExpectAlmostEq[] = {{"tolerance", "tolerance", K::kF64}};
constexpr KeywordAttr kExpectClose[] = {{"max_ulp_difference", "max_ulp_difference", K::kI64},
                                        {"min_ulp_difference", "min_ulp_difference", K::kI64}};
constexpr KeywordAttr kExpectSerializedEq[] = {{"probe_id", "probe_id", K::kString},
                                               {"iter", "iteration", K::kI64}};
constexpr KeywordAttr kProbe[] = {{"probe_id", "probe_id", K::kString}};

const SimpleForm* FindSimpleForm(OpCode code) {
#define VKHLO_FORM(keywords, types)                   \
  {                                                   \
    static const SimpleForm form{keywords, types};    \
    return &form;                                     \
  }
  constexpr std::span<const KeywordAttr> kNone;
  switch (code) {
    case OpCode::kBroadcastInDim: VKHLO_FORM(kBroadcastInDim, TypeForm::kFunctional)
    case OpCode::kBroadcast: VKHLO_FORM(kBroadcast, TypeForm::kFunctional)
    case OpCode::kDynamicBroadcastInDim: VKHLO_FORM(kDynamicBroadcastInDim, TypeForm::kFunctional)
    case OpCode::kTranspose: VKHLO_FORM(kTranspose, TypeForm::kFunctional)
    case OpCode::kReverse: VKHLO_FORM(kReverse, TypeForm::kSameOrFunctional)
    case OpCode::kIota: VKHLO_FORM(kIota, TypeForm::kResults)
    case OpCode::kDynamicIota: VKHLO_FORM(kIota, TypeForm::kFunctional)
    case OpCode::kConcatenate: VKHLO_FORM(kConcatenate, TypeForm::kFunctional)
    case OpCode::kPad: VKHLO_FORM(kPad, TypeForm::kFunctional)
    case OpCode::kDynamicSlice: VKHLO_FORM(kDynamicSlice, TypeForm::kFunctional)
    case OpCode::kGetDimensionSize: VKHLO_FORM(kGetDimensionSize, TypeForm::kFunctional)
    case OpCode::kFft: VKHLO_FORM(kFft, TypeForm::kFunctional)
    case OpCode::kRngBitGenerator: VKHLO_FORM(kRngBitGenerator, TypeForm::kFunctional)
    case OpCode::kRng: VKHLO_FORM(kRng, TypeForm::kFunctional)
    case OpCode::kReducePrecision: VKHLO_FORM(kReducePrecision, TypeForm::kSameOrFunctional)
    case OpCode::kCholesky: VKHLO_FORM(kCholesky, TypeForm::kSameOrFunctional)
    case OpCode::kDot: VKHLO_FORM(kDot, TypeForm::kFunctional)
    case OpCode::kSelect: VKHLO_FORM(kNone, TypeForm::kSelect)
    case OpCode::kComplex: VKHLO_FORM(kNone, TypeForm::kComplex)
    case OpCode::kTuple: VKHLO_FORM(kNone, TypeForm::kTuple)
    case OpCode::kOptimizationBarrier: VKHLO_FORM(kNone, TypeForm::kPairwise)
    case OpCode::kAfterAll:
    case OpCode::kCreateToken:
    case OpCode::kReplicaId:
    case OpCode::kPartitionId:
      VKHLO_FORM(kNone, TypeForm::kResults)
    case OpCode::kReturn:
    case OpCode::kFuncReturn:
    case OpCode::kCheckExpectEq:
    case OpCode::kInterpreterPrint:
      VKHLO_FORM(kNone, TypeForm::kOperands)
    case OpCode::kCheckExpectAlmostEq: VKHLO_FORM(kExpectAlmostEq, TypeForm::kOperands)
    case OpCode::kCheckExpectClose: VKHLO_FORM(kExpectClose, TypeForm::kOperands)
    case OpCode::kCheckExpectSerializedEq: VKHLO_FORM(kExpectSerializedEq, TypeForm::kOperands)
    case OpCode::kInterpreterProbe: VKHLO_FORM(kProbe, TypeForm::kSameOrFunctional)
    default:
      return nullptr;
  }
#undef VKHLO_FORM
}

Status ParseTableForm(Parser& parser, OpState& state) {
  return ParseSimpleForm(parser, state, *FindSimpleForm(state.code));
}

}  // namespace

Status ParseKeywordValue(Parser& p, OpState& state, const KeywordAttr& keyword) {
  auto& attrs = state.attributes;
  const std::string name(keyword.name);
  const Token at = p.tok();
  switch (keyword.kind) {
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
  static const SimpleForm kDefault{{}, TypeForm::kSameOrFunctional};
  return ParseSimpleForm(parser, state, kDefault);
}

CustomOpParser FindCustomOpParser(ir::OpCode code) {
  switch (code) {
    case OpCode::kConstant:
    case OpCode::kChloConstant:
      return ParseConstantForm;
    case OpCode::kCompare: return ParseCompareForm;
    case OpCode::kSlice: return ParseSliceForm;
    case OpCode::kGetTupleElement: return ParseGetTupleElementForm;
    case OpCode::kDotGeneral: return ParseDotGeneralForm;
    case OpCode::kConvolution: return ParseConvolutionForm;
    case OpCode::kReduce: return ParseReduceForm;
    case OpCode::kWhile: return ParseWhileForm;
    case OpCode::kIf: return ParseIfForm;
    case OpCode::kCustomCall: return ParseCustomCallForm;
    case OpCode::kComposite: return ParseCompositeForm;
    case OpCode::kCall: return ParseCallForm;
    case OpCode::kChloTopK: return ParseTopKForm;
    case OpCode::kChloScan: return ParseScanForm;
    case OpCode::kCheckExpectEqConst:
    case OpCode::kCheckExpectAlmostEqConst:
      return ParseCheckConstForm;
    default:
      break;
  }
  if (FindSimpleForm(code) != nullptr) return ParseTableForm;
  return nullptr;
}

}  // namespace vkhlo::frontend::internal
