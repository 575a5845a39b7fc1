// style.FunctionLength: no function body in runtime/, kernels/, backends/
// or extension/ runs over 100 lines unless the comment right above it
// says why ("Long function: <reason>"). A reader should hold a function in
// one screen; the few exceptions are stated where they are.
//
// The scan is a small C++ lexer, not a compiler: it skips comments,
// string and character literals (raw strings too), and classifies each
// '{' by the text before it: namespace and extern "C" blocks and class
// bodies are scopes that may hold functions; a '{' in such a scope after a
// ')' (a parameter list, maybe followed by const, noexcept, a trailing
// return type or a constructor's initializers) opens a function body;
// anything inside a body belongs to that body.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxBodyLines = 100;

struct LongFunction {
  std::string file;
  size_t line;          // where the body's '{' is
  size_t body_lines;    // '{' line to '}' line, both counted
  std::string header;   // the text before the '{', squeezed
  bool has_reason;
};

enum class Scope { Namespace, Class, Function, Block };

struct Lexer {
  const std::string& text;
  size_t pos = 0;
  size_t line = 1;

  bool at_end() const { return pos >= text.size(); }
  char peek(size_t k = 0) const { return pos + k < text.size() ? text[pos + k] : '\0'; }
  void advance() {
    if (text[pos] == '\n') ++line;
    ++pos;
  }
  // Skips a comment or a literal starting at pos; false if there is none.
  bool skip_comment_or_literal() {
    if (peek() == '/' && peek(1) == '/') {
      while (!at_end() && peek() != '\n') advance();
      return true;
    }
    if (peek() == '/' && peek(1) == '*') {
      advance(), advance();
      while (!at_end() && !(peek() == '*' && peek(1) == '/')) advance();
      if (!at_end()) advance(), advance();
      return true;
    }
    if (peek() == 'R' && peek(1) == '"' && (pos == 0 || !std::isalnum(text[pos - 1]))) {
      const size_t open = text.find('(', pos);
      if (open == std::string::npos) return false;
      const std::string close = ")" + text.substr(pos + 2, open - pos - 2) + "\"";
      const size_t end = text.find(close, open);
      const size_t stop = end == std::string::npos ? text.size() : end + close.size();
      while (pos < stop) advance();
      return true;
    }
    if (peek() == '"' || (peek() == '\'' && !(pos > 0 && std::isxdigit(text[pos - 1])))) {
      const char quote = peek();
      advance();
      while (!at_end() && peek() != quote && peek() != '\n') {
        if (peek() == '\\') advance();
        if (!at_end()) advance();
      }
      if (!at_end()) advance();
      return true;
    }
    return false;
  }
};

std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool starts_with_word(const std::string& s, const char* word) {
  const size_t n = std::char_traits<char>::length(word);
  return s.compare(0, n, word) == 0 && (s.size() == n || !std::isalnum(s[n]) && s[n] != '_');
}

// What a '{' opens in a scope that may hold functions, from the text
// before it.
Scope classify(const std::string& header) {
  std::string h = header;
  if (starts_with_word(h, "template")) {  // template <...> class / function
    int depth = 0;
    size_t i = 0;
    for (; i < h.size(); ++i) {
      if (h[i] == '<') ++depth;
      if (h[i] == '>' && --depth == 0) break;
    }
    h = squeeze(h.substr(std::min(i + 1, h.size())));
  }
  if (starts_with_word(h, "namespace") || starts_with_word(h, "extern")) {
    return Scope::Namespace;
  }
  const bool paren = h.find(')') != std::string::npos;
  for (const char* kw : {"class", "struct", "union", "enum"}) {
    if (starts_with_word(h, kw) && !paren) return Scope::Class;
  }
  // A function: a parameter list before the brace, and no '=' before that
  // list (an initializer such as "const T table[] = {" or a lambda
  // assigned to a variable is not a function definition).
  const size_t open = h.find('(');
  if (paren && open != std::string::npos) {
    const std::string before = h.substr(0, open);
    const bool assigned = before.find('=') != std::string::npos &&
                          before.find("operator") == std::string::npos;
    if (!assigned) return Scope::Function;
  }
  return Scope::Block;
}

// The comment lines right above `line` (1-based) say why the function is
// long.
bool reason_above(const std::vector<std::string>& lines, size_t first_line) {
  for (size_t i = first_line - 1; i >= 1 && i + 8 >= first_line; --i) {
    const std::string t = squeeze(lines[i - 1]);
    if (t.rfind("//", 0) != 0 && t.rfind("*", 0) != 0 && t.rfind("/*", 0) != 0) break;
    if (t.find("Long function:") != std::string::npos) return true;
  }
  return false;
}

