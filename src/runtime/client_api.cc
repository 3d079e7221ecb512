// The embedding API of include/vkhlo/runtime.h (XLA's names): Client::Create with ClientOptions,
// compiling XlaComputations and StableHLO text, Literals in and out of device Buffers, and
// ExecuteAndTransfer with its per-computation executable cache. Built on the byte-level calls
// the tools use (client.cc, compile.cc, execute.cc).
#include <fmt/format.h>

#include <mutex>

#include "builder/computation_module.h"
#include "builder/literal_conversion.h"
#include "builder/type_conversion.h"
#include "device/device.h"
#include "device/profile.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "support/env.h"
#include "support/lru_cache.h"
#include "vkhlo/process_grid.h"

namespace vkhlo {
namespace runtime {

// ExecuteAndTransfer's executables, one per computation, the least recently used dropped
// beyond ClientState::executable_cache_entries. A computation is known by its shared module
// (copies of an XlaComputation share it); the entry holds it weakly, so a computation that is
// gone frees its executable at the next miss, and an entry whose module address was reused by
// a newer computation is recognized as stale (its weak pointer no longer leads there).
struct ExecutableCache {
  struct Entry {
    std::weak_ptr<const ir::Module> module;
    std::shared_ptr<Executable> executable;
  };
  std::mutex mutex;  // held while compiling too: a computation compiles once
  LruCache<const ir::Module*, Entry> entries{0};
  uint64_t compiled = 0;
};

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

// The literal for `shape` from the flattened result buffers, consuming them in order (tuples
// element by element; tokens hold no data and take no buffer).
StatusOr<Literal> AssembleResult(const Shape& shape, const std::vector<Buffer>& buffers, size_t& next) {
  if (shape.IsToken()) return LiteralUtil::CreateToken();
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      VKHLO_ASSIGN_OR_RETURN(Literal literal, AssembleResult(element, buffers, next));
      elements.push_back(std::move(literal));
    }
    return LiteralUtil::MakeTupleOwned(std::move(elements));
  }
  if (next >= buffers.size()) {
    return InternalError(fmt::format("the executable returned {} tensors, fewer than its result shape has", buffers.size()));
  }
  return buffers[next++].ToLiteral();
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

StatusOr<std::unique_ptr<Executable>> Client::Compile(const XlaComputation& computation) const {
  VKHLO_ASSIGN_OR_RETURN(Executable executable, Compile(ProgramSource(computation), CompileOptions{}));
  return std::make_unique<Executable>(std::move(executable));
}

StatusOr<std::unique_ptr<Executable>> Client::CompileStableHlo(std::string_view program) const {
  VKHLO_ASSIGN_OR_RETURN(Executable executable, Compile(ProgramSource(program), CompileOptions{}));
  return std::make_unique<Executable>(std::move(executable));
}

StatusOr<std::unique_ptr<Executable>> Client::CompileStableHlo(std::span<const uint8_t> program) const {
  return CompileStableHlo(std::string_view(reinterpret_cast<const char*>(program.data()), program.size()));
}

StatusOr<Buffer> Client::TransferToDevice(const Literal& literal) const {
  if (!literal.shape().IsArray()) {
    return InvalidArgumentError("TransferToDevice: " + literal.shape().ToString() +
                                " is not an array (transfer tuple elements one by one)");
  }
  // The IR literal is row-major whatever the public literal's layout (Literal keeps its
  // elements in logical order; the layout only orders its physical views).
  VKHLO_ASSIGN_OR_RETURN(ir::Literal value, internal::ToIrLiteral(literal));
  return runtime::BufferFromLiteral(*this, value);
}

StatusOr<Literal> Buffer::ToLiteral() const {
  VKHLO_ASSIGN_OR_RETURN(ir::Literal value, runtime::BufferToLiteral(*this));
  return internal::FromIrLiteral(value);
}

Shape Buffer::shape() const {
  if (!state_) return ShapeUtil::MakeTupleShape({});
  StatusOr<Shape> shape = internal::FromIrType(state_->type);
  // A quantized tensor has no PrimitiveType (only StableHLO text makes one).
  return shape.ok() ? *shape : ShapeUtil::MakeTupleShape({});
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

StatusOr<Literal> Client::ExecuteAndTransfer(const XlaComputation& computation,
                                             std::vector<const Literal*> arguments) const {
  std::shared_ptr<const ir::Module> key = internal::SharedComputationModule(computation);
  if (key == nullptr) return InvalidArgumentError("ExecuteAndTransfer: the computation is empty");
  VKHLO_ASSIGN_OR_RETURN(ProgramShape program_shape, computation.GetProgramShape());
  if (arguments.size() != program_shape.parameters().size()) {
    return InvalidArgumentError(fmt::format("ExecuteAndTransfer: {} takes {} arguments, given {}", computation.name(),
                                            program_shape.parameters().size(), arguments.size()));
  }
  std::shared_ptr<Executable> executable;
  {
    std::lock_guard<std::mutex> lock(cache_->mutex);
    auto& entries = cache_->entries;
    entries.set_capacity(state_->executable_cache_entries);
    runtime::ExecutableCache::Entry* entry = entries.Find(key.get());
    if (entry != nullptr && entry->module.lock() == key) {
      executable = entry->executable;
    } else {
      // Computations that are gone free their executables now.
      entries.EraseIf([](const ir::Module*, const runtime::ExecutableCache::Entry& e) { return e.module.expired(); });
      VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Executable> compiled, Compile(computation));
      executable = std::move(compiled);
      entries.Insert(key.get(), {key, executable});
      ++cache_->compiled;
    }
  }
  std::vector<Buffer> buffers;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == nullptr) {
      return InvalidArgumentError(fmt::format("ExecuteAndTransfer: argument {} is a null pointer", i));
    }
    const Shape& expected = program_shape.parameters()[i];
    if (!ShapeUtil::Compatible(expected, arguments[i]->shape())) {
      return InvalidArgumentError(fmt::format("ExecuteAndTransfer: argument {} must be {}, given {}", i,
                                              expected.ToString(), arguments[i]->shape().ToString()));
    }
    VKHLO_ASSIGN_OR_RETURN(Buffer buffer, TransferToDevice(*arguments[i]));
    buffers.push_back(std::move(buffer));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable->ExecuteBuffers(buffers));
  size_t next = 0;
  VKHLO_ASSIGN_OR_RETURN(Literal result, runtime::AssembleResult(program_shape.result(), results, next));
  if (next != results.size()) {
    return InternalError(fmt::format("the executable returned {} tensors, more than its result shape has", results.size()));
  }
  return result;
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
    VKHLO_ASSIGN_OR_RETURN(ir::Literal value, internal::ToIrLiteral(*tensor));
    VKHLO_RETURN_IF_ERROR(value.Expand());
    std::span<const uint8_t> raw = value.raw();
    entry.push_back(HostTensor{runtime::ToTensorType(value.type()), std::vector<uint8_t>(raw.begin(), raw.end())});
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
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, runtime::FromTensorType((*entry)[i].type));
    VKHLO_ASSIGN_OR_RETURN(ir::Literal value, type.num_elements() == 0
                                                  ? ir::Literal::Create(type)
                                                  : ir::Literal::FromBytes(type, std::move((*entry)[i].bytes)));
    VKHLO_ASSIGN_OR_RETURN(Literal literal, internal::FromIrLiteral(value));
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
