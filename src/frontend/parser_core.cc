// Parser basics: the token stream (locations dropped), error messages with absolute positions,
// the nesting guard, and number literals with exact range checks and correctly rounded floats.
#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "frontend/parser_impl.h"
#include "ir/literal.h"

namespace vkhlo::frontend::internal {

Parser::Parser(std::string_view text, const ParseOptions& options)
    : lexer_(text), options_(options) {
  Advance();
}

void Parser::Advance() {
  // Source locations (`loc(...)`) may follow almost anything; vkhlo does not keep them.
  prev_end_ = tok_.offset + tok_.text.size();
  do {
    tok_ = lexer_.Next();
  } while (tok_.kind == TokenKind::kLocation);
}

bool Parser::ConsumeIf(TokenKind kind) {
  if (tok_.kind != kind) return false;
  Advance();
  return true;
}

bool Parser::ConsumeKeywordIf(std::string_view word) {
  if (!tok_.IsKeyword(word)) return false;
  Advance();
  return true;
}

Status Parser::Expect(TokenKind kind, std::string_view what) {
  if (tok_.kind != kind) return ErrorExpected(what);
  Advance();
  return OkStatus();
}

Status Parser::Expect(TokenKind kind) { return Expect(kind, TokenKindName(kind)); }

Status Parser::ExpectKeyword(std::string_view word) {
  if (!tok_.IsKeyword(word)) return ErrorExpected(fmt::format("'{}'", word));
  Advance();
  return OkStatus();
}

Token Parser::PeekNext() {
  const Lexer::State saved = lexer_.state();
  Token next;
  do {
    next = lexer_.Next();
  } while (next.kind == TokenKind::kLocation);
  lexer_.set_state(saved);
  return next;
}

void Parser::RescanFrom(size_t offset) {
  Lexer::State state;
  state.pos = offset;
  state.line = tok_.line;
  state.line_start = tok_.offset - (tok_.column - 1);
  lexer_.set_state(state);
  Advance();
}

ir::Location Parser::LocationOf(const Token& token) const {
  return ir::Location{token.line + options_.first_line - 1, token.column};
}

Status Parser::ErrorAtLocation(ir::Location location, std::string_view message) const {
  return InvalidArgumentError(
      fmt::format("{}: error: {}", ir::FormatLocation(options_.source_name, location), message));
}

Status Parser::ErrorAt(const Token& token, std::string_view message) const {
  return ErrorAtLocation(LocationOf(token), message);
}

Status Parser::ErrorAtOffset(size_t offset, std::string_view message) const {
  // Only on errors: count lines up to the offset.
  const std::string_view source = lexer_.source();
  offset = std::min(offset, source.size());
  uint32_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (source[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return ErrorAtLocation(
      ir::Location{line + options_.first_line - 1, static_cast<uint32_t>(offset - line_start + 1)},
      message);
}

std::string Parser::Describe(const Token& token) const {
  switch (token.kind) {
    case TokenKind::kEof:
      return "end of input";
    case TokenKind::kError:
      return "invalid token";
    default:
      break;
  }
  constexpr size_t kMaxShown = 40;
  std::string_view text = token.text;
  std::string shown;
  for (char c : text.substr(0, kMaxShown)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) {
      shown += fmt::format("\\{:02X}", u);
    } else {
      shown += c;
    }
  }
  if (text.size() > kMaxShown) shown += "...";
  return "'" + shown + "'";
}

Status Parser::ErrorExpected(std::string_view what) const {
  if (tok_.kind == TokenKind::kError) return ErrorAt(tok_, lexer_.error_message());
  return ErrorAt(tok_, fmt::format("expected {}, found {}", what, Describe(tok_)));
}

Parser::NestingGuard Parser::EnterNesting() {
  ++depth_;
  if (depth_ > kMaxNestingDepth) {
    return NestingGuard(this, ErrorAt(tok_, fmt::format("nesting deeper than {} levels", kMaxNestingDepth)));
  }
  return NestingGuard(this, OkStatus());
}

// ---- Numbers ----

namespace {

std::string SignedText(const Parser::IntLiteral& literal) {
  return (literal.negative ? "-" : "") + std::string(literal.token.text);
}

uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Decimal text to double with correct rounding; overflow gives infinity, underflow zero.
double DecimalToDouble(std::string_view text) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && ptr == text.data() + text.size()) return value;
  std::string copy(text);
  return std::strtod(copy.c_str(), nullptr);
}

float DecimalToFloat(std::string_view text) {
  float value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc() && ptr == text.data() + text.size()) return value;
  std::string copy(text);
  return std::strtof(copy.c_str(), nullptr);
}

}  // namespace

StatusOr<Parser::IntLiteral> Parser::IntLiteralFromToken(const Token& token, bool negative) const {
  IntLiteral literal;
  literal.negative = negative;
  literal.token = token;
  std::string_view text = token.text;
  if (text.size() > 2 && text[1] == 'x') {
    literal.hex = true;
    uint64_t value = 0;
    for (char c : text.substr(2)) {
      if (value >> 60) return ErrorAt(token, fmt::format("integer literal {} is too large", Describe(token)));
      value = value * 16 + static_cast<uint64_t>(HexDigitValue(c));
    }
    literal.magnitude = value;
  } else {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), literal.magnitude);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      return ErrorAt(token, fmt::format("integer literal {} is too large", Describe(token)));
    }
  }
  return literal;
}

