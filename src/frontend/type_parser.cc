// Types: tensor<2x3xf32>, tensor<f32>, tensor<0x4xi8>, tensor<4x!quant.uniform<...>>,
// tensor<?x4xf32> and tensor<?x4xf32, #stablehlo.bounds<8, ?>> (dynamic dimensions, bounded or
// not), tensor<2xindex>, tuple<...>, !stablehlo.token, and function types. Unranked tensors
// (tensor<*xf32>) are not taken.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

// Element types MLIR has but vkhlo does not (named in the error instead of "expected type").
bool IsUnsupportedBuiltinType(std::string_view name) {
  static constexpr std::string_view kNames[] = {"tf32", "f80", "f128", "none", "i128", "i256"};
  for (std::string_view n : kNames) {
    if (name == n) return true;
  }
  return false;
}

}  // namespace

StatusOr<ir::Type> Parser::ParseType() {
  NestingGuard guard = EnterNesting();
  if (!guard.ok()) return guard.status;
  if (IsKeyword("tensor")) return ParseTensorType();
  if (IsKeyword("tuple")) {
    Advance();
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<'"));
    std::vector<ir::Type> elements;
    if (!ConsumeIf(TokenKind::kGreater)) {
      VKHLO_RETURN_IF_ERROR(ParseTypeList(elements));
      VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "',' or '>' in tuple type"));
    }
    return ir::Type::Tuple(std::move(elements));
  }
  if (Is(TokenKind::kBangId)) {
    if (tok_.text == "!stablehlo.token") {
      Advance();
      return ir::Type::Token();
    }
    if (tok_.text == "!quant.uniform") {
      return ErrorAt(tok_, "a quantized element type must be inside a tensor type: tensor<...x!quant.uniform<...>>");
    }
    return ErrorAt(tok_, fmt::format("unsupported type {}", Describe(tok_)));
  }
  if (IsKeyword("memref") || IsKeyword("vector")) {
    return ErrorAt(tok_, fmt::format("unsupported type {}: vkhlo takes tensor types", Describe(tok_)));
  }
  if (Is(TokenKind::kBareIdent) &&
      (ir::ParseElementTypeName(tok_.text) || IsUnsupportedBuiltinType(tok_.text) || IsKeyword("complex"))) {
    return ErrorAt(tok_, fmt::format("expected tensor type, found {} (values are tensors: tensor<{}>)",
                                     Describe(tok_), tok_.text));
  }
  return ErrorExpected("type");
}

StatusOr<ir::Type> Parser::ParseTensorType() {
  const Token start = tok_;
  Advance();  // 'tensor'
  if (!Is(TokenKind::kLess)) return ErrorExpected("'<'");
  // MLIR lexes "2x3xf32" specially; scan the dimension list straight from the text.
  const std::string_view source = lexer_.source();
  const size_t n = source.size();
  size_t p = tok_.offset + 1;
  std::vector<int64_t> dims;
  while (p < n && IsSpace(source[p])) ++p;
  while (p < n) {
    const char c = source[p];
    if (IsDigit(c)) {
      const size_t start = p;
      uint64_t value = 0;
      while (p < n && IsDigit(source[p])) {
        const uint64_t digit = static_cast<uint64_t>(source[p] - '0');
        if (value > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - digit) / 10) {
          return ErrorAtOffset(start, "dimension size is too large");
        }
        value = value * 10 + digit;
        ++p;
      }
      size_t q = p;
      while (q < n && IsSpace(source[q])) ++q;
      if (q >= n || source[q] != 'x') return ErrorAtOffset(q, "expected 'x' after a dimension size");
      p = q + 1;
      while (p < n && IsSpace(source[p])) ++p;
      dims.push_back(static_cast<int64_t>(value));
      continue;
    }
    if (c == '?') {
      size_t q = p + 1;
      while (q < n && IsSpace(source[q])) ++q;
      if (q >= n || source[q] != 'x') return ErrorAtOffset(q, "expected 'x' after a dimension size");
      p = q + 1;
      while (p < n && IsSpace(source[p])) ++p;
      dims.push_back(ir::kDynamic);
      continue;
    }
    if (c == '*') return ErrorAtOffset(p, "unranked tensors (tensor<*x...>) are not supported: vkhlo needs the rank");
    break;
  }
  RescanFrom(p);

  ir::Type type;
  if (Is(TokenKind::kBangId) && tok_.text == "!quant.uniform") {
    VKHLO_ASSIGN_OR_RETURN(ir::QuantizedElement q, ParseQuantizedElement());
    type = ir::Type::QuantizedTensor(std::move(q), std::move(dims));
  } else if (IsKeyword("index")) {
    Advance();
    type = ir::Type::IndexTensor(std::move(dims));
  } else {
    VKHLO_ASSIGN_OR_RETURN(ir::ElementType element, ParseElementTypeName());
    type = ir::Type::Tensor(element, std::move(dims));
  }
  if (Is(TokenKind::kComma)) {
    Advance();
    const Token start = tok_;
    if (Is(TokenKind::kHashId) && tok_.text == "#stablehlo.bounds") {
      VKHLO_ASSIGN_OR_RETURN(type, ParseBounds(std::move(type)));
    } else {
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute encoding, ParseAttribute());
      return ErrorAt(start, fmt::format("tensor encodings other than #stablehlo.bounds are not supported: {}",
                                        encoding.ToString()));
    }
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' at the end of the tensor type"));
  if (type.is_static() && type.num_elements() < 0) {
    return ErrorAt(start, fmt::format("tensor type {} has too many elements", type.ToString()));
  }
  return type;
}

