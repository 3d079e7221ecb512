// Dense literals: `dense<...> : tensor<...>` (nested lists, splats, complex pairs, hex blobs)
// and `array<T: ...>`. Elements are converted straight into Literal storage bytes; hex blobs
// are decoded by a table-driven loop into the vector the Literal then owns (no extra copy).
#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstring>

#include "frontend/parser_impl.h"
#include "ir/literal.h"

namespace vkhlo::frontend::internal {

static_assert(std::endian::native == std::endian::little,
              "Literal storage is little-endian; the element stores below assume a little-endian host");

namespace {


// One scalar as written: a number token with its sign, true/false, or inf/nan.
struct DenseScalar {
  Token token;
  bool negative = false;
};

// The body of dense<...> before its type is known.
struct DenseBody {
  enum class Kind { kEmpty, kSplat, kList, kHex } kind = Kind::kEmpty;
  std::vector<DenseScalar> scalars;  // complex elements take two (real, imaginary)
  bool complex = false;              // elements were written as (re, im)
  bool real = false;                 // elements were written as plain scalars
  std::vector<int64_t> shape;        // kList: the inferred shape
  Token hex;                         // kHex: the string token
};

std::string ShapeText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", dims[i]);
  return s + "]";
}

bool IsScalarStart(const Token& t) {
  return t.kind == TokenKind::kInteger || t.kind == TokenKind::kFloat || t.kind == TokenKind::kMinus ||
         t.IsKeyword("true") || t.IsKeyword("false") || t.IsKeyword("inf") || t.IsKeyword("nan");
}

int64_t SignExtend(uint64_t bits, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  bits &= (sign << 1) - 1;
  return static_cast<int64_t>((bits ^ sign) - sign);
}

}  // namespace

void StoreElementBits(uint8_t* dst, ir::ElementType type, uint64_t bits) {
  const int width = ir::BitWidth(type);
  if (width < 8) {
    if (ir::IsSignedInteger(type)) {
      dst[0] = static_cast<uint8_t>(SignExtend(bits, width));
    } else {
      dst[0] = static_cast<uint8_t>(bits & ((1u << width) - 1));
    }
    return;
  }
  std::memcpy(dst, &bits, static_cast<size_t>(width / 8));
}

namespace {

// Helpers that need the parser; kept out of the class to keep parser_impl.h small.
class DenseReader {
 public:
  explicit DenseReader(Parser& parser) : p_(parser) {}

  Status ReadScalar(DenseBody& body) {
    DenseScalar s;
    s.negative = p_.ConsumeIf(TokenKind::kMinus);
    const Token& t = p_.tok();
    if (t.kind != TokenKind::kInteger && t.kind != TokenKind::kFloat && !t.IsKeyword("true") &&
        !t.IsKeyword("false") && !t.IsKeyword("inf") && !t.IsKeyword("nan")) {
      return p_.ErrorExpected("element value");
    }
    s.token = t;
    body.scalars.push_back(s);
    p_.Advance();
    return OkStatus();
  }

  // One element: a scalar or a complex pair.
  Status ReadElement(DenseBody& body) {
    if (p_.ConsumeIf(TokenKind::kLParen)) {
      body.complex = true;
      VKHLO_RETURN_IF_ERROR(ReadScalar(body));
      VKHLO_RETURN_IF_ERROR(p_.Expect(TokenKind::kComma, "',' in complex value"));
      VKHLO_RETURN_IF_ERROR(ReadScalar(body));
      return p_.Expect(TokenKind::kRParen, "')' after complex value");
    }
    body.real = true;
    return ReadScalar(body);
  }

  // `[...]` (the current token is '['): every element must have the same shape.
  Status ReadList(DenseBody& body, std::vector<int64_t>& dims) {
    Parser::NestingGuard guard = p_.EnterNesting();
    if (!guard.ok()) return guard.status;
    p_.Advance();  // '['
    dims.clear();
    if (p_.ConsumeIf(TokenKind::kRSquare)) {
      dims.push_back(0);
      return OkStatus();
    }
    int64_t count = 0;
    std::vector<int64_t> first, element;
    do {
      const Token at = p_.tok();
      element.clear();
      if (p_.Is(TokenKind::kLSquare)) {
        VKHLO_RETURN_IF_ERROR(ReadList(body, element));
      } else if (p_.Is(TokenKind::kLParen) || IsScalarStart(p_.tok())) {
        VKHLO_RETURN_IF_ERROR(ReadElement(body));
      } else {
        return p_.ErrorExpected("element value or '['");
      }
      if (count == 0) {
        first = element;
      } else if (element != first) {
        return p_.ErrorAt(at, fmt::format("tensor literal is not rectangular: element of shape {} after "
                                          "elements of shape {}",
                                          ShapeText(element), ShapeText(first)));
      }
      ++count;
    } while (p_.ConsumeIf(TokenKind::kComma));
    VKHLO_RETURN_IF_ERROR(p_.Expect(TokenKind::kRSquare, "',' or ']' in tensor literal"));
    dims.push_back(count);
    dims.insert(dims.end(), first.begin(), first.end());
    return OkStatus();
  }

