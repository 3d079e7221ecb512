// What the plugin reads of PJRT_Client_Compile's options: a serialized xla.CompileOptionsProto,
// read with a small protobuf wire-format reader (no protobuf dependency). vkhlo runs a program
// on one device, so the fields that matter say how many devices the framework means to run it
// on: ExecutableBuildOptionsProto's num_replicas and num_partitions and its device assignment,
// and whether the arguments come as one tuple. Every other field is skipped by its wire type.
//
// Field numbers (xla/pjrt/proto/compile_options.proto):
//   CompileOptionsProto: 2 parameter_is_tupled_arguments (bool), 3 executable_build_options
//   ExecutableBuildOptionsProto: 1 device_ordinal, 4 num_replicas, 5 num_partitions,
//     9 device_assignment
//   DeviceAssignmentProto: 1 replica_count, 2 computation_count, 3 computation_devices
//     (ComputationDevice: 1 replica_device_ids, repeated int64, packed or not)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::pjrt {

struct CompileOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  int64_t device_ordinal = -1;
  bool parameter_is_tupled_arguments = false;
  std::vector<int64_t> assigned_devices;  // every device id the device assignment names
};

// INVALID_ARGUMENT naming the byte for malformed bytes. Empty bytes are the defaults.
StatusOr<CompileOptions> ParseCompileOptions(std::span<const uint8_t> bytes);

// OK when the options ask for what the plugin runs: one replica of one partition, on device 0,
// untupled arguments; otherwise UNIMPLEMENTED saying what was asked.
Status CheckRunnable(const CompileOptions& options);

}  // namespace vkhlo::pjrt