// `#stablehlo.bounds<8, ?>`: one entry per dimension, `?` for none; only dynamic dimensions
// may have a bound (as StableHLO's verifier requires).
StatusOr<ir::Type> Parser::ParseBounds(ir::Type type) {
  const Token start = tok_;
  Advance();  // #stablehlo.bounds
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<' after #stablehlo.bounds"));
  std::vector<int64_t> bounds;
  if (!Is(TokenKind::kGreater)) {
    do {
      if (bounds.size() >= static_cast<size_t>(type.rank())) {
        return ErrorAt(tok_, fmt::format("#stablehlo.bounds has more entries than the tensor's rank {}", type.rank()));
      }
      if (ConsumeIf(TokenKind::kQuestion)) {
        bounds.push_back(ir::kDynamic);
        continue;
      }
      const Token at = tok_;
      VKHLO_ASSIGN_OR_RETURN(int64_t bound, ParseInt64());
      if (bound < 0) return ErrorAt(at, fmt::format("a dimension bound must be non-negative, found {}", bound));
      if (!type.is_dynamic_dim(static_cast<int64_t>(bounds.size()))) {
        return ErrorAt(at, fmt::format("dimension {} is static ({}): only dynamic dimensions have bounds",
                                       bounds.size(), type.dim(static_cast<int64_t>(bounds.size()))));
      }
      bounds.push_back(bound);
    } while (ConsumeIf(TokenKind::kComma));
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "',' or '>' in #stablehlo.bounds"));
  if (bounds.size() != static_cast<size_t>(type.rank())) {
    return ErrorAt(start, fmt::format("#stablehlo.bounds must have one entry per dimension: expected {}, found {}",
                                      type.rank(), bounds.size()));
  }
  return type.WithBounds(std::move(bounds));
}

StatusOr<ir::ElementType> Parser::ParseElementTypeName() {
  if (IsKeyword("complex")) {
    Advance();
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<'"));
    ir::ElementType part;
    if (IsKeyword("f32")) {
      part = ir::ElementType::kC64;
    } else if (IsKeyword("f64")) {
      part = ir::ElementType::kC128;
    } else {
      return ErrorExpected("'f32' or 'f64' in complex type");
    }
    Advance();
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>'"));
    return part;
  }
  if (Is(TokenKind::kBareIdent)) {
    if (auto type = ir::ParseElementTypeName(tok_.text)) {
      Advance();
      return *type;
    }
    if (IsUnsupportedBuiltinType(tok_.text)) {
      return ErrorAt(tok_, fmt::format("element type {} is not supported", Describe(tok_)));
    }
  }
  if (Is(TokenKind::kBangId)) {
    return ErrorAt(tok_, fmt::format("element type {} is not supported", Describe(tok_)));
  }
  return ErrorExpected("element type");
}

