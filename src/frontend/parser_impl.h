// The recursive-descent parser behind parser.h. One Parser object reads one text; its methods
// are spread over several files, one concept each:
//   parser_core.cc         tokens, errors, recursion guard, number literals
//   type_parser.cc         tensor/tuple/token/quantized/function types
//   attribute_parser.cc    attribute values, dictionaries, arrays, opaque dialect attributes
//   dense_parser.cc        dense<...> / array<...> literals and hex blobs into Literal bytes
//   stablehlo_attributes.cc  #stablehlo.dot/conv/gather/... and enum validation
//   module_parser.cc       module, func.func, regions, blocks, SSA name scopes
//   op_parser.cc           operations: result lists, the generic form, type signatures
//   custom_ops*.cc         the pretty (custom) forms of ops, dispatched by op code
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "ir/attribute.h"
#include "ir/module.h"
#include "ir/op_table.h"
#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::internal {

// Deeper nesting than this (types, attributes, regions) is an error, not a stack overflow.
inline constexpr int kMaxNestingDepth = 200;

// A use of an SSA value, with where it was written (for type-mismatch messages).
struct OperandUse {
  ir::Value* value = nullptr;
  Token token;
};

// A block argument being declared: `%name: type` (or a pretty op's iteration variable).
struct BlockArgDef {
  Token name;  // kPercentId
  ir::Type type;
};

// The parts of a `: ...` type signature of an op.
struct TypeSig {
  Token at;                       // first token after ':'
  bool functional = false;        // `(inputs) -> results` or `inputs -> results`
  std::vector<ir::Type> inputs;   // functional only
  std::vector<ir::Type> results;  // functional only
  std::vector<ir::Type> list;     // non-functional: the plain type list
};

// How a pretty op's plain type list (`: t1, t2`) maps to operands and results. Every form also
// accepts a functional type.
// How a pretty form's type list maps to operands and results (a trait in ir/op_table.def).
using TypeForm = ir::TypeForm;

// An operation while it is being parsed. The ir::Operation exists from the start (so regions
// can be attached to it) with placeholder result types that Finish sets.
struct OpState {
  ir::OpCode code{};
  Token name_token;
  ir::Location location;
  size_t num_results = 0;  // named on the left of '='
  std::unique_ptr<ir::Operation> op;
  std::vector<OperandUse> operands;
  std::vector<ir::NamedAttribute> attributes;
  std::vector<ir::Type> result_types;
  bool has_result_types = false;
};

