#include "tests/plan/sample_plans.h"

#include <string>
#include <utility>

namespace vkhlo::plan::testing {
namespace {

TensorType F32(std::vector<int64_t> dims) { return TensorType{"f32", std::move(dims)}; }
TensorType I32() { return TensorType{"i32", {}}; }

// Adds a value; returns its number.
uint32_t Add(Plan& plan, Value value) {
  plan.values.push_back(std::move(value));
  return static_cast<uint32_t>(plan.values.size() - 1);
}
uint32_t Tensor(Plan& plan, TensorType type, Value::Placement placement, std::string name, uint32_t index = 0,
                uint64_t offset = 0) {
  uint64_t elements = 1;
  for (int64_t d : type.dims) elements *= static_cast<uint64_t>(d);
  return Add(plan, Value{Value::Kind::kTensor, std::move(type), placement, index, offset, elements * 4, std::move(name)});
}
uint32_t Token(Plan& plan, std::string name) {
  return Add(plan, Value{Value::Kind::kToken, {}, Value::Placement::kFresh, 0, 0, 0, std::move(name)});
}
uint32_t Tuple(Plan& plan, std::string name) {
  return Add(plan, Value{Value::Kind::kTuple, {}, Value::Placement::kFresh, 0, 0, 0, std::move(name)});
}

BufferRef Of(uint32_t value, uint64_t bytes = 0) { return BufferRef{BufferRef::Kind::kValue, value, 0, bytes}; }
BufferRef SlotRef(uint32_t slot, uint64_t offset, uint64_t bytes) { return BufferRef{BufferRef::Kind::kSlot, slot, offset, bytes}; }

Kernel MakeKernel(std::string name, size_t bindings) {
  Kernel k;
  k.name = std::move(name);
  k.spirv = {0x07230203, 0x00010300, 0x000d000b, 0x0000002a, 0x00000000};  // a SPIR-V header
  k.bindings.assign(bindings, KernelBinding{});
  k.push_constant_bytes = 32;
  k.workgroup_size = {256, 1, 1};
  return k;
}

Step Make(auto op, uint8_t barrier = 0) { return Step{barrier, std::move(op)}; }
Segment One(Step step) { return Segment{{std::move(step)}}; }

}  // namespace

Plan EveryStepPlan() {
  Plan plan;
  PlanHeader& h = plan.header;
  h.producer = "vkhlo 0.1.0";
  for (size_t i = 0; i < h.source_sha256.size(); ++i) h.source_sha256[i] = static_cast<uint8_t>(i * 7 + 1);
  h.entry_name = "main";
  h.parameters = {EntryType{EntryType::Kind::kTensor, F32({4}), {}}, EntryType{EntryType::Kind::kToken, {}, {}}};
  EntryType pair{EntryType::Kind::kTuple, {}, {EntryType{EntryType::Kind::kTensor, F32({4}), {}},
                                               EntryType{EntryType::Kind::kTensor, I32(), {}}}};
  h.results = {EntryType{EntryType::Kind::kTuple, {}, {pair, EntryType{EntryType::Kind::kTensor, F32({2, 2}), {}}}},
               EntryType{EntryType::Kind::kToken, {}, {}}};
  DeviceRequirements& r = h.requirements;
  r.profile = "mobile";
  r.features = kShaderInt64 | kStorageBuffer16BitAccess | kStorageTexelBufferRgba32f;
  r.subgroup_operations = 0x7;
  r.storage_buffer_range = 1 << 20;
  r.shared_memory_bytes = 8192;
  r.workgroup_size = {256, 4, 1};
  r.workgroup_invocations = 256;
  r.push_constant_bytes = 32;
  r.storage_buffers_per_stage = 4;
  r.storage_buffer_offset_alignment = 64;
  r.texel_buffer_elements = 1 << 16;
  r.required_subgroup_sizes = {16, 32};

  // Kernels: a loop kernel (x -> y), a device kernel of two dispatches (pack into scratch, then
  // compute reading a constant table; one binding a texel buffer), a custom-call kernel, and
  // the reducer's add.
  plan.kernels.push_back(MakeKernel("fusion_0", 2));
  plan.kernels.push_back(MakeKernel("fusion_1.pack", 2));
  Kernel compute = MakeKernel("fusion_1.compute", 4);
  compute.bindings[0].kind = BindingKind::kStorageTexelBuffer;
  compute.bindings[0].texel_format = TexelFormat::kRgba32f;
  compute.bindings[3].device_address = true;
  compute.address_bindings = {3};
  compute.windowed_bindings = {WindowedBinding{1, 1 << 16, {1, 4, 5}}};
  compute.required_subgroup_size = 32;
  compute.shared_memory_bytes = 4096;
  compute.specialization = {SpecializationConstant{0, 64}, SpecializationConstant{1, 0x3f800000}};
  compute.workgroup_base_offset = Kernel::kNoWorkgroupBase;
  compute.entry_point = "compute_main";
  plan.kernels.push_back(std::move(compute));
  plan.kernels.push_back(MakeKernel("my.kernel", 2));
  plan.kernels.push_back(MakeKernel("reducer.add", 3));

  plan.profiles.push_back(KernelProfile{"fusion_1", "matmul", "stablehlo.dot_general at model.mlir:12:10",
                                        {"stablehlo.broadcast_in_dim at model.mlir:11:8",
                                         "stablehlo.dot_general at model.mlir:12:10"},
                                        "4x4x4 f32, packed 4x4: small", });

  plan.constants.push_back(Constant{F32({4}), {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64}});
  plan.constants.push_back(Constant{TensorType{"ui32", {2}}, {1, 0, 0, 0, 2, 0, 0, 0}});

  // Lists, by index: 0 main, 1 batched while's cond, 2 its body, 3/4 if then/else (also
  // branches of the case), 5 @helper, 6 reducer, 7 case branch 2, 8/9 counted while.
  plan.lists.resize(10);
  const char* names[] = {"main", "while_0.cond", "while_0.body", "if_1.then", "if_1.else",
                         "@helper", "all_reduce_2.reducer", "case_3.branch_2", "while_4.cond", "while_4.body"};
  const StepList::Role roles[] = {StepList::Role::kEntry, StepList::Role::kRegion, StepList::Role::kRegion,
                                  StepList::Role::kRegion, StepList::Role::kRegion, StepList::Role::kFunction,
                                  StepList::Role::kReducer, StepList::Role::kRegion, StepList::Role::kRegion,
                                  StepList::Role::kRegion};
  for (size_t i = 0; i < plan.lists.size(); ++i) {
    plan.lists[i].name = names[i];
    plan.lists[i].role = roles[i];
  }
  using P = Value::Placement;

  // --- main ---
  StepList& main = plan.lists[0];
  const uint32_t x = Tensor(plan, F32({4}), P::kArgument, "%x");
  const uint32_t token = Token(plan, "%token");
  main.arguments = {x, token};
  main.slots = {Slot{64, 16, 0, 1}, Slot{256, 64, 1, 1}};
  const uint32_t c = Tensor(plan, F32({4}), P::kConstant, "%cst", 0);
  const uint32_t y = Tensor(plan, F32({4}), P::kSlot, "%y", 0, 0);
  const uint32_t z = Tensor(plan, F32({4}), P::kFresh, "%z");
  const uint32_t w = Tensor(plan, F32({4}), P::kFresh, "%w");
  const uint32_t f = Tensor(plan, F32({4}), P::kFresh, "%fft");
  const uint32_t t2 = Token(plan, "%t2");
  const uint32_t k = Tensor(plan, F32({4}), P::kFresh, "%custom");

  DispatchStep loop;
  loop.inputs = {x};
  loop.outputs = {y};
  loop.dispatches = {Dispatch{0, {Of(x), Of(y)}, {false, true}, {1, 1, 1}, {}, false, false, "wg 256 x 1", 0}};
  Segment device;
  device.steps.push_back(Make(loop));

  DispatchStep matmul;
  matmul.inputs = {y, c};
  matmul.outputs = {z};
  matmul.dispatches = {
      Dispatch{1, {Of(c), SlotRef(1, 0, 64)}, {false, true}, {1, 1, 1}, {4}, false, true, "", 0},
      Dispatch{2, {Of(y), SlotRef(1, 0, 64), BufferRef{BufferRef::Kind::kConstant, 1, 0, 8}, Of(z)},
               {false, false, false, true}, {70000, 1, 1}, {4, 4, 4}, true, false, "cpu.packed_4x4", 128}};
  matmul.in_place = {InPlaceOutput{0, 0, 16}};
  matmul.binding_alignment = 16;
  matmul.profile = 0;
  device.steps.push_back(Make(matmul, kAfterComputeWrites));
  device.steps.push_back(Make(CopyStep{Of(z, 16), Of(w, 16)}, kAfterComputeWrites));
  device.steps.push_back(Make(FillStep{BufferRef{BufferRef::Kind::kSlot, 0, 16, 48}, 0xffffffffu}, kAfterTransferWrites));
  device.steps.push_back(Make(FftStep{FftStep::Type::kRfft, true, {4}, 1, w, f, "model.mlir:18:9"}, kAfterTransferWrites));
  device.steps.push_back(Make(ValueStep{ValueStep::Kind::kToken, 0, {token}, {t2}}));
  CustomCallStep kernel_call;
  kernel_call.target = "my.kernel";
  kernel_call.api_version = 4;
  kernel_call.backend_config = {'{', 'n', ' ', '=', ' ', '4', '}'};
  kernel_call.host_callback = false;
  kernel_call.dispatch = Dispatch{3, {Of(f), Of(k)}, {false, true}, {2, 1, 1}, {4}, false, false, "", 0};
  kernel_call.operands = {f};
  kernel_call.results = {k};
  kernel_call.location = "model.mlir:20:5";
  device.steps.push_back(Make(kernel_call, kAfterComputeWrites));
  main.segments.push_back(std::move(device));

  // A batched while over (i, v): cond (list 1) compares, body (list 2) holds an if and a call.
  const uint32_t i0 = Tensor(plan, I32(), P::kConstant, "%zero", 1);
  const uint32_t i_end = Tensor(plan, I32(), P::kFresh, "%i_end");
  const uint32_t v_end = Tensor(plan, F32({4}), P::kFresh, "%v_end");
  {
    StepList& cond = plan.lists[1];
    const uint32_t ci = Tensor(plan, I32(), P::kArgument, "%ci");
    const uint32_t cv = Tensor(plan, F32({4}), P::kArgument, "%cv");
    const uint32_t pred = Tensor(plan, TensorType{"i1", {}}, P::kFresh, "%pred");
    cond.arguments = {ci, cv};
    cond.results = {pred};
    DispatchStep compare;
    compare.inputs = {ci};
    compare.outputs = {pred};
    compare.dispatches = {Dispatch{0, {Of(ci), Of(pred)}, {false, true}, {1, 1, 1}, {}, false, false, "", 0}};
    cond.segments.push_back(Segment{{Make(compare)}});
  }
  {
    StepList& body = plan.lists[2];
    const uint32_t bi = Tensor(plan, I32(), P::kArgument, "%bi");
    const uint32_t bv = Tensor(plan, F32({4}), P::kArgument, "%bv");
    const uint32_t chosen = Tensor(plan, F32({4}), P::kFresh, "%chosen");
    const uint32_t called = Tensor(plan, F32({4}), P::kFresh, "%called");
    const uint32_t next_i = Tensor(plan, I32(), P::kFresh, "%next_i");
    body.arguments = {bi, bv};
    body.results = {next_i, called};
    body.segments.push_back(One(Make(BranchStep{false, ScalarRead{bi, 4, true}, {3, 4}, {chosen}, "model.mlir:31:7"})));
    body.segments.push_back(Segment{{Make(CallStep{5, {chosen}, {called}}),
                                     Make(ValueStep{ValueStep::Kind::kForward, 0, {bi}, {next_i}})}});
  }
  for (uint32_t branch : {3u, 4u, 7u}) {
    const uint32_t out = Tensor(plan, F32({4}), P::kFresh, "%branch_" + std::to_string(branch));
    plan.lists[branch].results = {out};
    DispatchStep make;
    make.outputs = {out};
    make.dispatches = {Dispatch{0, {Of(c), Of(out)}, {false, true}, {1, 1, 1}, {}, false, false, "", 0}};
    plan.lists[branch].segments.push_back(Segment{{Make(make)}});
  }
  {
    StepList& helper = plan.lists[5];
    const uint32_t a = Tensor(plan, F32({4}), P::kArgument, "%a");
    helper.arguments = {a};
    helper.results = {a};
  }
  {
    StepList& reducer = plan.lists[6];
    const uint32_t acc = Tensor(plan, F32({4}), P::kArgument, "%acc");
    const uint32_t in = Tensor(plan, F32({4}), P::kArgument, "%in");
    const uint32_t sum = Tensor(plan, F32({4}), P::kFresh, "%sum");
    reducer.arguments = {acc, in};
    reducer.results = {sum};
    DispatchStep add;
    add.inputs = {acc, in};
    add.outputs = {sum};
    add.dispatches = {Dispatch{4, {Of(acc), Of(in), Of(sum)}, {false, false, true}, {1, 1, 1}, {}, false, false, "", 0}};
    reducer.segments.push_back(Segment{{Make(add)}});
  }
  main.segments.push_back(One(Make(WhileStep{1, 2, ScalarRead{Tensor(plan, TensorType{"i1", {}}, P::kFresh, "%p"), 1, false},
                                             -1, true, {i0, z}, {i_end, v_end}, "model.mlir:25:3"})));
  // WhileStep's predicate names the condition's result value: point it there.
  std::get<WhileStep>(main.segments.back().steps[0].op).predicate.value = plan.lists[1].results[0];

  // A counted while (trip count 8) over v, then tuples.
  const uint32_t counted = Tensor(plan, F32({4}), P::kFresh, "%counted");
  {
    const uint32_t cv = Tensor(plan, F32({4}), P::kArgument, "%cv8");
    const uint32_t cp = Tensor(plan, TensorType{"i1", {}}, P::kConstant, "%true", 1);
    plan.lists[8].arguments = {cv};
    plan.lists[8].results = {cp};
    const uint32_t bv = Tensor(plan, F32({4}), P::kArgument, "%bv8");
    plan.lists[9].arguments = {bv};
    plan.lists[9].results = {bv};
  }
  const uint32_t pair_value = Tuple(plan, "%pair");
  const uint32_t first = Tensor(plan, F32({4}), P::kFresh, "%first");
  Segment after;
  after.steps.push_back(Make(WhileStep{8, 9, ScalarRead{plan.lists[8].results[0], 1, false}, 8, false, {v_end}, {counted}, "model.mlir:40:3"}));
  after.steps.push_back(Make(ValueStep{ValueStep::Kind::kTuple, 0, {counted, i_end}, {pair_value}}));
  after.steps.push_back(Make(ValueStep{ValueStep::Kind::kGetTupleElement, 0, {pair_value}, {first}}));
  main.segments.push_back(std::move(after));

  // case over i_end: branches 3, 4, 7.
  const uint32_t case_out = Tensor(plan, F32({2, 2}), P::kFresh, "%case");
  main.segments.push_back(One(Make(BranchStep{true, ScalarRead{i_end, 4, true}, {3, 4, 7}, {case_out}, "model.mlir:44:3"})));

  // all_reduce with the reducer list, then process ops and a host callback.
  const uint32_t reduced = Tensor(plan, F32({4}), P::kFresh, "%reduced");
  CollectiveStep all_reduce;
  all_reduce.kind = CollectiveStep::Kind::kAllReduce;
  all_reduce.groups = CollectiveStep::Groups::kCrossReplicaAndPartition;
  all_reduce.replica_groups = {{0, 1}, {2, -1}};
  all_reduce.channel_id = 3;
  all_reduce.reducer = 6;
  all_reduce.operands = {first};
  all_reduce.results = {reduced};
  all_reduce.location = "model.mlir:30:9";
  main.segments.push_back(One(Make(all_reduce)));
  CollectiveStep permute;
  permute.kind = CollectiveStep::Kind::kCollectivePermute;
  permute.source_target_pairs = {{0, 1}, {1, 0}};
  permute.operands = {reduced};
  permute.results = {Tensor(plan, F32({4}), P::kFresh, "%permuted")};
  permute.exact = {CollectiveStep::ExactReduction::kNone};
  main.segments.push_back(One(Make(permute)));
  CollectiveStep all_to_all;
  all_to_all.kind = CollectiveStep::Kind::kAllToAll;
  all_to_all.groups = CollectiveStep::Groups::kFlattenedIds;
  all_to_all.dimension = 0;
  all_to_all.concat_dimension = 0;
  all_to_all.split_count = 2;
  all_to_all.dynamic_root = true;
  all_to_all.operands = {reduced};
  all_to_all.results = {Tensor(plan, F32({4}), P::kFresh, "%a2a")};
  main.segments.push_back(One(Make(all_to_all)));

  const uint32_t replica = Tensor(plan, TensorType{"ui32", {}}, P::kFresh, "%replica");
  main.segments.push_back(One(Make(ProcessStep{ProcessStep::Kind::kReplicaId, 0, false, {}, {replica}, "model.mlir:31:3"})));
  const uint32_t t3 = Token(plan, "%t3");
  main.segments.push_back(
      One(Make(ProcessStep{ProcessStep::Kind::kOutfeed, 7, true, {reduced, t2}, {t3}, "model.mlir:32:3"})));
  CustomCallStep host;
  host.target = "my.cumsum";
  host.has_side_effect = true;
  host.operands = {reduced};
  const uint32_t summed = Tensor(plan, F32({4}), P::kFresh, "%summed");
  host.results = {summed};
  host.location = "model.mlir:33:3";
  main.segments.push_back(One(Make(host)));

  const uint32_t result_pair = Tuple(plan, "%result_pair");
  const uint32_t result = Tuple(plan, "%result");
  main.segments.push_back(Segment{{Make(ValueStep{ValueStep::Kind::kTuple, 0, {summed, i_end}, {result_pair}}),
                                   Make(ValueStep{ValueStep::Kind::kTuple, 0, {result_pair, case_out}, {result}})}});
  main.results = {result, t3};
  plan.entry = 0;

  // As a test program: its first result is the program's, the other two what checks read.
  TestChecks& checks = plan.checks.emplace();
  checks.function = "main";
  checks.program_results = 1;
  TestCheck against_constant;
  against_constant.comparison = TestCheck::Comparison::kAlmost;
  against_constant.tolerance = 1e-3;
  against_constant.has_expected = true;
  against_constant.expected_type = I32();
  against_constant.expected_bytes = {7, 0, 0, 0};
  against_constant.location = "model.mlir:50:3";
  against_constant.actual_result = 1;
  TestCheck against_result;
  against_result.comparison = TestCheck::Comparison::kClose;
  against_result.max_ulp_difference = 3;
  against_result.location = "model.mlir:51:3";
  against_result.actual_result = 2;
  against_result.expected_result = 0;
  checks.results = {against_constant, against_result};
  TestCheck nested;
  nested.location = "model.mlir:27:5";
  checks.nested = {nested};
  checks.probe_ids = {"probe0"};
  checks.serialized = {SerializedTestCheck{"probe0#1", 0, "model.mlir:52:3"}};
  // VkFFT's kernels for the RFFT step (the optional section "fftk"): one tiny module.
  FftKernels fft;
  fft.type = FftStep::Type::kRfft;
  fft.double_precision = true;
  fft.lengths = {4};
  fft.batch = 1;
  fft.vkfft_version = 10226;
  fft.max_workgroup_invocations = 256;
  fft.max_shared_memory_bytes = 32768;
  fft.max_workgroup_size = {256, 256, 64};
  fft.max_workgroup_count = {65535, 65535, 65535};
  fft.words = {20, 0x07230203u, 0x00010300u, 0, 8, 0};
  plan.fft_kernels = {fft};
  return plan;
}

Plan IdentityPlan() {
  Plan plan;
  plan.header.producer = "vkhlo test";
  plan.header.parameters = {EntryType{EntryType::Kind::kTensor, TensorType{"f32", {2}}, {}}};
  plan.header.results = plan.header.parameters;
  plan.values.push_back(Value{Value::Kind::kTensor, TensorType{"f32", {2}}, Value::Placement::kArgument, 0, 0, 8, "%x"});
  StepList main;
  main.role = StepList::Role::kEntry;
  main.name = "main";
  main.arguments = {0};
  main.results = {0};
  plan.lists.push_back(std::move(main));
  return plan;
}

}  // namespace vkhlo::plan::testing
