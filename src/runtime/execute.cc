// Running an executable: kernels are recorded into one command list per straight-line segment
// (the device layer puts barriers only between dependent dispatches); control flow runs on the
// host, which submits the segment so far, waits, and reads back only the predicate. A counted
// loop (a while whose trip count the program decides, trip_count.h) reads nothing back: its
// iterations are recorded back to back, in submissions bounded by EndIteration.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/transfer.h"
#include "runtime/execution.h"
#include "runtime/fft_step.h"
#include "runtime/polymorphic.h"
#include "runtime/profiler.h"

namespace vkhlo::runtime {

using ir::OpCode;

StatusOr<std::vector<RtValue>> Execution::RunBlock(const BlockProgram& program, std::vector<RtValue> arguments,
                                        const Environment* parent) {
  Environment env;
  env.parent = parent;
  const ir::Block& block = *program.block;
  if (arguments.size() != block.num_arguments()) return InternalError("block argument count mismatch");
  for (size_t i = 0; i < arguments.size(); ++i) env.values[block.argument(i)] = std::move(arguments[i]);
  arguments.clear();

  std::vector<std::shared_ptr<BufferState>> slots;
  uint64_t scratch = 0;
  for (uint64_t bytes : program.slot_bytes) {
    VKHLO_ASSIGN_OR_RETURN(auto slot, AllocateHeld(ir::Type::Tensor(ir::ElementType::kU8, {int64_t(bytes)})));
    scratch += bytes;
    slots.push_back(std::move(slot));
  }
  stats_.peak_scratch_bytes = std::max(stats_.peak_scratch_bytes, scratch);

  for (const codegen::BlockStep& step : program.plan.steps) {
    if (step.fusion >= 0) {
      VKHLO_RETURN_IF_ERROR(RunKernel(program, program.kernels[static_cast<size_t>(step.fusion)], slots, env));
      continue;
    }
    const ir::Operation& op = *step.op;
    if (op.code() == OpCode::kReturn || op.code() == OpCode::kFuncReturn) {
      std::vector<RtValue> results;
      for (const ir::Value* v : op.operands()) {
        VKHLO_ASSIGN_OR_RETURN(RtValue value, Lookup(env, v));
        results.push_back(std::move(value));
      }
      Retire(slots);
      return results;
    }
    VKHLO_RETURN_IF_ERROR(RunOp(program, op, env));
  }
  return InternalError("block without a terminator");
}

// Submits what is recorded and waits; buffers retired before now may then be freed.
Status Execution::Flush() {
  VKHLO_RETURN_IF_ERROR(WaitInFlight());
  if (list_) {
    const double submitted = profiler_ != nullptr ? profiler_->NowUs() : 0;
    VKHLO_ASSIGN_OR_RETURN(device::Submission done, list_->Submit());
    list_.reset();
    stats_.command_buffers++;
    VKHLO_RETURN_IF_ERROR(done.Wait());
    if (profiler_ != nullptr) VKHLO_RETURN_IF_ERROR(profiler_->Completed(done, submitted, profiler_->NowUs()));
  }
  retired_.clear();
  allocated_since_flush_ = 0;
  return OkStatus();
}

// On lavapipe, whose device is the host's own cores, recording a submission of the LSTM's
// 90 dispatches left the device idle about 1.5 ms when each submission was waited for before
// the next was recorded.
Status Execution::SubmitInFlight() {
  if (!list_) return WaitInFlight();
  VKHLO_ASSIGN_OR_RETURN(device::Submission done, list_->Submit());
  list_.reset();
  stats_.command_buffers++;
  VKHLO_RETURN_IF_ERROR(WaitInFlight());  // the queue runs the new one after it
  in_flight_.emplace(InFlight{std::move(done), std::move(retired_)});
  retired_.clear();
  allocated_since_flush_ = 0;
  return OkStatus();
}

void Execution::ForgetInvariants() {
  for (auto& [key, result] : invariant_) {
    for (auto& [index, buffer] : result.scratch) Retire(std::move(buffer));  // work in flight may read it
  }
  invariant_.clear();
  invariant_bytes_ = 0;
}

Status Execution::WaitInFlight() {
  if (!in_flight_) return OkStatus();
  Status waited = in_flight_->done.Wait();
  in_flight_.reset();
  return waited;
}

namespace {

// A counted loop's submission is closed between iterations once it holds this many dispatches
// (ExecuteOptions::max_dispatches_per_submission overrides it: a long list delays the first
// results and, on a desktop GPU, a watchdog may stop a submission that runs for seconds) or
// the buffers made for it, freed only when it completes, reach this many bytes: past that,
// memory freed and reused (mapped, in cache on a CPU device) is worth more than a submission
// saved. On lavapipe the 64-step LSTM, which makes about 2 MiB of buffers a step, ran about a
// third slower in one submission holding 256 MiB than in 9 of 16 MiB (docs/benchmarks.md).
constexpr uint32_t kDispatchesPerSubmission = 4096;
constexpr uint64_t kHeldBytesPerSubmission = uint64_t{16} << 20;

}  // namespace

StatusOr<std::shared_ptr<BufferState>> Execution::AllocateHeld(const ir::Type& type) {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> tensor, AllocateTensor(client_, type));
  allocated_since_flush_ += tensor->buffer.size();
  return tensor;
}

