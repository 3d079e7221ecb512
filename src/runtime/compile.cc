// Compiling a module into an executable: passes, then for every block that runs (the entry's
// body, regions of control flow, called functions) a fusion plan, a kernel per fusion
// (GLSL -> SPIR-V -> pipeline), scratch slots for intermediates, and constants uploaded once.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <unordered_set>
#include <sstream>
#include <thread>

#include "codegen/big_bindings.h"
#include "codegen/elemental/op_emitters.h"
#include "device/allocator.h"
#include "device/pipeline.h"
#include "device/transfer.h"
#include "ir/tensor_bytes.h"
#include "ir/walk.h"
#include "passes/lower_checks.h"
#include "passes/pass_registry.h"
#include "passes/passes.h"
#include "passes/pipeline.h"
#include "passes/shapes/refine.h"
#include "runtime/compiled_module.h"
#include "runtime/custom_call.h"
#include "runtime/loaded_plan.h"
#include "runtime/plan_lowering.h"
#include "runtime/fft_kernels.h"
#include "runtime/fft_step.h"
#include "runtime/polymorphic.h"
#include "runtime/ir_tensor_desc.h"
#include "runtime/profile_describe.h"
#include "runtime/profiler.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "passes/trip_count.h"
#include "verify/verifier.h"

