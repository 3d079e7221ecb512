// vkhlo's umbrella header: everything an embedder uses, with only the C++ standard library
// beneath it (no Vulkan, glslang or SPIRV-Tools header).
//
//   #include <vkhlo/vkhlo.h>
//
//   vkhlo::XlaBuilder b("axpy");
//   auto x = vkhlo::Parameter(&b, 0, vkhlo::ShapeUtil::MakeShape(vkhlo::F32, {4}), "x");
//   vkhlo::Add(vkhlo::Mul(vkhlo::ConstantR0<float>(&b, 2.0f), x), x);
//   auto computation = b.Build();                                   // StatusOr<XlaComputation>
//   auto client = vkhlo::Client::Create();                          // the device (environment)
//   auto arg = vkhlo::LiteralUtil::CreateR1<float>({1, 2, 3, 4});
//   auto result = (*client)->ExecuteAndTransfer(*computation, {&arg});  // StatusOr<Literal>
//
// Link with the `vkhlo::vkhlo` CMake target (find_package(vkhlo CONFIG)) or `pkg-config vkhlo`.
#pragma once

#include "vkhlo/status.h"          // Status, StatusOr
#include "vkhlo/primitive_type.h"  // PrimitiveType (F32, S32, PRED, ...), primitive_util
#include "vkhlo/types.h"           // bfloat16, half, int4, float8 types, complex64
#include "vkhlo/shape.h"           // Shape, Layout, ShapeUtil, ProgramShape
#include "vkhlo/literal.h"         // Literal, LiteralUtil
#include "vkhlo/xla_data.h"        // DotDimensionNumbers, ConvolutionDimensionNumbers, ...
#include "vkhlo/xla_computation.h" // XlaComputation
#include "vkhlo/xla_builder.h"     // XlaBuilder, XlaOp
#include "vkhlo/xla_ops.h"         // the op functions: Add, Dot, Reduce, While, ...
#include "vkhlo/runtime.h"         // Client, Executable, Buffer
#include "vkhlo/portable_artifact.h" // StableHLO portable artifacts: versions read, headers
#include "vkhlo/custom_call.h"     // custom_call targets: SPIR-V kernels, host callbacks
#include "vkhlo/process_grid.h"    // RunProcessGrid, CreateProcessClients, FeedQueue
