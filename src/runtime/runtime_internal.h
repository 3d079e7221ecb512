// Entry points for vkhlo's own tools and tests, which work with the IR directly: compiling a
// parsed module and moving ir::Literals in and out of device buffers.
#pragma once

#include <memory>

#include "device/device.h"
#include "runtime/state.h"
#include "ir/literal.h"
#include "ir/module.h"
#include "vkhlo/runtime.h"

namespace vkhlo::runtime {

// The plan Executable::Serialize writes for a compiled executable (ExecutableState::lower_to_plan).
StatusOr<plan::Plan> LowerForSerialize(const ExecutableState& exe);

// Sets Executable::parameter_types / result_types from the entry's signature.
void SetSignature(ExecutableState& exe, const ir::FunctionType& entry);

// Makes `client`'s GLSL compiler on its first compile (ClientState::compiler).
Status EnsureCompiler(ClientState& client);

// Compiles `module` (verified) for `client`'s device. The executable keeps the module.
StatusOr<Executable> CompileModule(const Client& client, std::unique_ptr<ir::Module> module,
                                   const CompileOptions& options = {});

// Bounds of a client's own in-memory caches (the pipeline cache's is in DeviceOptions).
struct ClientCacheLimits {
  uint64_t spirv_cache_bytes = 64ull << 20;  // GlslCompiler's memory cache
  uint64_t executable_cache_entries = 64;    // ExecuteAndTransfer's executables
  uint64_t specialization_cache_entries = 16;  // each polymorphic executable's specialisations
  // The defaults, overridden by VKHLO_SPIRV_CACHE_BYTES, VKHLO_EXECUTABLE_CACHE_ENTRIES and
  // VKHLO_SPECIALIZATION_CACHE_ENTRIES.
  static StatusOr<ClientCacheLimits> FromEnvironment();
};

// A client on a device opened with `options` (tests install their validation handler), its
// caches bounded by `limits` (by default: from the environment).
StatusOr<Client> CreateClient(device::DeviceOptions options, ClientCacheLimits limits);
StatusOr<Client> CreateClient(device::DeviceOptions options);

StatusOr<Buffer> BufferFromLiteral(const Client& client, const ir::Literal& literal);
StatusOr<ir::Literal> BufferToLiteral(const Buffer& buffer);

// Whether `buffer` lives on `client` (and so on its device).
bool SameClient(const Buffer& buffer, const Client& client);

}  // namespace vkhlo::runtime
