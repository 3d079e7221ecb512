#include "tests/codegen/library/library_test_util.h"

#include <fmt/format.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/transfer.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"

namespace vkhlo::testing {

using codegen::library::BufferRole;
using codegen::library::LibraryPlan;

StatusOr<ParsedOp> ParseOp(const std::string& mlir, ir::OpCode code) {
  ParsedOp out;
  VKHLO_ASSIGN_OR_RETURN(out.module, frontend::ParseModule(mlir));
  ir::WalkOps(*out.module, [&](ir::Operation& op) {
    if (out.op == nullptr && op.code() == code) out.op = &op;
  });
  if (out.op == nullptr) return NotFoundError("no such op in the test program");
  return out;
}

ir::Literal RandomLiteral(const ir::Type& type, std::mt19937_64& rng) {
  auto literal = ir::Literal::Create(type);
  ir::Literal l = std::move(literal).value();
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const ir::ElementType t = type.element_type();
  for (int64_t i = 0; i < type.num_elements(); ++i) {
    if (t == ir::ElementType::kI1) {
      l.SetInt(i, static_cast<int64_t>(rng() & 1));
    } else if (ir::IsInteger(t)) {
      l.SetInt(i, static_cast<int64_t>(rng()));
    } else if (ir::IsComplex(t)) {
      l.SetComplex(i, {u(rng), u(rng)});
    } else {
      l.SetFloat(i, u(rng));
    }
  }
  return l;
}

StatusOr<ir::Literal> Reference(const ir::Operation& op, const std::vector<ir::Literal>& operands) {
  interp::InterpValues values;
  for (const auto& l : operands) values.push_back(interp::InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(interp::InterpValues out, interp::EvaluateOp(op, values));
  if (out.size() != 1 || !out[0].is_tensor()) return InternalError("the interpreter returned no tensor");
  return out[0].literal();
}

namespace {

uint64_t Padded(uint64_t bytes) { return std::max<uint64_t>(32, (bytes + 31) / 32 * 32); }

StatusOr<device::Buffer> Upload(device::Device& device, const ir::Literal& literal) {
  ir::Literal expanded = literal;
  VKHLO_RETURN_IF_ERROR(expanded.Expand());
  std::vector<std::byte> bytes(Padded(expanded.raw().size()));
  if (!expanded.raw().empty()) std::memcpy(bytes.data(), expanded.raw().data(), expanded.raw().size());
  VKHLO_ASSIGN_OR_RETURN(device::Buffer buffer, device.allocator().Allocate(bytes.size()));
  VKHLO_RETURN_IF_ERROR(device.transfers().Upload(buffer, 0, bytes));
  return buffer;
}

}  // namespace

StatusOr<ir::Literal> RunPlan(device::Device& device, codegen::GlslCompiler& compiler,
                              const codegen::TargetInfo& target, LibraryPlan& plan,
                              const std::vector<ir::Literal>& operands,
                              const std::vector<ir::Literal>& epilogue_inputs) {
  VKHLO_RETURN_IF_ERROR(codegen::library::CompilePlan(plan, compiler, target));
  std::vector<device::Buffer> ops, epis, scratch, constants;
  for (const auto& l : operands) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, Upload(device, l));
    ops.push_back(std::move(b));
  }
  for (const auto& l : epilogue_inputs) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, Upload(device, l));
    epis.push_back(std::move(b));
  }
  for (uint64_t bytes : plan.scratch_bytes) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, device.allocator().Allocate(Padded(bytes)));
    scratch.push_back(std::move(b));
  }
  for (const std::vector<uint32_t>& words : plan.constants) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, device.allocator().Allocate(Padded(words.size() * sizeof(uint32_t))));
    if (!words.empty()) {
      VKHLO_RETURN_IF_ERROR(device.transfers().Upload(b, 0, std::as_bytes(std::span<const uint32_t>(words))));
    }
    constants.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(device::Buffer result, device.allocator().Allocate(Padded(plan.result_bytes)));
  VKHLO_ASSIGN_OR_RETURN(device::CommandList list, device::CommandList::Begin(device));
  VKHLO_RETURN_IF_ERROR(list.FillBuffer(result.view(), 0));
  for (const auto& d : plan.dispatches) {
    device::ComputePipelineDesc desc;
    desc.name = d.name;
    desc.spirv = *d.spirv;
    desc.workgroup_base_offset = 0;
    desc.required_subgroup_size = d.required_subgroup_size;
    VKHLO_ASSIGN_OR_RETURN(auto pipeline, device.pipelines().GetOrCreate(desc));
    std::vector<device::Binding> bindings;
    for (const auto& ref : d.bindings) {
      const device::Buffer* b = nullptr;
      switch (ref.role) {
        case BufferRole::kOperand: b = &ops.at(static_cast<size_t>(ref.index)); break;
        case BufferRole::kEpilogueInput: b = &epis.at(static_cast<size_t>(ref.index)); break;
        case BufferRole::kResult: b = &result; break;
        case BufferRole::kScratch: b = &scratch.at(static_cast<size_t>(ref.index)); break;
        case BufferRole::kConstant: b = &constants.at(static_cast<size_t>(ref.index)); break;
      }
      bindings.push_back({b->view(), ref.written ? device::Access::kReadWrite : device::Access::kRead});
    }
    const uint32_t base[4] = {0, 0, 0, 0};
    VKHLO_RETURN_IF_ERROR(list.Dispatch(*pipeline, bindings, device::AsBytes(base), {d.grid[0], d.grid[1], d.grid[2]}));
  }
  VKHLO_ASSIGN_OR_RETURN(device::Submission done, list.Submit());
  VKHLO_RETURN_IF_ERROR(done.Wait());
  std::vector<std::byte> bytes(Padded(plan.result_bytes));
  VKHLO_RETURN_IF_ERROR(device.transfers().Download(result, 0, bytes));
  std::vector<uint8_t> raw(plan.result_bytes);
  if (!raw.empty()) std::memcpy(raw.data(), bytes.data(), raw.size());
  const ir::Type type = ir::Type::Tensor(plan.result_type, plan.problem.result_dims);
  if (type.num_elements() == 0) return ir::Literal::Create(type);
  return ir::Literal::FromBytes(type, std::move(raw));
}

