#include "codegen/shader_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen {

void ShaderPrelude::Add(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

void ShaderPrelude::Helper(const std::string& name, const std::string& text) {
  if (helper_names_.insert(name).second) helpers_.push_back(text);
}

std::string OpSummary(const ir::Operation& op, const std::string& source_name) {
  const std::string where = OpLocation(op, source_name);
  std::string types;
  for (size_t i = 0; i < op.num_results(); ++i) types += (i ? ", " : "") + op.result(i)->type().ToString();
  return fmt::format("{} -> {}{}", op.name(), types, where.empty() ? "" : " at " + where);
}

void ShaderWriter::FusedOp(const ir::Operation& op, const std::string& source_name) {
  fused_ops_.push_back(OpSummary(op, source_name));
}

void ShaderWriter::FusedOps(const std::vector<const ir::Operation*>& ops, const std::string& source_name) {
  for (const ir::Operation* op : ops) FusedOp(*op, source_name);
}

void ShaderWriter::DescribeBinding(uint32_t binding, const std::string& what) {
  binding_notes_.emplace_back(binding, what);
}

void ShaderWriter::StorageBuffer(uint32_t binding, const std::string& name, const std::string& word,
                                 BufferAccess access, bool restrict_) {
  ShaderBinding b;
  b.binding = binding;
  b.name = name;
  b.word = word;
  b.access = access;
  b.restrict_ = restrict_;
  bindings_.push_back(std::move(b));
}

void ShaderWriter::TexelBuffer(uint32_t binding, const std::string& name, const std::string& format,
                               const std::string& image_type) {
  ShaderBinding b;
  b.binding = binding;
  b.name = name;
  b.texel_format = format;
  b.image_type = image_type;
  b.access = BufferAccess::kRead;
  b.restrict_ = false;
  bindings_.push_back(std::move(b));
}

bool ShaderWriter::Declares(const std::string& name) const {
  return std::any_of(bindings_.begin(), bindings_.end(), [&](const ShaderBinding& b) { return b.name == name; });
}

namespace {

const char* AccessWord(BufferAccess access) {
  switch (access) {
    case BufferAccess::kRead:
      return "readonly";
    case BufferAccess::kWrite:
      return "writeonly";
    case BufferAccess::kReadWrite:
      break;
  }
  return "";
}

std::string Declaration(const ShaderBinding& b) {
  if (!b.texel_format.empty()) {
    return fmt::format("layout(set = 0, binding = {}, {}) readonly uniform {} {};\n", b.binding, b.texel_format,
                       b.image_type, b.name);
  }
  std::string qualifiers = AccessWord(b.access);
  if (b.restrict_) qualifiers += qualifiers.empty() ? "restrict" : " restrict";
  return fmt::format("layout(std430, set = 0, binding = {}) {}{}buffer Buffer_{} {{ {} {}[]; }};\n", b.binding,
                     qualifiers, qualifiers.empty() ? "" : " ", b.name, b.word, b.name);
}

// The scalar type of a GLSL vector type ("uvec4" -> "uint", "f16vec2" -> "float16_t"); the
// type itself for scalars.
std::string ScalarOf(const std::string& word) {
  const size_t vec = word.find("vec");
  if (vec == std::string::npos) return word;
  const std::string prefix = word.substr(0, vec);
  static const std::map<std::string, std::string> kScalar = {
      {"", "float"},      {"u", "uint"},          {"i", "int"},         {"d", "double"}, {"b", "bool"},
      {"f16", "float16_t"}, {"u64", "uint64_t"}, {"i64", "int64_t"},   {"u16", "uint16_t"},
      {"i16", "int16_t"}, {"u8", "uint8_t"},      {"i8", "int8_t"},
  };
  auto it = kScalar.find(prefix);
  return it == kScalar.end() ? "uint" : it->second;
}

// `value` (of GLSL type `word`) as a uint, for the keep statement's xor.
std::string AsUint(const std::string& value, const std::string& word) {
  const std::string scalar = ScalarOf(word);
  const std::string x = scalar == word ? value : value + ".x";
  if (scalar == "uint") return x;
  if (scalar == "float") return fmt::format("floatBitsToUint({})", x);
  return fmt::format("uint({})", x);
}

}  // namespace

std::string ShaderWriter::Header() const {
  std::string out = "// vkhlo " + kernel_ + "\n";
  for (const std::string& line : config_) out += "// " + line + "\n";
  if (!fused_ops_.empty()) {
    out += "// fused ops:\n";
    for (const std::string& op : fused_ops_) out += "//   " + op + "\n";
  }
  if (!bindings_.empty()) {
    out += "// bindings:\n";
    std::map<uint32_t, std::vector<const ShaderBinding*>> by_binding;
    for (const ShaderBinding& b : bindings_) by_binding[b.binding].push_back(&b);
    for (const auto& [binding, views] : by_binding) {
      std::string line;
      for (const ShaderBinding* v : views) {
        line += line.empty() ? "" : ", ";
        if (v->texel_format.empty()) {
          std::string access = AccessWord(v->access);
          line += fmt::format("{} {}[] {}", v->name, v->word, access.empty() ? "read-write" : access);
        } else {
          line += fmt::format("{} {} {}", v->name, v->image_type, v->texel_format);
        }
      }
      for (const auto& [b, what] : binding_notes_) {
        if (b == binding) line += ": " + what;
      }
      out += fmt::format("//   {}: {}\n", binding, line);
    }
  }
  return out;
}

std::string ShaderWriter::Prologue() const {
  std::string out = "#version 450\n";
  // Includes need the include directive (the GLSL library's files, codegen/glsl/).
  std::vector<std::string> extensions = prelude_.extensions();
  const std::string include_directive = "GL_GOOGLE_include_directive";
  if (!prelude_.includes().empty() &&
      std::find(extensions.begin(), extensions.end(), include_directive) == extensions.end()) {
    extensions.insert(extensions.begin(), include_directive);
  }
  for (const std::string& ext : extensions) out += fmt::format("#extension {} : require\n", ext);
  out += Header();
  for (const std::string& file : prelude_.includes()) out += fmt::format("#include \"{}\"\n", file);
  out += fmt::format("layout(local_size_x = {}, local_size_y = {}, local_size_z = {}) in;\n", workgroup_[0],
                     workgroup_[1], workgroup_[2]);
  for (const ShaderBinding& b : bindings_) out += Declaration(b);
  out += fmt::format("layout(push_constant) uniform PushConstants {{ uvec4 vkhlo_workgroup_base; {}}} pc;\n",
                     push_words_);
  out += "#define vkhlo_workgroup_id(pc) (gl_WorkGroupID + (pc).vkhlo_workgroup_base.xyz)\n";
  auto text = [&out](const std::string& t) {
    out += t;
    if (!t.empty() && t.back() != '\n') out += '\n';
  };
  for (const std::string& t : prelude_.helpers()) text(t);
  for (const std::string& t : prelude_.globals()) text(t);
  for (const std::string& t : globals_) text(t);
  for (const std::string& t : shared_) text(t);
  for (const std::string& t : functions_) text(t);
  return out;
}

std::string ShaderWriter::KeepBindingsStatement() const {
  // One view per binding: a readable one where there is one.
  std::map<uint32_t, const ShaderBinding*> view;
  for (const ShaderBinding& b : bindings_) {
    auto [it, inserted] = view.emplace(b.binding, &b);
    if (!inserted && it->second->access == BufferAccess::kWrite && b.access != BufferAccess::kWrite) it->second = &b;
  }
  if (view.empty()) return "";
  std::vector<std::string> reads, writes;
  for (const auto& [binding, b] : view) {
    if (!b->texel_format.empty()) {
      const std::string texel = b->image_type == "imageBuffer"    ? "vec4"
                                : b->image_type == "iimageBuffer" ? "ivec4"
                                                                  : "uvec4";
      reads.push_back(AsUint(fmt::format("imageLoad({}, 0)", b->name), texel));
    } else if (b->access == BufferAccess::kWrite) {
      writes.push_back(fmt::format("{}[0] = {}(keep);", b->name, b->word));
    } else {
      reads.push_back(AsUint(b->name + "[0]", b->word));
    }
  }
  std::string out = "if (pc.vkhlo_workgroup_base.w == 0xffffffffu) { uint keep = ";
  if (reads.empty()) {
    out += "0u;";
  } else {
    for (size_t i = 0; i < reads.size(); ++i) out += (i ? " ^ " : "") + reads[i];
    out += ";";
  }
  for (const std::string& w : writes) out += " " + w;
  if (writes.empty()) out += " if (keep == 0x12345678u) return;";
  return out + " }";
}

std::string ShaderWriter::Finish(const std::string& body) const {
  std::string out = Prologue();
  out += "\nvoid main() {\n";
  const std::string keep = KeepBindingsStatement();
  if (!keep.empty()) out += "  " + keep + "\n";
  return out + body + "}\n";
}

std::string AddToHeader(std::string_view glsl, const std::vector<std::string>& lines) {
  size_t pos = glsl.find("\n// vkhlo ");
  if (pos == std::string_view::npos) return std::string(glsl);
  pos = glsl.find('\n', pos + 1);  // the end of the title: the lines go right after it
  if (pos == std::string_view::npos) return std::string(glsl);
  std::string added;
  for (const std::string& line : lines) added += "// " + line + "\n";
  std::string out(glsl.substr(0, pos + 1));
  out += added;
  out += glsl.substr(pos + 1);
  return out;
}

}  // namespace vkhlo::codegen
