#include "device/spirv_reflect.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace vkhlo::device {
namespace {

// The SPIR-V opcodes and enumerants this reader needs (SPIR-V 1.6 specification).
enum Op : uint32_t {
  kOpCapability = 17, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpTypeBool = 20, kOpTypeInt = 21,
  kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypeImage = 25, kOpTypeMatrix = 24, kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29, kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstantTrue = 41,
  kOpConstantFalse = 42, kOpConstant = 43, kOpConstantComposite = 44, kOpSpecConstantTrue = 48,
  kOpSpecConstantFalse = 49, kOpSpecConstant = 50, kOpSpecConstantComposite = 51,
  kOpVariable = 59, kOpDecorate = 71, kOpMemberDecorate = 72, kOpExecutionModeId = 331,
};
enum : uint32_t {
  kExecutionModelGLCompute = 5, kModeLocalSize = 17, kModeLocalSizeId = 38,
  kDecorationSpecId = 1, kDecorationArrayStride = 6, kDecorationBlock = 2,
  kDecorationBufferBlock = 3, kDecorationBuiltIn = 11, kDecorationBinding = 33,
  kDecorationDescriptorSet = 34, kDecorationOffset = 35, kBuiltInWorkgroupSize = 25,
  kStorageUniformConstant = 0, kStorageUniform = 2, kStorageWorkgroup = 4, kStoragePushConstant = 9, kStorageStorageBuffer = 12,
};

// OpTypeImage operands (after the result id) and the image formats vkhlo binds as texel buffers.
enum : uint32_t { kDimBuffer = 5, kSampledStorage = 2 };
enum : uint32_t { kFormatRgba32f = 1, kFormatR32f = 3, kFormatRgba32ui = 30, kFormatR32ui = 33 };

struct ImageType {
  uint32_t dim = 0;
  uint32_t sampled = 0;
  uint32_t format = 0;
};

struct TexelFormat {
  VkFormat format;
  uint32_t bytes;
};

// The formats a storage texel buffer may declare: 32-bit float and uint, 1 or 4 components
// (what the kernels need; each is widely supported as STORAGE_TEXEL_BUFFER).
std::optional<TexelFormat> TexelFormatOf(uint32_t spirv_format) {
  switch (spirv_format) {
    case kFormatRgba32f: return TexelFormat{VK_FORMAT_R32G32B32A32_SFLOAT, 16};
    case kFormatR32f: return TexelFormat{VK_FORMAT_R32_SFLOAT, 4};
    case kFormatRgba32ui: return TexelFormat{VK_FORMAT_R32G32B32A32_UINT, 16};
    case kFormatR32ui: return TexelFormat{VK_FORMAT_R32_UINT, 4};
    default: return std::nullopt;
  }
}

struct Instruction {
  uint32_t opcode;
  std::span<const uint32_t> operands;
};

class Module {
 public:
  explicit Module(std::span<const uint32_t> spirv) : words_(spirv) {}

  Status Parse(std::span<const SpecializationValue> specialization) {
    if (words_.size() < 5 || words_[0] != 0x07230203u) {
      return InvalidArgumentError("not a SPIR-V module (bad magic number or too short)");
    }
    for (const SpecializationValue& v : specialization) overrides_[v.id] = v.bits;
    size_t pos = 5;
    while (pos < words_.size()) {
      uint32_t count = words_[pos] >> 16;
      if (count == 0 || pos + count > words_.size()) {
        return InvalidArgumentError(fmt::format("malformed SPIR-V instruction at word {}", pos));
      }
      Record(Instruction{words_[pos] & 0xFFFFu, words_.subspan(pos + 1, count - 1)});
      pos += count;
    }
    return OkStatus();
  }

