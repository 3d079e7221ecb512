#include "runtime/polymorphic.h"
#include "runtime/profiler.h"

#include <fmt/format.h>

#include <chrono>

#include "passes/shapes/refine.h"
#include "runtime/ir_tensor_desc.h"
#include "runtime/runtime_internal.h"

namespace vkhlo::runtime {
namespace {

using Clock = std::chrono::steady_clock;

std::string Key(const std::vector<ir::Type>& types, const std::map<int64_t, int64_t>& values) {
  std::string key;
  for (const ir::Type& t : types) key += t.ToString() + ";";
  for (const auto& [index, value] : values) key += fmt::format("{}={};", index, value);
  return key;
}

// The entry's parameter types for these argument buffers (tokens take none).
StatusOr<std::vector<ir::Type>> ParameterTypes(const PolymorphicProgram& program, std::span<const Buffer> arguments) {
  std::vector<ir::Type> types;
  size_t next = 0;
  for (const ir::Type& parameter : program.parameters) {
    if (parameter.is_token()) {
      types.push_back(parameter);
      continue;
    }
    if (next >= arguments.size()) break;
    const Buffer& argument = arguments[next];
    if (!argument) return InvalidArgumentError(fmt::format("@{}: argument {} is an empty Buffer", program.entry, next));
    types.push_back(IrTypeOf(argument.state()->type));
    ++next;
  }
  if (next != arguments.size() || types.size() != program.parameters.size()) {
    size_t expected = 0;
    for (const ir::Type& parameter : program.parameters) expected += parameter.is_token() ? 0 : 1;
    return InvalidArgumentError(fmt::format("@{} takes {} arguments, given {}", program.entry, expected,
                                            arguments.size()));
  }
  return types;
}

}  // namespace

std::vector<int64_t> ArgumentIndicesOfParameters(const std::vector<ir::Type>& parameters,
                                                 const std::vector<int64_t>& parameter_indices) {
  std::vector<int64_t> argument_of(parameters.size(), -1);
  int64_t next = 0;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (!parameters[i].is_token()) argument_of[i] = next++;
  }
  std::vector<int64_t> out;
  for (int64_t p : parameter_indices) {
    if (p >= 0 && static_cast<size_t>(p) < parameters.size()) out.push_back(argument_of[static_cast<size_t>(p)]);
  }
  return out;
}

StatusOr<Executable> CompilePolymorphic(const Client& client, std::unique_ptr<ir::Module> module,
                                        const CompileOptions& options) {
  const ir::Function* entry = module->FindFunction(options.entry);
  if (!passes::shapes::NeedsRefinement(*module) || entry == nullptr) {
    CompileOptions plain = options;
    plain.argument_types.clear();
    plain.argument_values.clear();
    if (entry != nullptr) {
      // Static already: the types asked for must be its own.
      size_t next = 0;
      for (const ir::Type& t : entry->type().inputs) {
        if (t.is_token()) continue;
        if (next >= options.argument_types.size() || ToTensorType(t) != options.argument_types[next]) {
          return InvalidArgumentError(fmt::format("@{} takes static arguments of its own types: argument {} is {}",
                                                  options.entry, next, t.ToString()));
        }
        ++next;
      }
    }
    return CompileModule(client, std::move(module), plain);
  }
  auto program = std::make_shared<PolymorphicProgram>();
  program->entry = options.entry;
  program->options = options;
  program->options.argument_types.clear();
  program->options.argument_values.clear();
  program->parameters = entry->type().inputs;
  VKHLO_ASSIGN_OR_RETURN(program->shape_parameters, passes::shapes::ShapeArguments(*module, options.entry));
  program->cache.set_capacity(client.state()->specialization_cache_entries);
  program->module = std::move(module);

  auto exe = std::make_shared<ExecutableState>();
  exe->client = client.state();
  exe->polymorphic = program;
  exe->run_polymorphic = &RunPolymorphic;
  exe->lower_to_plan = &LowerForSerialize;  // UNIMPLEMENTED, with the reason
  SetSignature(*exe, entry->type());
  Executable executable(exe);

  bool static_parameters = true;
  for (const ir::Type& t : program->parameters) static_parameters &= t.is_static();
  if (!options.argument_types.empty()) {
    // Ahead of time, for the types asked for.
    return executable.Specialize(options.argument_types, options.argument_values);
  }
  if (static_parameters && program->shape_parameters.empty()) {
    // Static signature with dynamic insides (get_dimension_size feeding dynamic ops): one
    // specialisation, now.
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<ExecutableState> only, Specialization(*exe, program->parameters, {}));
    return Executable(std::move(only));
  }
  return executable;
}

