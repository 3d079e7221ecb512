// A small C++ driver of the plugin's PJRT_Api table for the tests: creates a client, compiles,
// moves buffers and runs executables through the C API exactly as a framework would, turning
// PJRT_Errors into vkhlo Statuses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt::testing {

// The status of a PJRT_Error (which it destroys); OK for null.
Status TakeError(const PJRT_Api* api, PJRT_Error* error);

class TestClient {
 public:
  explicit TestClient(const PJRT_Api* api) : api_(api) {}
  ~TestClient();

  Status Create(std::vector<PJRT_NamedValue> options = {});
  PJRT_Client* client() const { return client_; }
  const PJRT_Api* api() const { return api_; }

  StatusOr<PJRT_LoadedExecutable*> Compile(std::string_view code, std::string_view options = "");
  StatusOr<PJRT_Buffer*> Upload(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                                std::vector<int64_t> byte_strides = {});
  // Runs `executable` on `arguments`; the outputs, and the completion event (owned by the caller).
  StatusOr<std::vector<PJRT_Buffer*>> Execute(PJRT_LoadedExecutable* executable, std::vector<PJRT_Buffer*> arguments,
                                              PJRT_Event** done = nullptr, std::vector<int64_t> non_donatable = {});
  // Downloads `buffer` in `layout` (null: row-major) and waits for the copy.
  StatusOr<std::vector<uint8_t>> Download(PJRT_Buffer* buffer, PJRT_Buffer_MemoryLayout* layout = nullptr);
  template <typename T>
  StatusOr<std::vector<T>> DownloadAs(PJRT_Buffer* buffer) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, Download(buffer));
    std::vector<T> values(bytes.size() / sizeof(T));
    std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(values.size() * sizeof(T)),
              reinterpret_cast<uint8_t*>(values.data()));
    return values;
  }
  bool IsDeleted(PJRT_Buffer* buffer);
  Status AwaitEvent(PJRT_Event* event);  // destroys it
  void Destroy(PJRT_Buffer* buffer);
  void Destroy(PJRT_LoadedExecutable* executable);

 private:
  const PJRT_Api* api_;
  PJRT_Client* client_ = nullptr;
};

// A PJRT_NamedValue of each kind (the strings must outlive it).
PJRT_NamedValue StringOption(const std::string& name, const std::string& value);
PJRT_NamedValue Int64Option(const std::string& name, int64_t value);

}  // namespace vkhlo::pjrt::testing
