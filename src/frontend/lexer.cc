#include "frontend/lexer.h"

#include <array>

namespace vkhlo::frontend {
namespace {

// One table of character classes: a lookup per byte keeps the hot loops (identifiers, hex
// blobs inside strings) branch-light.
enum CharClass : uint8_t {
  kIdentStart = 1,   // letters and '_'
  kIdentChar = 2,    // bare identifier continuation
  kSuffixChar = 4,   // prefixed identifier continuation
  kDigitClass = 8,
  kStringPlain = 16,  // may appear in a string without special handling
};

constexpr std::array<uint8_t, 256> MakeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    uint8_t v = 0;
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    if (letter || c == '_') v |= kIdentStart;
    if (letter || digit || c == '_' || c == '$' || c == '.') v |= kIdentChar;
    if (letter || digit || c == '_' || c == '$' || c == '.' || c == '-') v |= kSuffixChar;
    if (digit) v |= kDigitClass;
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') v |= kStringPlain;
    t[c] = v;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = MakeClasses();


inline uint8_t Class(char c) { return kClasses[static_cast<unsigned char>(c)]; }

// Length of the valid UTF-8 sequence starting at s[0] (a byte >= 0x80), or 0 if invalid.
size_t Utf8SequenceLength(std::string_view s) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return n;
}

std::string DescribeByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return std::string("'") + c + "'";
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("byte 0x") + kDigits[u >> 4] + kDigits[u & 15];
}

}  // namespace

bool IsIdentStart(char c) { return Class(c) & kIdentStart; }
bool IsIdentChar(char c) { return Class(c) & kIdentChar; }
bool IsSuffixIdChar(char c) { return Class(c) & kSuffixChar; }
bool IsDigit(char c) { return Class(c) & kDigitClass; }

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEof: return "end of input";
    case TokenKind::kError: return "invalid token";
    case TokenKind::kBareIdent: return "identifier";
    case TokenKind::kPercentId: return "SSA value";
    case TokenKind::kCaretId: return "block label";
    case TokenKind::kHashId: return "attribute alias";
    case TokenKind::kBangId: return "dialect type";
    case TokenKind::kAtId: return "symbol";
    case TokenKind::kInteger: return "integer";
    case TokenKind::kFloat: return "float";
    case TokenKind::kString: return "string";
    case TokenKind::kLocation: return "location";
    case TokenKind::kLParen: return "'('";
    case TokenKind::kRParen: return "')'";
    case TokenKind::kLSquare: return "'['";
    case TokenKind::kRSquare: return "']'";
    case TokenKind::kLBrace: return "'{'";
    case TokenKind::kRBrace: return "'}'";
    case TokenKind::kLess: return "'<'";
    case TokenKind::kGreater: return "'>'";
    case TokenKind::kComma: return "','";
    case TokenKind::kColon: return "':'";
    case TokenKind::kColonColon: return "'::'";
    case TokenKind::kEqual: return "'='";
    case TokenKind::kQuestion: return "'?'";
    case TokenKind::kStar: return "'*'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kArrow: return "'->'";
    case TokenKind::kFileMetadataBegin: return "'{-#'";
  }
  return "token";
}

Token Lexer::Make(TokenKind kind, size_t start, uint32_t line, size_t line_start) const {
  Token t;
  t.kind = kind;
  t.text = source_.substr(start, pos_ - start);
  t.line = line;
  t.column = static_cast<uint32_t>(start - line_start + 1);
  t.offset = start;
  return t;
}

Token Lexer::Error(size_t start, std::string message) {
  error_ = std::move(message);
  if (pos_ <= start) pos_ = start + 1;
  if (pos_ > source_.size()) pos_ = source_.size();
  Token t = Make(TokenKind::kError, start, line_, line_start_);
  // Errors are sticky: lexing stops here so that no later token hides the message.
  pos_ = source_.size();
  return t;
}

void Lexer::SkipWhitespaceAndComments() {
  const size_t n = source_.size();
  while (pos_ < n) {
    const char c = source_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < n && source_[pos_ + 1] == '/') {
      // Comments may hold any bytes up to the end of the line.
      const size_t end = source_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? n : end;
    } else {
      return;
    }
  }
}

