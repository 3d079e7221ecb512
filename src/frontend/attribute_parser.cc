// Attribute values: unit, booleans, typed numbers, strings, symbols, types, arrays,
// dictionaries, dialect enums, and opaque text for dialect attributes vkhlo does not interpret.
// dense<...>/array<...> are in dense_parser.cc, the structured #stablehlo.* ones in
// stablehlo_attributes.cc.
#include <fmt/format.h>

#include "frontend/parser_impl.h"

namespace vkhlo::frontend::internal {
namespace {

bool IsBareWord(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0])) return false;
  for (char c : s) {
    if (!IsIdentChar(c)) return false;
  }
  return true;
}

}  // namespace

StatusOr<std::string> Parser::ParseStringLiteral() {
  if (!Is(TokenKind::kString)) return ErrorExpected("string literal");
  std::string value;
  if (!UnescapeString(tok_.text.substr(1, tok_.text.size() - 2), &value)) {
    return ErrorAt(tok_, "invalid escape sequence in string literal");
  }
  Advance();
  return value;
}

StatusOr<std::string> Parser::ParseSymbolName() {
  if (!Is(TokenKind::kAtId)) return ErrorExpected("symbol name (@name)");
  std::string_view text = tok_.text.substr(1);
  std::string name;
  if (!text.empty() && text[0] == '"') {
    if (!UnescapeString(text.substr(1, text.size() - 2), &name)) {
      return ErrorAt(tok_, "invalid escape sequence in symbol name");
    }
  } else {
    name = std::string(text);
  }
  Advance();
  if (Is(TokenKind::kColonColon)) return ErrorAt(tok_, "nested symbol references (@a::@b) are not supported");
  return name;
}

StatusOr<ir::Attribute> Parser::ParseAttribute() {
  NestingGuard guard = EnterNesting();
  if (!guard.ok()) return guard.status;
  switch (tok_.kind) {
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kMinus:
      return ParseNumberAttribute();
    case TokenKind::kString: {
      VKHLO_ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
      return ir::Attribute::String(std::move(value));
    }
    case TokenKind::kAtId: {
      VKHLO_ASSIGN_OR_RETURN(std::string name, ParseSymbolName());
      return ir::Attribute::Symbol(std::move(name));
    }
    case TokenKind::kLSquare: {
      Advance();
      ir::Attribute::Array elements;
      if (!ConsumeIf(TokenKind::kRSquare)) {
        do {
          VKHLO_ASSIGN_OR_RETURN(ir::Attribute element, ParseAttribute());
          elements.push_back(std::move(element));
        } while (ConsumeIf(TokenKind::kComma));
        VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRSquare, "',' or ']' in array attribute"));
      }
      return ir::Attribute(std::move(elements));
    }
    case TokenKind::kLBrace: {
      ir::Attribute::Dictionary entries;
      VKHLO_RETURN_IF_ERROR(ParseDictionary(entries));
      return ir::Attribute(std::move(entries));
    }
    case TokenKind::kHashId:
      return ParseHashAttribute();
    case TokenKind::kBangId: {
      VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
      return ir::Attribute(std::move(type));
    }
    case TokenKind::kBareIdent:
      break;
    default:
      return ErrorExpected("attribute value");
  }
  // Keywords.
  if (ConsumeKeywordIf("unit")) return ir::Attribute::Unit();
  if (ConsumeKeywordIf("true")) return ir::Attribute::Bool(true);
  if (ConsumeKeywordIf("false")) return ir::Attribute::Bool(false);
  if (IsKeyword("dense")) return ParseDenseElements();
  if (IsKeyword("array")) return ParseDenseArray();
  if (IsKeyword("inf") || IsKeyword("nan")) return ParseNumberAttribute();
  if (IsKeyword("tensor") || IsKeyword("tuple")) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
    return ir::Attribute(std::move(type));
  }
  if (IsKeyword("dense_resource")) return ErrorAt(tok_, "dense_resource blobs are not supported; use dense<...>");
  if (IsKeyword("sparse")) return ErrorAt(tok_, "sparse elements attributes are not supported");
  if (IsKeyword("complex") || ir::ParseElementTypeName(tok_.text)) {
    // A bare element type as an attribute (e.g. a type parameter): kept as its text.
    const Token start = tok_;
    VKHLO_ASSIGN_OR_RETURN(ir::ElementType element, ParseElementTypeName());
    (void)element;
    return ir::Attribute(ir::OpaqueValue{std::string(lexer_.source().substr(start.offset, prev_end_ - start.offset))});
  }
  return ErrorExpected("attribute value");
}

