// Buffers: from host memory (any byte strides), back to host memory (the layout asked for),
// on-device copies, and what a buffer says of itself. Uploads run during the call, so a new
// buffer and its done_with_host_buffer event are born ready; downloads of a buffer that a
// queued execution is still computing run on the client's executor, after it.
#include <fmt/format.h>

#include "pjrt/element_types.h"
#include "pjrt/entry_points.h"
#include "pjrt/errors.h"
#include "pjrt/host_layout.h"
#include "pjrt/objects.h"

namespace vkhlo::pjrt {
namespace {

Status RequireBuffer(const PJRT_Buffer* buffer, std::string_view function) {
  return RequireNonNull(buffer, function, "buffer");
}

// The buffer's value, or FAILED_PRECONDITION naming `function` when it was deleted or donated.
StatusOr<std::shared_ptr<BufferValue>> LiveValue(const PJRT_Buffer& buffer, std::string_view function) {
  std::shared_ptr<BufferValue> value = buffer.Value();
  if (value == nullptr) {
    return FailedPreconditionError(fmt::format("{}: the buffer ({}) has been deleted or donated", function, buffer.type.ToString()));
  }
  return value;
}

StatusOr<std::vector<int64_t>> ReadDims(const int64_t* dims, size_t num_dims, std::string_view function) {
  if (num_dims > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(dims, function, "dims"));
  std::vector<int64_t> result(dims, dims + num_dims);
  for (int64_t d : result) {
    if (d < 0) return InvalidArgumentError(fmt::format("{}: negative dimension {}", function, d));
  }
  return result;
}

// A copy of `source` sharing its device tensor (vkhlo's Buffers are immutable).
Status ShareOnDevice(PJRT_Buffer* source, PJRT_Buffer*& out, std::string_view function) {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferValue> value, LiveValue(*source, function));
  VKHLO_ASSIGN_OR_RETURN(out, NewBuffer(source->client, source->type, std::move(value)));
  return OkStatus();
}

// Downloads `value` into `dst`, laid out by `strides`; `dst` points at the element of index 0.
Status Download(const std::shared_ptr<BufferValue>& value, const TensorType& type, int64_t element_bytes,
                const std::vector<int64_t>& strides, uint8_t* dst) {
  VKHLO_ASSIGN_OR_RETURN(Buffer buffer, AwaitBuffer(value));
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, buffer.ToHost());
  CopyRowMajorToStrided(bytes.data(), type.dims, element_bytes, dst, strides);
  return OkStatus();
}

}  // namespace

PJRT_Error* ClientBufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args) {
  constexpr std::string_view kFunction = "PJRT_Client_BufferFromHostBuffer";
  return Guard(kFunction, [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_BufferFromHostBuffer_Args, kFunction);
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->client, kFunction, "client"));
    PJRT_Client& client = *args->client;
    if (args->device != nullptr && args->device != &client.device) {
      return InvalidArgumentError(fmt::format("{}: the device is not this client's", kFunction));
    }
    if (args->memory != nullptr && args->memory != &client.memory) {
      return InvalidArgumentError(fmt::format("{}: the memory is not this client's", kFunction));
    }
    VKHLO_ASSIGN_OR_RETURN(std::string element, VkhloElementType(args->type));
    VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ReadDims(args->dims, args->num_dims, kFunction));
    TensorType type{std::move(element), dims};
    const int64_t elements = type.num_elements();
    const int64_t element_bytes = HostElementBytes(args->type);
    if (elements < 0 || elements > INT64_MAX / element_bytes) {
      return InvalidArgumentError(fmt::format("{}: {} has too many elements", kFunction, type.ToString()));
    }
    if (args->device_layout != nullptr) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> device_strides,
                             ByteStridesOf(args->device_layout, dims, element_bytes, kFunction));
      if (!IsDenseRowMajor(device_strides, dims, element_bytes)) {
        return UnimplementedError(fmt::format("{}: the vkhlo plugin keeps tensors row-major; another device layout was asked for", kFunction));
      }
    }
    std::vector<int64_t> strides = RowMajorByteStrides(dims, element_bytes);
    if (args->num_byte_strides > 0) {
      if (args->num_byte_strides != dims.size() || args->byte_strides == nullptr) {
        return InvalidArgumentError(fmt::format("{}: {} byte strides for {} dimensions", kFunction, args->num_byte_strides, dims.size()));
      }
      strides.assign(args->byte_strides, args->byte_strides + args->num_byte_strides);
    }
    const size_t bytes = static_cast<size_t>(elements * element_bytes);
    if (bytes > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(args->data, kFunction, "data"));
    const auto* data = static_cast<const uint8_t*>(args->data);
    std::vector<uint8_t> dense;
    std::span<const uint8_t> host(data, data == nullptr ? 0 : bytes);
    if (!IsDenseRowMajor(strides, dims, element_bytes)) {
      dense.resize(bytes);
      CopyStridedToRowMajor(data, strides, dims, element_bytes, dense.data());
      host = dense;
    }
    // The copy is made now, whatever the host buffer semantics allow: the host data may be freed
    // as soon as this returns.
    VKHLO_ASSIGN_OR_RETURN(Buffer buffer, client.client->BufferFromHost(type, host));
    auto value = std::make_shared<BufferValue>(BufferValue{EventState::Ready(), std::move(buffer)});
    VKHLO_ASSIGN_OR_RETURN(PJRT_Buffer * out, NewBuffer(&client, std::move(type), std::move(value)));
    args->buffer = out;
    args->done_with_host_buffer = NewEvent(EventState::Ready());
    return OkStatus();
  });
}