Status Execution::EndIteration() {
  const uint32_t most = process_.max_dispatches_per_submission > 0 ? process_.max_dispatches_per_submission
                                                                   : kDispatchesPerSubmission;
  if ((list_ && list_->dispatch_count() >= most) || allocated_since_flush_ >= kHeldBytesPerSubmission) {
    // A profile times each submission from its submit to its completion: one at a time there.
    return profiler_ != nullptr ? Flush() : SubmitInFlight();
  }
  return OkStatus();
}

// Drops recorded but unsubmitted work (after an error), then waits for what was submitted.
void Execution::Abandon() {
  list_.reset();
  if (profiler_ != nullptr) profiler_->Dropped();
  client_->device->Drain();  // a lost device too: the work of this execution may still run
  in_flight_.reset();
  retired_.clear();
  allocated_since_flush_ = 0;
}


StatusOr<RtValue> Execution::Lookup(const Environment& env, const ir::Value* v) {
  if (const RtValue* value = env.Find(v)) return *value;
  auto it = exe_.constants.find(v);
  if (it != exe_.constants.end()) return it->second;
  return InternalError(fmt::format("runtime: value %{} has no buffer", v->name_hint()));
}

// Bindings a pipeline reaches through device addresses (tensors beyond maxStorageBufferRange).
static uint64_t AddressBindings(const device::Pipeline& pipeline) {
  uint64_t n = 0;
  for (const device::ShaderBinding& b : pipeline.bindings()) n += b.device_address ? 1 : 0;
  return n;
}

// Bindings of tensors split across allocations (beyond maxMemoryAllocationSize).
static uint64_t SplitBindings(std::span<const device::Binding> bindings) {
  uint64_t n = 0;
  for (const device::Binding& b : bindings) n += b.view.pieces != nullptr ? 1 : 0;
  return n;
}

// Keeps buffers alive until the work recorded so far has finished.
void Execution::Retire(std::shared_ptr<BufferState> buffer) { retired_.push_back(std::move(buffer)); }

void Execution::Retire(std::vector<std::shared_ptr<BufferState>>& buffers) {
  for (auto& b : buffers) retired_.push_back(std::move(b));
  buffers.clear();
}

StatusOr<device::CommandList*> Execution::List() {
  if (!list_) {
    device::CommandListOptions options;
    options.timestamps = profiler_ != nullptr && profiler_->timestamps();
    VKHLO_ASSIGN_OR_RETURN(device::CommandList list, device::CommandList::Begin(*client_->device, options));
    list_.emplace(std::move(list));
  }
  return &*list_;
}

Status Execution::RunKernel(const BlockProgram& program, const CompiledKernel& kernel,
                 const std::vector<std::shared_ptr<BufferState>>& slots, Environment& env) {
  const codegen::KernelSource& source = kernel.source;
  std::vector<device::Binding> bindings;
  std::vector<std::shared_ptr<BufferState>> keep;
  uint64_t read = 0, written = 0;
  // Kernels that read in units wider than a word (binding_alignment > 4: vector loads of the
  // aligned unit holding an element) get whole buffers, which the allocator rounds up to its
  // alignment, so such a load never leaves the bound range.
  const bool whole = kernel.device && kernel.device->binding_alignment > 4;
  auto view = [&](const device::Buffer& buffer, uint64_t bytes) {
    return bytes == 0 || whole ? buffer.view() : buffer.view(0, bytes);
  };
  for (const ir::Value* in : source.inputs) {
    VKHLO_ASSIGN_OR_RETURN(RtValue value, Lookup(env, in));
    if (value.kind != RtValue::Kind::kTensor) return InternalError("kernel input is not a tensor");
    const uint64_t bytes = BufferBytes(in->type());
    bindings.push_back({view(value.storage->buffer, bytes), device::Access::kRead});
    read += bytes;
    keep.push_back(value.storage);
  }
  size_t aliased = 0;  // in-place outputs given their input's buffer
  for (size_t o = 0; o < source.outputs.size(); ++o) {
    const ir::Value* out = source.outputs[o];
    std::shared_ptr<BufferState> storage;
    uint64_t bytes = BufferBytes(out->type());
    uint64_t bytes_written = bytes;
    if (kernel.device) {
      for (const codegen::InPlaceOutput& in_place : kernel.device->in_place) {
        if (in_place.output != static_cast<int>(o) || in_place.input < 0 ||
            static_cast<size_t>(in_place.input) >= keep.size()) {
          continue;
        }
        const ir::Value* in = source.inputs[static_cast<size_t>(in_place.input)];
        const std::shared_ptr<BufferState>& candidate = keep[static_cast<size_t>(in_place.input)];
        if (!Exclusive(candidate, in, env, keep)) continue;
        storage = candidate;
        env.values.erase(in);  // dead (its only use is this op): the buffer is the result's now
        bytes_written = in_place.bytes_written;
        aliased++;
        break;
      }
    }
    auto slot = program.slot_of.find(out);
    if (!storage && slot != program.slot_of.end()) {
      storage = slots[static_cast<size_t>(slot->second)];
    } else if (!storage) {
      VKHLO_ASSIGN_OR_RETURN(storage, AllocateHeld(out->type()));
      storage->transient = true;
    }
    bindings.push_back({view(storage->buffer, bytes), device::Access::kWrite});
    written += bytes_written;
    env.values[out] = RtValue::Tensor(storage, out->type());
    keep.push_back(std::move(storage));
  }
  if (kernel.device) {
    const bool in_place = !kernel.device->in_place.empty() && aliased == kernel.device->in_place.size();
    stats_.in_place_updates += aliased;
    return RecordDeviceKernel(kernel, bindings, keep, read, written, in_place);
  }
  if (source.workgroups == 0) return OkStatus();  // nothing to compute (a zero-size shape)
  VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
  const uint32_t zero[4] = {0, 0, 0, 0};
  VKHLO_RETURN_IF_ERROR(list->Dispatch(*kernel.pipeline, bindings, device::AsBytes(zero),
                                       {static_cast<uint32_t>(std::min<uint64_t>(source.workgroups, UINT32_MAX)), 1, 1}));
  stats_.kernels_dispatched++;
  stats_.address_bindings += AddressBindings(*kernel.pipeline);
  stats_.split_bindings += SplitBindings(bindings);
  stats_.windowed_bindings += kernel.pipeline->windowed().size();
  stats_.bytes_read += read;
  stats_.bytes_written += written;
  Retire(keep);
  if (profiler_ != nullptr) return Profiled(DispatchEvent(kernel.profile.get(), source.name, "", read + written, 0));
  return OkStatus();
}

