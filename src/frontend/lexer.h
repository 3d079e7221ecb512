// The lexer of MLIR text: zero-copy tokens (views into the source) with 1-based line/column.
//
// It follows MLIR's token grammar closely enough for StableHLO programs:
//   bare identifiers  [a-zA-Z_][a-zA-Z0-9_$.]*          (stablehlo.add, tensor, f32, x)
//   %name %0 ^bb0 #attr #1 !type                        (prefixed identifiers)
//   @sym @"quoted sym"                                  (symbol references)
//   integers (decimal, 0x hex), floats ([0-9]+.[0-9]*([eE][-+]?[0-9]+)?), "strings"
//   punctuation ( ) [ ] { } < > , : = ? * + - -> ::
// `//` comments and whitespace are skipped. `loc(...)` (source locations, which vkhlo does not
// keep) is returned as one kLocation token spanning the balanced parentheses, so the parser can
// drop it wherever MLIR allows one without knowing its inner grammar.
//
// Errors (bad characters, unterminated strings) come back as a kError token whose text is the
// offending spot; error_message() says what is wrong.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace vkhlo::frontend {

// Value of a hex digit by byte, -1 for anything else: a table, because decoding hex blobs (the
// bulk of real files) runs through it once per character.
inline constexpr std::array<int8_t, 256> kHexDigitValues = [] {
  std::array<int8_t, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = -1;
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<int8_t>(c - 'A' + 10);
  return t;
}();

enum class TokenKind : uint8_t {
  kEof,
  kError,
  kBareIdent,   // tensor, stablehlo.add, f32, x, e5m2
  kPercentId,   // %0, %arg0 (text includes '%')
  kCaretId,     // ^bb0
  kHashId,      // #stablehlo.conv, #loc3, #1
  kBangId,      // !stablehlo.token
  kAtId,        // @main, @"quoted" (text includes '@' and the quotes)
  kInteger,     // 12, 0x7FC00000
  kFloat,       // 1.5, 2.0e-3
  kString,      // "text" (text includes the quotes; escapes not decoded)
  kLocation,    // loc(...) — skipped by the parser
  kLParen, kRParen, kLSquare, kRSquare, kLBrace, kRBrace, kLess, kGreater,
  kComma, kColon, kColonColon, kEqual, kQuestion, kStar, kPlus, kMinus, kArrow,
  kFileMetadataBegin,  // {-#
};

// "identifier", "'('", ... for messages.
std::string_view TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string_view text;
  uint32_t line = 1;    // relative to the lexed text (1-based)
  uint32_t column = 1;  // 1-based, in bytes
  // Byte offset of the token in the source.
  size_t offset = 0;

  bool is(TokenKind k) const { return kind == k; }
  bool IsKeyword(std::string_view word) const { return kind == TokenKind::kBareIdent && text == word; }
};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  // The next token (kEof at the end, forever).
  Token Next();

  // Position save/restore, for the parser's occasional extra lookahead.
  struct State {
    size_t pos = 0;
    uint32_t line = 1;
    size_t line_start = 0;
  };
  State state() const { return {pos_, line_, line_start_}; }
  void set_state(const State& s) {
    pos_ = s.pos;
    line_ = s.line;
    line_start_ = s.line_start;
  }
  // The state at the start of `token` (which this lexer produced).
  State StateAt(const Token& token) const {
    return {token.offset, token.line, token.offset - (token.column - 1)};
  }

  std::string_view source() const { return source_; }
  // Why the last kError token was produced.
  const std::string& error_message() const { return error_; }

 private:
  Token Make(TokenKind kind, size_t start, uint32_t line, size_t line_start) const;
  Token Error(size_t start, std::string message);
  void SkipWhitespaceAndComments();
  Token LexNumber(size_t start);
  Token LexString(size_t start, TokenKind kind);
  Token LexPrefixed(size_t start, TokenKind kind);
  Token LexLocation(size_t start, uint32_t line, size_t line_start);

  std::string_view source_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_start_ = 0;
  std::string error_;
};

// Character classes (table-driven; shared with the parser's dimension scanner).
bool IsIdentStart(char c);
bool IsIdentChar(char c);     // bare identifiers: letters, digits, _ $ .
bool IsSuffixIdChar(char c);  // %/^/#/! identifiers: letters, digits, _ $ . -
bool IsDigit(char c);
// Value of a hex digit, or -1.
inline int HexDigitValue(char c) { return kHexDigitValues[static_cast<unsigned char>(c)]; }

// Decodes a string token's body (between the quotes): \" \\ \n \t and \XX hex escapes.
// Returns false on a malformed escape.
bool UnescapeString(std::string_view body, std::string* out);

}  // namespace vkhlo::frontend