namespace vkhlo::runtime {
namespace {

using Clock = std::chrono::steady_clock;
using ir::OpCode;

double Ms(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string Where(const ir::Module& module, const ir::Operation& op) {
  return ir::FormatLocation(module.source_name(), op.location());
}

// Fused values a kernel may reach beyond 2^32 - 1 elements (CheckIndexSpace): int coordinates
// (every dimension below 2^31), and at most 2^40 elements, so that a program cannot ask the
// device to count to 2^62 (2^40 is seconds of work on a large GPU, minutes on lavapipe).
constexpr int64_t kMaxFusedElements = int64_t{1} << 40;
bool MayStayFused(const ir::Type& type) {
  for (int64_t d : type.dims()) {
    if (d > INT32_MAX) return false;
  }
  return type.num_elements() <= kMaxFusedElements;
}

Status NotSupported(const ir::Module& module, const ir::Operation& op, std::string_view why = "") {
  std::string message = fmt::format("{}: error: {} is not supported on the Vulkan backend yet", Where(module, op), op.name());
  if (!why.empty()) message += fmt::format(" ({})", why);
  return UnimplementedError(message);
}

class Compiler {
 public:
  Compiler(ExecutableState& exe, const CompileOptions& options)
      : exe_(exe), mod_(*exe.compiled), options_(options) {}

  Status Run() {
    auto start = Clock::now();
    // Tensors the device could never hold fail here, located, before any work (a splat of 2^63
    // elements would otherwise reach a kernel).
    const device::Device& device = *exe_.client->device;
    VKHLO_RETURN_IF_ERROR(device.CheckAlive());  // even when every kernel would come from caches
    // Values of elemental ops may be fused and never stored (an iota of 2^33 elements summed):
    // those within kMaxFusedElements are checked once fusion has decided (CheckIndexSpace).
    VKHLO_RETURN_IF_ERROR(ir::CheckTensorsFit(
        *mod_.module, device.allocator().MemoryLimit(), MemoryName(),
        [](const ir::Operation& op, const ir::Type& type) {
          return codegen::IsElementalOp(op) && type.is_tensor() && type.is_static() && MayStayFused(type);
        }));
    VKHLO_RETURN_IF_ERROR(RunPasses());
    const ir::Function* entry = mod_.module->FindFunction(options_.entry);
    if (entry == nullptr || entry->body().empty()) {
      return NotFoundError(fmt::format("{}: no function @{} to run", mod_.module->source_name(), options_.entry));
    }
    mod_.entry = entry;
    const codegen::GlslCompilerStats before = exe_.client->compiler->stats();
    const device::PipelineCacheStats pipelines_before = exe_.client->device->pipelines().stats();
    VKHLO_ASSIGN_OR_RETURN(mod_.program, CompileBlock(entry->body().front()));
    const codegen::GlslCompilerStats after = exe_.client->compiler->stats();
    const device::PipelineCacheStats pipelines_after = exe_.client->device->pipelines().stats();
    CompileStats& s = exe_.compile_stats;
    s.kernels = kernels_;
    s.spirv_compiles = after.compiles - before.compiles;
    s.spirv_cache_hits = (after.memory_hits + after.disk_hits) - (before.memory_hits + before.disk_hits);
    s.pipeline_ms = pipelines_after.create_ms - pipelines_before.create_ms;
    s.codegen_ms = Ms(start) - s.spirv_ms - s.pipeline_ms;
    return OkStatus();
  }

 private:
  Status RunPasses() {
    // FFTs whose one transform exceeds what a binding holds are split into smaller ones: inside
    // the default pipeline, or after the caller's passes.
    const passes::FftSplitLimits fft_limits = FftSplitLimitsOf(exe_.client->target);
    StatusOr<passes::PassPipeline> pipeline =
        options_.passes.empty() ? passes::DefaultPipeline({.fft_limits = fft_limits})
                                : passes::PassPipeline::Parse(options_.passes);
    if (!pipeline.ok()) return pipeline.status().WithContext("CompileOptions::passes");
    if (!options_.passes.empty()) pipeline->Add(passes::CreateSplitLargeFftsPass(fft_limits));
    ir::WalkOps(*mod_.module, [&](ir::Operation& op) {
      if (passes::FftTransformExceeds(op, fft_limits)) exe_.compile_stats.split_ffts++;
    });
    return pipeline->Run(*mod_.module).status();
  }

  StatusOr<std::unique_ptr<BlockProgram>> CompileBlock(const ir::Block& block) {
    auto program = std::make_unique<BlockProgram>();
    program->block = &block;
    codegen::FusionOptions fusion_options;
    fusion_options.fuse = options_.fuse;
    fusion_options.in_place = options_.in_place_updates;
    fusion_options.first_index = static_cast<int>(kernels_);
    auto plan = codegen::PlanBlock(block, exe_.client->target, fusion_options);
    if (!plan.ok()) return plan.status().WithContext(mod_.module->source_name());
    program->plan = std::move(*plan);
    kernels_ += program->plan.fusions.size();

    for (const ir::Operation* op : program->plan.buffer_constants) VKHLO_RETURN_IF_ERROR(UploadConstant(*op));
    for (const codegen::BlockStep& step : program->plan.steps) {
      if (step.fusion >= 0) continue;
      VKHLO_RETURN_IF_ERROR(CheckRuntimeOp(*step.op, *program));
    }
    // GLSL of every kernel first, then all of it to SPIR-V at once (on several threads), then
    // the pipelines in kernel order.
    std::vector<EmittedKernel> emitted;
    // Every kernel's index space before any kernel's stored tensors, so that an op whose kernel
    // cannot index its operands is named even when a producer's stored result is what is too big.
    for (const codegen::Fusion& fusion : program->plan.fusions) VKHLO_RETURN_IF_ERROR(CheckIndexSpace(fusion));
    for (const codegen::Fusion& fusion : program->plan.fusions) {
      VKHLO_ASSIGN_OR_RETURN(EmittedKernel e, EmitKernel(fusion));
      emitted.push_back(std::move(e));
    }
    VKHLO_RETURN_IF_ERROR(CompileGlslAll(emitted));
    for (size_t f = 0; f < program->plan.fusions.size(); ++f) {
      const codegen::Fusion& fusion = program->plan.fusions[f];
      VKHLO_ASSIGN_OR_RETURN(CompiledKernel kernel, FinishKernel(std::move(emitted[f])));
      if (!options_.in_place_updates && kernel.device) kernel.device->in_place.clear();
      std::string loop_config;
      if (!kernel.device) {
        const codegen::KernelSource& source = kernel.source;
        loop_config = fmt::format("wg {} x {} elements{}", source.config.workgroup_size,
                                  source.config.elements_per_invocation,
                                  source.vector_inputs + source.vector_outputs > 0 ? ", uvec4" : "");
      }
      kernel.profile = std::make_shared<const KernelProfile>(
          DescribeKernel(*mod_.module, fusion, std::move(loop_config), kernel.device ? kernel.device->summary : ""));
      program->kernels.push_back(std::move(kernel));
    }
    AssignSlots(*program);
    return program;
  }

  Status CheckRuntimeOp(const ir::Operation& op, BlockProgram& program) {
    if (op.code() == OpCode::kFft) {
      return CheckFft(op, exe_.client->target, Where(*mod_.module, op));
    }
    if (op.code() == OpCode::kCustomCall) {
      VKHLO_ASSIGN_OR_RETURN(mod_.custom_calls[&op], CompileCustomCall(*exe_.client, op, Where(*mod_.module, op)));
      return OkStatus();
    }
    if (op.info().runs != ir::OpRuns::kHost) {
      if (op.info().runs == ir::OpRuns::kInterpreter) {
        return InvalidArgumentError(fmt::format(
            "{}: error: {} is a test op; `vkhlo-run --check` evaluates it on the host", Where(*mod_.module, op), op.name()));
      }
      for (const ir::Value* v : op.operands()) {
        if (v->type().is_quantized()) {
          return NotSupported(*mod_.module, op, "quantized types: the quantized-decompose pass lowers them");
        }
      }
      return NotSupported(*mod_.module, op);
    }
    if (op.code() == OpCode::kCall) {
      const ir::Attribute* callee = op.attribute("callee");
      const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
      const ir::Function* function = symbol ? mod_.module->FindFunction(symbol->name) : nullptr;
      if (function == nullptr || function->body().empty()) {
        return InvalidArgumentError(fmt::format("{}: error: call of an unknown function", Where(*mod_.module, op)));
      }
      if (mod_.functions.count(symbol->name)) return OkStatus();
      if (!compiling_.insert(symbol->name).second) {
        return NotSupported(*mod_.module, op, "recursive calls");
      }
      mod_.functions[symbol->name] = nullptr;  // placeholder while compiling
      VKHLO_ASSIGN_OR_RETURN(mod_.functions[symbol->name], CompileBlock(function->body().front()));
      compiling_.erase(symbol->name);
      return OkStatus();
    }
    if (IsReducingCollective(op.code())) return CompileReducer(op);
    for (size_t r = 0; r < op.num_regions(); ++r) {
      if (op.region(r).blocks().size() != 1) {
        return NotSupported(*mod_.module, op, "regions with several blocks");
      }
      VKHLO_ASSIGN_OR_RETURN(auto region_program, CompileBlock(op.region(r).front()));
      program.regions[&op].push_back(std::move(region_program));
    }
    if (op.code() == OpCode::kWhile) {
      if (const std::optional<int64_t> trips = passes::StaticTripCount(op)) {
        program.trip_counts[&op] = *trips;
      } else if (RecordsOnly(*program.regions[&op][0]) && RecordsOnly(*program.regions[&op][1])) {
        program.batched[&op] = true;
      }
    }
    return OkStatus();
  }

  // Whether running `program` only records device work: kernels, tuples, and counted loops of
  // such work (never a host step that would need the data so far), none of it a kernel that may
  // update its operand in place (a batch holds every state, so it would copy the whole operand
  // where the host path writes a slice: such loops stay on the host path).
  static bool RecordsOnly(const BlockProgram& program) {
    for (const codegen::BlockStep& step : program.plan.steps) {
      if (step.fusion >= 0) {
        const CompiledKernel& kernel = program.kernels[static_cast<size_t>(step.fusion)];
        if (kernel.device && !kernel.device->in_place.empty()) return false;
        continue;
      }
      switch (step.op->code()) {
        case OpCode::kReturn:
        case OpCode::kFuncReturn:
        case OpCode::kTuple:
        case OpCode::kGetTupleElement:
        case OpCode::kOptimizationBarrier:
        case OpCode::kFft:
          continue;
        case OpCode::kWhile: {
          auto regions = program.regions.find(step.op);
          if (!program.trip_counts.count(step.op) || regions == program.regions.end() || regions->second.size() != 2 ||
              !RecordsOnly(*regions->second[0]) || !RecordsOnly(*regions->second[1])) {
            return false;
          }
          continue;
        }
        default:
          return false;
      }
    }
    return true;
  }

  static bool IsReducingCollective(OpCode code) {
    return code == OpCode::kAllReduce || code == OpCode::kReduceScatter || code == OpCode::kCollectiveReduce;
  }

  // A reducing collective's reduction as device code: a private function
  //   @__vkhlo_reducer_<k>(acc_0..acc_{n-1}, x_0..x_{n-1}) -> (r_0..r_{n-1})
  // where r_i = map(acc_i, x_i) with the op's region (a region of 2 arguments reduces each
  // operand on its own), or, for a region of 2n arguments (a joint reduction of n operands),
  // r_j = map(acc..., x...) with the region returning its j-th result. The runtime folds the
  // group's contributions in group order through it (Execution::Reduce).
  Status CompileReducer(const ir::Operation& op) {
    if (mod_.reducers.count(&op)) return OkStatus();
    if (op.num_regions() != 1 || op.region(0).blocks().size() != 1) {
      return InvalidArgumentError(fmt::format("{}: error: {} has no reduction region", Where(*mod_.module, op), op.name()));
    }
    const ir::Block& region = op.region(0).front();
    const size_t n = op.num_operands();
    const bool joint = n > 1 && region.num_arguments() == 2 * n;
    if (n == 0 || (!joint && region.num_arguments() != 2) || region.back() == nullptr ||
        region.back()->num_operands() != (joint ? n : 1)) {
      return InvalidArgumentError(fmt::format("{}: error: {} has a reduction region with the wrong number of "
                                              "arguments or results", Where(*mod_.module, op), op.name()));
    }
    ir::FunctionType type;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < n; ++i) type.inputs.push_back(op.operand(i)->type());
    }
    for (size_t i = 0; i < n; ++i) {
      const ir::Type& t = op.operand(i)->type();
      if (!t.is_tensor()) return NotSupported(*mod_.module, op, "operands that are not tensors");
      if (joint && t.dims() != op.operand(0)->type().dims()) {
        return NotSupported(*mod_.module, op, "a joint reduction of operands of different shapes");
      }
      const ir::Type& element = region.back()->operand(joint ? i : 0)->type();
      type.results.push_back(ir::Type::Tensor(element.element_type(), t.dims()));
    }
    std::string name;
    do {
      name = fmt::format("__vkhlo_reducer_{}", reducer_count_++);
    } while (mod_.module->FindFunction(name) != nullptr);
    auto function = std::make_unique<ir::Function>(name, type);
    function->set_visibility("private");
    ir::Block& body = function->body().AddBlock();
    std::vector<ir::Value*> args;
    for (const ir::Type& t : type.inputs) args.push_back(body.AddArgument(t));
    std::vector<ir::Value*> results;
    for (size_t j = 0; j < n; ++j) {
      std::vector<ir::Value*> operands;
      if (joint) {
        operands = args;
      } else {
        operands = {args[j], args[n + j]};
      }
      std::vector<int64_t> dimensions(static_cast<size_t>(type.results[j].rank()));
      for (size_t d = 0; d < dimensions.size(); ++d) dimensions[d] = static_cast<int64_t>(d);
      auto map = ir::Operation::Create(OpCode::kMap, operands, {type.results[j]},
                                       {{"dimensions", ir::Attribute::I64Array(dimensions)}}, 1, op.location());
      ir::ValueMap mapping;
      ir::CloneRegionInto(op.region(0), map->region(0), mapping);
      if (joint) {
        ir::Operation* ret = map->region(0).front().back();
        ret->set_operands({ret->operand(j)});
      }
      Status valid = verify::VerifyOperation(*map);
      if (!valid.ok()) return valid.WithContext(fmt::format("{}: the reduction of {}", Where(*mod_.module, op), op.name()));
      results.push_back(body.Append(std::move(map))->result(0));
    }
    std::vector<ir::Type> result_types = type.results;
    body.Append(ir::Operation::Create(OpCode::kFuncReturn, results, {}, {}, 0, op.location()));
    ir::Function* added = mod_.module->AddFunction(std::move(function));
    VKHLO_ASSIGN_OR_RETURN(mod_.reducers[&op], CompileBlock(added->body().front()));
    return OkStatus();
  }