Status Execution::Profiled(ProfileEvent event) {
  profiler_->Recorded(std::move(event));
  return profiler_->submit_each_dispatch() ? Flush() : OkStatus();
}

namespace {

// Whether dispatch `d` of `dk` writes only scratch buffers, from the kernel's inputs (and
// constants) alone, that no other dispatch of the kernel touches before it or writes after it
// (a matmul's packing of an operand into panels): then what it writes depends only on what it
// reads, and a later run of the kernel on the same unchanging inputs may keep it.
bool WritesScratchFromInputs(const codegen::DeviceKernel& dk, size_t d) {
  using Kind = codegen::KernelBuffer::Kind;
  bool writes = false;
  for (const codegen::KernelBuffer& b : dk.dispatches[d].bindings) {
    if (b.kind == Kind::kValue && b.written) return false;
    if (b.kind != Kind::kScratch) continue;
    if (!b.written) return false;  // it reads what another dispatch wrote
    writes = true;
    for (size_t e = 0; e < dk.dispatches.size(); ++e) {
      if (e == d) continue;
      for (const codegen::KernelBuffer& o : dk.dispatches[e].bindings) {
        if (o.kind == Kind::kScratch && o.scratch == b.scratch && (e < d || o.written)) return false;
      }
    }
  }
  return writes;
}

// The scratch kept for loop-invariant dispatches, at most (beyond, they run each time): about
// the size of the weights a loop reads, packed.
constexpr uint64_t kMostInvariantBytes = uint64_t{256} << 20;

bool SameViews(const std::vector<device::BufferView>& a, const std::vector<device::BufferView>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].buffer != b[i].buffer || a[i].offset != b[i].offset || a[i].size != b[i].size ||
        a[i].pieces != b[i].pieces) {
      return false;
    }
  }
  return true;
}

}  // namespace

