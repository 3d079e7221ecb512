// The one translation unit that includes vkFFT.h (header-only, Vulkan backend). Three shims
// make Debian's vkFFT.h 1.2.26 fit vkhlo; none edits VkFFT:
// - vkfft_glslang_compat.h: VkFFT's glslang calls get a resource struct of glslang 12's layout.
// - vkGetPhysicalDeviceProperties, as VkFFT calls it, reports the masked limits of the device's
//   capability profile (VKHLO_PROFILE), so VkFFT sizes its kernels for the device vkhlo
//   presents, as every other kernel is.
// - vkUpdateDescriptorSets, as VkFFT calls it, skips writes of a null buffer: VkFFT writes the
//   Bluestein bindings while planning, before it allocates those buffers (invalid without the
//   nullDescriptor feature); they are written for real by the first Append (see Impl).
#include "device/fft/vkfft_app.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace vkhlo::device::fft {
namespace {

// The masked limits (or the target) for the VkFFT call in progress on this thread (set around
// initializeVkFFT).
thread_local const DeviceLimits* tls_masked_limits = nullptr;
thread_local const VkfftTarget* tls_target = nullptr;

void MaskedPhysicalDeviceProperties(VkPhysicalDevice physical_device,
                                    VkPhysicalDeviceProperties* properties) {
  vkGetPhysicalDeviceProperties(physical_device, properties);
  VkPhysicalDeviceLimits& out = properties->limits;
  if (const VkfftTarget* t = tls_target) {
    properties->vendorID = t->vendor_id;
    out.maxComputeWorkGroupInvocations = t->max_workgroup_invocations;
    out.maxComputeSharedMemorySize = t->max_shared_memory_bytes;
    for (int i = 0; i < 3; ++i) {
      out.maxComputeWorkGroupCount[i] = t->max_workgroup_count[i];
      out.maxComputeWorkGroupSize[i] = t->max_workgroup_size[i];
    }
    return;
  }
  const DeviceLimits* l = tls_masked_limits;
  if (l == nullptr) return;
  out.maxComputeWorkGroupInvocations = l->max_workgroup_invocations;
  out.maxComputeSharedMemorySize = l->max_shared_memory_bytes;
  for (int i = 0; i < 3; ++i) {
    out.maxComputeWorkGroupCount[i] = l->max_workgroup_count[i];
    out.maxComputeWorkGroupSize[i] = l->max_workgroup_size[i];
  }
}

void UpdateDescriptorSetsSkippingNull(VkDevice device, uint32_t write_count,
                                      const VkWriteDescriptorSet* writes, uint32_t copy_count,
                                      const VkCopyDescriptorSet* copies) {
  std::vector<VkWriteDescriptorSet> kept;
  for (uint32_t i = 0; i < write_count; ++i) {
    const VkWriteDescriptorSet& w = writes[i];
    bool has_null = false;
    for (uint32_t j = 0; w.pBufferInfo != nullptr && j < w.descriptorCount; ++j) {
      has_null |= w.pBufferInfo[j].buffer == VK_NULL_HANDLE;
    }
    if (!has_null) kept.push_back(w);
  }
  if (kept.empty() && copy_count == 0) return;
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(kept.size()), kept.data(), copy_count,
                         copies);
}

}  // namespace
}  // namespace vkhlo::device::fft

#define vkGetPhysicalDeviceProperties ::vkhlo::device::fft::MaskedPhysicalDeviceProperties
#define vkUpdateDescriptorSets ::vkhlo::device::fft::UpdateDescriptorSetsSkippingNull
#include "device/fft/vkfft_include.h"
#undef vkGetPhysicalDeviceProperties
#undef vkUpdateDescriptorSets