Token Lexer::Next() {
  SkipWhitespaceAndComments();
  const size_t start = pos_;
  const uint32_t line = line_;
  const size_t line_start = line_start_;
  if (pos_ >= source_.size()) return Make(TokenKind::kEof, start, line, line_start);
  const char c = source_[pos_];
  const auto punct = [&](TokenKind kind, size_t length) {
    pos_ += length;
    return Make(kind, start, line, line_start);
  };
  const char next = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
  switch (c) {
    case '(': return punct(TokenKind::kLParen, 1);
    case ')': return punct(TokenKind::kRParen, 1);
    case '[': return punct(TokenKind::kLSquare, 1);
    case ']': return punct(TokenKind::kRSquare, 1);
    case '{':
      if (next == '-' && pos_ + 2 < source_.size() && source_[pos_ + 2] == '#') {
        return punct(TokenKind::kFileMetadataBegin, 3);
      }
      return punct(TokenKind::kLBrace, 1);
    case '}': return punct(TokenKind::kRBrace, 1);
    case '<': return punct(TokenKind::kLess, 1);
    case '>': return punct(TokenKind::kGreater, 1);
    case ',': return punct(TokenKind::kComma, 1);
    case ':': return next == ':' ? punct(TokenKind::kColonColon, 2) : punct(TokenKind::kColon, 1);
    case '=': return punct(TokenKind::kEqual, 1);
    case '?': return punct(TokenKind::kQuestion, 1);
    case '*': return punct(TokenKind::kStar, 1);
    case '+': return punct(TokenKind::kPlus, 1);
    case '-': return next == '>' ? punct(TokenKind::kArrow, 2) : punct(TokenKind::kMinus, 1);
    case '"': return LexString(start, TokenKind::kString);
    case '%': return LexPrefixed(start, TokenKind::kPercentId);
    case '^': return LexPrefixed(start, TokenKind::kCaretId);
    case '#': return LexPrefixed(start, TokenKind::kHashId);
    case '!': return LexPrefixed(start, TokenKind::kBangId);
    case '@':
      if (next == '"') {
        ++pos_;
        Token t = LexString(start + 1, TokenKind::kAtId);
        if (t.kind == TokenKind::kError) return t;
        return Make(TokenKind::kAtId, start, line, line_start);
      }
      if (!IsIdentStart(next)) return Error(start, "expected symbol name after '@'");
      ++pos_;
      while (pos_ < source_.size() && IsIdentChar(source_[pos_])) ++pos_;
      return Make(TokenKind::kAtId, start, line, line_start);
    default:
      break;
  }
  if (IsDigit(c)) return LexNumber(start);
  if (IsIdentStart(c)) {
    ++pos_;
    while (pos_ < source_.size() && IsIdentChar(source_[pos_])) ++pos_;
    if (pos_ - start == 3 && source_.compare(start, 3, "loc") == 0 && pos_ < source_.size() &&
        source_[pos_] == '(') {
      return LexLocation(start, line, line_start);
    }
    return Make(TokenKind::kBareIdent, start, line, line_start);
  }
  return Error(start, "unexpected " + DescribeByte(c));
}

Token Lexer::LexNumber(size_t start) {
  const size_t n = source_.size();
  const uint32_t line = line_;
  const size_t line_start = line_start_;
  // Hexadecimal: 0x followed by at least one hex digit (else "0" then an identifier "x...",
  // as MLIR lexes it; shapes like 0x3xf32 are scanned by the type parser, not here).
  if (source_[pos_] == '0' && pos_ + 2 < n && source_[pos_ + 1] == 'x' &&
      HexDigitValue(source_[pos_ + 2]) >= 0) {
    pos_ += 2;
    while (pos_ < n && HexDigitValue(source_[pos_]) >= 0) ++pos_;
    return Make(TokenKind::kInteger, start, line, line_start);
  }
  while (pos_ < n && IsDigit(source_[pos_])) ++pos_;
  bool is_float = false;
  if (pos_ < n && source_[pos_] == '.') {
    is_float = true;
    ++pos_;
    while (pos_ < n && IsDigit(source_[pos_])) ++pos_;
  }
  // Exponent: MLIR requires the '.', vkhlo also accepts "1e5".
  if (pos_ < n && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
    size_t p = pos_ + 1;
    if (p < n && (source_[p] == '+' || source_[p] == '-')) ++p;
    if (p < n && IsDigit(source_[p])) {
      is_float = true;
      pos_ = p;
      while (pos_ < n && IsDigit(source_[pos_])) ++pos_;
    }
  }
  return Make(is_float ? TokenKind::kFloat : TokenKind::kInteger, start, line, line_start);
}