// A device kernel's dispatches in order. `values` are the bindings of the fusion's inputs then
// outputs (RunKernel's order); scratch buffers live until the work recorded so far is done.
Status Execution::RecordDeviceKernel(const CompiledKernel& kernel, const std::vector<device::Binding>& values,
                          std::vector<std::shared_ptr<BufferState>>& keep, uint64_t read, uint64_t written,
                          bool in_place) {
  const codegen::DeviceKernel& dk = *kernel.device;
  const codegen::KernelSource& source = kernel.source;
  std::unordered_map<const ir::Value*, size_t> position;
  for (size_t i = 0; i < source.inputs.size(); ++i) position.emplace(source.inputs[i], i);
  for (size_t i = 0; i < source.outputs.size(); ++i) position[source.outputs[i]] = source.inputs.size() + i;
  // Loop-invariant dispatches (WritesScratchFromInputs, reading only buffers nothing in this
  // execution writes: the caller's arguments, the executable's constants), such as the packing
  // of an LSTM's weights in each step of its scan: inside a loop, the first run's scratch is
  // kept (until the loop ends), and later runs on the same buffers skip the dispatch
  // (`invariant_reads` non-empty: it is invariant).
  std::vector<std::shared_ptr<BufferState>> scratch(dk.scratch_bytes.size());
  std::vector<std::vector<device::BufferView>> invariant_reads(dk.dispatches.size());
  std::vector<bool> reused(dk.dispatches.size(), false);
  for (size_t d = 0; d < dk.dispatches.size() && loop_depth_ > 0 && !immutable_.empty(); ++d) {
    if (kernel.device_pipelines[d] == nullptr || !WritesScratchFromInputs(dk, d)) continue;
    std::vector<device::BufferView> reads;
    bool invariant = true;
    for (const codegen::KernelBuffer& b : dk.dispatches[d].bindings) {
      if (b.kind != codegen::KernelBuffer::Kind::kValue) continue;
      auto it = position.find(b.value);
      invariant = it != position.end() && it->second < keep.size() && immutable_.count(keep[it->second].get()) > 0;
      if (!invariant) break;
      reads.push_back(values[it->second].view);
    }
    if (!invariant || reads.empty()) continue;
    auto last = invariant_.find({&dk, d});
    if (last != invariant_.end() && SameViews(last->second.reads, reads)) {
      for (const auto& [index, buffer] : last->second.scratch) scratch[index] = buffer;
      reused[d] = true;
    }
    invariant_reads[d] = std::move(reads);
  }
  for (size_t i = 0; i < scratch.size(); ++i) {
    if (scratch[i]) continue;
    VKHLO_ASSIGN_OR_RETURN(scratch[i],
                           AllocateHeld(ir::Type::Tensor(ir::ElementType::kU8, {int64_t(dk.scratch_bytes[i])})));
  }
  bool dispatched = false;
  for (size_t d = 0; d < dk.dispatches.size(); ++d) {
    const codegen::KernelDispatch& dispatch = dk.dispatches[d];
    const device::Pipeline* pipeline = kernel.device_pipelines[d].get();
    if (pipeline == nullptr) continue;  // an empty grid
    if (in_place && dispatch.skip_in_place) continue;  // the outputs already hold their inputs
    if (reused[d]) {  // its scratch holds what it would write
      stats_.invariant_dispatches_reused++;
      continue;
    }
    std::vector<device::Binding> bindings;
    for (const codegen::KernelBuffer& b : dispatch.bindings) {
      const device::Access access = b.written ? device::Access::kReadWrite : device::Access::kRead;
      if (b.kind == codegen::KernelBuffer::Kind::kScratch) {
        if (b.scratch < 0 || static_cast<size_t>(b.scratch) >= scratch.size()) {
          return InternalError(fmt::format("kernel '{}': scratch buffer {} out of range", dispatch.name, b.scratch));
        }
        const auto& buffer = scratch[static_cast<size_t>(b.scratch)]->buffer;
        const uint64_t bytes = dk.scratch_bytes[static_cast<size_t>(b.scratch)];
        bindings.push_back({bytes == 0 || dk.binding_alignment > 4 ? buffer.view() : buffer.view(0, bytes), access});
        continue;
      }
      if (b.kind == codegen::KernelBuffer::Kind::kConstant) {
        if (b.scratch < 0 || static_cast<size_t>(b.scratch) >= kernel.constants.size()) {
          return InternalError(fmt::format("kernel '{}': constant table {} out of range", dispatch.name, b.scratch));
        }
        bindings.push_back({kernel.constants[static_cast<size_t>(b.scratch)]->buffer.view(), device::Access::kRead});
        continue;
      }
      auto it = position.find(b.value);
      if (it == position.end()) return InternalError(fmt::format("kernel '{}' binds a value it does not own", dispatch.name));
      bindings.push_back({values[it->second].view, access});
    }
    std::vector<uint32_t> push(4 + dispatch.push_words.size(), 0);
    std::copy(dispatch.push_words.begin(), dispatch.push_words.end(), push.begin() + 4);
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    VKHLO_RETURN_IF_ERROR(list->Dispatch(*pipeline, bindings, std::as_bytes(std::span<const uint32_t>(push)),
                                         {dispatch.grid[0], dispatch.grid[1], dispatch.grid[2]}));
    stats_.kernels_dispatched++;
    stats_.address_bindings += AddressBindings(*pipeline);
    stats_.split_bindings += SplitBindings(bindings);
    stats_.windowed_bindings += pipeline->windowed().size();
    dispatched = true;
    if (!invariant_reads[d].empty() && invariant_bytes_ < kMostInvariantBytes) {
      InvariantResult& result = invariant_[{&dk, d}];
      result.reads = invariant_reads[d];
      result.scratch.clear();
      for (const codegen::KernelBuffer& b : dispatch.bindings) {
        if (b.kind != codegen::KernelBuffer::Kind::kScratch) continue;
        result.scratch.emplace_back(b.scratch, scratch[static_cast<size_t>(b.scratch)]);
        invariant_bytes_ += dk.scratch_bytes[static_cast<size_t>(b.scratch)];
      }
    }
    if (profiler_ != nullptr) {
      // A kernel of one dispatch moves what the kernel does (in-place outputs count what they
      // write); each of several moves the buffers it binds.
      uint64_t bytes = read + written;
      if (dk.dispatches.size() > 1) {
        bytes = 0;
        for (const codegen::KernelBuffer& b : dispatch.bindings) {
          bytes += b.kind == codegen::KernelBuffer::Kind::kValue ? BufferBytes(b.value->type())
                                                                 : codegen::InternalBufferBytes(dk, b);
        }
      }
      // The dispatch's strategy: its config by name, else its name's suffix ("fusion_3.reduce_rows").
      std::string config = dispatch.config;
      if (config.empty() && dispatch.name.find('.') != std::string::npos) {
        config = dispatch.name.substr(dispatch.name.find('.') + 1);
      }
      VKHLO_RETURN_IF_ERROR(Profiled(DispatchEvent(kernel.profile.get(), dispatch.name, config, bytes, dispatch.flops)));
    }
  }
  if (dispatched) {
    stats_.bytes_read += read;
    stats_.bytes_written += written;
  }
  Retire(scratch);
  Retire(keep);
  return OkStatus();
}