  // A fusion's kernel between emission and pipelines: its GLSL modules (a loop kernel: one, or
  // none for an empty index space; a device kernel: one per dispatch with a non-empty grid).
  struct EmittedKernel {
    CompiledKernel kernel;  // no pipelines yet
    std::vector<std::string> names, glsl;
    std::vector<std::vector<uint32_t>> address_bindings;  // per module (codegen/big_bindings.h)
    std::vector<std::vector<device::WindowedBinding>> window_bindings;  // per module
    std::vector<std::shared_ptr<const codegen::SpirvWords>> spirv;  // filled by CompileGlslAll
    std::vector<codegen::GlslCompiler::JobTiming> timings;
  };

  StatusOr<EmittedKernel> EmitKernel(const codegen::Fusion& fusion) {
    VKHLO_RETURN_IF_ERROR(CheckStoredTensors(fusion));
    codegen::KernelOptions kernel_options;
    kernel_options.source_name = mod_.module->source_name();
    kernel_options.function = mod_.entry ? mod_.entry->name() : "";
    kernel_options.elements_per_invocation = options_.elements_per_invocation;
    if (fusion.device_op != nullptr) return EmitDeviceKernel(fusion, kernel_options);
    VKHLO_ASSIGN_OR_RETURN(codegen::KernelSource source,
                           codegen::EmitLoopKernel(fusion, exe_.client->target, kernel_options));
    std::vector<const ir::Value*> bound(fusion.inputs.begin(), fusion.inputs.end());
    bound.insert(bound.end(), fusion.outputs.begin(), fusion.outputs.end());
    std::vector<uint64_t> bytes;
    for (const ir::Value* v : bound) bytes.push_back(BufferBytes(v->type()));
    VKHLO_ASSIGN_OR_RETURN(BigBindingPlan big, BigBindings(fusion.name, bytes, [&](size_t i) { return bound[i]->type().ToString(); }));
    EmittedKernel e;
    // A zero-size index space is never dispatched: its outputs are empty buffers.
    if (source.workgroups != 0) {
      e.names.push_back(fusion.name);
      e.glsl.push_back(source.glsl);
      VKHLO_RETURN_IF_ERROR(BindThroughAddresses(e, big));
    }
    e.kernel.source = std::move(source);
    return e;
  }

