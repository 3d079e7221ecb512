#include "ir/tensor_bytes.h"

#include <fmt/format.h>

#include "ir/walk.h"

namespace vkhlo::ir {

std::optional<uint64_t> TensorStorageBytes(const Type& type) {
  if (type.is_tuple()) {
    uint64_t total = 0;
    for (const Type& element : type.tuple_elements()) {
      std::optional<uint64_t> bytes = TensorStorageBytes(element);
      if (!bytes || __builtin_add_overflow(total, *bytes, &total) || total > uint64_t{INT64_MAX}) return std::nullopt;
    }
    return total;
  }
  if (!type.is_tensor()) return 0;
  if (type.num_elements() < 0) return std::nullopt;
  int64_t bytes = 0;
  if (__builtin_mul_overflow(type.num_elements(), int64_t{StorageBytes(type.element_type())}, &bytes)) {
    return std::nullopt;
  }
  return static_cast<uint64_t>(bytes);
}

Status CheckTensorsFit(const Module& module, uint64_t limit_bytes, std::string_view memory,
                       const std::function<bool(const Operation&, const Type&)>& checked_later) {
  const auto fits = [&](const Type& type) {
    if (!type.is_static()) return true;  // dynamic sizes are checked once known (refinement, interpreter values)
    const std::optional<uint64_t> bytes = TensorStorageBytes(type);
    return bytes && *bytes <= limit_bytes;
  };
  // Only on failure: `what` names the value's place, `location` where it was written.
  const auto error = [&](const Type& type, Location location, const std::string& what) {
    const std::string where = FormatLocation(module.source_name(), location);
    const std::optional<uint64_t> bytes = TensorStorageBytes(type);
    return ResourceExhaustedError(fmt::format("{}{}error: {} of type {} needs {} bytes, more than the {} bytes of {}",
                                              where, where.empty() ? "" : ": ", what, type.ToString(),
                                              bytes ? fmt::format("{}", *bytes) : std::string("more than 2^63"),
                                              limit_bytes, memory));
  };
  for (const auto& function : module.functions()) {
    for (const auto* types : {&function->type().inputs, &function->type().results}) {
      for (const Type& t : *types) {
        if (!fits(t)) return error(t, function->location(), fmt::format("@{}'s signature", function->name()));
      }
    }
  }
  Status status = OkStatus();
  WalkOps(module, [&](Operation& op) {
    for (size_t i = 0; i < op.num_results() && status.ok(); ++i) {
      if (checked_later && checked_later(op, op.result(i)->type())) continue;
      if (!fits(op.result(i)->type())) status = error(op.result(i)->type(), op.location(), fmt::format("'{}' result", op.name()));
    }
    for (size_t r = 0; r < op.num_regions() && status.ok(); ++r) {
      for (const auto& block : op.region(r).blocks()) {
        for (const auto& argument : block->arguments()) {
          if (status.ok() && !fits(argument->type())) {
            status = error(argument->type(), op.location(), fmt::format("'{}' region argument", op.name()));
          }
        }
      }
    }
  });
  return status;
}

}  // namespace vkhlo::ir
