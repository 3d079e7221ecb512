// Client, Buffer and TensorType: opening the device, moving tensors in and out.
#include <fmt/format.h>

#include <cstring>

#include "device/allocator.h"
#include "device/transfer.h"
#include "runtime/client_internal.h"
#include "runtime/state.h"
#include "runtime/target_from_device.h"
#include "support/env.h"

namespace vkhlo {

int64_t TensorType::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

std::string TensorType::ToString() const {
  std::string text = "tensor<";
  for (int64_t d : dims) text += d < 0 ? std::string("?x") : fmt::format("{}x", d);
  return text + element_type + ">";
}

namespace runtime {

StatusOr<std::shared_ptr<BufferState>> AllocateTensor(const std::shared_ptr<ClientState>& client, const TensorDesc& type) {
  auto state = std::make_shared<BufferState>();
  state->client = client;
  state->type = type;
  state->public_type = type.ToTensorType();
  VKHLO_ASSIGN_OR_RETURN(state->buffer, client->device->allocator().Allocate(BufferBytes(type)));
  return state;
}

StatusOr<std::shared_ptr<BufferState>> CopyThroughHost(const BufferState& tensor,
                                                       const std::shared_ptr<ClientState>& client) {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> copy, AllocateTensor(client, tensor.type));
  std::vector<std::byte> bytes(BufferBytes(tensor.type));
  if (bytes.empty()) return copy;
  VKHLO_RETURN_IF_ERROR(tensor.client->device->transfers().Download(tensor.buffer, 0, bytes));
  VKHLO_RETURN_IF_ERROR(client->device->transfers().Upload(copy->buffer, 0, bytes));
  return copy;
}

bool SameClient(const Buffer& buffer, const Client& client) {
  return buffer && buffer.state()->client == client.state();
}

}  // namespace runtime

const TensorType& Buffer::type() const {
  static const TensorType kNone;
  return state_ ? state_->public_type : kNone;
}

uint64_t Buffer::byte_size() const {
  if (!state_) return 0;
  return state_->type.storage_bytes();
}

StatusOr<std::vector<uint8_t>> Buffer::ToHost() const {
  if (!state_) return InvalidArgumentError("an empty Buffer");
  VKHLO_RETURN_IF_ERROR(state_->client->device->CheckAlive());
  std::vector<uint8_t> bytes(byte_size());
  if (bytes.empty()) return bytes;
  VKHLO_RETURN_IF_ERROR(state_->client->device->transfers().Download(
      state_->buffer, 0, std::as_writable_bytes(std::span<uint8_t>(bytes))));
  return bytes;
}

namespace runtime {

StatusOr<ClientCacheLimits> ClientCacheLimits::FromEnvironment() {
  ClientCacheLimits limits;
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> spirv, GetEnvSize("VKHLO_SPIRV_CACHE_BYTES"));
  if (spirv) limits.spirv_cache_bytes = *spirv;
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> executables, GetEnvSize("VKHLO_EXECUTABLE_CACHE_ENTRIES"));
  if (executables) limits.executable_cache_entries = *executables;
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> specializations, GetEnvSize("VKHLO_SPECIALIZATION_CACHE_ENTRIES"));
  if (specializations) limits.specialization_cache_entries = *specializations;
  return limits;
}

StatusOr<Client> CreateClient(device::DeviceOptions options, ClientCacheLimits limits) {
  auto state = std::make_shared<ClientState>();
  const std::string cache = options.cache_directory;
  VKHLO_ASSIGN_OR_RETURN(state->device, device::Device::Create(std::move(options)));
  state->target = TargetFromDevice(*state->device);
  state->spirv_cache_directory = cache;
  state->spirv_cache_bytes = limits.spirv_cache_bytes;
  state->executable_cache_entries = limits.executable_cache_entries;
  state->specialization_cache_entries = limits.specialization_cache_entries;
  return Client(std::move(state));
}

StatusOr<Client> CreateClient(device::DeviceOptions options) {
  VKHLO_ASSIGN_OR_RETURN(ClientCacheLimits limits, ClientCacheLimits::FromEnvironment());
  return CreateClient(std::move(options), limits);
}

}  // namespace runtime

std::string Client::device_description() const {
  const device::DeviceCapabilities& caps = state_->device->capabilities();
  return fmt::format("{} ({} profile)", caps.name, caps.profile);
}

StatusOr<Buffer> Client::BufferFromHost(const TensorType& type, std::span<const uint8_t> bytes) const {
  VKHLO_ASSIGN_OR_RETURN(runtime::TensorDesc desc, runtime::DescOf(type));
  const uint64_t expected = desc.storage_bytes();
  if (bytes.size() != expected) {
    return InvalidArgumentError(fmt::format("{} takes {} bytes, given {}", type.ToString(), expected, bytes.size()));
  }
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<runtime::BufferState> state, runtime::AllocateTensor(state_, desc));
  if (!bytes.empty()) {
    VKHLO_RETURN_IF_ERROR(state_->device->transfers().Upload(state->buffer, 0, std::as_bytes(bytes)));
  }
  return Buffer(std::move(state));
}

}  // namespace vkhlo