PJRT_Error* BufferDestroy(PJRT_Buffer_Destroy_Args* args) {
  return Guard("PJRT_Buffer_Destroy", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_Destroy_Args, "PJRT_Buffer_Destroy");
    delete args->buffer;  // queued work that uses it holds its value
    return OkStatus();
  });
}

PJRT_Error* BufferElementType(PJRT_Buffer_ElementType_Args* args) {
  return Guard("PJRT_Buffer_ElementType", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_ElementType_Args, "PJRT_Buffer_ElementType");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_ElementType"));
    args->type = args->buffer->element_type;
    return OkStatus();
  });
}

PJRT_Error* BufferDimensions(PJRT_Buffer_Dimensions_Args* args) {
  return Guard("PJRT_Buffer_Dimensions", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_Dimensions_Args, "PJRT_Buffer_Dimensions");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_Dimensions"));
    args->dims = args->buffer->type.dims.data();
    args->num_dims = args->buffer->type.dims.size();
    return OkStatus();
  });
}

PJRT_Error* BufferUnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args) {
  return Guard("PJRT_Buffer_UnpaddedDimensions", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_UnpaddedDimensions_Args, "PJRT_Buffer_UnpaddedDimensions");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_UnpaddedDimensions"));
    args->unpadded_dims = args->buffer->type.dims.data();  // vkhlo never pads
    args->num_dims = args->buffer->type.dims.size();
    return OkStatus();
  });
}

PJRT_Error* BufferDynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  return Guard("PJRT_Buffer_DynamicDimensionIndices", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_DynamicDimensionIndices_Args, "PJRT_Buffer_DynamicDimensionIndices");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_DynamicDimensionIndices"));
    args->dynamic_dim_indices = nullptr;  // shapes are static
    args->num_dynamic_dims = 0;
    return OkStatus();
  });
}

PJRT_Error* BufferGetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args) {
  return Guard("PJRT_Buffer_GetMemoryLayout", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_GetMemoryLayout_Args, "PJRT_Buffer_GetMemoryLayout");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_GetMemoryLayout"));
    PJRT_Buffer_MemoryLayout& layout = args->layout;
    layout = PJRT_Buffer_MemoryLayout{};
    layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
    layout.tiled.minor_to_major = args->buffer->minor_to_major.data();
    layout.tiled.minor_to_major_size = args->buffer->minor_to_major.size();
    return OkStatus();
  });
}

PJRT_Error* BufferOnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  return Guard("PJRT_Buffer_OnDeviceSizeInBytes", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_OnDeviceSizeInBytes_Args, "PJRT_Buffer_OnDeviceSizeInBytes");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_OnDeviceSizeInBytes"));
    args->on_device_size_in_bytes =
        static_cast<size_t>(args->buffer->type.num_elements() * HostElementBytes(args->buffer->element_type));
    return OkStatus();
  });
}

PJRT_Error* BufferDevice(PJRT_Buffer_Device_Args* args) {
  return Guard("PJRT_Buffer_Device", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_Device_Args, "PJRT_Buffer_Device");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_Device"));
    args->device = &args->buffer->client->device;
    return OkStatus();
  });
}