Token Lexer::LexString(size_t start, TokenKind kind) {
  // pos_ is at the opening quote.
  const uint32_t line = line_;
  const size_t line_start = line_start_;
  const size_t n = source_.size();
  ++pos_;
  while (true) {
    // Fast path: plain printable ASCII (hex blobs are megabytes of it).
    while (pos_ < n && (Class(source_[pos_]) & kStringPlain)) ++pos_;
    if (pos_ >= n) return Error(start, "unterminated string literal");
    const char c = source_[pos_];
    if (c == '"') {
      ++pos_;
      return Make(kind, start, line, line_start);
    }
    if (c == '\\') {
      if (pos_ + 1 >= n) return Error(start, "unterminated string literal");
      const char e = source_[pos_ + 1];
      if (e == '"' || e == '\\' || e == 'n' || e == 't') {
        pos_ += 2;
      } else if (pos_ + 2 < n && HexDigitValue(e) >= 0 && HexDigitValue(source_[pos_ + 2]) >= 0) {
        pos_ += 3;
      } else {
        return Error(pos_, "invalid escape sequence in string literal");
      }
      continue;
    }
    if (c == '\n' || c == '\r') return Error(start, "unterminated string literal (end of line)");
    if (c == '\t') {
      ++pos_;
      continue;
    }
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t len = Utf8SequenceLength(source_.substr(pos_));
      if (len == 0) return Error(pos_, "invalid UTF-8 in string literal");
      pos_ += len;
      continue;
    }
    return Error(pos_, "unexpected " + DescribeByte(c) + " in string literal");
  }
}

Token Lexer::LexPrefixed(size_t start, TokenKind kind) {
  const uint32_t line = line_;
  const size_t line_start = line_start_;
  ++pos_;
  const size_t n = source_.size();
  if (pos_ >= n || !IsSuffixIdChar(source_[pos_])) {
    const char prefix = source_[start];
    return Error(start, std::string("expected identifier after '") + prefix + "'");
  }
  if (IsDigit(source_[pos_])) {
    // Numeric ids are digits only (%0, #1), so "%0#1" lexes as %0 and #1.
    while (pos_ < n && IsDigit(source_[pos_])) ++pos_;
  } else {
    while (pos_ < n && IsSuffixIdChar(source_[pos_])) ++pos_;
  }
  return Make(kind, start, line, line_start);
}

Token Lexer::LexLocation(size_t start, uint32_t line, size_t line_start) {
  // pos_ is at '(' after "loc". Skip to the matching ')', stepping over strings.
  const size_t n = source_.size();
  int depth = 0;
  while (pos_ < n) {
    const char c = source_[pos_];
    if (c == '(') {
      ++depth;
      ++pos_;
    } else if (c == ')') {
      ++pos_;
      if (--depth == 0) return Make(TokenKind::kLocation, start, line, line_start);
    } else if (c == '"') {
      const uint32_t saved_line = line_;
      const size_t saved_line_start = line_start_;
      Token s = LexString(pos_, TokenKind::kString);
      if (s.kind == TokenKind::kError) return s;
      line_ = saved_line;
      line_start_ = saved_line_start;
    } else if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else {
      ++pos_;
    }
  }
  line_ = line;
  line_start_ = line_start;
  return Error(start, "unterminated location 'loc('");
}

bool UnescapeString(std::string_view body, std::string* out) {
  out->clear();
  out->reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i + 1 >= body.size()) return false;
    const char e = body[i + 1];
    switch (e) {
      case '"': out->push_back('"'); ++i; continue;
      case '\\': out->push_back('\\'); ++i; continue;
      case 'n': out->push_back('\n'); ++i; continue;
      case 't': out->push_back('\t'); ++i; continue;
      default: break;
    }
    if (i + 2 >= body.size()) return false;
    const int hi = HexDigitValue(e), lo = HexDigitValue(body[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

}  // namespace vkhlo::frontend
