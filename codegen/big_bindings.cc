#include "codegen/big_bindings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace vkhlo::codegen {
namespace {

bool IsIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The alignment a reference to an array of `type` may promise (a power of two, at most 16: the
// allocator starts every buffer at a multiple of 16 or more).
uint32_t TypeAlignment(std::string_view type) {
  static const std::map<std::string_view, uint32_t> kAlign = {
      {"uint8_t", 1},    {"int8_t", 1},      {"float16_t", 2}, {"uint16_t", 2},  {"int16_t", 2},
      {"u8vec2", 2},     {"i8vec2", 2},      {"u8vec4", 4},    {"i8vec4", 4},    {"f16vec2", 4},
      {"u16vec2", 4},    {"i16vec2", 4},     {"uint", 4},      {"int", 4},       {"float", 4},
      {"bool", 4},       {"f16vec4", 8},     {"u16vec4", 8},   {"i16vec4", 8},   {"vec2", 8},
      {"uvec2", 8},      {"ivec2", 8},       {"double", 8},    {"uint64_t", 8},  {"int64_t", 8},
      {"vec3", 16},      {"uvec3", 16},      {"ivec3", 16},    {"vec4", 16},     {"uvec4", 16},
      {"ivec4", 16},     {"dvec2", 16},      {"dvec3", 16},    {"dvec4", 16},    {"u64vec2", 16},
      {"i64vec2", 16},
  };
  auto it = kAlign.find(type);
  return it == kAlign.end() ? 4 : it->second;
}

// One `layout(...) <qualifiers> buffer Name { members } [instance];` declaration.
struct BlockDecl {
  size_t begin = 0, end = 0;  // [begin, end) in the text, `end` just past the ';'
  uint32_t set = 0, binding = 0;
  bool has_binding = false;
  bool texel = false;  // `uniform imageBuffer` / `uimageBuffer` / `iimageBuffer`
  bool storage = false;
  std::string packing = "std430";
  std::string qualifiers;  // "readonly restrict" ...
  std::string name, body, instance;
};

// Parses a declaration starting at `pos` (the 'l' of "layout"); nullopt if it is not one of
// the two kinds above (push constants, local_size, shared, ...).
StatusOr<std::optional<BlockDecl>> ParseDecl(std::string_view text, size_t pos) {
  BlockDecl d;
  d.begin = pos;
  size_t i = pos + 6;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size() || text[i] != '(') return std::optional<BlockDecl>();
  const size_t close = text.find(')', i);
  if (close == std::string_view::npos) return std::optional<BlockDecl>();
  std::string_view args = text.substr(i + 1, close - i - 1);
  while (!args.empty()) {
    size_t comma = args.find(',');
    std::string_view arg = Trim(args.substr(0, comma));
    args = comma == std::string_view::npos ? std::string_view() : args.substr(comma + 1);
    size_t eq = arg.find('=');
    std::string_view key = Trim(arg.substr(0, eq));
    std::string_view value = eq == std::string_view::npos ? std::string_view() : Trim(arg.substr(eq + 1));
    auto number = [&](uint32_t& out) {
      out = 0;
      for (char c : value) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        out = out * 10 + static_cast<uint32_t>(c - '0');
      }
      return !value.empty();
    };
    if (key == "binding") {
      if (!number(d.binding)) return std::optional<BlockDecl>();  // a specialization constant: not ours
      d.has_binding = true;
    } else if (key == "set") {
      if (!number(d.set)) return std::optional<BlockDecl>();
    } else if (key == "std140" || key == "std430" || key == "scalar") {
      d.packing = std::string(key);
    }
  }
  // Qualifiers up to `buffer` or `uniform`.
  i = close + 1;
  std::vector<std::string> words;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && IsIdent(text[i])) ++i;
    if (start == i) return std::optional<BlockDecl>();
    std::string word(text.substr(start, i - start));
    if (word == "buffer") {
      d.storage = true;
      break;
    }
    if (word == "uniform") {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      size_t s = i;
      while (i < text.size() && IsIdent(text[i])) ++i;
      std::string_view type = text.substr(s, i - s);
      d.texel = type == "imageBuffer" || type == "uimageBuffer" || type == "iimageBuffer";
      if (!d.texel) return std::optional<BlockDecl>();
      size_t semi = text.find(';', i);
      d.end = semi == std::string_view::npos ? text.size() : semi + 1;
      return std::optional<BlockDecl>(std::move(d));
    }
    if (word == "in" || word == "out" || word == "shared") return std::optional<BlockDecl>();
    words.push_back(std::move(word));
  }
  for (const std::string& w : words) d.qualifiers += (d.qualifiers.empty() ? "" : " ") + w;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  size_t name_start = i;
  while (i < text.size() && IsIdent(text[i])) ++i;
  d.name = std::string(text.substr(name_start, i - name_start));
  size_t open = text.find('{', i);
  size_t end_body = text.find('}', i);
  if (d.name.empty() || open == std::string_view::npos || end_body == std::string_view::npos || end_body < open ||
      !Trim(text.substr(i, open - i)).empty()) {
    return InvalidArgumentError(fmt::format("cannot read the storage block at byte {}", pos));
  }
  d.body = std::string(text.substr(open + 1, end_body - open - 1));
  size_t semi = text.find(';', end_body);
  if (semi == std::string_view::npos) return InvalidArgumentError("a storage block without ';'");
  d.instance = std::string(Trim(text.substr(end_body + 1, semi - end_body - 1)));
  d.end = semi + 1;
  return std::optional<BlockDecl>(std::move(d));
}

