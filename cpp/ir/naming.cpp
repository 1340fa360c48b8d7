// FX's naming rules, transcribed from torch/fx/graph.py (torch 2.15): _Namespace.create_name, _snake_case,
// _is_magic and Graph._target_to_str. The reserved-name table is torch's `_illegal_names` as it stands in
// Python 3.11: keyword.kwlist, every key of builtins.__dict__ and FX's custom builtins.
#include "ir/naming.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <vector>

namespace fx {
namespace {

// torch.fx.graph._illegal_names, minus "None": builtins.__dict__ maps "None" to the None object itself, and
// create_name is called with obj=None, so `_illegal_names.get("None", None) is not None` is False and torch
// accepts "None" as a name. Mirrored on purpose.
const std::unordered_set<std::string>& illegal_names() {
  // (A const char* table: an initializer list of std::string compiled to 4.6 KB of wasm code.)
  static const char* const kIllegal[] = {
      // keyword.kwlist
      "False", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
      // builtins.__dict__ (Python 3.11)
      "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
      "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
      "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
      "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
      "ExceptionGroup", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
      "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
      "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
      "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplemented", "NotImplementedError",
      "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
      "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
      "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit",
      "TabError", "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
      "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
      "ValueError", "Warning", "ZeroDivisionError", "__build_class__", "__debug__", "__doc__", "__import__",
      "__loader__", "__name__", "__package__", "__spec__", "abs", "aiter", "all", "anext", "any", "ascii",
      "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile",
      "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec",
      "exit", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help",
      "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals",
      "map", "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property",
      "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod",
      "str", "sum", "super", "tuple", "type", "vars", "zip",
      // FX's _custom_builtins
      "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
  };
  static const std::unordered_set<std::string> names(std::begin(kIllegal), std::end(kIllegal));
  return names;
}

bool is_ident_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// _name_regex = ^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$
bool matches_name_regex(const std::string& s) {
  if (s.empty() || is_ascii_digit(s[0])) return false;
  return std::all_of(s.begin(), s.end(), is_ident_char);
}

// The regex's groups for a string that matches: the lazy base leaves the longest "_<digits>" tail to the
// suffix, and the base keeps at least one character.
void split_suffix(const std::string& s, std::string& base, std::string& digits) {
  size_t q = s.size();
  while (q > 0 && is_ascii_digit(s[q - 1])) --q;
  if (q < s.size() && q >= 2 && s[q - 1] == '_') {
    base = s.substr(0, q - 1);
    digits = s.substr(q);
  } else {
    base = s;
    digits.clear();
  }
}

// int(digits) for the suffix; Python has big ints, 18 digits are plenty for any real graph.
long long parse_suffix(const std::string& digits) {
  long long v = 0;
  for (char c : digits) {
    if (v > 99999999999999999LL) break;
    v = v * 10 + (c - '0');
  }
  return v;
}

// re.sub("[^0-9a-zA-Z_]+", "_", s): each run of illegal bytes becomes one '_' (a multi-byte UTF-8 character
// is one run, as the one character it is in Python).
std::string replace_illegal(const std::string& s) {
  std::string out;
  bool in_run = false;
  for (char c : s) {
    if (is_ident_char(c)) {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  return out;
}

// _snake_case: "_" before an upper-case letter that follows a lower-case one, then lower-case everything.
std::string snake_case(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 4);
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z' && i > 0 && s[i - 1] >= 'a' && s[i - 1] <= 'z') out += '_';
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

bool is_magic(const std::string& s) {
  return s.size() >= 2 && s.compare(0, 2, "__") == 0 && s.compare(s.size() - 2, 2, "__") == 0;
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

}  // namespace

bool is_op_overload_target(const std::string& target) {
  static const char* const kNamespaces[] = {"aten.", "prims.", "quantized.", "_quantized.", "profiler.",
                                            "inductor.", "higher_order.", "_c10d_functional.",
                                            "c10d_functional.", "torch.ops."};
  for (const char* ns : kNamespaces) {
    if (target.rfind(ns, 0) == 0) return true;
  }
  return false;
}

std::string Namespace::create_name(const std::string& original) {
  std::string candidate = original;
  if (!matches_name_regex(candidate)) {
    candidate = replace_illegal(candidate);
    if (candidate.empty()) candidate = "_unnamed";
    if (is_ascii_digit(candidate[0])) candidate = "_" + candidate;
  }
  std::string base, digits;
  split_suffix(candidate, base, digits);

  long long num;
  if (digits.empty() || used_.count(candidate)) {
    auto it = base_count_.find(base);
    num = it == base_count_.end() ? 0 : it->second;
    if (illegal_names().count(candidate)) {
      ++num;
      candidate = base + "_" + std::to_string(num);
      // Like torch, assume a reserved name never ends in _<digits>, so no re-check is needed here.
    }
  } else {
    num = parse_suffix(digits);
  }
  while (used_.count(candidate)) {
    ++num;
    candidate = base + "_" + std::to_string(num);
  }
  used_.insert(candidate);
  base_count_[base] = num;
  return candidate;
}

bool Namespace::accepts(const std::string& name) const {
  return matches_name_regex(name) && !illegal_names().count(name) && !is_used(name);
}

void Namespace::release(const std::string& name) { used_.erase(name); }

std::string candidate_name_for_target(const std::string& op_name, const std::string& target) {
  std::string op;
  if (op_name == "call_function") {
    // A callable: Graph._target_to_str takes its __name__ (no magic stripping).
    if (is_op_overload_target(target)) {
      // OpOverload.__name__ is "<op>.<overload>"; an OpOverloadPacket's is "<op>".
      std::string t = target.rfind("torch.ops.", 0) == 0 ? target.substr(10) : target;
      std::vector<std::string> parts = split_dots(t);
      if (parts.size() >= 3) {
        op = parts[parts.size() - 2] + "." + parts.back();
      } else {
        op = parts.back();
      }
    } else {
      std::vector<std::string> parts = split_dots(target);
      op = parts.back();
      // operator.__add__ is operator.add (same object, __name__ "add").
      if (parts.size() == 2 && (parts[0] == "operator" || parts[0] == "_operator") && is_magic(op) &&
          op.size() > 4) {
        op = op.substr(2, op.size() - 4);
      }
    }
  } else {
    op = target;
    if (is_magic(op)) op = op.substr(2, op.size() >= 4 ? op.size() - 4 : 0);
  }
  return snake_case(op);
}

}  // namespace fx