bool Execution::Exclusive(const std::shared_ptr<BufferState>& storage, const ir::Value* value, const Environment& env,
                          const std::vector<std::shared_ptr<BufferState>>& keep) const {
  if (!storage || !storage->transient) return false;
  auto it = env.values.find(value);
  if (it == env.values.end() || it->second.kind != RtValue::Kind::kTensor || it->second.storage != storage) return false;
  // The references we know of: the value's entry, this kernel's own, and work in flight (which
  // the command list orders before the update). Any other (another value, a tuple, an outer
  // block, the caller) means someone may still read it.
  long known = 1;
  for (const auto& k : keep) known += k == storage ? 1 : 0;
  for (const auto& r : retired_) known += r == storage ? 1 : 0;
  if (in_flight_) {  // submitted earlier, so run before the update
    for (const auto& r : in_flight_->retired) known += r == storage ? 1 : 0;
  }
  return storage.use_count() == known;
}

// The integer value of a scalar predicate/index tensor, read back from the device.
StatusOr<int64_t> Execution::ReadScalar(const ir::Operation& op, const RtValue& value) {
  if (value.kind != RtValue::Kind::kTensor || value.type.num_elements() != 1) {
    return InternalError("control flow predicate is not a scalar tensor");
  }
  VKHLO_RETURN_IF_ERROR(Flush());
  stats_.predicate_readbacks++;
  const int bytes = ir::StorageBytes(value.type.element_type());
  uint64_t raw = 0;
  const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
  VKHLO_RETURN_IF_ERROR(client_->device->transfers().Download(
      value.storage->buffer, 0, std::as_writable_bytes(std::span<uint64_t>(&raw, 1)).first(static_cast<size_t>(bytes))));
  if (profiler_ != nullptr) {
    profiler_->Host(fmt::format("predicate read ({})", op.name()), "host: predicate read", DescribeOp(*exe_.module, op),
                    start, static_cast<uint64_t>(bytes));
  }
  const int width = ir::BitWidth(value.type.element_type());
  if (ir::IsSignedInteger(value.type.element_type()) && width < 64) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    raw &= (uint64_t{1} << width) - 1;
    return static_cast<int64_t>((raw ^ sign) - sign);
  }
  return static_cast<int64_t>(raw);
}

// Batches of a data-dependent loop: each as long as half the iterations the loop has done so
// far (at least 1, at most kMostIterationsPerBatch), a batch ending early at EndIteration's
// bounds. The iterations recorded past the exit are wasted work, at most half of what the loop
// did (a third of the total): a loop of 10 iterations reads 7 predicates instead of 11, one of
// 200 reads 14 instead of 201 and runs 205 bodies. Each iteration records its condition, copies the
// predicate into the batch's flags, and records its body, whatever the condition will say: the
// regions only record kernels (total functions of any data: docs/design.md "Semantics the spec
// leaves open"), and every iteration's state is held here, so no kernel writes one in place.
// After the batch, one read of the flags: the state of the first false condition is the
// loop's result, the same buffers the host path would have returned; later ones are dropped.
constexpr int64_t kMostIterationsPerBatch = 64;