namespace vkhlo::device::fft {
namespace {

const char* VkfftResultName(VkFFTResult result) {
  switch (result) {
    case VKFFT_SUCCESS: return "VKFFT_SUCCESS";
    case VKFFT_ERROR_MALLOC_FAILED: return "VKFFT_ERROR_MALLOC_FAILED";
    case VKFFT_ERROR_INSUFFICIENT_CODE_BUFFER: return "VKFFT_ERROR_INSUFFICIENT_CODE_BUFFER";
    case VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER: return "VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER";
    case VKFFT_ERROR_PLAN_NOT_INITIALIZED: return "VKFFT_ERROR_PLAN_NOT_INITIALIZED";
    case VKFFT_ERROR_NULL_TEMP_PASSED: return "VKFFT_ERROR_NULL_TEMP_PASSED";
    case VKFFT_ERROR_INVALID_PHYSICAL_DEVICE: return "VKFFT_ERROR_INVALID_PHYSICAL_DEVICE";
    case VKFFT_ERROR_INVALID_DEVICE: return "VKFFT_ERROR_INVALID_DEVICE";
    case VKFFT_ERROR_INVALID_QUEUE: return "VKFFT_ERROR_INVALID_QUEUE";
    case VKFFT_ERROR_INVALID_COMMAND_POOL: return "VKFFT_ERROR_INVALID_COMMAND_POOL";
    case VKFFT_ERROR_INVALID_FENCE: return "VKFFT_ERROR_INVALID_FENCE";
    case VKFFT_ERROR_ONLY_FORWARD_FFT_INITIALIZED: return "VKFFT_ERROR_ONLY_FORWARD_FFT_INITIALIZED";
    case VKFFT_ERROR_ONLY_INVERSE_FFT_INITIALIZED: return "VKFFT_ERROR_ONLY_INVERSE_FFT_INITIALIZED";
    case VKFFT_ERROR_INVALID_CONTEXT: return "VKFFT_ERROR_INVALID_CONTEXT";
    case VKFFT_ERROR_INVALID_PLATFORM: return "VKFFT_ERROR_INVALID_PLATFORM";
    case VKFFT_ERROR_ENABLED_saveApplicationToString: return "VKFFT_ERROR_ENABLED_saveApplicationToString";
    case VKFFT_ERROR_EMPTY_FILE: return "VKFFT_ERROR_EMPTY_FILE";
    case VKFFT_ERROR_EMPTY_FFTdim: return "VKFFT_ERROR_EMPTY_FFTdim";
    case VKFFT_ERROR_EMPTY_size: return "VKFFT_ERROR_EMPTY_size";
    case VKFFT_ERROR_EMPTY_bufferSize: return "VKFFT_ERROR_EMPTY_bufferSize";
    case VKFFT_ERROR_EMPTY_buffer: return "VKFFT_ERROR_EMPTY_buffer";
    case VKFFT_ERROR_EMPTY_tempBufferSize: return "VKFFT_ERROR_EMPTY_tempBufferSize";
    case VKFFT_ERROR_EMPTY_tempBuffer: return "VKFFT_ERROR_EMPTY_tempBuffer";
    case VKFFT_ERROR_EMPTY_inputBufferSize: return "VKFFT_ERROR_EMPTY_inputBufferSize";
    case VKFFT_ERROR_EMPTY_inputBuffer: return "VKFFT_ERROR_EMPTY_inputBuffer";
    case VKFFT_ERROR_EMPTY_outputBufferSize: return "VKFFT_ERROR_EMPTY_outputBufferSize";
    case VKFFT_ERROR_EMPTY_outputBuffer: return "VKFFT_ERROR_EMPTY_outputBuffer";
    case VKFFT_ERROR_EMPTY_kernelSize: return "VKFFT_ERROR_EMPTY_kernelSize";
    case VKFFT_ERROR_EMPTY_kernel: return "VKFFT_ERROR_EMPTY_kernel";
    case VKFFT_ERROR_EMPTY_applicationString: return "VKFFT_ERROR_EMPTY_applicationString";
    case VKFFT_ERROR_EMPRY_useCustomBluesteinPaddingPattern_arrays: return "VKFFT_ERROR_EMPRY_useCustomBluesteinPaddingPattern_arrays";
    case VKFFT_ERROR_UNSUPPORTED_RADIX: return "VKFFT_ERROR_UNSUPPORTED_RADIX";
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH: return "VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH";
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C: return "VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C";
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT: return "VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT";
    case VKFFT_ERROR_UNSUPPORTED_FFT_OMIT: return "VKFFT_ERROR_UNSUPPORTED_FFT_OMIT";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE: return "VKFFT_ERROR_FAILED_TO_ALLOCATE";
    case VKFFT_ERROR_FAILED_TO_MAP_MEMORY: return "VKFFT_ERROR_FAILED_TO_MAP_MEMORY";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS: return "VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS";
    case VKFFT_ERROR_FAILED_TO_BEGIN_COMMAND_BUFFER: return "VKFFT_ERROR_FAILED_TO_BEGIN_COMMAND_BUFFER";
    case VKFFT_ERROR_FAILED_TO_END_COMMAND_BUFFER: return "VKFFT_ERROR_FAILED_TO_END_COMMAND_BUFFER";
    case VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE: return "VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE";
    case VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES: return "VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES";
    case VKFFT_ERROR_FAILED_TO_RESET_FENCES: return "VKFFT_ERROR_FAILED_TO_RESET_FENCES";
    case VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL: return "VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL";
    case VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_SET_LAYOUT: return "VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_SET_LAYOUT";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS: return "VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS";
    case VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE_LAYOUT: return "VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE_LAYOUT";
    case VKFFT_ERROR_FAILED_SHADER_PREPROCESS: return "VKFFT_ERROR_FAILED_SHADER_PREPROCESS";
    case VKFFT_ERROR_FAILED_SHADER_PARSE: return "VKFFT_ERROR_FAILED_SHADER_PARSE";
    case VKFFT_ERROR_FAILED_SHADER_LINK: return "VKFFT_ERROR_FAILED_SHADER_LINK";
    case VKFFT_ERROR_FAILED_SPIRV_GENERATE: return "VKFFT_ERROR_FAILED_SPIRV_GENERATE";
    case VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE: return "VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE";
    case VKFFT_ERROR_FAILED_TO_CREATE_INSTANCE: return "VKFFT_ERROR_FAILED_TO_CREATE_INSTANCE";
    case VKFFT_ERROR_FAILED_TO_SETUP_DEBUG_MESSENGER: return "VKFFT_ERROR_FAILED_TO_SETUP_DEBUG_MESSENGER";
    case VKFFT_ERROR_FAILED_TO_FIND_PHYSICAL_DEVICE: return "VKFFT_ERROR_FAILED_TO_FIND_PHYSICAL_DEVICE";
    case VKFFT_ERROR_FAILED_TO_CREATE_DEVICE: return "VKFFT_ERROR_FAILED_TO_CREATE_DEVICE";
    case VKFFT_ERROR_FAILED_TO_CREATE_FENCE: return "VKFFT_ERROR_FAILED_TO_CREATE_FENCE";
    case VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_POOL: return "VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_POOL";
    case VKFFT_ERROR_FAILED_TO_CREATE_BUFFER: return "VKFFT_ERROR_FAILED_TO_CREATE_BUFFER";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY: return "VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY";
    case VKFFT_ERROR_FAILED_TO_BIND_BUFFER_MEMORY: return "VKFFT_ERROR_FAILED_TO_BIND_BUFFER_MEMORY";
    case VKFFT_ERROR_FAILED_TO_FIND_MEMORY: return "VKFFT_ERROR_FAILED_TO_FIND_MEMORY";
    case VKFFT_ERROR_FAILED_TO_SYNCHRONIZE: return "VKFFT_ERROR_FAILED_TO_SYNCHRONIZE";
    case VKFFT_ERROR_FAILED_TO_COPY: return "VKFFT_ERROR_FAILED_TO_COPY";
    case VKFFT_ERROR_FAILED_TO_CREATE_PROGRAM: return "VKFFT_ERROR_FAILED_TO_CREATE_PROGRAM";
    case VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM: return "VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM";
    case VKFFT_ERROR_FAILED_TO_GET_CODE_SIZE: return "VKFFT_ERROR_FAILED_TO_GET_CODE_SIZE";
    case VKFFT_ERROR_FAILED_TO_GET_CODE: return "VKFFT_ERROR_FAILED_TO_GET_CODE";
    case VKFFT_ERROR_FAILED_TO_DESTROY_PROGRAM: return "VKFFT_ERROR_FAILED_TO_DESTROY_PROGRAM";
    case VKFFT_ERROR_FAILED_TO_LOAD_MODULE: return "VKFFT_ERROR_FAILED_TO_LOAD_MODULE";
    case VKFFT_ERROR_FAILED_TO_GET_FUNCTION: return "VKFFT_ERROR_FAILED_TO_GET_FUNCTION";
    case VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY: return "VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY";
    case VKFFT_ERROR_FAILED_TO_MODULE_GET_GLOBAL: return "VKFFT_ERROR_FAILED_TO_MODULE_GET_GLOBAL";
    case VKFFT_ERROR_FAILED_TO_LAUNCH_KERNEL: return "VKFFT_ERROR_FAILED_TO_LAUNCH_KERNEL";
    case VKFFT_ERROR_FAILED_TO_EVENT_RECORD: return "VKFFT_ERROR_FAILED_TO_EVENT_RECORD";
    case VKFFT_ERROR_FAILED_TO_ADD_NAME_EXPRESSION: return "VKFFT_ERROR_FAILED_TO_ADD_NAME_EXPRESSION";
    case VKFFT_ERROR_FAILED_TO_INITIALIZE: return "VKFFT_ERROR_FAILED_TO_INITIALIZE";
    case VKFFT_ERROR_FAILED_TO_SET_DEVICE_ID: return "VKFFT_ERROR_FAILED_TO_SET_DEVICE_ID";
    case VKFFT_ERROR_FAILED_TO_GET_DEVICE: return "VKFFT_ERROR_FAILED_TO_GET_DEVICE";
    case VKFFT_ERROR_FAILED_TO_CREATE_CONTEXT: return "VKFFT_ERROR_FAILED_TO_CREATE_CONTEXT";
    case VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE: return "VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE";
    case VKFFT_ERROR_FAILED_TO_SET_KERNEL_ARG: return "VKFFT_ERROR_FAILED_TO_SET_KERNEL_ARG";
    case VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_QUEUE: return "VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_QUEUE";
    case VKFFT_ERROR_FAILED_TO_RELEASE_COMMAND_QUEUE: return "VKFFT_ERROR_FAILED_TO_RELEASE_COMMAND_QUEUE";
    case VKFFT_ERROR_FAILED_TO_ENUMERATE_DEVICES: return "VKFFT_ERROR_FAILED_TO_ENUMERATE_DEVICES";
    case VKFFT_ERROR_FAILED_TO_GET_ATTRIBUTE: return "VKFFT_ERROR_FAILED_TO_GET_ATTRIBUTE";
    case VKFFT_ERROR_FAILED_TO_CREATE_EVENT: return "VKFFT_ERROR_FAILED_TO_CREATE_EVENT";
    case VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_LIST: return "VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_LIST";
    case VKFFT_ERROR_FAILED_TO_DESTROY_COMMAND_LIST: return "VKFFT_ERROR_FAILED_TO_DESTROY_COMMAND_LIST";
    case VKFFT_ERROR_FAILED_TO_SUBMIT_BARRIER: return "VKFFT_ERROR_FAILED_TO_SUBMIT_BARRIER";
  }
  return "unknown VkFFT error";
}

// Whether some transformed length has a prime factor VkFFT has no radix kernel for.
bool NeedsBluestein(const VkfftLayout& layout) {
  for (uint32_t i = 0; i < layout.dims; ++i) {
    uint64_t n = layout.size[i];
    for (uint64_t p : {2, 3, 5, 7, 11, 13}) {
      while (n % p == 0) n /= p;
    }
    if (n > 1) return true;
  }
  return false;
}

Status VkfftError(VkFFTResult result, std::string_view call) {
  std::string message = fmt::format("{} failed: {} ({})", call, VkfftResultName(result),
                                    static_cast<int>(result));
  if (result == VKFFT_ERROR_MALLOC_FAILED ||
      (result >= VKFFT_ERROR_FAILED_TO_ALLOCATE && result <= VKFFT_ERROR_FAILED_TO_FIND_MEMORY)) {
    return ResourceExhaustedError(message);
  }
  return InternalError(message);
}

}  // namespace

struct VkfftApp::Impl {
  VkFFTApplication app = {};
  bool initialized = false;
  // VkFFT keeps pointers to these for the life of the app.
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // VkFFT's `buffer` is the output (FFT, IFFT, RFFT), the scratch (IRFFT) or the one range (in
  // place); `inputBuffer` the input unless in place; `outputBuffer` only for IRFFT.
  VkBuffer buffer = VK_NULL_HANDLE, input_buffer = VK_NULL_HANDLE, output_buffer = VK_NULL_HANDLE;
  uint64_t buffer_bytes = 0, input_bytes = 0, output_bytes = 0;
  // The same handles again, passed at launch. VkFFT 1.2.26 writes descriptor sets while it
  // plans the axes, before it allocates the Bluestein buffers, so those bindings stay null
  // until a launch names buffers through different pointers: the first Append does, which
  // rewrites every set once (the app has never been recorded, so no submission uses them);
  // later Appends pass the same pointers and rewrite nothing.
  VkBuffer launch_buffer = VK_NULL_HANDLE, launch_input = VK_NULL_HANDLE,
           launch_output = VK_NULL_HANDLE;
  VkfftLayout layout;

