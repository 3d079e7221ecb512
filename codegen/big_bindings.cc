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

// The position of the next "layout" at or after `pos` that starts a line (a declaration; not a
// comment's word nor part of an identifier), or npos.
size_t NextLayoutLine(std::string_view glsl, size_t pos) {
  while ((pos = glsl.find("layout", pos)) != std::string_view::npos) {
    size_t line = pos;
    while (line > 0 && (glsl[line - 1] == ' ' || glsl[line - 1] == '\t')) --line;
    const bool at_line_start = line == 0 || glsl[line - 1] == '\n';
    if (at_line_start && !(pos + 6 < glsl.size() && IsIdent(glsl[pos + 6]))) return pos;
    pos += 6;
  }
  return std::string_view::npos;
}

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

// Inserts `code` at the start of main()'s body. A kernel file may hold several mains, one per
// pass, under #if (shaders/sort/sort.comp): every one gets it, whichever the preprocessor keeps.
Status InsertAtStartOfMain(std::string& glsl, const std::string& code) {
  std::vector<size_t> opens;
  for (size_t at = glsl.find("void main()"); at != std::string::npos; at = glsl.find("void main()", at + 1)) {
    const size_t open = glsl.find('{', at);
    if (open != std::string::npos) opens.push_back(open);
  }
  if (opens.empty()) return InvalidArgumentError("a kernel without 'void main()'");
  for (auto it = opens.rbegin(); it != opens.rend(); ++it) glsl.insert(*it + 1, code);
  return OkStatus();
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
  while ((pos = NextLayoutLine(glsl, pos)) != std::string_view::npos) {
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
  std::string copies;
  for (uint32_t b : out.rewritten) copies += fmt::format("\n  vkhlo_a{0} = vkhlo_address_{0};", b);
  VKHLO_RETURN_IF_ERROR(InsertAtStartOfMain(result, copies));
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

namespace {

uint32_t ElementBytes(std::string_view type) {
  static const std::map<std::string_view, uint32_t> kBytes = {
      {"uint8_t", 1},  {"int8_t", 1},   {"float16_t", 2}, {"uint16_t", 2}, {"int16_t", 2},  {"u8vec2", 2},
      {"i8vec2", 2},   {"u8vec4", 4},   {"i8vec4", 4},    {"f16vec2", 4},  {"u16vec2", 4},  {"i16vec2", 4},
      {"uint", 4},     {"int", 4},      {"float", 4},     {"bool", 4},     {"f16vec4", 8},  {"u16vec4", 8},
      {"i16vec4", 8},  {"vec2", 8},     {"uvec2", 8},     {"ivec2", 8},    {"double", 8},   {"uint64_t", 8},
      {"int64_t", 8},  {"vec4", 16},    {"uvec4", 16},    {"ivec4", 16},   {"dvec2", 16},   {"u64vec2", 16},
      {"i64vec2", 16},
      // 32-byte elements (the library's matmul reads u64vec4 with shaderInt64): windows must be
      // multiples of 32 bytes then, checked below.
      {"u64vec4", 32}, {"i64vec4", 32}, {"dvec4", 32},
  };
  auto it = kBytes.find(type);
  return it == kBytes.end() ? 0 : it->second;
}

// One array reached through windows.
struct WindowedArray {
  std::string instance;  // the block's instance name ("" when members are global)
  std::string member, type;
  uint32_t element_bytes = 0;
  const WindowedBinding* windows = nullptr;
  bool read = false;
  std::set<std::string> atomics;
  // Element index where window k starts.
  uint64_t Start(size_t k) const { return k * windows->window_bytes / element_bytes; }
  std::string Window(size_t k) const { return fmt::format("{}_w{}", member, k); }
};

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// The index of the bracket closing the one at `open`, or npos.
size_t Matching(std::string_view t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    char c = t[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i;
      if (depth < 0) return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

class WindowRewriter {
 public:
  explicit WindowRewriter(std::map<std::string, WindowedArray>& arrays) : arrays_(arrays) {}

  // Rewrites every access in `t`. `statements`: `t` is a sequence of statements (else an
  // expression, where a write is an error).
  StatusOr<std::string> Rewrite(std::string_view t, bool statements) {
    std::string out;
    size_t i = 0;
    while (i < t.size()) {
      char c = t[i];
      if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
        size_t eol = t.find('\n', i);
        eol = eol == std::string_view::npos ? t.size() : eol;
        out.append(t.substr(i, eol - i));
        i = eol;
        continue;
      }
      if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
        size_t end = t.find("*/", i + 2);
        end = end == std::string_view::npos ? t.size() : end + 2;
        out.append(t.substr(i, end - i));
        i = end;
        continue;
      }
      // `#define alias name`: accesses through the alias are rewritten as the array's (the
      // line itself stays: any use left would name an undeclared array, a compile error).
      if (c == '#' && SkipSpace(t, t.rfind('\n', i) == std::string_view::npos ? 0 : t.rfind('\n', i) + 1) == i) {
        size_t eol = t.find('\n', i);
        eol = eol == std::string_view::npos ? t.size() : eol;
        std::string_view line = t.substr(i + 1, eol - i - 1);
        std::vector<std::string> words;
        for (size_t w = 0; w < line.size();) {
          if (std::isspace(static_cast<unsigned char>(line[w]))) {
            ++w;
            continue;
          }
          size_t e = w;
          while (e < line.size() && !std::isspace(static_cast<unsigned char>(line[e]))) ++e;
          words.emplace_back(line.substr(w, e - w));
          w = e;
        }
        if (words.size() == 3 && words[0] == "define" && Find(words[2]) != nullptr) {
          aliases_[words[1]] = Key(words[2]);
          out.append(t.substr(i, eol - i));
          i = eol;
          continue;
        }
      }
      if (!IsIdent(c) || (i > 0 && IsIdent(t[i - 1])) || std::isdigit(static_cast<unsigned char>(c))) {
        out += c;
        ++i;
        continue;
      }
      size_t end = i;
      while (end < t.size() && IsIdent(t[end])) ++end;
      std::string ident(t.substr(i, end - i));
      if (ident.rfind("atomic", 0) == 0) {
        size_t open = SkipSpace(t, end);
        if (open < t.size() && t[open] == '(') {
          size_t arg = SkipSpace(t, open + 1);
          size_t arg_end = arg;
          while (arg_end < t.size() && IsIdent(t[arg_end])) ++arg_end;
          if (arg_end > arg && Find(std::string(t.substr(arg, arg_end - arg))) != nullptr) {
            VKHLO_ASSIGN_OR_RETURN(i, Atomic(t, i, ident, arg, arg_end - arg, out));
            continue;
          }
        }
      }
      WindowedArray* found = Find(ident);
      if (found == nullptr || (i > 0 && t[i - 1] == '.')) {
        out.append(ident);
        i = end;
        continue;
      }
      VKHLO_ASSIGN_OR_RETURN(i, Access(t, i, ident.size(), *found, statements, out));
    }
    return out;
  }

 private:
  struct Parsed {
    size_t index_begin = 0, index_end = 0;  // the index expression, without brackets
    size_t suffix_begin = 0, suffix_end = 0;
  };

  // The array `name` (or an alias of it) names; nullptr if none.
  WindowedArray* Find(const std::string& name) {
    auto alias = aliases_.find(name);
    auto it = arrays_.find(alias == aliases_.end() ? name : alias->second);
    return it == arrays_.end() ? nullptr : &it->second;
  }
  std::string Key(const std::string& name) const {
    auto alias = aliases_.find(name);
    return alias == aliases_.end() ? name : alias->second;
  }

  // Parses `name[e]suffix` (or `inst.member[e]suffix`) starting at `at`, the name (or an alias)
  // `name_size` characters.
  StatusOr<Parsed> Parse(std::string_view t, size_t at, size_t name_size, const WindowedArray& a) {
    size_t i = at + name_size;
    if (!a.instance.empty()) {
      i = SkipSpace(t, i);
      if (i >= t.size() || t[i] != '.') return Unsafe(a, t, at);
      i = SkipSpace(t, i + 1);
      if (t.substr(i, a.member.size()) != a.member || (i + a.member.size() < t.size() && IsIdent(t[i + a.member.size()]))) {
        return Unsafe(a, t, at);
      }
      i += a.member.size();
    }
    i = SkipSpace(t, i);
    if (i >= t.size() || t[i] != '[') return Unsafe(a, t, at);
    size_t close = Matching(t, i);
    if (close == std::string_view::npos) return Unsafe(a, t, at);
    Parsed p;
    p.index_begin = i + 1;
    p.index_end = close;
    p.suffix_begin = close + 1;
    size_t s = close + 1;
    while (true) {
      size_t n = SkipSpace(t, s);
      if (n < t.size() && t[n] == '.' && n + 1 < t.size() && !std::isdigit(static_cast<unsigned char>(t[n + 1]))) {
        size_t w = SkipSpace(t, n + 1);
        size_t e = w;
        while (e < t.size() && IsIdent(t[e])) ++e;
        if (e == w) break;
        s = e;
      } else if (n < t.size() && t[n] == '[') {
        size_t m = Matching(t, n);
        if (m == std::string_view::npos) return Unsafe(a, t, at);
        s = m + 1;
      } else {
        break;
      }
    }
    p.suffix_end = s;
    return p;
  }

  Status Unsafe(const WindowedArray& a, std::string_view t, size_t at, std::string_view why = "") {
    size_t eol = t.find('\n', at);
    std::string_view line = Trim(t.substr(at, std::min<size_t>(eol == std::string_view::npos ? t.size() : eol, at + 80) - at));
    return InvalidArgumentError(fmt::format(
        "array '{}' (binding {}, reached through {} descriptors) is used in a way the rewrite cannot follow{}: '{}'",
        a.member, a.windows->binding, a.windows->window_bindings.size(), why.empty() ? "" : fmt::format(" ({})", why),
        line));
  }

  StatusOr<size_t> Access(std::string_view t, size_t at, size_t name_size, WindowedArray& a, bool statements,
                          std::string& out) {
    VKHLO_ASSIGN_OR_RETURN(Parsed p, Parse(t, at, name_size, a));
    VKHLO_ASSIGN_OR_RETURN(std::string index, Rewrite(t.substr(p.index_begin, p.index_end - p.index_begin), false));
    VKHLO_ASSIGN_OR_RETURN(std::string suffix, Rewrite(t.substr(p.suffix_begin, p.suffix_end - p.suffix_begin), false));
    size_t q = SkipSpace(t, p.suffix_end);
    std::string_view rest = t.substr(q);
    static const char* kOps[] = {"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
    std::string op;
    for (const char* o : kOps) {
      if (rest.rfind(o, 0) == 0) {
        op = o;
        break;
      }
    }
    if (op.empty() && !rest.empty() && rest[0] == '=' && (rest.size() < 2 || rest[1] != '=')) op = "=";
    if (rest.rfind("++", 0) == 0 || rest.rfind("--", 0) == 0) return Unsafe(a, t, at, "increment");
    // What precedes the access.
    size_t b = at;
    while (b > 0 && std::isspace(static_cast<unsigned char>(t[b - 1]))) --b;
    if (b >= 2 && (t.substr(b - 2, 2) == "++" || t.substr(b - 2, 2) == "--")) return Unsafe(a, t, at, "increment");
    if (op.empty()) {
      a.read = true;
      out += fmt::format("{}_at(uint({})){}", a.member, index, suffix);
      return p.suffix_end;
    }
    // A write: a whole expression statement.
    // After a preprocessor line (`#if ...` around the statement) a statement starts too.
    const auto after_directive = [&] {
      const size_t line_start = t.rfind('\n', b - 1);
      const size_t first_char = SkipSpace(t, line_start == std::string_view::npos ? 0 : line_start + 1);
      return first_char < b && t[first_char] == '#';
    };
    const bool statement_start = b == 0 || t[b - 1] == ';' || t[b - 1] == '{' || t[b - 1] == '}' || t[b - 1] == ')' ||
                                 (b >= 4 && t.substr(b - 4, 4) == "else" && (b == 4 || !IsIdent(t[b - 5]))) ||
                                 after_directive();
    if (!statements || !statement_start) return Unsafe(a, t, at, "an assignment inside an expression");
    size_t line = t.rfind('\n', at);
    size_t first = SkipSpace(t, line == std::string_view::npos ? 0 : line + 1);
    if (first < t.size() && t[first] == '#') return Unsafe(a, t, at, "an assignment in a preprocessor line");
    size_t v = q + op.size();
    int depth = 0;
    size_t semi = std::string_view::npos;
    for (size_t k = v; k < t.size(); ++k) {
      char c = t[k];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) break;
      }
      if (depth == 0 && c == ',') break;
      if (depth == 0 && c == ';') {
        semi = k;
        break;
      }
    }
    if (semi == std::string_view::npos) return Unsafe(a, t, at, "not a statement of its own");
    VKHLO_ASSIGN_OR_RETURN(std::string value, Rewrite(Trim(t.substr(v, semi - v)), false));
    const size_t windows = a.windows->window_bindings.size();
    std::string s = fmt::format("{{ uint vkhlo_i = uint({}); ", index);
    for (size_t k = 0; k < windows; ++k) {
      std::string target = k == 0 ? fmt::format("{}[vkhlo_i]", a.Window(0))
                                  : fmt::format("{}[vkhlo_i - {}u]", a.Window(k), a.Start(k));
      std::string assign = fmt::format("{}{} {} ({});", target, suffix, op, value);
      if (k + 1 < windows) {
        s += fmt::format("{}if (vkhlo_i < {}u) {} ", k == 0 ? "" : "else ", a.Start(k + 1), assign);
      } else {
        s += fmt::format("{}{} ", k == 0 ? "" : "else ", assign);
      }
    }
    s += "}";
    out += s;
    return semi + 1;
  }

  // `atomicXxx(name[e], ...` -> `name_atomicXxx(uint(e), ...`: the rest of the call is left to
  // the scan.
  StatusOr<size_t> Atomic(std::string_view t, size_t at, const std::string& function, size_t arg, size_t name_size,
                          std::string& out) {
    WindowedArray& a = *Find(std::string(t.substr(arg, name_size)));
    static const std::set<std::string> kSupported = {"atomicAdd", "atomicMin", "atomicMax", "atomicAnd",
                                                     "atomicOr",  "atomicXor", "atomicExchange", "atomicCompSwap"};
    if (!kSupported.count(function)) return Unsafe(a, t, at, function + " is not rewritten");
    VKHLO_ASSIGN_OR_RETURN(Parsed p, Parse(t, arg, name_size, a));
    if (p.suffix_end != p.suffix_begin) return Unsafe(a, t, at, "an atomic on a component");
    size_t comma = SkipSpace(t, p.suffix_end);
    if (comma >= t.size() || t[comma] != ',') return Unsafe(a, t, at, "an atomic on a component");
    VKHLO_ASSIGN_OR_RETURN(std::string index, Rewrite(t.substr(p.index_begin, p.index_end - p.index_begin), false));
    a.atomics.insert(function);
    out += fmt::format("{}_{}(uint({}),", a.member, function, index);
    return comma + 1;
  }

  std::map<std::string, WindowedArray>& arrays_;
  std::map<std::string, std::string> aliases_;  // `#define alias name`
};

// The declarations of one storage block's windows, with the functions its accesses call.
std::string WindowDecls(const BlockDecl& d, const WindowedArray& a) {
  std::string text;
  const size_t windows = a.windows->window_bindings.size();
  const std::string quals = d.qualifiers.empty() ? "" : d.qualifiers + " ";
  for (size_t k = 0; k < windows; ++k) {
    text += fmt::format("layout(set = 0, binding = {}, {}) {}buffer {}_w{} {{ {} {}[]; }};\n",
                        a.windows->window_bindings[k], d.packing, quals, d.name, k, a.type, a.Window(k));
  }
  if (a.read) {
    text += fmt::format("{} {}_at(uint i) {{ return ", a.type, a.member);
    for (size_t k = 0; k + 1 < windows; ++k) {
      text += fmt::format("i < {}u ? {}[i{}] : ", a.Start(k + 1), a.Window(k),
                          k == 0 ? std::string() : fmt::format(" - {}u", a.Start(k)));
    }
    text += fmt::format("{}[i - {}u]; }}\n", a.Window(windows - 1), a.Start(windows - 1));
  }
  for (const std::string& f : a.atomics) {
    const bool swap = f == "atomicCompSwap";
    text += fmt::format("{0} {1}_{2}(uint i, {0} v{3}) {{ ", a.type, a.member, f, swap ? fmt::format(", {} w", a.type) : "");
    for (size_t k = 0; k < windows; ++k) {
      std::string call = fmt::format("return {}({}[i{}], v{});", f, a.Window(k),
                                     k == 0 ? std::string() : fmt::format(" - {}u", a.Start(k)), swap ? ", w" : "");
      text += k + 1 < windows ? fmt::format("if (i < {}u) {} ", a.Start(k + 1), call) : call + " }\n";
    }
  }
  return text;
}

}  // namespace

StatusOr<WindowedGlsl> BindThroughWindows(std::string_view glsl, const std::map<uint32_t, uint64_t>& bytes,
                                          uint64_t window_bytes) {
  WindowedGlsl out;
  if (window_bytes == 0 || window_bytes % 16 != 0) {
    return InvalidArgumentError(fmt::format("windows of {} bytes (must be a positive multiple of 16)", window_bytes));
  }
  std::vector<BlockDecl> decls;  // those to rewrite, in text order
  uint32_t next_binding = 0;
  size_t pos = 0;
  while ((pos = NextLayoutLine(glsl, pos)) != std::string_view::npos) {
    VKHLO_ASSIGN_OR_RETURN(std::optional<BlockDecl> decl, ParseDecl(glsl, pos));
    if (!decl || !decl->has_binding || decl->set != 0) {
      pos += 6;
      continue;
    }
    next_binding = std::max(next_binding, decl->binding + 1);
    pos = decl->end;
    if (!bytes.count(decl->binding)) continue;
    if (decl->texel) {
      out.texel.insert(decl->binding);
      continue;
    }
    decls.push_back(std::move(*decl));
  }
  // Window bindings, in order of binding.
  std::map<uint32_t, WindowedBinding> windows;
  for (const BlockDecl& d : decls) windows[d.binding].binding = d.binding;
  for (auto& [b, w] : windows) {
    w.window_bytes = window_bytes;
    const uint64_t k = std::max<uint64_t>(1, (bytes.at(b) + window_bytes - 1) / window_bytes);
    w.window_bindings.push_back(b);
    for (uint64_t j = 1; j < k; ++j) w.window_bindings.push_back(next_binding++);
  }
  std::map<std::string, WindowedArray> arrays;
  std::vector<std::string> keys;  // per decl
  for (const BlockDecl& d : decls) {
    auto members = Members(d);
    if (!members.ok()) return members.status().WithContext(fmt::format("binding {} through several descriptors", d.binding));
    std::string_view body = Trim(d.body);
    if (members->size() != 1 || body.find('[') == std::string_view::npos ||
        !Trim(body.substr(body.find('[') + 1, body.find(']') - body.find('[') - 1)).empty()) {
      return InvalidArgumentError(fmt::format(
          "binding {} through several descriptors: block '{}' is not one runtime array ('{}')", d.binding, d.name, body));
    }
    WindowedArray a;
    a.instance = d.instance;
    a.member = (*members)[0].name;
    a.type = (*members)[0].type;
    a.element_bytes = ElementBytes(a.type);
    a.windows = &windows.at(d.binding);
    if (a.element_bytes == 0) {
      return InvalidArgumentError(fmt::format("binding {} through several descriptors: elements of type '{}' are not supported",
                                              d.binding, a.type));
    }
    if (window_bytes % a.element_bytes != 0) {
      return InvalidArgumentError(fmt::format(
          "binding {} through several descriptors: elements of type '{}' ({} bytes) would straddle windows of {} bytes",
          d.binding, a.type, a.element_bytes, window_bytes));
    }
    std::string key = a.instance.empty() ? a.member : a.instance;
    if (arrays.count(key) || arrays.count(a.member)) {
      return InvalidArgumentError(fmt::format("binding {} through several descriptors: '{}' declared twice", d.binding, key));
    }
    keys.push_back(key);
    arrays.emplace(key, std::move(a));
  }
  // Declarations out (markers in), accesses rewritten, declarations in.
  std::string marked;
  size_t copied = 0;
  for (size_t n = 0; n < decls.size(); ++n) {
    marked.append(glsl.substr(copied, decls[n].begin - copied));
    marked += fmt::format("@@vkhlo_windows_{}@@", n);
    copied = decls[n].end;
  }
  marked.append(glsl.substr(copied));
  if (decls.empty()) {
    out.glsl = std::move(marked);
    return out;
  }
  WindowRewriter rewriter(arrays);
  VKHLO_ASSIGN_OR_RETURN(std::string result, rewriter.Rewrite(marked, true));
  for (size_t n = 0; n < decls.size(); ++n) {
    const std::string marker = fmt::format("@@vkhlo_windows_{}@@", n);
    size_t at = result.find(marker);
    if (at == std::string::npos) return InternalError("a window marker went missing");
    std::string text = WindowDecls(decls[n], arrays.at(keys[n]));
    if (!text.empty() && text.back() == '\n' && at + marker.size() < result.size() && result[at + marker.size()] == '\n') {
      text.pop_back();
    }
    result.replace(at, marker.size(), text);
  }
  // Keep every window in the interface: an access whose index the optimizer folds (a kernel
  // touching each binding at index 0) would leave the other windows unused, and the pipeline
  // expects each window binding. The condition never holds but is not known at compile time.
  std::string touch;
  std::set<uint32_t> touched;
  for (size_t n = 0; n < decls.size(); ++n) {
    const WindowedArray& a = arrays.at(keys[n]);
    if (!touched.insert(a.windows->binding).second) continue;
    for (size_t k = 0; k < a.windows->window_bindings.size(); ++k) {
      touch += fmt::format("{}{}.length()", touch.empty() ? "" : " + ", a.Window(k));
    }
  }
  VKHLO_RETURN_IF_ERROR(
      InsertAtStartOfMain(result, fmt::format("\n  if (gl_NumWorkGroups.x == 0u && ({}) == 12345) return;", touch)));
  for (auto& [b, w] : windows) out.windowed.push_back(w);
  out.glsl = std::move(result);
  return out;
}

}  // namespace vkhlo::codegen