StatusOr<ir::Attribute> Parser::ParseNumberAttribute() {
  const bool negative = ConsumeIf(TokenKind::kMinus);
  if (!Is(TokenKind::kInteger) && !Is(TokenKind::kFloat) && !IsKeyword("inf") && !IsKeyword("nan")) {
    return ErrorExpected("number");
  }
  const Token number = tok_;
  Advance();
  ir::ElementType type = number.kind == TokenKind::kInteger ? ir::ElementType::kS64 : ir::ElementType::kF64;
  if (ConsumeIf(TokenKind::kColon)) {
    if (ConsumeKeywordIf("index")) {
      type = ir::ElementType::kS64;
    } else {
      VKHLO_ASSIGN_OR_RETURN(type, ParseElementTypeName());
    }
  }
  if (ir::IsComplex(type)) return ErrorAt(number, "complex scalar attributes are not supported");
  if (ir::IsFloat(type)) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t bits, FloatBits(number, negative, type));
    return ir::Attribute(ir::FloatValue{bits, type});
  }
  if (number.kind != TokenKind::kInteger) {
    return ErrorAt(number, fmt::format("expected an integer for type {}, found {}", ir::ElementTypeName(type),
                                       Describe(number)));
  }
  VKHLO_ASSIGN_OR_RETURN(IntLiteral literal, IntLiteralFromToken(number, negative));
  VKHLO_ASSIGN_OR_RETURN(uint64_t bits, IntegerBits(literal, type));
  if (ir::IsBoolean(type)) return ir::Attribute::Bool(bits != 0);
  return ir::Attribute(ir::IntegerValue{bits, type});
}

Status Parser::ParseDictionary(std::vector<ir::NamedAttribute>& out) {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLBrace, "'{'"));
  if (ConsumeIf(TokenKind::kRBrace)) return OkStatus();
  do {
    const Token name_token = tok_;
    std::string name;
    if (Is(TokenKind::kBareIdent)) {
      name = std::string(tok_.text);
      Advance();
    } else if (Is(TokenKind::kString)) {
      VKHLO_ASSIGN_OR_RETURN(name, ParseStringLiteral());
    } else {
      return ErrorExpected("attribute name");
    }
    for (const auto& [existing, value] : out) {
      if (existing == name) return ErrorAt(name_token, fmt::format("duplicate attribute '{}'", name));
    }
    if (ConsumeIf(TokenKind::kEqual)) {
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, ParseAttribute());
      out.emplace_back(std::move(name), std::move(value));
    } else {
      out.emplace_back(std::move(name), ir::Attribute::Unit());
    }
  } while (ConsumeIf(TokenKind::kComma));
  return Expect(TokenKind::kRBrace, "',' or '}' in attribute dictionary");
}

Status Parser::ParseOptionalAttrDict(std::vector<ir::NamedAttribute>& out) {
  if (!Is(TokenKind::kLBrace)) return OkStatus();
  return ParseDictionary(out);
}

Status Parser::ParseOptionalAttrDictWithKeyword(std::vector<ir::NamedAttribute>& out) {
  if (!ConsumeKeywordIf("attributes")) return OkStatus();
  return ParseDictionary(out);
}

