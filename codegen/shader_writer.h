// The one writer of generated compute shaders: every kernel family (loop kernels, reductions and
// row kernels, indexing kernels, the library's matmul/convolution kernels, the device kernels
// built on DeviceKernelHeader) declares what its shader needs here, and Finish() lays the text
// out the same way for all of them:
//
//   #version 450
//   #extension ... : require                  (ShaderPrelude, first-use order)
//   // vkhlo <family> kernel <name> ...        (the header: kernel, config and why, fused ops with
//   // config: ...                             their locations, one line per binding)
//   // fused ops: ...
//   // bindings: ...
//   #include "..."                             (the GLSL library, codegen/glsl/)
//   layout(local_size_x = .., ..) in;
//   layout(std430, set = 0, binding = b) ... buffer Buffer_<name> { <word> <name>[]; };
//   layout(set = 0, binding = b, <format>) readonly uniform <image> <name>;   (texel views)
//   layout(push_constant) uniform PushConstants { uvec4 vkhlo_workgroup_base; <words> } pc;
//   #define vkhlo_workgroup_id(pc) ...
//   helpers, globals, shared memory, functions
//   void main() {
//     <keep-every-binding statement>
//     <body>
//   }
//
// The push-constant block is shaders/include/vkhlo_dispatch.glsl's convention (the workgroup
// base first, at offset 0, which the device layer fills when it splits a grid beyond
// maxComputeWorkGroupCount); generated kernels spell it here and nowhere else.
//
// The device binds every binding a dispatch lists and checks that the SPIR-V declares exactly
// those, so no binding may be optimized away, even one whose reads the optimizer proves dead
// (an empty operand of a pad, an input only another pass reads). Finish() therefore starts
// main() with one never-taken statement that touches each binding (KeepBindingsStatement).
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace vkhlo::codegen {

// What a shader needs beyond its bindings and body: extensions, GLSL library includes, helper
// functions and globals, each once, in first-use order. The elemental emitter and the library's
// element loaders add to it while they write the body.
class ShaderPrelude {
 public:
  void Extension(const std::string& name) { Add(extensions_, name); }
  void Include(const std::string& file) { Add(includes_, file); }
  // A helper function (or any global) by name; `text` is emitted once.
  void Helper(const std::string& name, const std::string& text);
  bool HasHelper(const std::string& name) const { return helper_names_.count(name) != 0; }
  void Global(const std::string& text) { globals_.push_back(text); }

  const std::vector<std::string>& extensions() const { return extensions_; }
  const std::vector<std::string>& includes() const { return includes_; }
  const std::vector<std::string>& helpers() const { return helpers_; }
  const std::vector<std::string>& globals() const { return globals_; }

 private:
  static void Add(std::vector<std::string>& list, const std::string& item);
  std::vector<std::string> extensions_, includes_, helpers_, globals_;
  std::set<std::string> helper_names_;
};

enum class BufferAccess { kRead, kWrite, kReadWrite };

// One declaration of a binding: a storage buffer view (`<word> <name>[]`) or a storage texel
// buffer view. A binding may have several views (`uint in0[]` and `uvec4 in0v[]`, an r32f and
// an rgba32f texel view of one buffer).
struct ShaderBinding {
  uint32_t binding = 0;
  std::string name;         // the array or image name the body uses
  std::string word;         // storage buffers: the element word ("uint", "uvec4", "vec4", ...)
  std::string texel_format;  // texel views: "rgba32f", "r32f", "rgba32ui"; empty: a storage buffer
  std::string image_type;    // texel views: "imageBuffer", "uimageBuffer", "iimageBuffer"
  BufferAccess access = BufferAccess::kRead;
  // `restrict` promises the compiler that no other view reaches the same memory; aliased views
  // of one binding must not carry it.
  bool restrict_ = true;
};

// "stablehlo.add -> tensor<4xf32> at f.mlir:3:8": a fused op in kernel headers and summaries.
std::string OpSummary(const ir::Operation& op, const std::string& source_name);

class ShaderWriter {
 public:
  // `kernel`: the header's first line after "vkhlo " ("loop kernel fusion_3 of @main: ...").
  explicit ShaderWriter(std::string kernel = "") : kernel_(std::move(kernel)) {}
  void set_kernel(std::string kernel) { kernel_ = std::move(kernel); }

  ShaderPrelude& prelude() { return prelude_; }
  const ShaderPrelude& prelude() const { return prelude_; }

  // The header. `Config` / `Why`: the configuration chosen and why, a line each.
  void Config(const std::string& line) { config_.push_back("config: " + line); }
  void Why(const std::string& line) { config_.push_back("why: " + line); }
  void FusedOp(const ir::Operation& op, const std::string& source_name);
  void FusedOps(const std::vector<const ir::Operation*>& ops, const std::string& source_name);
  // What binding `binding` holds ("input 0: tensor<4x8xf32>"), for the header's binding table.
  void DescribeBinding(uint32_t binding, const std::string& what);

  void Workgroup(uint32_t x, uint32_t y = 1, uint32_t z = 1) { workgroup_ = {x, y, z}; }

  // A storage buffer view `<word> <name>[]` at `binding` (set 0).
  void StorageBuffer(uint32_t binding, const std::string& name, const std::string& word, BufferAccess access,
                     bool restrict_ = true);
  // A read-only storage texel buffer view at `binding`.
  void TexelBuffer(uint32_t binding, const std::string& name, const std::string& format,
                   const std::string& image_type = "imageBuffer");
  // Whether a view named `name` is declared.
  bool Declares(const std::string& name) const;
  const std::vector<ShaderBinding>& bindings() const { return bindings_; }

  // Push-constant words after the workgroup base ("uint width; uint chunk; ").
  void PushWords(const std::string& fields) { push_words_ = fields; }
  // Module-scope text after the push constants, in this order: shared memory
  // (`shared float sh[256];`), globals (constants), functions.
  void Shared(const std::string& text) { shared_.push_back(text); }
  void Global(const std::string& text) { globals_.push_back(text); }
  void Function(const std::string& text) { functions_.push_back(text); }

  // Everything before `void main()`.
  std::string Prologue() const;
  // A statement that keeps every declared binding in the module and never executes: the
  // workgroup base's w is always 0, which the compiler cannot know. It reads word 0 of each
  // readable binding and stores the result into each write-only one (returning when there is
  // none, so the reads stay live).
  std::string KeepBindingsStatement() const;
  // The whole shader: the prologue, then main() with the keep statement and `body` (statements,
  // each line indented by the caller, as ElementalEmitter::body() is).
  std::string Finish(const std::string& body) const;

 private:
  std::string Header() const;

  std::string kernel_;
  ShaderPrelude prelude_;
  std::vector<std::string> config_, fused_ops_;
  std::vector<std::pair<uint32_t, std::string>> binding_notes_;
  std::array<uint32_t, 3> workgroup_ = {1, 1, 1};
  std::vector<ShaderBinding> bindings_;
  std::string push_words_;
  std::vector<std::string> shared_, globals_, functions_;
};

// Adds `lines` (without "// ") to the header of a shader ShaderWriter::Finish wrote, right after
// its title line: for kernels whose text is written before their
// planner has the whole story (a library variant writes the product; the planner knows the
// config's name and why, the fusion its fused ops). A text without a writer's header is
// returned unchanged.
std::string AddToHeader(std::string_view glsl, const std::vector<std::string>& lines);

}  // namespace vkhlo::codegen
