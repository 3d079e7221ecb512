#include "codegen/library/kernel_writer.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/epilogue_generate.h"

namespace vkhlo::codegen::library {
namespace {

using ir::ElementType;

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

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


// epi_max and epi_min for a float domain, as the elementwise ops define them: a NaN operand is
// the result, -0 < +0. NaNs and signs are tested on the bits: the max()/min() built-ins may
// return either zero, and isnan() may be folded away without SignedZeroInfNanPreserve.
std::string FloatMaxMinHelpers(AccKind d) {
  const bool f64 = d == AccKind::kF64;
  const std::string t = f64 ? "double" : "float";
  const std::string hi = f64 ? "unpackDouble2x32({0}).y" : "floatBitsToUint({0})";
  const std::string nan =
      f64 ? "(((unpackDouble2x32({0}).y & 0x7fffffffu) | uint(unpackDouble2x32({0}).x != 0u)) > 0x7ff00000u)"
          : "((floatBitsToUint({0}) & 0x7fffffffu) > 0x7f800000u)";
  const std::string nan_a = fmt::format(fmt::runtime(nan), "a"), nan_b = fmt::format(fmt::runtime(nan), "b");
  const std::string neg_a = fmt::format("(({} >> 31) != 0u)", fmt::format(fmt::runtime(hi), "a"));
  return fmt::format(
      "{0} epi_max({0} a, {0} b) {{\n  if ({1}) return a;\n  if ({2}) return b;\n  if (a == b) return {3} ? b : a;\n"
      "  return a > b ? a : b;\n}}\n"
      "{0} epi_min({0} a, {0} b) {{\n  if ({1}) return a;\n  if ({2}) return b;\n  if (a == b) return {3} ? a : b;\n"
      "  return a < b ? a : b;\n}}\n",
      t, nan_a, nan_b, neg_a);
}

// `x op y` in domain d (both operands in d); `is_unsigned`: the op's type is unsigned (maximum
// and minimum order as unsigned).
StatusOr<std::string> Binary(EpilogueOp op, AccKind d, const std::string& x, const std::string& y, bool is_unsigned) {
  if (d == AccKind::kI64Pair) {  // hlo_i64.glsl: wrapping, bit-exact
    switch (op) {
      case EpilogueOp::kAdd: return fmt::format("hlo_u64_add({}, {})", x, y);
      case EpilogueOp::kSubtract: return fmt::format("hlo_u64_sub({}, {})", x, y);
      case EpilogueOp::kMultiply: return fmt::format("hlo_u64_mul_lo({}, {})", x, y);
      case EpilogueOp::kMaximum:
      case EpilogueOp::kRelu: return fmt::format("hlo_e64_max_{}({}, {})", is_unsigned ? "u" : "s", x, y);
      case EpilogueOp::kMinimum: return fmt::format("hlo_e64_min_{}({}, {})", is_unsigned ? "u" : "s", x, y);
      case EpilogueOp::kScale: return UnimplementedError("a float scale of emulated 64-bit integers in an epilogue");
    }
    return UnimplementedError("unknown epilogue op");
  }
  const bool complex = d == AccKind::kC64 || d == AccKind::kC128;
  const bool is_float = d == AccKind::kF32 || d == AccKind::kF64;
  switch (op) {
    case EpilogueOp::kAdd:
      if (d == AccKind::kBool) return fmt::format("({} | {})", x, y);
      return fmt::format("({} + {})", x, y);
    case EpilogueOp::kSubtract:
      if (d == AccKind::kBool) return fmt::format("({} ^ {})", x, y);
      return fmt::format("({} - {})", x, y);
    case EpilogueOp::kMultiply:
    case EpilogueOp::kScale:
      if (complex) return fmt::format("{0}({1}.x * {2}.x - {1}.y * {2}.y, {1}.x * {2}.y + {1}.y * {2}.x)", AccGlslType(d), x, y);
      if (d == AccKind::kBool) return fmt::format("({} & {})", x, y);
      return fmt::format("({} * {})", x, y);
    case EpilogueOp::kMaximum:
    case EpilogueOp::kMinimum:
    case EpilogueOp::kRelu: {
      if (complex) return UnimplementedError("maximum/minimum of complex values in an epilogue");
      const char* fn = op == EpilogueOp::kMinimum ? "min" : "max";
      if (is_float) return fmt::format("epi_{}({}, {})", fn, x, y);  // FloatMaxMinHelpers
      // Unsigned integers order as unsigned (their i32/i64 domain values past 2^31 / 2^63 are
      // negative).
      if (is_unsigned && d == AccKind::kI32) return fmt::format("int({}(uint({}), uint({})))", fn, x, y);
      if (is_unsigned && d == AccKind::kI64) return fmt::format("int64_t({}(uint64_t({}), uint64_t({})))", fn, x, y);
      return fmt::format("{}({}, {})", fn, x, y);
    }
  }
  return UnimplementedError("unknown epilogue op");
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
      EmitElementLoader(fmt::format("ldr_{}", x), buf, type, AccKind::kI32, writer_.prelude(), functions_, !t_.shader_int64));
  DeclareIndexFunction(x, access);
  const std::string zero = x == 'a' ? fmt::format("{}", q.lhs_zero_point) : "q_zb(q_channel(b, n))";
  const std::string sig = x == 'a' ? "uint b, uint m, uint k" : "uint b, uint k, uint n";
  const std::string at = x == 'a' ? "b, m, k" : "b, k, n";
  if (q.hybrid && x == 'b') {
    // convert<E>(int(s) - zb) * sb with the interpreter's roundings: to E, then the product to E
    // (for f32 the int -> float of a storage value is exact and the product rounds once).
    VKHLO_ASSIGN_OR_RETURN(std::string as_e, RoundToType(fmt::format("{}(s - q_zb(ch))", acc()), q.expressed, writer_.prelude()));
    VKHLO_ASSIGN_OR_RETURN(std::string product, RoundToType(fmt::format("({}) * q_sb(ch)", as_e), q.expressed, writer_.prelude()));
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
      EmitElementLoader(fmt::format("ld_{}", x), buf, type, p_.acc, writer_.prelude(), functions_, !t_.shader_int64));
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
  std::string word;
  if (p_.acc == AccKind::kI64Pair) {
    word = type == ElementType::kS32 ? "hlo_e64_from_i32(int(w))" : "hlo_e64_from_u32(w)";
  } else if (type == ElementType::kF32) {
    word = p_.acc == AccKind::kF32 ? "uintBitsToFloat(w)" : fmt::format("{}(uintBitsToFloat(w))", acc());
  } else if (type == ElementType::kS32) {
    word = p_.acc == AccKind::kI32 ? "int(w)" : fmt::format("{}(int(w))", acc());
  } else {
    word = fmt::format("{}(w)", acc());
  }
  const std::string fn = fmt::format("wd_{}", x);
  if (functions_.find(fn + "(") == std::string::npos) functions_ += fmt::format("{} {}(uint w) {{ return {}; }}\n", acc(), fn, word);
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
  if (e_.generated) {
    // The elemental emitter reads input i from `in<i>` at its own shape (epilogue_generate.h).
    for (size_t i = 0; i < e_.inputs.size(); ++i) {
      Binding({BufferRole::kEpilogueInput, static_cast<int>(i)}, fmt::format("in{}", i), BufferAccess::kRead);
    }
    return OkStatus();
  }
  for (size_t i = 0; i < e_.inputs.size(); ++i) {
    const EpilogueInput& in = e_.inputs[i];
    const std::string buf = fmt::format("e{}_buf", i);
    Binding({BufferRole::kEpilogueInput, static_cast<int>(i)}, buf, BufferAccess::kRead);
    VKHLO_RETURN_IF_ERROR(EmitElementLoader(fmt::format("ld_e{}", i), buf, in.type, Domain(in.type), writer_.prelude(),
                                            functions_, !t_.shader_int64));
    if (in.broadcast_dimensions.size() != in.dims.size()) {
      return InvalidArgumentError(fmt::format("{}: epilogue input {} has {} broadcast dimensions for rank {}", p_.what,
                                              i, in.broadcast_dimensions.size(), in.dims.size()));
    }
    // Input index from the result's row-major index: its coordinates along the broadcast dims.
    const auto rs = RowMajorStrides(p_.result_dims);
    const auto is = RowMajorStrides(in.dims);
    std::string index;
    for (size_t d = 0; d < in.dims.size(); ++d) {
      const int64_t rd = in.broadcast_dimensions[d];
      if (rd < 0 || rd >= static_cast<int64_t>(p_.result_dims.size())) {
        return InvalidArgumentError(fmt::format("{}: epilogue input {} broadcast dimension {} out of range", p_.what, i, rd));
      }
      if (in.dims[d] == 1) continue;
      if (in.dims[d] != p_.result_dims[static_cast<size_t>(rd)]) {
        return InvalidArgumentError(fmt::format("{}: epilogue input {} does not broadcast into the result", p_.what, i));
      }
      index += fmt::format(" + ((oi / {}u) % {}u) * {}u", rs[static_cast<size_t>(rd)], p_.result_dims[static_cast<size_t>(rd)], is[d]);
    }
    functions_ += fmt::format("{} epi_in{}(uint oi) {{ return ld_e{}(0u{}); }}\n", AccGlslType(Domain(in.type)),
                              i, i, index);
  }
  return OkStatus();
}

ElementType KernelWriter::FinalType() const {
  if (e_.generated && e_.generated->root != nullptr) return e_.generated->root->type().element_type();
  return e_.custom_result_type ? *e_.custom_result_type : e_.convert_to.value_or(p_.c_type);
}

Status KernelWriter::DeclareOutput() {
  const AccKind r = Domain(p_.c_type);
  const ElementType final_type = FinalType();
  const AccKind f = Domain(final_type);
  const bool r_unsigned = ir::IsUnsignedInteger(p_.c_type);
  const bool narrow = StorageBits(final_type) < 32;
  result_binding_ = static_cast<int>(bindings_.size());
  Binding({BufferRole::kResult, 0, true}, "c_buf", narrow ? BufferAccess::kReadWrite : BufferAccess::kWrite);
  VKHLO_RETURN_IF_ERROR(EmitElementStorer("st_c", "c_buf", final_type, writer_.prelude(), functions_, !t_.shader_int64));
  functions_ += fmt::format("uint out_index(uint b, uint m, uint n) {{ return {} + {} + {}; }}\n", p_.c_batch.Offset("b"),
                            p_.c_rows.Offset("m"), p_.c_cols.Offset("n"));
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
  VKHLO_ASSIGN_OR_RETURN(std::string rounded, RoundToType(to_r, p_.c_type, writer_.prelude()));
  functions_ += fmt::format("{} round_result({} acc) {{ return {}; }}\n", AccGlslType(r), acc(), rounded);
  if (e_.generated) {
    VKHLO_ASSIGN_OR_RETURN(GeneratedEpilogueGlsl gen, GenerateEpilogueGlsl(*e_.generated, t_, acc(),
                                                                          std::string(AccGlslType(r)),
                                                                          std::string(AccGlslType(f))));
    for (const std::string& ext : gen.extensions) writer_.prelude().Extension(ext);
    for (const std::string& file : gen.includes) writer_.prelude().Include(file);
    functions_ += gen.helpers;
    functions_ += gen.function;
  } else if (!e_.custom_glsl.empty()) {
    functions_ += e_.custom_glsl;
    if (!functions_.empty() && functions_.back() != '\n') functions_ += "\n";
  } else {
    std::string body = fmt::format("  {} x = round_result(acc);\n  uint oi = out_index(b, m, n);\n", AccGlslType(r));
    const bool float_max_min = AccIsFloat(r) && std::any_of(e_.steps.begin(), e_.steps.end(), [](const EpilogueStep& s) {
      return s.op == EpilogueOp::kMaximum || s.op == EpilogueOp::kMinimum || s.op == EpilogueOp::kRelu;
    });
    if (float_max_min) functions_ += FloatMaxMinHelpers(r);
    for (const EpilogueStep& s : e_.steps) {
      std::string y;
      if (s.op == EpilogueOp::kRelu) {
        y = fmt::format("{}(0)", AccGlslType(r));
      } else if (s.op == EpilogueOp::kScale) {
        y = fmt::format("{}({})", AccGlslType(r), r == AccKind::kF64 ? fmt::format("{:.17g}lf", s.constant)
                                                                     : fmt::format("{:.9g}", s.constant));
        if (r == AccKind::kC64 || r == AccKind::kC128) y = fmt::format("{}({}, 0)", AccGlslType(r), s.constant);
      } else {
        if (s.input < 0 || s.input >= static_cast<int>(e_.inputs.size())) {
          return InvalidArgumentError(fmt::format("{}: epilogue step reads input {} of {}", p_.what, s.input, e_.inputs.size()));
        }
        const ElementType in_type = e_.inputs[static_cast<size_t>(s.input)].type;
        VKHLO_ASSIGN_OR_RETURN(y, ConvertDomain(fmt::format("epi_in{}(oi)", s.input), Domain(in_type), r, &writer_.prelude(),
                                                ir::IsUnsignedInteger(in_type), r_unsigned));
      }
      VKHLO_ASSIGN_OR_RETURN(std::string v, Binary(s.op, r, "x", y, r_unsigned));
      VKHLO_ASSIGN_OR_RETURN(std::string rv, RoundToType(v, p_.c_type, writer_.prelude()));
      body += fmt::format("  x = {};\n", rv);
    }
    VKHLO_ASSIGN_OR_RETURN(std::string out,
                           ConvertDomain("x", r, f, &writer_.prelude(), r_unsigned, ir::IsUnsignedInteger(final_type)));
    if (final_type != p_.c_type) {
      VKHLO_ASSIGN_OR_RETURN(out, RoundToType(out, final_type, writer_.prelude()));
    }
    body += fmt::format("  return {};\n", out);
    functions_ += fmt::format("{} epilogue({} acc, uint b, uint m, uint n) {{\n{}}}\n", AccGlslType(f), acc(), body);
  }
  functions_ += fmt::format("void store_c(uint b, uint m, uint n, {} acc) {{ st_c(out_index(b, m, n), epilogue(acc, b, m, n)); }}\n",
                            acc());
  return OkStatus();
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

Status KernelWriter::DeclarePackedMatmul() {
  for (int i = 0; i < 2; ++i) {
    bindings_.push_back({BufferRole::kScratch, i});
    writer_.TexelBuffer(static_cast<uint32_t>(i), i == 0 ? "pa" : "pb", "rgba32f");
  }
  VKHLO_RETURN_IF_ERROR(DeclareEpilogue());
  return DeclareOutput();
}

bool KernelWriter::DeclareVectorResult() {
  const ElementType final_type = FinalType();
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
  return w.Finish("  uvec3 wg = gl_WorkGroupID + pc.vkhlo_workgroup_base.xyz;\n" + main_body);
}

}  // namespace vkhlo::codegen::library