  // Bits of one scalar in `type` (not complex).
  StatusOr<uint64_t> ScalarBits(const DenseScalar& s, ir::ElementType type) {
    if (s.token.IsKeyword("true") || s.token.IsKeyword("false")) {
      if (!ir::IsBoolean(type) || s.negative) {
        return p_.ErrorAt(s.token, fmt::format("expected a {} value, found {}", ir::ElementTypeName(type),
                                               p_.Describe(s.token)));
      }
      return s.token.IsKeyword("true") ? 1u : 0u;
    }
    if (ir::IsFloat(type)) return p_.FloatBits(s.token, s.negative, type);
    if (s.token.kind != TokenKind::kInteger) {
      return p_.ErrorAt(s.token, fmt::format("expected a {} value, found {}", ir::ElementTypeName(type),
                                             p_.Describe(s.token)));
    }
    VKHLO_ASSIGN_OR_RETURN(Parser::IntLiteral literal, p_.IntLiteralFromToken(s.token, s.negative));
    return p_.IntegerBits(literal, type);
  }

  // Storage bytes of the written elements (all of them, or the one of a splat).
  StatusOr<std::vector<uint8_t>> Convert(const DenseBody& body, ir::ElementType type, const Token& at) {
    const bool is_complex = ir::IsComplex(type);
    if (is_complex && body.real) {
      return p_.ErrorAt(at, fmt::format("elements of {} must be written as (real, imaginary)",
                                        ir::ElementTypeName(type)));
    }
    if (!is_complex && body.complex) {
      return p_.ErrorAt(at, fmt::format("complex element for non-complex element type {}",
                                        ir::ElementTypeName(type)));
    }
    const ir::ElementType part = ir::ComplexPartType(type);
    const size_t part_bytes = static_cast<size_t>(ir::StorageBytes(part));
    const size_t per_element = is_complex ? 2 : 1;
    const size_t count = body.scalars.size() / per_element;
    std::vector<uint8_t> bytes(count * static_cast<size_t>(ir::StorageBytes(type)));
    uint8_t* out = bytes.data();
    for (const DenseScalar& s : body.scalars) {
      VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ScalarBits(s, part));
      StoreElementBits(out, part, bits);
      out += part_bytes;
    }
    return bytes;
  }

  // Hex blob bytes for `type` (validated and normalized to the storage layout).
  StatusOr<std::vector<uint8_t>> DecodeHex(const Token& token, const ir::Type& type) {
    std::string_view inner = token.text.substr(1, token.text.size() - 2);
    if (inner.size() < 2 || inner[0] != '0' || inner[1] != 'x') {
      return p_.ErrorAt(token, "string elements are not supported (expected a \"0x...\" hex blob)");
    }
    std::string_view hex = inner.substr(2);
    if (hex.size() % 2 != 0) return p_.ErrorAt(token, "hex blob has an odd number of digits");
    std::vector<uint8_t> bytes(hex.size() / 2);
    const auto* src = reinterpret_cast<const unsigned char*>(hex.data());
    uint8_t* dst = bytes.data();
    int bad = 0;
    for (size_t i = 0, n = bytes.size(); i < n; ++i) {
      const int hi = kHexDigitValues[src[2 * i]];
      const int lo = kHexDigitValues[src[2 * i + 1]];
      bad |= hi | lo;
      dst[i] = static_cast<uint8_t>((hi << 4) | (lo & 15));
    }
    if (bad < 0) return p_.ErrorAt(token, "invalid hex digit in hex blob");

    const ir::ElementType element = type.element_type();
    const uint64_t n = static_cast<uint64_t>(type.num_elements());
    const uint64_t element_bytes = static_cast<uint64_t>(ir::StorageBytes(element));
    if (element == ir::ElementType::kI1 && n > 1 && bytes.size() != n && bytes.size() == (n + 7) / 8 &&
        bytes.size() != 1) {
      // Bit-packed booleans (MLIR's older layout): one bit per element, LSB first.
      std::vector<uint8_t> unpacked(n);
      for (uint64_t i = 0; i < n; ++i) unpacked[i] = (bytes[i / 8] >> (i % 8)) & 1;
      return unpacked;
    }
    if (bytes.size() != element_bytes && bytes.size() != n * element_bytes) {
      return p_.ErrorAt(token, fmt::format("hex blob of {} bytes does not fit {} ({} elements of {} bytes)",
                                           bytes.size(), type.ToString(), n, element_bytes));
    }
    const int width = ir::BitWidth(element);
    if (width < 8) {
      for (uint8_t& b : bytes) {
        if (element == ir::ElementType::kI1) {
          b = b != 0;
        } else {
          StoreElementBits(&b, element, b);
        }
      }
    }
    return bytes;
  }

