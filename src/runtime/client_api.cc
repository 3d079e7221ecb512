// The embedding API of include/vkhlo/runtime.h (XLA's names) that needs no compiler:
// Client::Create with ClientOptions, Literals in and out of device Buffers, feeds. Compiling
// (XlaComputations, StableHLO) and ExecuteAndTransfer are client_compile.cc's.
#include <fmt/format.h>

#include <mutex>

#include "device/device.h"
#include "device/profile.h"
#include "runtime/executable_cache.h"
#include "runtime/client_internal.h"
#include "runtime/state.h"
#include "support/env.h"
#include "vkhlo/process_grid.h"

namespace vkhlo {
namespace runtime {
namespace {

StatusOr<device::DeviceOptions> DeviceOptionsFor(const ClientOptions& options) {
  device::DeviceOptions result;
  result.instance = device::InstanceOptions::FromEnvironment();
  if (options.validation) result.instance.enable_validation = *options.validation;
  result.device_request = options.device ? options.device : GetEnv("VKHLO_DEVICE");
  if (options.profile) {
    VKHLO_ASSIGN_OR_RETURN(result.profile, device::ParseProfile(*options.profile));
  } else {
    VKHLO_ASSIGN_OR_RETURN(result.profile, device::ProfileFromEnvironment());
  }
  result.cache_directory = CacheDirectory();
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> memory_limit, GetEnvSize("VKHLO_DEVICE_MEMORY_LIMIT"));
  result.memory_budget_bytes = options.device_memory_limit.value_or(memory_limit.value_or(0));
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> pipelines, GetEnvSize("VKHLO_PIPELINE_CACHE_ENTRIES"));
  result.pipeline_cache_entries = options.pipeline_cache_entries.value_or(pipelines.value_or(result.pipeline_cache_entries));
  return result;
}

}  // namespace
}  // namespace runtime

Client::Client(std::shared_ptr<runtime::ClientState> state)
    : state_(std::move(state)), cache_(std::make_shared<runtime::ExecutableCache>()) {}

StatusOr<std::unique_ptr<Client>> Client::Create(ClientOptions options) {
  VKHLO_ASSIGN_OR_RETURN(device::DeviceOptions device_options, runtime::DeviceOptionsFor(options));
  VKHLO_ASSIGN_OR_RETURN(runtime::ClientCacheLimits limits, runtime::ClientCacheLimits::FromEnvironment());
  if (options.spirv_cache_bytes) limits.spirv_cache_bytes = *options.spirv_cache_bytes;
  if (options.executable_cache_entries) limits.executable_cache_entries = *options.executable_cache_entries;
  if (options.specialization_cache_entries) limits.specialization_cache_entries = *options.specialization_cache_entries;
  VKHLO_ASSIGN_OR_RETURN(Client client, runtime::CreateClient(std::move(device_options), limits));
  return std::make_unique<Client>(std::move(client));
}

StatusOr<Buffer> Client::TransferToDevice(const Literal& literal) const {
  if (!literal.shape().IsArray()) {
    return InvalidArgumentError("TransferToDevice: " + literal.shape().ToString() +
                                " is not an array (transfer tuple elements one by one)");
  }
  // Row-major whatever the literal's layout (Literal keeps its elements in logical order; the
  // layout only orders its physical views).
  VKHLO_ASSIGN_OR_RETURN(runtime::TensorDesc type, runtime::DescOf(literal.shape()));
  return BufferFromHost(type.ToTensorType(), runtime::LiteralBytes(literal));
}

StatusOr<Literal> Buffer::ToLiteral() const {
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ToHost());
  return runtime::LiteralFromBytes(state_->type, bytes);
}

Shape Buffer::shape() const {
  if (!state_) return ShapeUtil::MakeTupleShape({});
  return runtime::ShapeOf(state_->type);
}

StatusOr<std::vector<Buffer>> Executable::Execute(std::vector<const Buffer*> arguments) const {
  return Execute(std::move(arguments), ExecuteOptions{});
}

StatusOr<std::vector<Buffer>> Executable::Execute(std::vector<const Buffer*> arguments,
                                                  const ExecuteOptions& options) const {
  std::vector<Buffer> buffers;
  buffers.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == nullptr) return InvalidArgumentError(fmt::format("Execute: argument {} is a null pointer", i));
    buffers.push_back(*arguments[i]);
  }
  return ExecuteBuffers(buffers, options);
}

FeedQueue& Client::infeed() const { return *state_->infeed; }
FeedQueue& Client::outfeed() const { return *state_->outfeed; }

Status Client::TransferToInfeed(const Literal& literal) const {
  std::vector<const Literal*> tensors;
  std::vector<Literal> elements;
  if (literal.shape().IsTuple()) {
    elements = Literal(literal).DecomposeTuple();
    for (const Literal& e : elements) tensors.push_back(&e);
  } else {
    tensors.push_back(&literal);
  }
  std::vector<HostTensor> entry;
  for (const Literal* tensor : tensors) {
    if (!tensor->shape().IsArray()) {
      return InvalidArgumentError("TransferToInfeed: " + literal.shape().ToString() +
                                  " is not an array or a tuple of arrays");
    }
    VKHLO_ASSIGN_OR_RETURN(runtime::TensorDesc type, runtime::DescOf(tensor->shape()));
    std::span<const uint8_t> raw = runtime::LiteralBytes(*tensor);
    entry.push_back(HostTensor{type.ToTensorType(), std::vector<uint8_t>(raw.begin(), raw.end())});
  }
  state_->infeed->Push(std::move(entry));
  return OkStatus();
}

StatusOr<Literal> Client::TransferFromOutfeed(const Shape& shape) const {
  const std::vector<Shape> shapes = shape.IsTuple() ? shape.tuple_shapes() : std::vector<Shape>{shape};
  std::optional<std::vector<HostTensor>> entry = state_->outfeed->Pop();
  if (!entry) return FailedPreconditionError("TransferFromOutfeed: the outfeed is empty");
  if (entry->size() != shapes.size()) {
    return InvalidArgumentError(fmt::format("TransferFromOutfeed: the outfeed entry has {} tensor(s), {} has {}",
                                            entry->size(), shape.ToString(), shapes.size()));
  }
  std::vector<Literal> literals;
  for (size_t i = 0; i < shapes.size(); ++i) {
    VKHLO_ASSIGN_OR_RETURN(runtime::TensorDesc type, runtime::DescOf((*entry)[i].type));
    VKHLO_ASSIGN_OR_RETURN(Literal literal, runtime::LiteralFromBytes(type, (*entry)[i].bytes));
    if (!ShapeUtil::Compatible(literal.shape(), shapes[i])) {
      return InvalidArgumentError(fmt::format("TransferFromOutfeed: the outfeed holds {}, expected {}",
                                              literal.shape().ToString(), shapes[i].ToString()));
    }
    literals.push_back(std::move(literal));
  }
  if (!shape.IsTuple()) return std::move(literals[0]);
  return LiteralUtil::MakeTupleOwned(std::move(literals));
}

uint64_t Client::computations_compiled() const {
  std::lock_guard<std::mutex> lock(cache_->mutex);
  return cache_->compiled;
}

uint64_t Client::cached_executables() const {
  std::lock_guard<std::mutex> lock(cache_->mutex);
  return cache_->entries.size();
}

}  // namespace vkhlo
