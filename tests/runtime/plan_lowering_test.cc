// LowerToPlan (runtime/plan_lowering.h): real models and conformance programs compiled, lowered
// to plans that validate and survive .vkx write -> read unchanged, and checked against what the
// executable itself says: its signature, the bytes of its uploaded constants (read back from
// the device), and the dispatches one Execute records (where the plan fixes their number).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "codegen/elemental/types.h"
#include "codegen/glsl_compiler.h"
#include "device/transfer.h"
#include "plan/plan_reader.h"
#include "plan/plan_writer.h"
#include "runtime/compiled_module.h"
#include "runtime/ir_tensor_desc.h"
#include "runtime/plan_lowering.h"
#include "runtime/plan_lowering_steps.h"
#include "runtime/state.h"
#include "support/sha256.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_files.h"

namespace vkhlo::runtime {
namespace {

using testing::ReadFile;
using testing::SharedClient;

const std::filesystem::path kModels = std::filesystem::path(VKHLO_SOURCE_DIR) / "tests/frontend/bytecode/models";
const std::filesystem::path kConformance = std::filesystem::path(VKHLO_SOURCE_DIR) / "../shared/conformance";

// The tensors of `types` in order, tuples flattened, tokens left out: Executable's signature.
void Flatten(const plan::EntryType& t, std::vector<TensorType>& out) {
  if (t.kind == plan::EntryType::Kind::kTuple) {
    for (const plan::EntryType& e : t.elements) Flatten(e, out);
  } else if (t.kind == plan::EntryType::Kind::kTensor) {
    out.push_back(t.tensor);
  }
}
std::vector<TensorType> Flatten(const std::vector<plan::EntryType>& types) {
  std::vector<TensorType> out;
  for (const plan::EntryType& t : types) Flatten(t, out);
  return out;
}

template <class F>
void ForEachStep(const plan::StepList& list, F f) {
  for (const plan::Segment& segment : list.segments) {
    for (const plan::Step& step : segment.steps) f(step);
  }
}

// The dispatches running list `l` records, where the plan fixes them: kernels, FFTs and kernel
// custom calls, counted loops and calls of such lists. nullopt where data decides (if/case, a
// while of unknown trip count) or a process grid acts (collectives, process ops).
struct Dispatches {
  uint64_t count = 0;
  uint64_t skippable = 0;  // skip_in_place dispatches, not recorded when an in-place update happens
};
std::optional<Dispatches> CountDispatches(const plan::Plan& plan, uint32_t l) {
  Dispatches total;
  bool fixed = true;
  ForEachStep(plan.lists[l], [&](const plan::Step& step) {
    if (const auto* s = std::get_if<plan::DispatchStep>(&step.op)) {
      total.count += s->dispatches.size();
      for (const plan::Dispatch& d : s->dispatches) total.skippable += d.skip_in_place ? 1 : 0;
    } else if (std::holds_alternative<plan::FftStep>(step.op)) {
      total.count += 1;
    } else if (const auto* c = std::get_if<plan::CustomCallStep>(&step.op)) {
      const auto& grid = c->dispatch.grid;
      total.count += !c->host_callback && grid[0] != 0 && grid[1] != 0 && grid[2] != 0 ? 1 : 0;
    } else if (const auto* w = std::get_if<plan::WhileStep>(&step.op)) {
      const auto body = w->trip_count >= 0 ? CountDispatches(plan, w->body) : std::nullopt;
      if (!body) {
        fixed = false;
        return;
      }
      total.count += static_cast<uint64_t>(w->trip_count) * body->count;
      total.skippable += static_cast<uint64_t>(w->trip_count) * body->skippable;
    } else if (const auto* call = std::get_if<plan::CallStep>(&step.op)) {
      const auto callee = CountDispatches(plan, call->function);
      if (!callee) {
        fixed = false;
        return;
      }
      total.count += callee->count;
      total.skippable += callee->skippable;
    } else if (!std::holds_alternative<plan::ValueStep>(step.op)) {
      fixed = false;
    }
  });
  if (!fixed) return std::nullopt;
  return total;
}

// Reuses of loop-invariant dispatches one Execute of `plan` makes: in each counted while of the
// entry, every iteration after the first skips the body's loop-invariant dispatches that read
// only buffers nothing in an execution writes: the entry's arguments and constants, and loop
// state the body hands back unchanged from one of those.
uint64_t ExpectedInvariantReuses(const plan::Plan& plan) {
  const plan::StepList& entry = plan.lists[plan.entry];
  std::set<uint32_t> immutable(entry.arguments.begin(), entry.arguments.end());
  for (size_t v = 0; v < plan.values.size(); ++v) {
    if (plan.values[v].placement == plan::Value::Placement::kConstant) immutable.insert(static_cast<uint32_t>(v));
  }
  uint64_t reuses = 0;
  ForEachStep(entry, [&](const plan::Step& step) {
    const auto* w = std::get_if<plan::WhileStep>(&step.op);
    if (w == nullptr || w->trip_count < 2) return;
    const plan::StepList& body = plan.lists[w->body];
    for (size_t k = 0; k < w->operands.size(); ++k) {
      if (immutable.count(w->operands[k]) && body.results[k] == body.arguments[k]) immutable.insert(body.arguments[k]);
    }
    ForEachStep(body, [&](const plan::Step& inner) {
      const auto* s = std::get_if<plan::DispatchStep>(&inner.op);
      if (s == nullptr) return;
      for (const plan::Dispatch& d : s->dispatches) {
        const bool reads_immutable = std::all_of(d.bindings.begin(), d.bindings.end(), [&](const plan::BufferRef& ref) {
          return ref.kind != plan::BufferRef::Kind::kValue || immutable.count(ref.index) != 0;
        });
        if (d.loop_invariant && reads_immutable) reuses += static_cast<uint64_t>(w->trip_count - 1);
      }
    });
  });
  return reuses;
}

// Zero-filled arguments of the executable's parameter types.
std::vector<Buffer> ZeroArguments(const Client& client, const Executable& executable) {
  std::vector<Buffer> arguments;
  for (const TensorType& type : executable.parameter_types()) {
    auto desc = DescOf(type);
    EXPECT_TRUE(desc.ok()) << desc.status().ToString();
    const uint64_t bytes = desc->storage_bytes();
    auto buffer = client.BufferFromHost(type, std::vector<uint8_t>(bytes, 0));
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    arguments.push_back(std::move(*buffer));
  }
  return arguments;
}

// Lowers `executable` and checks the plan: it validates, survives write -> read, carries the
// executable's signature, and its constants hold the bytes the compile uploaded. Returns it.
plan::Plan CheckedPlan(const Client& client, const Executable& executable, const std::string& what) {
  SCOPED_TRACE(what);
  const ExecutableState& exe = *executable.state();
  auto lowered = LowerToPlan(exe);
  EXPECT_TRUE(lowered.ok()) << lowered.status().ToString();
  if (!lowered.ok()) return {};
  const plan::Plan& plan = *lowered;
  Status valid = plan::Validate(plan);
  EXPECT_TRUE(valid.ok()) << valid.ToString();
  const std::vector<uint8_t> file = plan::WritePlan(plan);
  auto read = plan::ReadPlan(file);
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  if (read.ok()) {
    EXPECT_TRUE(*read == plan) << "the plan changed through a .vkx file";
  }

  EXPECT_EQ(Flatten(plan.header.parameters), executable.parameter_types());
  EXPECT_EQ(Flatten(plan.header.results), executable.result_types());
  EXPECT_EQ(plan.header.entry_name, exe.compiled->entry->name());
  EXPECT_FALSE(plan.header.requirements.profile.empty());
  EXPECT_TRUE((plan.header.source_sha256 != std::array<uint8_t, 32>{}));

  // The buffer constants, as the device holds them, against the plan's (value-placed ones;
  // kernels' tables are their own constants): their storage bytes (what pads them to whole
  // words is undefined on the device).
  std::multiset<std::string> on_device, in_plan;  // bytes as strings: GCC 12 misjudges vector<uint8_t>'s <=>
  for (const auto& [value, constant] : exe.compiled->constants) {
    if (constant.kind != RtValue::Kind::kTensor) continue;
    std::vector<uint8_t> bytes(codegen::StorageByteSize(value->type().element_type(), value->type().num_elements()));
    if (!bytes.empty()) {
      Status downloaded = client.state()->device->transfers().Download(
          constant.storage->buffer, 0, std::as_writable_bytes(std::span<uint8_t>(bytes)));
      EXPECT_TRUE(downloaded.ok()) << downloaded.ToString();
    }
    on_device.insert(std::string(bytes.begin(), bytes.end()));
  }
  for (const plan::Value& value : plan.values) {
    if (value.placement != plan::Value::Placement::kConstant) continue;
    const std::vector<uint8_t>& bytes = plan.constants[value.index].bytes;
    auto type = DescOf(value.type);
    EXPECT_TRUE(type.ok()) << type.status().ToString();
    if (!type.ok()) continue;
    const uint64_t storage = type->storage_bytes();
    EXPECT_LE(storage, value.bytes);
    EXPECT_EQ(value.bytes, plan.constants[value.index].bytes.size());
    in_plan.insert(std::string(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(storage)));
  }
  EXPECT_EQ(in_plan, on_device) << "the plan's constants are not the bytes the compile uploaded";

  // The buffer assignment: each slot lives over every step that binds it, and values sharing a
  // slot never live at once (one is made after the last read of the one before).
  for (const plan::StepList& list : plan.lists) {
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> lives;  // slot-placed value: made, last read
    uint32_t index = 0;
    ForEachStep(list, [&](const plan::Step& step) {
      if (const auto* s = std::get_if<plan::DispatchStep>(&step.op)) {
        for (const plan::Dispatch& d : s->dispatches) {
          for (const plan::BufferRef& ref : d.bindings) {
            uint32_t slot = UINT32_MAX;
            if (ref.kind == plan::BufferRef::Kind::kSlot) slot = ref.index;
            if (ref.kind == plan::BufferRef::Kind::kValue && plan.values[ref.index].placement == plan::Value::Placement::kSlot) {
              slot = plan.values[ref.index].index;
              auto [it, made] = lives.try_emplace(ref.index, index, index);
              it->second.second = index;
            }
            if (slot == UINT32_MAX) continue;
            ASSERT_LT(slot, list.slots.size());
            EXPECT_LE(list.slots[slot].first_step, index) << list.name << " slot " << slot;
            EXPECT_GE(list.slots[slot].last_step, index) << list.name << " slot " << slot;
          }
        }
      }
      ++index;
    });
    for (const auto& [a, a_life] : lives) {
      for (const auto& [b, b_life] : lives) {
        if (a >= b || plan.values[a].index != plan.values[b].index) continue;
        EXPECT_TRUE(a_life.second < b_life.first || b_life.second < a_life.first)
            << list.name << ": values " << a << " and " << b << " share slot " << plan.values[a].index << " while both live";
      }
    }
  }

  // Every kernel a dispatch names holds SPIR-V.
  for (const plan::Kernel& kernel : plan.kernels) {
    EXPECT_GE(kernel.spirv.size(), 5u) << kernel.name;
    if (!kernel.spirv.empty()) {
      EXPECT_EQ(kernel.spirv[0], 0x07230203u) << kernel.name;
    }
  }
  return std::move(*lowered);
}

// One Execute of `executable` records the dispatches its plan fixes (if it fixes them);
// returns whether it did.
bool CheckDispatchCount(const Client& client, const Executable& executable, const plan::Plan& plan) {
  const std::optional<Dispatches> expected = CountDispatches(plan, plan.entry);
  if (!expected) return false;
  std::vector<Buffer> arguments = ZeroArguments(client, executable);
  auto results = executable.ExecuteBuffers(arguments);
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  if (!results.ok()) return false;
  const ExecutionStats stats = executable.last_stats();
  const uint64_t recorded = stats.kernels_dispatched + stats.invariant_dispatches_reused;
  EXPECT_EQ(stats.invariant_dispatches_reused, ExpectedInvariantReuses(plan));
  if (stats.in_place_updates == 0) {
    EXPECT_EQ(recorded, expected->count);
  } else {
    EXPECT_LE(recorded, expected->count);
    EXPECT_GE(recorded, expected->count - expected->skippable);
  }
  return true;
}

// Programs the tests compile: a file's chunks (split at "// -----") and their test functions
// (no parameters).
struct TestFunction {
  std::string program;
  std::string name;
};
std::vector<TestFunction> TestFunctions(const std::filesystem::path& file) {
  const std::string text = ReadFile(file);
  std::vector<TestFunction> out;
  size_t start = 0;
  const std::regex test(R"(func\.func\s+(?:public\s+)?@([A-Za-z0-9_]+)\(\))");
  while (start <= text.size()) {
    size_t end = text.find("// -----", start);
    if (end == std::string::npos) end = text.size();
    const std::string chunk = text.substr(start, end - start);
    for (std::sregex_iterator it(chunk.begin(), chunk.end(), test), done; it != done; ++it) {
      const std::string name = (*it)[1];
      if (name == "inputs" || name == "expected") continue;  // the JAX tests' data
      out.push_back({chunk, name});
    }
    start = end + 8;
  }
  return out;
}

// Compiles each test function of `file` with its checks and checks its plan. Returns how many
// compiled; a function this device cannot run (UNIMPLEMENTED: f64 on the mobile profile) is
// counted in `unsupported`.
struct FileOutcome {
  int lowered = 0, unsupported = 0, counted = 0;
};
FileOutcome CheckFile(const std::filesystem::path& file) {
  const Client& client = SharedClient();
  FileOutcome outcome;
  for (const TestFunction& f : TestFunctions(file)) {
    CompileOptions options;
    options.entry = f.name;
    options.checks = true;
    auto executable = client.Compile(f.program, options);
    if (!executable.ok() && executable.status().code() == StatusCode::kUnimplemented) {
      outcome.unsupported++;
      continue;
    }
    EXPECT_TRUE(executable.ok()) << file.filename() << " @" << f.name << ": " << executable.status().ToString();
    if (!executable.ok()) continue;
    const plan::Plan plan = CheckedPlan(client, *executable, file.filename().string() + " @" + f.name);
    outcome.lowered++;
    // The checks the host compares, as the compile described them.
    const CompiledChecks* checks = executable->checks();
    EXPECT_TRUE(checks != nullptr && plan.checks.has_value()) << f.name;
    if (checks != nullptr && plan.checks) {
      EXPECT_EQ(plan.checks->function, f.name);
      EXPECT_EQ(plan.checks->program_results, checks->program_results);
      EXPECT_EQ(plan.checks->results.size(), checks->results.size());
      EXPECT_EQ(plan.checks->nested.size(), checks->nested.size());
      for (size_t i = 0; i < plan.checks->results.size() && i < checks->results.size(); ++i) {
        EXPECT_EQ(plan.checks->results[i].actual_result, checks->results[i].actual_result);
        EXPECT_EQ(plan.checks->results[i].has_expected, checks->results[i].expected.has_value());
        if (checks->results[i].expected) {
          EXPECT_EQ(plan.checks->results[i].expected_bytes, checks->results[i].expected->bytes);
        }
      }
    }
    if (executable->checks() != nullptr && executable->checks()->uses_outfeed()) continue;  // needs a grid's outfeed
    outcome.counted += CheckDispatchCount(client, *executable, plan) ? 1 : 0;
  }
  return outcome;
}

template <class T>
int CountSteps(const plan::Plan& plan) {
  int n = 0;
  for (const plan::StepList& list : plan.lists) {
    ForEachStep(list, [&](const plan::Step& step) { n += std::holds_alternative<T>(step.op) ? 1 : 0; });
  }
  return n;
}

TEST(PlanLowering, RealModels) {
  const Client& client = SharedClient();
  int counted = 0, in_slots = 0;
  for (const char* model : {"cnn_forward", "lstm_scan", "mlp_forward", "mlp_train_step", "transformer_block"}) {
    SCOPED_TRACE(model);
    const std::string bytes = ReadFile(kModels / (std::string(model) + ".mlirbc"));
    auto executable = client.Compile(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(executable.ok()) << executable.status().ToString();
    const plan::Plan plan = CheckedPlan(client, *executable, model);
    EXPECT_GT(plan.kernels.size(), 0u);
    // The hash is of the bytecode as given.
    EXPECT_EQ(plan.header.source_sha256, Sha256Of(std::span<const uint8_t>(
                                             reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())));
    if (std::string(model) == "lstm_scan") {
      EXPECT_GE(CountSteps<plan::WhileStep>(plan), 1);
    }
    for (const plan::Value& v : plan.values) in_slots += v.placement == plan::Value::Placement::kSlot ? 1 : 0;
    counted += CheckDispatchCount(client, *executable, plan) ? 1 : 0;
  }
  EXPECT_GE(counted, 3) << "the straight-line models' dispatches were not compared";
  EXPECT_GT(in_slots, 0) << "no model's intermediates share scratch slots: the slot checks saw nothing";
}

// A CNN's 3x3 convolution over 8x32x32x16 (the real model's size): its library kernel reads the
// input through an r32f texel view on CPU devices, which the plan describes and requires (this
// once was an UNIMPLEMENTED lowering).
TEST(PlanLowering, ConvolutionThroughAnR32fTexelView) {
  const Client& client = SharedClient();
  auto executable = client.Compile(R"(func.func @main(%x: tensor<8x32x32x16xf32>, %w: tensor<3x3x16x16xf32>) -> tensor<8x32x32x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x16xf32>, tensor<3x3x16x16xf32>) -> tensor<8x32x32x16xf32>
  func.return %0 : tensor<8x32x32x16xf32>
})");
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const plan::Plan plan = CheckedPlan(client, *executable, "conv 8x32x32x16");
  bool r32f = false;
  ASSERT_FALSE(plan.kernels.empty());
  for (const plan::Kernel& k : plan.kernels) {
    for (const plan::KernelBinding& b : k.bindings) r32f |= b.texel_format == plan::TexelFormat::kR32f;
  }
  // Where the kernel chose the texel view (lavapipe's does), the plan requires the format.
  EXPECT_EQ((plan.header.requirements.features & plan::kStorageTexelBufferR32f) != 0, r32f);
}

TEST(PlanLowering, ConformanceControlFlow) {
  int lowered = 0, counted = 0;
  for (const char* name : {"while.mlir", "if.mlir", "case.mlir", "call.mlir"}) {
    const FileOutcome outcome = CheckFile(kConformance / "interpret" / name);
    EXPECT_EQ(outcome.unsupported, 0) << name;
    lowered += outcome.lowered;
    counted += outcome.counted;
  }
  EXPECT_GE(lowered, 7);
  EXPECT_GE(counted, 2);  // while (counted) and call
}

TEST(PlanLowering, ConformanceKernels) {
  int lowered = 0, counted = 0;
  for (const char* name : {"interpret/sort.mlir", "interpret/reduce.mlir", "interpret/dot_general.mlir",
                           "interpret/convolution.mlir", "interpret/fft.mlir", "jax/abs_float32_20_20.mlir",
                           "jax/conv_general_dilated_float32_1_16_16_2_float32_2_3_2_2.mlir",
                           "jax/dot_general_uint32_4_3_float32_3_6.mlir", "jax/cumsum_int16_8_9.mlir",
                           "jax/reduce_max_int8_2_3.mlir", "jax/argmax_int16_15.mlir"}) {
    const FileOutcome outcome = CheckFile(kConformance / name);
    lowered += outcome.lowered;
    counted += outcome.counted;
  }
  EXPECT_GE(lowered, 15);
  EXPECT_GE(counted, 10);
}

// A program with every kind of control flow, tuples, an f32 FFT and buffer constants.
constexpr const char* kControlFlow = R"(
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>, %k: tensor<i32>, %p: tensor<i1>) -> (tensor<4xf32>, tensor<4xcomplex<f32>>, tuple<tensor<4xf32>, tensor<i32>>) {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0]> : tensor<80xf32>
  %s = stablehlo.slice %c [0:4] : (tensor<80xf32>) -> tensor<4xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %v1 = func.call @twice(%v) : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  %u:2 = stablehlo.while(%j = %k, %a = %w#1) : tensor<i32>, tensor<4xf32>
  cond {
    %gt = stablehlo.compare GT, %j, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  } do {
    %j1 = stablehlo.subtract %j, %one : tensor<i32>
    %a1 = stablehlo.add %a, %s : tensor<4xf32>
    stablehlo.return %j1, %a1 : tensor<i32>, tensor<4xf32>
  }
  %r = "stablehlo.if"(%p) ({
    %t = stablehlo.multiply %u#1, %s : tensor<4xf32>
    stablehlo.return %t : tensor<4xf32>
  }, {
    stablehlo.return %u#1 : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %q = "stablehlo.case"(%k) ({
    stablehlo.return %r : tensor<4xf32>
  }, {
    %neg = stablehlo.negate %r : tensor<4xf32>
    stablehlo.return %neg : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  %zeros = stablehlo.constant dense<0.0> : tensor<4xf32>
  %z = stablehlo.complex %q, %zeros : tensor<4xcomplex<f32>>
  %f = stablehlo.fft %z, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %tup = stablehlo.tuple %q, %k : tuple<tensor<4xf32>, tensor<i32>>
  %e = stablehlo.get_tuple_element %tup[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
  func.return %e, %f, %tup : tensor<4xf32>, tensor<4xcomplex<f32>>, tuple<tensor<4xf32>, tensor<i32>>
}
)";

TEST(PlanLowering, ControlFlowBecomesListsAndHostStepsStandAlone) {
  const Client& client = SharedClient();
  // Without the inliner (and fft-to-dft), so that the call and the FFT stay steps of their own.
  CompileOptions options;
  options.passes = "chlo-decompose,canonicalize,cse,dce";
  auto executable = client.Compile(kControlFlow, options);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const plan::Plan plan = CheckedPlan(client, *executable, "control flow");
  EXPECT_EQ(plan.header.source_sha256, Sha256Of(std::string_view(kControlFlow)));

  // One counted while (trip count 5: its condition never runs), one data-dependent, whose
  // body calls nothing and records only kernels (batched); one list for @twice however often
  // it is called.
  std::vector<const plan::WhileStep*> whiles;
  const plan::BranchStep* branch_if = nullptr;
  const plan::BranchStep* branch_case = nullptr;
  ForEachStep(plan.lists[plan.entry], [&](const plan::Step& step) {
    if (const auto* w = std::get_if<plan::WhileStep>(&step.op)) whiles.push_back(w);
    if (const auto* b = std::get_if<plan::BranchStep>(&step.op)) (b->is_case ? branch_case : branch_if) = b;
  });
  ASSERT_EQ(whiles.size(), 2u);
  EXPECT_EQ(whiles[0]->trip_count, 5);
  EXPECT_EQ(whiles[1]->trip_count, -1);
  EXPECT_TRUE(whiles[1]->batched);
  EXPECT_EQ(whiles[1]->predicate.bytes, 1);
  EXPECT_EQ(plan.lists[whiles[0]->body].arguments.size(), 2u);
  EXPECT_EQ(CountSteps<plan::CallStep>(plan), 1);
  int functions = 0;
  for (const plan::StepList& list : plan.lists) functions += list.role == plan::StepList::Role::kFunction ? 1 : 0;
  EXPECT_EQ(functions, 1);
  ASSERT_NE(branch_if, nullptr);
  ASSERT_NE(branch_case, nullptr);
  EXPECT_EQ(branch_if->branches.size(), 2u);
  EXPECT_EQ(branch_case->selector.bytes, 4);
  EXPECT_TRUE(branch_case->selector.is_signed);
  EXPECT_EQ(CountSteps<plan::FftStep>(plan), 1);
  EXPECT_FALSE(whiles[1]->location.empty());
  EXPECT_FALSE(branch_case->location.empty());
  EXPECT_GE(CountSteps<plan::ValueStep>(plan), 1);  // the tuple (its element read is folded)

  // Host steps (the uncounted while, if, case) each stand alone in their segment.
  int host = 0;
  for (const plan::Segment& segment : plan.lists[plan.entry].segments) {
    for (const plan::Step& step : segment.steps) {
      if (!plan::IsHostStep(step)) continue;
      host++;
      EXPECT_EQ(segment.steps.size(), 1u);
    }
  }
  EXPECT_EQ(host, 3);
  // The 80-float constant is a buffer constant of the plan, its bytes the literal's.
  bool found = false;
  for (const plan::Constant& c : plan.constants) {
    if (c.type.dims != std::vector<int64_t>{80}) continue;
    found = true;
    float first = 0, last = 0;
    std::memcpy(&first, c.bytes.data(), 4);
    std::memcpy(&last, c.bytes.data() + 79 * 4, 4);
    EXPECT_EQ(first, 1.0f);
    EXPECT_EQ(last, 80.0f);
  }
  EXPECT_TRUE(found);
}

// A counted loop multiplying its state by weights the caller gives: the matmul's packing of the
// weights is loop invariant, and the runtime skips it after the first iteration.
TEST(PlanLowering, LoopInvariantDispatchesAreTheOnesTheRuntimeReuses) {
  const Client& client = SharedClient();
  // h = relu(h W)[:, 128:] over 6 steps, the body reading the caller's W from outside the loop;
  // at this batch llvmpipe's matmul packs W in a dispatch of its own, which the runtime then
  // runs in the first step only (another profile may not pack: then nothing is reused, and the
  // plan marks nothing).
  auto executable = client.Compile(R"(
func.func @main(%w: tensor<128x256xf32>, %h0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %start = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%step = %start, %h = %h0) : tensor<i32>, tensor<64x128xf32>
  cond {
    %steps = stablehlo.constant dense<6> : tensor<i32>
    %more = stablehlo.compare LT, %step, %steps, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %more : tensor<i1>
  } do {
    %hw = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    %zeros = stablehlo.constant dense<0.0> : tensor<64x256xf32>
    %relu = stablehlo.maximum %hw, %zeros : tensor<64x256xf32>
    %next = stablehlo.slice %relu [0:64, 128:256] : (tensor<64x256xf32>) -> tensor<64x128xf32>
    %inc = stablehlo.constant dense<1> : tensor<i32>
    %step1 = stablehlo.add %step, %inc : tensor<i32>
    stablehlo.return %step1, %next : tensor<i32>, tensor<64x128xf32>
  }
  func.return %r#1 : tensor<64x128xf32>
}
)");
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const plan::Plan plan = CheckedPlan(client, *executable, "loop-invariant packing");
  EXPECT_TRUE(CheckDispatchCount(client, *executable, plan));
}

// Custom calls: a kernel target (its SPIR-V, its launch's grid and push constants from offset 0)
// and a host callback (a host step).
constexpr const char* kAddOneGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer R { float r[]; };
layout(push_constant) uniform Push { uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) r[i] = x[i] + 1.0;
}
)";

