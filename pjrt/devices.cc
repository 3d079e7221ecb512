// The client's device, its description and its memory: what jax.devices() shows.
#include <fmt/format.h>

#include "pjrt/entry_points.h"
#include "pjrt/errors.h"
#include "pjrt/objects.h"

namespace vkhlo::pjrt {
namespace {

void SetString(const std::string& value, const char*& out, size_t& size) {
  out = value.data();
  size = value.size();
}

}  // namespace

#define VKHLO_PJRT_REQUIRE(pointer, function) VKHLO_RETURN_IF_ERROR(RequireNonNull(pointer, function, #pointer))

PJRT_Error* DeviceDescriptionId(PJRT_DeviceDescription_Id_Args* args) {
  return Guard("PJRT_DeviceDescription_Id", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_Id_Args, "PJRT_DeviceDescription_Id");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_Id");
    args->id = args->device_description->id;
    return OkStatus();
  });
}

PJRT_Error* DeviceDescriptionProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args) {
  return Guard("PJRT_DeviceDescription_ProcessIndex", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_ProcessIndex_Args, "PJRT_DeviceDescription_ProcessIndex");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_ProcessIndex");
    args->process_index = args->device_description->process_index;
    return OkStatus();
  });
}

PJRT_Error* DeviceDescriptionAttributes(PJRT_DeviceDescription_Attributes_Args* args) {
  return Guard("PJRT_DeviceDescription_Attributes", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_Attributes_Args, "PJRT_DeviceDescription_Attributes");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_Attributes");
    const std::vector<PJRT_NamedValue>& values = args->device_description->attributes.values;
    args->attributes = values.data();
    args->num_attributes = values.size();
    return OkStatus();
  });
}

PJRT_Error* DeviceDescriptionKind(PJRT_DeviceDescription_Kind_Args* args) {
  return Guard("PJRT_DeviceDescription_Kind", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_Kind_Args, "PJRT_DeviceDescription_Kind");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_Kind");
    SetString(args->device_description->kind, args->device_kind, args->device_kind_size);
    return OkStatus();
  });
}

PJRT_Error* DeviceDescriptionDebugString(PJRT_DeviceDescription_DebugString_Args* args) {
  return Guard("PJRT_DeviceDescription_DebugString", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_DebugString_Args, "PJRT_DeviceDescription_DebugString");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_DebugString");
    SetString(args->device_description->debug_string, args->debug_string, args->debug_string_size);
    return OkStatus();
  });
}

PJRT_Error* DeviceDescriptionToString(PJRT_DeviceDescription_ToString_Args* args) {
  return Guard("PJRT_DeviceDescription_ToString", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_DeviceDescription_ToString_Args, "PJRT_DeviceDescription_ToString");
    VKHLO_PJRT_REQUIRE(args->device_description, "PJRT_DeviceDescription_ToString");
    SetString(args->device_description->to_string, args->to_string, args->to_string_size);
    return OkStatus();
  });
}

PJRT_Error* DeviceGetDescription(PJRT_Device_GetDescription_Args* args) {
  return Guard("PJRT_Device_GetDescription", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Device_GetDescription_Args, "PJRT_Device_GetDescription");
    VKHLO_PJRT_REQUIRE(args->device, "PJRT_Device_GetDescription");
    args->device_description = &args->device->description;
    return OkStatus();
  });
}

PJRT_Error* DeviceIsAddressable(PJRT_Device_IsAddressable_Args* args) {
  return Guard("PJRT_Device_IsAddressable", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Device_IsAddressable_Args, "PJRT_Device_IsAddressable");
    VKHLO_PJRT_REQUIRE(args->device, "PJRT_Device_IsAddressable");
    args->is_addressable = true;
    return OkStatus();
  });
}

PJRT_Error* DeviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  return Guard("PJRT_Device_LocalHardwareId", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Device_LocalHardwareId_Args, "PJRT_Device_LocalHardwareId");
    VKHLO_PJRT_REQUIRE(args->device, "PJRT_Device_LocalHardwareId");
    args->local_hardware_id = args->device->description.id;
    return OkStatus();
  });
}

PJRT_Error* DeviceAddressableMemories(PJRT_Device_AddressableMemories_Args* args) {
  return Guard("PJRT_Device_AddressableMemories", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Device_AddressableMemories_Args, "PJRT_Device_AddressableMemories");
    VKHLO_PJRT_REQUIRE(args->device, "PJRT_Device_AddressableMemories");
    args->memories = args->device->memories.data();
    args->num_memories = args->device->memories.size();
    return OkStatus();
  });
}

PJRT_Error* DeviceDefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  return Guard("PJRT_Device_DefaultMemory", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Device_DefaultMemory_Args, "PJRT_Device_DefaultMemory");
    VKHLO_PJRT_REQUIRE(args->device, "PJRT_Device_DefaultMemory");
    args->memory = args->device->memories.front();
    return OkStatus();
  });
}

PJRT_Error* MemoryId(PJRT_Memory_Id_Args* args) {
  return Guard("PJRT_Memory_Id", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_Id_Args, "PJRT_Memory_Id");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_Id");
    args->id = args->memory->id;
    return OkStatus();
  });
}

PJRT_Error* MemoryKind(PJRT_Memory_Kind_Args* args) {
  return Guard("PJRT_Memory_Kind", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_Kind_Args, "PJRT_Memory_Kind");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_Kind");
    SetString(args->memory->kind, args->kind, args->kind_size);
    return OkStatus();
  });
}

PJRT_Error* MemoryKindId(PJRT_Memory_Kind_Id_Args* args) {
  return Guard("PJRT_Memory_Kind_Id", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_Kind_Id_Args, "PJRT_Memory_Kind_Id");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_Kind_Id");
    args->kind_id = 0;  // the one kind, "device"
    return OkStatus();
  });
}

PJRT_Error* MemoryDebugString(PJRT_Memory_DebugString_Args* args) {
  return Guard("PJRT_Memory_DebugString", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_DebugString_Args, "PJRT_Memory_DebugString");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_DebugString");
    SetString(args->memory->debug_string, args->debug_string, args->debug_string_size);
    return OkStatus();
  });
}

PJRT_Error* MemoryToString(PJRT_Memory_ToString_Args* args) {
  return Guard("PJRT_Memory_ToString", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_ToString_Args, "PJRT_Memory_ToString");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_ToString");
    SetString(args->memory->to_string, args->to_string, args->to_string_size);
    return OkStatus();
  });
}

PJRT_Error* MemoryAddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args) {
  return Guard("PJRT_Memory_AddressableByDevices", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Memory_AddressableByDevices_Args, "PJRT_Memory_AddressableByDevices");
    VKHLO_PJRT_REQUIRE(args->memory, "PJRT_Memory_AddressableByDevices");
    args->devices = args->memory->devices.data();
    args->num_devices = args->memory->devices.size();
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
