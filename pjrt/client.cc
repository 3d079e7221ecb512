// The plugin's initialization and attributes, and the client: created over the Vulkan device
// vkhlo picks, with its one device and one memory.
#include <fmt/format.h>

#include <string_view>

#include "pjrt/entry_points.h"
#include "pjrt/errors.h"
#include "pjrt/objects.h"
#include "vkhlo/portable_artifact.h"

namespace vkhlo::pjrt {
namespace {

constexpr std::string_view kPlatformName = "vkhlo";

std::vector<int64_t> VersionList(const StableHloVersion& version) {
  return {version.major, version.minor, version.patch};
}

// The StableHLO versions vkhlo's portable-artifact reader supports: the framework serializes
// the programs it compiles for the newest of them it knows (JAX 0.10.2: min(this, 1.17.0)),
// so newer JAX releases send what vkhlo reads.
const NamedValues& PluginAttributeValues() {
  static const NamedValues* values = [] {
    auto* v = new NamedValues;
    v->AddInt64List("stablehlo_current_version", VersionList(PortableArtifactNewestVersion()));
    v->AddInt64List("stablehlo_minimum_version", VersionList(PortableArtifactOldestVersion()));
    return v;
  }();
  return *values;
}

std::string_view NameOf(const PJRT_NamedValue& option) { return std::string_view(option.name, option.name_size); }

StatusOr<std::string> StringOption(const PJRT_NamedValue& option) {
  if (option.type == PJRT_NamedValue_kString) return std::string(option.string_value, option.value_size);
  if (option.type == PJRT_NamedValue_kInt64) return std::to_string(option.int64_value);
  return InvalidArgumentError(fmt::format("PJRT_Client_Create: option '{}' must be a string", NameOf(option)));
}

StatusOr<int64_t> IntOption(const PJRT_NamedValue& option) {
  if (option.type == PJRT_NamedValue_kInt64 && option.int64_value >= 0) return option.int64_value;
  return InvalidArgumentError(fmt::format("PJRT_Client_Create: option '{}' must be a non-negative integer", NameOf(option)));
}

struct CreateOptions {
  ClientOptions client;
  uint64_t compile_cache_entries = CompileCache::kDefaultEntries;
};

// The create options (jax's register_plugin(..., options={...})): device (index or name
// substring), profile ("native" / "mobile"), validation, device_memory_limit (bytes),
// compile_cache_entries. What is not given comes from the environment, as for any vkhlo
// client (VKHLO_DEVICE, VKHLO_PROFILE, ...).
StatusOr<CreateOptions> ReadCreateOptions(const PJRT_NamedValue* options, size_t count) {
  CreateOptions result;
  if (count > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(options, "PJRT_Client_Create", "create_options"));
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& option = options[i];
    const std::string_view name = NameOf(option);
    if (name == "device") {
      VKHLO_ASSIGN_OR_RETURN(result.client.device, StringOption(option));
    } else if (name == "profile") {
      VKHLO_ASSIGN_OR_RETURN(result.client.profile, StringOption(option));
    } else if (name == "validation") {
      if (option.type == PJRT_NamedValue_kBool) {
        result.client.validation = option.bool_value;
      } else {
        VKHLO_ASSIGN_OR_RETURN(int64_t value, IntOption(option));
        result.client.validation = value != 0;
      }
    } else if (name == "device_memory_limit") {
      VKHLO_ASSIGN_OR_RETURN(int64_t bytes, IntOption(option));
      result.client.device_memory_limit = static_cast<uint64_t>(bytes);
    } else if (name == "compile_cache_entries") {
      VKHLO_ASSIGN_OR_RETURN(int64_t entries, IntOption(option));
      result.compile_cache_entries = static_cast<uint64_t>(entries);
    } else {
      return InvalidArgumentError(fmt::format(
          "PJRT_Client_Create: unknown option '{}' (the vkhlo plugin takes device, profile, validation, "
          "device_memory_limit, compile_cache_entries)",
          name));
    }
  }
  return result;
}

// Wires the client's one device and one memory to each other.
void DescribeDevice(PJRT_Client& c) {
  const std::string description = c.client->device_description();
  c.devices = {&c.device};
  c.memories = {&c.memory};
  c.device.client = &c;
  c.device.memories = {&c.memory};
  PJRT_DeviceDescription& d = c.device.description;
  d.kind = description;
  d.to_string = "VkhloDevice(id=0)";
  d.debug_string = fmt::format("vkhlo:0 {}", description);
  // Read by JAX as attributes of the device object: jax.devices()[0].vulkan_device.
  d.attributes.AddString("vulkan_device", description);
  c.memory.client = &c;
  c.memory.devices = {&c.device};
  c.memory.to_string = "VkhloMemory(kind=device, id=0)";
  c.memory.debug_string = fmt::format("vkhlo device memory of {}", description);
  c.platform_version = fmt::format("vkhlo {} (PJRT C API {}.{}) on {}", VKHLO_PJRT_PLUGIN_VERSION, PJRT_API_MAJOR,
                                   PJRT_API_MINOR, description);
}

Status RequireClient(const PJRT_Client* client, std::string_view function) {
  return RequireNonNull(client, function, "client");
}

template <typename T>
void SetList(const std::vector<T*>& list, T* const*& out, size_t& count) {
  out = list.data();
  count = list.size();
}

}  // namespace

PJRT_Error* PluginInitialize(PJRT_Plugin_Initialize_Args* args) {
  return Guard("PJRT_Plugin_Initialize", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Plugin_Initialize_Args, "PJRT_Plugin_Initialize");
    return OkStatus();
  });
}

