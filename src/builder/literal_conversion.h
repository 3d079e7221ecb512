// Between vkhlo::Literal (the public host value) and ir::Literal (the IR's), for the builder's
// constants and for the runtime's transfers. Both keep elements row-major with the same storage
// per element, so array conversions copy bytes; a public literal's layout is not part of the
// IR's value (the IR is row-major) and is dropped, and literals made from IR values get the
// default layout.
#pragma once

#include <vector>

#include "ir/literal.h"
#include "vkhlo/literal.h"
#include "vkhlo/status.h"

namespace vkhlo::internal {

// An array literal as an IR tensor literal (fails for tuples and tokens).
StatusOr<ir::Literal> ToIrLiteral(const Literal& literal);
// An IR tensor literal (a splat is expanded) as an array literal. Fails for quantized tensors.
StatusOr<Literal> FromIrLiteral(const ir::Literal& literal);

}  // namespace vkhlo::internal