  // A device kernel: the emitter's dispatches, each compiled like a loop kernel.
  StatusOr<EmittedKernel> EmitDeviceKernel(const codegen::Fusion& fusion, const codegen::KernelOptions& kernel_options) {
    const ir::Operation& op = *fusion.device_op;
    const codegen::DeviceKernelEmitter* emitter = codegen::FindDeviceKernelEmitter(op);
    if (emitter == nullptr) return NotSupported(*mod_.module, op);
    auto emitted = emitter->emit(fusion, exe_.client->target, kernel_options);
    if (!emitted.ok()) {
      // Errors from the elemental emitter (a region's op) already name their location.
      const std::string where = Where(*mod_.module, op);
      const std::string& message = emitted.status().message();
      if (message.find(mod_.module->source_name() + ":") != std::string::npos) return emitted.status();
      // Every compile error reads "file:line:col: error: ...".
      return Status(emitted.status().code(),
                    fmt::format("{}: {}{}", where, message.rfind("error: ", 0) == 0 ? "" : "error: ", message));
    }
    if (emitted->binding_alignment > exe_.client->device->allocator().alignment() ||
        exe_.client->device->allocator().alignment() % emitted->binding_alignment != 0) {
      return InternalError(fmt::format("kernel '{}' needs {}-byte aligned buffers; the allocator aligns to {}",
                                       fusion.name, emitted->binding_alignment,
                                       exe_.client->device->allocator().alignment()));
    }
    EmittedKernel e;
    e.kernel.source.name = fusion.name;
    e.kernel.source.inputs = fusion.inputs;
    e.kernel.source.outputs = fusion.outputs;
    e.kernel.source.summary = emitted->summary;
    for (const codegen::KernelDispatch& dispatch : emitted->dispatches) {
      if (!HasGrid(dispatch)) continue;
      std::vector<uint64_t> bytes;
      for (const codegen::KernelBuffer& b : dispatch.bindings) {
        bytes.push_back(b.kind == codegen::KernelBuffer::Kind::kValue ? BufferBytes(b.value->type())
                                                                      : codegen::InternalBufferBytes(*emitted, b));
      }
      auto what = [&](size_t i) {
        const codegen::KernelBuffer& b = dispatch.bindings[i];
        if (b.kind == codegen::KernelBuffer::Kind::kScratch) return std::string("a scratch buffer");
        if (b.kind == codegen::KernelBuffer::Kind::kConstant) return std::string("a constant table");
        return b.value->type().ToString();
      };
      VKHLO_ASSIGN_OR_RETURN(BigBindingPlan big, BigBindings(dispatch.name, bytes, what));
      e.names.push_back(dispatch.name);
      e.glsl.push_back(dispatch.glsl);
      VKHLO_RETURN_IF_ERROR(BindThroughAddresses(e, big));
    }
    e.kernel.device = std::move(*emitted);
    return e;
  }

  static bool HasGrid(const codegen::KernelDispatch& d) { return d.grid[0] != 0 && d.grid[1] != 0 && d.grid[2] != 0; }

  // Every module of `kernels` to SPIR-V in one call: independent kernels compile on several
  // threads (CompileThreads); each result goes to its own kernel, so nothing depends on which
  // thread ran it. The first failure in kernel order is the error.
  Status CompileGlslAll(std::vector<EmittedKernel>& kernels) {
    std::vector<codegen::GlslCompiler::Job> jobs;
    for (const EmittedKernel& e : kernels) {
      for (size_t j = 0; j < e.glsl.size(); ++j) {
        jobs.push_back({e.glsl[j], codegen::GlslCompileOptions::ForTarget(exe_.client->target, e.names[j])});
      }
    }
    if (jobs.empty()) return OkStatus();
    auto start = Clock::now();
    std::vector<codegen::GlslCompiler::JobTiming> timings;
    auto results = exe_.client->compiler->CompileAll(jobs, CompileThreads(), &timings);
    exe_.compile_stats.spirv_ms += Ms(start);
    size_t i = 0;
    for (EmittedKernel& e : kernels) {
      for (size_t j = 0; j < e.glsl.size(); ++j, ++i) {
        if (!results[i].ok()) return results[i].status();
        e.spirv.push_back(*results[i]);
        e.timings.push_back(timings[i]);
      }
    }
    return OkStatus();
  }

  // GLSL -> SPIR-V threads: VKHLO_COMPILE_THREADS (1: serial), else the host's cores.
  static unsigned CompileThreads() {
    if (const char* env = std::getenv("VKHLO_COMPILE_THREADS"); env != nullptr && *env != '\0') {
      const long n = std::strtol(env, nullptr, 10);
      if (n >= 1) return static_cast<unsigned>(std::min(n, 256L));
    }
    return std::max(1u, std::thread::hardware_concurrency());
  }