// Per-kind validity of `#stablehlo<kind VALUE>` enums.
Status ValidateEnumValue(std::string_view dialect, std::string_view kind, std::string_view value,
                         bool* known_kind);

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options);

  // ---- Entry points ----
  StatusOr<std::unique_ptr<ir::Module>> ParseWholeModule();
  StatusOr<ir::Type> ParseWholeType();
  StatusOr<ir::Attribute> ParseWholeAttribute();

  // ---- Tokens and errors (parser_core.cc) ----
  const Token& tok() const { return tok_; }
  // End offset (in the source) of the last consumed token.
  size_t prev_end() const { return prev_end_; }
  std::string_view source() const { return lexer_.source(); }
  void Advance();
  bool Is(TokenKind kind) const { return tok_.kind == kind; }
  bool IsKeyword(std::string_view word) const { return tok_.IsKeyword(word); }
  bool ConsumeIf(TokenKind kind);
  bool ConsumeKeywordIf(std::string_view word);
  // "expected <what>, found <token>" unless the current token is `kind` (then consumes it).
  Status Expect(TokenKind kind, std::string_view what);
  Status Expect(TokenKind kind);
  Status ExpectKeyword(std::string_view word);
  // The token after the current one, without consuming anything.
  Token PeekNext();
  // Re-lexes from `offset`, a position on the current token's line at or after its start.
  void RescanFrom(size_t offset);

  Status ErrorAt(const Token& token, std::string_view message) const;
  Status ErrorAtOffset(size_t offset, std::string_view message) const;
  Status ErrorAtLocation(ir::Location location, std::string_view message) const;
  // "expected <what>, found <current token>" (or the lexer's message on a bad token).
  Status ErrorExpected(std::string_view what) const;
  std::string Describe(const Token& token) const;
  ir::Location LocationOf(const Token& token) const;

  // Nesting guard: `auto guard = EnterNesting(); if (!guard.ok()) return guard.status;`
  struct NestingGuard {
    Parser* parser;
    Status status;
    bool ok() const { return status.ok(); }
    ~NestingGuard() {
      if (parser != nullptr) --parser->depth_;
    }
    NestingGuard(Parser* p, Status s) : parser(p), status(std::move(s)) {}
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
  };
  NestingGuard EnterNesting();

  // ---- Number literals (parser_core.cc) ----
  // An integer literal, optionally preceded by '-': its magnitude and sign.
  struct IntLiteral {
    uint64_t magnitude = 0;
    bool negative = false;
    bool hex = false;
    Token token;
  };
  StatusOr<IntLiteral> ParseIntLiteral();
  // The literal of an integer token already consumed.
  StatusOr<IntLiteral> IntLiteralFromToken(const Token& token, bool negative) const;
  StatusOr<int64_t> ParseInt64();
  // Integer bits of `literal` in `type` (i1, signed or unsigned), range-checked.
  StatusOr<uint64_t> IntegerBits(const IntLiteral& literal, ir::ElementType type) const;
  // Bits of a float element of `type` from a token (decimal, hex bit pattern, int, inf/nan).
  StatusOr<uint64_t> FloatBits(const Token& token, bool negative, ir::ElementType type) const;
  // `[1, -2, 3]`.
  StatusOr<std::vector<int64_t>> ParseI64List();
  StatusOr<bool> ParseBool();
  // A float literal (or int) as f64 bits.
  StatusOr<double> ParseDouble();

  // ---- Types (type_parser.cc) ----
  StatusOr<ir::Type> ParseType();
  StatusOr<ir::Type> ParseTensorType();
  StatusOr<ir::QuantizedElement> ParseQuantizedElement();
  StatusOr<ir::Type> ParseBounds(ir::Type type);  // #stablehlo.bounds<...> after a tensor element type
  // A scalar element type name (f32, ui8, complex<f32>), for attributes and array<...>.
  StatusOr<ir::ElementType> ParseElementTypeName();
  // `(t, ...) -> t` or `(t, ...) -> (t, ...)`.
  Status ParseFunctionType(std::vector<ir::Type>& inputs, std::vector<ir::Type>& results);
  // Result part after '->': one type or a parenthesized list.
  Status ParseFunctionResults(std::vector<ir::Type>& results);
  Status ParseTypeList(std::vector<ir::Type>& out);  // t (, t)*

  // ---- Attributes (attribute_parser.cc) ----
  StatusOr<ir::Attribute> ParseAttribute();
  // `{name = value, name, "quoted" = value}`; the current token is '{'.
  Status ParseDictionary(std::vector<ir::NamedAttribute>& out);
  // If the current token is '{', parses a dictionary into `out`.
  Status ParseOptionalAttrDict(std::vector<ir::NamedAttribute>& out);
  // `attributes {...}` if present.
  Status ParseOptionalAttrDictWithKeyword(std::vector<ir::NamedAttribute>& out);
  StatusOr<std::string> ParseStringLiteral();  // decoded
  StatusOr<std::string> ParseSymbolName();     // @name / @"name" -> name
  StatusOr<ir::Attribute> ParseHashAttribute();
  StatusOr<ir::Attribute> ParseOpaqueAttribute(const Token& start);
  // Scalar number attribute: `1 : i32`, `-1.5 : f32`, `0x7FC00000 : f32`, `7` (i64).
  StatusOr<ir::Attribute> ParseNumberAttribute();
  // An enum word of `kind` (`LT`), validated, as #stablehlo<kind WORD>.
  StatusOr<ir::Attribute> ParseEnumKeyword(std::string_view kind);
  StatusOr<ir::Attribute> ParsePrecisionList();  // [DEFAULT, HIGH]

  // ---- Dense literals (dense_parser.cc) ----
  StatusOr<ir::Attribute> ParseDenseElements();  // dense<...> : type
  StatusOr<ir::Attribute> ParseDenseArray();     // array<i64: 1, 2>

  // ---- Structured StableHLO attributes (stablehlo_attributes.cc) ----
  // `name` is the hash token text, e.g. "#stablehlo.dot"; the current token is '<'.
  StatusOr<ir::Attribute> ParseStructuredAttribute(const Token& name, bool* handled);
  StatusOr<ir::ConvDimensionNumbers> ParseConvDimensions();  // [b, 0, f]x[...]->[...]
  // `<lhs_precision_type = ...>`: a DotAlgorithm, or opaque "#stablehlo.dot_algorithm<...>" text
  // when a precision type has no vkhlo element type (tf32).
  StatusOr<ir::Attribute> ParseDotAlgorithmBody();

  // ---- Module structure (module_parser.cc) ----
  Status ParseTopLevel(ir::Module& module);
  Status ParseModuleOp(ir::Module& module);
  Status ParseFunction(ir::Module& module);
  Status ParseAliasDefinition();
  // `{ [^bb(args):] ops }` into `region`. `entry_args` (from a pretty form or function
  // signature) become the entry block's arguments.
  Status ParseRegion(ir::Region& region, std::span<const BlockArgDef> entry_args);
  Status ParseBlockBody(ir::Block& block);
  StatusOr<BlockArgDef> ParseBlockArgDef();  // %name : type [loc]

  // SSA names.
  void PushScope();
  void PopScope();
  Status DefineValues(const Token& name, ir::Operation* op, uint32_t first, uint32_t count);
  Status DefineArgument(const Token& name, ir::Value* value);
  StatusOr<OperandUse> ParseOperandUse();
  // `%a, %b#1, ...` (possibly empty) while the current token is an SSA name. Stops after a
  // ',' that is not followed by an operand; *trailing_comma tells whether that happened.
  Status ParseOperandList(std::vector<OperandUse>& out, bool* trailing_comma);
  // `(%a, %b)` including the parentheses.
  Status ParseParenOperandList(std::vector<OperandUse>& out);

  // ---- Operations (op_parser.cc) ----
  Status ParseOperation(ir::Block& block);
  // After the op name of the generic form: (operands) <{props}> (regions) {attrs} : type.
  Status ParseGenericBody(OpState& state);
  Status ParseColonTypeSig(TypeSig& sig);
  // Applies `sig` to the op's operands (checking their types) and results.
  Status ResolveTypes(OpState& state, const TypeSig& sig, TypeForm form);
  Status CheckOperandTypes(const OpState& state, std::span<const ir::Type> types, const Token& at);
  Status SetResultTypes(OpState& state, std::vector<ir::Type> types);
  // Sorts and de-duplicates attributes, moves everything into state.op.
  Status FinishOperation(OpState& state);

 private:
  struct ValueEntry {
    ir::Operation* op = nullptr;  // results [first, first + count) of op
    ir::Value* argument = nullptr;  // or one block argument
    uint32_t first = 0;
    uint32_t count = 1;
  };

  Lexer lexer_;
  Token tok_;
  size_t prev_end_ = 0;  // end offset of the last consumed token
  ParseOptions options_;
  int depth_ = 0;
  std::unordered_map<std::string_view, ValueEntry> values_;
  std::vector<std::vector<std::string_view>> scopes_;
  std::unordered_map<std::string_view, ir::Attribute> aliases_;
};

// The custom-form parser of an op (nullptr: the op has no dedicated form; a default form
// `operands attr-dict : types` is used). Called with the op name consumed.
using CustomOpParser = Status (*)(Parser& parser, OpState& state);
CustomOpParser FindCustomOpParser(ir::OpCode code);
// The default pretty form: `operands [attr-dict] [: types]`.
Status ParseDefaultCustomForm(Parser& parser, OpState& state);

// Stores `bits` (an element of `type`) in its Literal storage layout at `dst`.
void StoreElementBits(uint8_t* dst, ir::ElementType type, uint64_t bits);

}  // namespace vkhlo::frontend::internal
