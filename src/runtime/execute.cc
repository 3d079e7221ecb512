// Running an executable's plan (plan/plan.h, loaded_plan.h): device steps are recorded into
// one command list per straight-line run (the device layer puts barriers only between
// dependent dispatches); control flow runs on the host, which submits what is recorded, waits,
// and reads back only the predicate. A counted loop (a while whose trip count the program
// decides, passes/trip_count.h) reads nothing back: its iterations are recorded back to back, in
// submissions bounded by EndIteration. Values are the plan's, by number; nothing here reads
// the IR.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/transfer.h"
#include "runtime/execution.h"
#include "runtime/fft_record.h"
#include "runtime/profiler.h"

namespace vkhlo::runtime {

using Placement = plan::Value::Placement;

Execution::Execution(const ExecutableState& exe, ProcessContext process)
    : exe_(exe),
      loaded_(*exe.loaded),
      client_(exe.client),
      process_(process),
      profiler_(process.profiler),
      values_(exe.loaded->plan.values.size()) {
  for (size_t v = 0; v < plan().values.size(); ++v) {
    const plan::Value& value = plan().values[v];
    if (value.kind == plan::Value::Kind::kTensor && value.placement == Placement::kConstant) {
      values_[v] = RtValue::Tensor(loaded_.constants[value.index], TypeOf(static_cast<uint32_t>(v)));
    }
  }
  for (const auto& constant : loaded_.constants) Immutable(constant);
}

StatusOr<RtValue> Execution::Lookup(uint32_t value) const {
  const RtValue& v = values_[value];
  const plan::Value::Kind kind = plan().values[value].kind;
  if (kind == plan::Value::Kind::kTensor && (v.kind != RtValue::Kind::kTensor || v.storage == nullptr)) {
    return InternalError(fmt::format("runtime: value {} ({}) has no buffer", value, plan().values[value].name));
  }
  return v;
}

StatusOr<std::vector<RtValue>> Execution::LookupAll(const std::vector<uint32_t>& values) const {
  std::vector<RtValue> out;
  out.reserve(values.size());
  for (uint32_t v : values) {
    VKHLO_ASSIGN_OR_RETURN(RtValue value, Lookup(v));
    out.push_back(std::move(value));
  }
  return out;
}

Status Execution::SetResults(const std::vector<uint32_t>& ids, std::vector<RtValue> values, std::string_view what) {
  if (values.size() != ids.size()) {
    return InternalError(fmt::format("{}: {} results for {} values", what, values.size(), ids.size()));
  }
  for (size_t i = 0; i < ids.size(); ++i) values_[ids[i]] = std::move(values[i]);
  return OkStatus();
}

namespace {
// Outside loops a submission is closed between steps once the buffers made for it, freed only
// when it completes, reach this many bytes (loops: kHeldBytesPerSubmission, below): high enough
// that the models' programs (tens of MiB a call) keep one submission.
constexpr uint64_t kHeldBytesStraightLine = uint64_t{256} << 20;
}  // namespace

StatusOr<std::vector<RtValue>> Execution::RunList(uint32_t index, std::vector<RtValue> arguments) {
  const plan::StepList& list = plan().lists[index];
  if (arguments.size() != list.arguments.size()) {
    return InternalError(fmt::format("list '{}' takes {} arguments, given {}", list.name, list.arguments.size(),
                                     arguments.size()));
  }
  for (size_t i = 0; i < arguments.size(); ++i) values_[list.arguments[i]] = std::move(arguments[i]);
  arguments.clear();
  ++list_depth_;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{list_depth_};

  uint64_t scratch = 0;
  for (const plan::Slot& slot : list.slots) scratch += slot.bytes;
  stats_.peak_scratch_bytes = std::max(stats_.peak_scratch_bytes, scratch);
  ListRun run;
  run.index = index;
  run.list = &list;
  run.slots.resize(list.slots.size());
  // Slots in the order their lives end (made when the plan was loaded): retired after their last step.
  const std::vector<uint32_t>& ending = loaded_.slots_by_end[index];
  size_t next_end = 0;
  uint32_t step_index = 0;
  for (const plan::Segment& segment : list.segments) {
    for (const plan::Step& step : segment.steps) {
      run.step = step_index;
      VKHLO_RETURN_IF_ERROR(RunStep(run, step));
      for (; next_end < ending.size() && list.slots[ending[next_end]].last_step <= step_index; ++next_end) {
        std::shared_ptr<BufferState>& slot = run.slots[ending[next_end]];
        if (slot) Retire(std::move(slot));
        slot.reset();
      }
      // Values no later step reads: their buffers (an FFT's result, for one) go with the work
      // recorded so far, as slots do.
      for (uint32_t v : loaded_.values_dead_after[index][step_index]) {
        if (values_[v].storage) Retire(std::move(values_[v].storage));
        values_[v] = RtValue{};
      }
      // Straight-line code holds what it retires until its submission completes: past
      // kHeldBytesStraightLine of buffers made, submit, so that big programs (an FFT split into
      // many steps on tensors of hundreds of MiB) free their dead tensors as they go instead of
      // holding every one to the end. Loops close their submissions between iterations.
      if (list_depth_ == 1 && allocated_since_flush_ >= kHeldBytesStraightLine) {
        VKHLO_RETURN_IF_ERROR(profiler_ != nullptr ? Flush() : SubmitInFlight());
      }
      ++step_index;
    }
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, LookupAll(list.results));
  // What the list made dies with it (results handed on hold their own references).
  for (uint32_t v : loaded_.list_values[index]) values_[v] = RtValue{};
  Retire(run.slots);
  return results;
}

Status Execution::RunStep(ListRun& run, const plan::Step& step) {
  if (const auto* s = std::get_if<plan::DispatchStep>(&step.op)) return RunDispatchStep(run, *s);
  if (const auto* s = std::get_if<plan::WhileStep>(&step.op)) return RunWhile(*s);
  if (const auto* s = std::get_if<plan::ValueStep>(&step.op)) return RunValueStep(*s);
  if (const auto* s = std::get_if<plan::FftStep>(&step.op)) return RunFft(*s);
  if (const auto* s = std::get_if<plan::BranchStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(RtValue selector, Lookup(s->selector.value));
    VKHLO_ASSIGN_OR_RETURN(int64_t index, ReadScalar(s->selector, selector, StepOpName(step), s->location));
    const auto n = static_cast<int64_t>(s->branches.size());
    if (!s->is_case) {
      index = index != 0 ? 0 : 1;
    } else if (index < 0 || index >= n) {
      index = n - 1;  // out of range selects the last branch (the spec's default)
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunList(s->branches[static_cast<size_t>(index)], {}));
    return SetResults(s->results, std::move(results), StepOpName(step));
  }
  if (const auto* s = std::get_if<plan::CallStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> operands, LookupAll(s->operands));
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunList(s->function, std::move(operands)));
    return SetResults(s->results, std::move(results), plan().lists[s->function].name);
  }
  if (const auto* s = std::get_if<plan::CollectiveStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> operands, LookupAll(s->operands));
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunCollective(*s, operands));
    return SetResults(s->results, std::move(results), StepOpName(step));
  }
  if (const auto* s = std::get_if<plan::ProcessStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> operands, LookupAll(s->operands));
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunProcessOp(*s, operands));
    return SetResults(s->results, std::move(results), StepOpName(step));
  }
  if (const auto* s = std::get_if<plan::CustomCallStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> operands, LookupAll(s->operands));
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> results, RunCustomCall(*s, operands));
    return SetResults(s->results, std::move(results), StepOpName(step));
  }
  if (const auto* s = std::get_if<plan::CopyStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(device::BufferView from, View(run, s->from));
    VKHLO_ASSIGN_OR_RETURN(device::BufferView to, View(run, s->to));
    if (to.size == 0) return OkStatus();
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    return list->CopyBuffer(from, to);
  }
  if (const auto* s = std::get_if<plan::FillStep>(&step.op)) {
    VKHLO_ASSIGN_OR_RETURN(device::BufferView to, View(run, s->to));
    if (to.size == 0) return OkStatus();
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    return list->FillBuffer(to, s->word);
  }
  return InternalError("runtime: a plan step of an unknown kind");
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
    for (auto& [slot, buffer] : result.slots) Retire(std::move(buffer));  // work in flight may read it
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