  // The pipelines of an emitted kernel, in order (their SPIR-V compiled by CompileGlslAll).
  StatusOr<CompiledKernel> FinishKernel(EmittedKernel e) {
    CompiledKernel& kernel = e.kernel;
    size_t m = 0;  // the next module
    auto pipeline_of = [&](const codegen::KernelSource& dumped,
                           uint32_t subgroup_size) -> StatusOr<std::shared_ptr<const device::Pipeline>> {
      const std::shared_ptr<const codegen::SpirvWords> words = e.spirv[m];
      const codegen::SpirvWords& spirv = *words;
      KernelCompileStats& stats = exe_.compile_stats.per_kernel.emplace_back();
      stats.name = e.names[m];
      stats.spirv_bytes = spirv.size() * sizeof(uint32_t);
      stats.spirv_ms = e.timings[m].ms;
      stats.spirv_cached = !e.timings[m].compiled;
      ++m;
      if (!options_.dump_kernels_dir.empty()) {
        codegen::KernelSource compiled = dumped;
        compiled.glsl = e.glsl[m - 1];  // as compiled (bindings rewritten to addresses included)
        VKHLO_RETURN_IF_ERROR(Dump(compiled, spirv));
      }
      device::ComputePipelineDesc desc;
      desc.name = stats.name;
      desc.spirv = spirv;
      desc.workgroup_base_offset = 0;
      desc.required_subgroup_size = subgroup_size;
      desc.address_bindings = e.address_bindings[m - 1];
      desc.window_bindings = e.window_bindings[m - 1];
      auto start = Clock::now();
      VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const device::Pipeline> pipeline,
                             exe_.client->device->pipelines().GetOrCreate(desc));
      stats.pipeline_ms = Ms(start);
      // Kept for the plan (plan_lowering.h): the words the pipeline was made of.
      if (kernel.device) {
        kernel.device_spirv.push_back(words);
      } else {
        kernel.spirv = words;
      }
      return pipeline;
    };
    if (!kernel.device) {
      if (!e.glsl.empty()) {
        VKHLO_ASSIGN_OR_RETURN(kernel.pipeline, pipeline_of(kernel.source, 0));
      }
      return std::move(kernel);
    }
    for (const codegen::KernelDispatch& dispatch : kernel.device->dispatches) {
      if (!HasGrid(dispatch)) {
        kernel.device_pipelines.push_back(nullptr);
        kernel.device_spirv.push_back(nullptr);
        continue;
      }
      codegen::KernelSource dumped;
      if (!options_.dump_kernels_dir.empty()) {
        dumped.name = dispatch.name;
        dumped.glsl = dispatch.glsl;
        dumped.summary = dispatch.summary.empty() ? kernel.device->summary : dispatch.summary;
      }
      VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const device::Pipeline> pipeline,
                             pipeline_of(dumped, dispatch.required_subgroup_size));
      if (pipeline->binding_count() != dispatch.bindings.size()) {
        return InternalError(fmt::format("kernel '{}' declares {} bindings, its plan binds {}", dispatch.name,
                                         pipeline->binding_count(), dispatch.bindings.size()));
      }
      kernel.device_pipelines.push_back(std::move(pipeline));
    }
    for (const std::vector<uint32_t>& words : kernel.device->constant_words) {
      const TensorDesc type{U32, {static_cast<int64_t>(words.size())}};
      VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> table, AllocateTensor(exe_.client, type));
      if (!words.empty()) {
        VKHLO_RETURN_IF_ERROR(exe_.client->device->transfers().Upload(table->buffer, 0,
                                                                       std::as_bytes(std::span<const uint32_t>(words))));
      }
      kernel.constants.push_back(std::move(table));
      exe_.compile_stats.constant_bytes += words.size() * sizeof(uint32_t);
    }
    return std::move(kernel);
  }

  std::string MemoryName() const {
    return fmt::format("device memory vkhlo may use on '{}'", exe_.client->device->capabilities().name);
  }

  // Index spaces. Kernels index values with uints up to 2^32 - 1 elements; loop fusions and
  // reductions reach fused values beyond that (never stored: an iota, a broadcast, a mask summed
  // or sliced to a small result) through per-dimension int coordinates (codegen/elemental/
  // emitter.h's Index, reduction's WideIndex), so each dimension must stay below 2^31. Other
  // kernel families index their operands linearly: beyond 2^32 - 1 elements an error naming the
  // op. (What is stored is checked by CheckStoredTensors.)
  Status CheckIndexSpace(const codegen::Fusion& fusion) {
    const bool coordinates = fusion.device_op == nullptr || fusion.device_op->code() == ir::OpCode::kReduce;
    for (const ir::Operation* op : fusion.ops) {
      std::vector<const ir::Value*> values(op->operands().begin(), op->operands().end());
      for (size_t i = 0; i < op->num_results(); ++i) values.push_back(op->result(i));
      for (const ir::Value* v : values) {
        if (!v->type().is_tensor() || v->type().num_elements() <= int64_t{UINT32_MAX}) continue;
        if (!coordinates) {
          return UnimplementedError(fmt::format(
              "{}: error: {} on {} ({} elements): {} kernels index at most 4294967295 elements (loop fusions and "
              "reductions go beyond, through per-dimension coordinates)",
              Where(*mod_.module, *op), op->name(), v->type().ToString(), v->type().num_elements(),
              fusion.device_op->name()));
        }
        if (!MayStayFused(v->type())) {
          return UnimplementedError(fmt::format(
              "{}: error: {} on {} ({} elements): kernels reach values beyond 4294967295 elements through int "
              "coordinates, so every dimension must be below 2^31 and the count at most {}",
              Where(*mod_.module, *op), op->name(), v->type().ToString(), v->type().num_elements(),
              kMaxFusedElements));
        }
      }
    }
    return OkStatus();
  }

  // A kernel's bound buffers: within the device's memory (values of elemental ops skipped the
  // module-wide check in Compile until fusion decided which are stored), and addressable by
  // 32-bit element and word offsets (a loop kernel's index space is its stored outputs', so this
  // bounds it too).
  Status CheckStoredTensors(const codegen::Fusion& fusion) {
    std::vector<const ir::Value*> bound(fusion.inputs.begin(), fusion.inputs.end());
    bound.insert(bound.end(), fusion.outputs.begin(), fusion.outputs.end());
    const uint64_t memory = exe_.client->device->allocator().MemoryLimit();
    for (const ir::Value* v : bound) {
      if (!v->type().is_tensor()) continue;
      const uint64_t bytes = BufferBytes(v->type());
      const ir::Operation* def = v->defining_op();
      const std::string where = def ? Where(*mod_.module, *def) : mod_.module->source_name();
      const std::string what = def ? fmt::format("'{}' result", def->name()) : std::string("a kernel operand");
      if (bytes > memory) {
        return ResourceExhaustedError(fmt::format("{}: error: {} of type {} needs {} bytes, more than the {} bytes of {}",
                                                  where, what, v->type().ToString(), bytes, memory, MemoryName()));
      }
      if (bytes / 4 > UINT32_MAX || v->type().num_elements() > int64_t{UINT32_MAX}) {
        return UnimplementedError(fmt::format(
            "{}: error: {} of type {} is stored ({} elements, {} bytes): kernels index stored tensors by 32-bit "
            "element and word offsets (at most 4294967295 elements and 16 GiB; beyond that only fused values "
            "that are never stored)",
            where, what, v->type().ToString(), v->type().num_elements(), bytes));
      }
    }
    return OkStatus();
  }

  // (binding -> bytes) of a kernel's bindings beyond maxStorageBufferRange.
  using BigMap = std::map<uint32_t, uint64_t>;

  // How a kernel's big bindings are reached: `windowed` through several descriptors of
  // `window_bytes` each, `addressed` by device address; `split` (a subset of `windowed`) are
  // the bindings whose buffers may be split across allocations (device/split_layout.h).
  struct BigBindingPlan {
    BigMap windowed, addressed;
    std::set<uint32_t> split;
    uint64_t window_bytes = 0;
    bool empty() const { return windowed.empty() && addressed.empty(); }
  };

  // The bindings of a kernel whose bytes exceed maxStorageBufferRange: on a device with
  // bufferDeviceAddress they are reached by address, else through several descriptors
  // (codegen/big_bindings.h). A binding beyond the split piece size (its buffer may be split
  // across allocations: one address cannot span them) is always windowed, and then the
  // kernel's windows are as wide as a piece's windows, so none straddles two pieces. The window
  // scheme needs maxPerStageDescriptorStorageBuffers to hold every window: else an error
  // naming the kernel and the tensor.
  StatusOr<BigBindingPlan> BigBindings(const std::string& kernel, const std::vector<uint64_t>& bytes,
                                       const std::function<std::string(size_t)>& what) {
    const codegen::TargetInfo& target = exe_.client->target;
    BigBindingPlan plan;
    for (size_t i = 0; i < bytes.size(); ++i) {
      const uint32_t b = static_cast<uint32_t>(i);
      if (target.split_piece_bytes != 0 && bytes[i] > target.split_piece_bytes) {
        plan.windowed[b] = bytes[i];
        plan.split.insert(b);
      } else if (bytes[i] > target.max_storage_buffer_range) {
        (target.buffer_device_address ? plan.addressed : plan.windowed)[b] = bytes[i];
      }
    }
    // One width serves both kinds: split windows are S when the limit holds one, and when it
    // does not, pieces are below S, so every binding beyond the range is a split one.
    plan.window_bytes = plan.split.empty() ? WindowBytes() : target.split_window_bytes;
    uint64_t descriptors = bytes.size();
    for (const auto& [b, n] : plan.windowed) {
      const uint64_t windows = (n + plan.window_bytes - 1) / plan.window_bytes;
      descriptors += windows - 1;
      if (descriptors > target.max_storage_buffers_per_stage) {
        const bool split = plan.split.count(b) != 0;
        return ResourceExhaustedError(fmt::format(
            "kernel '{}' binds {} ({} bytes), more than {}; binding it through {} descriptors of {} bytes needs {} "
            "storage buffers in all, more than maxPerStageDescriptorStorageBuffers = {} of device '{}' (profile {})",
            kernel, what(b), n,
            split ? fmt::format("the {} bytes of one allocation (it is split across several, which one device "
                                "address cannot span)", target.split_piece_bytes)
                  : fmt::format("the device's maxStorageBufferRange = {}, and the device lacks bufferDeviceAddress",
                                target.max_storage_buffer_range),
            windows, plan.window_bytes, descriptors, target.max_storage_buffers_per_stage, target.device_name,
            target.profile));
      }
    }
    return plan;
  }

  // S of codegen::BindThroughWindows: the largest multiple of 16 and of
  // minStorageBufferOffsetAlignment within maxStorageBufferRange.
  uint64_t WindowBytes() const { return codegen::WindowBytes(exe_.client->target); }

  // Rewrites the last module of `e` so that its big bindings are reached through windows or by
  // address, as `plan` says. A split binding the kernel declares as a texel view is an error:
  // one texel view cannot span two allocations.
  Status BindThroughAddresses(EmittedKernel& e, const BigBindingPlan& plan) {
    e.address_bindings.emplace_back();
    e.window_bindings.emplace_back();
    if (plan.empty()) return OkStatus();
    if (!plan.windowed.empty()) {
      auto out = codegen::BindThroughWindows(e.glsl.back(), plan.windowed, plan.window_bytes);
      if (!out.ok()) return out.status().WithContext(fmt::format("kernel '{}'", e.names.back()));
      for (uint32_t b : out->texel) {
        if (plan.split.count(b) == 0) continue;
        return UnimplementedError(fmt::format(
            "kernel '{}' reads binding {} ({} bytes, split across allocations of {} bytes: beyond the device's "
            "maxMemoryAllocationSize) through a texel view, which cannot span two allocations",
            e.names.back(), b, plan.windowed.at(b), exe_.client->target.split_piece_bytes));
      }
      e.glsl.back() = std::move(out->glsl);
      for (const codegen::WindowedBinding& w : out->windowed) {
        e.window_bindings.back().push_back({w.binding, w.window_bytes, w.window_bindings});
      }
      if (!out->windowed.empty()) exe_.compile_stats.windowed_kernels++;
    }
    if (plan.addressed.empty()) return OkStatus();
    std::set<uint32_t> big;
    for (const auto& [b, n] : plan.addressed) big.insert(b);
    auto out = codegen::BindThroughAddresses(e.glsl.back(), big);
    if (!out.ok()) return out.status().WithContext(fmt::format("kernel '{}'", e.names.back()));
    e.glsl.back() = std::move(out->glsl);
    e.address_bindings.back().assign(out->rewritten.begin(), out->rewritten.end());
    if (!out->rewritten.empty()) exe_.compile_stats.address_bound_kernels++;
    return OkStatus();
  }

  Status Dump(const codegen::KernelSource& source, const codegen::SpirvWords& spirv) {
    std::error_code ec;
    std::filesystem::create_directories(options_.dump_kernels_dir, ec);
    // Files are named after the function too: every executable numbers its fusions from 0.
    const std::string base = options_.dump_kernels_dir + "/" + (mod_.entry ? mod_.entry->name() + "." : "") + source.name;
    std::ofstream glsl(base + ".comp");
    glsl << source.glsl;
    std::ofstream assembly(base + ".spvasm");
    std::string header;
    std::istringstream ops(source.summary);
    for (std::string line; std::getline(ops, line);) header += "; fused: " + line + "\n";
    assembly << "; vkhlo kernel " << source.name << "\n" << header << codegen::DisassembleSpirv(spirv);
    if (!glsl || !assembly) return InternalError("cannot write kernels to " + options_.dump_kernels_dir);
    return OkStatus();
  }

  Status UploadConstant(const ir::Operation& op) {
    const ir::Value* value = op.result(0);
    if (mod_.constants.count(value)) return OkStatus();
    const ir::Attribute* attribute = op.attribute("value");
    const ir::Literal* literal = attribute ? attribute->AsDenseElements() : nullptr;
    if (literal == nullptr) return InvalidArgumentError(fmt::format("{}: constant without a value", Where(*mod_.module, op)));
    ir::Literal expanded = *literal;
    VKHLO_RETURN_IF_ERROR(expanded.Expand());
    VKHLO_ASSIGN_OR_RETURN(TensorDesc type, DescOf(value->type()));
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> storage, AllocateTensor(exe_.client, type));
    if (!expanded.raw().empty()) {
      VKHLO_RETURN_IF_ERROR(exe_.client->device->transfers().Upload(storage->buffer, 0, std::as_bytes(expanded.raw())));
    }
    exe_.compile_stats.constant_bytes += expanded.raw().size();
    mod_.constants[value] = RtValue::Tensor(std::move(storage), std::move(type));
    return OkStatus();
  }

  // Scratch slots: a kernel output read only by later kernels of this block (never returned,
  // never handed to control flow or tuples) shares memory with other such values whose lives
  // do not overlap. A value read by step s frees its slot for outputs of steps after s.
  void AssignSlots(BlockProgram& program) {
    const auto& steps = program.plan.steps;
    std::unordered_map<const ir::Value*, int> last_read;
    std::unordered_set<const ir::Value*> escapes;
    for (size_t s = 0; s < steps.size(); ++s) {
      if (steps[s].fusion >= 0) {
        for (const ir::Value* in : program.plan.fusions[static_cast<size_t>(steps[s].fusion)].inputs) {
          last_read[in] = static_cast<int>(s);
        }
      } else {
        for (const ir::Value* v : steps[s].op->operands()) escapes.insert(v);
        std::function<void(const ir::Operation&)> captured = [&](const ir::Operation& o) {
          for (size_t r = 0; r < o.num_regions(); ++r) {
            for (const auto& b : o.region(r).blocks()) {
              for (const auto& inner : b->operations()) {
                for (const ir::Value* v : inner->operands()) escapes.insert(v);
                captured(*inner);
              }
            }
          }
        };
        captured(*steps[s].op);
      }
    }
    std::unordered_set<const ir::Value*> in_place_inputs;
    for (size_t f = 0; f < program.kernels.size(); ++f) {
      if (!program.kernels[f].device) continue;
      for (const codegen::InPlaceOutput& p : program.kernels[f].device->in_place) {
        const auto& inputs = program.plan.fusions[f].inputs;
        if (p.input >= 0 && static_cast<size_t>(p.input) < inputs.size()) in_place_inputs.insert(inputs[static_cast<size_t>(p.input)]);
      }
    }
    struct Slot {
      uint64_t bytes = 0;
      int free_after = -1;  // free for outputs of steps > free_after
    };
    std::vector<Slot> slots;
    for (size_t s = 0; s < steps.size(); ++s) {
      if (steps[s].fusion < 0) continue;
      const auto& outputs = program.plan.fusions[static_cast<size_t>(steps[s].fusion)].outputs;
      const CompiledKernel& kernel = program.kernels[static_cast<size_t>(steps[s].fusion)];
      for (size_t o = 0; o < outputs.size(); ++o) {
        const ir::Value* out = outputs[o];
        auto read = last_read.find(out);
        if (escapes.count(out) || read == last_read.end()) continue;
        // A value an in-place update may take over, or its result (which the next update may
        // take over in turn), gets a buffer of its own: a slot is shared, so never taken.
        bool in_place = in_place_inputs.count(out) != 0;
        for (const codegen::InPlaceOutput& p : kernel.device ? kernel.device->in_place : std::vector<codegen::InPlaceOutput>{}) {
          in_place = in_place || p.output == static_cast<int>(o);
        }
        if (in_place) continue;
        const uint64_t bytes = BufferBytes(out->type());
        // The smallest free slot that holds it, else the largest free one (it grows).
        int best = -1;
        for (size_t k = 0; k < slots.size(); ++k) {
          if (slots[k].free_after >= static_cast<int>(s)) continue;
          if (best < 0) {
            best = static_cast<int>(k);
            continue;
          }
          const Slot& b = slots[static_cast<size_t>(best)];
          const bool fits = slots[k].bytes >= bytes, best_fits = b.bytes >= bytes;
          if ((fits && (!best_fits || slots[k].bytes < b.bytes)) || (!fits && !best_fits && slots[k].bytes > b.bytes)) {
            best = static_cast<int>(k);
          }
        }
        if (best < 0) {
          best = static_cast<int>(slots.size());
          slots.push_back(Slot{});
        }
        slots[static_cast<size_t>(best)].bytes = std::max(slots[static_cast<size_t>(best)].bytes, bytes);
        slots[static_cast<size_t>(best)].free_after = read->second;
        program.slot_of[out] = best;
      }
    }
    for (const Slot& slot : slots) program.slot_bytes.push_back(slot.bytes);
  }

  ExecutableState& exe_;
  CompiledModule& mod_;  // exe_.compiled
  const CompileOptions& options_;
  uint64_t kernels_ = 0;
  int reducer_count_ = 0;
  std::set<std::string> compiling_;
};

