// The records of a .vkx file, field by field, in one description that both directions use: the
// writer (plan_writer.cc) instantiates it with an encoder, the reader (plan_reader.cc) with a
// decoder, so the two cannot drift apart. docs/plan_format.md lists the same fields in prose.
//
// A coder C provides, each returning Status and taking a name for error messages:
//   U8 U16 U32 U64 I32 I64 Bool String Bytes Digest (fixed 32 bytes), Words (u32 count + u32s),
//   Enum(what, e, last) (a u8 at most `last`), List(what, vector, min_bytes, each(element)),
//   BoolList, Variant(what, variant) (the index as a u8), Depth(what, depth) (the decoder
//   refuses tuples nested beyond format::kMostTupleDepth; Validate does for the writer).
// Encoders only read their arguments (the writer passes its const plan through const_cast).
#pragma once

#include <array>
#include <bit>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "plan/format.h"
#include "plan/plan.h"

namespace vkhlo::plan::fields {

template <class C>
Status Of(C& c, TensorType& t) {
  VKHLO_RETURN_IF_ERROR(c.String("element type", t.element_type));
  return c.List("dimensions", t.dims, 8, [&](int64_t& d) { return c.I64("dimension", d); });
}

template <class C>
Status U32s(C& c, const char* what, std::vector<uint32_t>& v) {
  return c.List(what, v, 4, [&](uint32_t& x) { return c.U32(what, x); });
}

template <class C>
Status I64s(C& c, const char* what, std::vector<int64_t>& v) {
  return c.List(what, v, 8, [&](int64_t& x) { return c.I64(what, x); });
}

template <class C>
Status U64s(C& c, const char* what, std::vector<uint64_t>& v) {
  return c.List(what, v, 8, [&](uint64_t& x) { return c.U64(what, x); });
}

template <class C>
Status Of(C& c, EntryType& t, int depth) {
  VKHLO_RETURN_IF_ERROR(c.Depth("entry type", depth));
  VKHLO_RETURN_IF_ERROR(c.Enum("entry type kind", t.kind, EntryType::Kind::kTuple));
  if (t.kind == EntryType::Kind::kTensor) return Of(c, t.tensor);
  if (t.kind == EntryType::Kind::kTuple) {
    return c.List("tuple elements", t.elements, 1, [&](EntryType& e) { return Of(c, e, depth + 1); });
  }
  return OkStatus();
}

template <class C>
Status Of(C& c, DeviceRequirements& r) {
  VKHLO_RETURN_IF_ERROR(c.String("profile", r.profile));
  VKHLO_RETURN_IF_ERROR(c.U32("Vulkan minor version", r.vulkan_api_minor));
  VKHLO_RETURN_IF_ERROR(c.U64("features", r.features));
  VKHLO_RETURN_IF_ERROR(c.U32("subgroup operations", r.subgroup_operations));
  VKHLO_RETURN_IF_ERROR(c.U64("storage buffer range", r.storage_buffer_range));
  VKHLO_RETURN_IF_ERROR(c.U32("shared memory bytes", r.shared_memory_bytes));
  for (uint32_t& size : r.workgroup_size) VKHLO_RETURN_IF_ERROR(c.U32("workgroup size", size));
  VKHLO_RETURN_IF_ERROR(c.U32("workgroup invocations", r.workgroup_invocations));
  VKHLO_RETURN_IF_ERROR(c.U32("push constant bytes", r.push_constant_bytes));
  VKHLO_RETURN_IF_ERROR(c.U32("storage buffers per stage", r.storage_buffers_per_stage));
  VKHLO_RETURN_IF_ERROR(c.U64("storage buffer offset alignment", r.storage_buffer_offset_alignment));
  VKHLO_RETURN_IF_ERROR(c.U64("texel buffer elements", r.texel_buffer_elements));
  return U32s(c, "required subgroup sizes", r.required_subgroup_sizes);
}

// The header after the fixed prefix (the versions live in the prefix).
template <class C>
Status Of(C& c, PlanHeader& h) {
  VKHLO_RETURN_IF_ERROR(c.String("producer", h.producer));
  VKHLO_RETURN_IF_ERROR(c.Digest("source SHA-256", h.source_sha256));
  VKHLO_RETURN_IF_ERROR(c.String("entry name", h.entry_name));
  VKHLO_RETURN_IF_ERROR(c.List("parameters", h.parameters, 1, [&](EntryType& t) { return Of(c, t, 0); }));
  VKHLO_RETURN_IF_ERROR(c.List("results", h.results, 1, [&](EntryType& t) { return Of(c, t, 0); }));
  return Of(c, h.requirements);
}

template <class C>
Status Of(C& c, Kernel& k) {
  VKHLO_RETURN_IF_ERROR(c.String("name", k.name));
  VKHLO_RETURN_IF_ERROR(U32s(c, "SPIR-V words", k.spirv));
  VKHLO_RETURN_IF_ERROR(c.String("entry point", k.entry_point));
  VKHLO_RETURN_IF_ERROR(c.List("bindings", k.bindings, 4, [&](KernelBinding& b) {
    VKHLO_RETURN_IF_ERROR(c.U32("binding set", b.set));
    VKHLO_RETURN_IF_ERROR(c.Enum("binding kind", b.kind, BindingKind::kUniformBuffer));
    VKHLO_RETURN_IF_ERROR(c.Enum("texel format", b.texel_format, TexelFormat::kR32f));
    return c.Bool("device address", b.device_address);
  }));
  VKHLO_RETURN_IF_ERROR(c.U32("push constant bytes", k.push_constant_bytes));
  VKHLO_RETURN_IF_ERROR(c.U32("workgroup base offset", k.workgroup_base_offset));
  for (uint32_t& size : k.workgroup_size) VKHLO_RETURN_IF_ERROR(c.U32("workgroup size", size));
  VKHLO_RETURN_IF_ERROR(c.U64("shared memory bytes", k.shared_memory_bytes));
  VKHLO_RETURN_IF_ERROR(c.U32("required subgroup size", k.required_subgroup_size));
  VKHLO_RETURN_IF_ERROR(c.List("specialization constants", k.specialization, 8, [&](SpecializationConstant& s) {
    VKHLO_RETURN_IF_ERROR(c.U32("specialization id", s.id));
    return c.U32("specialization value", s.bits);
  }));
  VKHLO_RETURN_IF_ERROR(U32s(c, "address bindings", k.address_bindings));
  return c.List("windowed bindings", k.windowed_bindings, 16, [&](WindowedBinding& w) {
    VKHLO_RETURN_IF_ERROR(c.U32("windowed binding", w.binding));
    VKHLO_RETURN_IF_ERROR(c.U64("window bytes", w.window_bytes));
    return U32s(c, "window bindings", w.window_bindings);
  });
}

template <class C>
Status Of(C& c, KernelProfile& p) {
  VKHLO_RETURN_IF_ERROR(c.String("kernel", p.kernel));
  VKHLO_RETURN_IF_ERROR(c.String("class", p.kernel_class));
  VKHLO_RETURN_IF_ERROR(c.String("source op", p.source_op));
  VKHLO_RETURN_IF_ERROR(c.List("fused ops", p.fused_ops, 4, [&](std::string& s) { return c.String("fused op", s); }));
  return c.String("detail", p.detail);
}

template <class C>
Status Of(C& c, Constant& k) {
  VKHLO_RETURN_IF_ERROR(Of(c, k.type));
  return c.Bytes("constant bytes", k.bytes);
}

template <class C>
Status Of(C& c, Value& v) {
  VKHLO_RETURN_IF_ERROR(c.Enum("value kind", v.kind, Value::Kind::kTuple));
  VKHLO_RETURN_IF_ERROR(Of(c, v.type));
  VKHLO_RETURN_IF_ERROR(c.Enum("placement", v.placement, Value::Placement::kArgument));
  VKHLO_RETURN_IF_ERROR(c.U32("placement index", v.index));
  VKHLO_RETURN_IF_ERROR(c.U64("offset", v.offset));
  VKHLO_RETURN_IF_ERROR(c.U64("bytes", v.bytes));
  return c.String("name", v.name);
}

template <class C>
Status Of(C& c, BufferRef& r) {
  VKHLO_RETURN_IF_ERROR(c.Enum("buffer kind", r.kind, BufferRef::Kind::kConstant));
  VKHLO_RETURN_IF_ERROR(c.U32("buffer index", r.index));
  VKHLO_RETURN_IF_ERROR(c.U64("buffer offset", r.offset));
  return c.U64("buffer bytes", r.bytes);
}

template <class C>
Status Of(C& c, Dispatch& d) {
  VKHLO_RETURN_IF_ERROR(c.U32("kernel", d.kernel));
  VKHLO_RETURN_IF_ERROR(c.List("bindings", d.bindings, 21, [&](BufferRef& r) { return Of(c, r); }));
  VKHLO_RETURN_IF_ERROR(c.BoolList("written", d.written));
  for (uint32_t& g : d.grid) VKHLO_RETURN_IF_ERROR(c.U32("grid", g));
  VKHLO_RETURN_IF_ERROR(U32s(c, "push words", d.push_words));
  VKHLO_RETURN_IF_ERROR(c.Bool("skip in place", d.skip_in_place));
  VKHLO_RETURN_IF_ERROR(c.Bool("loop invariant", d.loop_invariant));
  VKHLO_RETURN_IF_ERROR(c.String("config", d.config));
  return c.U64("flops", d.flops);
}

template <class C>
Status Of(C& c, DispatchStep& s) {
  VKHLO_RETURN_IF_ERROR(U32s(c, "inputs", s.inputs));
  VKHLO_RETURN_IF_ERROR(U32s(c, "outputs", s.outputs));
  VKHLO_RETURN_IF_ERROR(c.List("dispatches", s.dispatches, 1, [&](Dispatch& d) { return Of(c, d); }));
  VKHLO_RETURN_IF_ERROR(c.List("in-place outputs", s.in_place, 16, [&](InPlaceOutput& p) {
    VKHLO_RETURN_IF_ERROR(c.U32("in-place output", p.output));
    VKHLO_RETURN_IF_ERROR(c.U32("in-place input", p.input));
    return c.U64("bytes written", p.bytes_written);
  }));
  VKHLO_RETURN_IF_ERROR(c.U32("binding alignment", s.binding_alignment));
  return c.I32("profile", s.profile);
}

template <class C>
Status Of(C& c, CopyStep& s) {
  VKHLO_RETURN_IF_ERROR(Of(c, s.from));
  return Of(c, s.to);
}

template <class C>
Status Of(C& c, FillStep& s) {
  VKHLO_RETURN_IF_ERROR(Of(c, s.to));
  return c.U32("fill word", s.word);
}

// A transform, as an FftStep and the FftKernels made for it both name it.
template <class C>
Status FftTransform(C& c, FftStep::Type& type, bool& double_precision, std::vector<uint64_t>& lengths,
                    uint64_t& batch) {
  VKHLO_RETURN_IF_ERROR(c.Enum("fft type", type, FftStep::Type::kIrfft));
  VKHLO_RETURN_IF_ERROR(c.Bool("double precision", double_precision));
  VKHLO_RETURN_IF_ERROR(U64s(c, "fft lengths", lengths));
  return c.U64("fft batch", batch);
}

template <class C>
Status Of(C& c, FftStep& s) {
  VKHLO_RETURN_IF_ERROR(FftTransform(c, s.type, s.double_precision, s.lengths, s.batch));
  VKHLO_RETURN_IF_ERROR(c.U32("fft operand", s.operand));
  VKHLO_RETURN_IF_ERROR(c.U32("fft result", s.result));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, FftKernels& k) {
  VKHLO_RETURN_IF_ERROR(FftTransform(c, k.type, k.double_precision, k.lengths, k.batch));
  VKHLO_RETURN_IF_ERROR(c.U32("VkFFT version", k.vkfft_version));
  VKHLO_RETURN_IF_ERROR(c.U32("vendor id", k.vendor_id));
  VKHLO_RETURN_IF_ERROR(c.U32("workgroup invocations", k.max_workgroup_invocations));
  VKHLO_RETURN_IF_ERROR(c.U32("shared memory bytes", k.max_shared_memory_bytes));
  VKHLO_RETURN_IF_ERROR(U32s(c, "workgroup size", k.max_workgroup_size));
  VKHLO_RETURN_IF_ERROR(U32s(c, "workgroup count", k.max_workgroup_count));
  return U32s(c, "VkFFT kernels", k.words);
}

template <class C>
Status Of(C& c, CollectiveStep& s) {
  VKHLO_RETURN_IF_ERROR(c.Enum("collective kind", s.kind, CollectiveStep::Kind::kCollectiveBroadcast));
  VKHLO_RETURN_IF_ERROR(c.Enum("group strategy", s.groups, CollectiveStep::Groups::kFlattenedIds));
  VKHLO_RETURN_IF_ERROR(c.List("replica groups", s.replica_groups, 4,
                               [&](std::vector<int64_t>& g) { return I64s(c, "replica group", g); }));
  VKHLO_RETURN_IF_ERROR(c.I64("channel id", s.channel_id));
  VKHLO_RETURN_IF_ERROR(c.I64("dimension", s.dimension));
  VKHLO_RETURN_IF_ERROR(c.I64("concat dimension", s.concat_dimension));
  VKHLO_RETURN_IF_ERROR(c.I64("split count", s.split_count));
  VKHLO_RETURN_IF_ERROR(c.List("source-target pairs", s.source_target_pairs, 16, [&](std::pair<int64_t, int64_t>& p) {
    VKHLO_RETURN_IF_ERROR(c.I64("source", p.first));
    return c.I64("target", p.second);
  }));
  VKHLO_RETURN_IF_ERROR(c.Bool("dynamic root", s.dynamic_root));
  VKHLO_RETURN_IF_ERROR(c.I32("reducer", s.reducer));
  VKHLO_RETURN_IF_ERROR(c.List("exact reductions", s.exact, 1, [&](CollectiveStep::ExactReduction& e) {
    return c.Enum("exact reduction", e, CollectiveStep::ExactReduction::kXor);
  }));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", s.results));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, ProcessStep& s) {
  VKHLO_RETURN_IF_ERROR(c.Enum("process op kind", s.kind, ProcessStep::Kind::kOutfeed));
  VKHLO_RETURN_IF_ERROR(c.I64("channel id", s.channel_id));
  VKHLO_RETURN_IF_ERROR(c.Bool("host transfer", s.host_transfer));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", s.results));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, CustomCallStep& s) {
  VKHLO_RETURN_IF_ERROR(c.String("call target", s.target));
  VKHLO_RETURN_IF_ERROR(c.I64("API version", s.api_version));
  VKHLO_RETURN_IF_ERROR(c.Bytes("backend config", s.backend_config));
  VKHLO_RETURN_IF_ERROR(c.Bool("has side effect", s.has_side_effect));
  VKHLO_RETURN_IF_ERROR(c.Bool("host callback", s.host_callback));
  if (!s.host_callback) VKHLO_RETURN_IF_ERROR(Of(c, s.dispatch));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", s.results));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, ScalarRead& r) {
  VKHLO_RETURN_IF_ERROR(c.U32("scalar value", r.value));
  VKHLO_RETURN_IF_ERROR(c.U8("scalar bytes", r.bytes));
  return c.Bool("scalar signed", r.is_signed);
}

template <class C>
Status Of(C& c, WhileStep& s) {
  VKHLO_RETURN_IF_ERROR(c.U32("condition list", s.cond));
  VKHLO_RETURN_IF_ERROR(c.U32("body list", s.body));
  VKHLO_RETURN_IF_ERROR(Of(c, s.predicate));
  VKHLO_RETURN_IF_ERROR(c.I64("trip count", s.trip_count));
  VKHLO_RETURN_IF_ERROR(c.Bool("batched", s.batched));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", s.results));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, BranchStep& s) {
  VKHLO_RETURN_IF_ERROR(c.Bool("is case", s.is_case));
  VKHLO_RETURN_IF_ERROR(Of(c, s.selector));
  VKHLO_RETURN_IF_ERROR(U32s(c, "branches", s.branches));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", s.results));
  return c.String("location", s.location);
}

template <class C>
Status Of(C& c, CallStep& s) {
  VKHLO_RETURN_IF_ERROR(c.U32("function", s.function));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  return U32s(c, "results", s.results);
}

template <class C>
Status Of(C& c, ValueStep& s) {
  VKHLO_RETURN_IF_ERROR(c.Enum("value step kind", s.kind, ValueStep::Kind::kToken));
  VKHLO_RETURN_IF_ERROR(c.U32("tuple index", s.index));
  VKHLO_RETURN_IF_ERROR(U32s(c, "operands", s.operands));
  return U32s(c, "results", s.results);
}

// A step: the barrier bits, the kind (the variant's index: 0 dispatch, 1 copy, 2 fill, 3 fft,
// 4 collective, 5 process op, 6 custom call, 7 while, 8 if/case, 9 call, 10 value step), then
// the kind's fields.
template <class C>
Status Of(C& c, Step& s) {
  VKHLO_RETURN_IF_ERROR(c.U8("barrier", s.barrier));
  VKHLO_RETURN_IF_ERROR(c.Variant("step kind", s.op));
  return std::visit([&](auto& op) { return Of(c, op); }, s.op);
}

template <class C>
Status Of(C& c, StepList& l) {
  VKHLO_RETURN_IF_ERROR(c.Enum("list role", l.role, StepList::Role::kReducer));
  VKHLO_RETURN_IF_ERROR(c.String("list name", l.name));
  VKHLO_RETURN_IF_ERROR(U32s(c, "arguments", l.arguments));
  VKHLO_RETURN_IF_ERROR(U32s(c, "results", l.results));
  VKHLO_RETURN_IF_ERROR(c.List("slots", l.slots, 20, [&](Slot& s) {
    VKHLO_RETURN_IF_ERROR(c.U64("slot bytes", s.bytes));
    VKHLO_RETURN_IF_ERROR(c.U32("slot alignment", s.alignment));
    VKHLO_RETURN_IF_ERROR(c.U32("slot first step", s.first_step));
    return c.U32("slot last step", s.last_step);
  }));
  return c.List("segments", l.segments, 4, [&](Segment& seg) {
    return c.List("steps", seg.steps, 2, [&](Step& s) { return Of(c, s); });
  });
}

// A double as its IEEE-754 bits (u64).
template <class C>
Status F64(C& c, const char* what, double& x) {
  uint64_t bits = std::bit_cast<uint64_t>(x);
  VKHLO_RETURN_IF_ERROR(c.U64(what, bits));
  x = std::bit_cast<double>(bits);
  return OkStatus();
}

template <class C>
Status Of(C& c, TestCheck& k) {
  VKHLO_RETURN_IF_ERROR(c.Enum("comparison", k.comparison, TestCheck::Comparison::kClose));
  VKHLO_RETURN_IF_ERROR(F64(c, "tolerance", k.tolerance));
  VKHLO_RETURN_IF_ERROR(c.I64("max ULP difference", k.max_ulp_difference));
  VKHLO_RETURN_IF_ERROR(c.I64("min ULP difference", k.min_ulp_difference));
  VKHLO_RETURN_IF_ERROR(c.Bool("has expected", k.has_expected));
  if (k.has_expected) {
    VKHLO_RETURN_IF_ERROR(Of(c, k.expected_type));
    VKHLO_RETURN_IF_ERROR(c.Bytes("expected bytes", k.expected_bytes));
  }
  VKHLO_RETURN_IF_ERROR(c.String("location", k.location));
  VKHLO_RETURN_IF_ERROR(c.I64("actual result", k.actual_result));
  return c.I64("expected result", k.expected_result);
}

template <class C>
Status Of(C& c, TestChecks& t) {
  VKHLO_RETURN_IF_ERROR(c.String("test function", t.function));
  VKHLO_RETURN_IF_ERROR(c.I64("program results", t.program_results));
  VKHLO_RETURN_IF_ERROR(c.List("result checks", t.results, 46, [&](TestCheck& k) { return Of(c, k); }));
  VKHLO_RETURN_IF_ERROR(c.List("nested checks", t.nested, 46, [&](TestCheck& k) { return Of(c, k); }));
  VKHLO_RETURN_IF_ERROR(c.List("probe ids", t.probe_ids, 4, [&](std::string& id) { return c.String("probe id", id); }));
  return c.List("serialized checks", t.serialized, 16, [&](SerializedTestCheck& k) {
    VKHLO_RETURN_IF_ERROR(c.String("probe key", k.probe_key));
    VKHLO_RETURN_IF_ERROR(c.I64("result", k.result));
    return c.String("location", k.location);
  });
}

}  // namespace vkhlo::plan::fields
