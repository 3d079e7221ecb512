#include "codegen/library/kernel_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/epilogue_generate.h"

namespace vkhlo::codegen::library {
namespace {

using ir::ElementType;

// The element index of an affine operand at GLSL (b, r, c).
std::string AffineIndex(const OperandAccess& access) {
  return fmt::format("{} + {} + {}", access.batch.Offset("b"), access.rows.Offset("r"), access.cols.Offset("c"));
}

std::string ZeroOf(AccKind k) { return fmt::format("{}(0)", AccGlslType(k)); }

// GLSL turning a scratch word group into an accumulator and back.
std::string AccToWords(AccKind k, const std::string& v) {
  switch (k) {
    case AccKind::kF32: return fmt::format("uvec4(floatBitsToUint({}), 0u, 0u, 0u)", v);
    case AccKind::kI32:
    case AccKind::kBool: return fmt::format("uvec4(uint({}), 0u, 0u, 0u)", v);
    case AccKind::kF64: return fmt::format("uvec4(unpackDouble2x32({}), 0u, 0u)", v);
    case AccKind::kI64: return fmt::format("uvec4(unpackUint2x32(uint64_t({})), 0u, 0u)", v);
    case AccKind::kI64Pair: return fmt::format("uvec4({}, 0u, 0u)", v);
    case AccKind::kC64: return fmt::format("uvec4(floatBitsToUint({}), 0u, 0u)", v);
    case AccKind::kC128: return fmt::format("uvec4(unpackDouble2x32({0}.x), unpackDouble2x32({0}.y))", v);
  }
  return "";
}

std::string WordsToAcc(AccKind k, const std::string& w) {
  switch (k) {
    case AccKind::kF32: return fmt::format("uintBitsToFloat({}.x)", w);
    case AccKind::kI32:
    case AccKind::kBool: return fmt::format("int({}.x)", w);
    case AccKind::kF64: return fmt::format("packDouble2x32({}.xy)", w);
    case AccKind::kI64: return fmt::format("int64_t(packUint2x32({}.xy))", w);
    case AccKind::kI64Pair: return fmt::format("{}.xy", w);
    case AccKind::kC64: return fmt::format("uintBitsToFloat({}.xy)", w);
    case AccKind::kC128: return fmt::format("dvec2(packDouble2x32({0}.xy), packDouble2x32({0}.zw))", w);
  }
  return "";
}


}  // namespace

std::string KernelWriter::Binding(BufferRef ref, const std::string& member, BufferAccess access) {
  const auto index = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back(ref);
  writer_.StorageBuffer(index, member, "uint", access, /*restrict_=*/false);
  return member;
}

void KernelWriter::DeclareQuantizedHelpers() {
  if (quantized_helpers_ || !p_.quant) return;
  quantized_helpers_ = true;
  if (p_.quant->dot4) writer_.prelude().Extension("GL_EXT_spirv_intrinsics");
  if (p_.quant->channels > 1) {
    Binding({BufferRole::kConstant, 0}, "q_tab", BufferAccess::kRead);
  }
  functions_ += QuantizedGlsl(*p_.quant);
}

// ix_<x>(b, r, c, valid): the element index of operand x (0 where invalid, a safe address).
void KernelWriter::DeclareIndexFunction(char x, const OperandAccess& access) {
  std::string body;
  if (access.affine) {
    body = fmt::format("  valid = true;\n  return {};\n", AffineIndex(access));
  } else {
    body = "  uint idx;\n" + access.custom_index + "  return valid ? idx : 0u;\n";
  }
  functions_ += fmt::format("uint ix_{}(uint b, uint r, uint c, out bool valid) {{\n{}}}\n", x, body);
  if (!access.affine && !access.split_row.empty() && !p_.quant) {
    const auto& bd = access.split_bounds;
    functions_ += fmt::format("void ixr_{}(uint b, uint r, out int base, out ivec4 pos) {{\n{}}}\n", x, access.split_row);
    functions_ += fmt::format("void ixc_{}(uint c, out int base, out ivec4 pos) {{\n{}}}\n", x, access.split_col);
    functions_ += fmt::format("const uvec4 ixbound_{} = uvec4({}u, {}u, {}u, {}u);\n", x, bd[0], bd[1], bd[2], bd[3]);
  }
}

bool KernelWriter::HasSplitIndex(char x) const {
  const OperandAccess& access = x == 'a' ? p_.a : p_.b;
  return !access.affine && !access.split_row.empty() && !p_.quant;
}

std::string KernelWriter::SplitIndex(char x, const std::string& row_base, const std::string& row_pos,
                                     const std::string& col_base, const std::string& col_pos, const std::string& index,
                                     const std::string& valid) const {
  // A negative position wraps to a large uint: one unsigned comparison per dimension.
  return fmt::format("    bool {0} = all(lessThan(uvec4({1} + {2}), ixbound_{3}));\n    uint {4} = {0} ? uint({5} + {6}) : 0u;\n",
                     valid, row_pos, col_pos, x, index, row_base, col_base);
}

Status KernelWriter::DeclareQuantizedOperand(char x, const OperandAccess& access, ElementType type) {
  const QuantizedContraction& q = *p_.quant;
  const std::string buf = fmt::format("{}_buf", x);
  // The stored integer, sign-extended (unsigned 32-bit values wrap, as convert<i32> does).
  VKHLO_RETURN_IF_ERROR(
      EmitElementLoader(fmt::format("ldr_{}", x), buf, type, AccKind::kI32, t_, writer_.prelude(), functions_));
  DeclareIndexFunction(x, access);
  const std::string zero = x == 'a' ? fmt::format("{}", q.lhs_zero_point) : "q_zb(q_channel(b, n))";
  const std::string sig = x == 'a' ? "uint b, uint m, uint k" : "uint b, uint k, uint n";
  const std::string at = x == 'a' ? "b, m, k" : "b, k, n";
  if (q.hybrid && x == 'b') {
    // convert<E>(int(s) - zb) * sb with the interpreter's roundings: to E, then the product to E
    // (for f32 the int -> float of a storage value is exact and the product rounds once).
    const std::string as_e = RoundToType(fmt::format("{}(s - q_zb(ch))", acc()), q.expressed, t_, writer_.prelude());
    const std::string product = RoundToType(fmt::format("({}) * q_sb(ch)", as_e), q.expressed, t_, writer_.prelude());
    functions_ += fmt::format(
        "{0} load_b({1}) {{\n  bool v; uint i = ix_b({2}, v);\n  if (!v) return {0}(0);\n"
        "  uint ch = q_channel(b, n); int s = ldr_b(i);\n  return {3};\n}}\n",
        acc(), sig, at, product);
    return OkStatus();
  }
  // Integer path: zero-point-corrected values (padding reads as 0) and the raw ones (padding
  // reads as the zero point: the packed path's identity then holds, see quantized.h).
  functions_ += fmt::format("int load_{0}({1}) {{ bool v; uint i = ix_{0}({2}, v); return v ? ldr_{0}(i) - {3} : 0; }}\n",
                            x, sig, at, zero);
  functions_ += fmt::format("int load_{0}_raw({1}) {{ bool v; uint i = ix_{0}({2}, v); return v ? ldr_{0}(i) : {3}; }}\n",
                            x, sig, at, zero);
  return OkStatus();
}

Status KernelWriter::DeclareOperand(char x, const OperandAccess& access, ElementType type, int binding) {
  operand_bindings_[x == 'a' ? 0 : 1] = binding;
  DeclareQuantizedHelpers();
  if (p_.quant && (x == 'b' || !p_.quant->hybrid)) return DeclareQuantizedOperand(x, access, type);
  const std::string buf = fmt::format("{}_buf", x);
  VKHLO_RETURN_IF_ERROR(
      EmitElementLoader(fmt::format("ld_{}", x), buf, type, p_.acc, t_, writer_.prelude(), functions_));
  DeclareIndexFunction(x, access);
  const std::string row = x == 'a' ? "m" : "k", col = x == 'a' ? "k" : "n";
  if (access.affine) {
    functions_ += fmt::format("{0} load_{1}(uint b, uint {2}, uint {3}) {{ bool v; return ld_{1}(ix_{1}(b, {2}, {3}, v)); }}\n",
                              acc(), x, row, col);
  } else {
    functions_ += fmt::format(
        "{0} load_{1}(uint b, uint {2}, uint {3}) {{ bool v; {0} e = ld_{1}(ix_{1}(b, {2}, {3}, v)); return v ? e : {4}; }}\n",
        acc(), x, row, col, ZeroOf(p_.acc));
  }
  return OkStatus();
}

bool KernelWriter::DeclareVectorView(char x, int width) {
  const ElementType type = x == 'a' ? p_.a_type : p_.b_type;
  // Quantized operands load through load_<x> (zero points, dequantization); a hybrid's float
  // lhs reads as any float operand.
  if (p_.quant && (x == 'b' || !p_.quant->hybrid)) return false;
  const bool is32 = type == ElementType::kF32 || type == ElementType::kS32 || type == ElementType::kU32;
  if (!is32 || width < 2) return false;
  if (p_.acc != AccKind::kF32 && p_.acc != AccKind::kF64 && p_.acc != AccKind::kI32 && p_.acc != AccKind::kI64 &&
      p_.acc != AccKind::kI64Pair) {
    return false;
  }
  if (p_.acc == AccKind::kI64Pair && type == ElementType::kF32) return false;
  const int binding = operand_bindings_[x == 'a' ? 0 : 1];
  StatusOr<std::string> word = RawToAcc("w", type, p_.acc, t_, writer_.prelude());
  if (!word.ok()) return false;
  const std::string fn = fmt::format("wd_{}", x);
  if (functions_.find(fn + "(") == std::string::npos) functions_ += fmt::format("{} {}(uint w) {{ return {}; }}\n", acc(), fn, *word);
  const std::string view = fmt::format("{}_v{}", x, width);
  if (writer_.Declares(view)) return true;
  // A vector of 8 is two uvec4 loads: 16 bytes is the widest load GPUs issue, and llvmpipe runs
  // a u64vec4 load unpacked with unpackUint2x32 3.3x slower (a 3x3 convolution 8x16x16x32 -> 64:
  // 20.7 ms against 6.3 ms), besides needing shaderInt64.
  const std::string elem = width == 2 ? "uvec2" : "uvec4";
  const std::string real_view = width == 8 ? fmt::format("{}_v4", x) : view;
  if (!writer_.Declares(real_view)) {
    writer_.StorageBuffer(static_cast<uint32_t>(binding), real_view, elem, BufferAccess::kRead, /*restrict_=*/false);
  }
  return true;
}

bool KernelWriter::TexelViewFits(char x, int texel_bytes) const {
  const OperandAccess& access = x == 'a' ? p_.a : p_.b;
  const ElementType type = x == 'a' ? p_.a_type : p_.b_type;
  // R32_SFLOAT storage texel buffers are required of every Vulkan device (as the pack kernels
  // assume); R32G32B32A32_SFLOAT is queried.
  const bool format = texel_bytes == 16 ? t_.storage_texel_buffer_rgba32f : true;
  if (!format || p_.quant || type != ElementType::kF32 || p_.acc != AccKind::kF32) return false;
  int64_t elements = access.elements;
  if (elements == 0 && access.affine) {
    // The largest offset the maps reach, plus one (operands of hand-built problems).
    elements = 1;
    for (const AxisMap* m : {&access.batch, &access.rows, &access.cols}) {
      for (const AxisPart& part : m->parts) elements += (part.size - 1) * part.stride;
    }
  }
  const int64_t per_texel = texel_bytes / 4;
  if (elements <= 0 || elements % per_texel != 0) return false;
  // The runtime binds the whole buffer, its size rounded up to the allocator's alignment (at
  // most 256 bytes more).
  if (static_cast<uint64_t>(elements / per_texel) + 256 / texel_bytes > t_.max_texel_buffer_elements) return false;
  const uint64_t bytes = static_cast<uint64_t>(elements) * 4;
  if (bytes + 256 > t_.max_storage_buffer_range) return false;
  return t_.split_piece_bytes == 0 || bytes + 256 <= t_.split_piece_bytes;
}

bool KernelWriter::DeclareTexelView(char x) {
  const int operand = x == 'a' ? 0 : 1;
  if (texel_[operand]) return true;
  if (!TexelViewFits(x, 16)) return false;
  const int binding = static_cast<int>(bindings_.size());
  bindings_.push_back({BufferRole::kOperand, operand});
  writer_.TexelBuffer(static_cast<uint32_t>(binding), fmt::format("{}_t4", x), "rgba32f");
  texel_[operand] = true;
  return true;
}

bool KernelWriter::DeclareScalarTexelView(char x) {
  const int operand = x == 'a' ? 0 : 1;
  if (texel1_[operand]) return true;
  if (!TexelViewFits(x, 4)) return false;
  const int binding = static_cast<int>(bindings_.size());
  bindings_.push_back({BufferRole::kOperand, operand});
  writer_.TexelBuffer(static_cast<uint32_t>(binding), fmt::format("{}_t1", x), "r32f");
  texel1_[operand] = true;
  return true;
}

std::string KernelWriter::ScalarLoad(char x, const std::string& index) const {
  if (texel1_[x == 'a' ? 0 : 1]) return fmt::format("imageLoad({}_t1, int({})).x", x, index);
  return fmt::format("ld_{}({})", x, index);
}

std::string KernelWriter::VectorLoad(char x, int width, const std::string& b, const std::string& r,
                                     const std::string& c, const std::vector<std::string>& names) {
  const int id = vector_loads_++;
  std::string out = fmt::format("    bool vv{0}; uint vi{0} = ix_{1}({2}, {3}, {4}, vv{0});\n", id, x, b, r, c);
  const bool affine = (x == 'a' ? p_.a : p_.b).affine;
  return out + VectorLoadAt(x, width, fmt::format("vi{}", id), affine ? "" : fmt::format("vv{}", id), names);
}

std::string KernelWriter::VectorLoadAt(char x, int width, const std::string& index, const std::string& valid,
                                       const std::vector<std::string>& names) {
  const int id = vector_loads_++;
  std::string out;
  std::vector<std::string> words;
  if (width >= 4 && texel_[x == 'a' ? 0 : 1]) {
    // f32 texels: the components are the values (DeclareTexelView).
    for (int h = 0; h < width / 4; ++h) {
      out += fmt::format("    vec4 vt{0}_{1} = imageLoad({2}_t4, int(({3}) >> 2u) + {1});\n", id, h, x, index);
    }
    for (int q = 0; q < width; ++q) {
      const std::string v = fmt::format("vt{}_{}.{}", id, q / 4, "xyzw"[q % 4]);
      out += valid.empty() ? fmt::format("    float {} = {};\n", names[q], v)
                           : fmt::format("    float {} = {} ? {} : 0.0;\n", names[q], valid, v);
    }
    return out;
  }
  if (width >= 4) {
    for (int h = 0; h < width / 4; ++h) {
      out += fmt::format("    uvec4 vw{0}_{1} = {2}_v4[(({3}) >> 2u) + {1}u];\n", id, h, x, index);
      for (int q = 0; q < 4; ++q) words.push_back(fmt::format("vw{}_{}.{}", id, h, "xyzw"[q]));
    }
  } else {
    out += fmt::format("    uvec2 vw{0} = {1}_v2[({2}) >> 1u];\n", id, x, index);
    words = {fmt::format("vw{}.x", id), fmt::format("vw{}.y", id)};
  }
  for (int q = 0; q < width; ++q) {
    if (valid.empty()) {
      out += fmt::format("    {} {} = wd_{}({});\n", acc(), names[q], x, words[q]);
    } else {
      out += fmt::format("    {} {} = {} ? wd_{}({}) : {};\n", acc(), names[q], valid, x, words[q], ZeroOf(p_.acc));
    }
  }
  return out;
}

std::string KernelWriter::Mac(const std::string& c, const std::string& a, const std::string& b) const {
  switch (p_.acc) {
    case AccKind::kF32:
    case AccKind::kF64: return fmt::format("{0} = fma({1}, {2}, {0});", c, a, b);
    case AccKind::kI32:
    case AccKind::kI64: return fmt::format("{0} += {1} * {2};", c, a, b);
    case AccKind::kI64Pair: return fmt::format("{0} = hlo_u64_add({0}, hlo_u64_mul_lo({1}, {2}));", c, a, b);
    case AccKind::kBool: return fmt::format("{0} |= {1} & {2};", c, a, b);
    case AccKind::kC64:
    case AccKind::kC128:
      return fmt::format("{0} += {3}({1}.x * {2}.x - {1}.y * {2}.y, {1}.x * {2}.y + {1}.y * {2}.x);", c, a, b, acc());
  }
  return "";
}

std::string KernelWriter::Add(const std::string& x, const std::string& y) const {
  if (p_.acc == AccKind::kI64Pair) return fmt::format("hlo_u64_add({}, {})", x, y);
  return fmt::format("{} + {}", x, y);
}

AccKind KernelWriter::Domain(ElementType type) const { return ComputeDomain(type, t_); }

Status KernelWriter::DeclareEpilogue() {
  // The elemental emitter reads input i from `in<i>` at its own shape (epilogue_generate.h).
  for (size_t i = 0; i < e_.inputs.size(); ++i) {
    Binding({BufferRole::kEpilogueInput, static_cast<int>(i)}, fmt::format("in{}", i), BufferAccess::kRead);
  }
  return OkStatus();
}

ElementType KernelWriter::FinalType() const { return e_.ResultType(p_.c_type); }

Status KernelWriter::DeclareOutput() {
  const AccKind r = Domain(p_.c_type);
  const ElementType final_type = FinalType();
  const AccKind f = Domain(final_type);
  const bool r_unsigned = ir::IsUnsignedInteger(p_.c_type);
  result_binding_ = static_cast<int>(bindings_.size());
  VKHLO_RETURN_IF_ERROR(DeclareResult(0, "c_buf", "st_c", final_type));
  // Column groups: root r > 0 in c_buf<r>, stored by st_c<r>.
  for (size_t i = 1; e_.groups && i < e_.groups->roots.size(); ++i) {
    VKHLO_RETURN_IF_ERROR(DeclareResult(static_cast<int>(i), fmt::format("c_buf{}", i), fmt::format("st_c{}", i),
                                        e_.groups->roots[i]->type().element_type()));
  }
  VKHLO_RETURN_IF_ERROR(DeclareScalars());
  functions_ += fmt::format("uint out_index(uint b, uint m, uint n) {{ return {} + {} + {}; }}\n", p_.c_batch.Offset("b"),
                            p_.c_rows.Offset("m"), p_.c_cols.Offset("n"));
  // The product's own element index, which the epilogue's inputs are read by: out_index unless
  // the result is stored transposed (StoreTransposed keeps the product's maps).
  const std::array<AxisMap, 3>& product = p_.product_maps ? *p_.product_maps : std::array<AxisMap, 3>{p_.c_batch, p_.c_rows, p_.c_cols};
  functions_ += fmt::format("uint product_index(uint b, uint m, uint n) {{ return {} + {} + {}; }}\n",
                            product[0].Offset("b"), product[1].Offset("m"), product[2].Offset("n"));
  DeclareQuantizedHelpers();
  if (p_.quant && !p_.quant->hybrid) {
    // The integer path's epilogue is the requantization (PlanMatmul admits no other).
    if (p_.acc != AccKind::kI32 || r != AccKind::kI32 || final_type != p_.c_type) {
      return InternalError(p_.what + ": quantized result not stored from an i32 accumulator");
    }
    functions_ += "int epilogue(int acc, uint b, uint m, uint n) { return q_requantize(acc, q_channel(b, n)); }\n";
    functions_ += "void store_c(uint b, uint m, uint n, int acc) { st_c(out_index(b, m, n), epilogue(acc, b, m, n)); }\n";
    // With the column's constants looked up once (q_col).
    functions_ += fmt::format(
        "void store_cq(uint b, uint m, uint n, int acc, ivec4 qc) {{ st_c(out_index(b, m, n), q_requant(acc, qc.x, qc.y, qc.z, {}, {})); }}\n",
        p_.quant->result_min, p_.quant->result_max);
    return OkStatus();
  }
  VKHLO_ASSIGN_OR_RETURN(std::string to_r, ConvertDomain("acc", p_.acc, r, &writer_.prelude(), r_unsigned, r_unsigned));
  functions_ += fmt::format("{} round_result({} acc) {{ return {}; }}\n", AccGlslType(r), acc(),
                            RoundToType(to_r, p_.c_type, t_, writer_.prelude()));
  if (e_.groups) {
    // Column groups: the stage-one epilogue per product element, then store_group per root
    // element; StoreGroups stores through one loop.
    if (!p_.grouped) return InternalError(p_.what + ": column groups without a grouped problem");
    std::vector<std::string> root_glsl;
    for (const ir::Value* root : e_.groups->roots) root_glsl.emplace_back(AccGlslType(Domain(root->type().element_type())));
    const std::string sliced_glsl(AccGlslType(Domain(e_.root->type().element_type())));
    VKHLO_ASSIGN_OR_RETURN(GeneratedEpilogueGlsl gen, GenerateGroupedEpilogueGlsl(e_, t_, acc(), std::string(AccGlslType(r)),
                                                                                 sliced_glsl, root_glsl));
    functions_ += Adopt(gen);
    costly_epilogue_ = true;
    return OkStatus();
  }
  if (e_.empty()) {
    functions_ += fmt::format("{} epilogue({} acc, uint b, uint m, uint n) {{ return round_result(acc); }}\n",
                              AccGlslType(r), acc());
  } else {
    VKHLO_ASSIGN_OR_RETURN(GeneratedEpilogueGlsl gen, GenerateEpilogueGlsl(e_, t_, acc(), std::string(AccGlslType(r)),
                                                                          std::string(AccGlslType(f))));
    functions_ += Adopt(gen);
    // Calls into the GLSL library (exact math, narrow-float codecs) and narrow-float
    // arithmetic are large once inlined: StoreTile then stores a tile through one loop.
    auto narrow = [](ir::ElementType t) {
      return ir::IsFloat(t) && t != ElementType::kF32 && t != ElementType::kF64;
    };
    costly_epilogue_ = gen.element_calls || narrow(p_.c_type) || narrow(final_type);
  }
  if (e_.column_values.empty()) {
    functions_ += fmt::format("void store_c(uint b, uint m, uint n, {} acc) {{ st_c(out_index(b, m, n), epilogue(acc, b, m, n)); }}\n",
                              acc());
    return OkStatus();
  }
  // Column values: store_c fills slot 0 for its own element (kernels that store an element
  // per call site); StoreTile fills a slot per column of the tile, then calls store_c_slot.
  functions_ += fmt::format(
      "void store_c_slot(uint slot, uint b, uint m, uint n, {} acc) {{ hlo_cv_slot = slot; st_c(out_index(b, m, n), "
      "epilogue(acc, b, m, n)); }}\n"
      "void store_c(uint b, uint m, uint n, {} acc) {{ hlo_cv_fill(0u, b, min(m, M - 1u), min(n, N - 1u)); "
      "store_c_slot(0u, b, m, n, acc); }}\n",
      acc(), acc());
  return OkStatus();
}

std::string KernelWriter::StoreTile(const std::vector<TileElement>& elements, const std::string& indent) {
  // Column values: one slot per distinct (b, n) of the tile, filled in a loop (one copy of
  // their code), then every element stored from its column's slot.
  std::vector<size_t> slot(elements.size(), 0);
  std::string out;
  const bool columns = !e_.column_values.empty() && !elements.empty();
  if (columns) {
    std::vector<size_t> first;  // the element each slot is filled for
    for (size_t e = 0; e < elements.size(); ++e) {
      size_t s = 0;
      while (s < first.size() && (elements[first[s]].n != elements[e].n || elements[first[s]].b != elements[e].b)) ++s;
      if (s == first.size()) first.push_back(e);
      slot[e] = s;
    }
    if (first.size() > static_cast<size_t>(kColumnValueSlots)) return "#error more tile columns than column-value slots\n";
    writer_.prelude().Extension("GL_EXT_control_flow_attributes");
    out += fmt::format("{0}{{\n{0}  uvec2 cv_at[{1}];\n", indent, first.size());
    for (size_t s = 0; s < first.size(); ++s) {
      out += fmt::format("{}  cv_at[{}] = uvec2({}, min({}, N - 1u));\n", indent, s, elements[first[s]].b, elements[first[s]].n);
    }
    out += fmt::format("{0}  [[dont_unroll]] for (uint s = 0u; s < {1}u; ++s) hlo_cv_fill(s, cv_at[s].x, 0u, cv_at[s].y);\n{0}}}\n",
                       indent, first.size());
  }
  auto store = [&](const TileElement& t, size_t e) {
    return columns ? fmt::format("store_c_slot({}u, {}, {}, {}, {});", slot[e], t.b, t.m, t.n, t.value)
                   : fmt::format("store_c({}, {}, {}, {});", t.b, t.m, t.n, t.value);
  };
  auto guarded = [](const TileElement& t, const std::string& store) {
    return t.guard.empty() ? store + "\n" : fmt::format("if ({}) {}\n", t.guard, store);
  };
  if (!costly_epilogue_ || elements.size() < 2) {
    for (size_t e = 0; e < elements.size(); ++e) out += indent + guarded(elements[e], store(elements[e], e));
    return out;
  }
  // Drivers inline every call: one loop keeps a single copy of the epilogue in the kernel.
  writer_.prelude().Extension("GL_EXT_control_flow_attributes");
  const size_t n = elements.size();
  const char* at = columns ? "uvec4" : "uvec3";  // with the column's slot
  out += fmt::format("{0}{{\n{0}  {1} tile_v[{2}];\n{0}  {3} tile_at[{2}];\n{0}  bool tile_ok[{2}];\n", indent, acc(), n,
                     at);
  for (size_t e = 0; e < n; ++e) {
    const TileElement& t = elements[e];
    const std::string where = columns ? fmt::format("{}, {}, {}, {}u", t.b, t.m, t.n, slot[e]) : fmt::format("{}, {}, {}", t.b, t.m, t.n);
    out += fmt::format("{0}  tile_v[{1}] = {2}; tile_at[{1}] = {3}({4}); tile_ok[{1}] = {5};\n", indent, e, t.value, at,
                       where, t.guard.empty() ? "true" : t.guard);
  }
  out += fmt::format(
      "{0}  [[dont_unroll]] for (uint e = 0u; e < {1}u; ++e) {{\n"
      "{0}    if (tile_ok[e]) {2}tile_at[e].x, tile_at[e].y, tile_at[e].z, tile_v[e]);\n{0}  }}\n{0}}}\n",
      indent, n, columns ? "store_c_slot(tile_at[e].w, " : "store_c(");
  return out;
}

Status KernelWriter::DeclareResult(int index, const std::string& buffer, const std::string& storer, ElementType type) {
  // A narrow type packs several elements in a word: its stores read the word too.
  const bool narrow = LibraryFacts(type, t_).storage_bits < 32;
  Binding({BufferRole::kResult, index, true}, buffer, narrow ? BufferAccess::kReadWrite : BufferAccess::kWrite);
  return EmitElementStorer(storer, buffer, type, t_, writer_.prelude(), functions_);
}

std::string KernelWriter::Adopt(const GeneratedEpilogueGlsl& gen) {
  for (const std::string& ext : gen.extensions) writer_.prelude().Extension(ext);
  for (const std::string& file : gen.includes) writer_.prelude().Include(file);
  return gen.helpers + gen.function;
}

Status KernelWriter::DeclareScalars() {
  if (e_.scalars.empty()) return OkStatus();
  const int first = e_.groups ? static_cast<int>(e_.groups->roots.size()) : 1;
  std::vector<std::string> glsl;
  for (size_t i = 0; i < e_.scalars.size(); ++i) {
    const ElementType type = e_.scalars[i]->type().element_type();
    VKHLO_RETURN_IF_ERROR(
        DeclareResult(first + static_cast<int>(i), fmt::format("s_buf{}", i), fmt::format("st_s{}", i), type));
    glsl.emplace_back(AccGlslType(Domain(type)));
  }
  VKHLO_ASSIGN_OR_RETURN(GeneratedEpilogueGlsl gen, GenerateScalarsGlsl(e_, t_, glsl));
  scalar_functions_ = Adopt(gen);
  return OkStatus();
}

std::string KernelWriter::StoreGroups(const std::vector<GroupElement>& elements, const std::string& indent) {
  if (elements.empty() || !p_.grouped) return "";
  writer_.prelude().Extension("GL_EXT_control_flow_attributes");
  const size_t n = elements.size(), groups = elements.front().values.size();
  std::string out = fmt::format("{0}{{\n{0}  {1} group_v[{2}];\n{0}  uvec4 group_at[{3}];\n{0}  bool group_ok[{3}];\n",
                                indent, acc(), n * groups, n);
  for (size_t e = 0; e < n; ++e) {
    const GroupElement& t = elements[e];
    for (size_t g = 0; g < groups; ++g) out += fmt::format("{}  group_v[{}] = {};\n", indent, e * groups + g, t.values[g]);
    out += fmt::format("{0}  group_at[{1}] = uvec4({2}, {3}, {4}, {5}); group_ok[{1}] = {6};\n", indent, e, t.b, t.m, t.j,
                       t.n, t.guard.empty() ? "true" : t.guard);
  }
  std::string args;
  for (size_t g = 0; g < groups; ++g) {
    args += fmt::format(",\n{0}        epilogue(group_v[e * {1}u + {2}u], at.x, at.y, at.w + {3}u)", indent, groups, g,
                        static_cast<int64_t>(g) * p_.grouped->per_block);
  }
  out += fmt::format(
      "{0}  [[dont_unroll]] for (uint e = 0u; e < {1}u; ++e) {{\n"
      "{0}    uvec4 at = group_at[e];\n"
      "{0}    if (group_ok[e]) store_group(at.x, at.y, at.z{2});\n{0}  }}\n{0}}}\n",
      indent, n, args);
  return out;
}

uint64_t KernelWriter::ScratchWordsPerElement() const { return static_cast<uint64_t>(AccWords(p_.acc)); }

Status KernelWriter::DeclareMatmul(bool final_output) {
  Binding({BufferRole::kOperand, 0}, "a_buf", BufferAccess::kRead);
  Binding({BufferRole::kOperand, 1}, "b_buf", BufferAccess::kRead);
  VKHLO_RETURN_IF_ERROR(DeclareOperand('a', p_.a, p_.a_type, 0));
  VKHLO_RETURN_IF_ERROR(DeclareOperand('b', p_.b, p_.b_type, 1));
  if (final_output) {
    VKHLO_RETURN_IF_ERROR(DeclareEpilogue());
    return DeclareOutput();
  }
  Binding({BufferRole::kScratch, 0, true}, "p_buf", BufferAccess::kWrite);
  const int words = AccWords(p_.acc);
  std::string stores;
  for (int w = 0; w < words; ++w) stores += fmt::format(" p_buf[{}u * e + {}u] = w[{}];", words, w, w);
  functions_ += fmt::format(
      "void store_partial(uint s, uint b, uint m, uint n, {} acc) {{\n  uint e = ((s * {}u + b) * {}u + m) * {}u + n;\n"
      "  uvec4 w = {};{}\n}}\n",
      acc(), p_.batch, p_.m, p_.n, AccToWords(p_.acc, "acc"), stores);
  return OkStatus();
}

Status KernelWriter::DeclarePackedMatmul(bool direct_b) {
  for (int i = 0; i < 2; ++i) {
    bindings_.push_back({i == 1 && direct_b ? BufferRole::kOperand : BufferRole::kScratch, i});
    writer_.TexelBuffer(static_cast<uint32_t>(i), i == 0 ? "pa" : "pb", "rgba32f");
  }
  if (direct_b) functions_ += fmt::format("uint ix_b(uint b, uint r, uint c) {{ return {}; }}\n", AffineIndex(p_.b));
  VKHLO_RETURN_IF_ERROR(DeclareEpilogue());
  return DeclareOutput();
}

bool KernelWriter::DeclareVectorResult() {
  const ElementType final_type = FinalType();
  if (costly_epilogue_) return false;  // StoreTile's loop instead of 4 copies per row
  if (!e_.column_values.empty()) return false;  // StoreTile fills the columns' slots
  if (result_binding_ < 0 || final_type != ElementType::kF32 || ComputeDomain(p_.c_type) != AccKind::kF32) return false;
  if (p_.n % 4 != 0 || !p_.c_cols.IsUnitStride() || !p_.c_rows.StridesMultipleOf(4) ||
      !p_.c_batch.StridesMultipleOf(4)) {
    return false;
  }
  writer_.StorageBuffer(static_cast<uint32_t>(result_binding_), "c_vec", "uvec4", BufferAccess::kWrite,
                        /*restrict_=*/false);
  functions_ +=
      "void store_c4(uint b, uint m, uint n, vec4 acc) {\n"
      "  c_vec[out_index(b, m, n) / 4u] = floatBitsToUint(vec4(epilogue(acc.x, b, m, n), epilogue(acc.y, b, m, n + 1u),\n"
      "                                                         epilogue(acc.z, b, m, n + 2u), epilogue(acc.w, b, m, n + 3u)));\n"
      "}\n";
  return true;
}

Status KernelWriter::DeclarePack(char x, const char* texel_format) {
  const int operand = x == 'a' ? 0 : 1;
  const OperandAccess& access = operand == 0 ? p_.a : p_.b;
  const std::string row = x == 'a' ? "m" : "k", col = x == 'a' ? "k" : "n";
  if (texel_format != nullptr && access.affine) {
    // An f32 operand read as a texel buffer: llvmpipe gathers r32f texels with one vector
    // instruction and rgba32f ones as four-element rows, where a storage-buffer load loops over
    // the lanes. load_<x> reads one element; rgba32f kernels index whole texels by ix_<x> / 4.
    bindings_.push_back({BufferRole::kOperand, operand});
    writer_.TexelBuffer(0, fmt::format("{}_img", x), texel_format);
    functions_ += fmt::format("uint ix_{}(uint b, uint r, uint c) {{ return {}; }}\n", x, AffineIndex(access));
    if (std::string(texel_format) == "r32f") {
      functions_ += fmt::format("float load_{0}(uint b, uint {1}, uint {2}) {{ return imageLoad({0}_img, int(ix_{0}(b, {1}, {2}))).x; }}\n",
                                x, row, col);
    }
  } else {
    Binding({BufferRole::kOperand, operand}, fmt::format("{}_buf", x), BufferAccess::kRead);
    VKHLO_RETURN_IF_ERROR(DeclareOperand(x, access, operand == 0 ? p_.a_type : p_.b_type, 0));
  }
  bindings_.push_back({BufferRole::kScratch, operand, true});
  writer_.StorageBuffer(1, "pk_buf", "vec4", BufferAccess::kWrite, /*restrict_=*/false);
  return OkStatus();
}

Status KernelWriter::DeclareFill() {
  VKHLO_RETURN_IF_ERROR(DeclareEpilogue());
  return DeclareOutput();
}

Status KernelWriter::DeclareReduce(uint32_t splits) {
  Binding({BufferRole::kScratch, 0}, "p_buf", BufferAccess::kRead);
  const int words = AccWords(p_.acc);
  std::string loads;
  for (int w = 0; w < words; ++w) loads += fmt::format("w[{}] = p_buf[{}u * e + {}u]; ", w, words, w);
  functions_ += fmt::format(
      "{0} load_partial(uint s, uint o) {{\n  uint e = s * {1}u + o;\n  uvec4 w = uvec4(0u); {2}\n  return {3};\n}}\n",
      acc(), static_cast<uint64_t>(p_.batch * p_.m * p_.n), loads, WordsToAcc(p_.acc, "w"));
  (void)splits;
  VKHLO_RETURN_IF_ERROR(DeclareEpilogue());
  return DeclareOutput();
}

std::string KernelWriter::Assemble(uint32_t wg_x, uint32_t wg_y, uint32_t wg_z, const std::string& main_body) const {
  ShaderWriter w = writer_;
  w.set_kernel("library kernel for " + p_.what);
  w.Config(fmt::format("workgroup {}x{}x{}", wg_x, wg_y, wg_z));
  if (p_.acc == AccKind::kI64) w.prelude().Extension("GL_ARB_gpu_shader_int64");
  if (p_.acc == AccKind::kI64Pair) w.prelude().Include("hlo_i64.glsl");
  w.Workgroup(wg_x, wg_y, wg_z);
  w.Global(fmt::format("const uint BATCH = {}u, M = {}u, N = {}u, K = {}u;", p_.batch, p_.m, p_.n, p_.k));
  if (!shared_.empty()) w.Shared(shared_);
  if (!functions_.empty()) w.Function(functions_);
  if (!scalar_functions_.empty()) w.Function(scalar_functions_);
  // Epilogue::scalars: computed once, by the first invocation, before anything returns.
  const std::string scalars =
      scalar_functions_.empty() ? "" : "  if (gl_LocalInvocationIndex == 0u && wg == uvec3(0u)) hlo_store_scalars();\n";
  return w.Finish("  uvec3 wg = gl_WorkGroupID + pc.vkhlo_workgroup_base.xyz;\n" + scalars + main_body);
}

}  // namespace vkhlo::codegen::library