struct Member {
  std::string type, name;
};

StatusOr<std::vector<Member>> Members(const BlockDecl& d) {
  std::vector<Member> members;
  std::string_view body = d.body;
  while (!body.empty()) {
    size_t semi = body.find(';');
    std::string_view m = Trim(body.substr(0, semi));
    body = semi == std::string_view::npos ? std::string_view() : body.substr(semi + 1);
    if (m.empty()) continue;
    std::string_view decl = m.substr(0, m.find('['));
    decl = Trim(decl);
    size_t split = decl.find_last_of(" \t\n");
    if (split == std::string_view::npos) {
      return InvalidArgumentError(fmt::format("block '{}': cannot read member '{}'", d.name, m));
    }
    std::string_view type = Trim(decl.substr(0, split));
    // The type is the last word before the name (qualifiers such as `layout(offset=..)` are not
    // expected in generated blocks).
    size_t type_split = type.find_last_of(" \t\n");
    if (type_split != std::string_view::npos) type = type.substr(type_split + 1);
    members.push_back({std::string(type), std::string(Trim(decl.substr(split + 1)))});
  }
  if (members.empty()) return InvalidArgumentError(fmt::format("block '{}' has no members", d.name));
  return members;
}

}  // namespace

StatusOr<AddressedGlsl> BindThroughAddresses(std::string_view glsl, const std::set<uint32_t>& bindings) {
  AddressedGlsl out;
  if (bindings.empty()) {
    out.glsl = std::string(glsl);
    return out;
  }
  std::string result;
  result.reserve(glsl.size() + 512 * bindings.size());
  size_t copied = 0;
  std::set<uint32_t> addressed;  // bindings whose address block is declared
  size_t pos = 0;
  while ((pos = glsl.find("layout", pos)) != std::string_view::npos) {
    // Only declarations that start a line (not comments, not identifiers containing "layout").
    size_t line = pos;
    while (line > 0 && (glsl[line - 1] == ' ' || glsl[line - 1] == '\t')) --line;
    const bool at_line_start = line == 0 || glsl[line - 1] == '\n';
    if (!at_line_start || (pos + 6 < glsl.size() && IsIdent(glsl[pos + 6]))) {
      pos += 6;
      continue;
    }
    VKHLO_ASSIGN_OR_RETURN(std::optional<BlockDecl> decl, ParseDecl(glsl, pos));
    if (!decl || !decl->has_binding || decl->set != 0 || !bindings.count(decl->binding)) {
      pos += 6;
      continue;
    }
    if (decl->texel) {
      out.texel.insert(decl->binding);
      pos = decl->end;
      continue;
    }
    auto members = Members(*decl);
    if (!members.ok()) {
      return members.status().WithContext(fmt::format("binding {} through a device address", decl->binding));
    }
    uint32_t align = 1;
    for (const Member& m : *members) align = std::max(align, TypeAlignment(m.type));
    const uint32_t b = decl->binding;
    const std::string ref = decl->name + "_ref";
    // Accesses read the address from a private copy that main() fills first: a load from the
    // address block at every access could not be hoisted past the kernel's stores (LLVM cannot
    // tell that they never write it), which halved llvmpipe's bandwidth.
    const std::string address = fmt::format("vkhlo_a{}", b);
    std::string text = fmt::format("layout(buffer_reference, {}, buffer_reference_align = {}) {}{}buffer {} {{{}}};\n",
                                   decl->packing, align, decl->qualifiers, decl->qualifiers.empty() ? "" : " ", ref,
                                   decl->body);
    if (!addressed.count(b)) {
      text += fmt::format("layout(set = 0, binding = {0}, std430) readonly restrict buffer VkhloAddress{0} {{ uvec2 "
                          "vkhlo_address_{0}; }};\nuvec2 {1};\n",
                          b, address);
      addressed.insert(b);
    }
    if (!decl->instance.empty()) {
      text += fmt::format("#define {} ({}({}))\n", decl->instance, ref, address);
    } else {
      for (const Member& m : *members) text += fmt::format("#define {0} ({1}({2}).{0})\n", m.name, ref, address);
    }
    result.append(glsl.substr(copied, pos - copied));
    result += text;
    copied = decl->end;
    // Drop the newline the declaration ended with: the text above ends with one.
    if (copied < glsl.size() && glsl[copied] == '\n') ++copied;
    pos = copied;
    out.rewritten.insert(b);
  }
  result.append(glsl.substr(copied));
  if (out.rewritten.empty()) {
    out.glsl = std::move(result);
    return out;
  }
  // main() first copies every address into its private variable.
  size_t main_at = result.find("void main()");
  size_t open = main_at == std::string::npos ? std::string::npos : result.find('{', main_at);
  if (open == std::string::npos) return InvalidArgumentError("a kernel without 'void main()'");
  std::string copies;
  for (uint32_t b : out.rewritten) copies += fmt::format("\n  vkhlo_a{0} = vkhlo_address_{0};", b);
  result.insert(open + 1, copies);
  // The extensions go right after #version (which must come first).
  const std::string extensions =
      "#extension GL_EXT_buffer_reference : require\n#extension GL_EXT_buffer_reference_uvec2 : require\n";
  size_t version = result.find("#version");
  size_t insert_at = 0;
  if (version != std::string::npos) {
    size_t eol = result.find('\n', version);
    insert_at = eol == std::string::npos ? result.size() : eol + 1;
  }
  result.insert(insert_at, extensions);
  out.glsl = std::move(result);
  return out;
}

}  // namespace vkhlo::codegen
