// The op table: every op vkhlo knows, with its name, kind, arity and traits (see op_table.def).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace vkhlo::ir {

enum class OpKind : uint8_t {
  kElementwise, kReduction, kDataMovement, kLibrary, kControlFlow, kCollective,
  kConstant, kStructural, kTest, kChlo, kOther,
};
std::string_view OpKindName(OpKind kind);

// Where an op executes once compiled (op_table.def explains each).
enum class OpRuns : uint8_t { kKernel, kLibrary, kHost, kDecomposed, kInterpreter };
std::string_view OpRunsName(OpRuns runs);

// The pretty (custom) syntax of an op, read by frontend/custom_ops.cc.
enum class TypeForm : uint8_t {
  kFunctional,        // only `(operands) -> results`
  kSameOrFunctional,  // `t`: every operand and the one result have type t
  kResults,           // `t1, t2`: the result types
  kOperands,          // `t1, t2`: the operand types (one type: all operands); no results
  kPairwise,          // `t1, t2`: operand i and result i have type ti
  kSelect,            // `pred_type, t`: on_true, on_false and the result have type t
  kComplex,           // `t`: the complex result; both operands have its part type
  kTuple,             // `tuple<...>`: the result; operands are its elements
};
// The syntax of a keyword's value and the attribute it makes.
enum class KeywordValue : uint8_t {
  kI64Array,       // [1, 2]            -> array<i64: 1, 2>
  kI64,            // 3                 -> 3 : i64
  kI32,            // 3                 -> 3 : i32
  kBool,           // true              -> true
  kF64,            // 0.1               -> 0.1 : f64
  kString,         // "text"
  kEnum,           // LT                -> #stablehlo<kind LT>
  kExpMantissa,    // e5m2              -> exponent_bits = 5 : i32, mantissa_bits = 2 : i32
  kPrecisionList,  // [DEFAULT, HIGH]   -> [#stablehlo<precision DEFAULT>, ...]
};
struct PrettyKeyword {
  std::string_view keyword;    // "dims"
  std::string_view attribute;  // the attribute it sets: "broadcast_dimensions"
  KeywordValue value = KeywordValue::kI64;
  std::string_view enum_kind = {};  // kEnum: "fft_type", ...
};
// The forms with a grammar of their own (frontend/custom_ops_special.cc).
enum class SpecialForm : uint8_t {
  kNone,  // a Plain or Keywords form
  kConstant, kCompare, kSlice, kGetTupleElement, kDotGeneral, kConvolution, kReduce, kWhile, kIf,
  kCustomCall, kComposite, kCall, kTopK, kScan, kCheckConst,
};
struct PrettyForm {
  static constexpr int kMaxKeywords = 3;
  SpecialForm special = SpecialForm::kNone;
  TypeForm types = TypeForm::kSameOrFunctional;
  std::array<PrettyKeyword, kMaxKeywords> keyword_table = {};  // the first num_keywords are set
  int num_keywords = 0;
  std::span<const PrettyKeyword> keywords() const { return {keyword_table.data(), static_cast<size_t>(num_keywords)}; }
};

enum class OpCode : uint16_t {
#define X(enumerator, name, kind, min_operands, max_operands, results, regions, runs, cost, form) k##enumerator,
#include "ir/op_table.def"
#undef X
};

inline constexpr int kVariadic = -1;

struct OpInfo {
  OpCode code;
  std::string_view name;  // "stablehlo.add"
  OpKind kind;
  int min_operands;
  int max_operands;  // kVariadic: no upper bound
  int num_results;   // kVariadic: any number
  int num_regions;   // kVariadic: any number (case)
  OpRuns runs;
  int element_cost;  // per element in a fused kernel, in adds (op_table.def)
  PrettyForm pretty;
};

const OpInfo& GetOpInfo(OpCode code);
// Looks an op up by its full name ("stablehlo.add", "func.call"). nullopt for unknown ops.
std::optional<OpCode> LookupOp(std::string_view name);
int NumOpCodes();

}  // namespace vkhlo::ir
