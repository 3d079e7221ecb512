// The PJRT C API's opaque objects as the vkhlo plugin defines them. One PJRT_Client owns a
// vkhlo::Client (the Vulkan device vkhlo picks: VKHLO_DEVICE / VKHLO_PROFILE, or the create
// options), its one PJRT_Device and one PJRT_Memory ("device"), and the executor that runs
// executions in order (executor.h). Buffers and executables refer to their client, which the
// framework destroys last.
//
// A PJRT_Buffer's contents may still be computing: it holds a BufferValue, a vkhlo::Buffer plus
// the event that says when that Buffer is set (or why it never will be). Its type is known from
// the start, so metadata calls never wait. vkhlo's device Buffers are immutable, which makes an
// on-device copy a second PJRT_Buffer sharing the same value.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pjrt/compile_cache.h"
#include "pjrt/events.h"
#include "pjrt/executor.h"
#include "pjrt/program_signature.h"
#include "vkhlo/runtime.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

struct BufferValue {
  std::shared_ptr<EventState> ready;  // set once `buffer` holds the tensor, or with the error
  Buffer buffer;                      // written before `ready` is set; read after it is
};

// Owned storage behind a list of PJRT_NamedValue (names and strings point into it).
struct NamedValues {
  std::vector<PJRT_NamedValue> values;
  std::vector<std::unique_ptr<std::string>> strings;
  std::vector<std::unique_ptr<std::vector<int64_t>>> lists;
  void AddString(std::string name, std::string value);
  void AddInt64(std::string name, int64_t value);
  void AddInt64List(std::string name, std::vector<int64_t> value);
  void AddBool(std::string name, bool value);

 private:
  PJRT_NamedValue& Add(std::string name, PJRT_NamedValue_Type type);
};

}  // namespace vkhlo::pjrt

struct PJRT_DeviceDescription {
  int id = 0;
  int process_index = 0;
  std::string kind;          // the Vulkan device's name
  std::string debug_string;  // "vkhlo:0 llvmpipe (...) (native profile)"
  std::string to_string;     // "VkhloDevice(id=0)"
  vkhlo::pjrt::NamedValues attributes;
};

struct PJRT_Memory {
  PJRT_Client* client = nullptr;
  int id = 0;
  std::string kind = "device";
  std::string debug_string, to_string;
  std::vector<PJRT_Device*> devices;
};

struct PJRT_Device {
  PJRT_Client* client = nullptr;
  PJRT_DeviceDescription description;
  std::vector<PJRT_Memory*> memories;
};

struct PJRT_Client {
  std::unique_ptr<vkhlo::Client> client;
  PJRT_Device device;
  PJRT_Memory memory;
  std::vector<PJRT_Device*> devices;   // {&device}
  std::vector<PJRT_Memory*> memories;  // {&memory}
  std::string platform_version;
  vkhlo::pjrt::CompileCache compile_cache;
  // Last: destroyed first, so queued work finishes while everything above still exists.
  std::unique_ptr<vkhlo::pjrt::Executor> executor;
};

struct PJRT_Buffer {
  PJRT_Client* client = nullptr;
  vkhlo::TensorType type;
  PJRT_Buffer_Type element_type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> minor_to_major;  // row-major, for PJRT_Buffer_GetMemoryLayout
  mutable std::mutex mutex;             // guards `value` (Delete and donation may race with reads)
  std::shared_ptr<vkhlo::pjrt::BufferValue> value;  // null once deleted or donated

  // The value, or null when deleted.
  std::shared_ptr<vkhlo::pjrt::BufferValue> Value() const {
    std::lock_guard<std::mutex> lock(mutex);
    return value;
  }
  // Drops the value (the memory goes once pending work that uses it is done).
  void Delete() {
    std::lock_guard<std::mutex> lock(mutex);
    value.reset();
  }
};

// A compiled program, shared by the executables the compile cache hands out.
struct PJRT_Executable {
  std::shared_ptr<const vkhlo::pjrt::CompiledProgram> program;
};

struct PJRT_LoadedExecutable {
  PJRT_Client* client = nullptr;
  mutable std::mutex mutex;
  std::shared_ptr<const vkhlo::pjrt::CompiledProgram> program;  // null once deleted
  std::shared_ptr<const vkhlo::pjrt::CompiledProgram> Program() const {
    std::lock_guard<std::mutex> lock(mutex);
    return program;
  }
};

namespace vkhlo::pjrt {

// A new PJRT_Buffer of `client` holding `value`, typed `type` (which PJRT must have a name for).
StatusOr<PJRT_Buffer*> NewBuffer(PJRT_Client* client, TensorType type, std::shared_ptr<BufferValue> value);

// The device tensor behind `buffer` once its producer is done: the error of a failed producer,
// or FAILED_PRECONDITION for a deleted buffer.
StatusOr<Buffer> AwaitBuffer(const std::shared_ptr<BufferValue>& value);

}  // namespace vkhlo::pjrt
