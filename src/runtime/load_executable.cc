// Client::LoadExecutable: a .vkx file (plan/plan_reader.h) made ready to run on this client
// (loaded_plan.h), with no compiler involved.
#include <fmt/format.h>

#include "plan/plan_reader.h"
#include "runtime/loaded_plan.h"
#include "runtime/device_offer.h"
#include "vkhlo/checks.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

CompiledCheck CheckOf(const plan::TestCheck& check) {
  CompiledCheck out;
  switch (check.comparison) {
    case plan::TestCheck::Comparison::kExact: out.comparison.kind = CheckComparison::Kind::kExact; break;
    case plan::TestCheck::Comparison::kAlmost: out.comparison.kind = CheckComparison::Kind::kAlmost; break;
    case plan::TestCheck::Comparison::kClose: out.comparison.kind = CheckComparison::Kind::kClose; break;
  }
  out.comparison.tolerance = check.tolerance;
  out.comparison.max_ulp_difference = check.max_ulp_difference;
  out.comparison.min_ulp_difference = check.min_ulp_difference;
  if (check.has_expected) out.expected = HostTensor{check.expected_type, check.expected_bytes};
  out.location = check.location;
  out.actual_result = check.actual_result;
  out.expected_result = check.expected_result;
  return out;
}

// A test program's checks as the plan keeps them (plan/checks.h), as Executable::checks()
// gives them (the inverse of plan_lowering.cc TestChecksOf).
CompiledChecks ChecksOf(const plan::TestChecks& checks) {
  CompiledChecks out;
  out.function = checks.function;
  out.program_results = checks.program_results;
  for (const plan::TestCheck& c : checks.results) out.results.push_back(CheckOf(c));
  for (const plan::TestCheck& c : checks.nested) out.nested.push_back(CheckOf(c));
  out.probe_ids = checks.probe_ids;
  for (const plan::SerializedTestCheck& c : checks.serialized) out.serialized.push_back({c.probe_key, c.result, c.location});
  return out;
}

// The tensors of `t`, tuples flattened, tokens left out (Executable::parameter_types).
void AppendTensorTypes(const plan::EntryType& t, std::vector<TensorType>& out) {
  if (t.kind == plan::EntryType::Kind::kTuple) {
    for (const plan::EntryType& element : t.elements) AppendTensorTypes(element, out);
  } else if (t.kind == plan::EntryType::Kind::kTensor) {
    out.push_back(t.tensor);
  }
}

}  // namespace

StatusOr<Executable> Client::LoadExecutable(std::span<const uint8_t> bytes) const {
  VKHLO_ASSIGN_OR_RETURN(plan::Plan plan, plan::ReadPlan(bytes));
  const device::Device& device = *state_->device;
  VKHLO_RETURN_IF_ERROR(device.CheckAlive());
  VKHLO_RETURN_IF_ERROR(
      plan::CheckRequirements(plan.header.requirements, runtime::DeviceOfferOf(device.capabilities())));
  auto exe = std::make_shared<runtime::ExecutableState>();
  exe->client = state_;
  exe->source_sha256 = plan.header.source_sha256;
  for (const plan::EntryType& t : plan.header.parameters) AppendTensorTypes(t, exe->parameter_types);
  for (const plan::EntryType& t : plan.header.results) AppendTensorTypes(t, exe->result_types);
  if (plan.checks) exe->checks = std::make_shared<const CompiledChecks>(ChecksOf(*plan.checks));
  runtime::LoadOptions options;
  options.check_kernels = true;
  VKHLO_ASSIGN_OR_RETURN(exe->loaded, runtime::LoadPlan(state_, std::move(plan), std::move(options)));
  return Executable(std::move(exe));
}

}  // namespace vkhlo