 private:
  Parser& p_;
};

}  // namespace

StatusOr<ir::Attribute> Parser::ParseDenseElements() {
  const Token start = tok_;
  Advance();  // dense
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<' after 'dense'"));
  DenseReader reader(*this);
  DenseBody body;
  if (Is(TokenKind::kGreater)) {
    body.kind = DenseBody::Kind::kEmpty;
  } else if (Is(TokenKind::kString)) {
    body.kind = DenseBody::Kind::kHex;
    body.hex = tok_;
    Advance();
  } else if (Is(TokenKind::kLSquare)) {
    body.kind = DenseBody::Kind::kList;
    VKHLO_RETURN_IF_ERROR(reader.ReadList(body, body.shape));
  } else if (Is(TokenKind::kLParen) || IsScalarStart(tok_)) {
    body.kind = DenseBody::Kind::kSplat;
    VKHLO_RETURN_IF_ERROR(reader.ReadElement(body));
  } else {
    return ErrorExpected("elements of dense literal");
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "'>' at the end of dense literal"));
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kColon, "':' and the type of the dense literal"));
  const Token type_token = tok_;
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ParseType());
  if (!type.is_tensor()) return ErrorAt(type_token, "a dense literal needs a tensor type");
  if (!type.is_static()) {
    return ErrorAt(type_token, fmt::format("a dense literal needs a static shape, found {}", type.ToString()));
  }

  std::vector<uint8_t> bytes;
  switch (body.kind) {
    case DenseBody::Kind::kEmpty:
      if (type.num_elements() != 0) {
        return ErrorAt(start, fmt::format("dense<> needs a type without elements, found {}", type.ToString()));
      }
      break;
    case DenseBody::Kind::kHex: {
      VKHLO_ASSIGN_OR_RETURN(bytes, reader.DecodeHex(body.hex, type));
      break;
    }
    case DenseBody::Kind::kList:
      if (body.shape != type.dims()) {
        return ErrorAt(start, fmt::format("shape of the tensor literal ({}) does not match its type ({})",
                                          ShapeText(body.shape), type.ToString()));
      }
      [[fallthrough]];
    case DenseBody::Kind::kSplat: {
      VKHLO_ASSIGN_OR_RETURN(bytes, reader.Convert(body, type.element_type(), start));
      if (body.kind == DenseBody::Kind::kSplat && type.num_elements() == 0) bytes.clear();
      break;
    }
  }
  auto literal = ir::Literal::FromBytes(type, std::move(bytes));
  if (!literal.ok()) return ErrorAt(start, literal.status().message());
  return ir::Attribute::Dense(std::move(literal).value());
}

StatusOr<ir::Attribute> Parser::ParseDenseArray() {
  const Token start = tok_;
  Advance();  // array
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kLess, "'<' after 'array'"));
  const Token type_token = tok_;
  VKHLO_ASSIGN_OR_RETURN(ir::ElementType element, ParseElementTypeName());
  if (ir::IsComplex(element)) return ErrorAt(type_token, "array<...> of complex elements is not supported");
  DenseReader reader(*this);
  DenseBody body;
  if (ConsumeIf(TokenKind::kColon)) {
    do {
      VKHLO_RETURN_IF_ERROR(reader.ReadScalar(body));
    } while (ConsumeIf(TokenKind::kComma));
  }
  VKHLO_RETURN_IF_ERROR(Expect(TokenKind::kGreater, "',' or '>' in array<...>"));
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, reader.Convert(body, element, start));
  const ir::Type type = ir::Type::Tensor(element, {static_cast<int64_t>(body.scalars.size())});
  auto literal = ir::Literal::FromBytes(type, std::move(bytes));
  if (!literal.ok()) return ErrorAt(start, literal.status().message());
  return ir::Attribute(ir::Attribute::DenseArray{std::move(literal).value()});
}

}  // namespace vkhlo::frontend::internal