void scan_file(const std::filesystem::path& path, const std::string& shown,
               std::vector<LongFunction>* found) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::vector<std::string> lines;
  {
    std::stringstream ls(text);
    for (std::string l; std::getline(ls, l);) lines.push_back(l);
  }
  Lexer lx{text};
  struct Open {
    Scope scope;
    size_t line;
    std::string header;
    size_t header_line;
  };
  std::vector<Open> stack;
  std::string header;  // text since the last ';', '{' or '}' in this scope
  size_t header_line = 1;
  bool in_preprocessor = false;
  while (!lx.at_end()) {
    const char c = lx.peek();
    if (c == '\n') in_preprocessor = false;
    if (c == '#' && squeeze(header).empty() && !in_preprocessor) in_preprocessor = true;
    if (in_preprocessor) {
      if (c == '\\' && lx.peek(1) == '\n') lx.advance();
      lx.advance();
      continue;
    }
    if (lx.skip_comment_or_literal()) continue;
    const bool in_body = std::any_of(stack.begin(), stack.end(), [](const Open& o) {
      return o.scope == Scope::Function || o.scope == Scope::Block;
    });
    if (c == '{') {
      const Scope scope = in_body ? Scope::Block : classify(squeeze(header));
      stack.push_back({scope, lx.line, squeeze(header), header_line});
      header.clear();
    } else if (c == '}') {
      if (!stack.empty()) {
        const Open o = stack.back();
        stack.pop_back();
        const size_t body = lx.line - o.line + 1;
        if (o.scope == Scope::Function && body > kMaxBodyLines) {
          found->push_back({shown, o.line, body, o.header.substr(0, 100),
                            reason_above(lines, o.header_line)});
        }
      }
      header.clear();
    } else if (c == ';') {
      header.clear();
    } else {
      if (squeeze(header).empty() && !std::isspace(static_cast<unsigned char>(c))) {
        header_line = lx.line;
      }
      header += c;
    }
    lx.advance();
  }
}

std::vector<LongFunction> scan_tree(const std::filesystem::path& root) {
  std::vector<LongFunction> found;
  for (const char* dir : {"runtime", "kernels", "backends", "extension"}) {
    const std::filesystem::path top = root / dir;
    if (!std::filesystem::exists(top)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(top)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
      if (name.size() > 9 && name.compare(name.size() - 9, 9, "_test.cpp") == 0) continue;
      files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      scan_file(f, std::filesystem::relative(f, root).string(), &found);
    }
  }
  return found;
}

TEST(FunctionLength, TheScannerFindsBodiesAndSkipsTheRest) {
  // One long function, one long lambda inside a short function's call
  // (part of that body), a long initializer table, a long class holding a
  // long method, braces in strings and comments.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "ember_function_length_test";
  std::filesystem::create_directories(dir / "runtime");
  std::ofstream out(dir / "runtime" / "sample.cpp");
  auto body = [&](size_t n) {
    for (size_t i = 0; i < n; ++i) out << "  x += 1;  // {\n";
  };
  out << "namespace a {\nint long_one(int x) {\n";
  body(120);
  out << "  return x;\n}\nconst int kTable[] = {\n";
  for (int i = 0; i < 150; ++i) out << "  1,\n";
  out << "};\nstruct S {\n  int method(int x) const {\n    const char* s = \"}\";\n";
  body(110);
  out << "    return x;\n  }\n};\n// Long function: one table of cases.\nint long_two(int x) {\n";
  body(105);
  out << "  return x;\n}\nint short_one(int x) {\n  return x;\n}\n}  // namespace a\n";
  out.close();
  const std::vector<LongFunction> found = scan_tree(dir);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NE(found[0].header.find("long_one"), std::string::npos) << found[0].header;
  EXPECT_FALSE(found[0].has_reason);
  EXPECT_NE(found[1].header.find("method"), std::string::npos) << found[1].header;
  EXPECT_NE(found[2].header.find("long_two"), std::string::npos) << found[2].header;
  EXPECT_TRUE(found[2].has_reason);
  std::filesystem::remove_all(dir);
}

TEST(FunctionLength, LibraryFunctionsFitOneScreenOrSayWhy) {
  const std::vector<LongFunction> found = scan_tree(EMBER_SOURCE_DIR);
  size_t with_reason = 0;
  for (const LongFunction& f : found) {
    if (f.has_reason) {
      ++with_reason;
      continue;
    }
    ADD_FAILURE() << f.file << ":" << f.line << ": a function body of " << f.body_lines
                  << " lines (more than " << kMaxBodyLines
                  << "): split it by what it does, or say why above it (\"// Long function: "
                     "...\")\n  "
                  << f.header;
  }
  RecordProperty("long_functions_with_reason", int(with_reason));
}

}  // namespace
