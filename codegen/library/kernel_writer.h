// The parts every matmul-family kernel shares: buffer declarations, the operand load functions
// (`load_a(b, m, k)`, `load_b(b, k, n)` and their vector forms), the output path
// (`out_index`, `epilogue`, `store_c`, StoreTile) and the assembly of the final GLSL text. Variant emitters
// (matmul_register_tiled.cc, matmul_shared_tiled.cc, ...) only write `main`.
#pragma once

#include <string>
#include <vector>

#include "codegen/library/element_io.h"
#include "codegen/library/epilogue.h"
#include "codegen/library/library_kernel.h"
#include "codegen/library/matmul_problem.h"
#include "codegen/shader_writer.h"
#include "codegen/target.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

struct GeneratedEpilogueGlsl;  // epilogue_generate.h

// How an operand's fragment is read in the register-tiled loop.
enum class LoadMode { kScalar, kVecInner, kVecOuter };  // vectors along cols / along rows

class KernelWriter {
 public:
  KernelWriter(const MatmulProblem& problem, const Epilogue& epilogue, const TargetInfo& target)
      : p_(problem), e_(epilogue), t_(target) {}

  const MatmulProblem& problem() const { return p_; }
  std::string acc() const { return std::string(AccGlslType(p_.acc)); }
  ShaderPrelude& prelude() { return writer_.prelude(); }
  // The shader's writer (bindings are declared through the Declare* functions; extra views of
  // declared bindings, e.g. the cooperative kernel's float16_t views, directly).
  ShaderWriter& writer() { return writer_; }

  // Declares the operands (bindings 0, 1), the epilogue inputs, then the output: the result
  // (`final_output`) or the scratch buffer of partial sums. Defines load_a/load_b (and
  // ix_a/ix_b, ld_a/ld_b), out_index, and store_c or store_partial.
  Status DeclareMatmul(bool final_output);
  // Declares a vector view of operand `x` ('a' or 'b') of `width` elements (2, 4, 8) and a
  // word decoder `wd_<x>(uint) -> ACC`. False when the operand's type has no vector form.
  bool DeclareVectorView(char x, int width);
  // Declares f32 operand `x` once more, as an rgba32f storage texel buffer `<x>_t4` (an extra
  // binding of the same buffer), after DeclareMatmul; VectorLoad / VectorLoadAt of 4 or 8
  // elements then read texels instead of uvec4 words. llvmpipe gathers one texel per lane in
  // straight-line vector code, where a storage-buffer load whose address differs between lanes
  // is a loop over the lanes with a branch per lane. False (nothing declared) unless the device
  // offers rgba32f storage texel buffers, the operand is f32 with f32 accumulation, not
  // quantized, of a known element count that is a multiple of 4 and fits
  // maxTexelBufferElements, and is never split across allocations (a texel view cannot span
  // two).
  bool DeclareTexelView(char x);
  // The same for single elements: an r32f view `<x>_t1` that ScalarLoad reads.
  bool DeclareScalarTexelView(char x);
  // The GLSL expression of operand x's element at `index` (a safe address) in the accumulator's
  // type: the r32f view when declared, else the storage-buffer loader ld_<x>.
  std::string ScalarLoad(char x, const std::string& index) const;
  // Whether operand x reads through a separable index (OperandAccess::split_row) in this
  // kernel: not quantized (its loads subtract zero points). Then `ixr_<x>(b, r, base, pos)`
  // gives the row part (call it once per row), `ixc_<x>(c, base, pos)` the column part (once
  // per column), and SplitIndex the element index and validity of their sum.
  bool HasSplitIndex(char x) const;
  // GLSL statements declaring `uint <index>` and `bool <valid>` for the element at row part
  // (`row_base`, `row_pos`) plus column part (`col_base`, `col_pos`); the index is 0 (a safe
  // address) where invalid.
  std::string SplitIndex(char x, const std::string& row_base, const std::string& row_pos, const std::string& col_base,
                         const std::string& col_pos, const std::string& index, const std::string& valid) const;
  // GLSL statements loading `width` consecutive elements of operand x at (b, r, c) into the
  // variables `names` (which are declared), zero where the run is invalid.
  std::string VectorLoad(char x, int width, const std::string& b, const std::string& r, const std::string& c,
                         const std::vector<std::string>& names);
  // The packed matmul's product: the panels of A and B (scratch 0, 1) as rgba32f texel buffers
  // `pa`, `pb` (bindings 0, 1), the epilogue inputs, the result.
  // With `direct_b`, `pb` is an rgba32f texel view of B itself (binding 1), indexed through
  // ix_b(b, k, n) / 4.
  Status DeclarePackedMatmul(bool direct_b = false);
  // After DeclarePackedMatmul: an aliased uvec4 view of the result and
  // `store_c4(b, m, n, vec4 acc)`, which stores the epilogue of 4 columns n .. n + 3 (n a
  // multiple of 4) as one vector. False (nothing declared) unless the result is f32, its columns
  // are contiguous, its rows and batches start at multiples of 4 elements and N is a multiple
  // of 4. llvmpipe stores a storage-buffer value lane by lane, a vector in one step per lane
  // instead of four.
  bool DeclareVectorResult();
  // A pack kernel: operand x at binding 0 and its panels, the vec4 storage buffer `pk_buf`
  // (scratch 0 for A, 1 for B; llvmpipe stores a vec4 per lane in one step, an rgba32f texel
  // in four). The operand is a storage buffer read by load_<x>, or, given a
  // `texel_format` ("r32f": with load_<x>; "rgba32f": whole texels) and an affine f32 operand,
  // the texel buffer <x>_img indexed through ix_<x>(b, r, c).
  Status DeclarePack(char x, const char* texel_format);
  // No operands (K = 0: every output is the epilogue of zero): the epilogue inputs, the result.
  Status DeclareFill();
  // The same at element index `index` (a multiple of `width`; a safe address even when the
  // GLSL bool `valid` is false, "" meaning always valid).
  std::string VectorLoadAt(char x, int width, const std::string& index, const std::string& valid,
                           const std::vector<std::string>& names);
  // The split-K reduction: scratch (binding 0) and epilogue inputs, then the result.
  Status DeclareReduce(uint32_t splits);

