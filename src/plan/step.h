// The steps of a plan: what an execution does, in order, without the IR (today's
// execute.cc RunKernel / RecordDeviceKernel / RunOp, made data).
//
// A step reads and makes values by number (buffers.h Value). Device steps (dispatch, copy,
// fill, FFT) are recorded into a command buffer; host steps (control flow, collectives,
// process ops, host callbacks) need the work before them submitted first. Control flow is
// structured: while / if / case / call name other step lists of the plan (plan.h StepList) by
// index, and the executor runs them recursively; values cross into a list as its arguments
// and out as its results.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "plan/buffers.h"

namespace vkhlo::plan {

// One launch of a kernel.
struct Dispatch {
  uint32_t kernel = 0;                // Plan::kernels
  std::vector<BufferRef> bindings;    // binding i of the kernel
  std::vector<bool> written;          // per binding: the dispatch writes it (barriers, in-place)
  // Workgroups; may exceed maxComputeWorkGroupCount in x (split by the workgroup base). 0 in
  // any dimension: not dispatched (a custom_call's launch may say so).
  std::array<uint32_t, 3> grid = {1, 1, 1};
  // After the 16-byte workgroup base; from offset 0 for a kernel without one
  // (Kernel::kNoWorkgroupBase: a custom_call's kernel, whose push constants are all its own).
  std::vector<uint32_t> push_words;
  // It only copies inputs to the outputs that may share their buffers: skipped when every
  // InPlaceOutput of the step shares its input's buffer.
  bool skip_in_place = false;
  // It writes only slots of its own step from immutable inputs alone (a matmul packing its
  // weights): inside a loop an executor may keep what it wrote and skip it while the inputs'
  // buffers stay the same (execute.cc, WritesScratchFromInputs).
  bool loop_invariant = false;
  std::string config;  // for profiles: the strategy ("cpu.packed_12x64"), or empty
  uint64_t flops = 0;  // where known; 0: unknown
  bool operator==(const Dispatch&) const = default;
};

// The dispatches of one fused kernel (a loop kernel: one; a device kernel: one or more, each
// seeing the previous ones' writes).
struct DispatchStep {
  std::vector<uint32_t> inputs, outputs;  // values: what the kernel reads and makes
  std::vector<Dispatch> dispatches;
  std::vector<InPlaceOutput> in_place;
  // Every bound offset is a multiple of this; more than 4 (vector loads) binds whole buffers
  // so that a load of the aligned unit holding the last element stays within the binding.
  uint32_t binding_alignment = 4;
  int32_t profile = -1;  // Plan::profiles, or -1
  bool operator==(const DispatchStep&) const = default;
};

struct CopyStep {
  BufferRef from, to;  // `to.bytes` bytes (both ranges that long)
  bool operator==(const CopyStep&) const = default;
};

struct FillStep {
  BufferRef to;
  uint32_t word = 0;  // repeated over the range (a multiple of 4 bytes)
  bool operator==(const FillStep&) const = default;
};

// stablehlo.fft, run by VkFFT, which records its own pipelines (runtime/fft_step.h): what the
// runtime needs to make (or find) the VkFFT plan.
struct FftStep {
  enum class Type : uint8_t { kFft = 0, kIfft = 1, kRfft = 2, kIrfft = 3 };
  Type type = Type::kFft;
  bool double_precision = false;  // f64 / complex<f64>
  std::vector<uint64_t> lengths;  // fft_length, outermost first (real lengths for RFFT/IRFFT)
  uint64_t batch = 1;             // product of the dimensions before the transformed ones
  uint32_t operand = 0, result = 0;  // values
  std::string location;  // "file:line:col" for messages and profiles ("stablehlo.fft at ...")
  bool operator==(const FftStep&) const = default;
};

// A collective across the processes of a grid (runtime/collectives.cc), with the
// interpreter's semantics.
struct CollectiveStep {
  enum class Kind : uint8_t {
    kAllGather = 0, kAllReduce = 1, kReduceScatter = 2, kCollectiveReduce = 3,
    kAllToAll = 4, kCollectivePermute = 5, kCollectiveBroadcast = 6,
  };
  // How replica_groups name processes (StableHLO's strategies).
  enum class Groups : uint8_t { kCrossReplica = 0, kCrossPartition = 1, kCrossReplicaAndPartition = 2, kFlattenedIds = 3 };
  // A reduction a transport may do with a library collective (runtime/exact_reducer.h).
  enum class ExactReduction : uint8_t { kNone = 0, kAdd, kMultiply, kMin, kMax, kAnd, kOr, kXor };
  Kind kind = Kind::kAllReduce;
  Groups groups = Groups::kCrossReplica;
  std::vector<std::vector<int64_t>> replica_groups;  // negative entries: padding
  int64_t channel_id = 0;
  // all_gather_dim / scatter_dimension / split_dimension, and all_to_all's concat_dimension
  // and split_count (-1 where the kind has none).
  int64_t dimension = -1, concat_dimension = -1, split_count = -1;
  std::vector<std::pair<int64_t, int64_t>> source_target_pairs;  // collective_permute
  bool dynamic_root = false;  // collective_broadcast's has_dynamic_root
  // The reducer (all_reduce, reduce_scatter, collective_reduce): a step list (acc..., x...) ->
  // (reduced...), or -1; and, per operand, the exact reduction it is, when all are.
  int32_t reducer = -1;
  std::vector<ExactReduction> exact;
  std::vector<uint32_t> operands, results;
  std::string location;  // "file:line:col" for messages
  bool operator==(const CollectiveStep&) const = default;
};

// replica_id, partition_id, send, recv, infeed, outfeed (runtime/process_ops.cc).
struct ProcessStep {
  enum class Kind : uint8_t { kReplicaId = 0, kPartitionId, kSend, kRecv, kInfeed, kOutfeed };
  Kind kind = Kind::kReplicaId;
  int64_t channel_id = 0;
  bool host_transfer = false;  // send/recv's is_host_transfer: to/from the feed queues
  std::vector<uint32_t> operands, results;  // tokens included
  std::string location;
  bool operator==(const ProcessStep&) const = default;
};

// A stablehlo.custom_call: a host callback (operands read back, the embedder's function
// called, results uploaded) or a kernel target (one dispatch). The embedder registers the
// target by name with the runtime that loads the plan; its signature is checked then.
struct CustomCallStep {
  std::string target;                 // call_target_name
  int64_t api_version = 1;
  std::vector<uint8_t> backend_config;  // as written (a string, or a dictionary's text)
  bool has_side_effect = false;
  bool host_callback = true;  // false: a kernel target, `dispatch` below
  Dispatch dispatch;          // kernel targets: its kernel (in Plan::kernels) and launch
  std::vector<uint32_t> operands, results;
  std::string location;
  bool operator==(const CustomCallStep&) const = default;
};

// The scalar a host decision reads back: the predicate of while/if, the index of case.
struct ScalarRead {
  uint32_t value = 0;
  uint8_t bytes = 1;       // storage bytes of the element (1, 2, 4, 8)
  bool is_signed = false;  // sign-extend (case indices of si8/si16/si32)
  bool operator==(const ScalarRead&) const = default;
};

// stablehlo.while. The condition list takes the state and returns the predicate; the body
// takes the state and returns the next one.
struct WhileStep {
  uint32_t cond = 0, body = 0;  // step lists
  ScalarRead predicate;         // the condition list's result, as it is read back
  // How many times the body runs when the program decides it (passes/trip_count.h): the
  // condition then never runs and nothing is read back. -1: unknown.
  int64_t trip_count = -1;
  // Condition and body record only device work: iterations may run in batches with one
  // predicate read per batch (execute.cc RunBatched).
  bool batched = false;
  std::vector<uint32_t> operands, results;  // initial state, final state
  std::string location;  // "file:line:col": profiles name the predicate reads by it
  bool operator==(const WhileStep&) const = default;
};

// stablehlo.if (branches {then, else}) and stablehlo.case (an index; out of range runs the
// last branch). Branch lists take no arguments (they read outer values).
struct BranchStep {
  bool is_case = false;
  ScalarRead selector;
  std::vector<uint32_t> branches;  // step lists
  std::vector<uint32_t> results;
  std::string location;  // "file:line:col": profiles name the selector read by it
  bool operator==(const BranchStep&) const = default;
};

struct CallStep {
  uint32_t function = 0;  // a step list
  std::vector<uint32_t> operands, results;
  bool operator==(const CallStep&) const = default;
};

// Steps that only move values around (no device work): tuple, get_tuple_element,
// optimization_barrier (results are its operands), after_all / create_token (a token).
struct ValueStep {
  enum class Kind : uint8_t { kTuple = 0, kGetTupleElement, kForward, kToken };
  Kind kind = Kind::kTuple;
  uint32_t index = 0;  // get_tuple_element's
  std::vector<uint32_t> operands, results;
  bool operator==(const ValueStep&) const = default;
};

// Memory barriers before a device step, as bits: the writes of earlier work it must see.
enum BarrierBits : uint8_t {
  kAfterComputeWrites = 1,   // shader writes (a dispatch's results)
  kAfterTransferWrites = 2,  // copies, fills, uploads
};

struct Step {
  uint8_t barrier = 0;  // BarrierBits the executor waits on before this step
  std::variant<DispatchStep, CopyStep, FillStep, FftStep, CollectiveStep, ProcessStep, CustomCallStep, WhileStep,
               BranchStep, CallStep, ValueStep>
      op;
  bool operator==(const Step&) const = default;
};

// Whether `step` synchronizes with the host (everything recorded before it is submitted and
// waited for): control flow that reads back, collectives, process ops, host callbacks. Device
// steps and value steps do not.
bool IsHostStep(const Step& step);

}  // namespace vkhlo::plan
