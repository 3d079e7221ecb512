// Entry points for vkhlo's own tools and tests that work with the IR: compiling a parsed module
// and moving ir::Literals in and out of device buffers (the compiler's side; what needs the
// runtime alone is client_internal.h).
#pragma once

#include <memory>

#include "ir/literal.h"
#include "ir/module.h"
#include "runtime/client_internal.h"
#include "runtime/state.h"
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

StatusOr<Buffer> BufferFromLiteral(const Client& client, const ir::Literal& literal);
StatusOr<ir::Literal> BufferToLiteral(const Buffer& buffer);

}  // namespace vkhlo::runtime
