// Between the public types (PrimitiveType, Shape) and the IR's (ElementType, Type). Used by the
// builder, and by the runtime where it meets the public API.
#pragma once

#include <optional>

#include "ir/element_type.h"
#include "ir/type.h"
#include "vkhlo/primitive_type.h"
#include "vkhlo/shape.h"
#include "vkhlo/status.h"

namespace vkhlo::internal {

// nullopt for TUPLE, TOKEN and invalid types.
std::optional<ir::ElementType> ToElementType(PrimitiveType type);
PrimitiveType FromElementType(ir::ElementType type);

// Array shapes become tensors (the layout is dropped: the IR is row-major), tuples tuples,
// tokens tokens. Fails for shapes ShapeUtil::ValidateShape rejects.
StatusOr<ir::Type> ToIrType(const Shape& shape);
// Tensors get the default layout. Fails for quantized tensors (no PrimitiveType holds them).
StatusOr<Shape> FromIrType(const ir::Type& type);

}  // namespace vkhlo::internal