  // The multiply-accumulate statement `c = c + a * b` in the accumulator's arithmetic.
  std::string Mac(const std::string& c, const std::string& a, const std::string& b) const;
  // The GLSL expression `x + y` of two accumulators (pairs add with carry).
  std::string Add(const std::string& x, const std::string& y) const;
  // The domain a value of `type` computes in on this target (ComputeDomain(type, target)).
  AccKind Domain(ir::ElementType type) const;

  // One result element a tile stores: the accumulator `value` at (b, m, n), when `guard`
  // holds ("" for always).
  struct TileElement {
    std::string value, b, m, n, guard;
  };
  // GLSL statements storing a tile's results through store_c. Each store is written out,
  // unless the epilogue calls the GLSL library (exact math, narrow-float codecs) or computes
  // in a narrow float: then the
  // values go into an array that one loop stores, so the epilogue's code appears once in the
  // kernel instead of once per element (drivers inline every call; a GELU inlined 64 times
  // made megabytes of SPIR-V). After DeclareMatmul / DeclarePackedMatmul / DeclareFill.
  std::string StoreTile(const std::vector<TileElement>& elements, const std::string& indent = "  ");

  // Column groups (MatmulProblem::grouped): one root element a tile stores, (b, m, j), from the
  // accumulators `values` of its columns in each group, the first (group 0's) at column `n`,
  // group g's at n + g * per_block, when `guard` holds. GLSL statements applying the
  // stage-one epilogue to each and store_group to them, through one loop. After DeclareMatmul.
  struct GroupElement {
    std::vector<std::string> values;
    std::string b, m, j, n, guard;
  };
  std::string StoreGroups(const std::vector<GroupElement>& elements, const std::string& indent = "  ");

  void AddShared(const std::string& decl) { shared_ += decl; }
  // A GLSL function after the declared ones (it may call load_a, load_b, ...).
  void AddFunction(const std::string& text) { functions_ += text; }
  // The whole kernel through the shader writer (shader_writer.h): its prologue, the shared
  // memory and functions, then `main_body`.
  std::string Assemble(uint32_t wg_x, uint32_t wg_y, uint32_t wg_z, const std::string& main_body) const;

  const std::vector<BufferRef>& bindings() const { return bindings_; }
  uint64_t ScratchWordsPerElement() const;  // words one partial sum takes in scratch

 private:
  // Binding bindings_.size(): `uint <member>[]`.
  std::string Binding(BufferRef ref, const std::string& member, BufferAccess access);
  Status DeclareOperand(char x, const OperandAccess& access, ir::ElementType type, int binding);
  // Quantized operands: load_<x> subtracts the zero point (integer path) or dequantizes the
  // rhs (hybrid); load_<x>_raw (integer path) returns the stored value, the zero point where
  // a convolution pads (quantized.h).
  void DeclareIndexFunction(char x, const OperandAccess& access);
  Status DeclareQuantizedOperand(char x, const OperandAccess& access, ir::ElementType type);
  void DeclareQuantizedHelpers();
  bool quantized_helpers_ = false;
  Status DeclareEpilogue();
  Status DeclareOutput();
  // Epilogue::scalars: their result bindings (after the results), st_s<i>, and
  // hlo_store_scalars, which Assemble has the first invocation call.
  Status DeclareScalars();
  // Result binding `index` as `uint <buffer>[]` and its element storer `<storer>(uint, value)`.
  Status DeclareResult(int index, const std::string& buffer, const std::string& storer, ir::ElementType type);
  // Takes a generated function's extensions and includes into the prelude; returns its
  // helpers and function text.
  std::string Adopt(const GeneratedEpilogueGlsl& gen);
  std::string scalar_functions_;
  // The element type the result is stored as (after the epilogue's convert or custom result).
  ir::ElementType FinalType() const;
  int result_binding_ = -1;
  bool costly_epilogue_ = false;  // StoreTile stores through one loop

  const MatmulProblem& p_;
  const Epilogue& e_;
  const TargetInfo& t_;
  ShaderWriter writer_;
  std::string functions_, shared_;
  std::vector<BufferRef> bindings_;
  int operand_bindings_[2] = {0, 1};
  int vector_loads_ = 0;  // numbers the variables of VectorLoad
  bool texel_[2] = {false, false};   // DeclareTexelView('a' / 'b') succeeded
  bool texel1_[2] = {false, false};  // DeclareScalarTexelView('a' / 'b') succeeded
  // The checks of DeclareTexelView (texel_bytes per texel).
  bool TexelViewFits(char x, int texel_bytes) const;
};

}  // namespace vkhlo::codegen::library