TEST(PlanLowering, CustomCallsKeepTheirKernelAndCallback) {
  const Client& client = SharedClient();
  codegen::GlslCompiler compiler("");
  auto words = compiler.Compile(kAddOneGlsl, {.name = "plan_lowering_test.add_one"});
  ASSERT_TRUE(words.ok()) << words.status().ToString();
  CustomCallKernel kernel;
  kernel.spirv = **words;
  kernel.launch = [](const CustomCallTypes& types) -> StatusOr<CustomCallLaunch> {
    const auto n = static_cast<uint32_t>(types.results[0].num_elements());
    return CustomCallLaunch{{(n + 63) / 64, 1, 1}, {n}};
  };
  ASSERT_TRUE(client.custom_calls().RegisterKernel("plan_lowering_test.add_one", std::move(kernel)).ok());
  ASSERT_TRUE(client.custom_calls()
                  .RegisterHostCallback("plan_lowering_test.copy",
                                        [](std::span<const Literal> operands, std::span<Literal> results,
                                           const CustomCallContext&) {
                                          results[0] = operands[0];
                                          return OkStatus();
                                        })
                  .ok());
  constexpr const char* kProgram = R"(
func.func @main(%x: tensor<100xf32>) -> tensor<100xf32> {
  %a = stablehlo.custom_call @plan_lowering_test.add_one(%x) {backend_config = "cfg"} : (tensor<100xf32>) -> tensor<100xf32>
  %b = stablehlo.custom_call @plan_lowering_test.copy(%a) : (tensor<100xf32>) -> tensor<100xf32>
  %c = stablehlo.add %b, %b : tensor<100xf32>
  func.return %c : tensor<100xf32>
}
)";
  auto executable = client.Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const plan::Plan plan = CheckedPlan(client, *executable, "custom calls");
  std::vector<const plan::CustomCallStep*> calls;
  ForEachStep(plan.lists[plan.entry], [&](const plan::Step& step) {
    if (const auto* c = std::get_if<plan::CustomCallStep>(&step.op)) calls.push_back(c);
  });
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_FALSE(calls[0]->host_callback);
  EXPECT_EQ(calls[0]->target, "plan_lowering_test.add_one");
  EXPECT_EQ(std::string(calls[0]->backend_config.begin(), calls[0]->backend_config.end()), "cfg");
  EXPECT_EQ(calls[0]->dispatch.grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(calls[0]->dispatch.push_words, std::vector<uint32_t>{100});
  const plan::Kernel& k = plan.kernels[calls[0]->dispatch.kernel];
  EXPECT_EQ(k.spirv, **words);
  EXPECT_EQ(k.workgroup_base_offset, plan::Kernel::kNoWorkgroupBase);
  EXPECT_EQ(k.workgroup_size, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_TRUE(calls[1]->host_callback);
  // The host callback ends the first segment; the add runs in the next.
  EXPECT_GE(plan.lists[plan.entry].segments.size(), 3u);
  EXPECT_EQ(plan.header.requirements.workgroup_size[0] >= 64, true);
  client.custom_calls().Unregister("plan_lowering_test.add_one");
  client.custom_calls().Unregister("plan_lowering_test.copy");
}

// The functions a process-grid program runs on each process (every function but @main, which
// runs them through interpreter.run_parallel): compiled as the entry, each of a 1 x 1 grid.
TEST(PlanLowering, CollectivesAndProcessOpsKeepTheirAttributes) {
  const Client& client = SharedClient();
  std::set<plan::CollectiveStep::Kind> collectives;
  std::set<plan::ProcessStep::Kind> process_ops;
  const plan::CollectiveStep* all_reduce = nullptr;
  std::deque<plan::Plan> plans;  // all_reduce points into one
  const std::regex function(R"(func\.func\s+(?:public\s+|private\s+)?@([A-Za-z0-9_]+)\()");
  for (const char* name : {"all_gather", "all_reduce", "all_to_all", "collective_broadcast", "collective_permute",
                           "collective_reduce", "reduce_scatter", "infeed", "outfeed", "partition_id", "replica_id",
                           "send_recv"}) {
    const std::string text = ReadFile(kConformance / "interpret" / (std::string(name) + ".mlir"));
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find("// -----", start);
      if (end == std::string::npos) end = text.size();
      const std::string chunk = text.substr(start, end - start);
      start = end + 8;
      for (std::sregex_iterator it(chunk.begin(), chunk.end(), function), done; it != done; ++it) {
        const std::string entry = (*it)[1];
        if (entry == "main") continue;
        CompileOptions options;
        options.entry = entry;
        auto executable = client.Compile(chunk, options);
        ASSERT_TRUE(executable.ok()) << name << " @" << entry << ": " << executable.status().ToString();
        plans.push_back(CheckedPlan(client, *executable, std::string(name) + " @" + entry));
        const plan::Plan& plan = plans.back();
        ForEachStep(plan.lists[plan.entry], [&](const plan::Step& step) {
          if (const auto* c = std::get_if<plan::CollectiveStep>(&step.op)) {
            collectives.insert(c->kind);
            EXPECT_FALSE(c->location.empty());
            const bool reduces = c->kind == plan::CollectiveStep::Kind::kAllReduce ||
                                 c->kind == plan::CollectiveStep::Kind::kReduceScatter ||
                                 c->kind == plan::CollectiveStep::Kind::kCollectiveReduce;
            EXPECT_EQ(c->reducer >= 0, reduces) << name;
            if (c->reducer >= 0) {
              EXPECT_EQ(plan.lists[static_cast<size_t>(c->reducer)].role, plan::StepList::Role::kReducer);
              EXPECT_EQ(plan.lists[static_cast<size_t>(c->reducer)].arguments.size(), 2 * c->operands.size());
            }
            if (std::string(name) == "all_reduce" && all_reduce == nullptr) all_reduce = c;
          }
          if (const auto* p = std::get_if<plan::ProcessStep>(&step.op)) process_ops.insert(p->kind);
        });
      }
    }
  }
  EXPECT_EQ(collectives.size(), 7u) << "every collective kind";
  EXPECT_EQ(process_ops.size(), 6u) << "every process op kind";
  // all_reduce.mlir's first: replica groups [[0, 1]] on channel 0, an i64 add (exact).
  ASSERT_NE(all_reduce, nullptr);
  EXPECT_EQ(all_reduce->replica_groups, (std::vector<std::vector<int64_t>>{{0, 1}}));
  EXPECT_EQ(all_reduce->groups, plan::CollectiveStep::Groups::kCrossReplica);
  EXPECT_EQ(all_reduce->exact, std::vector<plan::CollectiveStep::ExactReduction>{plan::CollectiveStep::ExactReduction::kAdd});
}