StatusOr<std::shared_ptr<ExecutableState>> Specialization(const ExecutableState& exe, const std::vector<ir::Type>& types,
                                                          const std::map<int64_t, int64_t>& values) {
  PolymorphicProgram& program = *exe.polymorphic;
  const std::string key = Key(types, values);
  std::lock_guard<std::mutex> lock(program.mutex);
  if (std::shared_ptr<ExecutableState>* cached = program.cache.Find(key)) {
    ++program.stats.hits;
    return *cached;
  }
  const auto start = Clock::now();
  passes::shapes::RefinementInputs inputs;
  inputs.argument_types = types;
  inputs.argument_values = values;
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> refined,
                         passes::shapes::Specialize(*program.module, program.entry, inputs));
  VKHLO_ASSIGN_OR_RETURN(Executable compiled, CompileModule(Client(exe.client), std::move(refined), program.options));
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  std::shared_ptr<ExecutableState> state = compiled.state();
  program.cache.Insert(key, state);
  program.stats.compiled++;
  program.stats.compile_ms += ms;
  program.stats.last_compile_ms = ms;
  program.stats.evicted = program.cache.evictions();
  program.stats.cached = program.cache.size();
  return state;
}

StatusOr<std::vector<Buffer>> RunPolymorphic(const ExecutableState& exe, std::span<const Buffer> arguments,
                                             const ProcessContext& process, ExecutionStats* stats) {
  const PolymorphicProgram& program = *exe.polymorphic;
  VKHLO_ASSIGN_OR_RETURN(std::vector<ir::Type> types, ParameterTypes(program, arguments));
  std::map<int64_t, int64_t> values;
  const std::vector<int64_t> argument_index =
      ArgumentIndicesOfParameters(program.parameters, program.shape_parameters);
  for (size_t k = 0; k < program.shape_parameters.size(); ++k) {
    const int64_t p = program.shape_parameters[k];
    const Buffer& argument = arguments[static_cast<size_t>(argument_index[k])];
    if (IrTypeOf(argument.state()->type) != program.parameters[static_cast<size_t>(p)]) {
      return InvalidArgumentError(fmt::format("@{}: argument {} must be {}, given {}", program.entry, argument_index[k],
                                              program.parameters[static_cast<size_t>(p)].ToString(),
                                              argument.state()->type.ToString()));
    }
    // The value decides the shapes: read it (a small download, waiting for its producer).
    const double start = process.profiler != nullptr ? process.profiler->NowUs() : 0;
    VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, argument.ToHost());
    if (process.profiler != nullptr) {
      process.profiler->Host(fmt::format("shape argument {} read", argument_index[k]), "host: shape argument read",
                             "@" + program.entry, start, bytes.size());
    }
    values[p] = IntegerFromBytes(bytes, argument.state()->type.element);
  }
  const double start = process.profiler != nullptr ? process.profiler->NowUs() : 0;
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<ExecutableState> specialized, Specialization(exe, types, values));
  if (process.profiler != nullptr) {
    process.profiler->Host("specialization (lookup or compile)", "host: specialization", "@" + program.entry, start, 0);
  }
  return RunEntry(*specialized, arguments, process, stats);
}

}  // namespace vkhlo::runtime

namespace vkhlo {

bool Executable::is_polymorphic() const { return state_ && state_->polymorphic; }

std::vector<int64_t> Executable::shape_arguments() const {
  if (!is_polymorphic()) return {};
  const runtime::PolymorphicProgram& program = *state_->polymorphic;
  return runtime::ArgumentIndicesOfParameters(program.parameters, program.shape_parameters);
}

SpecializationStats Executable::specialization_stats() const {
  if (!is_polymorphic()) return {};
  std::lock_guard<std::mutex> lock(state_->polymorphic->mutex);
  return state_->polymorphic->stats;
}

StatusOr<Executable> Executable::Specialize(const std::vector<TensorType>& argument_types,
                                            const std::map<int64_t, int64_t>& argument_values) const {
  if (!state_) return InvalidArgumentError("Specialize on an empty Executable");
  if (!is_polymorphic()) {
    if (argument_types != parameter_types()) {
      return InvalidArgumentError("Specialize: this executable's shapes are static; its argument types are its own");
    }
    return *this;
  }
  const runtime::PolymorphicProgram& program = *state_->polymorphic;
  std::vector<ir::Type> types;
  std::map<int64_t, int64_t> values;
  size_t next = 0;
  for (size_t p = 0; p < program.parameters.size(); ++p) {
    if (program.parameters[p].is_token()) {
      types.push_back(program.parameters[p]);
      continue;
    }
    if (next >= argument_types.size()) break;
    StatusOr<runtime::TensorDesc> type = runtime::DescOf(argument_types[next]);
    if (!type.ok()) return type.status().WithContext(fmt::format("Specialize: argument {}", next));
    types.push_back(runtime::IrTypeOf(*type));
    auto value = argument_values.find(static_cast<int64_t>(next));
    if (value != argument_values.end()) values[static_cast<int64_t>(p)] = value->second;
    ++next;
  }
  if (next != argument_types.size() || types.size() != program.parameters.size()) {
    return InvalidArgumentError(fmt::format("Specialize: @{} takes {} arguments, given {} types", program.entry,
                                            parameter_types().size(), argument_types.size()));
  }
  for (const auto& [index, value] : argument_values) {
    if (index < 0 || static_cast<size_t>(index) >= argument_types.size()) {
      return InvalidArgumentError(fmt::format("Specialize: a value for argument {}, which does not exist", index));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<runtime::ExecutableState> specialized,
                         runtime::Specialization(*state_, types, values));
  return Executable(std::move(specialized));
}

}  // namespace vkhlo
