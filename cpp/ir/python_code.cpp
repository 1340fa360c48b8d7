// GraphModule.code, transcribed from torch 2.15's CodeGen._gen_python_code (torch/fx/graph.py) for the
// default code generator with verbose=False: no stack-trace comments, no colours, no boxed arguments.
//
// Two details decide whether the text is byte-exact:
//  - Names come from a fresh namespace shared by locals and globals, filled in the order torch fills it
//    (a local keeps its node name unless an earlier global took it: a node "math_sqrt" after a call of
//    math.sqrt prints as "math_sqrt_1"). Every step below that names something runs in torch's order.
//  - torch marks each node's text with "# COUNTER: i" lines and afterwards drops every line in which that
//    pattern occurs. We do the same, so even a string argument spelling the marker behaves as in torch.
#include "ir/python_code.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"
#include "support/error.h"
#include "support/strings.h"

namespace fx {
namespace {

// torch.fx.graph.magic_methods and inplace_methods, keyed by the operator module's function name.
const std::unordered_map<std::string, const char*>& magic_methods() {
  static const std::unordered_map<std::string, const char*> m = {
      {"add", "{} + {}"},   {"sub", "{} - {}"},       {"mul", "{} * {}"},     {"floordiv", "{} // {}"},
      {"truediv", "{} / {}"}, {"div", "{} / {}"},     {"mod", "{} % {}"},     {"pow", "{} ** {}"},
      {"lshift", "{} << {}"}, {"rshift", "{} >> {}"}, {"and_", "{} & {}"},    {"or_", "{} | {}"},
      {"xor", "{} ^ {}"},   {"getitem", "{}[{}]"},    {"matmul", "{} @ {}"},  {"eq", "{} == {}"},
      {"ne", "{} != {}"},   {"lt", "{} < {}"},        {"gt", "{} > {}"},      {"le", "{} <= {}"},
      {"ge", "{} >= {}"},   {"pos", "+{}"},           {"neg", "-{}"},         {"invert", "~{}"},
  };
  return m;
}

const std::unordered_map<std::string, const char*>& inplace_methods() {
  static const std::unordered_map<std::string, const char*> m = {
      {"iadd", "{} += {}"},  {"iand", "{} &= {}"},   {"ifloordiv", "{} //= {}"}, {"ilshift", "{} <<= {}"},
      {"imod", "{} %= {}"},  {"imul", "{} *= {}"},   {"imatmul", "{} @= {}"},    {"ior", "{} |= {}"},
      {"ipow", "{} **= {}"}, {"irshift", "{} >>= {}"}, {"isub", "{} -= {}"},     {"itruediv", "{} /= {}"},
      {"ixor", "{} ^= {}"},  {"setitem", "{}[{}] = {}"},
  };
  return m;
}

// Methods of torch.Tensor written in Python (torch/_tensor.py). Their __module__ is "torch._tensor", so
// codegen prints them by qualified name; every other torch.Tensor method is a C method descriptor without
// a __module__, which codegen treats as a foreign global ("torch.Tensor.add" → torch_Tensor_add).
const std::unordered_set<std::string>& python_tensor_methods() {
  static const std::unordered_set<std::string> s = {
      "__array__", "__array_wrap__", "__contains__", "__deepcopy__", "__dir__", "__dlpack__",
      "__dlpack_device__", "__floordiv__", "__format__", "__hash__", "__iter__", "__len__", "__rdiv__",
      "__reduce_ex__", "__repr__", "__reversed__", "__rfloordiv__", "__rlshift__", "__rmatmul__", "__rmod__",
      "__rpow__", "__rrshift__", "__rsub__", "__setstate__", "__torch_function__",
      "_clear_non_serializable_cached_data", "_reduce_ex_internal", "_typed_storage", "backward", "cholesky",
      "dim_order", "eig", "index", "is_shared", "istft", "lstsq", "lu", "module_load", "norm", "qr",
      "register_hook", "register_post_accumulate_grad_hook", "reinforce", "resize", "resize_as",
      "share_memory_", "solve", "split", "stft", "storage", "storage_type", "symeig", "to_sparse_coo",
      "unflatten", "unique", "unique_consecutive"};
  return s;
}

// torch.fx.graph._torch_but_not_dynamo: ^torch(?:\.(?!_dynamo\.|_inductor\.)[^.]+)*$ on a module name.
bool torch_but_not_dynamo(const std::string& module) {
  if (module.compare(0, 5, "torch") != 0) return false;
  size_t i = 5;
  while (i < module.size()) {
    if (module[i] != '.') return false;
    size_t end = module.find('.', i + 1);
    std::string part = module.substr(i + 1, end == std::string::npos ? std::string::npos : end - i - 1);
    if (part.empty()) return false;
    if (end != std::string::npos && (part == "_dynamo" || part == "_inductor")) return false;
    i = end == std::string::npos ? module.size() : end;
  }
  return true;
}

// str.isidentifier(); characters beyond ASCII are taken as letters (Python accepts most of them).
bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// torch.fx.graph._format_target: attribute access through each part, getattr() for non-identifiers.
std::string format_target(const std::string& base, const std::string& target) {
  std::string r = base;
  size_t start = 0;
  for (;;) {
    size_t dot = target.find('.', start);
    std::string e = target.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    r = is_identifier(e) ? r + "." + e : "getattr(" + r + ", \"" + e + "\")";
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return r;
}

// repr(torch.device(name)).
std::string device_repr(const std::string& name) {
  size_t colon = name.find(':');
  if (colon == std::string::npos) return "device(type='" + name + "')";
  return "device(type='" + name.substr(0, colon) + "', index=" + name.substr(colon + 1) + ")";
}


// The codegen namespace: one name per node and per global, unique across both (torch's _Namespace with
// its object-to-name cache). Builtins keep their own name and are not recorded: graph names never take a
// builtin's name, so recording them changes nothing.
class CodeNames {
 public:
  const std::string& node(const Node* n) {
    auto it = nodes_.find(n);
    if (it == nodes_.end()) it = nodes_.emplace(n, ns_.create_name(n->name())).first;
    return it->second;
  }
  const std::string& global(const std::string& qualified_name) {
    auto it = globals_.find(qualified_name);
    if (it == globals_.end()) it = globals_.emplace(qualified_name, ns_.create_name(qualified_name)).first;
    return it->second;
  }

 private:
  Namespace ns_;
  std::unordered_map<const Node*, std::string> nodes_;
  std::unordered_map<std::string, std::string> globals_;
};

class CodeGen {
 public:
  CodeGen(const Graph& graph, const PyTreeCode* pytree) : nodes_(graph.nodes()), pytree_(pytree) {}

  std::string run() {
    compute_last_uses();
    for (size_t i = 0; i < nodes_.size(); ++i) {
      body_.push_back("# COUNTER: " + std::to_string(i) + "\n");
      emit_node(nodes_[i]);
      delete_unused_values(nodes_[i]);
    }
    if (body_.empty()) body_.push_back("pass\n");

    std::vector<std::string> wraps;
    for (const std::string& fn : wrapped_fns_) wraps.push_back("torch.fx._symbolic_trace.wrap(\"" + fn + "\")");
    std::string wrap_stmts = join(wraps, "\n");

    std::string prologue = pytree_ ? pytree_prologue() : fn_def(free_vars_);

    std::string joined;
    for (const std::string& piece : body_) joined += piece;
    std::vector<std::string> lines;
    size_t start = 0;
    for (;;) {
      size_t nl = joined.find('\n', start);
      std::string line = joined.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (!is_counter_line(line)) lines.push_back(line);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    std::string code = join(lines, "\n");
    size_t first_text = code.find_first_not_of('\n');  // .lstrip("\n")
    code.erase(0, first_text == std::string::npos ? code.size() : first_text);
    std::string indented = "    ";
    for (char c : code) {
      indented += c;
      if (c == '\n') indented += "    ";
    }
    return "\n" + wrap_stmts + "\n\n" + prologue + "\n" + indented;
  }

 private:
  // CodeGen.gen_fn_def: "self" goes first unless the first argument already is "self".
  std::string fn_def(std::vector<std::string> args) const {
    if (args.empty() || args[0] != "self") args.insert(args.begin(), "self");
    return "def forward(" + join(args, ", ") + ")" + return_annotation_ + ":";
  }

  // _PyTreeCodeGen.gen_fn_def and gen_var_bindings: the signature takes orig_args and, when the graph has
  // placeholders, a line binds them to the flattened arguments (after a line of their annotations).
  std::string pytree_prologue() {
    const std::vector<std::string>& orig = pytree_->orig_args;
    if (!orig.empty() && orig[0] == "self") free_vars_.insert(free_vars_.begin(), "self");
    std::string def = fn_def(orig);
    if (free_vars_.empty()) return def;

    std::vector<std::string> annotated, bare;
    for (const std::string& v : free_vars_) {
      if (v.find(':') != std::string::npos) annotated.push_back(v);
      // x.split(":")[0].split("#")[0]
      std::string name = v.substr(0, v.find(':'));
      bare.push_back(name.substr(0, name.find('#')));
    }
    std::string signature;
    if (pytree_->args_kwargs) {
      // Python slices and zip() stop at the shorter sequence.
      const size_t count = std::min(pytree_->count_args, orig.size());
      std::vector<std::string> args(orig.begin(), orig.begin() + count), kwargs;
      for (size_t i = 0; i < pytree_->kwarg_keys.size() && count + i < orig.size(); ++i)
        kwargs.push_back("'" + pytree_->kwarg_keys[i] + "':" + orig[count + i]);
      signature = "([" + join(args, ", ") + "], {" + join(kwargs, ", ") + "}), self._in_spec";
    } else {
      signature = "[" + join(orig, ", ") + "], self._in_spec";
    }
    if (!annotated.empty()) def += "\n    " + join(annotated, "; ") + ";\n";
    return def + "\n    " + join(bare, ", ") + ", = fx_pytree.tree_flatten_spec(" + signature + ")";
  }

  // _counter_regexp.search: "# COUNTER: " followed by a digit anywhere in the line.
  static bool is_counter_line(const std::string& line) {
    static const std::string marker = "# COUNTER: ";
    for (size_t p = line.find(marker); p != std::string::npos; p = line.find(marker, p + 1)) {
      size_t d = p + marker.size();
      if (d < line.size() && line[d] >= '0' && line[d] <= '9') return true;
    }
    return false;
  }

  // The first use met walking backwards is a node's last use; its user frees it.
  void compute_last_uses() {
    std::unordered_set<const Node*> seen;
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
      for (const Node* input : (*it)->all_input_nodes()) {
        if (seen.insert(input).second) user_to_last_uses_[*it].push_back(input);
      }
    }
  }

  // _get_repr. FX turns torch.Size arguments into plain tuples, so a Size prints as one.
  std::string repr(const Value& v) {
    switch (v.kind()) {
      case ValueKind::None: return "None";
      case ValueKind::Bool: return v.as_bool() ? "True" : "False";
      case ValueKind::Int: return std::to_string(v.as_int());
      case ValueKind::Float: return python_float_repr(v.as_float());
      case ValueKind::Str: return python_str_repr(v.as_str());
      case ValueKind::Tuple:
      case ValueKind::Size: {
        std::vector<std::string> parts;
        for (const Value& item : v.items()) parts.push_back(repr(item));
        return parts.size() == 1 ? "(" + parts[0] + ",)" : "(" + join(parts, ", ") + ")";
      }
      case ValueKind::List: {
        std::vector<std::string> parts;
        for (const Value& item : v.items()) parts.push_back(repr(item));
        return "[" + join(parts, ", ") + "]";
      }
      case ValueKind::Dict: {
        std::vector<std::string> parts;
        for (const auto& [key, item] : v.dict_items()) {
          std::string k = python_str_repr(key);
          parts.push_back(k + ": " + repr(item));
        }
        return "{" + join(parts, ", ") + "}";
      }
      case ValueKind::Slice: {
        const ValueList& s = v.items();
        std::string a = repr(s[0]);
        std::string b = repr(s[1]);
        std::string c = repr(s[2]);
        return "slice(" + a + ", " + b + ", " + c + ")";
      }
      case ValueKind::Ellipsis: return "Ellipsis";
      case ValueKind::Dtype:
      case ValueKind::MemoryFormat:
      case ValueKind::Layout: return "torch." + v.as_str();
      case ValueKind::Device: return device_repr(v.as_str());
      case ValueKind::NodeRef: return names_.node(v.as_node());
    }
    return "None";
  }

  // _format_args: positional reprs, then "k = v".
  std::string format_args(const ValueList& args, size_t first, const Kwargs& kwargs) {
    std::vector<std::string> parts;
    for (size_t i = first; i < args.size(); ++i) parts.push_back(repr(args[i]));
    for (const auto& [key, value] : kwargs) {
      std::string r = repr(value);
      parts.push_back(key + " = " + r);
    }
    return join(parts, ", ");
  }

  // str.format of a "{} op {}" pattern with the reprs of all args.
  std::string format_pattern(const Node* n, const char* pattern) {
    std::vector<std::string> reprs;
    for (const Value& a : n->args()) reprs.push_back(repr(a));
    std::string out;
    size_t next = 0;
    for (const char* p = pattern; *p; ++p) {
      if (p[0] == '{' && p[1] == '}') {
        if (next >= reprs.size()) {
          throw FxError("operator " + n->target() + " needs more arguments than the " +
                            std::to_string(reprs.size()) + " given", n->name());
        }
        out += reprs[next++];
        ++p;
      } else {
        out += *p;
      }
    }
    return out;
  }

  const Value& first_arg(const Node* n) {
    if (n->args().empty()) throw FxError(std::string(op_name(n->op())) + " node has no arguments", n->name());
    return n->args()[0];
  }

  void emit_node(const Node* n) {
    const std::string annotation = n->type_expr().empty() ? "" : " : " + n->type_expr();
    switch (n->op()) {
      case Op::Placeholder: {
        std::string default_value = n->args().empty() ? "" : " = " + repr(n->args()[0]);
        free_vars_.push_back(n->target() + annotation + default_value);
        std::string raw_name = n->target();
        raw_name.erase(std::remove(raw_name.begin(), raw_name.end(), '*'), raw_name.end());
        const std::string& name = names_.node(n);
        if (raw_name != name) body_.push_back(name + " = " + raw_name + "\n");
        return;
      }
      case Op::CallMethod: {
        std::string lhs = names_.node(n) + annotation;
        std::string self = repr(first_arg(n));
        std::string args = format_args(n->args(), 1, n->kwargs());
        body_.push_back(lhs + " = " + format_target(self, n->target()) + "(" + args + ")");
        return;
      }
      case Op::CallFunction: emit_call_function(n, annotation); return;
      case Op::CallModule: {
        std::string lhs = names_.node(n) + annotation;
        std::string args = format_args(n->args(), 0, n->kwargs());
        body_.push_back(lhs + " = " + format_target("self", n->target()) + "(" + args + ")");
        return;
      }
      case Op::GetAttr:
        body_.push_back(names_.node(n) + annotation + " = " + format_target("self", n->target()));
        return;
      case Op::Output:
        if (!n->type_expr().empty()) return_annotation_ = " -> " + n->type_expr();
        if (pytree_ && pytree_->has_out_spec)
          body_.push_back("return pytree.tree_unflatten(" + repr(first_arg(n)) + ", self._out_spec)");
        else
          body_.push_back("return " + repr(first_arg(n)));
        return;
    }
  }

  void emit_call_function(const Node* n, const std::string& annotation) {
    const std::string& target = n->target();
    if (target.compare(0, 9, "operator.") == 0) {
      std::string fn = target.substr(9);
      auto magic = magic_methods().find(fn);
      if (magic != magic_methods().end()) {
        std::string lhs = names_.node(n) + annotation;
        body_.push_back(lhs + " = " + format_pattern(n, magic->second));
        return;
      }
      auto inplace = inplace_methods().find(fn);
      if (inplace != inplace_methods().end()) {
        std::string stmt = format_pattern(n, inplace->second);
        std::string lhs = names_.node(n) + annotation;
        body_.push_back(stmt + ";  " + lhs + " = " + repr(first_arg(n)));
        return;
      }
    }

    bool from_torch = false, builtin = false;
    std::string qualified = codegen_qualified_name(target, &from_torch, &builtin);
    std::string global_name = (from_torch || builtin) ? qualified : names_.global(qualified);

    const ValueList& args = n->args();
    if (global_name == "getattr" && args.size() == 2 && args[1].kind() == ValueKind::Str &&
        is_identifier(args[1].as_str())) {
      std::string lhs = names_.node(n) + annotation;
      body_.push_back(lhs + " = " + format_target(repr(args[0]), args[1].as_str()));
      return;
    }
    std::string formatted = format_args(args, 0, n->kwargs());
    std::string lhs = names_.node(n) + annotation;
    body_.push_back(lhs + " = " + global_name + "(" + formatted + ")");
    const Value* wrapped = n->meta_value("is_wrapped");
    if (wrapped && wrapped->kind() == ValueKind::Bool && wrapped->as_bool() &&
        std::find(wrapped_fns_.begin(), wrapped_fns_.end(), global_name) == wrapped_fns_.end()) {
      wrapped_fns_.push_back(global_name);
    }
  }

  void delete_unused_values(const Node* user) {
    if (user->op() == Op::Placeholder) return;
    if (user->op() == Op::Output) {
      body_.push_back("\n");
      return;
    }
    std::vector<const Node*> to_delete;
    auto it = user_to_last_uses_.find(user);
    if (it != user_to_last_uses_.end()) to_delete = it->second;
    // A node nobody uses (kept for its side effects) is freed right after it runs.
    if (user->users().empty()) to_delete.push_back(user);
    if (to_delete.empty()) {
      body_.push_back("\n");
      return;
    }
    std::vector<std::string> parts;
    for (const Node* d : to_delete) parts.push_back(names_.node(d));
    parts.push_back("None");
    body_.push_back(";  " + join(parts, " = ") + "\n");
  }

  std::vector<Node*> nodes_;
  const PyTreeCode* pytree_;  // nullptr: the default CodeGen
  std::unordered_map<const Node*, std::vector<const Node*>> user_to_last_uses_;
  CodeNames names_;
  std::vector<std::string> body_;
  std::vector<std::string> free_vars_;
  std::vector<std::string> wrapped_fns_;
  std::string return_annotation_;
};

}  // namespace

std::string codegen_qualified_name(const std::string& target, bool* from_torch, bool* builtin) {
  *from_torch = false;
  *builtin = false;
  // Canonical names of OpOverloads drop torch's "torch.ops." prefix.
  if (is_op_overload_target(target)) {
    *from_torch = true;
    return target.compare(0, 10, "torch.ops.") == 0 ? target : "torch.ops." + target;
  }
  size_t last_dot = target.rfind('.');
  if (last_dot == std::string::npos) {
    // _get_qualified_name gives a builtin's bare name ("len", "getattr").
    *builtin = true;
    return target;
  }
  // fxwasm's own ops (the fusion pass's fxwasm.fused_conv2d, ...) print by qualified name, as torch's do.
  if (target.compare(0, 7, "fxwasm.") == 0) {
    *from_torch = true;
    return target;
  }
  // The operator module's functions live in _operator.
  if (target.compare(0, 9, "operator.") == 0) return "_operator." + target.substr(9);
  if (target.compare(0, 13, "torch.Tensor.") == 0) {
    *from_torch = python_tensor_methods().count(target.substr(13)) != 0;
    return target;
  }
  *from_torch = torch_but_not_dynamo(target.substr(0, last_dot));
  return target;
}

std::string python_code(const Graph& graph) { return CodeGen(graph, nullptr).run(); }

std::string python_code(const Graph& graph, const PyTreeCode& pytree) { return CodeGen(graph, &pytree).run(); }

PyTreeCode pytree_code(std::vector<std::string> orig_args, const Value* inputs, const Value* outputs) {
  PyTreeCode code;
  code.orig_args = std::move(orig_args);
  // _PyTreeCodeGen's has_args_kwargs_tuple: a 2-tuple of a tuple and a dict.
  if (inputs && inputs->kind() == ValueKind::Tuple && inputs->items().size() == 2 &&
      inputs->items()[0].kind() == ValueKind::Tuple && inputs->items()[1].kind() == ValueKind::Dict) {
    code.args_kwargs = true;
    code.count_args = inputs->items()[0].items().size();
    for (const auto& [key, value] : inputs->items()[1].dict_items()) code.kwarg_keys.push_back(key);
  }
  code.has_out_spec = outputs != nullptr;
  return code;
}

}  // namespace fx