StatusOr<std::vector<RtValue>> Execution::RunBatched(const ir::Operation& op, const BlockProgram& cond,
                                                     const BlockProgram& body, std::vector<RtValue> state,
                                                     const Environment& env) {
  constexpr uint64_t kFlagBytes = 8;  // one slot per iteration, wide enough for any predicate
  VKHLO_ASSIGN_OR_RETURN(
      std::shared_ptr<BufferState> flags,
      AllocateHeld(ir::Type::Tensor(ir::ElementType::kU8, {int64_t{kMostIterationsPerBatch} * int64_t{kFlagBytes}})));
  const uint32_t most = process_.max_dispatches_per_submission > 0 ? process_.max_dispatches_per_submission
                                                                   : kDispatchesPerSubmission;
  int64_t done = 0;  // iterations whose condition held
  while (true) {
    const int64_t batch = std::clamp<int64_t>(done / 2, 1, kMostIterationsPerBatch);
    std::vector<std::vector<RtValue>> states;
    states.push_back(std::move(state));
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    VKHLO_RETURN_IF_ERROR(list->FillBuffer(flags->buffer.view(0, kMostIterationsPerBatch * kFlagBytes), 0));
    int64_t recorded = 0;
    uint64_t held = 0;  // bytes of the states this batch made
    int predicate_bytes = 1;
    while (recorded < batch) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> condition, RunBlock(cond, states.back(), &env));
      if (condition.size() != 1 || condition[0].kind != RtValue::Kind::kTensor ||
          condition[0].type.num_elements() != 1) {
        return InternalError("while condition must return one scalar tensor");
      }
      predicate_bytes = ir::StorageBytes(condition[0].type.element_type());
      VKHLO_RETURN_IF_ERROR(Copy(*condition[0].storage, 0, *flags, static_cast<uint64_t>(recorded) * kFlagBytes,
                                 static_cast<uint64_t>(predicate_bytes)));
      Retire(condition[0].storage);
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> next, RunBlock(body, states.back(), &env));
      for (const RtValue& value : next) held += value.kind == RtValue::Kind::kTensor ? value.storage->buffer.size() : 0;
      states.push_back(std::move(next));
      ++recorded;
      // The states held count too: a counted loop in the body may have submitted meanwhile.
      if ((list_ && list_->dispatch_count() >= most) || allocated_since_flush_ >= kHeldBytesPerSubmission ||
          held >= kHeldBytesPerSubmission) {
        break;
      }
    }
    // One read: the flags of the `recorded` conditions.
    VKHLO_RETURN_IF_ERROR(Flush());
    stats_.predicate_readbacks++;
    std::vector<uint8_t> raw(static_cast<size_t>(recorded) * kFlagBytes);
    const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
    VKHLO_RETURN_IF_ERROR(
        client_->device->transfers().Download(flags->buffer, 0, std::as_writable_bytes(std::span<uint8_t>(raw))));
    if (profiler_ != nullptr) {
      profiler_->Host(fmt::format("predicate read ({}, {} iterations)", op.name(), recorded), "host: predicate read",
                      DescribeOp(*exe_.module, op), start, raw.size());
    }
    for (int64_t k = 0; k < recorded; ++k) {
      bool holds = false;
      for (int b = 0; b < predicate_bytes; ++b) holds |= raw[static_cast<size_t>(k * kFlagBytes) + b] != 0;
      if (!holds) return std::move(states[static_cast<size_t>(k)]);
    }
    state = std::move(states.back());
    done += recorded;
  }
}