StatusOr<ir::QuantizedElement> Parser::ParseQuantizedElement() {
  const Token start = tok_;
  Advance();  // !quant.uniform
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<'"));
  ir::QuantizedElement q;
  const Token storage_token = tok_;
  // The quant dialect spells unsigned storage `u8` (as well as the builtin `ui8`).
  const bool mlir_unsigned = tok_.kind == TokenKind::kBareIdent && tok_.text.size() > 1 && tok_.text[0] == 'u' &&
                             tok_.text.find_first_not_of("0123456789", 1) == std::string::npos;
  if (mlir_unsigned) {
    const std::optional<ir::ElementType> unsigned_type = ir::ParseElementTypeName("ui" + std::string(tok_.text.substr(1)));
    if (!unsigned_type) return ErrorAt(storage_token, fmt::format("unknown storage type '{}'", tok_.text));
    q.storage = *unsigned_type;
    Advance();
  } else {
    VKHLO_ASSIGN_OR_RETURN(q.storage, ParseElementTypeName());
  }
  if (!ir::IsInteger(q.storage)) {
    return ErrorAt(storage_token, "quantized storage type must be an integer type");
  }
  if (ir::BitWidth(q.storage) > 32) {
    // As MLIR's quant dialect (and the StableHLO spec: si2..si32, ui2..ui32).
    return ErrorAt(storage_token, "quantized storage type must be at most 32 bits wide");
  }
  const int bits = ir::BitWidth(q.storage);
  const bool is_signed = ir::IsSignedInteger(q.storage);
  q.storage_min = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  q.storage_max = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  if (ConsumeIf(TokenKind::kLess)) {
    const int64_t type_min = q.storage_min, type_max = q.storage_max;
    const Token range = tok_;
    VKHLO_ASSIGN_OR_RETURN(q.storage_min, ParseInt64());
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' in storage range"));
    VKHLO_ASSIGN_OR_RETURN(q.storage_max, ParseInt64());
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' after storage range"));
    if (q.storage_min < type_min || q.storage_max > type_max || q.storage_min > q.storage_max) {
      return ErrorAt(range, fmt::format("illegal storage range <{}:{}> for {}", q.storage_min, q.storage_max,
                                        ir::ElementTypeName(q.storage)));
    }
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' before the expressed type"));
  const Token expressed_token = tok_;
  VKHLO_ASSIGN_OR_RETURN(q.expressed, ParseElementTypeName());
  if (!ir::IsFloat(q.expressed)) return ErrorAt(expressed_token, "quantized expressed type must be a float type");
  if (ConsumeIf(TokenKind::kColon)) {
    const Token axis_token = tok_;
    VKHLO_ASSIGN_OR_RETURN(int64_t axis, ParseInt64());
    if (axis < 0 || axis > std::numeric_limits<int32_t>::max()) {
      return ErrorAt(axis_token, "quantized dimension out of range");
    }
    q.quantized_dimension = static_cast<int32_t>(axis);
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kComma, "','"));
  // As MLIR's quant dialect verifies them: positive finite scales, zero points in range.
  const auto parse_pair = [&]() -> Status {
    const Token scale_token = tok_;
    VKHLO_ASSIGN_OR_RETURN(double scale, ParseDouble());
    if (!(scale > 0) || std::isinf(scale)) {
      return ErrorAt(scale_token, fmt::format("illegal quantization scale {}", scale));
    }
    int64_t zero_point = 0;
    if (ConsumeIf(TokenKind::kColon)) {
      const Token zp_token = tok_;
      VKHLO_ASSIGN_OR_RETURN(zero_point, ParseInt64());
      if (zero_point < q.storage_min || zero_point > q.storage_max) {
        return ErrorAt(zp_token, fmt::format("zero point {} is outside the storage range [{}, {}]", zero_point,
                                             q.storage_min, q.storage_max));
      }
    }
    q.scales.push_back(scale);
    q.zero_points.push_back(zero_point);
    return OkStatus();
  };
  if (ConsumeIf(TokenKind::kLBrace)) {
    if (!q.quantized_dimension) return ErrorAt(start, "per-axis scales need a quantized dimension (':axis')");
    do {
      VKHLO_RETURN_IF_ERROR(parse_pair());
    } while (ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRBrace, "',' or '}'"));
  } else {
    if (q.quantized_dimension) return ErrorExpected("'{' with per-axis scales");
    VKHLO_RETURN_IF_ERROR(parse_pair());
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' at the end of the quantized type"));
  return q;
}

Status Parser::ParseTypeList(std::vector<ir::Type>& out) {
  do {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
    out.push_back(std::move(type));
  } while (ConsumeIf(TokenKind::kComma));
  return OkStatus();
}

Status Parser::ParseFunctionResults(std::vector<ir::Type>& results) {
  if (ConsumeIf(TokenKind::kLParen)) {
    if (ConsumeIf(TokenKind::kRParen)) return OkStatus();
    VKHLO_RETURN_IF_ERROR(ParseTypeList(results));
    return Expect(TokenKind::kRParen, "',' or ')' in result types");
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
  results.push_back(std::move(type));
  return OkStatus();
}

Status Parser::ParseFunctionType(std::vector<ir::Type>& inputs, std::vector<ir::Type>& results) {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLParen, "'(' of a function type"));
  if (!ConsumeIf(TokenKind::kRParen)) {
    VKHLO_RETURN_IF_ERROR(ParseTypeList(inputs));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "',' or ')' in operand types"));
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kArrow, "'->' in function type"));
  return ParseFunctionResults(results);
}

}  // namespace vkhlo::frontend::internal
