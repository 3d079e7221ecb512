// Running a custom_call (plan::CustomCallStep): a kernel target is one dispatch in the
// execution's command list; a host callback synchronizes (flush, read operands back, call,
// upload results).
#include <fmt/format.h>

#include "device/transfer.h"
#include "runtime/execution.h"
#include "runtime/profiler.h"

namespace vkhlo::runtime {
namespace {

device::BufferView TensorView(const device::Buffer& buffer, const TensorDesc& type) {
  const uint64_t bytes = BufferBytes(type);
  return bytes == 0 ? buffer.view() : buffer.view(0, bytes);
}

}  // namespace

StatusOr<std::vector<RtValue>> Execution::RunCustomCall(const plan::CustomCallStep& step,
                                                        const std::vector<RtValue>& operands) {
  for (const RtValue& v : operands) {
    if (v.kind != RtValue::Kind::kTensor) return InternalError("custom_call operand is not a tensor");
  }
  std::vector<RtValue> results;
  std::vector<std::shared_ptr<BufferState>> keep;
  const std::string described = fmt::format("stablehlo.custom_call at {}", step.location);

  if (!step.host_callback) {
    const plan::Dispatch& dispatch = step.dispatch;
    std::vector<device::Binding> bindings;
    uint64_t read = 0, written = 0;
    for (const RtValue& v : operands) {
      bindings.push_back({TensorView(v.storage->buffer, v.type), device::Access::kRead});
      read += BufferBytes(v.type);
      keep.push_back(v.storage);
    }
    for (uint32_t id : step.results) {
      const TensorDesc& type = TypeOf(id);
      VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> storage, AllocateTensor(client_, type));
      bindings.push_back({TensorView(storage->buffer, type), device::Access::kWrite});
      written += BufferBytes(type);
      results.push_back(RtValue::Tensor(storage, type));
      keep.push_back(std::move(storage));
    }
    const auto& grid = dispatch.grid;
    if (grid[0] != 0 && grid[1] != 0 && grid[2] != 0) {
      VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
      const auto& push = dispatch.push_words;
      Status recorded = list->Dispatch(*loaded_.pipelines[dispatch.kernel], bindings,
                                       std::as_bytes(std::span<const uint32_t>(push)), {grid[0], grid[1], grid[2]});
      if (!recorded.ok()) return recorded.WithContext(step.location);
      stats_.kernels_dispatched++;
      stats_.bytes_read += read;
      stats_.bytes_written += written;
      Retire(keep);
      if (profiler_ != nullptr) {
        ProfileEvent event = DispatchEvent(nullptr, "custom_call @" + step.target, "", read + written, 0);
        event.kernel = event.name;
        event.kernel_class = "custom call";
        event.source_op = described;
        event.fused_ops = {event.source_op};
        VKHLO_RETURN_IF_ERROR(Profiled(std::move(event)));
      }
    }
    Retire(keep);
    return results;
  }

  // A host callback: the operands' producers must have finished.
  auto found = loaded_.host_callbacks.find(&step);
  if (found == loaded_.host_callbacks.end()) {
    return InternalError(fmt::format("{}: custom_call @{}: no host callback was resolved", step.location, step.target));
  }
  const CustomCallHostCallback& host = std::get<CustomCallHostCallback>(found->second->implementation);
  VKHLO_RETURN_IF_ERROR(Flush());
  const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
  uint64_t moved = 0;
  std::vector<Literal> inputs;
  for (const RtValue& v : operands) {
    std::vector<uint8_t> bytes(v.type.storage_bytes());
    moved += bytes.size();
    if (!bytes.empty()) {
      VKHLO_RETURN_IF_ERROR(client_->device->transfers().Download(
          v.storage->buffer, 0, std::as_writable_bytes(std::span<uint8_t>(bytes))));
    }
    VKHLO_ASSIGN_OR_RETURN(Literal literal, LiteralFromBytes(v.type, bytes));
    inputs.push_back(std::move(literal));
  }
  std::vector<Literal> outputs;
  std::vector<Shape> shapes;
  for (uint32_t id : step.results) {
    Shape shape = ShapeOf(TypeOf(id));
    VKHLO_ASSIGN_OR_RETURN(Literal literal, Literal::Create(shape));
    outputs.push_back(std::move(literal));
    shapes.push_back(std::move(shape));
  }
  const std::string backend_config(step.backend_config.begin(), step.backend_config.end());
  const CustomCallContext context{step.target, backend_config, step.api_version, step.has_side_effect, step.location};
  Status status = host.function(inputs, outputs, context);
  if (!status.ok()) {
    return Status(status.code(), fmt::format("{}: error: custom_call @{} failed: {}", step.location, step.target,
                                             status.message()));
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorDesc& type = TypeOf(step.results[i]);
    if (!ShapeUtil::Compatible(outputs[i].shape(), shapes[i])) {
      return InvalidArgumentError(fmt::format("{}: error: custom_call @{} changed result {} to {}; it must stay {}",
                                              step.location, step.target, i, outputs[i].shape().ToString(),
                                              shapes[i].ToString()));
    }
    std::span<const uint8_t> raw = LiteralBytes(outputs[i]);
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> storage, AllocateTensor(client_, type));
    if (!raw.empty()) {
      VKHLO_RETURN_IF_ERROR(client_->device->transfers().Upload(storage->buffer, 0, std::as_bytes(raw)));
    }
    moved += raw.size();
    results.push_back(RtValue::Tensor(std::move(storage), type));
  }
  if (profiler_ != nullptr) {
    // Operands down, the call, results up: one host step.
    profiler_->Host("host callback @" + step.target, "host: callback", described, start, moved);
  }
  return results;
}

}  // namespace vkhlo::runtime