StatusOr<Parser::IntLiteral> Parser::ParseIntLiteral() {
  const bool negative = ConsumeIf(TokenKind::kMinus);
  if (!Is(TokenKind::kInteger)) return ErrorExpected("integer");
  VKHLO_ASSIGN_OR_RETURN(IntLiteral literal, IntLiteralFromToken(tok_, negative));
  Advance();
  return literal;
}

StatusOr<int64_t> Parser::ParseInt64() {
  VKHLO_ASSIGN_OR_RETURN(IntLiteral literal, ParseIntLiteral());
  VKHLO_ASSIGN_OR_RETURN(uint64_t bits, IntegerBits(literal, ir::ElementType::kS64));
  return static_cast<int64_t>(bits);
}

StatusOr<uint64_t> Parser::IntegerBits(const IntLiteral& literal, ir::ElementType type) const {
  const auto out_of_range = [&]() {
    return ErrorAt(literal.token, fmt::format("integer value {} is out of range for {}",
                                              SignedText(literal), ir::ElementTypeName(type)));
  };
  const uint64_t m = literal.magnitude;
  if (type == ir::ElementType::kI1) {
    if (m > 1 || (literal.negative && m != 0)) return out_of_range();
    return m;
  }
  const int width = ir::BitWidth(type);
  const uint64_t mask = LowMask(width);
  if (literal.hex) {
    // Hexadecimal integers are bit patterns (as MLIR reads them).
    if (literal.negative || (m & ~mask) != 0) return out_of_range();
    return m;
  }
  if (ir::IsSignedInteger(type)) {
    const uint64_t limit = uint64_t{1} << (width - 1);  // |min|
    if (literal.negative) {
      if (m > limit) return out_of_range();
      return (~m + 1) & mask;
    }
    if (m >= limit) return out_of_range();
    return m;
  }
  if (ir::IsUnsignedInteger(type)) {
    if (literal.negative && m != 0) return out_of_range();
    if ((m & ~mask) != 0) return out_of_range();
    return m;
  }
  return ErrorAt(literal.token, fmt::format("expected a {} value, found an integer",
                                            ir::ElementTypeName(type)));
}

StatusOr<uint64_t> Parser::FloatBits(const Token& token, bool negative, ir::ElementType type) const {
  const int width = ir::BitWidth(type);
  if (token.kind == TokenKind::kInteger && token.text.size() > 2 && token.text[1] == 'x') {
    // A bit pattern: 0x7FC00000 for an f32 NaN.
    std::string_view digits = token.text.substr(2);
    uint64_t bits = 0;
    for (char c : digits) {
      if (bits >> 60) return ErrorAt(token, "hexadecimal float literal is too large");
      bits = bits * 16 + static_cast<uint64_t>(HexDigitValue(c));
    }
    if (negative) return ErrorAt(token, "hexadecimal float literal cannot be negated");
    if ((bits & ~LowMask(width)) != 0) {
      return ErrorAt(token, fmt::format("hexadecimal float literal {} does not fit in {}",
                                        Describe(token), ir::ElementTypeName(type)));
    }
    return bits;
  }
  double value;
  if (token.kind == TokenKind::kFloat || token.kind == TokenKind::kInteger) {
    if (type == ir::ElementType::kF32) {
      float f = DecimalToFloat(token.text);
      if (negative) f = -f;
      return uint64_t{std::bit_cast<uint32_t>(f)};
    }
    value = DecimalToDouble(token.text);
  } else if (token.IsKeyword("inf")) {
    value = INFINITY;
  } else if (token.IsKeyword("nan")) {
    value = NAN;
  } else if (token.kind == TokenKind::kError) {
    return ErrorAt(token, lexer_.error_message());
  } else {
    return ErrorAt(token, fmt::format("expected a {} value, found {}", ir::ElementTypeName(type),
                                      Describe(token)));
  }
  if (negative) value = -value;
  if (type == ir::ElementType::kF64) return std::bit_cast<uint64_t>(value);
  if (type == ir::ElementType::kF32) return uint64_t{std::bit_cast<uint32_t>(static_cast<float>(value))};
  return ir::EncodeFloat(type, value);
}

StatusOr<std::vector<int64_t>> Parser::ParseI64List() {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLSquare, "'['"));
  std::vector<int64_t> values;
  if (ConsumeIf(TokenKind::kRSquare)) return values;
  do {
    VKHLO_ASSIGN_OR_RETURN(int64_t v, ParseInt64());
    values.push_back(v);
  } while (ConsumeIf(TokenKind::kComma));
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRSquare, "',' or ']'"));
  return values;
}

StatusOr<bool> Parser::ParseBool() {
  if (ConsumeKeywordIf("true")) return true;
  if (ConsumeKeywordIf("false")) return false;
  return ErrorExpected("'true' or 'false'");
}

StatusOr<double> Parser::ParseDouble() {
  const bool negative = ConsumeIf(TokenKind::kMinus);
  if (!Is(TokenKind::kFloat) && !Is(TokenKind::kInteger) && !IsKeyword("inf") && !IsKeyword("nan")) {
    return ErrorExpected("float literal");
  }
  VKHLO_ASSIGN_OR_RETURN(uint64_t bits, FloatBits(tok_, negative, ir::ElementType::kF64));
  Advance();
  return std::bit_cast<double>(bits);
}

}  // namespace vkhlo::frontend::internal