  StatusOr<ShaderInterface> Interface() {
    ShaderInterface out;
    if (!entry_point_) return InvalidArgumentError("SPIR-V module has no GLCompute entry point");
    out.entry_point = entry_point_name_;
    out.capabilities.assign(capabilities_.begin(), capabilities_.end());
    VKHLO_RETURN_IF_ERROR(ResolveWorkgroupSize(out.workgroup_size));
    for (const auto& [id, spec_id] : spec_ids_) out.specialization_ids.push_back(spec_id);
    std::sort(out.specialization_ids.begin(), out.specialization_ids.end());

    for (const auto& [var, info] : variables_) {
      auto [pointer_type, storage] = info;
      auto pointee = pointee_.find(pointer_type);
      if (pointee == pointee_.end()) continue;
      if (storage == kStorageWorkgroup) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t size, SizeOf(pointee->second));
        out.shared_memory_bytes += size;
      } else if (storage == kStoragePushConstant) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t size, SizeOf(pointee->second));
        out.push_constant_bytes = std::max<uint32_t>(out.push_constant_bytes, static_cast<uint32_t>(size));
      } else if (storage == kStorageStorageBuffer || storage == kStorageUniform) {
        bool storage_buffer = storage == kStorageStorageBuffer ||
                              decorations_[pointee->second].contains(kDecorationBufferBlock);
        out.bindings.push_back(ShaderBinding{
            Decoration(var, kDecorationDescriptorSet).value_or(0),
            Decoration(var, kDecorationBinding).value_or(0),
            storage_buffer ? BindingKind::kStorageBuffer : BindingKind::kUniformBuffer});
      } else if (storage == kStorageUniformConstant) {
        VKHLO_ASSIGN_OR_RETURN(ShaderBinding b, TexelBinding(var, pointee->second));
        out.bindings.push_back(b);
      }
    }
    std::sort(out.bindings.begin(), out.bindings.end(), [](const auto& a, const auto& b) {
      return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
    });
    // Several variables may alias one binding (a `uint[]` and a `u64vec4[]` view of the same
    // buffer, as the library kernels declare): it is still one descriptor.
    out.bindings.erase(std::unique(out.bindings.begin(), out.bindings.end(),
                                   [](const auto& a, const auto& b) {
                                     return a.set == b.set && a.binding == b.binding &&
                                            a.kind == b.kind && a.format == b.format;
                                   }),
                       out.bindings.end());
    return out;
  }

 private:
  // A UniformConstant variable: vkhlo binds only storage texel buffers of a known format there
  // (samplers, sampled and storage images have no place in its binding model).
  StatusOr<ShaderBinding> TexelBinding(uint32_t var, uint32_t type) const {
    const uint32_t set = Decoration(var, kDecorationDescriptorSet).value_or(0);
    const uint32_t binding = Decoration(var, kDecorationBinding).value_or(0);
    auto image = images_.find(type);
    if (image == images_.end() || image->second.dim != kDimBuffer ||
        image->second.sampled != kSampledStorage) {
      return InvalidArgumentError(fmt::format(
          "set {} binding {}: only storage buffers and storage texel buffers (imageBuffer) are "
          "supported, not other images or samplers", set, binding));
    }
    std::optional<TexelFormat> format = TexelFormatOf(image->second.format);
    if (!format) {
      return InvalidArgumentError(fmt::format(
          "set {} binding {}: unsupported texel buffer format (SPIR-V image format {}; supported: "
          "rgba32f, r32f, rgba32ui, r32ui)", set, binding, image->second.format));
    }
    return ShaderBinding{set, binding, BindingKind::kStorageTexelBuffer, format->format, format->bytes};
  }

  void Record(const Instruction& in) {
    auto ops = in.operands;
    switch (in.opcode) {
      case kOpCapability:
        if (!ops.empty()) capabilities_.insert(ops[0]);
        break;
      case kOpEntryPoint:
        if (ops.size() >= 3 && ops[0] == kExecutionModelGLCompute && !entry_point_) {
          entry_point_ = ops[1];
          entry_point_name_ = reinterpret_cast<const char*>(&ops[2]);
        }
        break;
      case kOpExecutionMode:
        if (ops.size() >= 5 && ops[1] == kModeLocalSize) local_size_ = {ops[2], ops[3], ops[4]};
        break;
      case kOpExecutionModeId:
        if (ops.size() >= 5 && ops[1] == kModeLocalSizeId) local_size_id_ = {ops[2], ops[3], ops[4]};
        break;
      case kOpDecorate:
        if (ops.size() >= 2) {
          decorations_[ops[0]][ops[1]] = ops.size() >= 3 ? ops[2] : 0;
          if (ops[1] == kDecorationSpecId && ops.size() >= 3) spec_ids_[ops[0]] = ops[2];
        }
        break;
      case kOpMemberDecorate:
        if (ops.size() >= 4 && ops[2] == kDecorationOffset) member_offsets_[ops[0]][ops[1]] = ops[3];
        break;
      case kOpTypeBool: sizes_[ops[0]] = 4; break;
      case kOpTypeInt:
      case kOpTypeFloat: sizes_[ops[0]] = ops[1] / 8; break;
      case kOpTypeVector:
      case kOpTypeMatrix: composite_[ops[0]] = {ops[1], ops[2], false}; break;
      case kOpTypeArray: composite_[ops[0]] = {ops[1], ops[2], true}; break;
      case kOpTypeRuntimeArray: runtime_arrays_.insert(ops[0]); break;
      case kOpTypeImage:
        if (ops.size() >= 8) images_[ops[0]] = ImageType{ops[2], ops[6], ops[7]};
        break;
      case kOpTypeStruct:
        structs_[ops[0]] = std::vector<uint32_t>(ops.begin() + 1, ops.end());
        break;
      case kOpTypePointer: pointee_[ops[0]] = ops[2]; break;
      case kOpConstant:
      case kOpSpecConstant: constants_[ops[1]] = ops.size() >= 3 ? ops[2] : 0; break;
      case kOpConstantTrue:
      case kOpSpecConstantTrue: constants_[ops[1]] = 1; break;
      case kOpConstantFalse:
      case kOpSpecConstantFalse: constants_[ops[1]] = 0; break;
      case kOpConstantComposite:
      case kOpSpecConstantComposite:
        composites_[ops[1]] = std::vector<uint32_t>(ops.begin() + 2, ops.end());
        break;
      case kOpVariable:
        if (ops.size() >= 3) variables_[ops[1]] = {ops[0], ops[2]};
        break;
      default: break;
    }
  }

  std::optional<uint32_t> Decoration(uint32_t id, uint32_t decoration) const {
    auto it = decorations_.find(id);
    if (it == decorations_.end()) return std::nullopt;
    auto d = it->second.find(decoration);
    if (d == it->second.end()) return std::nullopt;
    return d->second;
  }

  // The value of a (spec) constant after specialization.
  StatusOr<uint32_t> ConstantValue(uint32_t id) const {
    auto spec = spec_ids_.find(id);
    if (spec != spec_ids_.end()) {
      auto o = overrides_.find(spec->second);
      if (o != overrides_.end()) return o->second;
    }
    auto it = constants_.find(id);
    if (it == constants_.end()) {
      return InvalidArgumentError(fmt::format(
          "SPIR-V id %{} is not a plain constant (spec-constant expressions are not supported "
          "in sizes)", id));
    }
    return it->second;
  }

  Status ResolveWorkgroupSize(std::array<uint32_t, 3>& size) const {
    for (const auto& [id, decos] : decorations_) {
      auto b = decos.find(kDecorationBuiltIn);
      if (b == decos.end() || b->second != kBuiltInWorkgroupSize) continue;
      auto composite = composites_.find(id);
      if (composite == composites_.end() || composite->second.size() != 3) {
        return InvalidArgumentError("WorkgroupSize built-in is not a 3-component constant");
      }
      for (int i = 0; i < 3; ++i) {
        VKHLO_ASSIGN_OR_RETURN(size[i], ConstantValue(composite->second[i]));
      }
      return OkStatus();
    }
    if (local_size_id_) {
      for (int i = 0; i < 3; ++i) {
        VKHLO_ASSIGN_OR_RETURN(size[i], ConstantValue((*local_size_id_)[i]));
      }
      return OkStatus();
    }
    if (local_size_) {
      size = *local_size_;
      return OkStatus();
    }
    return InvalidArgumentError("compute shader declares no workgroup size");
  }

  StatusOr<uint64_t> SizeOf(uint32_t type, int depth = 0) const {
    if (depth > 32) return InvalidArgumentError("SPIR-V type nesting too deep");
    if (auto s = sizes_.find(type); s != sizes_.end()) return uint64_t{s->second};
    if (auto c = composite_.find(type); c != composite_.end()) {
      auto [element, count_or_id, is_array] = c->second;
      uint64_t count = count_or_id;
      if (is_array) {
        VKHLO_ASSIGN_OR_RETURN(uint32_t n, ConstantValue(count_or_id));
        count = n;
        if (auto stride = Decoration(type, kDecorationArrayStride)) return count * *stride;
      }
      VKHLO_ASSIGN_OR_RETURN(uint64_t element_size, SizeOf(element, depth + 1));
      return count * element_size;
    }
    if (runtime_arrays_.contains(type)) return uint64_t{0};
    if (auto st = structs_.find(type); st != structs_.end()) {
      // Explicit offsets (push constants, buffers) when present; packed otherwise (shared).
      auto offsets = member_offsets_.find(type);
      uint64_t end = 0;
      for (uint32_t i = 0; i < st->second.size(); ++i) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t member, SizeOf(st->second[i], depth + 1));
        uint64_t start = end;
        if (offsets != member_offsets_.end()) {
          auto o = offsets->second.find(i);
          if (o != offsets->second.end()) start = o->second;
        }
        end = std::max(end, start + member);
      }
      return end;
    }
    return InvalidArgumentError(fmt::format("cannot size SPIR-V type %{}", type));
  }

  std::span<const uint32_t> words_;
  std::optional<uint32_t> entry_point_;
  std::string entry_point_name_;
  std::optional<std::array<uint32_t, 3>> local_size_, local_size_id_;
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> decorations_;
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> member_offsets_;
  std::unordered_map<uint32_t, uint32_t> spec_ids_;   // result id -> SpecId
  std::unordered_map<uint32_t, uint32_t> overrides_;  // SpecId -> value
  std::unordered_map<uint32_t, uint32_t> sizes_;      // scalar type -> bytes
  struct Composite {
    uint32_t element;
    uint32_t count;  // component count, or the length constant's id for arrays
    bool is_array;
  };
  std::unordered_map<uint32_t, Composite> composite_;
  std::unordered_set<uint32_t> runtime_arrays_;
  std::set<uint32_t> capabilities_;
  std::unordered_map<uint32_t, ImageType> images_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> structs_;
  std::unordered_map<uint32_t, uint32_t> pointee_;
  std::unordered_map<uint32_t, uint32_t> constants_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> composites_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> variables_;  // id -> (type, storage)
};

}  // namespace

std::string_view BindingKindName(BindingKind kind) {
  switch (kind) {
    case BindingKind::kStorageBuffer: return "a storage buffer";
    case BindingKind::kUniformBuffer: return "a uniform buffer";
    case BindingKind::kStorageTexelBuffer: return "a storage texel buffer";
  }
  return "an unknown binding";
}

StatusOr<ShaderInterface> ReflectComputeShader(std::span<const uint32_t> spirv,
                                               std::span<const SpecializationValue> specialization) {
  Module module(spirv);
  VKHLO_RETURN_IF_ERROR(module.Parse(specialization));
  return module.Interface();
}

}  // namespace vkhlo::device
