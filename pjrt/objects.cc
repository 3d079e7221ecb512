#include "pjrt/objects.h"

#include <fmt/format.h>

#include <numeric>

#include "pjrt/element_types.h"

namespace vkhlo::pjrt {

PJRT_NamedValue& NamedValues::Add(std::string name, PJRT_NamedValue_Type type) {
  strings.push_back(std::make_unique<std::string>(std::move(name)));
  PJRT_NamedValue value{};
  value.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  value.name = strings.back()->c_str();
  value.name_size = strings.back()->size();
  value.type = type;
  values.push_back(value);
  return values.back();
}

void NamedValues::AddString(std::string name, std::string value) {
  PJRT_NamedValue& v = Add(std::move(name), PJRT_NamedValue_kString);
  strings.push_back(std::make_unique<std::string>(std::move(value)));
  v.string_value = strings.back()->c_str();
  v.value_size = strings.back()->size();
}

void NamedValues::AddInt64(std::string name, int64_t value) {
  PJRT_NamedValue& v = Add(std::move(name), PJRT_NamedValue_kInt64);
  v.int64_value = value;
  v.value_size = 1;
}

void NamedValues::AddInt64List(std::string name, std::vector<int64_t> value) {
  PJRT_NamedValue& v = Add(std::move(name), PJRT_NamedValue_kInt64List);
  lists.push_back(std::make_unique<std::vector<int64_t>>(std::move(value)));
  v.int64_array_value = lists.back()->data();
  v.value_size = lists.back()->size();
}

void NamedValues::AddBool(std::string name, bool value) {
  PJRT_NamedValue& v = Add(std::move(name), PJRT_NamedValue_kBool);
  v.bool_value = value;
  v.value_size = 1;
}

StatusOr<PJRT_Buffer*> NewBuffer(PJRT_Client* client, TensorType type, std::shared_ptr<BufferValue> value) {
  std::optional<PJRT_Buffer_Type> element = PjrtElementType(type.element_type);
  if (!element) return InternalError(fmt::format("a buffer of {}, which PJRT has no name for", type.ToString()));
  auto buffer = std::make_unique<PJRT_Buffer>();
  buffer->client = client;
  buffer->element_type = *element;
  buffer->minor_to_major.resize(type.dims.size());
  // Row-major: the last dimension is the most minor.
  std::iota(buffer->minor_to_major.rbegin(), buffer->minor_to_major.rend(), int64_t{0});
  buffer->type = std::move(type);
  buffer->value = std::move(value);
  return buffer.release();
}

StatusOr<Buffer> AwaitBuffer(const std::shared_ptr<BufferValue>& value) {
  if (value == nullptr) return FailedPreconditionError("the buffer has been deleted or donated");
  VKHLO_RETURN_IF_ERROR(value->ready->Wait());
  return value->buffer;
}

}  // namespace vkhlo::pjrt
