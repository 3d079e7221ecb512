#include "codegen/device_kernel.h"

#include <fmt/format.h>

namespace vkhlo::codegen {

void DeviceKernelTable::Register(ir::OpCode code, DeviceKernelEmitter emitter) {
  const size_t i = static_cast<size_t>(code);
  if (table_.size() <= i) table_.resize(i + 1);
  table_[i] = emitter;
}

const DeviceKernelEmitter* DeviceKernelTable::Find(ir::OpCode code) const {
  const size_t i = static_cast<size_t>(code);
  if (i >= table_.size() || table_[i].emit == nullptr) return nullptr;
  return &table_[i];
}

namespace {

DeviceKernelTable& MutableTable() {
  static DeviceKernelTable* table = [] {
    auto* t = new DeviceKernelTable();
    RegisterAllDeviceKernels(*t);
    return t;
  }();
  return *table;
}

// Plain tensors only (no tuples, tokens or quantized types) in and out.
bool PlainTensors(const ir::Operation& op) {
  auto plain = [](const ir::Type& t) { return t.is_tensor() && !t.is_quantized(); };
  for (const ir::Value* v : op.operands()) {
    if (!plain(v->type())) return false;
  }
  for (size_t i = 0; i < op.num_results(); ++i) {
    if (!plain(op.result(i)->type())) return false;
  }
  return true;
}

}  // namespace

const DeviceKernelTable& DeviceKernelEmitters() { return MutableTable(); }

void RegisterDeviceKernelForTesting(ir::OpCode code, DeviceKernelEmitter emitter) { MutableTable().Register(code, emitter); }

const DeviceKernelEmitter* FindDeviceKernelEmitter(const ir::Operation& op) {
  const DeviceKernelEmitter* emitter = DeviceKernelEmitters().Find(op.code());
  if (emitter == nullptr || !PlainTensors(op)) return nullptr;
  if (emitter->accepts != nullptr && !emitter->accepts(op)) return nullptr;
  return emitter;
}

std::string DeviceKernelHeader(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                               const std::string& push_fields, const std::vector<std::string>& extensions) {
  std::string glsl = "#version 450\n";
  for (const std::string& ext : extensions) glsl += fmt::format("#extension {} : require\n", ext);
  glsl += fmt::format("layout(local_size_x = {}, local_size_y = {}, local_size_z = {}) in;\n", workgroup_size[0],
                      workgroup_size[1], workgroup_size[2]);
  for (size_t b = 0; b < bindings.size(); ++b) {
    glsl += fmt::format("layout(set = 0, binding = {0}) {1} buffer Buffer{0} {{ uint b{0}[]; }};\n", b,
                        bindings[b].written ? "restrict" : "readonly restrict");
  }
  glsl += fmt::format("layout(push_constant) uniform Push {{ uvec4 vkhlo_workgroup_base; {}}} pc;\n", push_fields);
  glsl += "#define vkhlo_workgroup_id(pc) (gl_WorkGroupID + (pc).vkhlo_workgroup_base.xyz)\n";
  return glsl;
}

std::string KeepBindingsStatement(size_t num_bindings) {
  if (num_bindings == 0) return "";
  // The base's w is never set (always 0), and the compiler cannot know it: a condition that
  // reads every binding keeps them all, and costs one uniform comparison.
  std::string reads;
  for (size_t b = 0; b < num_bindings; ++b) reads += fmt::format("{}b{}[0]", b ? " ^ " : "", b);
  return fmt::format("if (pc.vkhlo_workgroup_base.w == 0xffffffffu && ({}) == 0x12345678u) return;", reads);
}

}  // namespace vkhlo::codegen