PJRT_Error* BufferMemory(PJRT_Buffer_Memory_Args* args) {
  return Guard("PJRT_Buffer_Memory", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_Memory_Args, "PJRT_Buffer_Memory");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_Memory"));
    args->memory = &args->buffer->client->memory;
    return OkStatus();
  });
}

PJRT_Error* BufferDelete(PJRT_Buffer_Delete_Args* args) {
  return Guard("PJRT_Buffer_Delete", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_Delete_Args, "PJRT_Buffer_Delete");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_Delete"));
    args->buffer->Delete();
    return OkStatus();
  });
}

PJRT_Error* BufferIsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  return Guard("PJRT_Buffer_IsDeleted", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_IsDeleted_Args, "PJRT_Buffer_IsDeleted");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_IsDeleted"));
    args->is_deleted = args->buffer->Value() == nullptr;
    return OkStatus();
  });
}

PJRT_Error* BufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  return Guard("PJRT_Buffer_CopyToDevice", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_CopyToDevice_Args, "PJRT_Buffer_CopyToDevice");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_CopyToDevice"));
    if (args->dst_device != &args->buffer->client->device) {
      return InvalidArgumentError("PJRT_Buffer_CopyToDevice: the destination is not this client's device");
    }
    return ShareOnDevice(args->buffer, args->dst_buffer, "PJRT_Buffer_CopyToDevice");
  });
}

PJRT_Error* BufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  return Guard("PJRT_Buffer_CopyToMemory", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_CopyToMemory_Args, "PJRT_Buffer_CopyToMemory");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_CopyToMemory"));
    if (args->dst_memory != &args->buffer->client->memory) {
      return InvalidArgumentError("PJRT_Buffer_CopyToMemory: the destination is not this client's memory");
    }
    return ShareOnDevice(args->buffer, args->dst_buffer, "PJRT_Buffer_CopyToMemory");
  });
}

PJRT_Error* BufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  constexpr std::string_view kFunction = "PJRT_Buffer_ToHostBuffer";
  return Guard(kFunction, [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_ToHostBuffer_Args, kFunction);
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->src, kFunction, "src"));
    const PJRT_Buffer& src = *args->src;
    const int64_t element_bytes = HostElementBytes(src.element_type);
    VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ByteStridesOf(args->host_layout, src.type.dims, element_bytes, kFunction));
    const StridedExtent extent = ExtentOf(strides, src.type.dims, element_bytes);
    const size_t needed = static_cast<size_t>(extent.before + extent.after);
    if (args->dst == nullptr) {
      args->dst_size = needed;
      return OkStatus();
    }
    if (args->dst_size < needed) {
      return InvalidArgumentError(fmt::format("{}: dst holds {} bytes, {} needs {}", kFunction, args->dst_size,
                                              src.type.ToString(), needed));
    }
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferValue> value, LiveValue(src, kFunction));
    uint8_t* origin = static_cast<uint8_t*>(args->dst) + extent.before;  // negative strides reach below it
    if (value->ready->IsReady()) {
      args->event = NewEvent(EventState::Ready(Download(value, src.type, element_bytes, strides, origin)));
      return OkStatus();
    }
    auto done = EventState::Pending();
    args->event = NewEvent(done);
    src.client->executor->Enqueue([value, type = src.type, element_bytes, strides = std::move(strides), origin, done] {
      Status status;
      try {
        status = Download(value, type, element_bytes, strides, origin);
      } catch (...) {
        status = StatusFromCurrentException("PJRT_Buffer_ToHostBuffer");
      }
      done->Set(std::move(status));
    });
    return OkStatus();
  });
}

PJRT_Error* BufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  return Guard("PJRT_Buffer_IsOnCpu", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_IsOnCpu_Args, "PJRT_Buffer_IsOnCpu");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_IsOnCpu"));
    // Device memory, even on lavapipe: the host reads it only through PJRT_Buffer_ToHostBuffer.
    args->is_on_cpu = false;
    return OkStatus();
  });
}

PJRT_Error* BufferReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  return Guard("PJRT_Buffer_ReadyEvent", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Buffer_ReadyEvent_Args, "PJRT_Buffer_ReadyEvent");
    VKHLO_RETURN_IF_ERROR(RequireBuffer(args->buffer, "PJRT_Buffer_ReadyEvent"));
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferValue> value, LiveValue(*args->buffer, "PJRT_Buffer_ReadyEvent"));
    args->event = NewEvent(value->ready);
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