Status Execution::RunOp(const BlockProgram& program, const ir::Operation& op, Environment& env) {
  std::vector<RtValue> operands;
  for (const ir::Value* v : op.operands()) {
    VKHLO_ASSIGN_OR_RETURN(RtValue value, Lookup(env, v));
    operands.push_back(std::move(value));
  }
  auto set_results = [&](std::vector<RtValue> values) -> Status {
    if (values.size() != op.num_results()) return InternalError(fmt::format("{}: result count mismatch", op.name()));
    for (size_t i = 0; i < values.size(); ++i) env.values[op.result(i)] = std::move(values[i]);
    return OkStatus();
  };
  auto regions = [&]() -> const std::vector<std::unique_ptr<BlockProgram>>& { return program.regions.at(&op); };
  switch (op.code()) {
    case OpCode::kTuple:
      return set_results({RtValue::Tuple(std::move(operands))});
    case OpCode::kGetTupleElement: {
      const int64_t index = op.attribute("index") ? op.attribute("index")->AsInt().value_or(-1) : -1;
      if (operands[0].kind != RtValue::Kind::kTuple || index < 0 ||
          index >= static_cast<int64_t>(operands[0].elements.size())) {
        return InternalError("get_tuple_element out of range");
      }
      return set_results({operands[0].elements[static_cast<size_t>(index)]});
    }
    case OpCode::kOptimizationBarrier:
      return set_results(std::move(operands));
    case OpCode::kAfterAll:
    case OpCode::kCreateToken:
      return set_results({RtValue{}});
    case OpCode::kFft: {
      // VkFFT records into the same command list as the kernels (fft_step.h).
      if (operands[0].kind != RtValue::Kind::kTensor) return InternalError("fft operand is not a tensor");
      const ir::Type& type = op.result(0)->type();
      VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> result, AllocateHeld(type));
      if (operands[0].storage->buffer.split() || result->buffer.split()) {
        // VkFFT binds whole VkBuffers by offset: a tensor in several allocations is beyond it.
        return UnimplementedError(fmt::format(
            "{}: error: '{}' fft of {} -> {}: a tensor beyond the device's maxMemoryAllocationSize is split across "
            "allocations, which VkFFT cannot bind", ir::FormatLocation(exe_.module->source_name(), op.location()), op.name(),
            op.operand(0)->type().ToString(),
            type.ToString()));
      }
      VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
      VKHLO_RETURN_IF_ERROR(
          RecordFft(*client_, *list, op, operands[0].storage->buffer, result->buffer, &stats_.fft_split_launches));
      stats_.kernels_dispatched++;
      stats_.bytes_read += BufferBytes(op.operand(0)->type());
      stats_.bytes_written += BufferBytes(type);
      std::vector<std::shared_ptr<BufferState>> keep = {operands[0].storage};
      Retire(keep);
      if (profiler_ != nullptr) {
        ProfileEvent event = DispatchEvent(nullptr, "fft", "VkFFT", BufferBytes(op.operand(0)->type()) + BufferBytes(type), 0);
        event.kernel = "fft";
        event.kernel_class = "fft";
        event.source_op = DescribeOp(*exe_.module, op);
        event.fused_ops = {event.source_op};
        VKHLO_RETURN_IF_ERROR(Profiled(std::move(event)));
      }
      return set_results({RtValue::Tensor(std::move(result), type)});
    }
    case OpCode::kCustomCall: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunCustomCall(op, operands));
      return set_results(std::move(results));
    }
    case OpCode::kCall: {
      const std::string& name = op.attribute("callee")->as<ir::SymbolRef>()->name;
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunBlock(*exe_.functions.at(name), operands, nullptr));
      return set_results(std::move(results));
    }
    case OpCode::kIf: {
      VKHLO_ASSIGN_OR_RETURN(int64_t predicate, ReadScalar(op, operands[0]));
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunBlock(*regions()[predicate != 0 ? 0 : 1], {}, &env));
      return set_results(std::move(results));
    }
    case OpCode::kCase: {
      VKHLO_ASSIGN_OR_RETURN(int64_t index, ReadScalar(op, operands[0]));
      const int64_t n = static_cast<int64_t>(regions().size());
      // Out of range selects the last branch (the spec's default).
      if (index < 0 || index >= n) index = n - 1;
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunBlock(*regions()[static_cast<size_t>(index)], {}, &env));
      return set_results(std::move(results));
    }
    case OpCode::kWhile: {
      std::vector<RtValue> state = std::move(operands);
      // Loop-invariant dispatches are kept while a loop runs (RecordDeviceKernel), dropped after.
      struct InLoop {
        Execution& e;
        explicit InLoop(Execution& e) : e(e) { e.loop_depth_++; }
        ~InLoop() {
          if (--e.loop_depth_ == 0) e.ForgetInvariants();
        }
      } in_loop(*this);
      auto counted = program.trip_counts.find(&op);
      if (counted != program.trip_counts.end() && !process_.host_loops) {
        // The condition only compares a counter with a bound: its value is known, so it is not
        // run; the body's kernels (the counter's step among them) run as on the host path.
        for (int64_t i = 0; i < counted->second; ++i) {
          VKHLO_ASSIGN_OR_RETURN(state, RunBlock(*regions()[1], std::move(state), &env));
          VKHLO_RETURN_IF_ERROR(EndIteration());
        }
        stats_.counted_loop_iterations += static_cast<uint64_t>(counted->second);
        return set_results(std::move(state));
      }
      if (program.batched.count(&op) && !process_.host_loops) {
        VKHLO_ASSIGN_OR_RETURN(state, RunBatched(op, *regions()[0], *regions()[1], std::move(state), env));
        return set_results(std::move(state));
      }
      while (true) {
        VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> condition, RunBlock(*regions()[0], state, &env));
        if (condition.size() != 1) return InternalError("while condition must return one value");
        VKHLO_ASSIGN_OR_RETURN(int64_t predicate, ReadScalar(op, condition[0]));
        if (predicate == 0) break;
        VKHLO_ASSIGN_OR_RETURN(state, RunBlock(*regions()[1], std::move(state), &env));
      }
      return set_results(std::move(state));
    }
    case OpCode::kAllGather:
    case OpCode::kAllReduce:
    case OpCode::kReduceScatter:
    case OpCode::kCollectiveReduce:
    case OpCode::kAllToAll:
    case OpCode::kCollectivePermute:
    case OpCode::kCollectiveBroadcast: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunCollective(op, operands));
      return set_results(std::move(results));
    }
    case OpCode::kReplicaId:
    case OpCode::kPartitionId:
    case OpCode::kSend:
    case OpCode::kRecv:
    case OpCode::kInfeed:
    case OpCode::kOutfeed: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunProcessOp(op, operands));
      return set_results(std::move(results));
    }
    default:
      return InternalError(fmt::format("runtime: unexpected {}", op.name()));
  }
}

namespace {

// Tensors of the results; tuples are flattened.
void Flatten(const RtValue& value, std::vector<Buffer>& out) {
  if (value.kind == RtValue::Kind::kTuple) {
    for (const RtValue& e : value.elements) Flatten(e, out);
  } else if (value.kind == RtValue::Kind::kTensor) {
    value.storage->transient = false;  // the caller's now
    out.push_back(Buffer(value.storage));
  }
}

}  // namespace

