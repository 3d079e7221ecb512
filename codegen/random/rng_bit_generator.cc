// stablehlo.rng_bit_generator as a device kernel, bit-exact with the interpreter
// (src/interp/random_ops.cc, which is XLA's RngBitGeneratorExpander): THREE_FRY (Threefry-2x32,
// 20 rounds), PHILOX (Philox-4x32, 10 rounds; a 2-element state uses the key as the counter's
// high word) and DEFAULT (= PHILOX, as the interpreter), every integer and float output type.
// Element i is a pure function of the state and i (the interpreter's layout: THREE_FRY outputs
// of 32 bits or fewer pair elements along one dimension, ir/threefry_layout.h; PHILOX four
// 32-bit or two 64-bit values per block), so each invocation computes its own elements — whole output words,
// so packed narrow elements never share a word between invocations. All arithmetic is 32-bit
// (64-bit counters carry by hand; Philox's high products by umulExtended): no shaderInt64.
// Invocation 0 also writes the new state. The kernel is shaders/random/rng_bit_generator.comp;
// this file chooses its variant and dispatch.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/fixed_kernel.h"
#include "codegen/random/rng_kernels.h"
#include "ir/threefry_layout.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;

std::string Algorithm(const ir::Operation& op) {
  std::string algorithm = "DEFAULT";
  if (const ir::Attribute* a = op.attribute("rng_algorithm")) algorithm = a->AsEnum("rng_algorithm").value_or(algorithm);
  return algorithm == "DEFAULT" ? "PHILOX" : algorithm;
}

bool AcceptsRngBitGenerator(const ir::Operation& op) {
  if (op.num_operands() != 1 || op.num_results() != 2) return false;
  const ir::Type& state = op.operand(0)->type();
  const ir::ElementType out = op.result(1)->type().element_type();
  if (state.rank() != 1 || state.element_type() != ir::ElementType::kU64) return false;
  if (ir::IsComplex(out) || ir::BitWidth(out) > 64) return false;
  const std::string algorithm = Algorithm(op);
  const int64_t size = state.dims()[0];
  return (algorithm == "THREE_FRY" && size == 2) || (algorithm == "PHILOX" && (size == 2 || size == 3));
}

StatusOr<DeviceKernel> EmitRngBitGenerator(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  const std::string algorithm = Algorithm(op);
  const int64_t state_size = op.operand(0)->type().dims()[0];
  const ir::ElementType et = op.result(1)->type().element_type();
  const int width = ir::BitWidth(et);
  const int storage = GetTypeFacts(et, target).storage_bits;
  const int64_t n = op.result(1)->type().num_elements();
  const bool wide = width > 32;
  const bool three_fry = algorithm == "THREE_FRY";
  // Blocks consumed: the counter advance.
  const ir::ThreeFryLayout split = ir::ThreeFryLayoutOf(op.result(1)->type().dims());
  const int64_t advance = three_fry ? (wide ? n : split.blocks) : (wide ? (n + 1) / 2 : (n + 3) / 4);
  const uint32_t per = storage < 32 ? static_cast<uint32_t>(32 / storage) : 1;
  const int64_t items = (n + per - 1) / per;

  DeviceKernel k;
  k.summary = fmt::format("rng_bit_generator {} of {} x {} bits", algorithm, n, width);
  KernelDispatch d;
  d.name = fusion.name + ".rng_bit_generator";
  d.summary = k.summary;
  d.bindings = {KernelBuffer::Read(fusion.inputs.at(0)), KernelBuffer::Write(fusion.outputs.at(0)),
                KernelBuffer::Write(fusion.outputs.at(1))};
  d.grid = {static_cast<uint32_t>(std::max<int64_t>(1, (items + kGroup - 1) / kGroup)), 1, 1};
  FixedKernelSource src;
  src.file = "random/rng_bit_generator.comp";
  src.Describe(d.name, op, options.source_name)
      .Config(k.summary)
      .Config(three_fry ? fmt::format("{} blocks of the counter, split over dimension {}", advance, split.dim)
                        : fmt::format("{} blocks of the counter", advance));
  src.DefineFlag("THREE_FRY", three_fry)
      .DefineInt("STATE_SIZE", state_size)
      .DefineFlag("WIDE", wide)
      .DefineInt("VALUE_BITS", width)
      .DefineInt("STORAGE_BITS", storage)
      .DefineFlag("SIGNED", ir::IsSignedInteger(et))
      .DefineUint("N", static_cast<uint64_t>(n))
      .DefineUint("ITEMS", static_cast<uint64_t>(items))
      .DefineUint("ADVANCE", static_cast<uint32_t>(advance))
      .DefineUint("SPLIT_DIM", static_cast<uint64_t>(std::max<int64_t>(1, split.dim)))
      .DefineUint("SPLIT_INNER", static_cast<uint64_t>(split.inner))
      .DefineUint("GROUP", kGroup);
  VKHLO_ASSIGN_OR_RETURN(d.glsl, FixedKernelGlsl(d.bindings, {kGroup, 1, 1}, "", {}, src));
  k.dispatches.push_back(std::move(d));
  return k;
}

}  // namespace

void RegisterRandomKernels(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kRngBitGenerator, {&EmitRngBitGenerator, &AcceptsRngBitGenerator});
  RegisterRngKernel(table);
}

}  // namespace vkhlo::codegen
