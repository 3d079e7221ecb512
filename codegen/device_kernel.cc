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

namespace {

// The writer of a fixed-text device kernel: bindings b0, b1, ... as `uint[]`, read-write where
// written (see the header).
ShaderWriter FixedKernelWriter(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size) {
  ShaderWriter w("device kernel");
  w.Workgroup(workgroup_size[0], workgroup_size[1], workgroup_size[2]);
  for (size_t b = 0; b < bindings.size(); ++b) {
    w.StorageBuffer(static_cast<uint32_t>(b), fmt::format("b{}", b), "uint",
                    bindings[b].written ? BufferAccess::kReadWrite : BufferAccess::kRead);
  }
  return w;
}

// What `b` holds, for the header's binding table.
std::string DescribeKernelBuffer(const KernelBuffer& b) {
  switch (b.kind) {
    case KernelBuffer::Kind::kValue:
      return fmt::format("{} {}", b.written ? "output" : "input",
                         b.value != nullptr ? b.value->type().ToString() : std::string("value"));
    case KernelBuffer::Kind::kScratch:
      return fmt::format("scratch {}", b.scratch);
    case KernelBuffer::Kind::kConstant:
      return fmt::format("constant table {}", b.scratch);
  }
  return "";
}

}  // namespace

std::string DeviceKernelHeader(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                               const std::string& push_fields, const std::vector<std::string>& extensions,
                               const KernelHeaderFacts& facts) {
  ShaderWriter w = FixedKernelWriter(bindings, workgroup_size);
  if (!facts.name.empty()) w.set_kernel("device kernel " + facts.name);
  for (const std::string& line : facts.config) w.Config(line);
  for (const std::string& line : facts.why) w.Why(line);
  if (facts.op != nullptr) w.FusedOp(*facts.op, facts.source_name);
  if (!facts.name.empty()) {
    for (size_t b = 0; b < bindings.size(); ++b) w.DescribeBinding(static_cast<uint32_t>(b), DescribeKernelBuffer(bindings[b]));
  }
  for (const std::string& ext : extensions) w.prelude().Extension(ext);
  w.PushWords(push_fields);
  return w.Prologue();
}

std::string KeepBindingsStatement(size_t num_bindings) {
  // Every binding of DeviceKernelHeader is readable: the writer's statement only reads.
  std::vector<KernelBuffer> bindings(num_bindings, KernelBuffer::Read(nullptr));
  return FixedKernelWriter(bindings, {1, 1, 1}).KeepBindingsStatement();
}

}  // namespace vkhlo::codegen