StatusOr<ir::Attribute> Parser::ParseHashAttribute() {
  const Token name = tok_;
  Advance();
  if (!Is(TokenKind::kLess)) {
    auto alias = aliases_.find(name.text);
    if (alias != aliases_.end()) return alias->second;
    return ir::Attribute(ir::OpaqueValue{std::string(name.text)});
  }
  bool handled = false;
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute structured, ParseStructuredAttribute(name, &handled));
  if (handled) return structured;
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute opaque, ParseOpaqueAttribute(name));
  // `#dialect<kind VALUE>` is a dialect enum.
  const std::string_view dialect = name.text.substr(1);
  if (dialect.find('.') != std::string_view::npos) return opaque;
  const std::string& text = opaque.as<ir::OpaqueValue>()->text;
  const size_t open = text.find('<');
  std::string_view body = std::string_view(text).substr(open + 1, text.size() - open - 2);
  const auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  };
  body = trim(body);
  const size_t space = body.find_first_of(" \t\n\r");
  if (space == std::string_view::npos) return opaque;
  const std::string_view kind = body.substr(0, space);
  const std::string_view value = trim(body.substr(space));
  if (!IsBareWord(kind) || !IsBareWord(value)) return opaque;
  bool known_kind = false;
  Status valid = ValidateEnumValue(dialect, kind, value, &known_kind);
  if (!valid.ok()) return ErrorAt(name, valid.message());
  return ir::Attribute::Enum(std::string(dialect), std::string(kind), std::string(value));
}

StatusOr<ir::Attribute> Parser::ParseOpaqueAttribute(const Token& start) {
  // The current token is '<'. Take everything up to the matching '>' (brackets balanced).
  std::vector<TokenKind> closers;
  size_t end = tok_.offset;
  do {
    switch (tok_.kind) {
      case TokenKind::kLess: closers.push_back(TokenKind::kGreater); break;
      case TokenKind::kLParen: closers.push_back(TokenKind::kRParen); break;
      case TokenKind::kLSquare: closers.push_back(TokenKind::kRSquare); break;
      case TokenKind::kLBrace: closers.push_back(TokenKind::kRBrace); break;
      case TokenKind::kGreater:
      case TokenKind::kRParen:
      case TokenKind::kRSquare:
      case TokenKind::kRBrace:
        if (closers.back() != tok_.kind) {
          return ErrorExpected(fmt::format("{} in {}", TokenKindName(closers.back()), start.text));
        }
        closers.pop_back();
        break;
      case TokenKind::kEof:
      case TokenKind::kError:
        return ErrorExpected(fmt::format("{} to close {}", TokenKindName(closers.back()), start.text));
      default:
        break;
    }
    end = tok_.offset + tok_.text.size();
    Advance();
  } while (!closers.empty());
  return ir::Attribute(ir::OpaqueValue{std::string(lexer_.source().substr(start.offset, end - start.offset))});
}

StatusOr<ir::Attribute> Parser::ParseEnumKeyword(std::string_view kind) {
  if (!Is(TokenKind::kBareIdent)) return ErrorExpected(fmt::format("{} value", kind));
  bool known = false;
  Status valid = ValidateEnumValue("stablehlo", kind, tok_.text, &known);
  if (!valid.ok()) return ErrorAt(tok_, valid.message());
  ir::Attribute value = ir::Attribute::Enum("stablehlo", std::string(kind), std::string(tok_.text));
  Advance();
  return value;
}

StatusOr<ir::Attribute> Parser::ParsePrecisionList() {
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLSquare, "'['"));
  ir::Attribute::Array values;
  if (!ConsumeIf(TokenKind::kRSquare)) {
    do {
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute value, ParseEnumKeyword("precision"));
      values.push_back(std::move(value));
    } while (ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kRSquare, "',' or ']'"));
  }
  return ir::Attribute(std::move(values));
}

}  // namespace vkhlo::frontend::internal
