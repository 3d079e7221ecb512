#include "codegen/library/fft_lowering.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>

#include "ir/attribute.h"
#include "ir/type.h"

namespace vkhlo::codegen {
namespace {

std::string Where(const ir::Operation& op) {
  ir::Location loc = op.location();
  return loc.known() ? fmt::format("{}:{}: ", loc.line, loc.column) : std::string();
}

Status Error(const ir::Operation& op, std::string_view what) {
  return InvalidArgumentError(fmt::format("{}error: '{}' {}", Where(op), op.name(), what));
}

std::optional<FftType> ParseType(std::string_view name) {
  if (name == "FFT") return FftType::kFft;
  if (name == "IFFT") return FftType::kIfft;
  if (name == "RFFT") return FftType::kRfft;
  if (name == "IRFFT") return FftType::kIrfft;
  return std::nullopt;
}

}  // namespace

StatusOr<FftLowering> LowerFft(const ir::Operation& op) {
  if (op.code() != ir::OpCode::kFft || op.num_operands() != 1 || op.num_results() != 1) {
    return Error(op, "is not a stablehlo.fft with one operand and one result");
  }
  std::optional<std::string> type_name;
  if (const ir::Attribute* a = op.attribute("fft_type")) {
    type_name = a->AsEnum("fft_type");
    if (!type_name) {
      if (auto* e = a->as<ir::EnumValue>()) type_name = e->value;
    }
  }
  std::optional<std::vector<int64_t>> lengths;
  if (const ir::Attribute* a = op.attribute("fft_length")) lengths = a->AsI64Vector();
  if (!type_name || !lengths) return Error(op, "needs `fft_type` and `fft_length`");
  std::optional<FftType> type = ParseType(*type_name);
  if (!type) return Error(op, fmt::format("has unknown fft_type {}", *type_name));

  const ir::Type& in = op.operand(0)->type();
  const ir::Type& out = op.result(0)->type();
  if (!in.is_tensor() || !out.is_tensor()) return Error(op, "operand and result must be tensors");
  const bool real_in = *type == FftType::kRfft, real_out = *type == FftType::kIrfft;
  auto side = [&](ir::ElementType e, bool real) -> std::optional<bool> {  // double precision?
    using ir::ElementType;
    if (real) {
      if (e == ElementType::kF32) return false;
      if (e == ElementType::kF64) return true;
    } else {
      if (e == ElementType::kC64) return false;
      if (e == ElementType::kC128) return true;
    }
    return std::nullopt;
  };
  std::optional<bool> in_f64 = side(in.element_type(), real_in);
  std::optional<bool> out_f64 = side(out.element_type(), real_out);
  if (!in_f64 || !out_f64 || *in_f64 != *out_f64) {
    // Complex types exist for f32 and f64 only, so no other real type can pair with one.
    std::string what = fmt::format(
        "{} of {} -> {}: expected {} -> {} of one precision (f32/complex<f32> or "
        "f64/complex<f64>)", *type_name, in.ToString(), out.ToString(),
        real_in ? "f32/f64" : "complex", real_out ? "f32/f64" : "complex");
    return Error(op, what);
  }

  const std::vector<int64_t>& in_dims = in.dims();
  const std::vector<int64_t>& out_dims = out.dims();
  const size_t rank = in_dims.size(), count = lengths->size();
  if (count < 1 || count > 3) {
    return Error(op, fmt::format("fft_length has {} entries: expected 1 to 3", count));
  }
  if (rank < count || out_dims.size() != rank) {
    return Error(op, fmt::format("operand {} and result {} do not fit fft_length [{}]",
                                 in.ToString(), out.ToString(), fmt::join(*lengths, ", ")));
  }
  const std::vector<int64_t>& real_dims = real_in ? in_dims : out_dims;
  const std::vector<int64_t>& complex_dims = real_in ? out_dims : in_dims;
  for (size_t i = 0; i < rank; ++i) {
    const bool transformed = i >= rank - count;
    const int64_t length = transformed ? (*lengths)[i - (rank - count)] : 0;
    bool ok;
    if (*type == FftType::kFft || *type == FftType::kIfft) {
      ok = in_dims[i] == out_dims[i] && (!transformed || in_dims[i] == length);
    } else {
      const bool last = i == rank - 1;
      const int64_t n = real_dims[i];
      ok = (!transformed || n == length) &&
           complex_dims[i] == (last ? (n == 0 ? 0 : n / 2 + 1) : n);
    }
    if (!ok) {
      return Error(op, fmt::format("{}: operand {} and result {} do not match fft_length [{}]",
                                   *type_name, in.ToString(), out.ToString(),
                                   fmt::join(*lengths, ", ")));
    }
  }

  FftLowering lowering;
  lowering.type = *type;
  lowering.double_precision = *in_f64;
  for (int64_t n : *lengths) lowering.lengths.push_back(static_cast<uint64_t>(n));
  for (size_t i = 0; i < rank - count; ++i) lowering.batch *= static_cast<uint64_t>(in_dims[i]);
  const uint64_t real_bytes = lowering.double_precision ? 8 : 4;
  auto bytes = [&](const std::vector<int64_t>& dims, bool real) {
    uint64_t n = real ? real_bytes : 2 * real_bytes;
    for (int64_t d : dims) n *= static_cast<uint64_t>(d);
    return n;
  };
  lowering.input_bytes = bytes(in_dims, real_in);
  lowering.output_bytes = bytes(out_dims, real_out);
  return lowering;
}

}  // namespace vkhlo::codegen
