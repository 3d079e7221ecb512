#include "pjrt/compile_options.h"

#include <fmt/format.h>

#include <functional>
#include <string_view>

namespace vkhlo::pjrt {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

// A protobuf message's bytes; offsets in messages count from the start of the whole proto.
class WireReader {
 public:
  WireReader(std::span<const uint8_t> bytes, size_t base) : bytes_(bytes), base_(base) {}

  bool done() const { return pos_ >= bytes_.size(); }
  size_t offset() const { return base_ + pos_; }

  StatusOr<uint64_t> Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return Error("a varint runs past the end");
      const uint8_t byte = bytes_[pos_++];
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return Error("a varint is longer than 10 bytes");
  }

  StatusOr<WireReader> Message() {
    VKHLO_ASSIGN_OR_RETURN(uint64_t length, Varint());
    if (length > bytes_.size() - pos_) return Error(fmt::format("a field of {} bytes runs past the end", length));
    WireReader nested(bytes_.subspan(pos_, length), base_ + pos_);
    pos_ += length;
    return nested;
  }

  Status Skip(uint32_t wire_type) {
    switch (wire_type) {
      case kVarint:
        return Varint().status();
      case kFixed64:
        return Advance(8);
      case kFixed32:
        return Advance(4);
      case kLengthDelimited:
        return Message().status();
      default:
        return Error(fmt::format("wire type {} is not supported (groups are deprecated)", wire_type));
    }
  }

  Status Error(std::string_view what) const {
    return InvalidArgumentError(fmt::format("compile options (xla.CompileOptionsProto): byte {}: {}", offset(), what));
  }

 private:
  Status Advance(size_t n) {
    if (n > bytes_.size() - pos_) return Error("a fixed-size field runs past the end");
    pos_ += n;
    return OkStatus();
  }

  std::span<const uint8_t> bytes_;
  size_t base_;
  size_t pos_ = 0;
};

// Calls `field(number, wire_type, reader)` for each field of the message; `field` reads the
// value or returns false to have it skipped.
Status ForEachField(WireReader& reader, const std::function<StatusOr<bool>(uint32_t, uint32_t, WireReader&)>& field) {
  while (!reader.done()) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t tag, reader.Varint());
    const uint32_t number = static_cast<uint32_t>(tag >> 3);
    const uint32_t wire_type = static_cast<uint32_t>(tag & 7);
    if (number == 0) return reader.Error("field number 0");
    VKHLO_ASSIGN_OR_RETURN(bool consumed, field(number, wire_type, reader));
    if (!consumed) VKHLO_RETURN_IF_ERROR(reader.Skip(wire_type));
  }
  return OkStatus();
}

StatusOr<int64_t> VarintField(WireReader& reader, uint32_t wire_type, std::string_view name) {
  if (wire_type != kVarint) return reader.Error(fmt::format("{} has wire type {}, expected a varint", name, wire_type));
  VKHLO_ASSIGN_OR_RETURN(uint64_t value, reader.Varint());
  return static_cast<int64_t>(value);
}

// ComputationDevice.replica_device_ids: repeated int64, packed (wire type 2) or one per field.
Status ReadComputationDevice(WireReader& reader, std::vector<int64_t>& devices) {
  return ForEachField(reader, [&](uint32_t number, uint32_t wire_type, WireReader& r) -> StatusOr<bool> {
    if (number != 1) return false;
    if (wire_type == kLengthDelimited) {
      VKHLO_ASSIGN_OR_RETURN(WireReader packed, r.Message());
      while (!packed.done()) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t id, packed.Varint());
        devices.push_back(static_cast<int64_t>(id));
      }
      return true;
    }
    VKHLO_ASSIGN_OR_RETURN(int64_t id, VarintField(r, wire_type, "replica_device_ids"));
    devices.push_back(id);
    return true;
  });
}

Status ReadDeviceAssignment(WireReader& reader, std::vector<int64_t>& devices) {
  return ForEachField(reader, [&](uint32_t number, uint32_t wire_type, WireReader& r) -> StatusOr<bool> {
    if (number != 3 || wire_type != kLengthDelimited) return false;
    VKHLO_ASSIGN_OR_RETURN(WireReader device, r.Message());
    VKHLO_RETURN_IF_ERROR(ReadComputationDevice(device, devices));
    return true;
  });
}

Status ReadBuildOptions(WireReader& reader, CompileOptions& options) {
  return ForEachField(reader, [&](uint32_t number, uint32_t wire_type, WireReader& r) -> StatusOr<bool> {
    switch (number) {
      case 1: {
        VKHLO_ASSIGN_OR_RETURN(options.device_ordinal, VarintField(r, wire_type, "device_ordinal"));
        return true;
      }
      case 4: {
        VKHLO_ASSIGN_OR_RETURN(options.num_replicas, VarintField(r, wire_type, "num_replicas"));
        return true;
      }
      case 5: {
        VKHLO_ASSIGN_OR_RETURN(options.num_partitions, VarintField(r, wire_type, "num_partitions"));
        return true;
      }
      case 9: {
        if (wire_type != kLengthDelimited) return false;
        VKHLO_ASSIGN_OR_RETURN(WireReader assignment, r.Message());
        VKHLO_RETURN_IF_ERROR(ReadDeviceAssignment(assignment, options.assigned_devices));
        return true;
      }
      default:
        return false;
    }
  });
}

}  // namespace

StatusOr<CompileOptions> ParseCompileOptions(std::span<const uint8_t> bytes) {
  CompileOptions options;
  WireReader reader(bytes, 0);
  VKHLO_RETURN_IF_ERROR(ForEachField(reader, [&](uint32_t number, uint32_t wire_type, WireReader& r) -> StatusOr<bool> {
    if (number == 2) {
      VKHLO_ASSIGN_OR_RETURN(int64_t tupled, VarintField(r, wire_type, "parameter_is_tupled_arguments"));
      options.parameter_is_tupled_arguments = tupled != 0;
      return true;
    }
    if (number == 3 && wire_type == kLengthDelimited) {
      VKHLO_ASSIGN_OR_RETURN(WireReader build, r.Message());
      VKHLO_RETURN_IF_ERROR(ReadBuildOptions(build, options));
      return true;
    }
    return false;
  }));
  return options;
}

Status CheckRunnable(const CompileOptions& options) {
  if (options.num_replicas != 1 || options.num_partitions != 1) {
    return UnimplementedError(fmt::format(
        "the program is compiled for {} replica(s) x {} partition(s), but the vkhlo plugin runs a program on one "
        "device (no pmap, no sharding over several devices)",
        options.num_replicas, options.num_partitions));
  }
  if (options.device_ordinal > 0) {
    return InvalidArgumentError(fmt::format(
        "the compile options ask for device ordinal {}; the vkhlo plugin has device 0 only", options.device_ordinal));
  }
  for (int64_t device : options.assigned_devices) {
    if (device != 0) {
      return InvalidArgumentError(
          fmt::format("the compile options assign the program to device {}; the vkhlo plugin has device 0 only", device));
    }
  }
  if (options.parameter_is_tupled_arguments) {
    return UnimplementedError("the compile options pass the arguments as one tuple; the vkhlo plugin takes them one by one");
  }
  return OkStatus();
}

}  // namespace vkhlo::pjrt