PJRT_Error* PluginAttributes(PJRT_Plugin_Attributes_Args* args) {
  return Guard("PJRT_Plugin_Attributes", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Plugin_Attributes_Args, "PJRT_Plugin_Attributes");
    const NamedValues& values = PluginAttributeValues();
    args->attributes = values.values.data();
    args->num_attributes = values.values.size();
    return OkStatus();
  });
}

PJRT_Error* ClientCreate(PJRT_Client_Create_Args* args) {
  return Guard("PJRT_Client_Create", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_Create_Args, "PJRT_Client_Create");
    VKHLO_ASSIGN_OR_RETURN(CreateOptions options, ReadCreateOptions(args->create_options, args->num_options));
    auto client = std::make_unique<PJRT_Client>();
    VKHLO_ASSIGN_OR_RETURN(client->client, Client::Create(options.client));
    client->compile_cache.set_capacity(options.compile_cache_entries);
    DescribeDevice(*client);
    client->executor = std::make_unique<Executor>();
    args->client = client.release();
    return OkStatus();
  });
}

PJRT_Error* ClientDestroy(PJRT_Client_Destroy_Args* args) {
  return Guard("PJRT_Client_Destroy", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_Destroy_Args, "PJRT_Client_Destroy");
    delete args->client;  // the executor first: queued work runs to its end
    return OkStatus();
  });
}

PJRT_Error* ClientPlatformName(PJRT_Client_PlatformName_Args* args) {
  return Guard("PJRT_Client_PlatformName", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_PlatformName_Args, "PJRT_Client_PlatformName");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_PlatformName"));
    args->platform_name = kPlatformName.data();
    args->platform_name_size = kPlatformName.size();
    return OkStatus();
  });
}

PJRT_Error* ClientProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  return Guard("PJRT_Client_ProcessIndex", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_ProcessIndex_Args, "PJRT_Client_ProcessIndex");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_ProcessIndex"));
    args->process_index = 0;
    return OkStatus();
  });
}

PJRT_Error* ClientPlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  return Guard("PJRT_Client_PlatformVersion", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_PlatformVersion_Args, "PJRT_Client_PlatformVersion");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_PlatformVersion"));
    args->platform_version = args->client->platform_version.data();
    args->platform_version_size = args->client->platform_version.size();
    return OkStatus();
  });
}

PJRT_Error* ClientDevices(PJRT_Client_Devices_Args* args) {
  return Guard("PJRT_Client_Devices", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_Devices_Args, "PJRT_Client_Devices");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_Devices"));
    SetList(args->client->devices, args->devices, args->num_devices);
    return OkStatus();
  });
}

PJRT_Error* ClientAddressableDevices(PJRT_Client_AddressableDevices_Args* args) {
  return Guard("PJRT_Client_AddressableDevices", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_AddressableDevices_Args, "PJRT_Client_AddressableDevices");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_AddressableDevices"));
    SetList(args->client->devices, args->addressable_devices, args->num_addressable_devices);
    return OkStatus();
  });
}

PJRT_Error* ClientLookupDevice(PJRT_Client_LookupDevice_Args* args) {
  return Guard("PJRT_Client_LookupDevice", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_LookupDevice_Args, "PJRT_Client_LookupDevice");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_LookupDevice"));
    if (args->id != 0) {
      return InvalidArgumentError(fmt::format("PJRT_Client_LookupDevice: no device {} (the vkhlo plugin has device 0)", args->id));
    }
    args->device = &args->client->device;
    return OkStatus();
  });
}

PJRT_Error* ClientLookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args) {
  return Guard("PJRT_Client_LookupAddressableDevice", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_LookupAddressableDevice_Args, "PJRT_Client_LookupAddressableDevice");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_LookupAddressableDevice"));
    if (args->local_hardware_id != 0) {
      return InvalidArgumentError(fmt::format(
          "PJRT_Client_LookupAddressableDevice: no device with local hardware id {} (the vkhlo plugin has 0)",
          args->local_hardware_id));
    }
    args->addressable_device = &args->client->device;
    return OkStatus();
  });
}

PJRT_Error* ClientAddressableMemories(PJRT_Client_AddressableMemories_Args* args) {
  return Guard("PJRT_Client_AddressableMemories", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_AddressableMemories_Args, "PJRT_Client_AddressableMemories");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_AddressableMemories"));
    SetList(args->client->memories, args->addressable_memories, args->num_addressable_memories);
    return OkStatus();
  });
}

PJRT_Error* ClientDefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args) {
  return Guard("PJRT_Client_DefaultDeviceAssignment", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_DefaultDeviceAssignment_Args, "PJRT_Client_DefaultDeviceAssignment");
    VKHLO_RETURN_IF_ERROR(RequireClient(args->client, "PJRT_Client_DefaultDeviceAssignment"));
    if (args->num_replicas != 1 || args->num_partitions != 1) {
      return UnimplementedError(fmt::format(
          "PJRT_Client_DefaultDeviceAssignment: {} replica(s) x {} partition(s) asked for; the vkhlo plugin has one device",
          args->num_replicas, args->num_partitions));
    }
    if (args->default_assignment_size < 1 || args->default_assignment == nullptr) {
      return InvalidArgumentError("PJRT_Client_DefaultDeviceAssignment: default_assignment must hold 1 entry");
    }
    args->default_assignment[0] = 0;
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