// Bindings a pipeline reaches through device addresses (tensors beyond maxStorageBufferRange).
uint64_t AddressBindings(const device::Pipeline& pipeline) {
  uint64_t n = 0;
  for (const device::ShaderBinding& b : pipeline.bindings()) n += b.device_address ? 1 : 0;
  return n;
}

// Bindings of tensors split across allocations (beyond maxMemoryAllocationSize).
uint64_t SplitBindings(std::span<const device::Binding> bindings) {
  uint64_t n = 0;
  for (const device::Binding& b : bindings) n += b.view.pieces != nullptr ? 1 : 0;
  return n;
}

}  // namespace

StatusOr<std::shared_ptr<BufferState>> Execution::AllocateHeld(const TensorDesc& type) {
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

// Keeps buffers alive until the work recorded so far has finished.
void Execution::Retire(std::shared_ptr<BufferState> buffer) { retired_.push_back(std::move(buffer)); }

void Execution::Retire(std::vector<std::shared_ptr<BufferState>>& buffers) {
  for (auto& b : buffers) {
    if (b) retired_.push_back(std::move(b));
  }
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

Status Execution::Profiled(ProfileEvent event) {
  profiler_->Recorded(std::move(event));
  return profiler_->submit_each_dispatch() ? Flush() : OkStatus();
}

StatusOr<device::BufferView> Execution::View(const ListRun& run, const plan::BufferRef& ref,
                                             const BufferState* value_storage) const {
  const device::Buffer* buffer = nullptr;
  switch (ref.kind) {
    case plan::BufferRef::Kind::kValue: {
      if (value_storage == nullptr) {
        const RtValue& value = values_[ref.index];
        if (value.kind != RtValue::Kind::kTensor || value.storage == nullptr) {
          return InternalError(fmt::format("runtime: list '{}' step {} binds value {}, which has no buffer",
                                           run.list->name, run.step, ref.index));
        }
        value_storage = value.storage.get();
      }
      buffer = &value_storage->buffer;
      break;
    }
    case plan::BufferRef::Kind::kSlot: {
      const plan::Slot& slot = run.list->slots[ref.index];
      if (run.step < slot.first_step || run.step > slot.last_step || run.slots[ref.index] == nullptr) {
        return InternalError(fmt::format("runtime: list '{}' step {} binds slot {} outside its life", run.list->name,
                                         run.step, ref.index));
      }
      buffer = &run.slots[ref.index]->buffer;
      break;
    }
    case plan::BufferRef::Kind::kConstant:
      buffer = &loaded_.constants[ref.index]->buffer;
      break;
  }
  // Bytes 0: the whole buffer (as the allocator rounded it), which kernels reading in units
  // wider than a word need.
  if (ref.bytes == 0) return ref.offset == 0 ? buffer->view() : buffer->view(ref.offset, buffer->size() - std::min(ref.offset, buffer->size()));
  return buffer->view(ref.offset, ref.bytes);
}

Status Execution::RunDispatchStep(ListRun& run, const plan::DispatchStep& step) {
  std::vector<std::shared_ptr<BufferState>> keep;  // inputs, then outputs
  uint64_t read = 0, written = 0;
  for (uint32_t in : step.inputs) {
    VKHLO_ASSIGN_OR_RETURN(RtValue value, Lookup(in));
    if (value.kind != RtValue::Kind::kTensor) return InternalError("kernel input is not a tensor");
    read += plan().values[in].bytes;
    keep.push_back(std::move(value.storage));
  }
  size_t aliased = 0;  // in-place outputs given their input's buffer
  for (size_t o = 0; o < step.outputs.size(); ++o) {
    const uint32_t out = step.outputs[o];
    const plan::Value& value = plan().values[out];
    std::shared_ptr<BufferState> storage;
    uint64_t bytes_written = value.bytes;
    for (const plan::InPlaceOutput& in_place : step.in_place) {
      if (in_place.output != o || in_place.input >= step.inputs.size()) continue;
      const uint32_t in = step.inputs[in_place.input];
      const std::shared_ptr<BufferState>& candidate = keep[in_place.input];
      if (!Exclusive(candidate, in, run.index, keep)) continue;
      storage = candidate;
      values_[in] = RtValue{};  // dead (its only use is this step): the buffer is the result's now
      bytes_written = in_place.bytes_written;
      aliased++;
      break;
    }
    if (!storage && value.placement == Placement::kSlot) {
      std::shared_ptr<BufferState>& slot = run.slots[value.index];
      if (!slot) {
        VKHLO_ASSIGN_OR_RETURN(slot, AllocateHeld(TensorDesc{U8, {int64_t(run.list->slots[value.index].bytes)}}));
      }
      storage = slot;
    } else if (!storage) {
      VKHLO_ASSIGN_OR_RETURN(storage, AllocateHeld(TypeOf(out)));
      storage->transient = true;
    }
    written += bytes_written;
    values_[out] = RtValue::Tensor(storage, TypeOf(out));
    keep.push_back(std::move(storage));
  }
  const bool in_place = !step.in_place.empty() && aliased == step.in_place.size();
  stats_.in_place_updates += aliased;
  // The buffer a binding of a value reaches: the step's own (`keep`), so that an input whose
  // buffer an in-place output took over is still bound.
  auto storage_of = [&](const plan::BufferRef& ref) -> const BufferState* {
    if (ref.kind != plan::BufferRef::Kind::kValue) return nullptr;
    for (size_t i = 0; i < step.inputs.size(); ++i) {
      if (step.inputs[i] == ref.index) return keep[i].get();
    }
    for (size_t o = 0; o < step.outputs.size(); ++o) {
      if (step.outputs[o] == ref.index) return keep[step.inputs.size() + o].get();
    }
    return nullptr;
  };

  // Loop-invariant dispatches (Dispatch::loop_invariant, reading only buffers nothing in this
  // execution writes: the caller's arguments, the plan's constants), such as the packing of an
  // LSTM's weights in each step of its scan: inside a loop, the first run's slots are kept
  // (until the loop ends), and later runs on the same buffers skip the dispatch
  // (`invariant_reads` non-empty: it is invariant).
  std::vector<std::vector<device::BufferView>> invariant_reads(step.dispatches.size());
  std::vector<bool> reused(step.dispatches.size(), false);
  for (size_t d = 0; d < step.dispatches.size() && loop_depth_ > 0 && !immutable_.empty(); ++d) {
    const plan::Dispatch& dispatch = step.dispatches[d];
    if (!dispatch.loop_invariant) continue;
    std::vector<device::BufferView> reads;
    bool invariant = true;
    for (const plan::BufferRef& ref : dispatch.bindings) {
      if (ref.kind != plan::BufferRef::Kind::kValue) continue;
      const BufferState* storage = storage_of(ref);
      invariant = storage != nullptr && immutable_.count(storage) > 0;
      if (!invariant) break;
      VKHLO_ASSIGN_OR_RETURN(device::BufferView view, View(run, ref, storage));
      reads.push_back(view);
    }
    if (!invariant || reads.empty()) continue;
    auto last = invariant_.find({&dispatch, 0});
    if (last != invariant_.end() && SameViews(last->second.reads, reads)) {
      for (const auto& [slot, buffer] : last->second.slots) run.slots[slot] = buffer;
      reused[d] = true;
    }
    invariant_reads[d] = std::move(reads);
  }

  bool dispatched = false;
  for (size_t d = 0; d < step.dispatches.size(); ++d) {
    const plan::Dispatch& dispatch = step.dispatches[d];
    if (in_place && dispatch.skip_in_place) continue;  // the outputs already hold their inputs
    if (reused[d]) {  // its slots hold what it would write
      stats_.invariant_dispatches_reused++;
      continue;
    }
    if (dispatch.grid[0] == 0 || dispatch.grid[1] == 0 || dispatch.grid[2] == 0) continue;
    const plan::Kernel& kernel = plan().kernels[dispatch.kernel];
    const device::Pipeline& pipeline = *loaded_.pipelines[dispatch.kernel];
    std::vector<device::Binding> bindings;
    bindings.reserve(dispatch.bindings.size());
    for (size_t b = 0; b < dispatch.bindings.size(); ++b) {
      const plan::BufferRef& ref = dispatch.bindings[b];
      if (ref.kind == plan::BufferRef::Kind::kSlot && run.slots[ref.index] == nullptr) {
        const plan::Slot& slot = run.list->slots[ref.index];
        VKHLO_ASSIGN_OR_RETURN(run.slots[ref.index],
                               AllocateHeld(TensorDesc{U8, {int64_t(slot.bytes)}}));
      }
      VKHLO_ASSIGN_OR_RETURN(device::BufferView view, View(run, ref, storage_of(ref)));
      // A loop kernel (one dispatch, nothing in place) writes its outputs without reading them.
      const device::Access access = !dispatch.written[b]                               ? device::Access::kRead
                                    : step.dispatches.size() == 1 && step.in_place.empty() ? device::Access::kWrite
                                                                                      : device::Access::kReadWrite;
      bindings.push_back({view, access});
    }
    std::vector<uint32_t> push;
    if (kernel.workgroup_base_offset != plan::Kernel::kNoWorkgroupBase) push.assign(4, 0);
    push.insert(push.end(), dispatch.push_words.begin(), dispatch.push_words.end());
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    VKHLO_RETURN_IF_ERROR(list->Dispatch(pipeline, bindings, std::as_bytes(std::span<const uint32_t>(push)),
                                         {dispatch.grid[0], dispatch.grid[1], dispatch.grid[2]}));
    stats_.kernels_dispatched++;
    stats_.address_bindings += AddressBindings(pipeline);
    stats_.split_bindings += SplitBindings(bindings);
    stats_.windowed_bindings += pipeline.windowed().size();
    dispatched = true;
    if (!invariant_reads[d].empty() && invariant_bytes_ < kMostInvariantBytes) {
      InvariantResult& result = invariant_[{&dispatch, 0}];
      result.reads = invariant_reads[d];
      result.slots.clear();
      for (const plan::BufferRef& ref : dispatch.bindings) {
        if (ref.kind != plan::BufferRef::Kind::kSlot) continue;
        result.slots.emplace_back(ref.index, run.slots[ref.index]);
        invariant_bytes_ += run.list->slots[ref.index].bytes;
      }
    }
    if (profiler_ != nullptr) {
      // A step of one dispatch moves what the kernel does (in-place outputs count what they
      // write); each of several moves the buffers it binds.
      uint64_t bytes = read + written;
      if (step.dispatches.size() > 1) {
        bytes = 0;
        for (const plan::BufferRef& ref : dispatch.bindings) {
          switch (ref.kind) {
            case plan::BufferRef::Kind::kValue: bytes += plan().values[ref.index].bytes; break;
            case plan::BufferRef::Kind::kSlot: bytes += run.list->slots[ref.index].bytes; break;
            case plan::BufferRef::Kind::kConstant: bytes += BufferBytes(loaded_.constants[ref.index]->type); break;
          }
        }
      }
      const KernelProfile* profile = step.profile >= 0 ? &loaded_.profiles[static_cast<size_t>(step.profile)] : nullptr;
      VKHLO_RETURN_IF_ERROR(Profiled(DispatchEvent(profile, kernel.name, dispatch.config, bytes, dispatch.flops)));
    }
  }
  if (dispatched) {
    stats_.bytes_read += read;
    stats_.bytes_written += written;
  }
  Retire(keep);
  return OkStatus();
}

bool Execution::Exclusive(const std::shared_ptr<BufferState>& storage, uint32_t value, uint32_t list,
                          const std::vector<std::shared_ptr<BufferState>>& keep) const {
  if (!storage || !storage->transient) return false;
  // Only a value of the list running: an outer list's values may be read again after it.
  if (loaded_.value_list[value] != static_cast<int32_t>(list)) return false;
  const RtValue& held = values_[value];
  if (held.kind != RtValue::Kind::kTensor || held.storage != storage) return false;
  // The references we know of: the value's entry, this step's own, and work in flight (which
  // the command list orders before the update). Any other (another value, a tuple, an outer
  // list, the caller) means someone may still read it.
  long known = 1;
  for (const auto& k : keep) known += k == storage ? 1 : 0;
  for (const auto& r : retired_) known += r == storage ? 1 : 0;
  if (in_flight_) {  // submitted earlier, so run before the update
    for (const auto& r : in_flight_->retired) known += r == storage ? 1 : 0;
  }
  return storage.use_count() == known;
}

// The integer value of a scalar predicate/index tensor, read back from the device.
StatusOr<int64_t> Execution::ReadScalar(const plan::ScalarRead& read, const RtValue& value, std::string_view op,
                                        const std::string& location) {
  if (value.kind != RtValue::Kind::kTensor || value.type.num_elements() != 1) {
    return InternalError("control flow predicate is not a scalar tensor");
  }
  VKHLO_RETURN_IF_ERROR(Flush());
  stats_.predicate_readbacks++;
  const int bytes = std::min<int>(read.bytes, 8);
  std::array<uint8_t, 8> raw{};
  const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
  VKHLO_RETURN_IF_ERROR(client_->device->transfers().Download(
      value.storage->buffer, 0, std::as_writable_bytes(std::span(raw)).first(static_cast<size_t>(bytes))));
  if (profiler_ != nullptr) {
    profiler_->Host(fmt::format("predicate read ({})", op), "host: predicate read", fmt::format("{} at {}", op, location),
                    start, static_cast<uint64_t>(bytes));
  }
  return IntegerFromBytes(std::span(raw).first(static_cast<size_t>(bytes)), value.type.element);
}

Status Execution::RunWhile(const plan::WhileStep& step) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> state, LookupAll(step.operands));
  // Loop-invariant dispatches are kept while a loop runs (RunDispatchStep), dropped after.
  struct InLoop {
    Execution& e;
    explicit InLoop(Execution& e) : e(e) { e.loop_depth_++; }
    ~InLoop() {
      if (--e.loop_depth_ == 0) e.ForgetInvariants();
    }
  } in_loop(*this);
  if (step.trip_count >= 0 && !process_.host_loops) {
    // The condition only compares a counter with a bound: its value is known, so it is not
    // run; the body's kernels (the counter's step among them) run as on the host path.
    for (int64_t i = 0; i < step.trip_count; ++i) {
      VKHLO_ASSIGN_OR_RETURN(state, RunList(step.body, std::move(state)));
      VKHLO_RETURN_IF_ERROR(EndIteration());
    }
    stats_.counted_loop_iterations += static_cast<uint64_t>(step.trip_count);
    return SetResults(step.results, std::move(state), "stablehlo.while");
  }
  if (step.batched && !process_.host_loops) {
    VKHLO_ASSIGN_OR_RETURN(state, RunBatched(step, std::move(state)));
    return SetResults(step.results, std::move(state), "stablehlo.while");
  }
  while (true) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> condition, RunList(step.cond, state));
    if (condition.size() != 1) return InternalError("while condition must return one value");
    VKHLO_ASSIGN_OR_RETURN(int64_t predicate, ReadScalar(step.predicate, condition[0], "stablehlo.while", step.location));
    if (predicate == 0) break;
    VKHLO_ASSIGN_OR_RETURN(state, RunList(step.body, std::move(state)));
  }
  return SetResults(step.results, std::move(state), "stablehlo.while");
}