// The tensors of `t` in order, tuples flattened, tokens (which hold no data) left out, dynamic
// sizes as -1: what Execute takes and returns.
void AppendTensorTypes(const ir::Type& t, std::vector<TensorType>& out) {
  if (t.is_tuple()) {
    for (const ir::Type& element : t.tuple_elements()) AppendTensorTypes(element, out);
    return;
  }
  if (!t.is_tensor()) return;
  TensorType type = ToTensorType(t);
  for (int64_t& d : type.dims) d = ir::IsDynamicDim(d) ? -1 : d;
  out.push_back(std::move(type));
}

}  // namespace

StatusOr<plan::Plan> LowerForSerialize(const ExecutableState& exe) {
  VKHLO_ASSIGN_OR_RETURN(plan::Plan plan, LowerToPlan(exe));
  // The runtime-only library runs FFT steps with the kernels the plan carries.
  VKHLO_RETURN_IF_ERROR(AddFftKernels(*exe.client, plan));
  return plan;
}

void SetSignature(ExecutableState& exe, const ir::FunctionType& entry) {
  exe.parameter_types.clear();
  exe.result_types.clear();
  for (const ir::Type& t : entry.inputs) AppendTensorTypes(t, exe.parameter_types);
  for (const ir::Type& t : entry.results) AppendTensorTypes(t, exe.result_types);
}