  ~Impl() {
    if (initialized) deleteVkFFT(&app);
  }
};

VkfftApp::VkfftApp(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
VkfftApp::~VkfftApp() = default;

StatusOr<std::unique_ptr<VkfftApp>> VkfftApp::Create(const VkfftContext& context,
                                                     const VkfftLayout& layout,
                                                     const VkfftBindings& bindings,
                                                     const std::vector<uint32_t>* binary) {
#ifdef VKHLO_VKFFT_WITHOUT_GLSLANG
  if (binary == nullptr) {
    return UnimplementedError(
        "VkFFT compiles its kernels with glslang, which the runtime-only library does not link: it runs FFTs with "
        "the kernels a compiled plan carries");
  }
#endif
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  m.physical_device = context.physical_device;
  m.device = context.device;
  m.queue = context.queue;
  m.command_pool = context.command_pool;
  m.fence = context.fence;
  m.layout = layout;

  VkFFTConfiguration c = {};
  c.FFTdim = layout.dims;
  for (int i = 0; i < 3; ++i) c.size[i] = layout.size[i];
  c.numberBatches = layout.batch;
  c.physicalDevice = &m.physical_device;
  c.device = &m.device;
  c.queue = &m.queue;
  c.commandPool = &m.command_pool;
  c.fence = &m.fence;
  c.isCompilerInitialized = 0;  // VkFFT initializes glslang (reference counted) itself
  c.doublePrecision = layout.double_precision ? 1 : 0;
  // Twiddles from a table computed on the host in double, not sin/cos on the device: Vulkan allows
  // the built-ins an absolute error of 2^-11, and VkFFT would use them for f32 on most vendors.
  c.useLUT = 1;
  c.performR2C = layout.r2c ? 1 : 0;
  c.normalize = layout.inverse ? 1 : 0;
  // One direction only halves the kernels to compile; but VkFFT 1.2.26 leaves the Bluestein
  // kernel buffers of a one-direction plan unset (null descriptors), so sizes with prime
  // factors above 13 (VkFFT's largest radix) get both directions.
  if (!NeedsBluestein(layout)) {
    c.makeForwardPlanOnly = layout.inverse ? 0 : 1;
    c.makeInversePlanOnly = layout.inverse ? 1 : 0;
  }
  c.specifyOffsetsAtLaunch = 1;

  // Strides in elements of each side: real (the R2C real side) and complex.
  const uint64_t x = layout.size[0], y = layout.size[1], z = layout.size[2];
  const uint64_t cx = layout.r2c ? x / 2 + 1 : x;
  const uint64_t real_strides[3] = {x, x * y, x * y * z};
  const uint64_t complex_strides[3] = {cx, cx * y, cx * y * z};
  for (int i = 0; i < 3; ++i) c.bufferStride[i] = complex_strides[i];

  if (layout.in_place) {
    m.buffer = bindings.input.buffer;
    m.buffer_bytes = bindings.input.bytes;
  } else if (layout.r2c && layout.inverse) {
    // IRFFT: complex input -> (scratch) -> real output.
    m.input_buffer = bindings.input.buffer;
    m.input_bytes = bindings.input.bytes;
    m.output_buffer = bindings.output.buffer;
    m.output_bytes = bindings.output.bytes;
    m.buffer = bindings.scratch.buffer;
    m.buffer_bytes = bindings.scratch.bytes;
    c.isInputFormatted = 1;
    c.isOutputFormatted = 1;
    // VkFFT runs two real lines as one complex transform. The spec's IRFFT ignores the
    // imaginary parts of each line's DC (and, for even n, Nyquist) term; merged lines would
    // leak them into each other.
    c.disableMergeSequencesR2C = 1;
    for (int i = 0; i < 3; ++i) {
      c.inputBufferStride[i] = complex_strides[i];
      c.outputBufferStride[i] = real_strides[i];
    }
  } else {
    // FFT, IFFT, RFFT: input -> output, later axes in place in the output.
    m.input_buffer = bindings.input.buffer;
    m.input_bytes = bindings.input.bytes;
    m.buffer = bindings.output.buffer;
    m.buffer_bytes = bindings.output.bytes;
    c.isInputFormatted = 1;
    for (int i = 0; i < 3; ++i) {
      c.inputBufferStride[i] = layout.r2c ? real_strides[i] : complex_strides[i];
    }
  }
  c.buffer = &m.buffer;
  c.bufferSize = &m.buffer_bytes;
  if (m.input_buffer != VK_NULL_HANDLE) {
    c.inputBuffer = &m.input_buffer;
    c.inputBufferSize = &m.input_bytes;
  }
  if (m.output_buffer != VK_NULL_HANDLE) {
    c.outputBuffer = &m.output_buffer;
    c.outputBufferSize = &m.output_bytes;
  }

  if (binary != nullptr) {
    c.loadApplicationFromString = 1;
    c.loadApplicationString = const_cast<uint32_t*>(binary->data());
  } else {
    c.saveApplicationToString = 1;
  }

  tls_masked_limits = context.limits;
  tls_target = context.target;
  VkFFTResult result = initializeVkFFT(&m.app, c);
  tls_masked_limits = nullptr;
  tls_target = nullptr;
  // initializeVkFFT cleans up after itself when it fails.
  if (result != VKFFT_SUCCESS) return VkfftError(result, "initializeVkFFT");
  m.initialized = true;

  std::unique_ptr<VkfftApp> app(new VkfftApp(std::move(impl)));
  const VkFFTApplication& raw = app->impl_->app;
  if (binary == nullptr && raw.saveApplicationString != nullptr) {
    app->binary_.resize((raw.applicationStringSize + 3) / 4);
    std::memcpy(app->binary_.data(), raw.saveApplicationString, raw.applicationStringSize);
  }
  return app;
}

uint32_t VkfftVersion() { return static_cast<uint32_t>(VkFFTGetVersion()); }

uint64_t VkfftApp::WordsLoaded() const {
  return impl_->app.configuration.loadApplicationFromString ? impl_->app.currentApplicationStringPos : 0;
}

std::vector<VkfftBinding> VkfftApp::InternalWrittenBuffers() const {
  std::vector<VkfftBinding> out;
  const VkFFTConfiguration& c = impl_->app.configuration;
  if (c.allocateTempBuffer && c.tempBuffer != nullptr && c.tempBufferSize != nullptr) {
    for (uint64_t i = 0; i < c.tempBufferNum; ++i) {
      out.push_back(VkfftBinding{c.tempBuffer[i], c.tempBufferSize[i]});
    }
  }
  return out;
}

Status VkfftApp::Append(VkCommandBuffer command_buffer, uint64_t input_offset,
                        uint64_t output_offset, uint64_t scratch_offset) {
  Impl& m = *impl_;
  VkFFTLaunchParams params = {};
  params.commandBuffer = &command_buffer;
  m.launch_buffer = m.buffer;
  m.launch_input = m.input_buffer;
  m.launch_output = m.output_buffer;
  params.buffer = &m.launch_buffer;
  if (m.input_buffer != VK_NULL_HANDLE) params.inputBuffer = &m.launch_input;
  if (m.output_buffer != VK_NULL_HANDLE) params.outputBuffer = &m.launch_output;
  if (m.layout.in_place) {
    params.bufferOffset = input_offset;
  } else if (m.layout.r2c && m.layout.inverse) {
    params.inputBufferOffset = input_offset;
    params.outputBufferOffset = output_offset;
    params.bufferOffset = scratch_offset;
  } else {
    params.inputBufferOffset = input_offset;
    params.bufferOffset = output_offset;
  }
  VkFFTResult result = VkFFTAppend(&m.app, m.layout.inverse ? 1 : -1, &params);
  if (result != VKFFT_SUCCESS) return VkfftError(result, "VkFFTAppend");
  return OkStatus();
}

}  // namespace vkhlo::device::fft