std::string Compare(const ir::Literal& expected, const ir::Literal& actual, int64_t k, double scale) {
  if (expected.type() != actual.type()) {
    return fmt::format("types differ: expected {}, got {}", expected.type().ToString(), actual.type().ToString());
  }
  const ir::ElementType t = expected.element_type();
  std::string out;
  int mismatches = 0;
  auto note = [&](int64_t i, const std::string& e, const std::string& a) {
    if (++mismatches <= 5) out += fmt::format("  element {}: expected {}, got {}\n", i, e, a);
  };
  const bool complex = ir::IsComplex(t);
  if (!ir::IsFloat(t) && !complex) {
    for (int64_t i = 0; i < expected.num_elements(); ++i) {
      if (expected.GetBits(i) != actual.GetBits(i)) note(i, std::to_string(expected.GetInt(i)), std::to_string(actual.GetInt(i)));
    }
  } else {
    const ir::ElementType part = ir::ComplexPartType(t);
    const int mantissa = ir::GetFloatFormat(part).mantissa_bits;
    const double out_ulp = std::ldexp(1.0, -mantissa);
    const double acc_ulp = part == ir::ElementType::kF64 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23);
    auto close = [&](double e, double a) {
      if (std::isnan(e)) return std::isnan(a);
      if (std::isinf(e)) return a == e;
      const double tol = 2 * out_ulp * std::abs(e) + static_cast<double>(std::max<int64_t>(k, 1)) * acc_ulp * 16 * scale;
      return std::abs(e - a) <= tol;
    };
    for (int64_t i = 0; i < expected.num_elements(); ++i) {
      if (complex) {
        const auto e = expected.GetComplex(i), a = actual.GetComplex(i);
        if (!close(e.real(), a.real()) || !close(e.imag(), a.imag())) {
          note(i, fmt::format("({}, {})", e.real(), e.imag()), fmt::format("({}, {})", a.real(), a.imag()));
        }
      } else if (!close(expected.GetFloat(i), actual.GetFloat(i))) {
        note(i, fmt::format("{}", expected.GetFloat(i)), fmt::format("{}", actual.GetFloat(i)));
      }
    }
  }
  if (mismatches == 0) return "";
  return fmt::format("{} of {} elements differ (K = {}):\n{}", mismatches, expected.num_elements(), k, out);
}

codegen::GlslCompiler& TestCompiler() {
  static codegen::GlslCompiler* compiler = [] {
    const char* cache = std::getenv("XDG_CACHE_HOME");
    return new codegen::GlslCompiler(cache ? std::string(cache) + "/vkhlo" : "");
  }();
  return *compiler;
}

}  // namespace vkhlo::testing
