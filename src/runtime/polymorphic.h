// Shape-polymorphic executables: a program with dynamic sizes (as jax.export writes a model
// with symbolic dimensions) compiled once into an executable that specialises itself. Execute
// looks at its arguments' shapes and at the values of the shape arguments (scalar integer
// parameters that decide shapes, passes/shapes/refine.h), refines the program to static shapes
// for them and compiles that (the usual compiler, kernels from the client's caches where the
// shapes were seen before), caching the result per combination, least recently used out
// beyond ClientState::specialization_cache_entries.
//
// The cache is the executable's (copies of an Executable share it) and is guarded by one
// mutex, held while a specialisation compiles: concurrent first calls with one new shape
// compile it once; calls with shapes already cached wait only for a lookup.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ir/module.h"
#include "runtime/execution.h"
#include "runtime/state.h"
#include "support/lru_cache.h"

namespace vkhlo::runtime {

struct PolymorphicProgram {
  std::unique_ptr<ir::Module> module;  // verified, sizes still dynamic
  std::string entry;
  CompileOptions options;              // what each specialisation compiles with
  std::vector<ir::Type> parameters;    // the entry's parameter types
  std::vector<int64_t> shape_parameters;  // parameter indices (tokens counted)

  std::mutex mutex;  // guards what follows
  LruCache<std::string, std::shared_ptr<ExecutableState>> cache{16};
  SpecializationStats stats;
};

// CompileModule's path for a module with dynamic sizes, or with options.argument_types: a
// self-specialising executable, or, when options.argument_types is given (or the entry's
// parameters are static and none of them decides shapes), straight the static executable for
// those types.
StatusOr<Executable> CompilePolymorphic(const Client& client, std::unique_ptr<ir::Module> module,
                                        const CompileOptions& options);

// The specialisation of `exe` (polymorphic) for parameter types `types` (tokens included) and
// shape-parameter values by parameter index: cached, else refined and compiled now.
StatusOr<std::shared_ptr<ExecutableState>> Specialization(const ExecutableState& exe, const std::vector<ir::Type>& types,
                                                          const std::map<int64_t, int64_t>& values);

// RunEntry for a polymorphic executable: the specialisation for `arguments`, then its RunEntry.
StatusOr<std::vector<Buffer>> RunPolymorphic(const ExecutableState& exe, std::span<const Buffer> arguments,
                                             const ProcessContext& process, ExecutionStats* stats);

// Parameter index <-> argument index (tokens take no argument).
std::vector<int64_t> ArgumentIndicesOfParameters(const std::vector<ir::Type>& parameters,
                                                 const std::vector<int64_t>& parameter_indices);

}  // namespace vkhlo::runtime