// Batches of a data-dependent loop: each as long as half the iterations the loop has done so
// far (at least 1, at most kMostIterationsPerBatch), a batch ending early at EndIteration's
// bounds. The iterations recorded past the exit are wasted work, at most half of what the loop
// did (a third of the total): a loop of 10 iterations reads 7 predicates instead of 11, one of
// 200 reads 14 instead of 201 and runs 205 bodies. Each iteration records its condition, copies the
// predicate into the batch's flags, and records its body, whatever the condition will say: the
// lists only record kernels (total functions of any data: docs/design.md "Semantics the spec
// leaves open"), and every iteration's state is held here, so no kernel writes one in place.
// After the batch, one read of the flags: the state of the first false condition is the
// loop's result, the same buffers the host path would have returned; later ones are dropped.
constexpr int64_t kMostIterationsPerBatch = 64;

StatusOr<std::vector<RtValue>> Execution::RunBatched(const plan::WhileStep& step, std::vector<RtValue> state) {
  constexpr uint64_t kFlagBytes = 8;  // one slot per iteration, wide enough for any predicate
  VKHLO_ASSIGN_OR_RETURN(
      std::shared_ptr<BufferState> flags,
      AllocateHeld(TensorDesc{U8, {int64_t{kMostIterationsPerBatch} * int64_t{kFlagBytes}}}));
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
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> condition, RunList(step.cond, states.back()));
      if (condition.size() != 1 || condition[0].kind != RtValue::Kind::kTensor ||
          condition[0].type.num_elements() != 1) {
        return InternalError("while condition must return one scalar tensor");
      }
      predicate_bytes = static_cast<int>(condition[0].type.element_bytes());
      VKHLO_RETURN_IF_ERROR(Copy(*condition[0].storage, 0, *flags, static_cast<uint64_t>(recorded) * kFlagBytes,
                                 static_cast<uint64_t>(predicate_bytes)));
      Retire(condition[0].storage);
      VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> next, RunList(step.body, states.back()));
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
      profiler_->Host(fmt::format("predicate read (stablehlo.while, {} iterations)", recorded), "host: predicate read",
                      fmt::format("stablehlo.while at {}", step.location), start, raw.size());
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