// Segments and barriers on hand-made steps: a read after a write waits, so does an update in
// place of what an earlier step read (it writes the input's buffer), an unrelated step does not,
// and a host step stands alone, the step after it starting afresh.
TEST(PlanLowering, SegmentsWaitOnlyForWhatTheyTouch) {
  std::vector<plan::Value> values(6);
  for (plan::Value& v : values) v.bytes = 16;
  auto kernel_step = [](std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    plan::DispatchStep s;
    s.inputs = inputs;
    s.outputs = outputs;
    plan::Dispatch d;
    for (uint32_t v : inputs) {
      d.bindings.push_back({plan::BufferRef::Kind::kValue, v, 0, 16});
      d.written.push_back(false);
    }
    for (uint32_t v : outputs) {
      d.bindings.push_back({plan::BufferRef::Kind::kValue, v, 0, 16});
      d.written.push_back(true);
    }
    s.dispatches.push_back(d);
    return plan::Step{0, s};
  };
  std::vector<plan::Step> steps;
  steps.push_back(kernel_step({0}, {1}));  // reads 0
  plan::Step update = kernel_step({0}, {2});
  std::get<plan::DispatchStep>(update.op).in_place = {plan::InPlaceOutput{0, 0, 4}};
  steps.push_back(update);                 // writes 0's buffer: waits for the read of 0
  steps.push_back(kernel_step({3}, {4}));  // unrelated
  steps.push_back(kernel_step({2}, {5}));  // reads what the update wrote
  steps.push_back(plan::Step{0, plan::BranchStep{false, plan::ScalarRead{5, 1, false}, {1, 2}, {}, ""}});
  steps.push_back(kernel_step({5}, {3}));  // after a host step: a new segment, nothing to wait for
  const std::vector<plan::Segment> segments = SegmentSteps(values, steps);
  ASSERT_EQ(segments.size(), 3u);
  ASSERT_EQ(segments[0].steps.size(), 4u);
  EXPECT_EQ(segments[0].steps[0].barrier, 0);
  EXPECT_EQ(segments[0].steps[1].barrier, plan::kAfterComputeWrites);
  EXPECT_EQ(segments[0].steps[2].barrier, 0);
  EXPECT_EQ(segments[0].steps[3].barrier, plan::kAfterComputeWrites);
  EXPECT_EQ(segments[1].steps.size(), 1u);
  ASSERT_EQ(segments[2].steps.size(), 1u);
  EXPECT_EQ(segments[2].steps[0].barrier, 0);
}

TEST(PlanLowering, PolymorphicExecutablesAreUnimplemented) {
  const Client& client = SharedClient();
  auto executable = client.Compile(R"(
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = stablehlo.add %x, %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
)");
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  auto plan = LowerToPlan(*executable->state());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(plan.status().message().find("shape-polymorphic"), std::string::npos) << plan.status().ToString();
}

}  // namespace
}  // namespace vkhlo::runtime