StatusOr<std::vector<Buffer>> RunEntry(const ExecutableState& exe, std::span<const Buffer> arguments,
                                       const ProcessContext& process, ExecutionStats* stats) {
  if (exe.polymorphic) return RunPolymorphic(exe, arguments, process, stats);
  const std::vector<ir::Type>& inputs = exe.entry->type().inputs;
  const std::string where = fmt::format("@{}", exe.entry->name());
  size_t tensors = 0;
  for (const ir::Type& t : inputs) tensors += t.is_token() ? 0 : 1;
  if (arguments.size() != tensors) {
    return InvalidArgumentError(fmt::format("{} takes {} arguments, given {}", where, tensors, arguments.size()));
  }
  std::vector<RtValue> values;
  size_t next = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_token()) {  // tokens carry no data: each token parameter gets one
      values.push_back(RtValue{});
      continue;
    }
    const size_t a = next++;
    if (!arguments[a]) return InvalidArgumentError(fmt::format("{}: argument {} is an empty Buffer", where, a));
    const ir::Type& given = arguments[a].state()->type;
    if (!inputs[i].is_tensor() || given != inputs[i]) {
      return InvalidArgumentError(fmt::format("{}: argument {} must be {}, given {}", where, a, inputs[i].ToString(),
                                              given.ToString()));
    }
    if (arguments[a].state()->client != exe.client) {
      return InvalidArgumentError(fmt::format("{}: argument {} lives on another client", where, a));
    }
    values.push_back(RtValue::Tensor(arguments[a].state(), given));
  }
  Execution execution(exe, process);
  for (const RtValue& value : values) {
    if (value.kind == RtValue::Kind::kTensor) execution.Immutable(value.storage);  // never updated in place
  }
  auto results = execution.RunBlock(*exe.program, values, nullptr);
  if (!results.ok()) {
    execution.Abandon();
    return results.status();
  }
  VKHLO_RETURN_IF_ERROR(execution.Flush());
  std::vector<Buffer> buffers;
  for (const RtValue& v : *results) Flatten(v, buffers);
  if (stats != nullptr) *stats = execution.stats();
  return buffers;
}

}  // namespace vkhlo::runtime

namespace vkhlo {

namespace {

// The tensors of `t` in order, tuples flattened, tokens (which hold no data) left out, dynamic
// sizes as -1: what Execute takes and returns.
void AppendTensorTypes(const ir::Type& t, std::vector<TensorType>& out) {
  if (t.is_tuple()) {
    for (const ir::Type& element : t.tuple_elements()) AppendTensorTypes(element, out);
    return;
  }
  if (!t.is_tensor()) return;
  TensorType type = runtime::ToTensorType(t);
  for (int64_t& d : type.dims) d = ir::IsDynamicDim(d) ? -1 : d;
  out.push_back(std::move(type));
}

// The entry's signature: the polymorphic program's (sizes still dynamic) or the static one's.
const ir::FunctionType* EntryType(const runtime::ExecutableState* state) {
  if (state == nullptr) return nullptr;
  if (state->polymorphic) {
    const ir::Function* f = state->polymorphic->module->FindFunction(state->polymorphic->entry);
    return f != nullptr ? &f->type() : nullptr;
  }
  return state->entry != nullptr ? &state->entry->type() : nullptr;
}

}  // namespace

std::vector<TensorType> Executable::parameter_types() const {
  std::vector<TensorType> types;
  if (const ir::FunctionType* type = EntryType(state_.get())) {
    for (const ir::Type& t : type->inputs) AppendTensorTypes(t, types);
  }
  return types;
}

std::vector<TensorType> Executable::result_types() const {
  std::vector<TensorType> types;
  if (const ir::FunctionType* type = EntryType(state_.get())) {
    for (const ir::Type& t : type->results) AppendTensorTypes(t, types);
  }
  return types;
}

ExecutionStats Executable::last_stats() const {
  std::lock_guard<std::mutex> lock(state_->stats_mutex);
  return state_->last_stats;
}

const CompileStats& Executable::compile_stats() const { return state_->compile_stats; }

StatusOr<std::vector<Buffer>> Executable::ExecuteBuffers(std::span<const Buffer> arguments) const {
  return ExecuteBuffers(arguments, ExecuteOptions{});
}

StatusOr<std::vector<Buffer>> Executable::ExecuteBuffers(std::span<const Buffer> arguments,
                                                         const ExecuteOptions& options) const {
  if (!state_) return InvalidArgumentError("Execute on an empty Executable");
  ExecutionStats stats;
  runtime::ProcessContext process;  // the 1 x 1 grid, with the client's feed queues
  process.infeed = state_->client->infeed.get();
  process.outfeed = state_->client->outfeed.get();
  std::optional<runtime::Profiler> profiler;
  if (options.profile != nullptr) {
    profiler.emplace(*options.profile, *state_->client->device, options.profile_host_times);
    process.profiler = &*profiler;
  }
  process.host_loops = options.host_loops;
  process.max_dispatches_per_submission = options.max_dispatches_per_submission;
  auto run = runtime::RunEntry(*state_, arguments, process, &stats);
  if (profiler) profiler->Finish();
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> buffers, std::move(run));
  std::lock_guard<std::mutex> stats_lock(state_->stats_mutex);
  state_->last_stats = stats;
  return buffers;
}

}  // namespace vkhlo