namespace {

// The plan Execute runs: lowered from what the compile made (plan_lowering.h) and loaded with
// the compile's own constant buffers (its pipelines are found in the device's cache).
Status LoadOwnPlan(ExecutableState& exe) {
  PlanLoweringExtras extras;
  VKHLO_ASSIGN_OR_RETURN(plan::Plan plan, LowerToPlan(exe, &extras));
  LoadOptions options;
  options.uploaded_constants = std::move(extras.constant_buffers);
  VKHLO_ASSIGN_OR_RETURN(exe.loaded, LoadPlan(exe.client, std::move(plan), std::move(options)));
  return OkStatus();
}

}  // namespace

Status EnsureCompiler(ClientState& client) {
  std::lock_guard<std::mutex> lock(client.compiler_mutex);
  if (client.compiler == nullptr) {
    client.compiler = std::make_shared<codegen::GlslCompiler>(client.spirv_cache_directory, client.spirv_cache_bytes);
  }
  return OkStatus();
}

StatusOr<Executable> CompileModule(const Client& client, std::unique_ptr<ir::Module> module,
                                   const CompileOptions& options) {
  VKHLO_RETURN_IF_ERROR(EnsureCompiler(*client.state()));
  // A test program's checks become device results and outfeeds first (passes/lower_checks.h),
  // so the passes and codegen see only device work.
  std::shared_ptr<const CompiledChecks> checks;
  if (options.checks) {
    VKHLO_ASSIGN_OR_RETURN(CompiledChecks lowered, passes::LowerChecks(*module, options.entry));
    checks = std::make_shared<const CompiledChecks>(std::move(lowered));
  }
  // Dynamic shapes are refined to static ones for concrete arguments first (polymorphic.h).
  if (!options.argument_types.empty() || passes::shapes::NeedsRefinement(*module)) {
    CompileOptions lowered = options;
    lowered.checks = false;
    VKHLO_ASSIGN_OR_RETURN(Executable executable, CompilePolymorphic(client, std::move(module), lowered));
    executable.state()->checks = std::move(checks);
    return executable;
  }
  auto exe = std::make_shared<ExecutableState>();
  exe->client = client.state();
  exe->compiled = std::make_shared<CompiledModule>();
  exe->compiled->module = std::move(module);
  exe->checks = std::move(checks);
  Compiler compiler(*exe, options);
  VKHLO_RETURN_IF_ERROR(compiler.Run());
  SetSignature(*exe, exe->compiled->entry->type());
  exe->lower_to_plan = &LowerForSerialize;
  VKHLO_RETURN_IF_ERROR(LoadOwnPlan(*exe));
  return Executable(std::move(exe));
}

}  // namespace vkhlo::runtime
