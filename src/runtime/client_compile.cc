// The compiling half of the Client (include/vkhlo/runtime.h): Client::Compile from text, a
// portable artifact or an XlaComputation, XLA's boxed spellings of it, and ExecuteAndTransfer
// with its per-computation executable cache. A runtime-only build (vkhlo::runtime) has none of
// this: it loads plans (load_executable.cc).
#include <fmt/format.h>

#include <mutex>

#include "builder/computation_module.h"
#include "frontend/bytecode/program.h"
#include "frontend/parser.h"
#include "runtime/executable_cache.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "support/sha256.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace runtime {
namespace {

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

StatusOr<Executable> Client::Compile(const ProgramSource& source, const CompileOptions& options) const {
  std::unique_ptr<ir::Module> module;
  if (const XlaComputation* computation = source.computation()) {
    module = internal::CloneComputationModule(*computation);
    if (module == nullptr) return InvalidArgumentError("Compile: the computation is empty");
    // Errors name the computation where a parsed program would name its file.
    if (module->source_name().empty()) module->set_source_name("computation '" + computation->name() + "'");
  } else {
    VKHLO_ASSIGN_OR_RETURN(module, frontend::ParseProgram(source.program()));
    VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));  // a built computation is checked as it is built
  }
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(*this, std::move(module), options));
  // The plan's source hash (runtime/plan_lowering.h): of the text or bytes as given.
  if (source.computation() == nullptr) executable.state()->source_sha256 = Sha256Of(source.program());
  return executable;
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
    if (entry != nullptr && entry->module.lock() == std::static_pointer_cast<const void>(key)) {
      executable = entry->executable;
    } else {
      // Computations that are gone free their executables now.
      entries.EraseIf([](const void*, const runtime::ExecutableCache::Entry& e) { return e.module.expired(); });
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

}  // namespace vkhlo