Status Execution::RunValueStep(const plan::ValueStep& step) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<RtValue> operands, LookupAll(step.operands));
  switch (step.kind) {
    case plan::ValueStep::Kind::kTuple:
      return SetResults(step.results, {RtValue::Tuple(std::move(operands))}, "stablehlo.tuple");
    case plan::ValueStep::Kind::kGetTupleElement:
      if (operands.size() != 1 || operands[0].kind != RtValue::Kind::kTuple || step.index >= operands[0].elements.size()) {
        return InternalError("get_tuple_element out of range");
      }
      return SetResults(step.results, {operands[0].elements[step.index]}, "stablehlo.get_tuple_element");
    case plan::ValueStep::Kind::kForward:
      return SetResults(step.results, std::move(operands), "stablehlo.optimization_barrier");
    case plan::ValueStep::Kind::kToken:
      return SetResults(step.results, std::vector<RtValue>(step.results.size()), "stablehlo.after_all");
  }
  return InternalError("runtime: a value step of an unknown kind");
}

Status Execution::RunFft(const plan::FftStep& step) {
  // VkFFT records into the same command list as the kernels (fft_record.h).
  VKHLO_ASSIGN_OR_RETURN(RtValue operand, Lookup(step.operand));
  const TensorDesc& type = TypeOf(step.result);
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> result, AllocateHeld(type));
  // VkFFT binds whole VkBuffers: a tensor split across allocations runs staged, through copies.
  const bool staged = operand.storage->buffer.split() || result->buffer.split();
  if (staged) stats_.fft_staged_transforms++;
  VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
  const uint64_t split_launches_before = stats_.fft_split_launches;
  VKHLO_RETURN_IF_ERROR(
      RecordFft(*client_, *list, loaded_, step, operand.storage->buffer, result->buffer, &stats_.fft_split_launches));
  // A batch split between launches (device/fft/fft_split.h) records (and times) each launch.
  const uint64_t launches = std::max<uint64_t>(1, stats_.fft_split_launches - split_launches_before);
  stats_.kernels_dispatched++;
  const uint64_t bytes = BufferBytes(operand.type) + BufferBytes(type);
  stats_.bytes_read += BufferBytes(operand.type);
  stats_.bytes_written += BufferBytes(type);
  Retire(operand.storage);
  if (profiler_ != nullptr) {
    for (uint64_t launch = 0; launch < launches; ++launch) {
      ProfileEvent event = DispatchEvent(
          nullptr, launches == 1 ? "fft" : fmt::format("fft (launch {} of {})", launch + 1, launches),
          fmt::format("VkFFT{}{}", staged ? ", staged through copies (a tensor split across allocations)" : "",
                      launches == 1 ? "" : ", batch split between launches"),
          bytes / launches, 0);
      event.kernel = "fft";
      event.kernel_class = "fft";
      event.source_op = fmt::format("stablehlo.fft at {}", step.location);
      event.fused_ops = {event.source_op};
      profiler_->Recorded(std::move(event));
    }
    // Host times: the launches share their list's time.
    if (profiler_->submit_each_dispatch()) VKHLO_RETURN_IF_ERROR(Flush());
  }
  values_[step.result] = RtValue::Tensor(std::move(result), type);
  return OkStatus();
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
  if (exe.polymorphic) {
    if (exe.run_polymorphic == nullptr) return InternalError("runtime: a polymorphic executable without its runner");
    return exe.run_polymorphic(exe, arguments, process, stats);
  }
  if (exe.loaded == nullptr) return InternalError("runtime: the executable has no plan to run");
  const LoadedPlan& loaded = *exe.loaded;
  using Kind = plan::EntryType::Kind;
  const std::vector<Kind>& kinds = loaded.parameter_kinds;
  const std::string where = fmt::format("@{}", loaded.plan.header.entry_name);
  size_t tensors = 0;
  for (Kind kind : kinds) tensors += kind == Kind::kToken ? 0 : 1;
  if (arguments.size() != tensors) {
    return InvalidArgumentError(fmt::format("{} takes {} arguments, given {}", where, tensors, arguments.size()));
  }
  std::vector<RtValue> values;
  size_t next = 0;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == Kind::kToken) {  // tokens carry no data: each token parameter gets one
      values.push_back(RtValue{});
      continue;
    }
    const size_t a = next++;
    if (!arguments[a]) return InvalidArgumentError(fmt::format("{}: argument {} is an empty Buffer", where, a));
    const TensorDesc& given = arguments[a].state()->type;
    if (kinds[i] != Kind::kTensor) {
      return UnimplementedError(fmt::format("{}: parameter {} is a tuple; pass its tensors as parameters of their own",
                                            where, i));
    }
    if (given != loaded.parameter_types[i]) {
      return InvalidArgumentError(fmt::format("{}: argument {} must be {}, given {}", where, a,
                                              loaded.parameter_types[i].ToString(), given.ToString()));
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
  auto results = execution.RunList(loaded.plan.entry, std::move(values));
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

std::vector<TensorType> Executable::parameter_types() const {
  return state_ ? state_->parameter_types : std::vector<TensorType>{};
}

std::vector<TensorType> Executable::result_types() const {
  return state_ ? state_->result_types : std::vector<TensorType>{};
}

const CompiledChecks* Executable::checks() const { return state_ ? state_->checks.get() : nullptr; }

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
