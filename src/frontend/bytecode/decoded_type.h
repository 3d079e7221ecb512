// A type of the bytecode's type table, decoded, before it takes its place in vkhlo's IR.
//
// VHLO and builtin encode more kinds of types than vkhlo's values can have: element types
// stand alone (the type of an integer attribute), function types describe functions, `none`
// marks an absent optional attribute, and some types (unranked tensors, buffers) have no vkhlo
// counterpart. A DecodedType keeps each kind apart; whoever needs a value type asks
// for one and gets a clear error for anything else.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

struct DecodedType {
  enum class Kind : uint8_t {
    kValue,        // a tensor, tuple or token: `value`
    kElement,      // an element type (f32, si8, complex<f32>): `element`
    kQuantized,    // a uniform-quantized element type: `quantized`
    kFunction,     // `function`
    kNone,         // !vhlo.none_v1 or builtin none
    kIndex,        // the index type (tensors of it are values: ir::Type::IndexTensor)
    kUnsupported,  // no vkhlo counterpart
  };
  Kind kind = Kind::kUnsupported;
  ir::Type value;
  ir::ElementType element = ir::ElementType::kF32;
  std::shared_ptr<const ir::QuantizedElement> quantized;
  std::shared_ptr<const ir::FunctionType> function;
  // How MLIR spells the type ("f32", "tensor<?xf32>", "!vhlo.future_v1<...>"), for messages and
  // for type attributes that stay text.
  std::string spelling;

  static DecodedType Value(ir::Type type);
  static DecodedType Element(ir::ElementType element);
  static DecodedType Unsupported(std::string spelling);
  static DecodedType Index();
  static DecodedType None();

  // The value type, or an error naming this type ("values of type tensor<?x4xf32> ...").
  StatusOr<ir::Type> AsValueType() const;
};

// A ranked tensor type of `element` (an element, quantized or index type) with `dims` (kDynamic
// for `?`) and, when given, the bounds of its dimensions (one per dimension, kDynamic for none,
// only on dynamic ones): negative sizes, misplaced bounds and element kinds a tensor cannot hold
// are errors (the message is returned, the caller adds the byte offset).
StatusOr<DecodedType> MakeTensorType(const std::vector<int64_t>& dims, const DecodedType& element,
                                     const std::vector<int64_t>* bounds = nullptr);

// "(tensor<f32>) -> tensor<f32>" types into a function type; every part must be a value type.
StatusOr<DecodedType> MakeFunctionType(const std::vector<const DecodedType*>& inputs,
                                       const std::vector<const DecodedType*>& results);

// complex<part>: an element type for f32 and f64 parts, unsupported otherwise.
DecodedType MakeComplexType(const DecodedType& part);

// A tuple of value types.
StatusOr<DecodedType> MakeTupleType(const std::vector<const DecodedType*>& elements);

}  // namespace vkhlo::frontend::bytecode
